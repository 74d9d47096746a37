package frontend

import (
	"fmt"
	"math"
	"math/bits"

	"vortexgfx/abi"
)

// SetupSlot is the most primitives one input triangle yields in setup_k: the
// near-clipped sub-triangles, each fanned after the guard-band clip. A draw
// that clips against user clip distances has SlotsPerTriangle slots instead.
const SetupSlot = maxSub + 1

// MaxClipDistances is how many user clip distances (gl_ClipDistance[i], GL's
// GL_CLIP_DISTANCEi enables) setup_k clips against. spec: GLSL 1.30 §7.1
// (gl_MaxClipDistances); vortexpipe §3.8 (clipping in setup_k)
const MaxClipDistances = 8

// setupSlotCap bounds SlotsPerTriangle over every enable mask.
const setupSlotCap = SetupSlot + MaxClipDistances

// SlotsPerTriangle is the setup_k scratch slots per input triangle of a draw
// clipping against the enabled user clip distances in mask: each enabled plane
// adds at most one vertex to the clipped polygon (at most 5 + k before the
// guard band, 9 + k after: 7 + k fan triangles). spec: vortexpipe §3.8
func SlotsPerTriangle(mask uint8) int { return SetupSlot + bits.OnesCount8(mask) }

// frontEndPlanes packs a plane convention and a clip-distance enable mask into
// Args.Planes (abi.PackFEPlanes).
func frontEndPlanes(p Planes, mask uint8) uint32 { return abi.PackFEPlanes(uint8(p), mask) }

// splitFrontEndPlanes is frontEndPlanes' inverse.
func splitFrontEndPlanes(w uint32) (Planes, uint8) {
	p, mask, _ := abi.SplitFEPlanes(w)
	return Planes(p), mask
}

// feEnv is one draw's setup_k environment: the target, depth range, cull mode,
// viewport, plane convention and guard planes.
type feEnv struct {
	width, height int
	near, far     float32
	cull          CullMode
	vp            *Viewport
	planes        Planes
	guard         [4]plane
	// noClip disables the near-plane clip (depth clip disable, GL depth
	// clamp): the merger clamps the depth to the depth range instead.
	noClip bool
	// offset is the draw's polygon offset, added to every primitive's
	// depth plane (planeOffset).
	offset PolygonOffset
	// slots is the primitives one input triangle may yield (SetupSlot, or
	// SlotsPerTriangle of the draw's clip-distance mask).
	slots int
	// scissor, when set, clamps each primitive's bounding box to the
	// draw's clip rectangle (its scissor ∩ its viewport's pixels within the
	// target, the RASTER_SCISSOR window); a primitive whose clamped box is
	// empty is culled. nil: the target. spec: rasterizer.md §4
	// (RASTER_SCISSOR_X/Y); vortex-hardware-facts §2 (max exclusive)
	scissor *BBox
	// records says setupOne's vertices are expand_k records as
	// getCompiledVertex reads them: every field but Pos and Var[:NVar] zero.
	records bool
	// Scratch of the user clip-distance clip and the fan, kept across
	// triangles (setup runs one triangle at a time per environment).
	ubuf [2][polyCap + MaxClipDistances]Vertex
	usub [polyCap + MaxClipDistances - 2][3]Vertex
	fan  [setupSlotCap][3]Vertex
	// Scratch of setupOne's depth clip and guardFan's guard-band clip (all
	// filled by append before they are read: nothing carries over).
	zbuf, zbuf2, polyA, polyB [polyCap]Vertex
	fsub                      [polyCap - 2][3]Vertex
}

func newFEEnv(width, height int, near, far float32, cull CullMode, vp *Viewport, planes Planes) *feEnv {
	// Guard planes in NDC: |x| ≤ gx·w, |y| ≤ gy·w (the default viewport maps
	// NDC ±1 onto the target, so gx = 1 + 2·band/width).
	gx := float32(1 + 2*float64(GuardBandPx)/float64(width))
	gy := float32(1 + 2*float64(GuardBandPx)/float64(height))
	guard := [4]plane{{g: gx, axis: 0}, {g: gx, axis: 0, neg: true}, {g: gy, axis: 1}, {g: gy, axis: 1, neg: true}}
	if vp != nil {
		guard = viewportGuard(width, height, vp)
	}
	return &feEnv{width: width, height: height, near: near, far: far, cull: cull, vp: vp, planes: planes, slots: SetupSlot,
		guard: guard}
}

