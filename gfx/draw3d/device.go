package draw3d

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/runtime"
	"vortexgfx/trace"
)

// Device replays a trace through the whole device model: the runtime, the
// command processor, the front-end kernels on the SIMT cores, RASTER, the
// draw3d fragment kernel, TEX and OM. spec: vortexpipe §3.2–§3.4; rasterizer §3, §5
type Device struct {
	Width, Height int
	// Planes is the attribute-plane convention of the Vortex generation whose
	// goldens are matched (frontend.PlanesGrx or PlanesV1); it is an explicit choice,
	// never inferred from the trace.
	Planes frontend.Planes
	// Config is the device, CP (flavour) and raster configuration.
	Config config.Config
	// HostBinning runs draw3d's own host flow (host Binning oracle, tile and
	// primitive buffers uploaded) instead of the device front end.
	HostBinning bool
	// inspect, when set (tests), gets each device-front-end draw's tile
	// buffer (the bin headers, then the sorted pids) and PBUF as the device
	// left them.
	inspect func(draw int, tile, prims []byte)
}

// replaySession is an open device with draw3d's fragment module at
// abi.LinkBaseFS.
type replaySession struct {
	*session.Device
	frag *runtime.Kernel
}

// openReplay opens the device with the draw3d fragment kernel in its library
// and its module loaded.
func openReplay(cfg config.Config) (*replaySession, error) {
	ds, err := session.Open(cfg, RegisterKernels)
	if err != nil {
		return nil, err
	}
	frag, err := loadFrag(ds.Runtime)
	if err != nil {
		ds.Close()
		return nil, err
	}
	return &replaySession{Device: ds, frag: frag}, nil
}

// loadFrag loads the draw3d fragment module at abi.LinkBaseFS and returns its
// kernel_main.
func loadFrag(dev *runtime.Device) (*runtime.Kernel, error) {
	img, err := FragImage()
	if err != nil {
		return nil, err
	}
	m, err := dev.LoadModuleAt(img, abi.LinkBaseFS, "draw3d fs")
	if err != nil {
		return nil, err
	}
	return m.Kernel("main")
}

