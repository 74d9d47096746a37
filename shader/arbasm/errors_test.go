package arbasm

import (
	"errors"
	"strings"
	"testing"
)

// TestErrors checks that each malformed program is refused with the line
// and column of its first error and a message naming the problem; none
// panics. spec: ARB_vertex_program §2.14.1 (the error position),
// §2.14.2-§2.14.5 (the rules each case breaks)
func TestErrors(t *testing.T) {
	cases := []struct {
		target      Target
		src         string
		line, col   int
		msg         string
		unsupported bool
	}{
		{VertexProgram, "MOV result.color, 1;\nEND", 1, 1, `must start with "!!ARBvp1.0"`, false},
		{VertexProgram, "!!ARBfp1.0\nEND", 1, 1, `not "!!ARBfp1.0"`, false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color, vertex.color;\n", 3, 1, "missing END", false},
		{VertexProgram, "!!ARBvp1.0\nFOO result.color, vertex.color;\nEND", 2, 1, "unknown instruction FOO", false},
		{VertexProgram, "!!ARBvp1.0\nTEX result.color, vertex.color, texture[0], 2D;\nEND", 2, 1, "TEX is not a vertex program instruction", false},
		{FragmentProgram, "!!ARBfp1.0\nEXP result.color, fragment.color.x;\nEND", 2, 1, "EXP is not a fragment program instruction", false},
		{VertexProgram, "!!ARBvp1.0\nMOV_SAT result.color, vertex.color;\nEND", 2, 1, "no _SAT form", false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color, vertex.color\nEND", 3, 1, `expected ";"`, false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color, t;\nEND", 2, 19, "undeclared name t", false},
		{VertexProgram, "!!ARBvp1.0\nTEMP t, t;\nEND", 2, 9, "t redeclared", false},
		{VertexProgram, "!!ARBvp1.0\nTEMP MOV;\nEND", 2, 6, "instruction name", false},
		{VertexProgram, "!!ARBvp1.0\nRCP result.color, vertex.color;\nEND", 2, 19, "must be a scalar", false},
		{VertexProgram, "!!ARBvp1.0\nPOW result.color, vertex.color.x, vertex.color.xy;\nEND", 2, 48, "one or four components", false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color.yx, vertex.color;\nEND", 2, 18, "not in xyzw order", false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color.rgba, vertex.color;\nEND", 2, 18, "invalid component suffix", false},
		{FragmentProgram, "!!ARBfp1.0\nMOV result.color.xgba, fragment.color;\nEND", 2, 18, "invalid component suffix", false},
		{VertexProgram, "!!ARBvp1.0\nOUTPUT o = result.color;\nMOV result.position, o;\nEND", 3, 22, "cannot be read", false},
		{VertexProgram, "!!ARBvp1.0\nATTRIB a = vertex.color;\nMOV a, vertex.color;\nEND", 3, 5, "cannot be written", false},
		{VertexProgram, "!!ARBvp1.0\nADDRESS A;\nMOV A.x, vertex.color;\nEND", 3, 5, "only ARL writes", false},
		{VertexProgram, "!!ARBvp1.0\nTEMP t;\nARL t.x, vertex.color.x;\nEND", 3, 5, "ARL writes an ADDRESS register", false},
		{VertexProgram, "!!ARBvp1.0\nADDRESS A;\nARL A, vertex.color.x;\nEND", 3, 5, "only the x component", false},
		{FragmentProgram, "!!ARBfp1.0\nADDRESS A;\nEND", 2, 1, "only in vertex programs", false},
		{VertexProgram, "!!ARBvp1.0\nPARAM p[2] = { {1}, {2}, {3} };\nEND", 2, 14, "declared with 2 elements is initialised with 3", false},
		{VertexProgram, "!!ARBvp1.0\nPARAM p[2] = { program.local[0..1] };\nMOV result.color, p[2];\nEND", 3, 21, "out of range", false},
		{VertexProgram, "!!ARBvp1.0\nPARAM p = program.local[0..1];\nEND", 2, 26, "needs an array PARAM", false},
		{VertexProgram, "!!ARBvp1.0\nPARAM p = program.local[5000];\nEND", 2, 25, "out of range", false},
		{VertexProgram, "!!ARBvp1.0\nPARAM p = { 1, 2, 3, 4, 5 };\nEND", 2, 25, "at most four", false},
		{VertexProgram, "!!ARBvp1.0\nPARAM p = state.matrix.mvp;\nEND", 2, 11, "needs an array PARAM", false},
		{VertexProgram, "!!ARBvp1.0\nTEMP t;\nMOV result.color, t[0];\nEND", 3, 20, "not an array", false},
		{VertexProgram, "!!ARBvp1.0\nTEMP t;\nPARAM p[] = { {1}, {2} };\nMOV result.color, p[t.x];\nEND", 4, 21, "not an ADDRESS register", false},
		{VertexProgram, "!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.position, vertex.position;\nEND", 3, 5, "ARB_position_invariant", false},
		{VertexProgram, "!!ARBvp1.0\nTEMP t;\nOPTION ARB_position_invariant;\nEND", 3, 1, "OPTION after", false},
		{VertexProgram, "!!ARBvp1.0\nOPTION NV_foo;\nEND", 2, 8, "unknown vertex program option NV_foo", false},
		{FragmentProgram, "!!ARBfp1.0\nOPTION ARB_precision_hint_fastest;\nOPTION ARB_precision_hint_nicest;\nEND", 3, 8, "together", false},
		{FragmentProgram, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND", 2, 53, "needs OPTION ARB_fragment_program_shadow", false},
		{FragmentProgram, "!!ARBfp1.0\nTEMP a;\nTEX a, fragment.texcoord[0], texture[0], 2D;\nTEX a, a, texture[0], 3D;\nEND", 4, 23, "sampled as 2D and as 3D", false},
		{FragmentProgram, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[99], 2D;\nEND", 2, 49, "out of range", false},
		{FragmentProgram, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 4D;\nEND", 2, 53, "expected a texture target", false},
		{FragmentProgram, "!!ARBfp1.0\nSCS result.color, fragment.color.x;\nEND", 2, 5, "writes only x and y", false},
		{FragmentProgram, "!!ARBfp1.0\nMOV result.color, vertex.color;\nEND", 2, 19, "not available in a fragment program", false},
		{FragmentProgram, "!!ARBfp1.0\nMOV result.color[1], fragment.color;\nEND", 2, 17, "needs OPTION ARB_draw_buffers", false},
		{VertexProgram, "!!ARBvp1.0\nSWZ result.color, vertex.color, x, y, 2, w;\nEND", 2, 39, "expected 0, 1 or a component", false},
		{VertexProgram, "!!ARBvp1.0\nSWZ result.color, vertex.color.x, x, y, z, w;\nEND", 2, 19, "takes no swizzle", false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color, vertex.color;\n@\nEND", 3, 1, "unexpected character", false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.color, vertex.nothing;\nEND", 2, 26, "unknown vertex attribute", false},
		{VertexProgram, "!!ARBvp1.0\nMOV result.nothing, vertex.color;\nEND", 2, 12, "unknown vertex program result", false},
		{VertexProgram, "!!ARBvp1.0\nALIAS b = a;\nEND", 2, 11, "ALIAS of undeclared", false},
		// Well-formed but not implemented: Unsupported.
		{VertexProgram, "!!ARBvp1.0\nMOV result.color, vertex.attrib[3];\nEND", 2, 26, "only generic attribute 0", true},
		{VertexProgram, "!!ARBvp1.0\nPARAM m[4] = { state.matrix.mvp.inverse };\nEND", 2, 16, "no matrix inverse", true},
		{VertexProgram, "!!ARBvp1.0\nPARAM f = state.fog.color;\nEND", 2, 11, "state.fog", true},
		{FragmentProgram, "!!ARBfp1.0\nOPTION ARB_fog_linear;\nEND", 2, 8, "fixed-function fog", true},
		{FragmentProgram, "!!ARBfp1.0\nOPTION ARB_fragment_coord_origin_upper_left;\nEND", 2, 8, "not supported", true},
	}
	for _, tc := range cases {
		_, err := Translate(tc.src, tc.target)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v, want an *Error", tc.src, err)
			continue
		}
		if e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) || e.Unsupported != tc.unsupported {
			t.Errorf("%q:\n got %d:%d %q (unsupported %v)\nwant %d:%d containing %q (unsupported %v)", tc.src, e.Line, e.Col, e.Msg,
				e.Unsupported, tc.line, tc.col, tc.msg, tc.unsupported)
		}
	}
}

// TestAccepted checks programs the grammar allows and the translation
// takes: comments, aliases, outputs, state bindings, every texture target,
// text after END.
func TestAccepted(t *testing.T) {
	for _, tc := range []struct {
		target Target
		src    string
	}{
		{VertexProgram, "  \n!!ARBvp1.0 # comment\nATTRIB p = vertex.position; OUTPUT o = result.position; ALIAS q = p;\nMOV o, q;\nEND\nanything"},
		{VertexProgram, "!!ARBvp1.0\nPARAM m[] = { state.matrix.mvp.transpose, state.matrix.texture[1].row[1..2], state.matrix.modelview[0].row[3] };\n" +
			"PARAM l = state.light[1].spot.direction; PARAM k = state.lightprod[0].back.diffuse; PARAM s = state.material.shininess;\n" +
			"PARAM c = state.clip[2].plane; PARAM d = state.depth.range; PARAM z = state.point.attenuation; PARAM a = state.lightmodel.ambient;\n" +
			"DP4 result.position.x, m[0], vertex.position; MOV result.color.back.secondary, l; MOV result.texcoord[7], k;\n" +
			"MOV result.fogcoord.x, s; MOV result.pointsize, c; ADD result.color, d, z; SUB result.texcoord, a, vertex.normal;\n" +
			"MOV result.texcoord[1], vertex.fogcoord; MOV result.texcoord[2], vertex.texcoord[5]; MOV result.texcoord[3], vertex.color.secondary;\nEND"},
		{FragmentProgram, "!!ARBfp1.0\nOPTION ARB_fragment_program_shadow;\nTEMP a;\nTEX a, fragment.texcoord, texture[0], 1D;\n" +
			"TXB a, a, texture[1], 2D; TXP a, a, texture[2], 3D; TEX a, a, texture[3], CUBE; TXP a, a, texture[4], CUBE;\n" +
			"TXP a, a, texture[5], RECT; TXB a, a, texture[6], SHADOW1D; TXP a, a, texture[7], SHADOW2D; TEX a, a, texture[8], SHADOWRECT;\n" +
			"MOV result.color, a; MOV result.depth, fragment.fogcoord;\nEND"},
		{FragmentProgram, "!!ARBfp1.0\nOPTION ARB_draw_buffers;\nMOV result.color, 1; MOV result.color[3], -.5e1;\nEND"},
	} {
		if _, _, err := Compile(tc.src, tc.target); err != nil {
			t.Errorf("%q: %v", tc.src, err)
		}
	}
}
