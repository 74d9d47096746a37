package raster

import (
	"encoding/binary"
	"math/bits"

	"vortexgfx/abi"
)

// occluded is the strictly-behind early-Z test against committed depth.
func (w *walker) occluded(x, y int32) bool {
	f := w.f
	off := int(y)*f.zpitch + 4*int(x)
	stored := binary.LittleEndian.Uint32(f.zbuf[off:]) & abi.DepthMask
	cand := PlaneDepth(w.za, w.zb, w.zc, x, y)
	switch f.zfunc {
	case abi.CmpLess, abi.CmpLEqual:
		return cand > stored
	case abi.CmpGreater, abi.CmpGEqual:
		return cand < stored
	}
	return false
}

// emit is the packer: the covered quad (qx, qy) of the current primitive
// appends to the fill buffer, which flushes on owner change, same-pixel
// collision and when full. The owner is the walk's (walker.setup), and a
// collision can only be with a quad buffered before the walk, since a walk
// emits each quad once. spec: rasterizer §8, §9.1
func (w *walker) emit(qx, qy uint16, mask uint8) error {
	w.stats.Quads++
	owner := w.ownVal
	if len(w.quads) > 0 && owner != w.owner {
		if err := w.flush(); err != nil {
			return err
		}
	}
	for _, b := range w.quads[:w.prior] {
		if b.QX == qx && b.QY == qy {
			if err := w.flush(); err != nil {
				return err
			}
			break
		}
	}
	w.owner = owner
	// The quad's lanes go straight into the wave: lane s is pixel
	// (2·qx + s&1, 2·qy + s>>1), FRAG_POS {covered[31], y[30:16], x[15:0]}
	// with the y and x of the quad's first pixel OR'd in as the hardware
	// packs them. The fill buffer keeps the stamp for collision checks.
	qi := len(w.quads)
	wv := &w.wave
	p := uint32(qy)<<17 | uint32(qx)<<1
	m := uint32(mask)
	pos := wv.Pos[4*qi : 4*qi+4 : 4*qi+4]
	pos[0] = p | m<<31
	pos[1] = p | 1 | m>>1<<31
	pos[2] = p | 1<<16 | m>>2<<31
	pos[3] = p | 1<<16 | 1 | m>>3<<31
	pid := uint32(w.stampPID)
	lanes := wv.PID[4*qi : 4*qi+4 : 4*qi+4]
	lanes[0], lanes[1], lanes[2], lanes[3] = pid, pid, pid, pid
	w.stats.Fragments += int64(bits.OnesCount8(mask))
	w.quads = append(w.quads, abi.Stamp{QX: qx, QY: qy, Mask: mask, PID: w.stampPID})
	if len(w.quads) == cap(w.quads) {
		return w.flush()
	}
	return nil
}

// flush launches the buffered quads, whose lanes emit has written, as one
// wave on their owner core; the lanes past them are inactive (zero).
func (w *walker) flush() error {
	if len(w.quads) == 0 {
		return nil
	}
	wv := &w.wave
	nq := len(w.quads)
	wv.Quads = nq
	wv.Engine = w.engine
	clear(wv.Pos[4*nq:])
	clear(wv.PID[4*nq:])
	w.stats.Waves++
	w.stats.Lanes += int64(4 * len(w.quads))
	w.quads = w.quads[:0]
	w.prior = 0
	return w.f.launch(w.cluster*w.f.cfg.Cores+w.owner, wv)
}
