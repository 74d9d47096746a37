package frontend

import (
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/polyoffset"
)

// PolygonOffset is one draw's polygon offset (GL POLYGON_OFFSET_FILL):
// setup_k adds o = Factor·m + Units·r to the depth plane of every
// primitive an input triangle yields, with m the larger of |∂z/∂x| and
// |∂z/∂y| of the triangle's window-space plane and r the minimum resolvable
// difference of the depth attachment (DepthBits: 0 none, 16 or 24 unorm, 32
// float), bounded by a nonzero Clamp. The arithmetic is the reference
// renderer's (ref's drawer.depthBias), so both paths offset a primitive by
// the same o. spec: GL 4.6 §14.6.5; rasterizer §2.3 (depth plane)
type PolygonOffset struct {
	Enable               bool
	Factor, Units, Clamp float32
	DepthBits            uint8
}

// offsetFromArgs is the argument block's polygon offset (slots 26, 27).
func offsetFromArgs(a *Args) PolygonOffset {
	return PolygonOffset{Enable: a.OffsetDepth&abi.FEOffsetOn != 0, Factor: a.OffsetFactor, Units: a.OffsetUnits,
		Clamp: a.OffsetClamp, DepthBits: uint8(a.OffsetDepth >> abi.FEOffsetBitsShift)}
}

// SetArgs writes the offset into the argument block.
func (p PolygonOffset) SetArgs(a *Args) {
	a.OffsetFactor, a.OffsetUnits, a.OffsetClamp, a.OffsetDepth = 0, 0, 0, 0
	if p.Enable {
		a.OffsetFactor, a.OffsetUnits, a.OffsetClamp = p.Factor, p.Units, p.Clamp
		a.OffsetDepth = abi.FEOffsetOn | uint32(p.DepthBits)<<abi.FEOffsetBitsShift
	}
}

// maxPlaneOffset bounds the offset added to a depth plane, in Q7.24: ±64.
// A depth-clipped primitive's depth lies in [0, 1], so any |o| ≥ 1 already
// gives 0 or 1 after the clamp to [0, 1] and ±64 changes nothing; the bound
// keeps the plane's C word and its per-pixel MAC inside Q7.24's ±128.
const maxPlaneOffset = 64 << abi.FracA

// windowPos is v's window position as SetupTriangle computes it (the same
// bounds and clipToScreen), for the offset's slope and depth terms.
func (e *feEnv) windowPos(v *Vertex) vec4 {
	L, R, T, B := float32(0), float32(e.width), float32(0), float32(e.height)
	if vp := e.vp; vp != nil {
		L, R, T, B = vp.TX-vp.SX, vp.TX+vp.SX, vp.TY-vp.SY, vp.TY+vp.SY
	}
	return clipToScreen(vec4{v.Pos[0], v.Pos[1], v.Pos[2], v.Pos[3]}, L, R, T, B, e.near, e.far)
}

// planeOffset is the polygon offset of the clipped polygon whose fan is
// fan and whose depth-clipped (near/far, user) polygon is zp, as a Q7.24
// increment of the depth plane's C word. It follows ref's depthBias: m from
// the first fan triangle of non-zero window area (the plane is the
// polygon's, whichever triangle gives it), in float64; r = 1/(2^n − 1) for
// an n-bit unorm attachment, 2^(e−24) over a float one with e the exponent
// (z = f·2^e, f in [0.5, 1)) of the largest |z| of the polygon clipped to
// the view volume (ref clips x and y there; setup_k's guard band is wider),
// 2^−24 without a depth attachment; a positive clamp bounds o from above, a
// negative one from below (the arithmetic is gl/polyoffset's, the reference
// renderer's too). spec: GL 4.6 §14.6.5
func (e *feEnv) planeOffset(fan [][3]Vertex, zp []Vertex) int64 {
	po := &e.offset
	var m float64
	for s := range fan {
		a, c, d := e.windowPos(&fan[s][0]), e.windowPos(&fan[s][1]), e.windowPos(&fan[s][2])
		if sl, ok := polyoffset.MaxSlope([3]float64{float64(a.x), float64(a.y), float64(a.z)},
			[3]float64{float64(c.x), float64(c.y), float64(c.z)}, [3]float64{float64(d.x), float64(d.y), float64(d.z)}); ok {
			m = sl
			break
		}
	}
	zmax := 0.0
	if po.DepthBits >= 32 {
		view := [4]plane{{g: 1, axis: 0}, {g: 1, axis: 0, neg: true}, {g: 1, axis: 1}, {g: 1, axis: 1, neg: true}}
		for _, v := range clipPolyAll(zp, view, &e.polyA, &e.polyB) {
			zmax = max(zmax, math.Abs(float64(e.windowPos(&v).z)))
		}
	}
	o := polyoffset.Offset(po.Factor, po.Units, po.Clamp, m, polyoffset.Resolution(int(po.DepthBits), zmax))
	// To the depth plane's Q7.24 step, to nearest, with two exceptions
	// that keep what GL's r promises, a resolvable difference per unit:
	//   - an n-bit unorm attachment with n < 24: its step 2^24/(2^n − 1)
	//     plane steps is not an integer (256.004 for D16), and rounded down
	//     a unit would fall a hair short of one step, leaving a depth on a
	//     rounding boundary where it was (a decal z-fighting its base), so
	//     the magnitude rounds up (the excess, under 1/256 of a step, moves
	//     a stored depth by one more step at few pixels). D24's r is
	//     1.00000006 plane steps: to nearest is exactly one per unit.
	//   - a float attachment: the device's depth is the Q7.24 plane value
	//     there too (rasterizer §2.1; the software merger stores z24/2^24
	//     into D32F), so 2^−24 is the smallest difference it resolves, and
	//     a nonzero offset that rounds to zero (r is below 2^−24 under depth
	//     0.5) becomes one step rather than none.
	q := math.Round(o * (1 << abi.FracA))
	switch bits := po.DepthBits; {
	case bits != 0 && bits < 24:
		q = math.Copysign(math.Ceil(math.Abs(o)*(1<<abi.FracA)), o)
	case bits >= 32 && q == 0 && o != 0:
		q = math.Copysign(1, o)
	}
	if !(q >= -maxPlaneOffset) { // NaN too: ref refuses non-finite state
		q = -maxPlaneOffset
	}
	return int64(min(q, maxPlaneOffset))
}

// addPlaneOffset adds q (Q7.24) to the depth plane's C word of p,
// saturating at the word's range.
func addPlaneOffset(p *Prim, q int64) {
	w := abi.PlaneZ.Word() + 2
	p[w] = uint32(int32(min(max(int64(int32(p[w]))+q, math.MinInt32), math.MaxInt32)))
}
