package ref

import "math"

// wvert is a vertex in window space: snapped fixed-point x, y (1/256 pixel),
// the unsnapped window position, window z, 1/w_clip and the varying words.
type wvert struct {
	fx, fy int64
	xw, yw float64
	z, iw  float64
	attr   []float64
}

// toWindow projects clip vertex v (perspective divide and viewport).
func (d *drawer) toWindow(v []float64) wvert {
	p := d.windowPos(v[0], v[1], v[2], v[3])
	return wvert{fx: p.fx, fy: p.fy, xw: p.xw, yw: p.yw, z: p.z, iw: p.iw, attr: v[4 : 4+d.vw]}
}

// windowPos projects clip position (x, y, z, w) (perspective divide,
// viewport, snap).
func (d *drawer) windowPos(x, y, z, w float64) winPos {
	vp := d.s.Viewport
	iw := 1 / w
	xn, yn, zn := x*iw, y*iw, z*iw
	p := winPos{iw: iw}
	p.xw = float64(vp.X) + (xn+1)*float64(vp.W)/2
	p.yw = float64(vp.Y) + (yn+1)*float64(vp.H)/2
	n, f := float64(vp.MinDepth), float64(vp.MaxDepth)
	if d.s.ClipZeroToOne {
		p.z = n + (f-n)*zn
	} else {
		p.z = n + (f-n)*(zn+1)/2
	}
	p.fx, p.fy = snap(p.xw), snap(p.yw)
	return p
}

// snap rounds the window position to the sub-pixel grid.
func (w *wvert) snap() { w.fx, w.fy = snap(w.xw), snap(w.yw) }

// snap rounds a window coordinate to the sub-pixel grid (to nearest).
func snap(v float64) int64 { return int64(math.Round(v * subPixel)) }

// finiteSlot reports whether a post-VS vertex has a finite position and
// clip distances; primitives with a non-finite vertex are dropped.
func (d *drawer) finiteSlot(s int32) bool {
	for _, v := range d.pos[s] {
		if !finite(v) {
			return false
		}
	}
	cd := d.layout.ClipDistances
	for _, v := range d.cdist[int(s)*cd : (int(s)+1)*cd] {
		if !finite(v) {
			return false
		}
	}
	return true
}

// loadFlat copies the provoking vertex's words (through map m) that are
// flat and read (flatW, the only ones emitQuad copies).
func (d *drawer) loadFlat(prov int32, m []int) {
	v := d.vary[int(prov)*d.vw:]
	for _, k := range d.flatW {
		d.flat[k] = v[m[k]]
	}
}

// area2 is twice the signed area of triangle a, b, c in fixed point.
func area2(a, b, c *wvert) int64 {
	return (b.fx-a.fx)*(c.fy-a.fy) - (c.fx-a.fx)*(b.fy-a.fy)
}

// noY marks a vertex without a cached window position (see drawer.wv).
const noY = math.MinInt64

// winPos is a wvert without its words: a vertex's cached window position
// (pointer-free, so the per-draw cache costs the collector nothing).
type winPos struct {
	fx, fy int64
	xw, yw float64
	z, iw  float64
}

// windowVerts fills d.wv[lo:hi] for the current instance's post-VS
// vertices, with the same load, clip test and projection the triangle path
// uses, so a triangle of three cached vertices is unclipped and set up
// exactly as from its clipped polygon.
func (d *drawer) windowVerts(lo, hi int) { d.windowVertsWith(&d.clip, lo, hi) }

// windowVertsWith is windowVerts using clipper c's scratch (each
// concurrent caller has its own).
func (d *drawer) windowVertsWith(c *clipper, lo, hi int) {
	if d.layout.ClipDistances == 0 {
		d.windowVertsView(lo, hi)
		return
	}
	st := c.stride
	buf := c.buf[0][:st]
	cd := d.layout.ClipDistances
	for s := lo; s < hi; s++ {
		d.wv[s] = winPos{fy: noY}
		if !d.finiteSlot(int32(s)) {
			continue
		}
		for i, v := range d.pos[s] {
			buf[i] = float64(v)
		}
		for k, v := range d.cdist[s*cd : (s+1)*cd] {
			buf[4+d.vw+k] = float64(v)
		}
		if !c.inside(buf) || !(buf[3] > 0) {
			continue
		}
		d.wv[s] = d.windowPos(buf[0], buf[1], buf[2], buf[3])
	}
}

// windowVertsView is windowVertsWith for vertices without clip distances:
// the view-volume test of clipper.inside written out (the same sums, so
// the same answers) on the position alone.
func (d *drawer) windowVertsView(lo, hi int) {
	zero, clamp := d.s.ClipZeroToOne, d.s.Depth.Clamp
	for s := lo; s < hi; s++ {
		d.wv[s] = winPos{fy: noY}
		p := d.pos[s]
		if !finite(p[0]) || !finite(p[1]) || !finite(p[2]) || !finite(p[3]) {
			continue
		}
		x, y, z, w := float64(p[0]), float64(p[1]), float64(p[2]), float64(p[3])
		if !(w+x >= 0) || !(w-x >= 0) || !(w+y >= 0) || !(w-y >= 0) {
			continue
		}
		if !clamp {
			near := w + z
			if zero {
				near = z
			}
			if !(near >= 0) || !(w-z >= 0) {
				continue
			}
		}
		if !(w > 0) {
			continue
		}
		d.wv[s] = d.windowPos(x, y, z, w)
	}
}

// loadWords writes the varying words of post-VS slot s, read through m,
// to dst as floats (the words of a clip vertex, see load): those that are
// interpolated (smoothW, linearW), the only ones prepare reads.
func (d *drawer) loadWords(dst []float64, s int32, m []int) {
	v := d.vary[int(s)*d.vw:]
	for _, k := range d.smoothW {
		dst[k] = float64(math.Float32frombits(v[m[k]]))
	}
	for _, k := range d.linearW {
		dst[k] = float64(math.Float32frombits(v[m[k]]))
	}
}
