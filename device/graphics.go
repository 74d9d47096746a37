package device

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/device/tex"
)

// ViewMemory is physical device memory the fixed-function units view directly
// (package mem's *Device satisfies it): RASTER, TEX and OM bypass the MMU.
// spec: vortex-hardware-facts §9 item 12
type ViewMemory interface {
	View(addr uint64, n int) ([]byte, error)
}

// GraphicsStats are the counters of one frame kick: the RASTER engine's and what
// the fragment waves did through TEX and OM.
type GraphicsStats struct {
	Raster   raster.Stats
	TexReads uint64   // vx_tex requests (one per lane that sampled)
	OMReads  uint64   // vx_om_export fragments that reached the OM
	OMWrites uint64   // fragments that passed the OM tests and were written
	Tex      tex.Perf // TEX counters summed over the cores (tex.CostModel)
	OM       om.Perf  // OM counters summed over the cores (om.CostModel)
	Cycles   uint64   // the frame's cost (see graphicsKick)
}

// graphicsState is the device's graphics wiring: the memory the units view and
// the frame in progress (nil between frames).
type graphicsState struct {
	frame   atomic.Pointer[gfxFrame]
	mu      sync.Mutex
	last    GraphicsStats
	totals  GraphicsTotals
	cores   []gfxCoreCounters // reused across frames (recorder buffers)
	runners []CTA             // one per raster worker: the CTA its waves run in
	batches []waveBatch       // one per raster worker: its staged waves (graphics_batch.go)
	// replayRefs is each core's segment list for replay, kept across frames.
	replayRefs [][]segRef
	tex        tex.CostModel // resolved TEX cost model
	om         om.CostModel  // resolved OM cost model
}

// gfxFrame is one frame kick's bound units, read-only while waves run, plus
// per-core counters (one set per raster worker and core), each written only by the
// goroutine of that worker.
type gfxFrame struct {
	aper      abi.Aperture // APERTURE_XBITS/YBITS/RECORD_SHIFT
	depthOnly bool         // APERTURE_DEPTH_ONLY
	om        [abi.OMMaxRT]*om.Unit
	omErr     [abi.OMMaxRT]error
	tex       [abi.TexNumStages]*tex.Sampler
	texErr    [abi.TexNumStages]error
	cores     []gfxCoreCounters // worker × cores + core (see graphicsKick)
	binLog    uint              // RASTER bin size: the replay order of the TEX/OM models
	texLine   uint              // log2 tcache line bytes
	omLine    uint              // log2 ocache line bytes
}

// gfxCoreCounters are the live counters of one core's fragment waves run by
// one raster worker, and their record of TEX/OM traffic for the cost models;
// only that worker's goroutine writes them.
type gfxCoreCounters struct {
	texReads, omReads, omWrites uint64
	rec                         perfRecorder
	taps                        tex.Taps
	acc                         om.Access
	fragStats                   LaunchStats
	fragCycles                  uint64
	fragErr                     error
	_                           [40]byte // keep cores off one cache line
}

// RasterConfig is the RASTER engine shape the device's configuration describes:
// engines = clusters × engines per cluster, slices, bin and block sizes, early-Z,
// host workers, the warp width (OUTPUT_QUADS) and the cores owner affinity spreads
// over. spec: rasterizer §6.2, §9.1, §12
func (d *Device) RasterConfig() raster.Config {
	r := d.cfg.Raster
	// config.Validate admits only the two names; "" (a Config built without
	// Default) is the top-left default.
	fill, _ := raster.ParseFillRule(r.FillRule)
	return raster.Config{
		Engines: d.cfg.RasterEngines(), Clusters: d.cfg.Device.Clusters, Slices: r.Slices, Threads: d.threads,
		Cores:  d.ncores / max(1, d.cfg.Device.Clusters),
		BinLog: r.BinLogSize, BlockLog: r.BlockLogSize, EarlyZ: r.EarlyZ, Fill: fill, Workers: r.Workers,
	}
}

