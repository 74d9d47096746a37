// Package polyoffset is GL's polygon offset arithmetic, shared by the
// reference renderer and the device's setup kernel so that both offset a
// polygon's depth by the same amount: o = factor·m + units·r, bounded by the
// offset clamp. spec: GL 4.6 §14.6.5 (depth offset)
package polyoffset

import "math"

// MaxSlope returns m = max(|∂z/∂x|, |∂z/∂y|) of the window-space triangle
// (a, b, c) (x, y, z each), and false for a triangle of zero area, whose
// slope is undefined.
func MaxSlope(a, b, c [3]float64) (float64, bool) {
	det := (b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1])
	if det == 0 {
		return 0, false
	}
	dzdx := ((b[2]-a[2])*(c[1]-a[1]) - (c[2]-a[2])*(b[1]-a[1])) / det
	dzdy := ((b[0]-a[0])*(c[2]-a[2]) - (c[0]-a[0])*(b[2]-a[2])) / det
	return max(math.Abs(dzdx), math.Abs(dzdy)), true
}

// Resolution returns r, the smallest resolvable depth difference: 1/(2ⁿ−1)
// for an n-bit unorm depth attachment (0 < n < 32); for a float attachment
// (n = 32) 2^(e−24) where zmax = f·2^e, f in [0.5, 1), is the largest |z|
// of the polygon; 2^−24 without a depth attachment (n = 0).
func Resolution(bits int, zmax float64) float64 {
	switch {
	case bits == 0:
		return math.Ldexp(1, -24)
	case bits < 32:
		return 1 / float64(uint32(1)<<bits-1)
	}
	_, e := math.Frexp(zmax)
	return math.Ldexp(1, e-1-23)
}

// Offset returns factor·m + units·r bounded by clamp: a positive clamp
// bounds it from above, a negative one from below, zero not at all.
func Offset(factor, units, clamp float32, m, r float64) float64 {
	o := float64(factor)*m + float64(units)*r
	switch {
	case clamp > 0:
		o = min(o, float64(clamp))
	case clamp < 0:
		o = max(o, float64(clamp))
	}
	return o
}
