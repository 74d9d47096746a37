package gfx

import (
	"encoding/binary"
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/cp"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
	"vortexgfx/trace"
)

// DeviceReplay replays a trace through the whole device model: the runtime, the
// command processor, the front-end kernels on the SIMT cores, RASTER, the
// draw3d fragment kernel, TEX and OM. spec: vortexpipe §3.2–§3.4; rasterizer §3, §5
type DeviceReplay struct {
	Width, Height int
	// Planes is the attribute-plane convention of the Vortex generation whose
	// goldens are matched (PlanesGrx or PlanesV1); it is an explicit choice,
	// never inferred from the trace.
	Planes Planes
	// Config is the device, CP (flavour) and raster configuration.
	Config config.Config
	// HostBinning runs draw3d's own host flow (host Binning oracle, tile and
	// primitive buffers uploaded) instead of the device front end.
	HostBinning bool
}

// PerfCounters are the unit counters of vortex-hardware-facts §7 — every
// RASTER, TEX and OM counter — read as the host reads them (runtime PerfCounter:
// a CP DCR_READ of MPM_VALUE per core, low and high word), summed over the
// cores. The device models behind them are raster.CostModel, tex.CostModel and
// om.CostModel. spec: vortex-hardware-facts §7
type PerfCounters struct {
	RasterReads       uint64 `json:"raster_reads"`
	RasterLat         uint64 `json:"raster_lat"`
	RasterStalls      uint64 `json:"raster_st"`
	RasterCacheReads  uint64 `json:"raster_rcache_reads"`
	RasterCacheMissR  uint64 `json:"raster_rcache_miss_r"`
	RasterCacheBankSt uint64 `json:"raster_rcache_bank_st"`
	RasterCacheMSHRSt uint64 `json:"raster_rcache_mshr_st"`
	TexReads          uint64 `json:"tex_reads"`
	TexLat            uint64 `json:"tex_lat"`
	TexStalls         uint64 `json:"tex_st"`
	TexCacheReads     uint64 `json:"tex_tcache_reads"`
	TexCacheMissR     uint64 `json:"tex_tcache_miss_r"`
	TexCacheBankSt    uint64 `json:"tex_tcache_bank_st"`
	TexCacheMSHRSt    uint64 `json:"tex_tcache_mshr_st"`
	OMReads           uint64 `json:"om_reads"`
	OMWrites          uint64 `json:"om_writes"`
	OMLat             uint64 `json:"om_lat"`
	OMStalls          uint64 `json:"om_st"`
	OMCacheReads      uint64 `json:"om_ocache_reads"`
	OMCacheWrites     uint64 `json:"om_ocache_writes"`
	OMCacheMissR      uint64 `json:"om_ocache_miss_r"`
	OMCacheMissW      uint64 `json:"om_ocache_miss_w"`
	OMCacheBankSt     uint64 `json:"om_ocache_bank_st"`
	OMCacheMSHRSt     uint64 `json:"om_ocache_mshr_st"`
}

// perfField is one counter of PerfCounters with its MPM class and CSR.
type perfField struct {
	class abi.MPMClass
	csr   int
	v     *uint64
}

