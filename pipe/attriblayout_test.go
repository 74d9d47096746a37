package pipe

import (
	"strings"
	"testing"
)

// TestAttributeLayout: vertex elements built from AttributeLayout feed every
// attribute (an explicit location, implicit ones, a mat2 in one element) on
// both paths; an implicit attribute whose index is an explicit location is
// refused; the fixed-function stage's layout is gl_Vertex, gl_Color and
// gl_MultiTexCoord0 at elements 0 to 2.
func TestAttributeLayout(t *testing.T) {
	const vs = `#version 330
in vec2 off;
layout(location = 5) in vec4 pos;
in mat2 m;
in vec4 col;
out vec4 v_col;
void main() { gl_Position = pos + vec4(off, 0.0, 0.0); v_col = col * vec4(m[0], m[1]); }
`
	const fs = `#version 330
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col; }
`
	values := map[string][]float32{"off": {0.1, 0}, "col": {1, 0.5, 1, 1}, "m": {1, 0.5, 0, 1}}
	for _, o := range []Options{{Strict: true}, {ForceReference: true}} {
		e := newDrawEnv(t, o, false)
		e.program(t, vs, fs)
		layout, err := e.c.AttributeLayout()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range layout {
			n = max(n, a.Element+a.Columns)
			if a.Name == "pos" && a.Element != 5 || a.Name == "m" && (a.Words != 4 || a.Columns != 1) {
				t.Errorf("attribute %+v", a)
			}
		}
		if len(layout) != 4 {
			t.Fatalf("layout %+v, want 4 attributes", layout)
		}
		// One 4-float slot an element, n elements a vertex.
		stride := 4 * n
		data := make([]float32, 4*stride)
		els := make([]VertexElement, n)
		for i := range els {
			els[i] = VertexElement{SrcOffset: uint32(16 * i), Format: VertexFloat32x4}
		}
		for _, a := range layout {
			for c := 0; c < a.Columns; c++ {
				cw := min(4, a.Words-4*c)
				els[a.Element+c].Format = VertexFloat32x1 + VertexFormat(cw-1)
				for v, p := range [][2]float32{{-0.5, -0.5}, {0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.5}} {
					w := data[v*stride+4*(a.Element+c):]
					if a.Name == "pos" {
						copy(w, []float32{p[0], p[1], 0, 1})
						continue
					}
					copy(w, values[a.Name][4*c:min(len(values[a.Name]), 4*c+cw)])
				}
			}
		}
		ve, err := e.c.CreateVertexElementsState(els)
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindVertexElementsState(ve)
		e.c.SetVertexBuffers([]VertexBuffer{{Buffer: e.floats(t, data...), Stride: uint32(4 * stride)}})
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		img := e.image(t)
		// (1, 0.5, 1, 1) × (1, 0.5, 0, 1) at the centre, shifted right by 0.1.
		px := img.NRGBAAt(e.w/2+1, e.h/2)
		if px.R != 255 || px.G < 62 || px.G > 66 || px.B != 0 || px.A != 255 {
			t.Errorf("%+v: centre pixel %v, want (255, 64, 0, 255)", o, px)
		}
	}
	// col's index is pos's location: the layout refuses rather than feed
	// both from element 3.
	e := newDrawEnv(t, Options{}, false)
	e.program(t, strings.Replace(vs, "location = 5", "location = 3", 1), fs)
	if _, err := e.c.AttributeLayout(); err == nil || !strings.Contains(err.Error(), "element 3") {
		t.Errorf("colliding layout: %v, want an error naming element 3", err)
	}
	e = newDrawEnv(t, Options{}, false)
	if err := e.c.BindVSState(nil); err != nil {
		t.Fatal(err)
	}
	f, err := e.c.CreateShaderState(ShaderDesc{Stage: StageFragment, GLSL: fs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.BindFSState(f); err != nil {
		t.Fatal(err)
	}
	layout, err := e.c.AttributeLayout()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"gl_Vertex", "gl_Color", "gl_MultiTexCoord0"} {
		if i >= len(layout) || layout[i].Name != want || layout[i].Element != i {
			t.Errorf("fixed-function layout %+v, want %s at element %d", layout, want, i)
		}
	}
}