// EnableGraphics installs the RASTER frame kick over mem (the physical memory the
// fixed-function units view): a grid-less launch then walks the RASTER buffers the
// DCRs name and launches every fragment wave on its owner core, running the kernel
// at FRAG_ENTRY (resolved through the module image at the snooped STARTUP_ADDR)
// with FRAG_PARAM as its arguments; TEX and OM are reached through CTA.Tex and
// CTA.OMExport with the latched DCR state. cfg overrides RasterConfig when non-nil.
// The simulator runs a wave on the host goroutine of the raster worker that
// emitted it, counted as the owner core's (CTA.Core, its counters, its TEX/OM
// record): one bin's waves keep their order, and bins of one owner core shade
// in parallel on the host without changing any result.
// spec: rasterizer §5, §9; vortexpipe §3.3
func (d *Device) EnableGraphics(mem ViewMemory, cfg *raster.Config) {
	rc := d.RasterConfig()
	if cfg != nil {
		rc = *cfg
	}
	d.SetFrameKick(func(ctx context.Context, d *Device, k FrameKick) (uint64, error) {
		return d.graphicsKick(ctx, mem, rc)
	})
}

// SetGraphicsCost sets the TEX and OM performance-counter models (zero fields
// take the defaults tex.CostModel and om.CostModel document); they apply from
// the next frame kick. spec: vortex-hardware-facts §7
func (d *Device) SetGraphicsCost(t tex.CostModel, o om.CostModel) error {
	if _, err := t.Resolve(); err != nil {
		return err
	}
	if _, err := o.Resolve(); err != nil {
		return err
	}
	d.gfx.mu.Lock()
	d.gfx.tex, d.gfx.om = t, o
	d.gfx.mu.Unlock()
	return nil
}

// GraphicsTotals are the frame-kick counters summed over every kick since the
// device started: a caller that submits several kicks (a draw streamed in
// passes) takes the difference of two readings for the whole of them.
type GraphicsTotals struct {
	Kicks, Cycles                                  uint64
	Bins, Pairs, Quads, Waves, Lanes, EarlyZCulled int64
	// Instructions and ThreadInstructions are the warp- and lane-instructions
	// the fragment waves' machine code retired (0 for Go wrappers).
	Instructions, ThreadInstructions uint64
}

// Sub returns t − u.
func (t GraphicsTotals) Sub(u GraphicsTotals) GraphicsTotals {
	return GraphicsTotals{Kicks: t.Kicks - u.Kicks, Cycles: t.Cycles - u.Cycles, Bins: t.Bins - u.Bins, Pairs: t.Pairs - u.Pairs,
		Quads: t.Quads - u.Quads, Waves: t.Waves - u.Waves, Lanes: t.Lanes - u.Lanes, EarlyZCulled: t.EarlyZCulled - u.EarlyZCulled,
		Instructions: t.Instructions - u.Instructions, ThreadInstructions: t.ThreadInstructions - u.ThreadInstructions}
}

// GraphicsTotals returns the counters summed over every frame kick so far.
func (d *Device) GraphicsTotals() GraphicsTotals {
	d.gfx.mu.Lock()
	defer d.gfx.mu.Unlock()
	return d.gfx.totals
}

// LastGraphics returns the counters of the most recent frame kick.
func (d *Device) LastGraphics() GraphicsStats {
	d.gfx.mu.Lock()
	defer d.gfx.mu.Unlock()
	return d.gfx.last
}

