package device

import (
	"errors"
	"fmt"

	"vortexgfx/abi"
)

// Cross-wave batching. A fragment kernel pays a host cost per call (its
// executor's per-instruction dispatch, above all) that RASTER's small waves
// — a few covered lanes each on small primitives (rasterizer §8: the packer
// flushes on owner change, same-pixel collision, full and end of bin) —
// pay once per wave. A kernel whose waves cannot see one another's effects
// may therefore stage a wave instead of finishing it: it does the wave's
// head (the reads that set up its lanes) on the wave's CTA and hands the
// rest to a WaveBatch, which shades every staged wave of the raster worker
// in one host call and then finishes them one by one, in launch order, each
// on a CTA restored to that wave (its core, counters, FRAG_POS/FRAG_PID and
// arguments). Everything the model counts — memory operations, phases, the
// waves' TEX/OM traffic and its record, OM tests and writes, software
// counters, errors — happens per wave and in the same order as unstaged, so
// every output byte and counter is the same; only the host's work is
// grouped. Staging happens only on the raster workers' runners
// (graphicsKick); a wave launched any other way runs whole.

// WaveBatch is a kernel's deferred part of one or more staged fragment
// waves of one raster worker.
type WaveBatch interface {
	// Shade does the staged waves' shared host work. c is a CTA of the
	// worker's device for lookups that count nothing (CTA.TexLines); it is
	// none of the staged waves', and Shade must not record on it.
	Shade(c *CTA)
	// Finish runs the tail of staged wave index (the one Stage named) on c,
	// a CTA restored to that wave as it was when its kernel returned.
	Finish(c *CTA, index int) error
	// Done is called after the last Finish of a flush: the batch holds no
	// waves any more and may be reused.
	Done()
}

// errStage is Stage's refusal.
var errStage = errors.New("device: Stage: waves can only be staged on a raster worker's fragment wave, into the pending batch or none")

// waveBatch is one raster worker's staged waves (graphicsKick's runners).
type waveBatch struct {
	b     WaveBatch // the pending waves' batch
	last  WaveBatch // the batch the worker's last staged wave used (WorkerBatch)
	waves []stagedWave
	lanes []uint32 // the staged waves' FRAG_POS then FRAG_PID words
	fin   CTA      // the CTA each staged wave finishes on
	dev   *Device
}

// stagedWave is a staged wave's CTA state when its kernel returned, and the
// index its batch knows it by.
type stagedWave struct {
	core, slot, threads            int
	args                           uint64
	phases, barrier, memOps, invoc uint64
	lane0                          int // its words in waveBatch.lanes
	index                          int
}

// CanStage reports whether the wave running on c may be staged (c is a
// raster worker's fragment wave of a graphics frame kick).
func (c *CTA) CanStage() bool { return c.batch != nil && c.fragPos != nil }

// PendingWaves returns the batch holding the waves staged before this one
// on its raster worker and not finished yet, or nil.
func (c *CTA) PendingWaves() WaveBatch {
	if c.batch == nil || len(c.batch.waves) == 0 {
		return nil
	}
	return c.batch.b
}

// WorkerBatch returns the batch the last wave staged on c's raster worker
// used — pending, or already flushed, in this frame kick or an earlier one —
// or nil. No other worker's CTA ever returns it, so a kernel may keep its
// batch (and what that holds) there between flushes.
func (c *CTA) WorkerBatch() WaveBatch {
	if c.batch == nil {
		return nil
	}
	return c.batch.last
}

// Stage defers the rest of the running wave to b, which knows it as index:
// the device finishes it (b.Finish) after b.Shade, when the worker's staged
// waves are flushed — by FlushWaves, or at the end of the frame's walk. b
// must be the pending batch, or any batch when none is pending. Stage must
// be the wave's last use of c; a kernel that stages returns nil.
func (c *CTA) Stage(b WaveBatch, index int) error {
	wb := c.batch
	if !c.CanStage() || b == nil || (len(wb.waves) > 0 && wb.b != b) || c.staged {
		return errStage
	}
	wb.b, wb.last = b, b
	c.staged, c.stageIndex = true, index
	return nil
}

// FlushWaves finishes every wave staged on c's raster worker, in the order
// they were staged. A kernel calls it before a wave of its own that does
// not stage (or stages into another batch) touches anything an earlier
// staged wave's tail may change. It is a no-op when nothing is pending.
func (c *CTA) FlushWaves() {
	if c.batch != nil {
		c.batch.flush()
	}
}

// keep records the wave that just staged on t (its kernel returned).
func (wb *waveBatch) keep(t *CTA) {
	l0 := len(wb.lanes)
	wb.lanes = append(wb.lanes, t.fragPos...)
	wb.lanes = append(wb.lanes, t.fragPID...)
	wb.waves = append(wb.waves, stagedWave{core: t.Core, slot: t.slot, threads: t.Threads, args: t.Args,
		phases: t.phases, barrier: t.barrier, memOps: t.memOps, invoc: t.invoc, lane0: l0, index: t.stageIndex})
}

// flush shades and finishes the staged waves, accounting each as launch
// accounts a wave it ran whole (finishWave).
func (wb *waveBatch) flush() {
	if len(wb.waves) == 0 {
		return
	}
	b, d := wb.b, wb.dev
	fr := d.gfx.frame.Load()
	f := &wb.fin
	f.err = nil
	b.Shade(f)
	for i := range wb.waves {
		w := &wb.waves[i]
		cc := &fr.cores[w.slot]
		if cc.fragErr != nil {
			continue // an earlier wave of this core's share failed: dropped, as unstaged
		}
		f.Core, f.slot, f.Threads, f.err = w.core, w.slot, w.threads, nil
		f.phases, f.barrier, f.memOps, f.invoc = w.phases, w.barrier, w.memOps, w.invoc
		f.isaRun, f.isaCycles, f.isaInstr, f.isaThreadInstr = false, 0, 0, 0
		f.LMem = f.LMem[:0]
		f.BlockIdx = [3]uint32{}
		f.BlockDim, f.GridDim, f.ClusterDim = [3]uint32{uint32(w.threads), 1, 1}, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}
		f.Args = w.args
		f.fragPos = wb.lanes[w.lane0 : w.lane0+w.threads : w.lane0+w.threads]
		f.fragPID = wb.lanes[w.lane0+w.threads : w.lane0+2*w.threads : w.lane0+2*w.threads]
		err := finishKernel(b, f, w.index)
		d.finishWave(fr, f, err)
		f.fragPos, f.fragPID = nil, nil
	}
	wb.waves, wb.lanes, wb.b = wb.waves[:0], wb.lanes[:0], nil
	b.Done()
}

// finishKernel runs b.Finish on t as runKernel runs a kernel: a panic is an
// error, and a fault recorded on t wins over the returned error.
func finishKernel(b WaveBatch, t *CTA, index int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("kernel panicked: %v", p)
		}
	}()
	kerr := b.Finish(t, index)
	if t.err != nil {
		return t.err
	}
	return kerr
}

// finishWave accounts a fragment wave that has run to its end on t (whole,
// or staged and finished): the core's WAVES counter, its cycles and
// counters, and its error, which drops the rest of that core's share.
func (d *Device) finishWave(fr *gfxFrame, t *CTA, err error) {
	cc := &fr.cores[t.slot]
	d.perf[t.Core].add(abi.MPMCore, perfWaves, 1)
	cc.fragCycles += ctaCost(t, &d.perf[t.Core], &cc.fragStats, CostWave)
	if err != nil {
		cc.fragErr = fmt.Errorf("fragment wave on core %d: %w", t.Core, err)
	}
}
