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
	return nil
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
