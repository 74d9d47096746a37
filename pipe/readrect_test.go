package pipe

import (
	"testing"

	"vortexgfx/gl/format"
)

// TestReadRectMatchesReadPixels: the direct RGBA8 copy and the converting
// path give the rectangle ReadPixels shows, on both paths and for a BGRA8
// attachment (the converting path); bad rectangles are errors.
func TestReadRectMatchesReadPixels(t *testing.T) {
	for _, o := range []Options{{ForceReference: true}, {Strict: true}} {
		for _, f := range []format.Format{format.RGBA8, format.BGRA8} {
			e := newDrawEnv(t, o, false)
			if f != format.RGBA8 {
				e.rt = newTex(t, e.s, f, e.w, e.h)
				if err := e.c.SetFramebufferState(Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}}}); err != nil {
					t.Fatal(err)
				}
			}
			e.program(t, testVS, testFS)
			v := quadVerts(0, [4]float32{1, 0, 0, 1}, -0.8, -0.6, 0.4, 0.9)
			for i := 0; i < 4; i++ {
				v[8*i+4+i%3] = 0.5
			}
			e.posCol(t, v...)
			if err := e.c.Clear(ClearColor, [4]float32{0.1, 0.2, 0.3, 0.4}, 1, 0); err != nil {
				t.Fatal(err)
			}
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				t.Fatal(err)
			}
			img := e.image(t)
			x, y, w, h := 3, 5, 20, 17
			got := make([]byte, 4*w*h)
			if err := e.c.ReadRect(0, x, y, w, h, got); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < h; k++ {
				for i := 0; i < w; i++ {
					c := img.NRGBAAt(x+i, e.h-1-(y+k))
					p := got[4*(k*w+i):]
					if p[0] != c.R || p[1] != c.G || p[2] != c.B || p[3] != c.A {
						t.Fatalf("%+v %v: (%d, %d) = %v, ReadPixels %v", o, f, x+i, y+k, p[:4], c)
					}
				}
			}
			for _, r := range [][4]int{{-1, 0, 1, 1}, {0, 0, e.w + 1, 1}, {0, e.h - 1, 1, 2}} {
				if err := e.c.ReadRect(0, r[0], r[1], r[2], r[3], make([]byte, 4*max(r[2]*r[3], 1))); err == nil {
					t.Errorf("ReadRect %v: no error", r)
				}
			}
		}
	}
}
