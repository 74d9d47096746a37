package ref

import (
	"math"
	"vortexgfx/gl/polyoffset"
)

// ownsRows reports whether a triangle whose snapped window y spans
// [miny, maxy] has a quad row, inside d.rect, in this drawer's bands
// (the rows rasterTri would visit).
func (d *drawer) ownsRows(miny, maxy int64) bool {
	const half = subPixel / 2
	y0 := max((miny-half+subPixel-1)>>subPixelBits, int64(d.rect[1]))
	y1 := min((maxy-half)>>subPixelBits+1, int64(d.rect[3]))
	if y0 >= y1 {
		return false
	}
	first, last := int((y0&^1)/bandRows), int((y1-1)/bandRows)
	if last-first+1 >= d.bands {
		return true
	}
	for b := first; b <= last; b++ {
		if b%d.bands == d.band {
			return true
		}
	}
	return false
}

// triangle clips, culls and rasterizes one triangle; edges are its
// polygon's boundary edges (for a LINE or POINT face, unfilled).
func (d *drawer) triangle(a, b, c, prov, id int32, edges uint8) error {
	st := d.clip.stride
	wp := &d.poly // the drawer's own, so nothing is zeroed per triangle
	var n int
	// An unclipped triangle (three cached vertices) is set up from the
	// per-vertex window positions; its words are loaded once it is known
	// to be drawn.
	// (Not in polygon modes: a face's wide lines and points reach beyond
	// its bounding box and bands.)
	cached := d.wv != nil && !d.polyModes && d.wv[a].fy != noY && d.wv[b].fy != noY && d.wv[c].fy != noY
	if cached {
		pa, pb, pc := &d.wv[a], &d.wv[b], &d.wv[c]
		miny, maxy := min(pa.fy, pb.fy, pc.fy), max(pa.fy, pb.fy, pc.fy)
		if d.bands > 1 {
			// Each worker walks every triangle; one outside its
			// bands is skipped before any setup.
			if !d.ownsRows(miny, maxy) {
				return nil
			}
		}
		// A triangle whose bounding box holds no pixel centre of the
		// target and scissor (most of a dense mesh's) covers nothing:
		// rasterTri would stop at the same test.
		if x0, x1, y0, y1 := d.sampleRange(min(pa.fx, pb.fx, pc.fx), max(pa.fx, pb.fx, pc.fx), miny, maxy); x0 >= x1 || y0 >= y1 {
			return nil
		}
		buf := d.clip.buf[0]
		for i, s := range [3]int32{a, b, c} {
			// Field by field: no temporary wvert copied into d.poly.
			p, w := &d.wv[s], &wp[i]
			w.fx, w.fy, w.xw, w.yw, w.z, w.iw = p.fx, p.fy, p.xw, p.yw, p.z, p.iw
			w.attr = buf[i*st+4 : i*st+4+d.vw]
		}
		n = 3
	} else {
		if !d.finiteSlot(a) || !d.finiteSlot(b) || !d.finiteSlot(c) {
			return nil
		}
		var poly []float64
		poly, n = d.clipTriangle(a, b, c, d.frontMap)
		if n < 3 {
			return nil
		}
		for i := range n {
			if !(poly[i*st+3] > 0) { // only a degenerate primitive through the eye (0,0,0,0)
				return nil
			}
			wp[i] = d.toWindow(poly[i*st : (i+1)*st])
		}
	}
	var area int64
	for i := 1; i+1 < n; i++ {
		area += area2(&wp[0], &wp[i], &wp[i+1])
	}
	if area == 0 {
		return nil
	}
	front := (area > 0) == (d.s.FrontFace == FrontCCW)
	switch d.s.Cull {
	case CullFrontAndBack:
		return nil
	case CullFront:
		if front {
			return nil
		}
	case CullBack:
		if !front {
			return nil
		}
	}
	m := d.frontMap
	if !front && d.s.TwoSided && len(d.s.TwoSide) > 0 {
		m = d.backMap
	}
	if d.polyModes {
		if mode := d.faceMode(front); mode != PolygonFill {
			return d.unfilled(mode, [3]int32{a, b, c}, prov, id, edges, front, m, wp[:n])
		}
	}
	if !front && d.s.TwoSided && len(d.s.TwoSide) > 0 {
		m = d.backMap
		var poly []float64
		poly, n = d.clipTriangle(a, b, c, m)
		for i := range n {
			wp[i] = d.toWindow(poly[i*st : (i+1)*st])
		}
	} else if cached {
		// The words are loaded by rasterTri at the first covered quad:
		// most triangles of a dense mesh cover none.
		d.lazy, d.lazySlots, d.lazyMap = true, [3]int32{a, b, c}, m
	}
	d.loadFlat(prov, m)
	d.zoff = 0
	if d.s.DepthBias.Enable {
		d.zoff = d.depthBias(wp[:n])
	}
	for i := 1; i+1 < n; i++ {
		// A fan triangle wound against its polygon is a sliver made by
		// snapping nearly collinear clip vertices; drawing it would
		// cover pixels its neighbours already own.
		if a := area2(&wp[0], &wp[i], &wp[i+1]); a != 0 && (a > 0) != (area > 0) {
			continue
		}
		if err := d.rasterTri(&wp[0], &wp[i], &wp[i+1], front, id); err != nil {
			d.lazy = false
			return err
		}
	}
	d.zoff, d.lazy = 0, false
	return nil
}

