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
//
// The descent visits exactly the squares the hardware tests, so the cycle and
// reject counters are the hardware's by construction; it does not start lower
// (at the square holding the primitive) because a square off the primitive
// can pass all three extent tests — beyond a sharp vertex, or wherever the
// sums wrap — and the counters must include its subtree. What it saves is
// bookkeeping: the counters live in registers for the whole descent, the
// per-primitive block setup (walker.setup) is done once, and a level with one
// accepted child (the common case for small primitives) pushes nothing.
func (w *walker) walk(x, y int32, e [3]int32) error {
	f := w.f
	blockLog := int32(f.cfg.BlockLog)
	top := int32(f.cfg.BinLog)
	x0, x1, x2 := w.ext[0], w.ext[1], w.ext[2]
	if e[0]+(x0<<top) < 0 || e[1]+(x1<<top) < 0 || e[2]+(x2<<top) < 0 {
		w.cyc++ // the TE tests one square per cycle
		w.stats.TileRejects++
		return nil
	}
	w.setup(x, y, e)
	if top == blockLog {
		w.cyc += 1 + w.blockCyc
		return w.block(x, y, e[0], e[1], e[2])
	}
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	// For exact4 blocks (block4): each edge's least passing value and its
	// steps between a block's quads.
	exact4 := w.exact4
	t0, t1, t2 := w.t[0], w.t[1], w.t[2]
	qa0, qa1, qa2 := 2*a0, 2*a1, 2*a2
	qb0, qb1, qb2 := 2*b0, 2*b1, 2*b2
	// Counting: each loop iteration expands one accepted square (4 TE
	// cycles); every accepted square above block size is expanded once, so
	// with G expansions and B accepted blocks the walk tests 1 + 4G squares,
	// accepts G − 1 + B of them besides the bin (plus any left on the stack
	// when a launch fails) and spends B·blockCyc BE cycles.
	var groups, blocks int64
	// The square being expanded lives in sx, sy, level, e0..e2; the stack
	// holds the accepted squares still to expand, the next to pop on top.
	sx, sy, level := x, y, uint32(top)
	e0, e1, e2 := e[0], e[1], e[2]
	bl := uint32(blockLog)
	sp, pend := 0, 0
	st := &w.stack
	var err error
descent:
	for {
		groups++
		c := (level - 1) & 31 // levels are at most 12: the mask only spares Go's shift-count check
		// The children's edge values: E, E + A, E + B, E + A + B with A = a << c
		// and B = b << c.
		A0, A1, A2 := a0<<c, a1<<c, a2<<c
		B0, B1, B2 := b0<<c, b1<<c, b2<<c
		fail := rejectMask3(e0+x0<<c, A0, B0, e1+x1<<c, A1, B1, e2+x2<<c, A2, B2)
		pass := ^fail & 0xF
		if c == bl {
			blocks += int64(bits.OnesCount8(pass))
			if exact4 {
				// block4's live-quad test done here, for the children at
				// once: most accepted blocks of a small or thin primitive
				// have no live quad, and those need no call.
				for m := pass; m != 0; m &= m - 1 {
					q := int32(bits.TrailingZeros8(m))
					i, j := q&1, q>>1
					mi, mj := -i, -j // all ones where the child is right of / below the first
					c0, c1, c2 := e0+A0&mi+B0&mj-t0, e1+A1&mi+B1&mj-t1, e2+A2&mi+B2&mj-t2
					live := ^rejectMask3(c0+x0, qa0, qb0, c1+x1, qa1, qb1, c2+x2, qa2, qb2) & 0xF
					if live == 0 {
						continue
					}
					if err = w.blockLive(sx+i<<c, sy+j<<c, c0, c1, c2, live); err != nil {
						break descent
					}
				}
				pass = 0
			}
			for m := pass; m != 0; m &= m - 1 {
				q := int32(bits.TrailingZeros8(m))
				i, j := q&1, q>>1
				if err = w.block(sx+i<<c, sy+j<<c, e0+i*A0+j*B0, e1+i*A1+j*B1, e2+i*A2+j*B2); err != nil {
					break descent
				}
			}
			pass = 0
		}
		if exact4 && c == bl+1 && pass != 0 {
			// The children's children are blocks: expand each accepted
			// child here, in Morton order, instead of pushing it and
			// popping it back (the same groups, blocks and block order; a
			// failed launch leaves the later children where the stack
			// would hold them: pend).
			cb := bl
			Ab0, Ab1, Ab2 := a0<<cb, a1<<cb, a2<<cb
			Bb0, Bb1, Bb2 := b0<<cb, b1<<cb, b2<<cb
			for m := pass; m != 0; m &= m - 1 {
				q := int32(bits.TrailingZeros8(m))
				mi, mj := -(q & 1), -(q >> 1)
				f0, f1, f2 := e0+A0&mi+B0&mj, e1+A1&mi+B1&mj, e2+A2&mi+B2&mj
				px, py := sx+(q&1)<<c, sy+(q>>1)<<c
				groups++
				kids := ^rejectMask3(f0+x0<<cb, Ab0, Bb0, f1+x1<<cb, Ab1, Bb1, f2+x2<<cb, Ab2, Bb2) & 0xF
				blocks += int64(bits.OnesCount8(kids))
				for k := kids; k != 0; k &= k - 1 {
					r := int32(bits.TrailingZeros8(k))
					ri, rj := -(r & 1), -(r >> 1)
					c0, c1, c2 := f0+Ab0&ri+Bb0&rj-t0, f1+Ab1&ri+Bb1&rj-t1, f2+Ab2&ri+Bb2&rj-t2
					live := ^rejectMask3(c0+x0, qa0, qb0, c1+x1, qa1, qb1, c2+x2, qa2, qb2) & 0xF
					if live == 0 {
						continue
					}
					if err = w.blockLive(px+(r&1)<<cb, py+(r>>1)<<cb, c0, c1, c2, live); err != nil {
						pend = bits.OnesCount8(m &^ (m & -m))
						break descent
					}
				}
			}
			pass = 0
		}
		if pass == 0 {
			if sp == 0 {
				break
			}
			sp--
			s := &st[sp]
			sx, sy, level = s.x, s.y, uint32(s.level)
			e0, e1, e2 = s.e[0], s.e[1], s.e[2]
			continue
		}
		// Push BR, BL, TR so TL pops first (Morton order); expand TL now.
		first := int32(bits.TrailingZeros8(pass))
		for m := pass &^ (1 << first); m != 0; {
			q := int32(7 - bits.LeadingZeros8(m))
			m &^= 1 << q
			i, j := q&1, q>>1
			mi, mj := -i, -j
			d := &st[sp]
			d.x, d.y, d.level = sx+i<<c, sy+j<<c, int32(c)
			d.e[0], d.e[1], d.e[2] = e0+A0&mi+B0&mj, e1+A1&mi+B1&mj, e2+A2&mi+B2&mj
			sp++
		}
		i, j := first&1, first>>1
		mi, mj := -i, -j
		sx, sy, level = sx+i<<c, sy+j<<c, c
		e0, e1, e2 = e0+A0&mi+B0&mj, e1+A1&mi+B1&mj, e2+A2&mi+B2&mj
	}
	w.cyc += 1 + 4*groups + blocks*w.blockCyc
	w.stats.TileRejects += 4*groups - (groups - 1 + int64(sp+pend) + blocks)
	return err
}

