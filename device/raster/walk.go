package raster

import (
	"math"
	"math/bits"

	"vortexgfx/abi"
)

// walk is the tile engine: a depth-first 4-ary descent from bin to block size,
// rejecting squares with E + (extent << level) < 0 on any edge. A child square
// is tested as it is generated (one cycle and, when it fails, one TileReject
// each, as if popped and tested): rejected squares are never pushed, accepted
// ones pop in the same Morton order. spec: rasterizer §7.3
//
// The model tests a square's four children at once, without branches: each
// edge gives a 4-bit mask of the children whose test fails (the sign bits of
// the four sums), and the children left in no edge's mask are the accepted
// ones. Accepted blocks are walked at once, in Morton order, instead of being
// pushed and popped, since a block pushes nothing; of accepted larger squares
// the first (the one that would pop next) is expanded at once and only its
// siblings are pushed. All sums wrap as int32, as the hardware's adders do: a
// square's value is E₀ + a·dx + b·dy mod 2³² whichever path reached it, so the
// order of the additions is free. walk_plain_test.go keeps the one-square-at-a-
// time descent as the oracle this walk must match.
func (w *walker) walk(x, y int32, e [3]int32) error {
	f := w.f
	blockLog := int32(f.cfg.BlockLog)
	top := int32(f.cfg.BinLog)
	w.cyc++ // the TE tests one square per cycle
	if e[0]+(w.ext[0]<<top) < 0 || e[1]+(w.ext[1]<<top) < 0 || e[2]+(w.ext[2]<<top) < 0 {
		w.stats.TileRejects++
		return nil
	}
	if top == blockLog {
		w.blockBounds()
		return w.block(x, y, e[0], e[1], e[2])
	}
	w.blockBounds()
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	x0, x1, x2 := w.ext[0], w.ext[1], w.ext[2]
	// The square being expanded lives in sx, sy, level, e0..e2; the stack
	// holds the accepted squares still to expand. The first accepted child
	// (the next to pop) is expanded at once without a push.
	sx, sy, level := x, y, top
	e0, e1, e2 := e[0], e[1], e[2]
	sp := 0
	for {
		c := level - 1
		// The children's edge values: E, E + A, E + B, E + A + B with A = a << c
		// and B = b << c.
		A0, A1, A2 := a0<<c, a1<<c, a2<<c
		B0, B1, B2 := b0<<c, b1<<c, b2<<c
		fail := rejectMask(e0+x0<<c, A0, B0) | rejectMask(e1+x1<<c, A1, B1) | rejectMask(e2+x2<<c, A2, B2)
		pass := ^fail & 0xF
		w.cyc += 4
		w.stats.TileRejects += int64(4 - bits.OnesCount8(pass))
		if c == blockLog {
			for m := pass; m != 0; m &= m - 1 {
				q := int32(bits.TrailingZeros8(m))
				i, j := q&1, q>>1
				if err := w.block(sx+i<<c, sy+j<<c, e0+i*A0+j*B0, e1+i*A1+j*B1, e2+i*A2+j*B2); err != nil {
					return err
				}
			}
			pass = 0
		}
		if pass == 0 {
			if sp == 0 {
				return nil
			}
			sp--
			s := &w.stack[sp]
			sx, sy, level = s.x, s.y, s.level
			e0, e1, e2 = s.e[0], s.e[1], s.e[2]
			continue
		}
		// Push BR, BL, TR so TL pops first (Morton order); expand TL now.
		first := int32(bits.TrailingZeros8(pass))
		for m := pass &^ (1 << first); m != 0; {
			q := int32(7 - bits.LeadingZeros8(m))
			m &^= 1 << q
			i, j := q&1, q>>1
			d := &w.stack[sp]
			d.x, d.y, d.level = sx+i<<c, sy+j<<c, c
			d.e[0], d.e[1], d.e[2] = e0+i*A0+j*B0, e1+i*A1+j*B1, e2+i*A2+j*B2
			sp++
		}
		i, j := first&1, first>>1
		sx, sy, level = sx+i<<c, sy+j<<c, c
		e0, e1, e2 = e0+i*A0+j*B0, e1+i*A1+j*B1, e2+i*A2+j*B2
	}
}

