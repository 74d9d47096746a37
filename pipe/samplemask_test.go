package pipe

import (
	"math"
	"testing"

	"vortexgfx/gl/format"
)

// TestSampleMask checks SetSampleMask (GL_SAMPLE_MASK) end to end: on a
// multisampled framebuffer on the device the samples the mask clears keep
// their clear value and the others are drawn; on a single-sample
// framebuffer, on either path, a mask without bit 0 draws nothing and one
// with it draws as no mask does. spec: GL 4.6 §14.9.3
func TestSampleMask(t *testing.T) {
	const n, mask = 8, 0x96
	s := newDrawEnv(t, Options{Strict: true}, false).s
	c := s.NewContext(ContextOptions{})
	ms, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 32, Height: 32, Depth: 1, ArraySize: 1, Levels: 1, Samples: n})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetFramebufferState(Framebuffer{Width: 32, Height: 32, Samples: n, Cbufs: []*Surface{{Resource: ms}}}); err != nil {
		t.Fatal(err)
	}
	e := &drawEnv{s: s, c: c, w: 32, h: 32}
	e.program(t, testVS, testFS)
	e.posCol(t, quadVerts(0, [4]float32{0, 1, 0, 1}, -1, -1, 1, 1)...)
	c.SetSampleMask(SampleMask{Enable: true, Mask: mask})
	if err := c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, ms.Size())
	if err := ms.Read(0, raw); err != nil {
		t.Fatal(err)
	}
	for px := 0; px < 32*32; px++ {
		for k := range n {
			g := raw[(px*n+k)*4+1]
			if want := byte(255 * (mask >> k & 1)); g != want {
				t.Fatalf("pixel %d sample %d: green %d, want %d (mask %#x)", px, k, g, want, mask)
			}
		}
	}

	for _, o := range []Options{{Strict: true}, {ForceReference: true}} {
		for _, m := range []SampleMask{{}, {Enable: true, Mask: 0xFFFFFFFE}, {Enable: true, Mask: 0xF1}} {
			e := newDrawEnv(t, o, false)
			e.program(t, testVS, testFS)
			e.posCol(t, quadVerts(0, [4]float32{0, 1, 0, 1}, -1, -1, 1, 1)...)
			e.c.SetSampleMask(m)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				t.Fatal(err)
			}
			want := byte(255)
			if m.Enable && m.Mask&1 == 0 {
				want = 0
			}
			if img := e.image(t); img.Pix[1] != want || img.Pix[len(img.Pix)-3] != want {
				t.Errorf("reference %v, mask %+v: green %d, %d, want %d", o.ForceReference, m, img.Pix[1], img.Pix[len(img.Pix)-3], want)
			}
		}
	}
}

// TestSampleShadingMinSamples pins GL's sample shading rate: ⌈f × samples⌉
// shadings per pixel at least, one at least when enabled, none when
// disabled, the fraction clamped to [0, 1]. spec: GL 4.6 §14.3.1.1
func TestSampleShadingMinSamples(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		on      bool
		f       float32
		samples int
		want    int
	}{
		{false, 1, 8, 0}, {true, 0, 8, 1}, {true, 0.25, 8, 2}, {true, 0.3, 4, 2}, {true, 0.5, 16, 8},
		{true, 1, 4, 4}, {true, 1.5, 4, 4}, {true, -1, 4, 1}, {true, nan, 4, 1}, {true, 0.5, 1, 1}, {true, 1, 0, 1},
	} {
		if got := SampleShadingMinSamples(tc.on, tc.f, tc.samples); got != tc.want {
			t.Errorf("SampleShadingMinSamples(%v, %v, %d) = %d, want %d", tc.on, tc.f, tc.samples, got, tc.want)
		}
	}
}
