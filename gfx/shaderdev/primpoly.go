package shaderdev

import (
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gfx/frontend"
)

// polygonModes reads a polygon-mode launch's faces, winding and cull mode
// from prim_k's flags.
func (g *primGeom) polygonModes(flags uint64) error {
	g.poly, g.frontCCW = true, flags&primFlagFrontCCW != 0
	g.fillFront, g.fillBack = PolygonMode(flags>>primFillFrontShift&3), PolygonMode(flags>>primFillBackShift&3)
	g.cull = frontend.CullMode(flags >> primCullShift & 3)
	if g.fillFront > PolygonPoint || g.fillBack > PolygonPoint || g.cull > frontend.CullFront || g.points {
		return fmt.Errorf("polygon modes %d/%d, cull %d", g.fillFront, g.fillBack, g.cull)
	}
	if len(g.cd) > 0 {
		if keptFill(g.fillFront, g.fillBack, g.cull, g.frontCCW) {
			return fmt.Errorf("polygon modes %d/%d (cull %d) fill a face under user clip distances, which setup_k would not clip", g.fillFront, g.fillBack, g.cull)
		}
		m := g.n + len(g.cd)
		for i := range g.pc.buf {
			g.pc.buf[i] = make([]float64, polyEdges(len(g.cd))*m)
			g.pc.edge[i] = make([]bool, polyEdges(len(g.cd)))
		}
	}
	return nil
}

// polyEdges is the most edges (and vertices) of a triangle clipped by ncd
// user clip planes: each plane adds at most one.
func polyEdges(ncd int) int { return 3 + ncd }

// keptFill reports whether a face the cull mode (setup_k's, frontend's
// terms) keeps is in FILL mode, front and back being the API's faces (the
// API's back face is setup_k's back face under counter-clockwise front
// faces, its front face otherwise; pipe's deviceCull).
func keptFill(front, back PolygonMode, cull frontend.CullMode, frontCCW bool) bool {
	setupFront, setupBack := front, back
	if !frontCCW {
		setupFront, setupBack = back, front
	}
	return setupFront == PolygonFill && cull != frontend.CullFront || setupBack == PolygonFill && cull != frontend.CullBack
}

// polyScratch holds a triangle clipped by the user clip planes: clip
// vertices (the record's words, then the enabled distances) and per vertex
// whether the edge it starts is a boundary edge.
type polyScratch struct {
	buf  [2][]float64
	edge [2][]bool
}

// polygon expands triangle a, b, c (records; c provoking, as the driver
// orders a triangle list) into out's 18 records by its face's polygon mode:
// FILL writes the triangle itself (setup_k clips, faces and interpolates
// it as any), LINE its three edges a–b, b–c, c–a as lines, POINT its three
// vertices as points, each with c's flat words and the polygon's facing
// (setup_k's: the sign of det(x, y, w) of the clip positions times the
// viewport's SX·SY, the determinant of its homogeneous edge equations).
// The cull mode, in setup_k's terms, drops a face first; a degenerate
// triangle draws nothing. edges says which edges (bit k: vertex k to k+1)
// a LINE face draws and which vertices (bit k: vertex k) a POINT face
// does. ex receives the edges' exact line corners.
// spec: GL 4.6 §14.6.4 (polygon modes), §14.6.1 (facing)
func (g *primGeom) polygon(a, b, c []uint32, edges uint8, out, ex []uint32) {
	on := g.on
	p := func(r []uint32, k int) float64 { return float64(math.Float32frombits(r[k])) }
	det := p(a, 0)*(p(b, 1)*p(c, 3)-p(c, 1)*p(b, 3)) - p(a, 1)*(p(b, 0)*p(c, 3)-p(c, 0)*p(b, 3)) +
		p(a, 3)*(p(b, 0)*p(c, 1)-p(c, 0)*p(b, 1))
	det *= float64(g.sx) * float64(g.sy)
	back := det < 0
	if !(det != 0) || (g.cull == frontend.CullBack && back) || (g.cull == frontend.CullFront && !back) {
		g.empty(out)
		return
	}
	mode := g.fillFront
	if back == g.frontCCW { // the API's back face (see pipe's deviceCull)
		mode = g.fillBack
	}
	tri := 6 * on // records of one expanded line or point
	if mode != PolygonFill && len(g.cd) > 0 {
		g.polygonClipped(a, b, c, edges, mode, out, ex, back)
		return
	}
	switch mode {
	case PolygonFill:
		g.empty(out[3*on:])
		copy(out[:on], a)
		copy(out[on:2*on], b)
		copy(out[2*on:3*on], c)
	case PolygonLine:
		v := [3][]uint32{a, b, c}
		for e := range 3 {
			if edges>>e&1 == 0 {
				g.empty(out[e*tri : (e+1)*tri])
				continue
			}
			g.line(v[e], v[(e+1)%3], c, out[e*tri:(e+1)*tri], ex[e*2*abi.LineCoverBytes/4:(e+1)*2*abi.LineCoverBytes/4], back)
		}
	case PolygonPoint:
		for k, v := range [3][]uint32{a, b, c} {
			if edges>>k&1 == 0 {
				g.empty(out[k*tri : (k+1)*tri])
				continue
			}
			g.point(v, c, out[k*tri:(k+1)*tri], back)
		}
	}
}

