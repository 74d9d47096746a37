package frontend

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"vortexgfx/abi"
)

// SetupMaxSub is SETUP_MAX_SUB: a near-clipped triangle yields at most two.
const SetupMaxSub = 2

func nearDist(v *Vertex) float32 { return v.Pos[2] + v.Pos[3] }

func lerpVertex(a, b *Vertex, t float32) Vertex {
	var r Vertex
	for i := range r.Pos {
		r.Pos[i] = a.Pos[i] + float32(t*float32(b.Pos[i]-a.Pos[i]))
	}
	for i := range r.Color {
		r.Color[i] = a.Color[i] + float32(t*float32(b.Color[i]-a.Color[i]))
	}
	for i := range r.TexCoord {
		r.TexCoord[i] = a.TexCoord[i] + float32(t*float32(b.TexCoord[i]-a.TexCoord[i]))
	}
	for i := range r.bary {
		r.bary[i] = a.bary[i] + float32(t*float32(b.bary[i]-a.bary[i]))
	}
	r.NVar = a.NVar
	for i := 0; i < a.NVar && i < len(r.Var); i++ {
		r.Var[i] = a.Var[i] + float32(t*float32(b.Var[i]-a.Var[i]))
	}
	return r
}

// ClipNear clips a triangle against the near plane z + w ≥ 0 (Sutherland–Hodgman)
// and fan-splits the result into out, returning the count (0, 1 or 2). Attributes
// interpolate linearly in clip space; winding is preserved.
// spec: vortex-hardware-facts §3.2 (near clip)
func ClipNear(a, b, c *Vertex, out *[SetupMaxSub][3]Vertex) int {
	in := [3]*Vertex{a, b, c}
	var poly [4]Vertex
	n := 0
	for i := 0; i < 3; i++ {
		cur, nxt := in[i], in[(i+1)%3]
		fc, fn := nearDist(cur), nearDist(nxt)
		cin, nin := fc >= 0, fn >= 0
		if cin {
			poly[n] = *cur
			n++
		}
		if cin != nin {
			poly[n] = lerpVertex(cur, nxt, fc/float32(fc-fn))
			n++
		}
	}
	k := 0
	for i := 1; i+1 < n; i++ {
		out[k] = [3]Vertex{poly[0], poly[i], poly[i+1]}
		k++
	}
	return k
}

// GuardBandPx is the guard band: a triangle reaching farther than this many
// pixels outside the target is clipped in clip space against the guard planes
// before setup, so its screen-space edge constants stay inside Q15.16 instead of
// collapsing silently. Triangles inside the band are untouched (bit-exact with
// the reference setup). spec: vortexpipe §3.8 (guard band)
const GuardBandPx = 8192

// Stats counts what setup_k did to a draw.
type Stats struct {
	Triangles     int `json:"triangles"`      // input triangles
	NearClipped   int `json:"near_clipped"`   // triangles that crossed the near plane
	FarClipped    int `json:"far_clipped"`    // compiled draws' triangles that crossed the far plane
	GuardClipped  int `json:"guard_clipped"`  // triangles clipped against the guard band
	UserClipped   int `json:"user_clipped"`   // triangles cut by an enabled user clip distance
	Culled        int `json:"culled"`         // sub-triangles dropped by setup (degenerate, face, empty bbox)
	PrecisionLoss int `json:"precision_loss"` // emitted primitives with an edge coefficient lost to Q15.16
	Prims         int `json:"prims"`          // primitives emitted
}

// maxSub bounds the fan of one triangle clipped by the near plane and four guard
// planes (3 + 5 vertices → 6 triangles).
const maxSub = 6

// plane is one guard plane |pos[axis]| ≤ g·w as a signed distance (inside
// where ≥ 0): g·w − pos[axis], or g·w + pos[axis] when neg. A value rather than
// a closure, so the clip buffers it is evaluated on stay on the stack.
type plane struct {
	g    float32
	axis int
	neg  bool
}

