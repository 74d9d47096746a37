package pipe

import "testing"

// TestIgnoreShaderPointSize draws one point whose vertex stage writes
// gl_PointSize 8: it covers 8×8 pixels, or one at the rasterizer's size 1
// with IgnoreShaderPointSize (desktop GL without GL_PROGRAM_POINT_SIZE).
// spec: GL 4.6 §14.4
func TestIgnoreShaderPointSize(t *testing.T) {
	const vs = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
void main() { gl_Position = pos; gl_PointSize = 8.0; v_col = col; }
`
	for _, tc := range []struct {
		ignore bool
		want   int
	}{{false, 64}, {true, 1}} {
		e := newDrawEnv(t, Options{}, false)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		r, err := e.c.CreateRasterizerState(RasterizerState{PointSize: 1, IgnoreShaderPointSize: tc.ignore})
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindRasterizerState(r)
		e.program(t, vs, testFS)
		e.posCol(t, 0, 0, 0, 1, 1, 1, 1, 1)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimPoints, InstanceCount: 1, Draws: []DrawRange{{Count: 1}}}); err != nil {
			t.Fatal(err)
		}
		img, n := e.image(t), 0
		for i := 0; i < len(img.Pix); i += 4 {
			if img.Pix[i] == 255 {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("ignore %t: %d pixels, want %d", tc.ignore, n, tc.want)
		}
	}
}
