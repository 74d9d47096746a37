package abi

import "math"

// Fixed-point formats. A value is an int32 holding the raw bits; conversion from float
// multiplies by 2^F and truncates toward zero (a C cast), fixed×int is a plain integer
// multiply, fixed×fixed is a 64-bit product shifted right by F, and conversion between
// F values is a plain shift. spec: rasterizer §2.1; vortex-hardware-facts §3.1, §4
const (
	FracE   = 16 // FloatE, Q15.16: edge-equation coefficients
	FracA   = 24 // FloatA, Q7.24: attribute planes and depth
	FracTex = 23 // S.23: TEX coordinates (VX_TEX_DIM_BITS 15 + 8 subpixel bits)
)

// Q15_16 is a Q15.16 raw value.
type Q15_16 int32

// Q7_24 is a Q7.24 raw value.
type Q7_24 int32

// S23 is an S.23 TEX coordinate raw value (1.0 = 1 << 23).
type S23 int32

// FixedFromFloat converts f to a raw fixed-point value with frac fraction bits,
// truncating toward zero like a C cast. Where C leaves the result undefined we define
// it: NaN gives 0 and out-of-range values saturate; ok is false in those cases so
// callers (setup's precision guard) can refuse instead of using the value.
func FixedFromFloat(f float32, frac uint) (raw int32, ok bool) {
	v := float64(f) * float64(uint64(1)<<frac)
	switch {
	case math.IsNaN(v):
		return 0, false
	case v >= 2147483648.0:
		return math.MaxInt32, false
	case v <= -2147483649.0:
		return math.MinInt32, false
	}
	return int32(v), true // Go's conversion truncates toward zero
}

// FixedToFloat converts a raw value with frac fraction bits to float32.
func FixedToFloat(raw int32, frac uint) float32 {
	return float32(float64(raw) / float64(uint64(1)<<frac))
}

// FixedMul is fixed × fixed: a 64-bit product shifted right (arithmetically) by frac.
func FixedMul(a, b int32, frac uint) int32 { return int32(int64(a) * int64(b) >> frac) }

// FixedShift converts a raw value between fraction widths by a plain shift
// (arithmetic right shift when narrowing).
func FixedShift(raw int32, from, to uint) int32 {
	if to >= from {
		return raw << (to - from)
	}
	return raw >> (from - to)
}

// ToQ15_16 converts to Q15.16 (truncating).
func ToQ15_16(f float32) (Q15_16, bool) { r, ok := FixedFromFloat(f, FracE); return Q15_16(r), ok }

// ToQ7_24 converts to Q7.24 (truncating).
func ToQ7_24(f float32) (Q7_24, bool) { r, ok := FixedFromFloat(f, FracA); return Q7_24(r), ok }

// Float returns the value as float32.
func (q Q15_16) Float() float32 { return FixedToFloat(int32(q), FracE) }

// Float returns the value as float32.
func (q Q7_24) Float() float32 { return FixedToFloat(int32(q), FracA) }

// Float returns the value as float32.
func (q S23) Float() float32 { return FixedToFloat(int32(q), FracTex) }

// TexCoord converts a Q7.24 interpolated coordinate to the S.23 the TEX unit takes:
// the Q7.24 value shifted right by one. spec: vortex-hardware-facts §3.3
func (q Q7_24) TexCoord() S23 { return S23(int32(q) >> 1) }
