package polyoffset

import (
	"math"
	"testing"
)

// The table of GL 4.6 §14.6.5's quantities for chosen inputs.
func TestPolygonOffset(t *testing.T) {
	// z = 0.5·x/8: ∂z/∂x = 1/16, ∂z/∂y = 0.
	if m, ok := MaxSlope([3]float64{0, 0, 0}, [3]float64{8, 0, 0.5}, [3]float64{0, 8, 0}); !ok || m != 1.0/16 {
		t.Errorf("MaxSlope = %v, %v, want 1/16", m, ok)
	}
	if _, ok := MaxSlope([3]float64{0, 0, 0}, [3]float64{1, 1, 0}, [3]float64{2, 2, 1}); ok {
		t.Error("MaxSlope of a zero-area triangle reported a slope")
	}
	for _, tc := range []struct {
		bits int
		zmax float64
		want float64
	}{
		{0, 0.3, math.Ldexp(1, -24)},
		{16, 0.3, 1.0 / 65535},
		{24, 0.3, 1.0 / 16777215},
		{32, 0.3, math.Ldexp(1, -25)}, // 0.3 = 0.6·2^−1
		{32, 0.75, math.Ldexp(1, -24)},
	} {
		if got := Resolution(tc.bits, tc.zmax); got != tc.want {
			t.Errorf("Resolution(%d, %v) = %v, want %v", tc.bits, tc.zmax, got, tc.want)
		}
	}
	for _, tc := range []struct {
		factor, units, clamp float32
		want                 float64
	}{
		{2, 4, 0, 2*0.5 + 4*0.25},
		{2, 4, 0.5, 0.5},
		{-2, -4, -0.5, -0.5},
		{-2, -4, 0.5, -2},
	} {
		if got := Offset(tc.factor, tc.units, tc.clamp, 0.5, 0.25); got != tc.want {
			t.Errorf("Offset(%v, %v, %v) = %v, want %v", tc.factor, tc.units, tc.clamp, got, tc.want)
		}
	}
}
