package ref

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"vortexgfx/gl/format"
)

// TestPackRGBA8Exhaustive runs every float32 bit pattern (NaNs, infinities,
// denormals and signed zeros included) through packRGBA8's red channel and
// compares it with gl/format.UNorm8, the other channels held at values whose
// conversions are known; then compares packRGBA8 with packRGBA8Go on random
// lanes in every channel. A -race build, whose instrumented loops are many
// times slower, sweeps every 31st block of 4096 patterns, and -short every
// 1021st (both strides are prime, so the sampled blocks cover every
// exponent and sign).
func TestPackRGBA8Exhaustive(t *testing.T) {
	const chunk = 1 << 12
	stride := uint64(1)
	switch {
	case testing.Short():
		stride = 1021
	case raceBuild:
		stride = 31
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstBad string
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c0 := make([]uint32, chunk)
			g := make([]uint32, chunk)
			b := make([]uint32, chunk)
			a := make([]uint32, chunk)
			for j := range chunk {
				g[j], b[j], a[j] = math.Float32bits(0.5), math.Float32bits(-1), math.Float32bits(2)
			}
			dst := make([]uint32, chunk)
			const rest = 128<<8 | 0<<16 | 255<<24
			for base := uint64(w) * chunk * stride; base < 1<<32; base += uint64(workers) * chunk * stride {
				for j := range c0 {
					c0[j] = uint32(base) + uint32(j)
				}
				packRGBA8(&dst[0], &c0[0], &g[0], &b[0], &a[0], chunk)
				for j, got := range dst {
					if want := format.UNorm8(math.Float32frombits(c0[j])) | rest; got != want {
						mu.Lock()
						if firstBad == "" {
							firstBad = fmt.Sprintf("bits %#08x: got %#08x, want %#08x", c0[j], got, want)
						}
						mu.Unlock()
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if firstBad != "" {
		t.Fatal(firstBad)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var c [4][64]uint32
	for trial := range 2000 {
		for k := range c {
			for j := range c[k] {
				if trial%2 == 0 {
					c[k][j] = rng.Uint32()
				} else {
					c[k][j] = math.Float32bits(rng.Float32()*1.2 - 0.1)
				}
			}
		}
		var got, want [64]uint32
		packRGBA8(&got[0], &c[0][0], &c[1][0], &c[2][0], &c[3][0], 64)
		packRGBA8Go(want[:], c[0][:], c[1][:], c[2][:], c[3][:])
		if got != want {
			t.Fatalf("trial %d: packRGBA8 differs from packRGBA8Go", trial)
		}
	}
}
