package raster

import (
	"math"
	"math/rand"
	"syscall"
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

// walkPrim is one primitive positioned against one bin: its edges and the bin
// origin, ready for walker.walk.
type walkPrim struct {
	a, b, c [3]int32
	ox, oy  int32
}

// sizedPrims returns n counter-clockwise triangles of about area pixels each
// (area 0: bin-covering; area < 0: slivers about −area pixels long), with random shape and placement over a 512² target
// of 128-pixel bins, each paired with every bin its bounding box touches (as
// the binner lists it). The edges are grxgpu-style: scaled so max(|a|, |b|) is
// 65536 and evaluated at pixel centres. spec: rasterizer §7.2
func sizedPrims(n int, area float64) []walkPrim {
	const target, bin = 512, 128
	r := rand.New(rand.NewSource(int64(n) + int64(area)))
	var out []walkPrim
	for len(out) < n {
		var vx, vy [3]float64
		if area == 0 {
			bx, by := float64(r.Intn(target/bin)*bin), float64(r.Intn(target/bin)*bin)
			vx = [3]float64{bx - 40 - 50*r.Float64(), bx + 3*bin, bx - 30}
			vy = [3]float64{by - 30 - 50*r.Float64(), by - 20, by + 3*bin}
		} else if area < 0 {
			// A sliver: -area pixels long, a fifth of a pixel wide at its
			// base (a sphere's silhouette and pole triangles).
			x0, y0 := r.Float64()*target, r.Float64()*target
			t := r.Float64() * 2 * math.Pi
			ln := -area * (0.5 + r.Float64())
			dx, dy := math.Cos(t), math.Sin(t)
			vx = [3]float64{x0, x0 + ln*dx, x0 - 0.2*dy}
			vy = [3]float64{y0, y0 + ln*dy, y0 + 0.2*dx}
		} else {
			s := math.Sqrt(2 * area)
			x0, y0 := r.Float64()*target, r.Float64()*target
			t := r.Float64() * 2 * math.Pi
			u := t + math.Pi/3 + r.Float64()*math.Pi/3
			vx = [3]float64{x0, x0 + s*math.Cos(t), x0 + s*math.Cos(u)}
			vy = [3]float64{y0, y0 + s*math.Sin(t), y0 + s*math.Sin(u)}
		}
		var p walkPrim
		for k := 0; k < 3; k++ {
			i, j := k, (k+1)%3
			a, b := vy[i]-vy[j], vx[j]-vx[i]
			// Counter-clockwise in a y-down frame: inside is a·x + b·y + c > 0.
			c := vx[i]*vy[j] - vx[j]*vy[i]
			sc := 65536 / math.Max(math.Abs(a), math.Abs(b))
			p.a[k], p.b[k] = int32(a*sc), int32(b*sc)
			p.c[k] = int32((c + 0.5*a + 0.5*b) * sc)
		}
		x0 := max(0, int(math.Floor(min(vx[0], vx[1], vx[2]))))
		x1 := min(target-1, int(math.Ceil(max(vx[0], vx[1], vx[2]))))
		y0 := max(0, int(math.Floor(min(vy[0], vy[1], vy[2]))))
		y1 := min(target-1, int(math.Ceil(max(vy[0], vy[1], vy[2]))))
		for by := y0 / bin; by <= y1/bin; by++ {
			for bx := x0 / bin; bx <= x1/bin; bx++ {
				p.ox, p.oy = int32(bx*bin), int32(by*bin)
				out = append(out, p)
			}
		}
	}
	return out
}

// BenchmarkWalk times the tile and block engines and the packer (walker.walk
// with a no-op launch) per (bin, primitive) pair, for triangles of about 2, 20
// and 500 pixels, bin-covering ones and slivers about 16 pixels long (many
// accepted squares off the primitive), at the default bin and block sizes and
// 16 threads; cpu-ns/op is the CPU time per pair. spec: rasterizer §7.3–§8
func BenchmarkWalk(b *testing.B) {
	for _, c := range []struct {
		name string
		area float64
	}{{"tiny", 2}, {"small", 20}, {"medium", 500}, {"large", 0}, {"sliver", -16}} {
		b.Run(c.name, func(b *testing.B) {
			prims := sizedPrims(1000, c.area)
			cfg, err := Config{Threads: 16, Workers: 1}.resolve()
			if err != nil {
				b.Fatal(err)
			}
			f := &frame{cfg: cfg, xmax: 512, ymax: 512, launch: func(int, *Wave) error { return nil }}
			w := newWalker(f)
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				p := &prims[i%len(prims)]
				var e0 [3]int32
				for k := 0; k < 3; k++ {
					w.a[k], w.b[k] = p.a[k], p.b[k]
					w.ext[k] = max(0, p.a[k]) + max(0, p.b[k])
					w.tl[k] = p.a[k] > 0 || (p.a[k] == 0 && p.b[k] > 0)
					e0[k] = p.a[k]*p.ox + p.b[k]*p.oy + p.c[k]
				}
				w.cyc = 0
				if err := w.walk(p.ox, p.oy, e0); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.flush(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(w.stats.Quads)/float64(b.N), "quads/pair")
			b.ReportMetric(float64(w.stats.TileRejects)/float64(b.N), "rejects/pair")
			b.ReportMetric(float64(w.stats.Fragments)/float64(b.N), "frags/pair")
		})
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds: on a
// loaded machine it measures the walk better than the wall clock does.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestWalkDoesNotAllocate: walking a (bin, primitive) pair, blocks, quads and
// wave launches included, allocates nothing, whatever the primitive's size.
func TestWalkDoesNotAllocate(t *testing.T) {
	for _, area := range []float64{2, 20, 500, 0} {
		prims := sizedPrims(200, area)
		cfg, err := Config{Threads: 16, Workers: 1, EarlyZ: true}.resolve()
		if err != nil {
			t.Fatal(err)
		}
		zbuf := make([]byte, 4*512*512)
		f := &frame{cfg: cfg, xmax: 512, ymax: 512, launch: func(int, *Wave) error { return nil },
			earlyZ: area == 20, zfunc: abi.CmpLess, zbuf: zbuf, zpitch: 4 * 512}
		w := newWalker(f)
		i := 0
		allocs := testing.AllocsPerRun(len(prims), func() {
			p := &prims[i%len(prims)]
			i++
			var e0 [3]int32
			for k := 0; k < 3; k++ {
				w.a[k], w.b[k] = p.a[k], p.b[k]
				w.ext[k] = max(0, p.a[k]) + max(0, p.b[k])
				w.tl[k] = p.a[k] > 0 || (p.a[k] == 0 && p.b[k] > 0)
				e0[k] = p.a[k]*p.ox + p.b[k]*p.oy + p.c[k]
			}
			if err := w.walk(p.ox, p.oy, e0); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 || w.stats.Quads == 0 {
			t.Errorf("area %v: %v allocations per walk over %d quads", area, allocs, w.stats.Quads)
		}
	}
}