// depthBias returns the polygon offset of a (clipped) triangle's polygon.
func (d *drawer) depthBias(p []wvert) float64 {
	b := d.s.DepthBias
	var m float64
	for i := 1; i+1 < len(p); i++ {
		a, c, e := &p[0], &p[i], &p[i+1]
		if s, ok := polyoffset.MaxSlope([3]float64{a.xw, a.yw, a.z}, [3]float64{c.xw, c.yw, c.z}, [3]float64{e.xw, e.yw, e.z}); ok {
			m = s
			break
		}
	}
	bits, zmax := 0, 0.0
	if ds := d.t.DepthStencil; ds != nil && ds.Format.IsDepth() {
		bits = ds.Format.Info().DepthBits
		for i := range p {
			zmax = max(zmax, math.Abs(p[i].z))
		}
	}
	return polyoffset.Offset(b.Slope, b.Constant, b.Clamp, m, polyoffset.Resolution(bits, zmax))
}

// clipTriangle loads and clips a triangle; it returns the polygon buffer and
// its vertex count (0 when nothing is left).
func (d *drawer) clipTriangle(a, b, c int32, m []int) ([]float64, int) {
	st := d.clip.stride
	buf := d.clip.buf[0]
	d.load(buf[0:st], a, m)
	d.load(buf[st:2*st], b, m)
	d.load(buf[2*st:3*st], c, m)
	all := true
	for _, pl := range d.clip.planes {
		d0, d1, d2 := d.clip.dist(buf[0:st], pl), d.clip.dist(buf[st:2*st], pl), d.clip.dist(buf[2*st:3*st], pl)
		if d0 < 0 && d1 < 0 && d2 < 0 {
			return nil, 0
		}
		if !(d0 >= 0 && d1 >= 0 && d2 >= 0) {
			all = false
		}
	}
	if all {
		return buf, 3
	}
	return d.clip.polygon(3)
}

// line clips and rasterizes one line segment as a parallelogram: the
// segment shifted by +-width/2 along the minor axis (y for x-major lines;
// the width rounded and clamped to [1, 2048]), split into two triangles
// that go through the triangle rasterizer, so the top-left rule gives
// half-open ends and joints between segments of one major axis covered
// once.
func (d *drawer) line(a, b, prov, id int32) error {
	if !d.finiteSlot(a) || !d.finiteSlot(b) {
		return nil
	}
	st := d.clip.stride
	buf := d.clip.buf[0]
	d.load(buf[0:st], a, d.frontMap)
	d.load(buf[st:2*st], b, d.frontMap)
	return d.segment(d.clip.planes, prov, d.frontMap, true, id)
}

