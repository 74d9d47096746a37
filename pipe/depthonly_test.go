package pipe

import (
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestDrawDepthOnly: a framebuffer with only a depth/stencil attachment (a
// depth pre-pass or shadow map) draws on the device as a depth-only pass (gfx
// TargetConfig.NoColor) under STRICT; its depth matches the reference
// renderer's, and a colour pass with depth func EQUAL over it then draws
// exactly the nearest surface on both paths. spec: vortexpipe §3.3 step 2
// (depth-only aperture), §3.7
func TestDrawDepthOnly(t *testing.T) {
	const depthFS = `#version 330
void main() {}
`
	for _, zf := range []format.Format{format.D24S8, format.D32F} {
		t.Run(zf.String(), func(t *testing.T) {
			run := func(o Options) (*drawEnv, []float32) {
				e := newDrawEnv(t, o, false)
				z := newTex(t, e.s, zf, e.w, e.h)
				depthFB := Framebuffer{Width: e.w, Height: e.h, Zsbuf: &Surface{Resource: z}}
				if err := e.c.SetFramebufferState(depthFB); err != nil {
					t.Fatal(err)
				}
				if err := e.c.Clear(ClearDepth|ClearStencil, [4]float32{}, 1, 0); err != nil {
					t.Fatal(err)
				}
				d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
				e.c.BindDSAState(d)
				e.program(t, testVS, depthFS)
				v := append(quadVerts(0.5, [4]float32{1, 0, 0, 1}, -0.9, -0.9, 0.5, 0.5), quadVerts(-0.2, [4]float32{0, 1, 0, 1}, -0.4, -0.6, 0.9, 0.9)...)
				v[2], v[8+2] = 0.1, 0.8
				e.posCol(t, v...)
				draw := func() {
					for _, start := range []uint32{0, 4} {
						if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: start, Count: 4}}}); err != nil {
							t.Fatal(err)
						}
					}
				}
				draw()
				depth, err := e.c.ReadDepth()
				if err != nil {
					t.Fatal(err)
				}
				// Colour pass over the pre-pass depth.
				fb := depthFB
				fb.Cbufs = []*Surface{{Resource: e.rt}}
				if err := e.c.SetFramebufferState(fb); err != nil {
					t.Fatal(err)
				}
				if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					t.Fatal(err)
				}
				eq, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.Equal})
				e.c.BindDSAState(eq)
				e.program(t, testVS, testFS)
				draw()
				return e, depth
			}
			ref, zb := run(Options{ForceReference: true})
			for _, force := range []Unit{0, UnitAll} {
				dev, za := run(Options{Strict: true, ForceSW: force})
				if st := dev.c.Stats(); st.Device != 4 || st.Reference != 0 {
					t.Fatalf("device stats %+v", st)
				}
				compareDepthPass(t, force, dev, ref, za, zb)
			}
		})
	}
}

// compareDepthPass compares a device depth pre-pass and EQUAL colour pass
// with the reference renderer's.
func compareDepthPass(t *testing.T, force Unit, dev, ref *drawEnv, za, zb []float32) {
	t.Helper()
	diff, near := 0, 0
	for i := range za {
		if d := za[i] - zb[i]; d > 1e-3 || d < -1e-3 {
			diff++
		}
		if za[i] < 1 {
			near++
		}
	}
	if diff > len(za)/50 || near < 200 {
		t.Errorf("force %v: %d depth values differ, %d written", force, diff, near)
	}
	a, b := dev.image(t), ref.image(t)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("force %v: %d pixels differ by more than 3 (worst %d)", force, bad, worst)
	}
	lit := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if a.Pix[i]|a.Pix[i+1] != 0 {
			lit++
		}
	}
	if lit < 200 {
		t.Errorf("force %v: the EQUAL colour pass drew %d pixels", force, lit)
	}
}