// polygonClipped draws a LINE or POINT face under user clip distances as
// the reference renderer does (ref/polymode.go): the triangle a, b, c
// (records; c provoking) is clipped by the user planes alone with
// Sutherland-Hodgman (new vertices from an edge's inside end, g.lerp), a
// vertex where an edge enters keeping that edge's flag and one where it
// leaves starting a boundary edge along the plane; then each boundary edge
// is a line and each vertex starting one a point, clipped by the view
// volume alone, into out's slots of six records (and ex's pairs of exact
// corners), the rest left empty. A triangle with a non-finite vertex
// draws nothing. spec: GL 4.6 §14.6.4; GL 4.6 compatibility §13.7 (edge
// flags of clipped polygons)
func (g *primGeom) polygonClipped(a, b, c []uint32, edges uint8, mode PolygonMode, out, ex []uint32, back bool) {
	m := g.n + len(g.cd)
	src, dst := g.pc.buf[0], g.pc.buf[1]
	fs, fd := g.pc.edge[0], g.pc.edge[1]
	for i, r := range [3][]uint32{a, b, c} {
		v := src[i*m : (i+1)*m]
		g.load(v, r)
		if !g.finite(v) {
			g.empty(out)
			return
		}
		fs[i] = edges>>i&1 != 0
	}
	n := 3
	for _, pl := range g.pl[len(g.view):] {
		k := 0
		for i := range n {
			ip := (i + n - 1) % n
			cur, prev := src[i*m:(i+1)*m], src[ip*m:(ip+1)*m]
			dc, dp := g.dist(cur, pl), g.dist(prev, pl)
			if dc >= 0 {
				if !(dp >= 0) {
					g.lerp(dst[k*m:(k+1)*m], cur, prev, dc, dp)
					fd[k] = fs[ip]
					k++
				}
				copy(dst[k*m:(k+1)*m], cur)
				fd[k] = fs[i]
				k++
			} else if dp >= 0 {
				g.lerp(dst[k*m:(k+1)*m], prev, cur, dp, dc)
				fd[k] = true
				k++
			}
		}
		src, dst, fs, fd = dst, src, fd, fs
		n = k
		if n < 3 {
			n = 0
			break
		}
	}
	tri := 6 * g.on
	lc := 2 * abi.LineCoverBytes / 4
	for e := range len(out) / tri {
		o := out[e*tri : (e+1)*tri]
		if e >= n || !fs[e] {
			g.empty(o)
			continue
		}
		copy(g.a, src[e*m:(e+1)*m])
		if mode == PolygonLine {
			j := (e + 1) % n
			copy(g.b, src[j*m:(j+1)*m])
			g.lineLoaded(g.view, c, o, ex[e*lc:(e+1)*lc], back)
		} else {
			g.pointLoaded(g.view, c, o, back)
		}
	}
}
