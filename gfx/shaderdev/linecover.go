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
