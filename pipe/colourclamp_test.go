package pipe

import (
	"testing"

	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
)

// TestClampVertexColours checks the vertex colour clamp transform: a program
// without legacy colour outputs is left alone; one with them stores each
// through an fclamp, verifies, and its input is not modified.
func TestClampVertexColours(t *testing.T) {
	const fs = "void main() { gl_FragColor = gl_Color; }"
	tests := []struct {
		vs     string
		clamps int
	}{
		{"varying vec4 c; void main() { gl_Position = gl_Vertex; c = gl_Vertex; }", 0},
		{"void main() { gl_Position = gl_Vertex; gl_FrontColor = gl_Vertex * 2.0; }", 4},
	}
	for _, tc := range tests {
		opts := glsl.Options{Compatibility: true}
		cp, err := shader.Compile(shader.Source{Name: "t.vert", Stage: glsl.Vertex, Text: tc.vs, Options: opts},
			shader.Source{Name: "t.frag", Stage: glsl.Fragment, Text: fs, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		p := cp.IR
		before := len(p.VS.Code)
		q := ClampVertexColours(p)
		if (q == nil) != (tc.clamps == 0) {
			t.Fatalf("%q: ClampVertexColours returned %v", tc.vs, q)
		}
		if q == nil {
			continue
		}
		if len(p.VS.Code) != before {
			t.Errorf("%q: the input program changed", tc.vs)
		}
		if err := ir.Verify(q.VS); err != nil {
			t.Errorf("%q: %v", tc.vs, err)
		}
		n := 0
		for _, in := range q.VS.Code {
			if in.Op == ir.FClamp {
				n++
			}
		}
		if n != tc.clamps {
			t.Errorf("%q: %d clamps, want %d", tc.vs, n, tc.clamps)
		}
	}
}

// TestClampVertexColor draws a quad whose vertex stage writes colours up to
// 4 on both paths: without the clamp the fragment stage's quarter of the
// colour is the vertex colour again, with RasterizerState.ClampVertexColor
// it is at most 0.25. The device draw stays on the device.
// spec: GL 3.0 §2.19.6 (CLAMP_VERTEX_COLOR)
func TestClampVertexColor(t *testing.T) {
	const vs = `#version 120
attribute vec4 pos;
attribute vec4 col;
void main() { gl_Position = pos; gl_FrontColor = col * 4.0; }
`
	const fs = `#version 120
void main() { gl_FragColor = vec4(gl_Color.rgb * 0.25, 1.0); }
`
	for _, clamp := range []bool{false, true} {
		for _, o := range []Options{{ForceReference: true}, {Strict: true}} {
			e := newDrawEnv(t, o, false)
			r, err := e.c.CreateRasterizerState(RasterizerState{ClampVertexColor: clamp})
			if err != nil {
				t.Fatal(err)
			}
			e.c.BindRasterizerState(r)
			e.program(t, vs, fs)
			e.posCol(t, quadVerts(0, [4]float32{1, 0.5, 0.125, 1}, -1, -1, 1, 1)...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				t.Fatal(err)
			}
			want := [3]uint8{255, 128, 32}
			if clamp {
				want = [3]uint8{64, 64, 32}
			}
			c := e.image(t).NRGBAAt(16, 16)
			if got := [3]uint8{c.R, c.G, c.B}; got != want {
				t.Errorf("clamp %t, force reference %v: %v, want %v", clamp, o.ForceReference, got, want)
			}
		}
	}
}