// segment clips the line in d.clip.buf[0] (two clip vertices) against
// planes and rasterizes it as line describes, with prov's flat words read
// through m, facing front.
func (d *drawer) segment(planes []int, prov int32, m []int, front bool, id int32) error {
	st := d.clip.stride
	buf := d.clip.buf[0]
	if !d.clip.segment(planes) || !(buf[3] > 0) || !(buf[st+3] > 0) {
		return nil
	}
	p0, p1 := d.toWindow(buf[0:st]), d.toWindow(buf[st:2*st])
	dx, dy := p1.xw-p0.xw, p1.yw-p0.yw
	if dx == 0 && dy == 0 {
		return nil
	}
	width := min(max(math.Round(float64(d.s.LineWidth)), 1), 2048)
	ox, oy := 0.0, width/2
	if math.Abs(dx) < math.Abs(dy) {
		ox, oy = width/2, 0
	}
	d.loadFlat(prov, m)
	c := [4]wvert{p0, p0, p1, p1} // A0, A1, B0, B1
	c[0].xw, c[0].yw = p0.xw-ox, p0.yw-oy
	c[1].xw, c[1].yw = p0.xw+ox, p0.yw+oy
	c[2].xw, c[2].yw = p1.xw-ox, p1.yw-oy
	c[3].xw, c[3].yw = p1.xw+ox, p1.yw+oy
	for i := range c {
		c[i].snap()
	}
	if err := d.rasterTri(&c[0], &c[2], &c[3], front, id); err != nil {
		return err
	}
	return d.rasterTri(&c[0], &c[3], &c[1], front, id)
}

// point rasterizes a point as a size x size square centred on the vertex:
// the pixels whose centres lie in [x-size/2, x+size/2) x [y-size/2,
// y+size/2). The point is dropped when its vertex is outside the clip
// volume (GL §13.7).
func (d *drawer) point(s, id int32) error {
	if !d.finiteSlot(s) {
		return nil
	}
	st := d.clip.stride
	buf := d.clip.buf[0]
	d.load(buf[0:st], s, d.frontMap)
	d.loadFlat(s, d.frontMap)
	return d.pointAt(d.clip.planes, float64(d.psize[s]), true, id)
}

// pointAt rasterizes the clip vertex in d.clip.buf[0] as point describes,
// at size size (clamped to [1, 2048]), facing front, unless it is outside
// planes; d.flat holds its flat words.
func (d *drawer) pointAt(planes []int, size float64, front bool, id int32) error {
	st := d.clip.stride
	buf := d.clip.buf[0]
	if !d.clip.insidePlanes(buf[:st], planes) || !(buf[3] > 0) {
		return nil
	}
	v := d.toWindow(buf[:st])
	if !(size >= 1) {
		size = 1
	}
	size = min(size, 2048)
	xw, yw := float64(v.fx)/subPixel, float64(v.fy)/subPixel
	x0, x1 := int(math.Ceil(xw-size/2-0.5)), int(math.Ceil(xw+size/2-0.5))
	y0, y1 := int(math.Ceil(yw-size/2-0.5)), int(math.Ceil(yw+size/2-0.5))
	verts := [3]*wvert{&v, &v, &v}
	d.prepare(verts)
	var bary [4][3]float64
	for l := range bary {
		bary[l] = [3]float64{1, 0, 0}
	}
	r := d.rect
	qx0, qx1 := max(x0, r[0])&^1, min(x1, r[2])
	qy0, qy1 := max(y0, r[1])&^1, min(y1, r[3])
	var pc [4][2]float32
	for qy := qy0; qy < qy1; qy += 2 {
		if !d.owns(qy) {
			continue
		}
		for qx := qx0; qx < qx1; qx += 2 {
			var mask uint8
			for l := range 4 {
				px, py := qx+l&1, qy+l>>1
				if px >= x0 && px < x1 && py >= y0 && py < y1 && px >= r[0] && px < r[2] && py >= r[1] && py < r[3] {
					mask |= 1 << l
				}
				ps := 0.5 + (float64(px)+0.5-xw)/size
				pt := (float64(py) + 0.5 - yw) / size
				if d.s.PointOriginLower {
					pt = 0.5 + pt
				} else {
					pt = 0.5 - pt
				}
				pc[l] = [2]float32{float32(ps), float32(pt)}
			}
			if mask == 0 {
				continue
			}
			if err := d.emitQuad(qx, qy, mask, &bary, verts, front, id, &pc); err != nil {
				return err
			}
		}
	}
	return nil
}

// prepare computes the per-vertex interpolation terms of a primitive.
func (d *drawer) prepare(v [3]*wvert) {
	d.setup = d.setupOwn // not views of the terms cache, which this must not write
	d.termsGen++
	for i, w := range v {
		s := d.setup[i]
		for _, k := range d.smoothW {
			s[k] = w.attr[k] * w.iw
		}
		for _, k := range d.linearW {
			s[k] = w.attr[k]
		}
	}
}

