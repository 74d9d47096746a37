package shaderdev

import (
	"encoding/binary"
	"fmt"
	"slices"

	"vortexgfx/abi"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"
	"vortexgfx/gl/format"
	"vortexgfx/runtime"
)

// fragment builds and uploads the FS wrapper's argument block: prims at slot
// 0, the descriptor table at slot 9, the aperture geometry at slot 11, the
// route flags and, on the software merger, its state descriptor. spec:
// vortexpipe §3.4, §3.4.1
func (s *drawState) fragment() error {
	d, fa := s.d, &s.fe.args
	ap, err := abi.NewAperture(d.w, d.h, 1, abi.RecordShiftColorZ)
	if err != nil {
		return err
	}
	s.fsArgs = make([]byte, 8*abi.ArgFSSlots)
	put := func(slot int, v uint64) { binary.LittleEndian.PutUint64(s.fsArgs[8*slot:], v) }
	put(abi.ArgFSPrimBuffer, fa.Prims)
	put(abi.ArgFSSWSampler, s.swTable)
	put(abi.ArgFSDesc, s.descBuf.Addr())
	put(abi.ArgFSAperture, ap.Pack())
	put(abi.ArgFSFlat, fa.Flat)
	if s.counters, err = s.put(make([]byte, 4*abi.FSCounterWords)); err != nil {
		return err
	}
	flags := uint64(len(d.tc.Colors)) << abi.FSFlagTargetsShift
	for i, f := range d.tc.Colors {
		if f == format.BGRA8 {
			flags |= 1 << (abi.FSFlagBGRAShift + i)
		}
	}
	if s.route.SWRaster {
		flags |= abi.FSFlagSWRaster
	}
	if s.route.SWTex {
		flags |= abi.FSFlagSWTex
	}
	if d.tc.Samples > 1 && (s.p.PerSample() || s.dr.MinSamples > 1) {
		flags |= abi.FSFlagPerSample
	}
	flags |= s.dr.sampleDrop(max(d.tc.Samples, 1)) << abi.FSFlagSampleDropShift
	if s.route.SWOM {
		flags |= abi.FSFlagSWOM
		desc, err := s.ms.Marshal()
		if err != nil {
			return err
		}
		db, err := s.put(desc)
		if err != nil {
			return err
		}
		put(abi.ArgFSSWMerger, db.Addr())
	}
	put(abi.ArgFSTiles, fa.TBuf)
	put(abi.ArgFSTileCount, uint64(s.fe.bins))
	put(abi.ArgFSBoxes, fa.Boxes)
	put(abi.ArgFSGeometry, abi.FSGeometry{Width: d.w, Height: d.h, Samples: d.tc.Samples, BinLog: d.binLog}.Pack())
	put(abi.ArgFSCounters, s.counters.Addr())
	put(abi.ArgFSFlags, flags)
	if s.lineCover != nil {
		put(abi.ArgFSLineCover, s.lineCover.Addr())
	}
	// The FS arg block has its own buffer: SCAN writes draw3d's primitive
	// count into Args.FragArgs slot 1, which is the software sampler's
	// table slot here.
	s.fsBuf, err = s.put(s.fsArgs)
	return err
}

// submitUploads writes everything the phases above queued and waits for it.
func (s *drawState) submitUploads() error {
	if err := s.up.Submit().Wait(); err != nil {
		return fmt.Errorf("shaderdev: draw: uploading: %w", err)
	}
	return nil
}

