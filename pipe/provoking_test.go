package pipe

import (
	"errors"
	"strings"
	"testing"
)

// TestProvokingFirstTrianglesGate: with the first-vertex provoking
// convention (RasterizerState.FlatshadeFirst) a triangle draw with flat
// varyings routes to the reference renderer (GateDeviceBackend; an error
// under STRICT), which takes each triangle's flat words from its first
// vertex: green for both triangles of the strip, where the last vertices
// are red. Without flat varyings the draw stays on the device.
// spec: GL 3.2 §2.18 (table 2.12, the provoking vertex of each primitive).
func TestProvokingFirstTrianglesGate(t *testing.T) {
	const vs = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
flat out vec4 f;
out vec4 s;
void main() { gl_Position = pos; f = col; s = col; }
`
	const fsFlat = `#version 330
flat in vec4 f;
out vec4 o;
void main() { o = f; }
`
	const fsSmooth = `#version 330
in vec4 s;
out vec4 o;
void main() { o = vec4(s.rgb, 1.0); }
`
	verts := []float32{
		-1, -1, 0, 1, 0, 1, 0, 1,
		1, -1, 0, 1, 0, 1, 0, 1,
		-1, 1, 0, 1, 1, 0, 0, 1,
		1, 1, 0, 1, 1, 0, 0, 1,
	}
	for _, tc := range []struct {
		name  string
		fs    string
		gated bool
	}{{"flat", fsFlat, true}, {"smooth", fsSmooth, false}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, strict := range []bool{true, false} {
				e := newDrawEnv(t, Options{Strict: strict}, false)
				r, err := e.c.CreateRasterizerState(RasterizerState{FlatshadeFirst: true, PointSize: 1, LineWidth: 1})
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindRasterizerState(r)
				e.program(t, vs, tc.fs)
				e.posCol(t, verts...)
				err = e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
				var se *StrictError
				switch {
				case !tc.gated:
					if st := e.c.Stats(); err != nil || st.Device != 1 {
						t.Fatalf("strict %t: %v %+v, want the draw on the device", strict, err, st)
					}
					continue
				case strict:
					if !errors.As(err, &se) || se.Reasons[0].Code != GateDeviceBackend || !strings.Contains(se.Reasons[0].Detail, "first-vertex provoking convention") {
						t.Errorf("STRICT: %v", err)
					}
					continue
				}
				if err != nil || e.c.Stats().Reference != 1 {
					t.Fatalf("fallback: %v %+v", err, e.c.Stats())
				}
				img := e.image(t)
				for _, xy := range [][2]int{{1, 1}, {e.w - 2, e.h - 2}, {e.w / 4, 3 * e.h / 4}, {3 * e.w / 4, e.h / 4}} {
					o := img.PixOffset(xy[0], xy[1])
					if px := img.Pix[o : o+4]; px[0] != 0 || px[1] != 255 {
						t.Errorf("pixel %v = %v, want green (the first vertex's)", xy, px)
					}
				}
			}
		})
	}
}
