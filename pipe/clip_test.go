package pipe

import (
	"image"
	"testing"
)

// clipDistVS writes gl_ClipDistance[0] = -y and [1] = x: distance 0 keeps
// the lower half of the window, distance 1 the right half.
const clipDistVS = `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
out float gl_ClipDistance[2];
void main() { gl_Position = pos; v_col = col; gl_ClipDistance[0] = -pos.y; gl_ClipDistance[1] = pos.x; }
`

// TestClipPlanes draws a window-covering quad with user clipping on the
// device (STRICT: no fallback) and on the reference renderer: legacy planes
// dotted with gl_Position (ClipState), gl_ClipDistance[] outputs, and an
// enable beyond the distances the stage writes, which clips nothing. Both
// paths must keep exactly the half-planes the enables select.
// spec: GL 4.6 compatibility §13.7; vortexpipe §3.2 step 2 (setup_k clips)
func TestClipPlanes(t *testing.T) {
	cases := []struct {
		name   string
		vs     string
		enable uint8
		ucp    ClipState
		keep   func(x, y int) bool // window pixel (y down) kept
	}{
		{"no planes", testVS, 0, ClipState{}, func(x, y int) bool { return true }},
		{"plane x >= 0", testVS, 1, ClipState{UCP: [MaxClipPlanes][4]float32{{1, 0, 0, 0}}}, func(x, y int) bool { return x >= 16 }},
		{"planes x >= 0 and y >= 0", testVS, 1<<0 | 1<<3, ClipState{UCP: [MaxClipPlanes][4]float32{0: {1, 0, 0, 0}, 3: {0, 1, 0, 0}}},
			func(x, y int) bool { return x >= 16 && y < 16 }},
		{"enabled plane with no equation", testVS, 1 << 1, ClipState{}, func(x, y int) bool { return true }},
		{"clip distance 0", clipDistVS, 1, ClipState{}, func(x, y int) bool { return y >= 16 }},
		{"clip distances 0 and 1", clipDistVS, 3, ClipState{}, func(x, y int) bool { return y >= 16 && x >= 16 }},
		{"distance beyond the written", clipDistVS, 1 << 5, ClipState{UCP: [MaxClipPlanes][4]float32{5: {-1, 0, 0, 0}}}, func(x, y int) bool { return true }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draw := func(o Options) (*image.NRGBA, Stats) {
				e := newDrawEnv(t, o, false)
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				r, err := e.c.CreateRasterizerState(RasterizerState{ClipPlaneEnable: tc.enable})
				if err != nil {
					t.Fatal(err)
				}
				e.c.BindRasterizerState(r)
				e.c.SetClipState(tc.ucp)
				e.program(t, tc.vs, testFS)
				e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
				if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
					t.Fatal(err)
				}
				return e.image(t), e.c.Stats()
			}
			for _, o := range []Options{{ForceReference: true}, {Strict: true}} {
				img, st := draw(o)
				if !o.ForceReference && (st.Device != 1 || st.Reference != 0) {
					t.Errorf("device: stats %+v, want the draw on the device", st)
				}
				bad := 0
				for y := 0; y < 32; y++ {
					for x := 0; x < 32; x++ {
						if drawn := img.NRGBAAt(x, y).R == 255; drawn != tc.keep(x, y) {
							bad++
						}
					}
				}
				if bad != 0 {
					t.Errorf("force reference %v: %d pixels clipped wrongly", o.ForceReference, bad)
				}
			}
		})
	}
}