// fields lists p's counters with their MPM class and CSR (facts §7).
func (p *PerfCounters) fields() [24]perfField {
	r, t, o := abi.MPMRaster, abi.MPMTex, abi.MPMOM
	return [24]perfField{
		{r, abi.CSRRasterReads, &p.RasterReads}, {r, abi.CSRRasterLat, &p.RasterLat}, {r, abi.CSRRasterStalls, &p.RasterStalls},
		{r, abi.CSRRasterCacheReads, &p.RasterCacheReads}, {r, abi.CSRRasterCacheMissR, &p.RasterCacheMissR},
		{r, abi.CSRRasterCacheBankSt, &p.RasterCacheBankSt}, {r, abi.CSRRasterCacheMSHRSt, &p.RasterCacheMSHRSt},
		{t, abi.CSRTexReads, &p.TexReads}, {t, abi.CSRTexLat, &p.TexLat}, {t, abi.CSRTexStalls, &p.TexStalls},
		{t, abi.CSRTexCacheReads, &p.TexCacheReads}, {t, abi.CSRTexCacheMissR, &p.TexCacheMissR},
		{t, abi.CSRTexCacheBankSt, &p.TexCacheBankSt}, {t, abi.CSRTexCacheMSHRSt, &p.TexCacheMSHRSt},
		{o, abi.CSROMReads, &p.OMReads}, {o, abi.CSROMWrites, &p.OMWrites}, {o, abi.CSROMLat, &p.OMLat},
		{o, abi.CSROMStalls, &p.OMStalls}, {o, abi.CSROMCacheReads, &p.OMCacheReads}, {o, abi.CSROMCacheWrites, &p.OMCacheWrites},
		{o, abi.CSROMCacheMissR, &p.OMCacheMissR}, {o, abi.CSROMCacheMissW, &p.OMCacheMissW},
		{o, abi.CSROMCacheBankSt, &p.OMCacheBankSt}, {o, abi.CSROMCacheMSHRSt, &p.OMCacheMSHRSt},
	}
}

func (p PerfCounters) sub(o PerfCounters) PerfCounters {
	pf, of := p.fields(), o.fields()
	for i := range pf {
		*pf[i].v -= *of[i].v
	}
	return p
}

// DeviceDrawStats are one draw call's counters through the device.
type DeviceDrawStats struct {
	Vertices     int           `json:"vertices"`
	Primitives   int           `json:"primitives"` // after clip/cull
	FrontEnd     FrontEndStats `json:"front_end"`  // device front end only
	BinsTouched  int64         `json:"bins_touched"`
	Pairs        int64         `json:"pairs"` // (bin, prim) pairs walked
	Quads        int64         `json:"quads"`
	Waves        int64         `json:"waves"`
	Occupancy    float64       `json:"occupancy"` // active lanes / (waves × warp width)
	EarlyZCulled int64         `json:"early_z_culled"`
	Shaded       int64         `json:"fragments_shaded"`
	Written      int64         `json:"fragments_written"`
	Perf         PerfCounters  `json:"perf"`
	Commands     uint64        `json:"cp_commands"`      // ring commands the runtime wrote
	CmdDraw      uint64        `json:"cp_cmd_draw"`      // CMD_DRAW retired
	CmdLaunch    uint64        `json:"cp_cmd_launch"`    // CMD_LAUNCH / LAUNCH_QMD retired (outside draw bundles)
	CmdDCRWrite  uint64        `json:"cp_cmd_dcr_write"` // ring DCR_WRITEs retired
	Doorbells    uint64        `json:"cp_doorbells"`
	Lines        uint64        `json:"cp_lines"`
	CPCycles     uint64        `json:"cp_cycles"` // first tail commit to last retire
	KickCycles   uint64        `json:"kick_cycles"`
	// Route says which units ran in software and why; the SW counters are
	// the software merger's samples merged and passed and the software tile
	// walk's quads and waves. spec: vortexpipe §2.3.3
	Route    DrawRoute `json:"route"`
	SWMerged int64     `json:"sw_samples_merged"`
	SWPassed int64     `json:"sw_samples_passed"`
	SWQuads  int64     `json:"sw_quads"`
	SWWaves  int64     `json:"sw_waves"`
}

// deviceSession is an open simulator with the draw3d modules loaded.
type deviceSession struct {
	s       *sim.Sim
	dev     *runtime.Device
	q       *runtime.Queue
	setup   *runtime.Kernel
	binning *runtime.Kernel
	frag    *runtime.Kernel
	resolve *runtime.Kernel
	threads uint32
	block   uint32
	grid    uint32

	mu   sync.Mutex // guards the retired-command tally (written on the CP goroutine)
	ops  map[abi.Opcode]uint64
	span [2]uint64 // first Queued, last End of the commands since the last take
}