// edgeFn returns the edge function E(x, y) = a x + b y + c (fixed point,
// positive inside) of the edge from p to q of a positively oriented
// triangle, and the least value t of E at which a sample is inside. The tie
// rule includes the edge (t = 0) when a > 0 (a left edge) or a == 0 and
// b > 0 (a top edge in row order, rows growing downwards), else t = 1: the
// top-left rule, under which of two triangles sharing an edge exactly one
// owns it.
func edgeFn(p, q *wvert) (a, b, c, t int64) {
	a = p.fy - q.fy
	b = q.fx - p.fx
	c = -(a*p.fx + b*p.fy)
	t = 1
	if a > 0 || (a == 0 && b > 0) {
		t = 0
	}
	return a, b, c, t
}

// sampleRange returns the pixels [x0, x1) x [y0, y1) of d.rect whose
// centres lie in the snapped box [minx, maxx] x [miny, maxy]. (The
// arithmetic shifts are floor divisions by subPixel.)
func (d *drawer) sampleRange(minx, maxx, miny, maxy int64) (x0, x1, y0, y1 int64) {
	const half = subPixel / 2
	r := d.rect
	x0 = max((minx-half+subPixel-1)>>subPixelBits, int64(r[0]))
	x1 = min((maxx-half)>>subPixelBits+1, int64(r[2]))
	y0 = max((miny-half+subPixel-1)>>subPixelBits, int64(r[1]))
	y1 = min((maxy-half)>>subPixelBits+1, int64(r[3]))
	return x0, x1, y0, y1
}

