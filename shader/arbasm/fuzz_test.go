package arbasm

import (
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary program strings to both targets: every input is
// either refused with a positioned *Error (never a panic) or translated into
// GLSL that compiles to verified IR. The seed corpus is testdata/fuzz/FuzzParse
// plus the programs below.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n",
		"!!ARBvp1.0\nADDRESS A;\nPARAM p[] = { program.local[0..3] };\nARL A.x, vertex.color.x;\nMOV result.color, p[A.x-1];\nEND\n",
		"!!ARBfp1.0\nOPTION ARB_fragment_program_shadow;\nTXP result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND\n",
		"!!ARBfp1.0\nTEMP a;\nKIL -a.xyxx;\nSWZ result.color, a, -1, 0, x, -w;\nEND\n",
		"!!ARBvp1.0\nEXP result.color, 1e40;\nLOG result.texcoord, -.5;\nLIT result.fogcoord, {1, 2};\nEND\n",
		"!!ARBvp1.0\nPARAM m[4] = { state.matrix.mvp };\nDP4 result.position.x, m[0], vertex.position;\nEND\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, target := range []Target{VertexProgram, FragmentProgram} {
			_, _, err := Compile(src, target)
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%s %q: %v", target, src, err)
			}
			if e != nil && (e.Line < 1 || e.Col < 1) {
				t.Fatalf("%s %q: error without a position: %v", target, src, e)
			}
		}
	})
}
