package ref

import (
	"math"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// zBound returns, for the early depth test of the packed path (d.early and
// d.qzFast, no depth offset), a 24-bit depth qb that bounds every covered
// lane's quantized window depth on the side the depth function tests: no
// lane's depth is below qb for Less, LessEqual and Never, none above it for
// Greater and GreaterEqual. ok is false when no such bound is computed
// (another path, or a corner depth that is negative or not finite).
//
// Why it holds: a covered lane's edge values are non-negative and sum to
// the area, so its barycentrics e/area are in [0, 1] and sum to 1 before
// rounding; emitQuad's depth ((b0*z0 + b1*z1) + b2*z2) of non-negative
// finite corner depths takes four roundings (the division, the product and
// two sums on each path), each within a factor 1±2^-53, so it lies in
// [zmin*(1-2^-53)^4, zmax*(1+2^-53)^4], inside [zmin*(1-2^-50), zmax*(1+2^-50)]
// even after that product's own rounding. Converting to float32 and UNorm24
// are non-decreasing, so the quantized depth is within [UNorm24(lo),
// UNorm24(hi)].
func (d *drawer) zBound(v0, v1, v2 *wvert) (qb uint32, ok bool) {
	if !d.early || !d.qzFast || d.zoff != 0 {
		return 0, false
	}
	// min and max are NaN when a corner is, and then both tests fail.
	lo, hi := min(v0.z, v1.z, v2.z), max(v0.z, v1.z, v2.z)
	if !(lo >= 0 && hi <= math.MaxFloat64) {
		return 0, false
	}
	switch d.s.Depth.Func {
	case compare.Never, compare.Less, compare.LessEqual:
		return format.UNorm24(float32(lo * (1 - 0x1p-50))), true
	case compare.Greater, compare.GreaterEqual:
		return format.UNorm24(float32(hi * (1 + 0x1p-50))), true
	}
	return 0, false
}

// zRejects reports whether the early depth test (earlyQZ, emitFullQuad)
// certainly rejects the covered lanes mask of the quad at (qx, qy), given
// the bound qb of zBound: when no lane passes the depth function with qb in
// place of its depth, none passes with its own (for Less, qz >= qb and
// qz < stored give qb < stored; likewise for the other functions), so
// rasterTri may skip the quad before forming its barycentrics, and the
// output is the one emitQuad's own test gives.
func (d *drawer) zRejects(qx, qy int, mask uint8, qb uint32) bool {
	ds, fn := d.t.DepthStencil, d.s.Depth.Func
	o := (qy*ds.W + qx) * 4
	for l := range 4 {
		if mask&(1<<l) == 0 {
			continue
		}
		p := o + (l>>1*ds.W+l&1)*4
		if fn.TestUint(qb, d24(ds.Data[p:p+4:p+4])) {
			return false
		}
	}
	return true
}
