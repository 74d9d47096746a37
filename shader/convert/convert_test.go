package convert

import (
	"math"
	"math/rand/v2"
	"testing"
)

// cvttps2dq models x86's truncating float-to-int32 conversion: NaN and values
// whose truncation is outside int32 give the integer indefinite 0x80000000.
func cvttps2dq(x float32) int32 {
	t := math.Trunc(float64(x))
	if x != x || t < math.MinInt32 || t > math.MaxInt32 {
		return math.MinInt32
	}
	return int32(t)
}

// fptoui is LLVM's expansion of a vector fptoui to i32 on x86 without
// AVX-512, the code llvmpipe runs for uint(x): convert x and x − 2³¹, and take
// the second (its sign bit set) when the first overflowed.
func fptoui(x float32) uint32 {
	small := cvttps2dq(x)
	big := cvttps2dq(x - 2147483648)
	return uint32(small) | uint32(big)&uint32(small>>31)
}

// TestMatchesX86 checks FloatToInt and FloatToUint against the x86 sequences
// llvmpipe executes, on the edges and on random bit patterns.
func TestMatchesX86(t *testing.T) {
	vals := []float32{0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1, -1, 2.7, -2.7,
		2147483520, 2147483648, -2147483648, -2147483904, 4294967040, 4294967296, 3e9, -3e9, 1e20, -1e20,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.SmallestNonzeroFloat32}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	for _, x := range vals {
		if got, want := FloatToInt(x), cvttps2dq(x); got != want {
			t.Errorf("FloatToInt(%g) = %#x, x86 gives %#x", x, uint32(got), uint32(want))
		}
		if got, want := FloatToUint(x), fptoui(x); got != want {
			t.Errorf("FloatToUint(%g) = %#x, x86 gives %#x", x, got, want)
		}
	}
}