// userPlane is one enabled user clip distance of a triangle: its values at
// the input triangle's vertices. The distance is linear in clip space, so a
// clipped vertex's distance is its barycentric weights against cd.
type userPlane struct{ cd [3]float32 }

// dist is the plane's signed distance of v.
func (p plane) dist(v *Vertex) float32 {
	if p.neg {
		return float32(p.g*v.Pos[3]) + v.Pos[p.axis]
	}
	return float32(p.g*v.Pos[3]) - v.Pos[p.axis]
}

// polyCap bounds a clipped polygon: the near/far-clipped polygon (at most 5
// vertices) cut by the four guard planes.
const polyCap = 9

// clipAll clips a triangle against every plane, ping-ponging between a and b.
func clipAll(tri [3]Vertex, planes [4]plane, a, b *[polyCap]Vertex) []Vertex {
	return clipPolyAll(tri[:], planes, a, b)
}

// clipPolyAll clips a convex polygon of at most five vertices against every
// plane (at most polyCap vertices result), ping-ponging between a and b.
func clipPolyAll(in []Vertex, planes [4]plane, a, b *[polyCap]Vertex) []Vertex {
	cur := append(a[:0], in...)
	for i, g := range planes {
		dst := b[:0]
		if i%2 == 1 {
			dst = a[:0]
		}
		cur = clipPoly(cur, g, dst)
	}
	return cur
}

// clipPoly clips a convex polygon against one plane (inside where dist ≥ 0).
func clipPoly(in []Vertex, dist plane, out []Vertex) []Vertex {
	out = out[:0]
	for i := range in {
		cur, nxt := &in[i], &in[(i+1)%len(in)]
		fc, fn := dist.dist(cur), dist.dist(nxt)
		if fc >= 0 {
			out = append(out, *cur)
		}
		if (fc >= 0) != (fn >= 0) {
			out = append(out, lerpVertex(cur, nxt, fc/float32(fc-fn)))
		}
	}
	return out
}

// guardFan clips the depth-clipped sub-triangles (the fan of polygon zp)
// against the guard band and fans them into fan, in order, returning the
// count. Each sub-triangle is clipped on its own; when they would need more
// fan triangles than a slot holds (each cut by several guard planes), zp is
// clipped as one polygon instead (at most 5 + 4 vertices: 7 triangles), so
// nothing is dropped. spec: vortexpipe §3.8 (near clip, guard band)
func (e *feEnv) guardFan(sub [][3]Vertex, zp []Vertex, st *Stats, fan [][3]Vertex) int {
	var polyA, polyB [polyCap]Vertex
	nf := 0
	for s := range sub {
		outside := false
		for _, g := range e.guard {
			for k := 0; k < 3; k++ {
				if g.dist(&sub[s][k]) < 0 {
					outside = true
				}
			}
		}
		if !outside {
			fan[nf] = sub[s]
			nf++
			continue
		}
		st.GuardClipped++
		poly := clipAll(sub[s], e.guard, &polyA, &polyB)
		if nf+max(len(poly)-2, 0) > len(fan) {
			poly = clipPolyAll(zp, e.guard, &polyA, &polyB)
			nf = 0
			for k := 1; k+1 < len(poly); k++ {
				fan[nf] = [3]Vertex{poly[0], poly[k], poly[k+1]}
				nf++
			}
			return nf
		}
		for k := 1; k+1 < len(poly); k++ {
			fan[nf] = [3]Vertex{poly[0], poly[k], poly[k+1]}
			nf++
		}
	}
	return nf
}

// beyondFar reports whether a vertex of p lies beyond the far plane (z > w).
func beyondFar(p []Vertex) bool {
	for i := range p {
		if p[i].Pos[2] > p[i].Pos[3] {
			return true
		}
	}
	return false
}

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
	// slots is the primitives one input triangle may yield (SetupSlot, or
	// SlotsPerTriangle of the draw's clip-distance mask).
	slots int
	// Scratch of the user clip-distance clip and the fan, kept across
	// triangles (setup runs one triangle at a time per environment).
	ubuf [2][polyCap + MaxClipDistances]Vertex
	usub [polyCap + MaxClipDistances - 2][3]Vertex
	fan  [setupSlotCap][3]Vertex
}