// viewportGuard is the guard band of an application viewport: the planes
// where the window position reaches GuardBandPx pixels beyond the *target*
// (window x in [−band, width + band], y likewise), whatever the viewport's
// size and position. Banding around the viewport instead would let an
// off-centre or oversized viewport carry vertices far past the target, where
// the Q15.16 edge constants no longer hold them (the coordinate range the
// full-target guard band keeps, vortexpipe-driver §3.8: guard band,
// sub-pixel precision); banding the target keeps the range the default
// viewport has, and never cuts a visible pixel (the band contains the
// target). For the default viewport these are the default planes. Window x =
// x/w·sx + tx, so x_win ≤ hi ⇔ x ≤ ((hi − tx)/sx)·w for sx > 0 (the bounds
// swap for a negative scale, a y-flip); a plane's neg side holds x ≥ −g·w,
// so the lower bound is stored negated. A zero scale maps every vertex to
// one line: setup culls the triangle (det = 0), and the planes keep NDC ±1.
// spec: vortex-hardware-facts §3.2 (viewport); vortexpipe-driver §3.8
func viewportGuard(width, height int, vp *Viewport) [4]plane {
	axis := func(size int, s, t float32) (hi, lo float32) {
		if s == 0 {
			return 1, -1
		}
		b1 := (float64(size) + GuardBandPx - float64(t)) / float64(s)
		b2 := (-GuardBandPx - float64(t)) / float64(s)
		return float32(max(b1, b2)), float32(min(b1, b2))
	}
	xh, xl := axis(width, vp.SX, vp.TX)
	yh, yl := axis(height, vp.SY, vp.TY)
	return [4]plane{{g: xh, axis: 0}, {g: -xl, axis: 0, neg: true}, {g: yh, axis: 1}, {g: -yl, axis: 1, neg: true}}
}

// setupOne is setup_k's SETUP work for one triangle: near clip, far clip
// (compiled draws), the user clip distances in user (each plane's distances at
// v0, v1, v2), guard-band clip and setup of each surviving sub-triangle, in
// order. It returns how many primitives (at most e.slots) it wrote to
// prims/bbs and counts into st. With lam set it also writes each primitive's
// vertices as weights of v0, v1, v2 (lam[n][vertex]).
// spec: vortexpipe §3.8; GL 4.6 §13.7 (primitive clipping)
func (e *feEnv) setupOne(v0, v1, v2 *Vertex, user []userPlane, st *Stats, prims *[setupSlotCap]Prim, bbs *[setupSlotCap]BBox,
	lam *[setupSlotCap][3][3]float32) int {
	if lam == nil && len(user) == 0 && !e.offset.Enable && e.unclipped(v0, v1, v2) {
		// No plane cuts the triangle: the general path below would copy it
		// through the depth-clipped polygon and the guard fan unchanged and
		// set up the copies; set it up in place instead (the same words, the
		// same counts).
		if !e.noClip && (e.hasNaN(v0) || e.hasNaN(v1) || e.hasNaN(v2)) {
			st.NearClipped++ // as the general path counts a NaN attribute
		}
		if !SetupTriangle(v0, v1, v2, e.width, e.height, e.near, e.far, e.cull, e.vp, e.planes, &prims[0], &bbs[0]) ||
			!e.clampScissor(&bbs[0]) {
			st.Culled++
			return 0
		}
		if lostPrecision(&prims[0]) {
			st.PrecisionLoss++
		}
		return 1
	}
	return e.setupClipped(v0, v1, v2, user, st, prims, bbs, lam)
}

