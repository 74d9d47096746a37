package shaderdev

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/gfx/frontend"
)

// primmap_k's argument block (prim_k's launch with primFlagMap): one pass's
// setup_k keep counts and pid offsets, its triangle count, prim_k's records
// of the pass's first triangle and the pass's per-pid coverage records.
const (
	mapArgKeep = iota
	mapArgOffsets
	mapArgCount
	mapArgExact
	mapArgFlags // = primArgFlags: primFlagMap
	mapArgOut
	mapArgSlots
)

// primFlagMap selects prim_k's second stage (slot mapArgFlags, which is
// primArgFlags).
const primFlagMap = 1 << 8

// primMap is prim_k's second stage, launched after setup_k's EMIT: one
// thread per triangle of the pass, it moves the triangle's exact line
// corners to the pid setup_k gave it (the software raster indexes by pid),
// before binning_k reuses the offsets. A triangle setup_k split (a corner
// rounded past the near plane or the guard band) gives each piece a record
// without LineCoverExact, which the walk tests with its Q15.16 edges: one
// exact triangle per pid keeps every pixel covered once. spec: vortexpipe
// §3.2 (setup_k's SCAN/EMIT compaction), §3.4.1
func (sp *Program) primMap(c *device.CTA) error {
	keep, offs, n, exact, out := c.Arg(mapArgKeep), c.Arg(mapArgOffsets), c.Arg(mapArgCount), c.Arg(mapArgExact), c.Arg(mapArgOut)
	if err := c.Err(); err != nil {
		return err
	}
	if n > abi.MaxPrimsPerPass {
		return fmt.Errorf("%s: line coverage map of %d triangles", sp.primName(), n)
	}
	var rec [abi.LineCoverBytes / 4]uint32
	var none [abi.LineCoverBytes / 4]uint32
	keepS, offS := c.Span(keep), c.Span(offs)
	frontend.GridStride(c, n, func(i uint64) {
		k, off := uint64(keepS.ReadU32(4*i)), uint64(offS.ReadU32(4*i))
		if k == 1 {
			c.ReadWords(exact+i*abi.LineCoverBytes, rec[:])
			c.WriteWords(out+off*abi.LineCoverBytes, rec[:])
			return
		}
		for s := uint64(0); s < k; s++ {
			c.WriteWords(out+(off+s)*abi.LineCoverBytes, none[:])
		}
	})
	return c.Err()
}

// lineCover is one pid's exact line coverage in the software raster walk:
// ref's three edge functions over the 1/256-pixel corners, with their
// top-left thresholds.
type lineCover struct {
	a, b, c, t [3]int64
}

// load reads pid's record at table; it reports whether the pid is exact.
func (lc *lineCover) load(c *device.CTA, table uint64, pid uint32) bool {
	var r [abi.LineCoverBytes / 4]uint32
	c.ReadWords(table+uint64(pid)*abi.LineCoverBytes, r[:])
	if r[0]&abi.LineCoverExact == 0 {
		return false
	}
	var x, y [3]int64
	for k := range 3 {
		x[k], y[k] = int64(int32(r[1+2*k])), int64(int32(r[2+2*k]))
	}
	for e := range 3 {
		p, q := (e+1)%3, (e+2)%3 // edge e is opposite corner e
		lc.a[e], lc.b[e] = y[p]-y[q], x[q]-x[p]
		lc.c[e] = -(lc.a[e]*x[p] + lc.b[e]*y[p])
		lc.t[e] = 1
		if lc.a[e] > 0 || (lc.a[e] == 0 && lc.b[e] > 0) {
			lc.t[e] = 0
		}
	}
	return true
}

// covers reports whether pixel (x, y)'s centre is inside: every edge
// function at (x + ½, y + ½) in 1/256 pixel at least its threshold.
func (lc *lineCover) covers(x, y int32) bool {
	sx, sy := int64(x)*abi.LineCoverSubPixel+abi.LineCoverSubPixel/2, int64(y)*abi.LineCoverSubPixel+abi.LineCoverSubPixel/2
	for e := range 3 {
		if lc.a[e]*sx+lc.b[e]*sy+lc.c[e] < lc.t[e] {
			return false
		}
	}
	return true
}

// quadSpan narrows the walk of the quad row at rows y, y+1 to the quads
// that can hold a covered centre: within [x0, x1) (x0 even), the union of
// the two rows' pixel ranges each edge allows, widened by a pixel either
// side and aligned to the quad grid. It only skips quads covers would
// reject; covers still decides every pixel.
func (lc *lineCover) quadSpan(y, x0, x1 int32) (int32, int32) {
	const sp = abi.LineCoverSubPixel
	lo, hi := int64(x1), int64(x0)
	for r := int64(y); r < int64(y)+2; r++ {
		sy := r*sp + sp/2
		a, b := int64(x0), int64(x1)-1 // the row's candidate pixels
		for e := range 3 {
			// a_e·sx ≥ t_e − b_e·sy − c_e, sx = x·sp + sp/2.
			k := lc.t[e] - lc.b[e]*sy - lc.c[e]
			switch {
			case lc.a[e] > 0:
				a = max(a, floorDiv(k-lc.a[e]*(sp/2), lc.a[e]*sp))
			case lc.a[e] < 0:
				b = min(b, floorDiv(lc.a[e]*(sp/2)-k, -lc.a[e]*sp)+1)
			case k > 0:
				a, b = 1, 0 // a horizontal edge the row lies outside
			}
		}
		if a <= b {
			lo, hi = min(lo, a-1), max(hi, b+2)
		}
	}
	lo, hi = max(lo, int64(x0)), min(hi, int64(x1))
	if lo >= hi {
		return x0, x0
	}
	return int32(lo) &^ 1, int32(hi)
}

// floorDiv is ⌊n/d⌋ for d > 0.
func floorDiv(n, d int64) int64 {
	q := n / d
	if n%d != 0 && n < 0 {
		q--
	}
	return q
}