func (ds *deviceSession) traced(ev cp.TraceEvent) {
	ds.mu.Lock()
	ds.ops[ev.Cmd.Op]++
	if ds.span[0] == 0 || ev.Queued < ds.span[0] {
		ds.span[0] = ev.Queued
	}
	ds.span[1] = max(ds.span[1], ev.End)
	ds.mu.Unlock()
}

// take returns and resets the tally: retired commands by opcode and the CP
// cycles from the first command's tail commit to the last one's retire.
func (ds *deviceSession) take() (map[abi.Opcode]uint64, uint64) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ops, cyc := ds.ops, ds.span[1]-ds.span[0]
	ds.ops, ds.span = make(map[abi.Opcode]uint64), [2]uint64{}
	return ops, cyc
}

func openDevice(cfg config.Config) (*deviceSession, error) { return openDeviceWith(cfg, nil) }

// openDeviceWith opens the device with the draw3d kernels and whatever extra
// registers in the library (a compiled program's stages).
func openDeviceWith(cfg config.Config, extra func(*device.Library) error) (*deviceSession, error) {
	lib := device.NewLibrary()
	if err := RegisterKernels(lib); err != nil {
		return nil, err
	}
	if extra != nil {
		if err := extra(lib); err != nil {
			return nil, err
		}
	}
	ds := &deviceSession{threads: uint32(cfg.Device.Threads), ops: make(map[abi.Opcode]uint64)}
	s, err := sim.Open(cfg, lib, sim.Options{Trace: ds.traced})
	if err != nil {
		return nil, err
	}
	s.GPU.EnableGraphics(s.Mem, nil)
	dev, err := runtime.Open(s)
	if err != nil {
		s.Close()
		return nil, err
	}
	ds.s, ds.dev, ds.q = s, dev, dev.DefaultQueue()
	ds.block = uint32(cfg.Device.Threads * cfg.Device.Warps)
	ds.grid = uint32(cfg.Device.NumCores())
	fe, err := FrontEndImage()
	if err != nil {
		ds.close()
		return nil, err
	}
	fs, err := FragImage()
	if err != nil {
		ds.close()
		return nil, err
	}
	fem, err := dev.LoadModuleAt(fe, abi.LinkBaseFrontEnd, "gfx front end")
	if err != nil {
		ds.close()
		return nil, err
	}
	fsm, err := dev.LoadModuleAt(fs, abi.LinkBaseFS, "draw3d fs")
	if err != nil {
		ds.close()
		return nil, err
	}
	if ds.setup, err = fem.Kernel("setup_k"); err == nil {
		if ds.binning, err = fem.Kernel("binning_k"); err == nil {
			if ds.resolve, err = fem.Kernel("msaa_resolve_k"); err == nil {
				ds.frag, err = fsm.Kernel("main")
			}
		}
	}
	if err != nil {
		ds.close()
		return nil, err
	}
	return ds, nil
}

func (ds *deviceSession) close() error { return ds.dev.Close() }

func (ds *deviceSession) alloc(n int, keep *[]*runtime.Buffer) (*runtime.Buffer, error) {
	b, err := ds.dev.AllocWith(uint64(max(n, 4)), runtime.AllocOptions{Physical: true})
	if err != nil {
		return nil, err
	}
	*keep = append(*keep, b)
	return b, nil
}

func (ds *deviceSession) perf() (PerfCounters, error) {
	var p PerfCounters
	for _, c := range p.fields() {
		v, err := ds.dev.PerfCounter(c.class, c.csr, -1)
		if err != nil {
			return p, err
		}
		*c.v = v
	}
	return p, nil
}