// graphicsKick runs one frame. Its cycle cost is the larger of the engines' walk
// (fetch requests plus emitted quads, spread over the engines) and the busiest
// core's fragment cycles: the walk and the shading overlap.
func (d *Device) graphicsKick(ctx context.Context, mem ViewMemory, rc raster.Config) (uint64, error) {
	st := d.State()
	rs := st.Raster.State
	if rs.FragEntry() == 0 {
		return 0, nil // nothing armed (facts §9 item 7)
	}
	kern, err := d.ResolveKernel(rs.StartupPC(), rs.FragEntry())
	if err != nil {
		return 0, fmt.Errorf("raster: FRAG_ENTRY: %w", err)
	}
	_, w := abi.UnpackScissor(rs.ScissorX)
	_, h := abi.UnpackScissor(rs.ScissorY)
	d.gfx.mu.Lock()
	tc, oc := d.gfx.tex, d.gfx.om
	d.gfx.mu.Unlock()
	tm, err := tc.Resolve()
	if err != nil {
		return 0, err
	}
	omm, err := oc.Resolve()
	if err != nil {
		return 0, err
	}
	binLog := rc.BinLog
	if binLog == 0 {
		binLog = abi.DefaultBinLogSize
	}
	workers := rc.Workers
	if workers <= 0 {
		workers = goruntime.GOMAXPROCS(0) // raster.Config's default
		rc.Workers = workers              // fixed for raster.Run and the slots alike
	}
	if len(d.gfx.cores) != workers*d.ncores {
		d.gfx.cores = make([]gfxCoreCounters, workers*d.ncores)
	}
	for i := range d.gfx.cores {
		c := &d.gfx.cores[i]
		c.texReads, c.omReads, c.omWrites = 0, 0, 0
		c.fragStats, c.fragCycles, c.fragErr = LaunchStats{}, 0, nil
		c.rec.reset()
	}
	fr := &gfxFrame{cores: d.gfx.cores, depthOnly: st.OM.ApertureDepth&1 != 0,
		aper:    abi.Aperture{XBits: uint8(st.OM.ApertureXBits), YBits: uint8(st.OM.ApertureYBits), RecordShift: uint8(st.OM.ApertureShift)},
		binLog:  uint(binLog),
		texLine: lineShift(tm.LineBytes), omLine: lineShift(omm.LineBytes)}
	for rt := range fr.om {
		if w > 0 && h > 0 {
			fr.om[rt], fr.omErr[rt] = om.Bind(mem, &st.OM.State, rt, w, h)
		} else {
			fr.omErr[rt] = fmt.Errorf("om: empty scissor %dx%d", w, h)
		}
	}
	for s := range fr.tex {
		if st.Tex.Stages[s].Addr != 0 {
			fr.tex[s], fr.texErr[s] = tex.Bind(mem, st.Tex.Stages[s])
		} else {
			fr.texErr[s] = fmt.Errorf("tex: stage %d has no texture bound", s)
		}
	}
	d.gfx.frame.Store(fr)
	defer d.gfx.frame.Store(nil)

	// Each raster worker runs the waves it launches on its own goroutine, as
	// the owner core would (the core's counters, its TEX/OM record): a bin's
	// waves come from one worker in order, so every pixel still sees its
	// fragments in order, and per-worker records merge per core by bin.
	runners := d.gfx.runners[:0]
	for range workers {
		runners = append(runners, CTA{WarpWidth: d.threads, dev: d})
	}
	d.gfx.runners = runners
	if len(d.gfx.batches) != workers {
		d.gfx.batches = make([]waveBatch, workers)
	}
	for i := range runners {
		runners[i].setMemory(d.mem)
		wb := &d.gfx.batches[i]
		wb.dev, wb.fin.WarpWidth, wb.fin.dev = d, d.threads, d
		wb.fin.setMemory(d.mem)
		wb.waves, wb.lanes, wb.b = wb.waves[:0], wb.lanes[:0], nil
		runners[i].batch = wb
	}
	launch := func(core int, wv *raster.Wave) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		lanes := abi.QuadLanes * wv.Quads
		switch {
		case core < 0 || core >= d.ncores:
			return fmt.Errorf("device: fragment wave for core %d (device has %d)", core, d.ncores)
		case lanes < 1 || lanes > d.threads || lanes > len(wv.Pos) || lanes > len(wv.PID):
			return fmt.Errorf("device: fragment wave of %d lanes (warp width %d)", lanes, d.threads)
		case wv.Worker < 0 || wv.Worker >= workers:
			return fmt.Errorf("device: fragment wave from raster worker %d of %d", wv.Worker, workers)
		}
		slot := wv.Worker*d.ncores + core
		cc := &fr.cores[slot]
		if cc.fragErr != nil {
			return nil // this core's share already failed; drop the rest in order
		}
		t := &runners[wv.Worker]
		t.Core, t.slot = core, slot
		t.Threads, t.err = lanes, nil
		t.phases, t.barrier, t.memOps, t.invoc = 0, 0, 0, 0
		t.isaRun, t.isaCycles, t.isaInstr, t.isaThreadInstr = false, 0, 0, 0
		t.LMem = t.LMem[:0]
		t.BlockIdx = [3]uint32{}
		t.BlockDim, t.GridDim, t.ClusterDim = [3]uint32{uint32(lanes), 1, 1}, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}
		t.Args = wv.Param
		t.fragPos, t.fragPID = wv.Pos[:lanes], wv.PID[:lanes]
		t.staged = false
		err := runKernel(kern, t)
		switch {
		case t.staged && err == nil:
			t.batch.keep(t) // finished when the worker's staged waves flush (graphics_batch.go)
		case cc.fragErr == nil:
			// A wave that ran whole comes after every wave staged before
			// it (its kernel flushed them before its own work).
			t.batch.flush()
			if cc.fragErr == nil {
				d.finishWave(fr, t, err)
			}
		}
		t.staged = false
		t.fragPos, t.fragPID = nil, nil
		return nil
	}
	view := mem
	if rc.EarlyZ && rs.EarlyZSafe&1 != 0 {
		if view, err = depthSnapshot(mem, &rs); err != nil {
			return 0, err
		}
	}
	rst, rerr := raster.Run(view, &rs, rc, launch) // its return is the launch barrier
	for i := range runners {
		// Each worker's last staged waves (their bins are the worker's own,
		// so no other worker's fragment lands on their pixels).
		runners[i].batch.flush()
		runners[i].batch = nil
	}
	fcyc, fst, ferr := d.foldFragments(fr, workers)
	gs := GraphicsStats{Raster: rst}
	for i := range fr.cores {
		c := &fr.cores[i]
		gs.TexReads += c.texReads
		gs.OMReads += c.omReads
		gs.OMWrites += c.omWrites
	}
	d.publishGraphicsPerf(fr, &rst, rc, tm, omm, &gs)
	walk := uint64(rst.Reads+rst.Quads) / uint64(max(1, rc.Engines))
	gs.Cycles = max(walk, fcyc)
	d.gfx.mu.Lock()
	d.gfx.last = gs
	t := &d.gfx.totals
	t.Kicks++
	t.Cycles += gs.Cycles
	t.Bins, t.Pairs, t.Quads = t.Bins+rst.Bins, t.Pairs+rst.Pairs, t.Quads+rst.Quads
	t.Waves, t.Lanes, t.EarlyZCulled = t.Waves+rst.Waves, t.Lanes+rst.Lanes, t.EarlyZCulled+rst.EarlyZCulled
	t.Instructions, t.ThreadInstructions = t.Instructions+fst.Instructions, t.ThreadInstructions+fst.ThreadInstructions
	d.gfx.mu.Unlock()
	if rerr != nil {
		return gs.Cycles, rerr
	}
	return gs.Cycles, ferr
}

