package ref

import (
	"math"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// zBound returns, for the early depth test of the packed path (d.early and
// d.qzFast, no depth offset), 24-bit depths lo <= hi that bound every
// covered lane's quantized window depth qz: lo <= qz <= hi. ok is false when
// no bound is computed (another path, or a corner depth that is negative or
// not finite).
//
// Why it holds: a covered lane's edge values are non-negative and sum to
// the area, so its barycentrics e/area are in [0, 1] and sum to 1 before
// rounding; emitQuad's depth ((b0*z0 + b1*z1) + b2*z2) of non-negative
// finite corner depths takes at most six roundings on each path (the two
// conversions and the division, the product, two sums), each within a
// factor 1±2^-53, so it lies in [zmin*(1-2^-53)^6, zmax*(1+2^-53)^6], inside
// [zmin*(1-2^-50), zmax*(1+2^-50)] even after that product's own rounding.
// Converting to float32 and UNorm24 are non-decreasing, so the quantized
// depth is within [UNorm24(lo), UNorm24(hi)].
func (d *drawer) zBound(v0, v1, v2 *wvert) (lo, hi uint32, ok bool) {
	if !d.early || !d.qzFast || d.zoff != 0 {
		return 0, 0, false
	}
	// min and max are NaN when a corner is, and then both tests fail.
	zlo, zhi := min(v0.z, v1.z, v2.z), max(v0.z, v1.z, v2.z)
	if !(zlo >= 0 && zhi <= math.MaxFloat64) {
		return 0, 0, false
	}
	switch d.s.Depth.Func {
	case compare.Never, compare.Less, compare.LessEqual, compare.Greater, compare.GreaterEqual:
		return format.UNorm24(float32(zlo * (1 - 0x1p-50))), format.UNorm24(float32(zhi * (1 + 0x1p-50))), true
	}
	return 0, 0, false
}

// zSides orders zBound's bounds for the depth function: best is the bound
// most likely to pass it (lo for Never, Less and LessEqual, hi for Greater
// and GreaterEqual), worst the other.
func (d *drawer) zSides(lo, hi uint32) (best, worst uint32) {
	if f := d.s.Depth.Func; f == compare.Greater || f == compare.GreaterEqual {
		return hi, lo
	}
	return lo, hi
}

// zClassify runs the early depth test (earlyQZ, emitFullQuad) of the covered
// lanes mask of the quad at (qx, qy) on the bounds of zSides instead of the
// lanes' depths. reject: no lane passes even with best, so none passes with
// its own depth (for Less, qz >= best and qz < stored give best < stored;
// likewise for the other functions), and rasterTri may skip the quad before
// forming its barycentrics. pass: a lane passes even with worst, so it
// passes with its own depth, and emitQuad's early test, which would keep
// the quad, need not run. Either way the output is the one the lanes' own
// test gives.
func (d *drawer) zClassify(qx, qy int, mask uint8, best, worst uint32) (reject, pass bool) {
	ds, fn := d.t.DepthStencil, d.s.Depth.Func
	o := (qy*ds.W + qx) * 4
	reject = true
	for l := range 4 {
		if mask&(1<<l) == 0 {
			continue
		}
		p := o + (l>>1*ds.W+l&1)*4
		s := d24(ds.Data[p : p+4 : p+4])
		if fn.TestUint(worst, s) {
			return false, true
		}
		if fn.TestUint(best, s) {
			reject = false
		}
	}
	return reject, false
}