// Replay renders tr and returns the image (flipped as draw3d saves it) and each
// draw's counters. Per draw call the host uploads the vertices (or, with
// HostBinning, the host-binned buffers) and the texture, then submits ONE
// runtime draw whose steps are the front-end launches, the RASTER/OM/TEX DCR
// writes of draw3d's host flow and the grid-less frame kick: one CMD_DRAW and one
// doorbell on a CP with DRAW and QMD, a streamed batch otherwise.
func (r Device) Replay(tr *trace.Trace) (*Image, []session.DrawStats, error) {
	W, H := r.Width, r.Height
	if W <= 0 || H <= 0 || W > 4096 || H > 4096 {
		return nil, nil, fmt.Errorf("draw3d: device replay: render size %dx%d out of range", W, H)
	}
	ds, err := openReplay(r.Config)
	if err != nil {
		return nil, nil, fmt.Errorf("draw3d: device replay: %w", err)
	}
	defer ds.Close()
	var fb []*runtime.Buffer
	cbuf, err := ds.Alloc(W*H*4, &fb)
	if err != nil {
		return nil, nil, err
	}
	zbuf, err := ds.Alloc(W*H*4, &fb)
	if err != nil {
		return nil, nil, err
	}
	var pat [4]byte
	binary.LittleEndian.PutUint32(pat[:], ClearColor)
	e1 := ds.Queue.EnqueueFill(cbuf, 0, uint64(W*H*4), pat[:])
	binary.LittleEndian.PutUint32(pat[:], ClearDepth)
	if err := ds.Queue.EnqueueFill(zbuf, 0, uint64(W*H*4), pat[:], e1).Wait(); err != nil {
		return nil, nil, fmt.Errorf("draw3d: device replay: clearing: %w", err)
	}
	binLog := uint(r.Config.Raster.BinLogSize)
	if binLog == 0 {
		binLog = abi.DefaultBinLogSize
	}
	stats := make([]session.DrawStats, len(tr.DrawCalls))
	prev, err := ds.Perf()
	if err != nil {
		return nil, nil, err
	}
	for i := range tr.DrawCalls {
		b0 := ds.Kernels()["binning_k"]
		if err := r.draw(ds, tr, i, cbuf.Addr(), zbuf.Addr(), binLog, &stats[i]); err != nil {
			return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
		}
		if ds.ISA {
			// cores = "isa": binning_k's machine-code stages are the
			// replay's only machine code (the VS path, setup_k and the
			// fragment kernel are Go).
			b := ds.Kernels()["binning_k"]
			stats[i].ISA = &session.ISAStats{BinningWarpInstructions: b.WarpInstructions - b0.WarpInstructions,
				BinningThreadInstructions: b.ThreadInstructions - b0.ThreadInstructions}
		}
		p, err := ds.Perf()
		if err != nil {
			return nil, nil, err
		}
		stats[i].Perf, prev = p.Sub(prev), p
	}
	out := make([]byte, W*H*4)
	if err := ds.Queue.EnqueueRead(cbuf, 0, out).Wait(); err != nil {
		return nil, nil, fmt.Errorf("draw3d: device replay: reading the colour buffer: %w", err)
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

func (r Device) draw(ds *replaySession, tr *trace.Trace, i int, cbuf, zbuf uint64, binLog uint, out *session.DrawStats) error {
	W, H := r.Width, r.Height
	dc := &tr.DrawCalls[i]
	st := &dc.States
	verts, tris := flatten(dc)
	*out = session.DrawStats{Vertices: len(verts)}
	if len(tris) == 0 {
		return nil
	}
	var bufs []*runtime.Buffer
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	up := ds.Queue.NewBatch()
	upload := func(p []byte) (*runtime.Buffer, error) {
		b, err := ds.Alloc(len(p), &bufs)
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
		b, err := frontend.Binning(verts, tris, W, H, dc.Viewport.Near, dc.Viewport.Far, binLog, r.Planes)
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
	steps = append(steps, runtime.LaunchStep(ds.frag, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{0, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}}))
	s0 := ds.Runtime.Stats()
	ds.Take()
	if err := ds.Queue.EnqueueDraw(steps).Wait(); err != nil {
		if le := ds.Sim.GPU.LastLaunchError(); le != nil {
			return fmt.Errorf("%w (device: %v)", err, le)
		}
		return err
	}
	s1 := ds.Runtime.Stats()
	ops, cyc := ds.Take()
	out.Commands, out.Doorbells, out.Lines = s1.Commands-s0.Commands, s1.Doorbells-s0.Doorbells, s1.Lines-s0.Lines
	out.CPCycles = cyc
	out.CmdDraw, out.CmdLaunch = ops[abi.OpDraw], ops[abi.OpLaunch]+ops[abi.OpLaunchQMD]
	out.CmdDCRWrite = ops[abi.OpDCRWrite]
	g := ds.Sim.GPU.LastGraphics()
	rs := g.Raster
	out.KickCycles = g.Cycles
	out.BinsTouched, out.Pairs, out.Quads, out.Waves, out.EarlyZCulled = rs.Bins, rs.Pairs, rs.Quads, rs.Waves, rs.EarlyZCulled
	if rs.Waves > 0 {
		out.Occupancy = float64(rs.Lanes) / float64(rs.Waves*int64(ds.Threads))
	}
	out.Shaded, out.Written = int64(g.OMReads), int64(g.OMWrites)
	if counters != nil {
		cb := make([]byte, 4*abi.FECounterWords)
		if err := ds.Queue.EnqueueRead(counters, 0, cb).Wait(); err != nil {
			return err
		}
		w := func(k int) int { return int(binary.LittleEndian.Uint32(cb[4*k:])) }
		out.Primitives = w(abi.FECounterPrims)
		out.FrontEnd = frontend.Stats{Triangles: len(tris), NearClipped: w(abi.FECounterNearClipped), GuardClipped: w(abi.FECounterGuardClipped),
			Culled: w(abi.FECounterCulled), PrecisionLoss: w(abi.FECounterPrecisionLoss), Prims: w(abi.FECounterPrims)}
		if r.inspect != nil {
			tile := make([]byte, dt.TileCount*abi.BinHeaderBytes+4*w(abi.FECounterKeys))
			prims := make([]byte, w(abi.FECounterPrims)*abi.PrimBytes)
			if err := ds.Sim.Mem.Read(dt.Tile, tile); err != nil {
				return err
			}
			if err := ds.Sim.Mem.Read(dt.Prim, prims); err != nil {
				return err
			}
			r.inspect(i, tile, prims)
		}
	}
	return nil
}

// frontEnd allocates the front end's buffers (worst-case sized: the exact counts
// exist only on the device), queues the vertex and index uploads, and returns
// the nine CP-sequenced stage launches. It fills dt's tile/primitive buffers and
// fragment args. spec: rasterizer §3.1; vortexpipe §3.2
func (r Device) frontEnd(ds *replaySession, dc *trace.DrawCall, verts []frontend.Vertex, tris [][3]uint32, binLog uint,
	dt *drawTargets, up *runtime.Batch, keep *[]*runtime.Buffer) ([]runtime.DrawStep, *runtime.Buffer, error) {
	g, err := frontend.NewBinGrid(r.Width, r.Height, binLog)
	if err != nil {
		return nil, nil, err
	}
	nt := len(tris)
	maxPrims := min(nt*frontend.SetupSlot, abi.MaxPrimsPerPass+frontend.SetupSlot)
	vb := make([]byte, len(verts)*abi.SetupVertexBytes)
	for i := range verts {
		frontend.PutVertex(vb[i*abi.SetupVertexBytes:], &verts[i])
	}
	ib := make([]byte, 12*nt)
	for i, t := range tris {
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(ib[12*i+4*k:], t[k])
		}
	}
	bins := g.Bins()
	sizes := []int{
		len(vb), len(ib), nt * frontend.SetupSlot * abi.PrimBytes, nt * frontend.SetupSlot * frontend.BBoxBytes, 4 * nt,
		4 * (max(nt, maxPrims) + 1), maxPrims * abi.PrimBytes, maxPrims * frontend.BBoxBytes, 4 * abi.FECounterWords,
		abi.Draw3DFragArgsBytes, 4 * maxPrims, 4 * maxPrims * bins, 4 * bins, 4 * bins, bins*abi.BinHeaderBytes + 4*maxPrims*bins,
	}
	b := make([]*runtime.Buffer, len(sizes))
	for k, n := range sizes {
		if b[k], err = ds.Alloc(n, keep); err != nil {
			return nil, nil, err
		}
	}
	a := frontend.Args{
		Verts: b[0].Addr(), NumVerts: uint32(len(verts)), Tris: b[1].Addr(), NumTris: uint32(nt),
		Width: uint32(r.Width), Height: uint32(r.Height), Near: dc.Viewport.Near, Far: dc.Viewport.Far,
		Cull: uint32(frontend.CullNone), Planes: uint32(r.Planes), Slots: b[2].Addr(), SlotBoxes: b[3].Addr(), Keep: b[4].Addr(),
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
		k := ds.Setup
		if stage >= abi.FEStageBCount {
			k = ds.BinningKernel(stage)
		}
		steps = append(steps, runtime.LaunchStep(k, runtime.LaunchParams{
			NDim: 1, Grid: [3]uint32{ds.Grid, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}, Args: a.Pack()}))
	}
	dt.Tile, dt.TileCount, dt.Prim, dt.FragArgs = a.TBuf, bins, a.Prims, a.FragArgs
	return steps, b[8], nil
}
