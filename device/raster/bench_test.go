package raster

import (
	"math/rand"
	"testing"

	"vortexgfx/abi"
)

// triScene is a 256×256 target of 128-pixel bins, each listing the same n
// triangles of up to size pixels a side scattered over the target (small:
// a dense mesh's shape, most tile-engine squares rejected; large: block
// and quad tests dominate), counter-clockwise with edges E = a·x + b·y + c.
func triScene(n int, size int32) (mem, []abi.BinHeader) {
	const w, h, bs = 256, 256, 128
	m := make(mem, zbufAt+4*w*h)
	var hs []abi.BinHeader
	for by := 0; by < h/bs; by++ {
		for bx := 0; bx < w/bs; bx++ {
			hs = append(hs, abi.BinHeader{BinX: uint16(bx), BinY: uint16(by), PidsCount: uint32(n)})
		}
	}
	pids := make([]uint32, n)
	for i := range pids {
		pids[i] = uint32(i)
	}
	putBins(m, hs, pids)
	r := rand.New(rand.NewSource(1))
	for p := 0; p < n; p++ {
		x0, y0 := r.Int31n(w), r.Int31n(h)
		x1, y1 := x0+1+r.Int31n(size), y0+r.Int31n(size/2)
		x2, y2 := x0+r.Int31n(size/2), y0+1+r.Int31n(size)
		vx, vy := [3]int32{x0, x1, x2}, [3]int32{y0, y1, y2}
		var e [9]int32
		for k := 0; k < 3; k++ {
			i, j := k, (k+1)%3
			e[3*k], e[3*k+1] = vy[i]-vy[j], vx[j]-vx[i]
			e[3*k+2] = vx[i]*vy[j] - vx[j]*vy[i]
		}
		putPrim(m, p, e, 0)
	}
	return m, hs
}

// BenchmarkRunSmallTriangles times the engine over bins of small triangles
// (tile-engine descent dominated) with the default bin and block sizes.
func BenchmarkRunSmallTriangles(b *testing.B) { benchRun(b, 400, 6) }

// BenchmarkRunLargeTriangles is BenchmarkRunSmallTriangles with triangles up
// to 60 pixels a side (block and quad tests dominate).
func BenchmarkRunLargeTriangles(b *testing.B) { benchRun(b, 100, 60) }

func benchRun(b *testing.B, n int, size int32) {
	m, hs := triScene(n, size)
	nop := func(int, *Wave) error { return nil }
	cfg := Config{BinLog: 7, BlockLog: 2, Workers: 1}
	var st Stats
	for b.Loop() {
		var err error
		if st, err = Run(m, state(len(hs), 256, 256), cfg, nop); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Quads), "quads/op")
	b.ReportMetric(float64(st.TileRejects), "rejects/op")
}
