package ref

import (
	"math"
	"math/rand/v2"
	"testing"
)

// x86First is x op y as SSE2 computes it with x the first operand: a NaN
// operand's payload, quieted (x's when both are NaNs), else the IEEE result.
func x86First(x, y, r float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.Float64frombits(math.Float64bits(x) | 1<<51)
	case math.IsNaN(y):
		return math.Float64frombits(math.Float64bits(y) | 1<<51)
	}
	return r
}

// TestSmoothQuadMatchesGo compares smoothQuad (AVX and SSE2 on amd64) with
// packLanes's expression, ((b1*a1 + b0*a0) + b2*a2) / iw as packLanes and
// packQuad compile it (each sum's later term the first operand, which decides
// the payload when two partial values are NaNs; modelled here explicitly, as
// the Go compiler picks that order per function), for random quads and terms
// that are NaNs, infinities, zeros of both signs and denormals, at every lane
// offset j0 of a 64-lane batch, for one to five words. Words whose result
// does not depend on that order are also compared with smoothQuadGo.
func TestSmoothQuadMatchesGo(t *testing.T) {
	forEachSIMD(t, testSmoothQuadMatchesGo)
}

func testSmoothQuadMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	special := []float64{math.NaN(), math.Float64frombits(0x7ff8000000000abc), math.Float64frombits(0xfff0000000000123),
		math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, 1e300, -3.5}
	pick := func() float64 {
		if rng.IntN(3) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * 100
	}
	for trial := range 4000 {
		nw := 1 + trial%5
		j0 := rng.IntN(61)
		var bary [4][3]float64
		var iw [4]float64
		for l := range bary {
			for k := range bary[l] {
				bary[l][k] = rng.Float64()
			}
			iw[l] = 0.25 + rng.Float64()
			if trial%7 == 0 {
				iw[l] = pick()
			}
		}
		terms := make([]float64, 3*nw)
		for i := range terms {
			terms[i] = pick()
		}
		got, ref := make([][]uint32, nw), make([][]uint32, nw)
		gp, rp := make([]*uint32, nw), make([]*uint32, nw)
		for i := range nw {
			got[i], ref[i] = make([]uint32, 64), make([]uint32, 64)
			gp[i], rp[i] = &got[i][0], &ref[i][0]
		}
		smoothQuad(&gp[0], j0, &terms[0], nw, &bary, &iw)
		smoothQuadGo(rp, j0, terms, &bary, &iw)
		for i := range nw {
			a0, a1, a2 := terms[3*i], terms[3*i+1], terms[3*i+2]
			for l := range 64 {
				want := uint32(0)
				if l >= j0 && l < j0+4 {
					b := &bary[l-j0]
					p0, p1, p2 := b[0]*a0, b[1]*a1, b[2]*a2
					s1 := x86First(p1, p0, p1+p0)
					s2 := x86First(p2, s1, p2+s1)
					want = math.Float32bits(float32(x86First(s2, iw[l-j0], s2/iw[l-j0])))
					if nans := btoi(math.IsNaN(p0)) + btoi(math.IsNaN(p1)) + btoi(math.IsNaN(p1+p0)) + btoi(math.IsNaN(p2)); nans <= 1 && ref[i][l] != want {
						t.Fatalf("trial %d word %d lane %d: smoothQuadGo %#x, model %#x", trial, i, l, ref[i][l], want)
					}
				}
				if got[i][l] != want {
					t.Fatalf("trial %d word %d lane %d (j0 %d): %#x, want %#x (terms %v, bary %v, iw %v)",
						trial, i, l, j0, got[i][l], want, terms[3*i:3*i+3], bary, iw)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBaryQuadMatchesGo compares baryQuad (AVX and SSE2 on amd64) with baryQuadGo,
// rasterTri's expression, bit for bit, for edge values of every magnitude
// (zero, negative, beyond 2^53 where the conversion rounds) over areas from
// 1 to 2^62.
func TestBaryQuadMatchesGo(t *testing.T) {
	forEachSIMD(t, testBaryQuadMatchesGo)
}

func testBaryQuadMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []int64{0, 1, -1, 1 << 53, 1<<53 + 1, -(1<<53 + 3), math.MaxInt64, math.MinInt64 + 1, 12345678901}
	for trial := range 20000 {
		var e [12]int64
		for i := range e {
			switch rng.IntN(4) {
			case 0:
				e[i] = special[rng.IntN(len(special))]
			case 1:
				e[i] = rng.Int64() >> rng.IntN(63)
			default:
				e[i] = rng.Int64N(1<<40) - 1<<39
			}
		}
		fa := float64(1 + rng.Int64N(1<<uint(1+trial%62)))
		var got, want [4][3]float64
		baryQuad(&got, &e, fa)
		baryQuadGo(&want, &e, fa)
		for l := range got {
			for k := range got[l] {
				if math.Float64bits(got[l][k]) != math.Float64bits(want[l][k]) {
					t.Fatalf("trial %d: lane %d edge %d: %d / %v = %v, want %v", trial, l, k, e[3*l+k], fa, got[l][k], want[l][k])
				}
			}
		}
	}
}
