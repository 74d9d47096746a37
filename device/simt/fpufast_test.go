package simt

import (
	"math"
	"math/rand"
	"testing"

	"vortexgfx/isa/rv32"
)

// TestNearestNormalIsRoundF32: the round-to-nearest fast path gives
// roundF32's bits and flags for every value it takes — exact products and sums
// of random float32 words (every binade, both signs, near the underflow and
// overflow thresholds) and random float64 words — and refuses the results at
// the edges (zero, subnormal, 2^-126's binade, infinite), which roundF32 keeps.
func TestNearestNormalIsRoundF32(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	word := func() uint32 {
		switch r.Intn(4) {
		case 0:
			return r.Uint32()
		case 1: // near the smallest normals
			return uint32(r.Intn(2))<<31 | uint32(1+r.Intn(3))<<23 | r.Uint32()&0x7fffff
		case 2: // near the largest finite values
			return uint32(r.Intn(2))<<31 | uint32(252+r.Intn(3))<<23 | r.Uint32()&0x7fffff
		}
		return math.Float32bits(float32(r.NormFloat64()))
	}
	took, refused := 0, 0
	check := func(v float64) {
		if math.IsNaN(v) {
			return
		}
		got, gf, ok := nearestNormal(v)
		if !ok {
			refused++
			if e := math.Float32bits(float32(v)) >> 23 & 0xff; e >= 2 && e != 0xff {
				t.Fatalf("%g: refused a normal result", v)
			}
			return
		}
		took++
		want, wf := roundF32(v, 0, rv32.RNE)
		if got != want || gf != wf {
			t.Fatalf("%g (%#016x): fast path 0x%08x flags %d, roundF32 0x%08x flags %d", v, math.Float64bits(v), got, gf, want, wf)
		}
	}
	for range 300000 {
		a, b := f64(word()), f64(word())
		check(a * b)
		if s := a + b; s-a == b && s-b == a { // exact in float64: finish's sticky 0
			check(s)
		}
		check(math.Float64frombits(r.Uint64()))
	}
	if took < 100000 || refused == 0 {
		t.Errorf("the fast path took %d values and refused %d: the edges went untested", took, refused)
	}
}

// TestCvtFromIntSmall: fcvt.s.w/fcvt.s.wu of integers up to 2^24 in magnitude
// (the exact fast path) are roundF32's bits with no flag, in every rounding
// mode, and the conversions beyond still round.
func TestCvtFromIntSmall(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := range 200000 {
		v := uint32(r.Intn(1<<25+1)) - 1<<24
		if i%4 == 0 {
			v = r.Uint32()
		}
		for _, rm := range []uint8{rv32.RNE, rv32.RTZ, rv32.RDN, rv32.RUP, rv32.RMM} {
			for _, unsigned := range []bool{false, true} {
				got, gf := FCvtFromInt(v, unsigned, rm)
				x := float64(int32(v))
				if unsigned {
					x = float64(v)
				}
				var want, wf uint32
				if x != 0 {
					want, wf = roundF32(x, 0, rm)
				}
				if got != want || gf != wf {
					t.Fatalf("fcvt of 0x%08x (unsigned %v, rm %d): 0x%08x flags %d, want 0x%08x flags %d", v, unsigned, rm, got, gf, want, wf)
				}
			}
		}
	}
}