// rasterTri rasterizes one triangle in window space: pixel centres at
// (x+1/2, y+1/2) are inside when all three edge functions are inside by
// the top-left rule; every 2x2 quad with a covered pixel is shaded whole.
// The edge functions are stepped exactly in int64 from quad to quad (the
// same values a per-sample evaluation gives), and barycentrics are only
// formed for quads with a covered lane.
func (d *drawer) rasterTri(v0, v1, v2 *wvert, front bool, id int32) error {
	area := area2(v0, v1, v2)
	if area == 0 {
		return nil
	}
	if area < 0 {
		v1, v2 = v2, v1
		area = -area
	}
	ea0, eb0, ec0, t0 := edgeFn(v1, v2)
	ea1, eb1, ec1, t1 := edgeFn(v2, v0)
	ea2, eb2, ec2, t2 := edgeFn(v0, v1)
	x0, x1, y0, y1 := d.sampleRange(min(v0.fx, v1.fx, v2.fx), max(v0.fx, v1.fx, v2.fx), min(v0.fy, v1.fy, v2.fy), max(v0.fy, v1.fy, v2.fy))
	if x0 >= x1 || y0 >= y1 {
		return nil
	}
	const half = subPixel / 2
	verts := [3]*wvert{v0, v1, v2}
	prepared := false // the interpolation terms, set up at the first covered quad
	fa := float64(area)
	// dxi, dyi: the change of edge i between horizontally and vertically
	// neighbouring samples.
	dx0, dx1, dx2 := ea0*subPixel, ea1*subPixel, ea2*subPixel
	dy0, dy1, dy2 := eb0*subPixel, eb1*subPixel, eb2*subPixel
	dxy0, dxy1, dxy2 := dx0+dy0, dx1+dy1, dx2+dy2 // to the quad's lane 3
	sx0, sx1, sx2 := 2*dx0, 2*dx1, 2*dx2          // to the next quad
	var bary [4][3]float64
	// zbest, zworst bound the lanes' quantized depths (zBound, computed
	// at the first covered quad: most small triangles have none): a quad
	// they show the early depth test rejects is skipped before its
	// barycentrics, and one they show it keeps skips the test.
	var zbest, zworst uint32
	zcheck, zready := d.early && d.qzFast, false
	qx0 := x0 &^ 1
	// Rows this wide pay for finding the triangle's first quad by
	// division rather than by stepping.
	wide := x1-qx0 > 32
	for qy := y0 &^ 1; qy < y1; qy += 2 {
		if !d.owns(int(qy)) {
			continue
		}
		// Lanes 0, 1 lie in row qy, lanes 2, 3 in row qy+1; each must be
		// inside [y0, y1) (the bounding box clipped to the target and
		// scissor) as well as the triangle.
		rows := uint8(0b1111)
		if qy < y0 {
			rows &^= 0b0011
		}
		if qy+1 >= y1 {
			rows &^= 0b1100
		}
		sx, sy := qx0*subPixel+half, qy*subPixel+half
		// Edge values at lane 0 of the quad at qx, stepped exactly.
		a0, a1, a2 := ea0*sx+eb0*sy+ec0, ea1*sx+eb1*sy+ec1, ea2*sx+eb2*sy+ec2
		qx := qx0
		if wide {
			// Skip the quads left of the triangle: those in which an edge
			// growing with x is outside at the quad's right lanes (its
			// largest values) in both rows.
			k := max(skipQuads(a0+dx0, a0+dx0+dy0, t0, dx0), skipQuads(a1+dx1, a1+dx1+dy1, t1, dx1), skipQuads(a2+dx2, a2+dx2+dy2, t2, dx2))
			qx, a0, a1, a2 = qx+2*k, a0+2*k*dx0, a1+2*k*dx1, a2+2*k*dx2
		}
		// ei is edge i's value at the quad's lane 0 minus its threshold:
		// lane l is inside when every ei + (l&1)*dxi + (l>>1)*dyi is not
		// negative (the sign bits are or-ed, three edges at once).
		e0, e1, e2 := a0-t0, a1-t1, a2-t2
		for ; qx < x1; qx, e0, e1, e2 = qx+2, e0+sx0, e1+sx1, e2+sx2 {
			out := uint64(e0|e1|e2)>>63 |
				uint64((e0+dx0)|(e1+dx1)|(e2+dx2))>>63<<1 |
				uint64((e0+dy0)|(e1+dy1)|(e2+dy2))>>63<<2 |
				uint64((e0+dxy0)|(e1+dxy1)|(e2+dxy2))>>63<<3
			mask := ^uint8(out) & rows
			if qx < x0 {
				mask &^= 0b0101
			}
			if qx+1 >= x1 {
				mask &^= 0b1010
			}
			if mask == 0 {
				// Past the triangle: an edge not growing with x is
				// outside at the quad's left lanes (its largest values)
				// in both rows, so at every quad to the right too.
				if (ea0 <= 0 && e0&(e0+dy0) < 0) || (ea1 <= 0 && e1&(e1+dy1) < 0) || (ea2 <= 0 && e2&(e2+dy2) < 0) {
					break
				}
				continue
			}
			pass := false
			if zcheck {
				if !zready {
					var lo, hi uint32
					lo, hi, zcheck = d.zBound(v0, v1, v2)
					zbest, zworst = d.zSides(lo, hi)
					zready = true
				}
				if zcheck {
					var reject bool
					if reject, pass = d.zClassify(int(qx), int(qy), mask, zbest, zworst); reject {
						continue
					}
				}
			}
			// The lanes' edge values (for the barycentrics).
			a0, a1, a2 := e0+t0, e1+t1, e2+t2
			b0, b1, b2 := a0+dx0, a1+dx1, a2+dx2
			c0, c1, c2 := a0+dy0, a1+dy1, a2+dy2
			d0, d1, d2 := b0+dy0, b1+dy1, b2+dy2
			// Every lane's barycentrics, float64(edge) / fa: helper
			// lanes need them unless the shader declares it never reads
			// them (noHelpers), and a lane no one reads costs less than
			// the branch (two divisions per instruction: baryQuad).
			e := [12]int64{a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2}
			baryQuad(&bary, &e, fa)
			if !prepared {
				switch {
				case d.lazy && d.vt != nil:
					// An unclipped triangle's corners, set up once
					// per vertex (see vertexTerms).
					d.cornerTerms(verts)
					d.lazy = false
				case d.lazy:
					// An unclipped triangle's words (see triangle).
					for i, s := range d.lazySlots {
						d.loadWords(d.poly[i].attr, s, d.lazyMap)
					}
					d.lazy = false
					d.prepare(verts)
				default:
					d.prepare(verts)
				}
				prepared = true
			}
			d.earlyPass = pass
			err := d.emitQuad(int(qx), int(qy), mask, &bary, verts, front, id, nil)
			d.earlyPass = false
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// skipQuads returns how many quads to the right an edge that grows by dx
// per pixel (dx > 0) still has both right-lane values r0, r1 below its
// threshold t: quads wholly outside it. It is 0 for other edges.
func skipQuads(r0, r1, t, dx int64) int64 {
	m := max(r0, r1)
	if dx <= 0 || m >= t {
		return 0
	}
	return (t - m + 2*dx - 1) / (2 * dx)
}