// foldFragments sums the frame's fragment waves per core over the raster
// workers, as WaitFragments does for waves run on the cores: the busiest
// core's cycles, the waves' counters (joining the frame kick's LaunchStats) and
// the first error, lowest core first.
func (d *Device) foldFragments(fr *gfxFrame, workers int) (cycles uint64, stats LaunchStats, err error) {
	for k := 0; k < d.ncores; k++ {
		var cyc uint64
		for w := 0; w < workers; w++ {
			c := &fr.cores[w*d.ncores+k]
			cyc += c.fragCycles
			stats.add(c.fragStats)
			if err == nil {
				err = c.fragErr
			}
		}
		cycles = max(cycles, cyc)
	}
	stats.Cycles = 0
	d.statsMu.Lock()
	d.frame.add(stats)
	d.statsMu.Unlock()
	return cycles, stats, err
}

// snapshotMemory is device memory with the depth buffer replaced by a copy taken
// at the frame kick.
type snapshotMemory struct {
	ViewMemory
	base uint64
	snap []byte
}

// View returns the snapshot for a range inside it, device memory otherwise.
func (m *snapshotMemory) View(addr uint64, n int) ([]byte, error) {
	if n >= 0 && addr >= m.base && addr-m.base+uint64(n) <= uint64(len(m.snap)) {
		off := addr - m.base
		return m.snap[off : off+uint64(n) : off+uint64(n)], nil
	}
	return m.ViewMemory.View(addr, n)
}

// depthSnapshot gives early-Z the depth committed before the kick. Early-Z may
// cull only against depth the OM has committed (rasterizer §7.5); how much of
// the frame's own depth it sees depends on how far the cores lag the walk, so
// the model fixes that lag at "all of it": the walk reads the depth buffer as
// it was at the kick. Culls stay strictly-behind-correct, the counters do not
// depend on scheduling, and the walkers never read words the cores write.
func depthSnapshot(mem ViewMemory, rs *raster.State) (ViewMemory, error) {
	_, xmax := abi.UnpackScissor(rs.ScissorX)
	_, ymax := abi.UnpackScissor(rs.ScissorY)
	if xmax <= 0 || ymax <= 0 || int(rs.ZBufPitch) < 4*xmax {
		return mem, nil // raster.Run reports the bad state
	}
	base := abi.ByteAddr(rs.ZBufAddr)
	n := int(rs.ZBufPitch)*(ymax-1) + 4*xmax
	v, err := mem.View(base, n)
	if err != nil {
		return nil, fmt.Errorf("raster: early-Z depth view at 0x%x (+%d): %w", base, n, err)
	}
	return &snapshotMemory{ViewMemory: mem, base: base, snap: append([]byte(nil), v...)}, nil
}