func newFEEnv(width, height int, near, far float32, cull CullMode, vp *Viewport, planes Planes) *feEnv {
	// Guard planes in NDC: |x| ≤ gx·w, |y| ≤ gy·w (the default viewport maps
	// NDC ±1 onto the target, so gx = 1 + 2·band/width).
	gx := float32(1 + 2*float64(GuardBandPx)/float64(width))
	gy := float32(1 + 2*float64(GuardBandPx)/float64(height))
	if vp != nil {
		gx = float32(1 + float64(GuardBandPx)/max(1, abs64(float64(vp.SX))))
		gy = float32(1 + float64(GuardBandPx)/max(1, abs64(float64(vp.SY))))
	}
	return &feEnv{width: width, height: height, near: near, far: far, cull: cull, vp: vp, planes: planes, slots: SetupSlot,
		guard: [4]plane{{g: gx, axis: 0}, {g: gx, axis: 0, neg: true}, {g: gy, axis: 1}, {g: gy, axis: 1, neg: true}}}
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
	var sub [SetupMaxSub][3]Vertex
	if lam != nil || len(user) > 0 {
		a, b, c := *v0, *v1, *v2
		a.bary, b.bary, c.bary = [3]float32{1, 0, 0}, [3]float32{0, 1, 0}, [3]float32{0, 0, 1}
		v0, v1, v2 = &a, &b, &c
	}
	ns := 1
	if e.noClip {
		sub[0] = [3]Vertex{*v0, *v1, *v2}
	} else if ns = ClipNear(v0, v1, v2, &sub); ns != 1 || sub[0] != [3]Vertex{*v0, *v1, *v2} {
		st.NearClipped++
	}
	// The depth-clipped polygon: ClipNear fanned it as {p0 p1 p2} {p0 p2 p3}.
	var zbuf, zbuf2 [polyCap]Vertex
	zp := append(zbuf[:0], sub[0][:]...)
	if ns == 2 {
		zp = append(zp, sub[1][2])
	}
	subs := sub[:ns]
	var fsub [polyCap - 2][3]Vertex
	if e.planes == PlanesCompiled && !e.noClip && ns > 0 && beyondFar(zp) {
		// Compiled draws also clip the far plane z ≤ w, as GL does (the
		// draw3d flow's goldens keep the Vortex front end's near clip only).
		zp = clipPoly(zp, plane{g: 1, axis: 2}, zbuf2[:0])
		st.FarClipped++
		subs = fsub[:0]
		for k := 1; k+1 < len(zp); k++ {
			subs = append(subs, [3]Vertex{zp[0], zp[k], zp[k+1]})
		}
	}
	if ns > 0 && len(user) > 0 {
		zp, subs = e.clipUser(zp, subs, user, st)
	}
	nf := e.guardFan(subs, zp, st, e.fan[:e.slots])
	n := 0
	for s := 0; s < nf; s++ {
		fan := &e.fan[s]
		if !SetupTriangle(&fan[0], &fan[1], &fan[2], e.width, e.height, e.near, e.far, e.cull, e.vp, e.planes, &prims[n], &bbs[n]) {
			st.Culled++
			continue
		}
		if lostPrecision(&prims[n]) {
			st.PrecisionLoss++
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

// clipUser clips the depth-clipped polygon zp (fanned as subs) against the
// user clip distances (Sutherland–Hodgman in clip space, as the near plane:
// positions, varyings and barycentric weights interpolate linearly) and
// returns the polygon and its fan, unchanged when every vertex is inside.
// spec: GL 4.6 §13.7 (clip distances); vortexpipe §3.8
func (e *feEnv) clipUser(zp []Vertex, subs [][3]Vertex, user []userPlane, st *Stats) ([]Vertex, [][3]Vertex) {
	cut := false
	for _, u := range user {
		for i := range zp {
			if !(u.dist64(&zp[i]) >= 0) {
				cut = true
			}
		}
	}
	if !cut {
		return zp, subs
	}
	st.UserClipped++
	cur := append(e.ubuf[0][:0], zp...)
	for i, u := range user {
		cur = clipPolyUser(cur, u, e.ubuf[(i+1)%2][:0])
		if len(cur) < 3 {
			return cur[:0], nil
		}
	}
	out := e.usub[:0]
	for k := 1; k+1 < len(cur); k++ {
		out = append(out, [3]Vertex{cur[0], cur[k], cur[k+1]})
	}
	return cur, out
}

// dist64 is the user plane's signed distance of v in float64 (the weights
// are the clipped vertex's, the distances the input vertices').
func (p userPlane) dist64(v *Vertex) float64 {
	return float64(v.bary[0])*float64(p.cd[0]) + float64(v.bary[1])*float64(p.cd[1]) + float64(v.bary[2])*float64(p.cd[2])
}

// clipPolyUser clips a convex polygon against one user plane (inside where
// the distance is ≥ 0; NaN is outside). As ref's clipper, a new vertex is
// computed in float64 from the edge's inside endpoint towards its outside
// one, so two triangles sharing an edge get the same vertex there.
func clipPolyUser(in []Vertex, u userPlane, out []Vertex) []Vertex {
	out = out[:0]
	for i := range in {
		cur, nxt := &in[i], &in[(i+1)%len(in)]
		fc, fn := u.dist64(cur), u.dist64(nxt)
		cin, nin := fc >= 0, fn >= 0
		if cin {
			out = append(out, *cur)
		}
		switch {
		case cin && !nin:
			out = append(out, lerpVertex64(cur, nxt, fc/(fc-fn)))
		case !cin && nin:
			out = append(out, lerpVertex64(nxt, cur, fn/(fn-fc)))
		}
	}
	return out
}

// lerpVertex64 is lerpVertex in float64, rounded once to float32.
func lerpVertex64(a, b *Vertex, t float64) Vertex {
	l := func(x, y float32) float32 { return float32(float64(x) + t*(float64(y)-float64(x))) }
	var r Vertex
	for i := range r.Pos {
		r.Pos[i] = l(a.Pos[i], b.Pos[i])
	}
	for i := range r.Color {
		r.Color[i] = l(a.Color[i], b.Color[i])
	}
	for i := range r.TexCoord {
		r.TexCoord[i] = l(a.TexCoord[i], b.TexCoord[i])
	}
	for i := range r.bary {
		r.bary[i] = l(a.bary[i], b.bary[i])
	}
	r.NVar = a.NVar
	for i := 0; i < a.NVar && i < len(r.Var); i++ {
		r.Var[i] = l(a.Var[i], b.Var[i])
	}
	return r
}

// FrontEnd is the device front end's setup_k (SETUP, SCAN, EMIT): near clip,
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

// RunWithStats is FrontEnd that also reports its counters.
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
				return nil, nil, st, fmt.Errorf("gfx: front end: triangle %d: vertex %d out of range (%d vertices)", i, vi, len(verts))
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

func abs64(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
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

// BinGrid is the dense row-major bin grid of the device front end.
type BinGrid struct {
	Cols, Rows int
	BinLog     uint
}

// NewBinGrid sizes the grid for a width×height target. It fails when a sort key
// (bin_id << 20 | pid) could not hold every bin id.
func NewBinGrid(width, height int, binLog uint) (BinGrid, error) {
	size := 1 << binLog
	g := BinGrid{Cols: (width + size - 1) / size, Rows: (height + size - 1) / size, BinLog: binLog}
	if g.Cols <= 0 || g.Rows <= 0 || g.Cols > 0xFFFF || g.Rows > 0xFFFF || g.Bins() > 1<<(32-abi.PipePrimBits) {
		return g, fmt.Errorf("gfx: bin grid %dx%d does not fit the 32-bit bin-sort key", g.Cols, g.Rows)
	}
	return g, nil
}

// Bins is the number of bins (headers) in the dense grid.
func (g BinGrid) Bins() int { return g.Cols * g.Rows }

func (g BinGrid) span(bb BBox) (x0, x1, y0, y1 uint32) {
	x0, x1, y0, y1 = binRange(bb, g.BinLog)
	x1, y1 = min(x1, uint32(g.Cols)), min(y1, uint32(g.Rows))
	return
}

// BCount writes each primitive's overlapped-bin count. spec: rasterizer §3.1
func BCount(g BinGrid, bbs []BBox, counts []uint32) {
	for i, bb := range bbs {
		x0, x1, y0, y1 := g.span(bb)
		counts[i] = (x1 - x0) * (y1 - y0)
	}
}

// BScan is an exclusive prefix scan: offsets[i] = Σ counts[:i], offsets[n] = total.
func BScan(counts, offsets []uint32) uint32 {
	var s uint32
	for i, c := range counts {
		offsets[i] = s
		s += c
	}
	offsets[len(counts)] = s
	return s
}

// BEmit expands each primitive's bbox into (bin_id << PIPE_PRIM_BITS) | pid keys
// at its scanned offset, bins in row-major order.
func BEmit(g BinGrid, bbs []BBox, offsets, keys []uint32) error {
	for pid, bb := range bbs {
		if pid >= 1<<abi.PipePrimBits {
			return fmt.Errorf("gfx: BEMIT: pid %d does not fit the %d-bit key field", pid, abi.PipePrimBits)
		}
		x0, x1, y0, y1 := g.span(bb)
		k := offsets[pid]
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				keys[k] = (y*uint32(g.Cols)+x)<<abi.PipePrimBits | uint32(pid)
				k++
			}
		}
	}
	return nil
}

// BHist counts keys per bin.
func BHist(keys, hist []uint32) {
	clear(hist)
	for _, k := range keys {
		hist[k>>abi.PipePrimBits]++
	}
}

// BBase scans the bin histogram into absolute pid offsets and writes every
// header of the dense grid (empty bins included) into tbuf.
func BBase(g BinGrid, hist, base []uint32, tbuf []byte) {
	var s uint32
	for b := range hist {
		base[b] = s
		abi.BinHeader{BinX: uint16(b % g.Cols), BinY: uint16(b / g.Cols), PidsOffset: s, PidsCount: hist[b]}.Put(tbuf[b*abi.BinHeaderBytes:])
		s += hist[b]
	}
}

// BScatter is the counting-sort scatter of pids into the sorted array; it walks
// the keys in order, so each bin's pids keep submission order.
func BScatter(keys, base []uint32, pids []byte) {
	cursor := append([]uint32(nil), base...)
	for _, k := range keys {
		b := k >> abi.PipePrimBits
		binary.LittleEndian.PutUint32(pids[4*cursor[b]:], k&(1<<abi.PipePrimBits-1))
		cursor[b]++
	}
}

// DeviceBinning runs the six binning_k stages over buffers and returns the dense
// tile buffer (headers for every bin, then the sorted pids) and its header count.
// spec: rasterizer §3.1
func DeviceBinning(g BinGrid, bbs []BBox) ([]byte, int, error) {
	counts := make([]uint32, len(bbs))
	offsets := make([]uint32, len(bbs)+1)
	BCount(g, bbs, counts)
	total := BScan(counts, offsets)
	keys := make([]uint32, total)
	if err := BEmit(g, bbs, offsets, keys); err != nil {
		return nil, 0, err
	}
	hist := make([]uint32, g.Bins())
	BHist(keys, hist)
	base := make([]uint32, g.Bins())
	tbuf := make([]byte, g.Bins()*abi.BinHeaderBytes+int(total)*4)
	BBase(g, hist, base, tbuf)
	BScatter(keys, base, tbuf[g.Bins()*abi.BinHeaderBytes:])
	return tbuf, g.Bins(), nil
}