// rejectMask is one edge's extent test of a square's four children in Morton
// order: bit q is set when v + (q&1)·A + (q>>1)·B, with v the first child's
// value plus its extent, is negative (int32 wrap-around).
func rejectMask(v, a, b int32) uint8 {
	return uint8(uint32(v)>>31 | uint32(v+a)>>31<<1 | uint32(v+b)>>31<<2 | uint32(v+a+b)>>31<<3)
}

// rejectMask3 is the three edges' rejectMask OR'd: bit q is set when some
// edge's value at child q is negative. A child fails when the OR of its three
// values has the sign bit, so the four children take one sign extraction
// each instead of one per edge and child.
func rejectMask3(v0, a0, b0, v1, a1, b1, v2, a2, b2 int32) uint8 {
	p0, p1, p2 := v0+a0, v1+a1, v2+a2
	return uint8(uint32(v0|v1|v2)>>31 | uint32(p0|p1|p2)>>31<<1 | uint32((v0+b0)|(v1+b1)|(v2+b2))>>31<<2 |
		uint32((p0+b0)|(p1+b1)|(p2+b2))>>31<<3)
}

// setup is the per-primitive state the block engine and the packer need,
// computed once per walk instead of once per block or quad: each edge's least
// passing value and offset bounds over a block, whether any sum can wrap in
// the bin whose origin values are e, the owner of the walk's bin and how many
// buffered quads came from earlier walks.
func (w *walker) setup(x, y int32, e [3]int32) {
	m := int64(1)<<w.f.cfg.BlockLog - 1
	top := w.f.cfg.BinLog
	exact := true
	for k := 0; k < 3; k++ {
		a, b := int64(w.a[k]), int64(w.b[k])
		lo, hi := min(0, a)+min(0, b), max(0, a)+max(0, b)
		w.lo[k], w.hi[k] = lo*m, hi*m
		w.t[k] = leastPassing(w.tl[k])
		// Every value the walk forms, the TE's corner sums included, is
		// E − t or E at a point of the closed bin square.
		ev := int64(e[k])
		exact = exact && ev+lo<<top-1 >= math.MinInt32 && ev+hi<<top <= math.MaxInt32
	}
	w.exact4 = exact && w.f.cfg.BlockLog == 2
	// Every quad of the walk lies in the bin at (x, y), so they share one
	// owner: it is a function of the quad's bin (rasterizer §9.1), taken at
	// the bin's first quad in FRAG_POS's 16-bit coordinates as the packer
	// sees them.
	qx, qy := uint16(x>>1), uint16(y>>1)
	binLog := w.f.cfg.BinLog
	key := uint32(qy)>>(binLog-1)<<16 | uint32(qx)>>(binLog-1)
	if !w.ownValid || key != w.ownKey {
		w.ownKey, w.ownValid = key, true
		w.ownVal = abi.RasterOwner(int(qx), int(qy), binLog, w.f.cfg.Cores)
	}
	// A walk visits each of its quads once, so its quads can only collide
	// with the ones buffered before it.
	w.prior = len(w.quads)
	w.stampPID = uint16(w.pid)
}
