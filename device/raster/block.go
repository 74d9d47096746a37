package raster

import (
	"math"
	"math/bits"
)

// edgeKind is how one edge covers a block's pixels.
type edgeKind uint8

const (
	edgeFull  edgeKind = iota // every pixel passes
	edgeNone                  // no pixel passes: the block is empty
	edgeSplit                 // some pass; E − t fits int32 at every pixel, so its sign decides
	edgeWrap                  // some pixel's sum may wrap: tested pixel by pixel (coverMask)
)

// classify decides one edge over a block from its value e at the block origin,
// its offset bounds lo, hi over the block's pixels (walker.setup) and its least
// passing value t. The corners bound every pixel only when no pixel's value
// wraps, that is when the block's least exact value minus t and greatest exact
// value fit int32; then the wrapped sums are the exact ones.
func classify(e int32, lo, hi int64, t int32) edgeKind {
	l, h := int64(e)+lo, int64(e)+hi
	switch {
	case l-int64(t) < math.MinInt32 || h > math.MaxInt32:
		return edgeWrap
	case l >= int64(t):
		return edgeFull
	case h < int64(t):
		return edgeNone
	}
	return edgeSplit
}

// block is the BE + QE: the block's quads row-major, each pixel tested against
// the three edges with the top-left rule and the exclusive scissor, then early-Z.
// A block wholly inside the scissor skips the per-pixel scissor test. The
// caller counts the BE's cycles. spec: rasterizer §7.4, §7.5
//
// An edge every pixel passes needs no per-pixel test and one no pixel passes
// empties the block. The others, when no sum wraps, are tested as the sign of
// E − t, four pixels at a time without branches (a full edge takes E − t = 0
// and no steps, so it passes everywhere); a block with an edge whose sums may
// wrap goes to blockWrap, which tests each pixel's wrapped value.
func (w *walker) block(x, y, e0, e1, e2 int32) error {
	if w.exact4 {
		return w.block4(x, y, e0, e1, e2)
	}
	k0 := classify(e0, w.lo[0], w.hi[0], w.t[0])
	k1 := classify(e1, w.lo[1], w.hi[1], w.t[1])
	k2 := classify(e2, w.lo[2], w.hi[2], w.t[2])
	if k0 == edgeNone || k1 == edgeNone || k2 == edgeNone {
		return nil
	}
	if k0 == edgeWrap || k1 == edgeWrap || k2 == edgeWrap {
		return w.blockWrap(x, y, e0, e1, e2)
	}
	f := w.f
	n := int32(1) << (f.cfg.BlockLog - 1)
	inside := x >= f.xmin && x+2*n <= f.xmax && y >= f.ymin && y+2*n <= f.ymax
	if k0 == edgeFull && k1 == edgeFull && k2 == edgeFull && inside && !f.earlyZ {
		// Trivially accepted: every quad is fully covered.
		for qy := int32(0); qy < n; qy++ {
			for qx := int32(0); qx < n; qx++ {
				if err := w.emit(uint16((x>>1)+qx), uint16((y>>1)+qy), 0xF); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var a0, a1, a2, b0, b1, b2, c0, c1, c2 int32
	if k0 == edgeSplit {
		a0, b0, c0 = w.a[0], w.b[0], e0-w.t[0]
	}
	if k1 == edgeSplit {
		a1, b1, c1 = w.a[1], w.b[1], e1-w.t[1]
	}
	if k2 == edgeSplit {
		a2, b2, c2 = w.a[2], w.b[2], e2-w.t[2]
	}
	for qy := int32(0); qy < n; qy++ {
		// E − t at the row's first pixel (u = 0, v = 2·qy), stepping 2a per
		// quad; a quad's pixels are E, E + a, E + b, E + a + b in lane order.
		v := 2 * qy
		r0, r1, r2 := c0+b0*v, c1+b1*v, c2+b2*v
		for qx := int32(0); qx < n; qx++ {
			mask := ^rejectMask3(r0, a0, b0, r1, a1, b1, r2, a2, b2) & 0xF
			r0, r1, r2 = r0+2*a0, r1+2*a1, r2+2*a2
			if mask == 0 {
				continue
			}
			if err := w.quad(x+2*qx, y+2*qy, mask, inside); err != nil {
				return err
			}
		}
	}
	return nil
}

// block4 is block for 4×4-pixel blocks (BlockLog 2, the default) of a
// primitive none of whose sums wraps in the bin (walker.setup), where every
// int32 sum is exact and each test is a sign bit. A quad has no pixel passing
// edge k when its greatest value E + ext_k − t_k is negative (ext = max(0, a)
// + max(0, b) is the largest offset within a quad), so one rejectMask per edge
// finds the block's live quads, and only those are tested pixel by pixel.
func (w *walker) block4(x, y, e0, e1, e2 int32) error {
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	c0, c1, c2 := e0-w.t[0], e1-w.t[1], e2-w.t[2]
	live := ^rejectMask3(c0+w.ext[0], 2*a0, 2*b0, c1+w.ext[1], 2*a1, 2*b1, c2+w.ext[2], 2*a2, 2*b2) & 0xF
	if live == 0 {
		return nil
	}
	return w.blockLive(x, y, c0, c1, c2, live)
}

// blockLive is block4 past its live-quad test: the block at (x, y) whose
// edge values less their least passing values are c0..c2 at its origin has
// the live quads live (non-zero; bit order is row-major).
func (w *walker) blockLive(x, y, c0, c1, c2 int32, live uint8) error {
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	f := w.f
	inside := x >= f.xmin && x+4 <= f.xmax && y >= f.ymin && y+4 <= f.ymax
	// The block's least value E + lo − t (lo wraps as int32, the sum is
	// exact) decides full coverage.
	if live == 0xF && inside && !f.earlyZ && c0+int32(w.lo[0]) >= 0 && c1+int32(w.lo[1]) >= 0 && c2+int32(w.lo[2]) >= 0 {
		qx, qy := uint16(x>>1), uint16(y>>1)
		for q := uint16(0); q < 4; q++ {
			if err := w.emit(qx+q&1, qy+q>>1, 0xF); err != nil {
				return err
			}
		}
		return nil
	}
	for m := live; m != 0; m &= m - 1 {
		q := int32(bits.TrailingZeros8(m))
		u, v := 2*(q&1), 2*(q>>1)     // the quad's first pixel; row-major is bit order
		mu, mv := -(q & 1), -(q >> 1) // all ones where u, v = 2
		r0, r1, r2 := c0+(2*a0)&mu+(2*b0)&mv, c1+(2*a1)&mu+(2*b1)&mv, c2+(2*a2)&mu+(2*b2)&mv
		mask := ^rejectMask3(r0, a0, b0, r1, a1, b1, r2, a2, b2) & 0xF
		if mask == 0 {
			continue
		}
		if err := w.quad(x+u, y+v, mask, inside); err != nil {
			return err
		}
	}
	return nil
}

// blockWrap is block for a block where some edge's sums may wrap: every pixel
// of the edges not decided for the whole block is tested on its wrapped int32
// value.
func (w *walker) blockWrap(x, y, e0, e1, e2 int32) error {
	f := w.f
	n := int32(1) << (f.cfg.BlockLog - 1)
	inside := x >= f.xmin && x+2*n <= f.xmax && y >= f.ymin && y+2*n <= f.ymax
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	t0, t1, t2 := w.t[0], w.t[1], w.t[2]
	full0 := classify(e0, w.lo[0], w.hi[0], t0) == edgeFull
	full1 := classify(e1, w.lo[1], w.hi[1], t1) == edgeFull
	full2 := classify(e2, w.lo[2], w.hi[2], t2) == edgeFull
	for qy := int32(0); qy < n; qy++ {
		v := 2 * qy
		c0, c1, c2 := e0+b0*v, e1+b1*v, e2+b2*v
		for qx := int32(0); qx < n; qx++ {
			mask := uint8(0xF)
			if !full0 {
				mask = coverMask(c0, a0, b0, t0)
			}
			if !full1 {
				mask &= coverMask(c1, a1, b1, t1)
			}
			if !full2 {
				mask &= coverMask(c2, a2, b2, t2)
			}
			c0, c1, c2 = c0+2*a0, c1+2*a1, c2+2*a2
			if mask == 0 {
				continue
			}
			if err := w.quad(x+2*qx, y+2*qy, mask, inside); err != nil {
				return err
			}
		}
	}
	return nil
}

// quad finishes one quad whose edge coverage is mask: the exclusive scissor
// (unless its block is inside it), early-Z, then the packer.
func (w *walker) quad(px, py int32, mask uint8, inside bool) error {
	f := w.f
	if !inside {
		for p := int32(0); p < 4; p++ {
			X, Y := px+p&1, py+p>>1
			if X < f.xmin || X >= f.xmax || Y < f.ymin || Y >= f.ymax {
				mask &^= 1 << p
			}
		}
	}
	if mask != 0 && f.earlyZ {
		for p := int32(0); p < 4; p++ {
			if mask>>p&1 != 0 && w.occluded(px+p&1, py+p>>1) {
				w.stats.EarlyZCulled++
				mask &^= 1 << p
			}
		}
	}
	if mask == 0 {
		return nil
	}
	return w.emit(uint16(px>>1), uint16(py>>1), mask)
}

// coverMask is one edge's test of a quad's four pixels in lane order: bit p is
// set when the pixel's value c + (p&1)·a + (p>>1)·b (int32 wrap-around)
// reaches t, the edge's least passing value (0 on a top-left edge, else 1).
func coverMask(c, a, b, t int32) uint8 {
	t64 := int64(t)
	fail := uint64(int64(c)-t64)>>63 | uint64(int64(c+a)-t64)>>63<<1 |
		uint64(int64(c+b)-t64)>>63<<2 | uint64(int64(c+a+b)-t64)>>63<<3
	return uint8(^fail & 0xF)
}

// leastPassing is the least value an edge function may take for a pixel to
// pass it: 0 on a top-left edge (E ≥ 0 passes), else 1 (E > 0).
// spec: rasterizer §7.4
func leastPassing(topLeft bool) int32 {
	if topLeft {
		return 0
	}
	return 1
}
