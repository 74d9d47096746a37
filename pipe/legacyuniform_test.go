package pipe

import (
	"testing"
)

// TestLegacyState draws a quad through the compatibility built-in uniforms
// on both paths: gl_ModelViewProjectionMatrix from a model-view translation
// and a projection scale, the colour from gl_LightSource[0].diffuse. Both
// paths must cover exactly the transformed quad in the light's colour.
// spec: GLSL 1.20 §7.5 (built-in uniform state)
func TestLegacyState(t *testing.T) {
	const vs = `#version 120
attribute vec4 pos;
attribute vec4 col;
void main() { gl_Position = gl_ModelViewProjectionMatrix * pos; gl_FrontColor = gl_LightSource[0].diffuse * col; }
`
	const fs = `#version 120
void main() { gl_FragColor = gl_Color; }
`
	ls := DefaultLegacyState()
	ls.ModelView[12] = 1                          // x += 1
	ls.Projection[0], ls.Projection[5] = 0.5, 0.5 // then halve x and y
	ls.Lights[0].Diffuse = [4]float32{0, 1, 0, 1}
	for _, o := range []Options{{ForceReference: true}, {Strict: true}} {
		e := newDrawEnv(t, o, false)
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		e.program(t, vs, fs)
		e.c.SetLegacyState(&ls)
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		// The quad spans x in [0, 1], y in [-0.5, 0.5]: window columns
		// 16..31, rows 8..23.
		img := e.image(t)
		bad := 0
		for y := 0; y < 32; y++ {
			for x := 0; x < 32; x++ {
				c := img.NRGBAAt(x, y)
				in := x >= 16 && y >= 8 && y < 24
				if want := in; (c.G == 255 && c.R == 0 && c.B == 0) != want {
					bad++
				}
			}
		}
		if bad != 0 {
			t.Errorf("force reference %v: %d pixels wrong", o.ForceReference, bad)
		}
	}
}

// TestLegacyMatrices checks the derived matrices: the model-view-projection
// product, the normal matrix of a scale and a matrix's inverse variants.
func TestLegacyMatrices(t *testing.T) {
	s := DefaultLegacyState()
	if s.ModelViewProjection() != identity4 || s.NormalMatrix() != [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1} {
		t.Errorf("default: MVP %v, normal matrix %v", s.ModelViewProjection(), s.NormalMatrix())
	}
	s.ModelView[0], s.ModelView[5], s.ModelView[10] = 2, 4, 0.5
	if n := s.NormalMatrix(); n != [9]float32{0.5, 0, 0, 0, 0.25, 0, 0, 0, 2} {
		t.Errorf("normal matrix %v", n)
	}
	got := map[string][]uint32{}
	for _, b := range s.Builtins() {
		got[b.Name] = b.Words
	}
	inv := got["gl_ModelViewMatrixInverse"]
	if len(inv) != 16 || inv[0] != words(0.5)[0] || inv[5] != words(0.25)[0] || inv[10] != words(2)[0] {
		t.Errorf("gl_ModelViewMatrixInverse %v", inv)
	}
	if n := len(got["gl_LightSource"]); n != MaxLights*29 {
		t.Errorf("gl_LightSource: %d words, want %d", n, MaxLights*29)
	}
}
