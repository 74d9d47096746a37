package raster

import (
	"math/bits"

	"vortexgfx/abi"
)

// plainWalk is the tile engine as it was first written, one child square at a
// time through the stack, feeding the packer as first written (plainEmit,
// plainFlush): the oracle the fast walk must match wave for wave and cycle for
// cycle. It shares no code with the fast walk but the walker's fields and
// occluded.
//
// It is the tile engine: a depth-first 4-ary descent from bin to block size,
// rejecting squares with E + (extent << level) < 0 on any edge. A child square
// is tested as it is generated (one cycle and, when it fails, one TileReject
// each, as if popped and tested): rejected squares are never pushed, accepted
// ones pop in the same Morton order. spec: rasterizer §7.3
func (w *walker) plainWalk(x, y int32, e [3]int32) error {
	f := w.f
	blockLog := int32(f.cfg.BlockLog)
	top := int32(f.cfg.BinLog)
	w.cyc++ // the TE tests one square per cycle
	if e[0]+(w.ext[0]<<top) < 0 || e[1]+(w.ext[1]<<top) < 0 || e[2]+(w.ext[2]<<top) < 0 {
		w.stats.TileRejects++
		return nil
	}
	w.stack[0] = square{x, y, top, e}
	sp := 1
	for sp > 0 {
		sp--
		s := w.stack[sp]
		if s.level == blockLog {
			if err := w.plainBlock(s.x, s.y, s.e); err != nil {
				return err
			}
			continue
		}
		c := s.level - 1
		x0, x1, x2 := w.ext[0]<<c, w.ext[1]<<c, w.ext[2]<<c
		// The children's edge values: E, E + A, E + B, E + A + B with A = a << c
		// and B = b << c (int32 wrap-around, as the hardware's adders).
		var ea, eb [3]int32
		for k := 0; k < 3; k++ {
			ea[k], eb[k] = w.a[k]<<c, w.b[k]<<c
		}
		// Push BR, BL, TR, TL so TL pops first (Morton order).
		for q := 3; q >= 0; q-- {
			ce := s.e
			if q&1 != 0 {
				ce[0], ce[1], ce[2] = ce[0]+ea[0], ce[1]+ea[1], ce[2]+ea[2]
			}
			if q&2 != 0 {
				ce[0], ce[1], ce[2] = ce[0]+eb[0], ce[1]+eb[1], ce[2]+eb[2]
			}
			w.cyc++
			if ce[0]+x0 < 0 || ce[1]+x1 < 0 || ce[2]+x2 < 0 {
				w.stats.TileRejects++
				continue
			}
			w.stack[sp] = square{s.x + int32(q&1)<<c, s.y + int32(q>>1)<<c, c, ce}
			sp++
		}
	}
	return nil
}

// plainBlock is block as first written, one branch per pixel test.
//
// It is the BE + QE: the block's quads row-major, each pixel tested against
// the three edges with the top-left rule and the exclusive scissor, then early-Z.
// A block wholly inside the scissor skips the per-pixel scissor test.
// spec: rasterizer §7.4, §7.5
func (w *walker) plainBlock(x, y int32, e [3]int32) error {
	f := w.f
	n := int32(1) << (f.cfg.BlockLog - 1)
	w.cyc += int64(n * n) // the BE evaluates one quad per cycle
	inside := x >= f.xmin && x+2*n <= f.xmax && y >= f.ymin && y+2*n <= f.ymax
	a0, a1, a2 := w.a[0], w.a[1], w.a[2]
	b0, b1, b2 := w.b[0], w.b[1], w.b[2]
	// A pixel passes edge k when E > th_k: E ≥ 0 on a top-left edge, E > 0
	// otherwise.
	th0, th1, th2 := edgeThreshold(w.tl[0]), edgeThreshold(w.tl[1]), edgeThreshold(w.tl[2])
	for qy := int32(0); qy < n; qy++ {
		// Edge values at the row's first pixel (u = 0, v = 2·qy), stepping
		// 2a per quad; a quad's pixels are E, E + a, E + b, E + a + b in lane
		// order (int32 wrap-around, so equal to a·u + b·v evaluated directly).
		v := 2 * qy
		r0, r1, r2 := e[0]+b0*v, e[1]+b1*v, e[2]+b2*v
		for qx := int32(0); qx < n; qx++ {
			px, py := x+2*qx, y+2*qy
			u := 2 * qx
			c0, c1, c2 := r0+a0*u, r1+a1*u, r2+a2*u
			var mask uint8
			if c0 > th0 && c1 > th1 && c2 > th2 {
				mask |= 1
			}
			if c0+a0 > th0 && c1+a1 > th1 && c2+a2 > th2 {
				mask |= 2
			}
			if c0+b0 > th0 && c1+b1 > th1 && c2+b2 > th2 {
				mask |= 4
			}
			if c0+a0+b0 > th0 && c1+a1+b1 > th1 && c2+a2+b2 > th2 {
				mask |= 8
			}
			if mask != 0 && !inside {
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
				if err := w.plainEmit(abi.Stamp{QX: uint16(px >> 1), QY: uint16(py >> 1), Mask: mask, PID: uint16(w.pid)}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// edgeThreshold is the value an edge function must exceed for a pixel to pass
// it: −1 on a top-left edge (E ≥ 0 passes), else 0. spec: rasterizer §7.4
func edgeThreshold(topLeft bool) int32 {
	if topLeft {
		return -1
	}
	return 0
}

// plainEmit is the packer as first written: covered quads append to the fill
// buffer, which flushes on owner change, on a same-pixel collision with any
// buffered quad and when full. spec: rasterizer §8, §9.1
func (w *walker) plainEmit(q abi.Stamp) error {
	f := w.f
	w.stats.Quads++
	owner := abi.RasterOwner(int(q.QX), int(q.QY), f.cfg.BinLog, f.cfg.Cores)
	if len(w.quads) > 0 && owner != w.owner {
		if err := w.plainFlush(); err != nil {
			return err
		}
	}
	for _, b := range w.quads {
		if b.QX == q.QX && b.QY == q.QY {
			if err := w.plainFlush(); err != nil {
				return err
			}
			break
		}
	}
	w.owner = owner
	w.quads = append(w.quads, q)
	if len(w.quads) == cap(w.quads) {
		return w.plainFlush()
	}
	return nil
}

// plainFlush is flush as first written: the buffered quads launch as one wave
// on their owner core, lane s of quad q at pixel (2·QX + s&1, 2·QY + s>>1).
func (w *walker) plainFlush() error {
	if len(w.quads) == 0 {
		return nil
	}
	wv := &w.wave
	nq := len(w.quads)
	wv.Quads = nq
	wv.Engine = w.engine
	for l := range wv.Pos {
		wv.Pos[l], wv.PID[l] = 0, 0
	}
	for qi, q := range w.quads {
		for s := 0; s < 4; s++ {
			x, y := 2*uint32(q.QX)+uint32(s&1), 2*uint32(q.QY)+uint32(s>>1)
			wv.Pos[4*qi+s] = uint32(q.Mask>>s&1)<<31 | y<<16 | x
			wv.PID[4*qi+s] = uint32(q.PID)
		}
		w.stats.Fragments += int64(bits.OnesCount8(q.Mask))
	}
	w.stats.Waves++
	w.stats.Lanes += int64(4 * nq)
	w.quads = w.quads[:0]
	return w.f.launch(w.cluster*w.f.cfg.Cores+w.owner, wv)
}