// record builds the runtime draw's steps: the VS and
// expand_k launches, then per pass the nine front-end stage launches, the
// draw's DCR writes and the FS wrapper's launch — the grid-less frame kick on
// the FF raster, a compute grid that walks the bins itself on the software
// raster. spec: vortexpipe §3.2, §3.3
func (s *drawState) record() error {
	d, dr, ds := s.d, s.dr, s.d.ds
	var vsTable uint64
	if s.vsTex {
		vsTable = s.swTable
	}
	vsArgs := make([]byte, 8*abi.ArgSlots)
	for slot, v := range map[int]uint64{
		abi.ArgVSOutput: s.recs.Addr(), abi.ArgVSAttribTable: s.attribs, abi.ArgVSIndexBuffer: s.indices,
		abi.ArgVSBaseInstance: uint64(dr.BaseInstance), abi.ArgVSBaseVertex: uint64(uint32(dr.BaseVertex)),
		abi.ArgVSCount: uint64(s.vsCount()), abi.ArgVSDescTable: s.descBuf.Addr(), abi.ArgVSSWSampler: vsTable,
	} {
		binary.LittleEndian.PutUint64(vsArgs[8*slot:], v)
	}
	if s.inst > 1 {
		binary.LittleEndian.PutUint64(vsArgs[8*abi.ArgVSVertsPerInst:], uint64(dr.Count))
	}
	exArgs := make([]byte, 8*ExpandArgSlots)
	ow := s.recordWords()
	for i, v := range []uint64{s.xrecs.Addr(), s.verts.Addr(), uint64(s.vsCount() * s.primVerts()), uint64(ow), uint64(s.clipMask) | s.twoMask<<expandTwoSideShift} {
		binary.LittleEndian.PutUint64(exArgs[8*i:], v)
	}
	PutExpandClipPlanes(exArgs, &dr.ClipPlanes)
	lp := func(a []byte) runtime.LaunchParams {
		return runtime.LaunchParams{NDim: 1, Grid: [3]uint32{ds.Grid, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}, Args: a}
	}
	m := s.mods
	vertexStage := func() {
		vl := lp(vsArgs)
		vl.LMemSize = d.vsLMem(s.p) // machine code's frames (cores = "isa")
		s.steps = append(s.steps, runtime.LaunchStep(m.vsK, vl))
		if dr.expansion() != PrimTriangles {
			s.steps = append(s.steps, runtime.LaunchStep(m.primK, lp(s.primArgs())))
		}
		s.steps = append(s.steps, runtime.LaunchStep(s.expandStep(exArgs, ow)))
	}
	if !s.stream {
		vertexStage()
	}
	fa := s.fe.args
	rt := rasterTargets{w: d.w, h: d.h, tile: fa.TBuf, tileCount: s.fe.bins, prim: fa.Prims,
		fragArgs: s.fsBuf.Addr(), fragEntry: m.fsK.Entry(), scissor: dr.clipRect(d.w, d.h)}
	if s.route.FSISA {
		rt.fragEntry = m.fsISAK.Entry()
	}
	dcrs, err := d.drawDCRs(s.p, &s.ms, s.route, s.texWrites, &rt)
	if err != nil {
		return err
	}
	if s.route.FSISA {
		ap, err := s.apertureDCRs()
		if err != nil {
			return err
		}
		dcrs = append(dcrs, ap...)
	}
	counters := fa.Counters
	for pass := range s.passes {
		// Each pass reuses the front-end buffers (the CP's launch barrier
		// orders it after the previous kick) with its own counters.
		first := pass * s.passTris
		fa.Tris, fa.NumTris = s.tris.Addr()+12*uint64(first), uint32(min(s.passTris, s.nt-first))
		if s.stream {
			// The pass's vertices 3·first.. into the pass-sized records: the
			// index buffer from there, or (non-indexed) the vertex ids
			// from there through the base vertex.
			v0, nv := 3*uint64(first), 3*uint64(fa.NumTris)
			vsArgs, exArgs = slices.Clone(vsArgs), slices.Clone(exArgs) // a launch keeps its block
			if s.indices != 0 {
				binary.LittleEndian.PutUint64(vsArgs[8*abi.ArgVSIndexBuffer:], s.indices+4*v0)
			} else {
				binary.LittleEndian.PutUint64(vsArgs[8*abi.ArgVSBaseVertex:], uint64(uint32(dr.BaseVertex+int32(v0))))
			}
			binary.LittleEndian.PutUint64(vsArgs[8*abi.ArgVSCount:], nv)
			binary.LittleEndian.PutUint64(exArgs[8*2:], nv)
			vertexStage()
			fa.Tris, fa.NumVerts = s.tris.Addr(), uint32(nv)
		}
		fa.Counters = counters + uint64(pass)*4*abi.FECounterWords
		for _, stage := range []uint64{abi.FEStageSetup, abi.FEStageScan, abi.FEStageEmit, abi.FEStageBCount, abi.FEStageBScan, abi.FEStageBEmit, abi.FEStageBHist, abi.FEStageBBase, abi.FEStageBScatter} {
			fa.Stage = stage
			k := ds.Setup
			if stage >= abi.FEStageBCount {
				k = ds.BinningKernel(stage)
			}
			s.steps = append(s.steps, runtime.LaunchStep(k, lp(fa.Pack())))
			if stage == abi.FEStageEmit && s.lineCover != nil {
				s.steps = append(s.steps, runtime.LaunchStep(m.primK, lp(s.mapArgs(first, int(fa.NumTris), fa.Keep, fa.Offsets))))
			}
			if stage == abi.FEStageEmit && s.p.ReadsPrimitiveID() {
				s.steps = append(s.steps, runtime.LaunchStep(m.primK, lp(s.pidArgs(first, int(fa.NumTris), fa.Keep, fa.Offsets, fa.Flat))))
			}
		}
		for _, w := range dcrs {
			s.steps = append(s.steps, runtime.DCRStep(w.Addr, w.Value))
		}
		if s.route.SWRaster {
			// The wrapper walks the bins itself: a compute grid, no kick.
			s.steps = append(s.steps, runtime.LaunchStep(m.fsK, lp(s.fsArgs)))
			continue
		}
		s.steps = append(s.steps, runtime.LaunchStep(m.fsK, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{0, 1, 1}, Block: [3]uint32{ds.Block, 1, 1}}))
	}
	return nil
}