// Replay renders tr and returns the image (flipped as draw3d saves it) and each
// draw's counters. Per draw call the host uploads the vertices (or, with
// HostBinning, the host-binned buffers) and the texture, then submits ONE
// runtime draw whose steps are the front-end launches, the RASTER/OM/TEX DCR
// writes of draw3d's host flow and the grid-less frame kick: one CMD_DRAW and one
// doorbell on a CP with DRAW and QMD, a streamed batch otherwise.
func (r DeviceReplay) Replay(tr *trace.Trace) (*Image, []DeviceDrawStats, error) {
	W, H := r.Width, r.Height
	if W <= 0 || H <= 0 || W > 4096 || H > 4096 {
		return nil, nil, fmt.Errorf("gfx: device replay: render size %dx%d out of range", W, H)
	}
	ds, err := openDevice(r.Config)
	if err != nil {
		return nil, nil, fmt.Errorf("gfx: device replay: %w", err)
	}
	defer ds.close()
	var fb []*runtime.Buffer
	cbuf, err := ds.alloc(W*H*4, &fb)
	if err != nil {
		return nil, nil, err
	}
	zbuf, err := ds.alloc(W*H*4, &fb)
	if err != nil {
		return nil, nil, err
	}
	var pat [4]byte
	binary.LittleEndian.PutUint32(pat[:], ClearColor)
	e1 := ds.q.EnqueueFill(cbuf, 0, uint64(W*H*4), pat[:])
	binary.LittleEndian.PutUint32(pat[:], ClearDepth)
	if err := ds.q.EnqueueFill(zbuf, 0, uint64(W*H*4), pat[:], e1).Wait(); err != nil {
		return nil, nil, fmt.Errorf("gfx: device replay: clearing: %w", err)
	}
	binLog := uint(r.Config.Raster.BinLogSize)
	if binLog == 0 {
		binLog = abi.DefaultBinLogSize
	}
	stats := make([]DeviceDrawStats, len(tr.DrawCalls))
	prev, err := ds.perf()
	if err != nil {
		return nil, nil, err
	}
	for i := range tr.DrawCalls {
		if err := r.draw(ds, tr, i, cbuf.Addr(), zbuf.Addr(), binLog, &stats[i]); err != nil {
			return nil, nil, fmt.Errorf("gfx: draw %d: %w", i, err)
		}
		p, err := ds.perf()
		if err != nil {
			return nil, nil, err
		}
		stats[i].Perf, prev = p.sub(prev), p
	}
	out := make([]byte, W*H*4)
	if err := ds.q.EnqueueRead(cbuf, 0, out).Wait(); err != nil {
		return nil, nil, fmt.Errorf("gfx: device replay: reading the colour buffer: %w", err)
	}
	img := &Image{Width: W, Height: H, Pix: make([]uint32, W*H)}
	for y := 0; y < H; y++ {
		row := out[(H-1-y)*W*4:]
		for x := 0; x < W; x++ {
			img.Pix[y*W+x] = binary.LittleEndian.Uint32(row[4*x:])
		}
	}
	return img, stats, nil
}

