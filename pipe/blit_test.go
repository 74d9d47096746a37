package pipe

import (
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// TestBlit covers copies, scaling with both filters, mirroring, format
// conversion, a 4x resolve and the error cases. spec: vortexpipe §3.4.1
func TestBlit(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	c := s.NewContext(ContextOptions{})
	mk := func(f format.Format, w, h, samples int, px []byte) *Resource {
		r, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: f, Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: 1, Samples: samples})
		if err != nil {
			t.Fatal(err)
		}
		if px != nil {
			if err := r.Write(0, px); err != nil {
				t.Fatal(err)
			}
		}
		return r
	}
	read := func(r *Resource) []byte {
		b := make([]byte, r.Size())
		if err := r.Read(0, b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	// 2x1 RGBA8 source: black, white.
	src := mk(format.RGBA8, 2, 1, 0, []byte{0, 0, 0, 255, 255, 255, 255, 255})
	tests := []struct {
		name   string
		dst    *Resource
		info   func(dst *Resource) BlitInfo
		want   []byte
		errors bool
	}{
		{"nearest 2x", mk(format.RGBA8, 4, 1, 0, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: src}, Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{0, 0, 4, 1}}
		}, []byte{0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255}, false},
		{"linear 2x", mk(format.RGBA8, 4, 1, 0, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: src}, Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{0, 0, 4, 1}, Filter: sampler.Linear}
		}, []byte{0, 0, 0, 255, 64, 64, 64, 255, 191, 191, 191, 255, 255, 255, 255, 255}, false},
		{"mirrored into BGRA8", mk(format.BGRA8, 2, 1, 0, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: mk(format.RGBA8, 2, 1, 0, []byte{10, 20, 30, 40, 50, 60, 70, 80})},
				Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{2, 0, 0, 1}}
		}, []byte{70, 60, 50, 80, 30, 20, 10, 40}, false},
		{"4x resolve", mk(format.RGBA8, 2, 1, 0, nil), func(d *Resource) BlitInfo {
			ms := mk(format.RGBA8, 2, 1, 4, []byte{
				0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 255, 255, 0, 255, // pixel 0: four samples
				8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8})
			return BlitInfo{Src: &Surface{Resource: ms}, Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{0, 0, 2, 1}}
		}, []byte{128, 128, 0, 255, 8, 8, 8, 8}, false},
		{"depth copy", mk(format.D24S8, 2, 1, 0, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: mk(format.D24S8, 2, 1, 0, []byte{1, 2, 3, 4, 5, 6, 7, 8})},
				Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{0, 0, 2, 1}}
		}, []byte{1, 2, 3, 4, 5, 6, 7, 8}, false},
		{"depth linear", mk(format.D24S8, 2, 1, 0, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: mk(format.D24S8, 2, 1, 0, nil)}, Dst: &Surface{Resource: d},
				SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{0, 0, 2, 1}, Filter: sampler.Linear}
		}, nil, true},
		{"outside", mk(format.RGBA8, 2, 1, 0, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: src}, Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 3, 1}, DstRect: Rect{0, 0, 2, 1}}
		}, nil, true},
		{"multisample destination", mk(format.RGBA8, 2, 1, 4, nil), func(d *Resource) BlitInfo {
			return BlitInfo{Src: &Surface{Resource: src}, Dst: &Surface{Resource: d}, SrcRect: Rect{0, 0, 2, 1}, DstRect: Rect{0, 0, 2, 1}}
		}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Blit(tc.info(tc.dst))
			if tc.errors {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := read(tc.dst); string(got) != string(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 2, Height: 2, Depth: 1, ArraySize: 1, Levels: 2, Samples: 4}); err == nil {
		t.Error("mipmapped multisample texture accepted")
	}
}