// rejectMask is one edge's extent test of a square's four children in Morton
// order: bit q is set when v + (q&1)·A + (q>>1)·B, with v the first child's
// value plus its extent, is negative (int32 wrap-around).
func rejectMask(v, a, b int32) uint8 {
	return uint8(uint32(v)>>31 | uint32(v+a)>>31<<1 | uint32(v+b)>>31<<2 | uint32(v+a+b)>>31<<3)
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

// block is the BE + QE: the block's quads row-major, each pixel tested against
// the three edges with the top-left rule and the exclusive scissor, then early-Z.
// A block wholly inside the scissor skips the per-pixel scissor test.
// spec: rasterizer §7.4, §7.5
func (w *walker) block(x, y, e0, e1, e2 int32) error {
	f := w.f
	n := int32(1) << (f.cfg.BlockLog - 1)
	w.cyc += int64(n * n) // the BE evaluates one quad per cycle
	inside := x >= f.xmin && x+2*n <= f.xmax && y >= f.ymin && y+2*n <= f.ymax
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	// A pixel passes edge k when E ≥ t_k: E ≥ 0 on a top-left edge, E > 0
	// otherwise.
	t0, t1, t2 := leastPassing(w.tl[0]), leastPassing(w.tl[1]), leastPassing(w.tl[2])
	// An edge that every pixel of the block passes needs no per-pixel test;
	// one that no pixel passes empties the block.
	full0, none0 := blockEdge(e0, w.lo[0], w.hi[0], t0)
	full1, none1 := blockEdge(e1, w.lo[1], w.hi[1], t1)
	full2, none2 := blockEdge(e2, w.lo[2], w.hi[2], t2)
	if none0 || none1 || none2 {
		return nil
	}
	for qy := int32(0); qy < n; qy++ {
		// Edge values at the row's first pixel (u = 0, v = 2·qy), stepping
		// 2a per quad; a quad's pixels are E, E + a, E + b, E + a + b in lane
		// order (int32 wrap-around, so equal to a·u + b·v evaluated directly).
		v := 2 * qy
		c0, c1, c2 := e0+b0*v, e1+b1*v, e2+b2*v
		for qx := int32(0); qx < n; qx++ {
			// Most quads of a small triangle's blocks fail one edge
			// outright: test the next edge only while some pixel remains.
			mask := uint8(0xF)
			if !full0 {
				mask = coverMask(c0, a0, b0, t0)
			}
			if mask != 0 && !full1 {
				mask &= coverMask(c1, a1, b1, t1)
			}
			if mask != 0 && !full2 {
				mask &= coverMask(c2, a2, b2, t2)
			}
			c0, c1, c2 = c0+2*a0, c1+2*a1, c2+2*a2
			if mask == 0 {
				continue
			}
			px, py := x+2*qx, y+2*qy
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
			if mask != 0 {
				if err := w.emit(abi.Stamp{QX: uint16(px >> 1), QY: uint16(py >> 1), Mask: mask, PID: uint16(w.pid)}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// blockBounds sets lo and hi, each edge's least and greatest offset over a
// block's pixel offsets u, v in [0, 2^BlockLog − 1], exact in int64.
func (w *walker) blockBounds() {
	m := int64(1)<<w.f.cfg.BlockLog - 1
	for k := 0; k < 3; k++ {
		a, b := int64(w.a[k]), int64(w.b[k])
		w.lo[k] = (min(0, a) + min(0, b)) * m
		w.hi[k] = (max(0, a) + max(0, b)) * m
	}
}

// blockEdge classifies one edge over a block from its value e at the block
// origin and the edge's offset bounds lo, hi (blockBounds): full when every
// pixel reaches t, none when none does. It decides only when no pixel's value
// wraps (the block's least and greatest exact values fit int32, so the wrapped
// sums are exact and the extremes at the corners bound every pixel); otherwise
// both are false and the pixels are tested one by one.
func blockEdge(e int32, lo, hi int64, t int32) (full, none bool) {
	l, h := int64(e)+lo, int64(e)+hi
	if l < math.MinInt32 || h > math.MaxInt32 {
		return false, false
	}
	return l >= int64(t), h < int64(t)
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