func (r DeviceReplay) draw(ds *deviceSession, tr *trace.Trace, i int, cbuf, zbuf uint64, binLog uint, out *DeviceDrawStats) error {
	W, H := r.Width, r.Height
	dc := &tr.DrawCalls[i]
	st := &dc.States
	verts, tris := flatten(dc)
	*out = DeviceDrawStats{Vertices: len(verts)}
	if len(tris) == 0 {
		return nil
	}
	var bufs []*runtime.Buffer
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	up := ds.q.NewBatch()
	upload := func(p []byte) (*runtime.Buffer, error) {
		b, err := ds.alloc(len(p), &bufs)
		if err != nil {
			return nil, err
		}
		if len(p) > 0 {
			up.Write(b, 0, p)
		}
		return b, nil
	}
	dt := drawTargets{W: W, H: H, CBuf: cbuf, ZBuf: zbuf, FragEntry: ds.frag.Entry()}
	if st.TextureEnabled {
		if int(dc.TextureID) >= len(tr.Textures) {
			return fmt.Errorf("texture id %d of %d", dc.TextureID, len(tr.Textures))
		}
		chain, err := dt.texture(tr.Textures[dc.TextureID])
		if err != nil {
			return err
		}
		tb, err := upload(chain)
		if err != nil {
			return err
		}
		dt.Tex = tb.Addr()
	}
	var steps []runtime.DrawStep
	var counters *runtime.Buffer
	if r.HostBinning {
		b, err := Binning(verts, tris, W, H, dc.Viewport.Near, dc.Viewport.Far, binLog, r.Planes)
		if err != nil {
			return err
		}
		out.Primitives = len(b.Prims)
		if b.TileCount == 0 {
			return nil // draw3d skips a draw with nothing binned
		}
		tb, err := upload(b.TileBuf)
		if err != nil {
			return err
		}
		pb, err := upload(b.PrimBuf)
		if err != nil {
			return err
		}
		dt.Tile, dt.TileCount, dt.Prim = tb.Addr(), b.TileCount, pb.Addr()
		ab, err := upload(abi.Draw3DFragArgs(drawFragArgs(st, dt.Prim, len(b.Prims))).Pack())
		if err != nil {
			return err
		}
		dt.FragArgs = ab.Addr()
	} else {
		var err error
		steps, counters, err = r.frontEnd(ds, dc, verts, tris, binLog, &dt, up, &bufs)
		if err != nil {
			return err
		}
	}
	if err := up.Submit().Wait(); err != nil {
		return fmt.Errorf("uploading: %w", err)
	}
	for _, w := range hostFlowDCRs(st, &dt) {
		steps = append(steps, runtime.DCRStep(w.Addr, w.Value))
	}
	// The grid-less launch: STARTUP_ADDR/KERNEL_ENTRY of the fragment module,
	// ndim 1, grid_x 0, block_x = threads × warps (facts §1.5).
	steps = append(steps, runtime.LaunchStep(ds.frag, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{0, 1, 1}, Block: [3]uint32{ds.block, 1, 1}}))
	s0 := ds.dev.Stats()
	ds.take()
	if err := ds.q.EnqueueDraw(steps).Wait(); err != nil {
		if le := ds.s.GPU.LastLaunchError(); le != nil {
			return fmt.Errorf("%w (device: %v)", err, le)
		}
		return err
	}
	s1 := ds.dev.Stats()
	ops, cyc := ds.take()
	out.Commands, out.Doorbells, out.Lines = s1.Commands-s0.Commands, s1.Doorbells-s0.Doorbells, s1.Lines-s0.Lines
	out.CPCycles = cyc
	out.CmdDraw, out.CmdLaunch = ops[abi.OpDraw], ops[abi.OpLaunch]+ops[abi.OpLaunchQMD]
	out.CmdDCRWrite = ops[abi.OpDCRWrite]
	g := ds.s.GPU.LastGraphics()
	rs := g.Raster
	out.KickCycles = g.Cycles
	out.BinsTouched, out.Pairs, out.Quads, out.Waves, out.EarlyZCulled = rs.Bins, rs.Pairs, rs.Quads, rs.Waves, rs.EarlyZCulled
	if rs.Waves > 0 {
		out.Occupancy = float64(rs.Lanes) / float64(rs.Waves*int64(ds.threads))
	}
	out.Shaded, out.Written = int64(g.OMReads), int64(g.OMWrites)
	if counters != nil {
		cb := make([]byte, 4*abi.FECounterWords)
		if err := ds.q.EnqueueRead(counters, 0, cb).Wait(); err != nil {
			return err
		}
		w := func(k int) int { return int(binary.LittleEndian.Uint32(cb[4*k:])) }
		out.Primitives = w(abi.FECounterPrims)
		out.FrontEnd = FrontEndStats{Triangles: len(tris), NearClipped: w(abi.FECounterNearClipped), GuardClipped: w(abi.FECounterGuardClipped),
			Culled: w(abi.FECounterCulled), PrecisionLoss: w(abi.FECounterPrecisionLoss), Prims: w(abi.FECounterPrims)}
	}
	return nil
}