// setupClipped is setupOne's general path: every clip, then setup of each
// fan triangle.
func (e *feEnv) setupClipped(v0, v1, v2 *Vertex, user []userPlane, st *Stats, prims *[setupSlotCap]Prim, bbs *[setupSlotCap]BBox,
	lam *[setupSlotCap][3][3]float32) int {
	var sub [SetupMaxSub][3]Vertex
	if lam != nil || len(user) > 0 {
		a, b, c := *v0, *v1, *v2
		a.bary, b.bary, c.bary = [3]float32{1, 0, 0}, [3]float32{0, 1, 0}, [3]float32{0, 0, 1}
		v0, v1, v2 = &a, &b, &c
	}
	ns := 1
	switch {
	case e.noClip:
		sub[0] = [3]Vertex{*v0, *v1, *v2}
	case nearDist(v0) >= 0 && nearDist(v1) >= 0 && nearDist(v2) >= 0:
		// Wholly inside: ClipNear would return the triangle itself (the
		// common case, without its copies). A NaN attribute makes that copy
		// compare unequal to the input: counted near-clipped, as below.
		sub[0] = [3]Vertex{*v0, *v1, *v2}
		if hasNaN(v0) || hasNaN(v1) || hasNaN(v2) {
			st.NearClipped++
		}
	default:
		if ns = ClipNear(v0, v1, v2, &sub); ns != 1 || sub[0] != [3]Vertex{*v0, *v1, *v2} {
			st.NearClipped++
		}
	}
	// The depth-clipped polygon: ClipNear fanned it as {p0 p1 p2} {p0 p2 p3}.
	zp := append(e.zbuf[:0], sub[0][:]...)
	if ns == 2 {
		zp = append(zp, sub[1][2])
	}
	subs := sub[:ns]
	if e.planes == PlanesCompiled && !e.noClip && ns > 0 && beyondFar(zp) {
		// Compiled draws also clip the far plane z ≤ w, as GL does (the
		// draw3d flow's goldens keep the Vortex front end's near clip only).
		zp = clipPoly(zp, plane{g: 1, axis: 2}, e.zbuf2[:0])
		st.FarClipped++
		subs = e.fsub[:0]
		for k := 1; k+1 < len(zp); k++ {
			subs = append(subs, [3]Vertex{zp[0], zp[k], zp[k+1]})
		}
	}
	if ns > 0 && len(user) > 0 {
		zp, subs = e.clipUser(zp, subs, user, st)
	}
	nf := e.guardFan(subs, zp, st, e.fan[:e.slots])
	var zoff int64 // one offset per input triangle, as ref's per polygon
	if e.offset.Enable && nf > 0 {
		zoff = e.planeOffset(e.fan[:nf], zp)
	}
	n := 0
	for s := 0; s < nf; s++ {
		fan := &e.fan[s]
		if !SetupTriangle(&fan[0], &fan[1], &fan[2], e.width, e.height, e.near, e.far, e.cull, e.vp, e.planes, &prims[n], &bbs[n]) ||
			!e.clampScissor(&bbs[n]) {
			st.Culled++
			continue
		}
		if lostPrecision(&prims[n]) {
			st.PrecisionLoss++
		}
		if zoff != 0 {
			addPlaneOffset(&prims[n], zoff)
		}
		if lam != nil {
			for k := range 3 {
				lam[n][k] = fan[k].bary
			}
		}
		n++
	}
	return n
}

// unclipped reports whether setupOne's general path would pass the triangle
// through every clip unchanged: inside the near plane (or depth clip
// disabled), not beyond the far plane of a compiled draw, inside every guard
// plane. The predicates are the general path's own, so a NaN position takes
// the path it takes there.
func (e *feEnv) unclipped(v0, v1, v2 *Vertex) bool {
	if !e.noClip {
		if !(nearDist(v0) >= 0 && nearDist(v1) >= 0 && nearDist(v2) >= 0) {
			return false
		}
		if e.planes == PlanesCompiled && (v0.Pos[2] > v0.Pos[3] || v1.Pos[2] > v1.Pos[3] || v2.Pos[2] > v2.Pos[3]) {
			return false
		}
	}
	for _, g := range e.guard {
		if g.dist(v0) < 0 || g.dist(v1) < 0 || g.dist(v2) < 0 {
			return false
		}
	}
	return true
}

// clampScissor clamps bb to the draw's scissor rectangle, reporting whether
// anything is left.
func (e *feEnv) clampScissor(bb *BBox) bool {
	sc := e.scissor
	if sc == nil {
		return true
	}
	bb.L, bb.R = max(bb.L, sc.L), min(bb.R, sc.R)
	bb.T, bb.B = max(bb.T, sc.T), min(bb.B, sc.B)
	return bb.L < bb.R && bb.T < bb.B
}

// Run is the device front end's setup_k (SETUP, SCAN, EMIT): near clip,
// guard-band clip, setup with the draw's cull mode, survivors compacted in
// submission order (a triangle's sub-triangles stay adjacent). It returns the
// dense primitives and their bboxes. It refuses more visible primitives than the
// pid field addresses. spec: rasterizer §3.1; vortex-hardware-facts §3.2;
// vortexpipe §3.8
func Run(verts []Vertex, tris [][3]uint32, width, height int, near, far float32,
	cull CullMode, vp *Viewport, planes Planes) ([]Prim, []BBox, error) {
	p, b, _, err := Stats{}.run(verts, tris, width, height, near, far, cull, vp, planes)
	return p, b, err
}

