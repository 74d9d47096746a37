package frontend

import (
	"math"

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
// pixels outside the target, whose setup without clipping would not be exact
// (fitsUnclipped), is clipped in clip space against the guard planes before
// setup, so its screen-space edge constants stay inside Q15.16 instead of
// collapsing silently. Triangles inside the band, and those beyond it whose
// unclipped setup is exact, are untouched (bit-exact with host Binning, and so
// with the draw3d goldens). spec: vortexpipe §3.8 (guard band)
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
	polyA, polyB := &e.polyA, &e.polyB
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
		if !outside || e.fitsUnclipped(&sub[s]) {
			fan[nf] = sub[s]
			nf++
			continue
		}
		st.GuardClipped++
		poly := clipAll(sub[s], e.guard, polyA, polyB)
		if nf+max(len(poly)-2, 0) > len(fan) {
			poly = clipPolyAll(zp, e.guard, polyA, polyB)
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

// fitsUnclipped reports whether a triangle reaching past the guard band sets
// up exactly without the guard clip, so that it is left whole as host Binning
// leaves it: every vertex has w > 0 (only then does the divided bounding box
// bound it), its unclipped primitive is not culled, no edge coefficient
// overflowed Q15.16 or truncated to A = B = 0 (lostPrecision), no edge value
// can wrap int32 anywhere the walk evaluates it — |C| + (|A| + |B|)·M below
// 2³¹ with M the target's larger side plus the largest bin (2¹² pixels), which
// also covers the TE's extent sums — and the depth plane did not overflow
// Q7.24 (a far vertex pushes C′ = z₀ − A′x₀ − B′y₀ out of range; the host
// conversion's INT_MIN marks it). Clipping such a triangle would only cost
// exactness: the clipped polygon's fan re-derives the edges along the
// triangle's own sides and the diagonals between the new vertices, so
// neighbours sharing a side no longer agree on it (rows of pixels covered by
// neither or both along a long shared edge, and values off by one where the
// re-derived planes round differently). spec: vortexpipe §3.8 (guard band);
// vortex-hardware-facts §3.2
func (e *feEnv) fitsUnclipped(t *[3]Vertex) bool {
	if !(t[0].Pos[3] > 0 && t[1].Pos[3] > 0 && t[2].Pos[3] > 0) {
		return false
	}
	var p Prim
	var bb BBox
	if !SetupTriangle(&t[0], &t[1], &t[2], e.width, e.height, e.near, e.far, e.cull, e.vp, e.planes, &p, &bb) ||
		lostPrecision(&p) {
		return false
	}
	m := int64(max(e.width, e.height)) + 1<<12
	for k := 0; k < 3; k++ {
		a, b, c := p.Edge(k)
		if abs64(int64(c))+(abs64(int64(a))+abs64(int64(b)))*m >= math.MaxInt32 {
			return false
		}
	}
	if za, zb, zc := p.Plane(abi.PlaneZ); za == math.MinInt32 || zb == math.MinInt32 || zc == math.MinInt32 {
		return false
	}
	return true
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
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
