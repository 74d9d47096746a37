package ref

import (
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/format"
)

// TestNRGBAFastPathMatchesTexels: the whole-row copy NRGBA takes for RGBA8
// gives exactly the bytes the per-texel conversion gives, both row orders,
// odd sizes included.
func TestNRGBAFastPathMatchesTexels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {250, 250}, {33, 65}} {
		s, err := NewSurface(format.RGBA8, sz[0], sz[1])
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Data {
			s.Data[i] = byte(r.Uint32())
		}
		for _, flip := range []bool{false, true} {
			img := s.NRGBA(flip)
			for y := 0; y < s.H; y++ {
				for x := 0; x < s.W; x++ {
					row := y
					if flip {
						row = s.H - 1 - y
					}
					if got, want := img.NRGBAAt(x, row), s.pixel8(x, y); got != want {
						t.Fatalf("%dx%d flip %v: (%d, %d) = %v, texel path %v", s.W, s.H, flip, x, y, got, want)
					}
				}
			}
		}
	}
}