// frontEnd allocates the front end's buffers (worst-case sized: the exact counts
// exist only on the device), queues the vertex and index uploads, and returns
// the nine CP-sequenced stage launches. It fills dt's tile/primitive buffers and
// fragment args. spec: rasterizer §3.1; vortexpipe §3.2
func (r DeviceReplay) frontEnd(ds *deviceSession, dc *trace.DrawCall, verts []SetupVertex, tris [][3]uint32, binLog uint,
	dt *drawTargets, up *runtime.Batch, keep *[]*runtime.Buffer) ([]runtime.DrawStep, *runtime.Buffer, error) {
	g, err := NewBinGrid(r.Width, r.Height, binLog)
	if err != nil {
		return nil, nil, err
	}
	nt := len(tris)
	maxPrims := min(nt*SetupSlot, abi.MaxPrimsPerPass+SetupSlot)
	vb := make([]byte, len(verts)*abi.SetupVertexBytes)
	for i := range verts {
		PutSetupVertex(vb[i*abi.SetupVertexBytes:], &verts[i])
	}
	ib := make([]byte, 12*nt)
	for i, t := range tris {
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(ib[12*i+4*k:], t[k])
		}
	}
	bins := g.Bins()
	sizes := []int{
		len(vb), len(ib), nt * SetupSlot * abi.PrimBytes, nt * SetupSlot * bboxBytes, 4 * nt,
		4 * (max(nt, maxPrims) + 1), maxPrims * abi.PrimBytes, maxPrims * bboxBytes, 4 * abi.FECounterWords,
		abi.Draw3DFragArgsBytes, 4 * maxPrims, 4 * maxPrims * bins, 4 * bins, 4 * bins, bins*abi.BinHeaderBytes + 4*maxPrims*bins,
	}
	b := make([]*runtime.Buffer, len(sizes))
	for k, n := range sizes {
		if b[k], err = ds.alloc(n, keep); err != nil {
			return nil, nil, err
		}
	}
	a := FrontEndArgs{
		Verts: b[0].Addr(), NumVerts: uint32(len(verts)), Tris: b[1].Addr(), NumTris: uint32(nt),
		Width: uint32(r.Width), Height: uint32(r.Height), Near: dc.Viewport.Near, Far: dc.Viewport.Far,
		Cull: uint32(CullNone), Planes: uint32(r.Planes), Slots: b[2].Addr(), SlotBoxes: b[3].Addr(), Keep: b[4].Addr(),
		Offsets: b[5].Addr(), Prims: b[6].Addr(), Boxes: b[7].Addr(), Counters: b[8].Addr(), FragArgs: b[9].Addr(),
		Cols: uint32(g.Cols), Rows: uint32(g.Rows), BinLog: uint32(binLog),
		Counts: b[10].Addr(), Keys: b[11].Addr(), Hist: b[12].Addr(), Base: b[13].Addr(), TBuf: b[14].Addr(),
	}
	up.Write(b[0], 0, vb).Write(b[1], 0, ib).Write(b[8], 0, make([]byte, 4*abi.FECounterWords))
	// The fragment args point at the dense primitive array; SCAN fills NumPrims.
	up.Write(b[9], 0, abi.Draw3DFragArgs(drawFragArgs(&dc.States, a.Prims, 0)).Pack())
	var steps []runtime.DrawStep
	for _, stage := range []uint64{abi.FEStageSetup, abi.FEStageScan, abi.FEStageEmit, abi.FEStageBCount, abi.FEStageBScan, abi.FEStageBEmit, abi.FEStageBHist, abi.FEStageBBase, abi.FEStageBScatter} {
		a.Stage = stage
		k := ds.setup
		if stage >= abi.FEStageBCount {
			k = ds.binning
		}
		steps = append(steps, runtime.LaunchStep(k, runtime.LaunchParams{
			NDim: 1, Grid: [3]uint32{ds.grid, 1, 1}, Block: [3]uint32{ds.block, 1, 1}, Args: a.Pack()}))
	}
	dt.Tile, dt.TileCount, dt.Prim, dt.FragArgs = a.TBuf, bins, a.Prims, a.FragArgs
	return steps, b[8], nil
}