// RunWithStats is Run that also reports its counters.
func RunWithStats(verts []Vertex, tris [][3]uint32, width, height int, near, far float32,
	cull CullMode, vp *Viewport, planes Planes) ([]Prim, []BBox, Stats, error) {
	return Stats{}.run(verts, tris, width, height, near, far, cull, vp, planes)
}

func (st Stats) run(verts []Vertex, tris [][3]uint32, width, height int, near, far float32,
	cull CullMode, vp *Viewport, planes Planes) ([]Prim, []BBox, Stats, error) {
	st.Triangles = len(tris)
	env := newFEEnv(width, height, near, far, cull, vp, planes)
	// SETUP: per triangle, set up the surviving sub-triangles (slot-local).
	keep := make([]uint32, len(tris))
	slots := make([][]Prim, len(tris))
	boxes := make([][]BBox, len(tris))
	var fp [setupSlotCap]Prim
	var fb [setupSlotCap]BBox
	for i, t := range tris {
		for _, vi := range t {
			if int(vi) >= len(verts) {
				return nil, nil, st, fmt.Errorf("frontend: front end: triangle %d: vertex %d out of range (%d vertices)", i, vi, len(verts))
			}
		}
		n := env.setupOne(&verts[t[0]], &verts[t[1]], &verts[t[2]], nil, &st, &fp, &fb, nil)
		slots[i] = append(slots[i], fp[:n]...)
		boxes[i] = append(boxes[i], fb[:n]...)
		keep[i] = uint32(n)
	}
	// SCAN: exclusive prefix of the survivor counts.
	offset := make([]uint32, len(tris)+1)
	for i, k := range keep {
		offset[i+1] = offset[i] + k
	}
	total := offset[len(tris)]
	if total > abi.MaxPrimsPerPass {
		return nil, nil, st, fmt.Errorf("%w: %d visible, max %d", ErrTooManyPrims, total, abi.MaxPrimsPerPass)
	}
	// EMIT: dense, order-preserving.
	prims := make([]Prim, total)
	bbs := make([]BBox, total)
	for i := range tris {
		copy(prims[offset[i]:], slots[i])
		copy(bbs[offset[i]:], boxes[i])
	}
	st.Prims = int(total)
	return prims, bbs, st, nil
}

// hasNaN is hasNaN(v), looking only at the fields a record vertex can set
// when the environment's vertices are records.
func (e *feEnv) hasNaN(v *Vertex) bool {
	if !e.records || v.NVar < 0 || v.NVar > len(v.Var) {
		return hasNaN(v)
	}
	return anyNaN(v.Pos[:]) || anyNaN(v.Var[:v.NVar])
}

// anyNaN reports whether some x is NaN: its bits less the sign exceed
// infinity's. One comparison for the slice instead of a branch per word.
func anyNaN(xs []float32) bool {
	var m uint32
	for _, x := range xs {
		m = max(m, math.Float32bits(x)&^(1<<31))
	}
	return m > 0x7F800000
}

// hasNaN reports whether a float field of v is NaN: exactly when a copy of v
// compares unequal to v.
func hasNaN(v *Vertex) bool {
	for _, x := range v.Pos {
		if x != x {
			return true
		}
	}
	for _, x := range v.Var {
		if x != x {
			return true
		}
	}
	for _, x := range v.Color {
		if x != x {
			return true
		}
	}
	for _, x := range [5]float32{v.TexCoord[0], v.TexCoord[1], v.bary[0], v.bary[1], v.bary[2]} {
		if x != x {
			return true
		}
	}
	return false
}

// lostPrecision detects an edge that no longer bounds its triangle after the
// Q15.16 conversion: a coefficient that overflowed (the host conversion yields
// INT_MIN) or an edge whose A and B both truncated to 0 (the 1/max normalisation
// shrank it below the 1/65536 sub-pixel step).
// spec: vortexpipe §3.8 (sub-pixel precision guard)
func lostPrecision(p *Prim) bool {
	for k := 0; k < 3; k++ {
		a, b, c := p.Edge(k)
		if c == math.MinInt32 || c == math.MaxInt32 || a == math.MinInt32 || b == math.MinInt32 {
			return true
		}
		if a == 0 && b == 0 {
			return true
		}
	}
	return false
}