// run submits the draw and reads the CP's and the units' counters around it.
func (s *drawState) run() error {
	ds, st := s.d.ds, &s.st
	p0, err := ds.Perf()
	if err != nil {
		return err
	}
	s0 := ds.Runtime.Stats()
	g0 := ds.Sim.GPU.GraphicsTotals()
	l0 := ds.Sim.GPU.TotalStats()
	k0 := ds.Kernels()
	ds.Take()
	if err := ds.Queue.EnqueueDraw(s.steps).Wait(); err != nil {
		if le := ds.Sim.GPU.LastLaunchError(); le != nil {
			return fmt.Errorf("shaderdev: draw: %w (device: %v)", err, le)
		}
		return fmt.Errorf("shaderdev: draw: %w", err)
	}
	s1 := ds.Runtime.Stats()
	ops, cyc := ds.Take()
	st.Commands, st.Doorbells, st.Lines, st.CPCycles = s1.Commands-s0.Commands, s1.Doorbells-s0.Doorbells, s1.Lines-s0.Lines, cyc
	st.CmdDraw, st.CmdLaunch, st.CmdDCRWrite = ops[abi.OpDraw], ops[abi.OpLaunch]+ops[abi.OpLaunchQMD], ops[abi.OpDCRWrite]
	if !s.route.SWRaster { // the software walk has no frame kick: its counters are the SW ones
		// Summed over the draw's kicks: a draw streamed in passes kicks
		// the raster once per pass.
		g := ds.Sim.GPU.GraphicsTotals().Sub(g0)
		st.KickCycles = g.Cycles
		st.BinsTouched, st.Pairs, st.Quads, st.Waves, st.EarlyZCulled = g.Bins, g.Pairs, g.Quads, g.Waves, g.EarlyZCulled
		if g.Waves > 0 {
			st.Occupancy = float64(g.Lanes) / float64(g.Waves*int64(ds.Threads))
		}
	}
	if s.d.isa != nil {
		// Every machine-code launch of the draw but the fragment waves,
		// binning_k's and expand_k's is its vertex stage's (prim_k and
		// setup_k are Go).
		g, l := ds.Sim.GPU.GraphicsTotals().Sub(g0), ds.Sim.GPU.TotalStats()
		k1 := ds.Kernels()
		b, e := k1[kernelBinning], k1[kernelExpand]
		bw, bt := b.WarpInstructions-k0[kernelBinning].WarpInstructions, b.ThreadInstructions-k0[kernelBinning].ThreadInstructions
		ew, et := e.WarpInstructions-k0[kernelExpand].WarpInstructions, e.ThreadInstructions-k0[kernelExpand].ThreadInstructions
		st.ISA = &session.ISAStats{FSWarpInstructions: g.Instructions, FSThreadInstructions: g.ThreadInstructions,
			VSWarpInstructions:        l.Instructions - l0.Instructions - g.Instructions - bw - ew,
			VSThreadInstructions:      l.ThreadInstructions - l0.ThreadInstructions - g.ThreadInstructions - bt - et,
			BinningWarpInstructions:   bw,
			BinningThreadInstructions: bt,
			ExpandWarpInstructions:    ew,
			ExpandThreadInstructions:  et}
	}
	p1, err := ds.Perf()
	if err != nil {
		return err
	}
	st.Perf = p1.Sub(p0)
	st.Shaded, st.Written = int64(st.Perf.OMReads), int64(st.Perf.OMWrites)
	return nil
}

// collect reads the FS wrapper's software counters and every pass's
// front-end counters back into the draw's stats.
func (s *drawState) collect() error {
	ds, st := s.d.ds, &s.st
	sc := make([]byte, 4*abi.FSCounterWords)
	if err := ds.Queue.EnqueueRead(s.counters, 0, sc).Wait(); err != nil {
		return err
	}
	swc := func(k int) int64 { return int64(binary.LittleEndian.Uint32(sc[4*k:])) }
	st.SWMerged, st.SWPassed, st.SWQuads, st.SWWaves = swc(abi.FSCounterMerged), swc(abi.FSCounterPassed), swc(abi.FSCounterQuads), swc(abi.FSCounterWaves)
	if s.route.SWOM {
		st.Shaded, st.Written = swc(abi.FSCounterFragments), st.SWPassed
	}
	if s.route.SWRaster {
		st.Quads, st.Waves = st.SWQuads, st.SWWaves
	}
	cb := make([]byte, 4*abi.FECounterWords*s.passes)
	if err := ds.Queue.EnqueueRead(s.fe.counters, 0, cb).Wait(); err != nil {
		return err
	}
	w := func(k int) int {
		n := 0
		for pass := range s.passes {
			n += int(binary.LittleEndian.Uint32(cb[4*(pass*abi.FECounterWords+k):]))
		}
		return n
	}
	st.Primitives = w(abi.FECounterPrims)
	st.FrontEnd = frontend.Stats{Triangles: s.nt, NearClipped: w(abi.FECounterNearClipped), GuardClipped: w(abi.FECounterGuardClipped),
		Culled: w(abi.FECounterCulled), PrecisionLoss: w(abi.FECounterPrecisionLoss), Prims: w(abi.FECounterPrims),
		FarClipped: w(abi.FECounterFarClipped)}
	return nil
}
