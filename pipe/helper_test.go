package pipe

import "testing"

// TestHelperInvocation draws a triangle whose diagonal edge cuts 2x2 quads, so
// its edge quads run uncovered helper lanes for derivatives. The fragment
// shader writes gl_HelperInvocation (red) and the derivative of it (green):
// every written pixel reads false, and covered pixels that share a quad with a
// helper see a derivative of 1 — the same pixels on the device and on the
// reference renderer. spec: GLSL 4.50 §7.1.2, GLSL ES 3.10 §7.1.2
func TestHelperInvocation(t *testing.T) {
	const fs = `#version 310 es
precision mediump float;
in vec4 v_col;
out vec4 o_col;
void main() {
	float h = float(gl_HelperInvocation);
	o_col = vec4(h, abs(dFdx(h)) + abs(dFdy(h)), 0.0, 1.0);
}
`
	const vs = `#version 310 es
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
void main() { gl_Position = pos; v_col = col; }
`
	draw := func(o Options) *drawEnv {
		e := newDrawEnv(t, o, false)
		e.program(t, vs, fs)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 1, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		e.posCol(t, -0.93, -0.97, 0, 1, 0, 0, 0, 1, 0.91, -0.97, 0, 1, 0, 0, 0, 1, -0.93, 0.89, 0, 1, 0, 0, 0, 1)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	dev, ref := draw(Options{Strict: true}), draw(Options{ForceReference: true})
	if st := dev.c.Stats(); st.Device != 1 || st.Reference != 0 {
		t.Fatalf("device stats %+v", st)
	}
	a, b := dev.image(t), ref.image(t)
	edge, drawn := 0, 0
	for i := 0; i < len(b.Pix); i += 4 {
		if b.Pix[i+2] == 255 { // the clear colour: not drawn
			continue
		}
		drawn++
		if b.Pix[i] != 0 {
			t.Fatalf("pixel %d: gl_HelperInvocation is true on a written pixel", i/4)
		}
		if b.Pix[i+1] == 255 {
			edge++
		}
	}
	if drawn == 0 || edge == 0 || edge == drawn {
		t.Errorf("%d pixels drawn, %d next to a helper: the test no longer cuts quads", drawn, edge)
	}
	if bad, worst := compareImages(a, b, 0); bad != 0 || worst != 0 {
		t.Errorf("device and reference differ in %d pixels (worst %d)", bad, worst)
	}
}
