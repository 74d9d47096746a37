package pipe

import (
	"errors"
	"strings"
	"testing"
)

// TestGLSL150DeviceGates: a GLSL 1.50 feature the device's fragment path
// has no form of routes its draws to the reference renderer with
// GateDeviceBackend and a detail naming it (an error under STRICT): input
// block members with interpolation qualifiers of their own (the device
// interpolates a varying slot one way). A block without member qualifiers
// stays on the device, and so does gl_PrimitiveID read with no geometry
// shader (the device's primitive-id map, docs/ABI.md row 46), which counts
// the draw's triangles. A routed noperspective member differs from its
// smooth twin where W varies.
func TestGLSL150DeviceGates(t *testing.T) {
	const vs = `#version 150
in vec4 pos;
out Blk { flat float f; noperspective float n; float s; } ifc;
void main() { gl_Position = pos; ifc.f = pos.w; ifc.n = pos.w; ifc.s = pos.w; }
`
	const vsPlain = `#version 150
in vec4 pos;
out Blk { float a; float b; } ifc;
void main() { gl_Position = pos; ifc.a = 1.0; ifc.b = 0.5; }
`
	for _, tc := range []struct {
		name, vs, fs string
		detail       string // "" when the draw stays on the device
		check        func(t *testing.T, at func(x, y int) [4]byte, w, h int)
	}{
		{"primitive counter", vsPlain, `#version 150
in Blk { float a; float b; } ifc;
out vec4 o;
void main() { o = vec4(float(gl_PrimitiveID), ifc.a, 0.0, 1.0); }
`, "", func(t *testing.T, at func(x, y int) [4]byte, w, h int) {
			// Triangle 0 on the left, triangle 1 on the right.
			if l, r := at(w/4, h/2), at(3*w/4, h/2); l[0] != 0 || r[0] != 255 || l[1] != 255 {
				t.Errorf("left %v right %v: want gl_PrimitiveID 0 then 1", l, r)
			}
		}},
		{"member qualifiers", vs, `#version 150
in Blk { flat float f; noperspective float n; float s; } ifc;
out vec4 o;
void main() { o = vec4(ifc.f / 4.0, ifc.n / 4.0, ifc.s / 4.0, 1.0); }
`, "interpolation qualifiers on the members of input block ifc", func(t *testing.T, at func(x, y int) [4]byte, w, h int) {
			c := at(3*w/4, h/2)
			if c[1] == c[2] {
				t.Errorf("pixel %v: the noperspective member equals the smooth one", c)
			}
		}},
		{"no member qualifiers", vsPlain, `#version 150
in Blk { float a; float b; } ifc;
out vec4 o;
void main() { o = vec4(ifc.a, ifc.b, 0.0, 1.0); }
`, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, strict := range []bool{true, false} {
				e := newDrawEnv(t, Options{Strict: strict}, false)
				e.program(t, tc.vs, tc.fs)
				vb := e.floats(t,
					-0.9, -0.9, 0, 1, -0.1, -0.9, 0, 1, -0.5, 0.9, 0, 1,
					0.1, -0.9, 0, 1, 3.6, -3.6, 0, 4, 1, 1.8, 0, 2)
				ve, err := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}})
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindVertexElementsState(ve)
				e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 16}})
				err = e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}})
				var se *StrictError
				switch {
				case tc.detail == "" && err != nil:
					t.Fatalf("strict %t: %v", strict, err)
				case tc.detail == "":
					if st := e.c.Stats(); st.Device != 1 {
						t.Fatalf("strict %t: %+v, want the draw on the device", strict, st)
					}
					if tc.check == nil {
						continue
					}
				case strict:
					if !errors.As(err, &se) || se.Reasons[0].Code != GateDeviceBackend || !strings.Contains(se.Reasons[0].Detail, tc.detail) {
						t.Errorf("STRICT: %v, want a %q gate", err, tc.detail)
					}
					continue
				}
				if tc.detail != "" && (err != nil || e.c.Stats().Fallbacks[GateDeviceBackend] != 1) {
					t.Fatalf("fallback: %v %+v", err, e.c.Stats())
				}
				img := e.image(t)
				at := func(x, y int) [4]byte {
					o := img.PixOffset(x, y)
					return [4]byte(img.Pix[o : o+4])
				}
				tc.check(t, at, e.w, e.h)
			}
		})
	}
}
