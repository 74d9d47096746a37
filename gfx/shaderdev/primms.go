package shaderdev

import "math"

// On a multisampled pass prim_k draws GL's multisample shapes instead of
// the aliased ones the reference renderer's single-sample rules define: a
// segment is the rectangle of the line width centred on it, as long as the
// segment (not widened along the minor axis, not snapped), and a point the
// size×size square centred on its window position (not moved onto pixel
// boundaries); the software walk then tests each sample against the two
// triangles' edges, so a sample is covered exactly when it lies in the
// shape (the top-left rule on its boundary). spec: GL 4.6 §14.5.4
// (multisample line rasterization), §14.4.3 (multisample point
// rasterization)

// msLineTris are the line rectangle's two triangles over its corners
// A0, A1, B0, B1 (msLine).
var msLineTris = [2][3]int{{0, 2, 3}, {0, 3, 1}}

// msLine is the rectangle of segment (x0, y0)–(x1, y1) (window coordinates,
// not both equal) of the given line width (clamped to [1, 2048], not
// rounded), its corners A0, A1 at a's end and B0, B1 at b's.
func msLine(a, b []float64, x0, y0, x1, y1, width float64) *[4]corner {
	width = min(max(width, 1), maxRasterLineWidth)
	l := math.Hypot(x1-x0, y1-y0)
	nx, ny := -(y1-y0)/l*width/2, (x1-x0)/l*width/2
	return &[4]corner{
		{xw: x0 - nx, yw: y0 - ny, v: a}, {xw: x0 + nx, yw: y0 + ny, v: a},
		{xw: x1 - nx, yw: y1 - ny, v: b}, {xw: x1 + nx, yw: y1 + ny, v: b},
	}
}

// msPoint expands a point at window (xw, yw) of the given size into the
// size×size square centred there, with gl_PointCoord at its corners.
func (g *primGeom) msPoint(a []float64, xw, yw, size float64, prov, out []uint32, back bool) {
	h := size / 2
	c := [4]corner{{xw: xw - h, yw: yw - h, v: a}, {xw: xw + h, yw: yw - h, v: a}, {xw: xw - h, yw: yw + h, v: a}, {xw: xw + h, yw: yw + h, v: a}}
	g.pointCoords(&c, xw, yw, size)
	g.quad(&c, pointTris, prov, out, back)
}
