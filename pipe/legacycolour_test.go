package pipe

import (
	"image"
	"testing"
)

// legacyVS writes the legacy front and back colours: the front one from the
// vertex, the back one its complement.
const legacyVS = `#version 120
attribute vec4 pos;
attribute vec4 col;
void main() { gl_Position = pos; gl_FrontColor = col; gl_BackColor = vec4(1.0) - vec4(col.rgb, 0.0); }
`

const legacyFS = `#version 120
void main() { gl_FragColor = gl_Color; }
`

// TestLegacyColourShading draws one triangle with per-vertex colours under
// the legacy colour state on both paths: two-sided colour on a back-facing
// triangle runs on the device and reads the back colour; GL_FLAT runs on
// the device as the program's flat-colour variant; two-sided colour with
// clockwise fronts goes to the reference renderer with its reason; each
// device result matches the reference renderer's.
// spec: GL 2.1 §2.14.1, §2.14.7; vortexpipe §1.5.1
func TestLegacyColourShading(t *testing.T) {
	cases := []struct {
		name string
		rs   RasterizerState
		ccw  bool // the triangle's winding (else clockwise)
		gate ReasonCode
		want func(c [4]uint8) bool // the pixel at the triangle's centre
	}{
		// Interpolated front colours sum to 255 at any pixel, their
		// complements (the back colours) to 510.
		{"smooth front", RasterizerState{FrontCCW: true}, true, 0, sumNear(255)},
		{"two-sided back face", RasterizerState{FrontCCW: true, LightTwoSide: true}, false, 0, sumNear(510)},
		{"two-sided, clockwise fronts", RasterizerState{LightTwoSide: true}, false, GateTwoSide, sumNear(255)},
		{"flat", RasterizerState{FrontCCW: true, Flatshade: true}, true, 0,
			func(c [4]uint8) bool { return c == [4]uint8{0, 0, 255, 255} }},
		{"flat, vertex colour clamp", RasterizerState{FrontCCW: true, Flatshade: true, ClampVertexColor: true}, true, 0,
			func(c [4]uint8) bool { return c == [4]uint8{0, 0, 255, 255} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draw := func(o Options) (*image.NRGBA, Stats) {
				e := newDrawEnv(t, o, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				r, err := e.c.CreateRasterizerState(tc.rs)
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindRasterizerState(r)
				e.program(t, legacyVS, legacyFS)
				// Red, green, blue corners; the provoking (last) vertex is blue.
				v := []float32{-0.9, -0.9, 0, 1, 1, 0, 0, 1, 0.9, -0.9, 0, 1, 0, 1, 0, 1, 0, 0.9, 0, 1, 0, 0, 1, 1}
				if !tc.ccw {
					copy(v[8:16], []float32{0, 0.9, 0, 1, 0, 1, 0, 1})
					copy(v[16:24], []float32{0.9, -0.9, 0, 1, 0, 0, 1, 1})
				}
				e.posCol(t, v...)
				if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
					t.Fatal(err)
				}
				return e.image(t), e.c.Stats()
			}
			want, _ := draw(Options{ForceReference: true})
			c := want.NRGBAAt(16, 18)
			if px := [4]uint8{c.R, c.G, c.B, c.A}; !tc.want(px) {
				t.Errorf("reference: centre pixel %v", px)
			}
			got, st := draw(Options{})
			switch {
			case tc.gate == 0 && (st.Device != 1 || st.Reference != 0):
				t.Errorf("stats %+v, want the draw on the device", st)
			case tc.gate != 0 && (st.Reference != 1 || st.Fallbacks[tc.gate] != 1):
				t.Errorf("stats %+v, want the draw on the reference renderer for %v", st, tc.gate)
			}
			if bad, worst := compareImages(got, want, 3); bad > 8 {
				t.Errorf("device and reference differ on %d pixels (worst %d)", bad, worst)
			}
		})
	}
}

// sumNear accepts an opaque pixel whose colour channels sum to within 3 of n.
func sumNear(n int) func(c [4]uint8) bool {
	return func(c [4]uint8) bool {
		s := int(c[0]) + int(c[1]) + int(c[2])
		return c[3] == 255 && s >= n-3 && s <= n+3
	}
}

// TestLegacyColourReasons: the legacy colour gates, numbered after the
// routes, are gates, and the last route is still a route.
func TestLegacyColourReasons(t *testing.T) {
	for _, c := range []ReasonCode{GateFlatShade, GateTwoSide} {
		if c.Kind() != Gated {
			t.Errorf("%v: kind %v, want gated", c, c.Kind())
		}
	}
	if RouteManyRTs.Kind() != Routed {
		t.Errorf("%v: kind %v, want routed", RouteManyRTs, RouteManyRTs.Kind())
	}
}
