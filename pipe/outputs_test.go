package pipe

import (
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestDrawDroppedOutputs: fragment outputs without a bound attachment are
// dropped, as GL drops them — a two-output program drawing into one
// attachment, and a colour-writing program in a depth-only pass — on the
// device (STRICT) and on the reference renderer alike.
func TestDrawDroppedOutputs(t *testing.T) {
	t.Run("two outputs, one attachment", func(t *testing.T) {
		run := func(o Options) *drawEnv {
			e := newDrawEnv(t, o, false)
			e.program(t, testVS, mrtFS)
			if err := e.c.Clear(ClearColor, [4]float32{0.1, 0.2, 0.3, 1}, 1, 0); err != nil {
				t.Fatal(err)
			}
			e.posCol(t, quadVerts(0, [4]float32{1, 0.5, 0, 1}, -0.8, -0.7, 0.6, 0.9)...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				t.Fatal(err)
			}
			return e
		}
		dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
		if st := dev.c.Stats(); st.Device != 1 {
			t.Fatalf("stats %+v", st)
		}
		a, b := dev.image(t), ref.image(t)
		if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
			t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
		}
		if p := 4 * (16*32 + 16); a.Pix[p] != 255 || a.Pix[p+1] < 120 || a.Pix[p+1] > 135 {
			t.Errorf("centre pixel %v, want output 0's colour", a.Pix[p:p+4])
		}
	})
	t.Run("colour output, depth-only pass", func(t *testing.T) {
		run := func(o Options) []float32 {
			e := newDrawEnv(t, o, false)
			z := newTex(t, e.s, format.D24S8, e.w, e.h)
			if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Zsbuf: &Surface{Resource: z}}); err != nil {
				t.Fatal(err)
			}
			if err := e.c.Clear(ClearDepth, [4]float32{}, 1, 0); err != nil {
				t.Fatal(err)
			}
			d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
			e.c.BindDSAState(d)
			e.program(t, testVS, testFS)
			e.posCol(t, quadVerts(0.25, [4]float32{1, 1, 1, 1}, -0.8, -0.7, 0.6, 0.9)...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				t.Fatal(err)
			}
			if st := e.c.Stats(); o.Strict && st.Device != 1 {
				t.Fatalf("stats %+v", st)
			}
			zs, err := e.c.ReadDepth()
			if err != nil {
				t.Fatal(err)
			}
			return zs
		}
		za, zb := run(Options{Strict: true}), run(Options{ForceReference: true})
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
			t.Errorf("%d depth values differ, %d written", diff, near)
		}
	})
}
