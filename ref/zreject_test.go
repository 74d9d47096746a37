package ref

import (
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestZBoundHolds checks zBound's claim on random snapped triangles: every
// covered sample's depth, computed as emitQuad computes it (barycentrics
// float64(edge)/area, ((b0*z0 + b1*z1) + b2*z2), float32, UNorm24), is
// within the bounds, for corner depths that are random, equal,
// 0, 1, tiny, and float32 rounding midpoints whose neighbours quantize to
// different 24-bit depths (where a depth a rounding below the corners'
// would quantize one lower).
func TestZBoundHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	// midpoint returns a float64 halfway between a float32 near z and its
	// successor, chosen where the two quantize differently.
	midpoint := func(z float64) float64 {
		f := float32(z)
		for range 1 << 16 {
			g := math.Nextafter32(f, 2)
			if format.UNorm24(f) != format.UNorm24(g) {
				return (float64(f) + float64(g)) / 2
			}
			f = g
		}
		return z
	}
	depth := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return 1
		case 2:
			return 0x1p-30 * rng.Float64()
		case 3:
			return midpoint(rng.Float64())
		}
		return rng.Float64()
	}
	funcs := []compare.Func{compare.Never, compare.Less, compare.LessEqual, compare.Greater, compare.GreaterEqual}
	samples := 0
	for range 4000 {
		var v [3]wvert
		for i := range v {
			v[i].fx, v[i].fy = rng.Int64N(40*subPixel), rng.Int64N(40*subPixel)
			v[i].z = depth()
		}
		if rng.IntN(4) == 0 {
			v[1].z, v[2].z = v[0].z, v[0].z
		}
		p0, p1, p2 := &v[0], &v[1], &v[2]
		area := area2(p0, p1, p2)
		if area == 0 {
			continue
		}
		if area < 0 {
			p1, p2, area = p2, p1, -area
		}
		ea0, eb0, ec0, t0 := edgeFn(p1, p2)
		ea1, eb1, ec1, t1 := edgeFn(p2, p0)
		ea2, eb2, ec2, t2 := edgeFn(p0, p1)
		fa := float64(area)
		for _, fn := range funcs {
			d := &drawer{early: true, qzFast: true, s: &State{Depth: DepthState{Test: true, Func: fn}}}
			lo, hi, ok := d.zBound(p0, p1, p2)
			if !ok {
				t.Fatalf("no bound for %v with corners %v %v %v", fn, p0.z, p1.z, p2.z)
			}
			for y := range int64(40) {
				for x := range int64(40) {
					sx, sy := x*subPixel+subPixel/2, y*subPixel+subPixel/2
					e0, e1, e2 := ea0*sx+eb0*sy+ec0, ea1*sx+eb1*sy+ec1, ea2*sx+eb2*sy+ec2
					if e0 < t0 || e1 < t1 || e2 < t2 {
						continue
					}
					b0, b1, b2 := float64(e0)/fa, float64(e1)/fa, float64(e2)/fa
					qz := format.UNorm24(float32(b0*p0.z + b1*p1.z + b2*p2.z))
					samples++
					if qz < lo || qz > hi {
						t.Fatalf("%v: sample (%d, %d) of corners %v %v %v quantizes to %d, outside the bounds [%d, %d]", fn, x, y, p0.z, p1.z, p2.z, qz, lo, hi)
					}
				}
			}
		}
	}
	if samples < 100000 {
		t.Fatalf("only %d samples checked", samples)
	}
}

// TestZBoundRefuses: no bound where the argument does not hold (negative
// or non-finite corners, a depth offset, another path or depth function).
func TestZBoundRefuses(t *testing.T) {
	ok := func(d *drawer, z ...float64) bool {
		v := [3]wvert{{z: z[0]}, {z: z[1]}, {z: z[2]}}
		_, _, got := d.zBound(&v[0], &v[1], &v[2])
		return got
	}
	mk := func(fn compare.Func) *drawer {
		return &drawer{early: true, qzFast: true, s: &State{Depth: DepthState{Test: true, Func: fn}}}
	}
	if !ok(mk(compare.Less), 0, 0.5, 1) {
		t.Fatal("no bound for a plain Less triangle")
	}
	for _, c := range []struct {
		name string
		d    *drawer
		z    [3]float64
	}{
		{"negative corner", mk(compare.Less), [3]float64{-0.1, 0.5, 0.5}},
		{"NaN corner", mk(compare.Less), [3]float64{math.NaN(), 0.5, 0.5}},
		{"infinite corner", mk(compare.Greater), [3]float64{math.Inf(1), 0.5, 0.5}},
		{"Equal", mk(compare.Equal), [3]float64{0.5, 0.5, 0.5}},
		{"NotEqual", mk(compare.NotEqual), [3]float64{0.5, 0.5, 0.5}},
		{"Always", mk(compare.Always), [3]float64{0.5, 0.5, 0.5}},
		{"not early", &drawer{qzFast: true, s: &State{}}, [3]float64{0.5, 0.5, 0.5}},
		{"not qzFast", &drawer{early: true, s: &State{}}, [3]float64{0.5, 0.5, 0.5}},
		{"depth offset", &drawer{early: true, qzFast: true, zoff: 0.01, s: &State{}}, [3]float64{0.5, 0.5, 0.5}},
	} {
		if ok(c.d, c.z[:]...) {
			t.Errorf("%s: got a bound", c.name)
		}
	}
}

// TestZClassify checks zClassify against the lanes' own early test for
// every depth in the bounds: reject only when no depth in [lo, hi] passes
// in any covered lane, pass only when every depth there passes in some
// lane, for every depth function the early test takes and random stored
// depths, bounds and coverage (a 4x4 target; quads at (0,0) and (2,2)).
func TestZClassify(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	tg, err := NewTarget(4, 4, nil, format.D24S8)
	if err != nil {
		t.Fatal(err)
	}
	ds := tg.DepthStencil
	funcs := []compare.Func{compare.Never, compare.Less, compare.LessEqual, compare.Greater, compare.GreaterEqual}
	var rejects, passes int
	for range 20000 {
		for p := 0; p < len(ds.Data); p += 4 {
			v := uint32(rng.IntN(12))<<8 | uint32(rng.IntN(256))
			ds.Data[p], ds.Data[p+1], ds.Data[p+2], ds.Data[p+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
		lo := uint32(rng.IntN(12))
		hi := lo + uint32(rng.IntN(4))
		mask := uint8(1 + rng.IntN(15))
		q := 2 * rng.IntN(2)
		for _, fn := range funcs {
			d := &drawer{t: tg, s: &State{Depth: DepthState{Test: true, Func: fn}}}
			best, worst := d.zSides(lo, hi)
			reject, pass := d.zClassify(q, q, mask, best, worst)
			anyPass, allPass := false, true
			for qz := lo; qz <= hi; qz++ {
				some := false
				for l := range 4 {
					if mask&(1<<l) != 0 && fn.TestUint(qz, d24(ds.Data[((q+l>>1)*4+q+l&1)*4:])) {
						some = true
					}
				}
				anyPass = anyPass || some
				allPass = allPass && some
			}
			if reject && anyPass || pass && !allPass || reject && pass {
				t.Fatalf("%v [%d, %d] mask %04b: reject %v pass %v, but some depth passes: %v, every depth passes: %v", fn, lo, hi, mask, reject, pass, anyPass, allPass)
			}
			rejects += btoi(reject)
			passes += btoi(pass)
		}
	}
	if rejects < 1000 || passes < 1000 {
		t.Fatalf("only %d rejects and %d passes exercised", rejects, passes)
	}
}
