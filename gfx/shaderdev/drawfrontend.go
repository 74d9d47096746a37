package shaderdev

import (
	"encoding/binary"
	"errors"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
	"vortexgfx/gfx/frontend"
	"vortexgfx/runtime"
)

// frontEnd allocates the vertex stage's records (VS output, expand_k's
// setup records), uploads the triangle list and the front end's buffers and
// splits the draw into passes: a pass is at most PassTriangles triangles
// (fewer when user clip distances add slots), so its visible primitives
// (SlotsPerTriangle per triangle at worst) always fit the 16-bit pid. The
// records are the whole draw's, the vertex stage running once before the
// passes; when they do not fit device memory, a non-instanced draw streams
// instead: each pass runs the vertex stage and expand_k over its own
// vertices into pass-sized records (drawState.stream). spec: vortexpipe
// §3.2, §3.8
func (s *drawState) frontEnd() error {
	s.clipMask = s.p.ClipMask(s.dr.ClipDistances)
	if s.dr.expansion() != PrimTriangles {
		// prim_k clips lines and points against the user clip distances
		// (their triangles are never clipped again).
		s.primClip, s.clipMask = s.clipMask, 0
	}
	var err error
	if s.twoMask, err = s.p.twoSideMask(s.dr.TwoSide); err != nil {
		return err
	}
	s.passTris = min(s.nt, abi.MaxPrimsPerPass/frontend.SlotsPerTriangle(s.clipMask))
	s.passes = (s.nt + s.passTris - 1) / s.passTris
	first := s.d.next // the pool slot of the first record buffer
	err = s.frontEndBuffers(s.vsCount())
	if err != nil && errors.Is(err, mem.ErrOutOfMemory) && s.passes > 1 && s.inst == 1 && s.dr.expansion() == PrimTriangles {
		// Nothing is queued on the slots the attempt took: empty them
		// (and the later ones, which only earlier draws used) so that
		// the pass-sized buffers reach the memory the attempt held.
		if err := s.d.release(first); err != nil {
			return err
		}
		if s.reuse != nil {
			// Streaming runs the vertex stage per pass over the pass's
			// own indices: the draw's whole index list, without reuse.
			s.reuse = nil
			if err := s.bindIndices(); err != nil {
				return err
			}
		}
		s.stream = true
		err = s.frontEndBuffers(3 * s.passTris)
	}
	if err != nil {
		return err
	}
	if s.reuse != nil {
		s.up.Write(s.tris, 0, s.reuse.corners)
	} else {
		s.up.Write(s.tris, 0, s.d.identityList(s.vsCount()*s.primVerts()))
	}
	// The vertex stage's invocations: each distinct vertex once with
	// reuse, else every index (over the passes when streaming).
	s.st.VerticesShaded = s.total
	if s.reuse != nil {
		s.st.VerticesShaded = s.reuse.n
	}
	if f := s.dr.EdgeFlags; f != nil {
		if s.edges, err = s.put(f); err != nil {
			return err
		}
	}
	if ids := s.dr.PrimitiveIDs; ids != nil && s.p.ReadsPrimitiveID() {
		b := make([]byte, 4*len(ids))
		for i, v := range ids {
			binary.LittleEndian.PutUint32(b[4*i:], v)
		}
		if s.pids, err = s.put(b); err != nil {
			return err
		}
	}
	s.up.Write(s.fe.counters, 0, make([]byte, 4*abi.FECounterWords*s.passes))
	return nil
}

// vsCount is how many vertices the vertex stage shades at once: the
// distinct ones with vertex reuse, a pass's 3·passTris when streaming, else
// every index of every instance.
func (s *drawState) vsCount() int {
	switch {
	case s.reuse != nil:
		return s.reuse.n
	case s.stream:
		return 3 * s.passTris
	}
	return s.total
}

// frontEndBuffers allocates the records of n vertices, the triangle list
// over them and the front end's buffers; it queues no upload.
func (s *drawState) frontEndBuffers(n int) error {
	d, p := s.d, s.p
	var err error
	if s.recs, err = d.buffer(n * p.prog.VS.OutputWords * 4); err != nil {
		return err
	}
	s.xrecs = s.recs
	if pv := s.primVerts(); pv > 1 {
		// prim_k's records: a line's or point's two triangles.
		if s.xrecs, err = d.buffer(n * pv * s.recordWords() * 4); err != nil {
			return err
		}
		n *= pv
	}
	if x := s.dr.expansion(); x == PrimLines || x == primPolygons {
		if s.lineTris, err = d.buffer(n / 3 * abi.LineCoverBytes); err != nil {
			return err
		}
		pidCap := min(s.passTris*frontend.SlotsPerTriangle(s.clipMask), abi.MaxPrimsPerPass+frontend.SlotsPerTriangle(s.clipMask))
		if s.lineCover, err = d.buffer(pidCap * abi.LineCoverBytes); err != nil {
			return err
		}
	}
	if s.verts, err = d.buffer(n * p.recordBytesClip(s.clipMask)); err != nil {
		return err
	}
	corners := n // the triangle list: one entry per record, or per index with reuse
	if s.reuse != nil {
		corners = s.total
	}
	if s.tris, err = d.buffer(4 * corners); err != nil {
		return err
	}
	near, far := s.dr.depthRange()
	s.fe, err = d.frontEndArgs(s.verts.Addr(), uint32(n), s.tris.Addr(), s.passTris, s.passes, near, far, s.dr.cull(),
		uint32(p.NVar()), uint32(p.NFlat()), s.clipMask)
	if err != nil {
		return err
	}
	// The viewport transform and the clip rectangle (scissor ∩ viewport
	// pixels) ride the argument block to setup_k, as the depth range does.
	// spec: vortexpipe-driver §3.8 (viewport / depth range row)
	if vp := s.dr.Viewport; vp != nil {
		s.fe.args.ViewSX, s.fe.args.ViewTX, s.fe.args.ViewSY, s.fe.args.ViewTY = vp.SX, vp.TX, vp.SY, vp.TY
	}
	if sc := s.dr.clipRect(d.w, d.h); sc != nil {
		s.fe.args.ScissorX = uint32(sc.R)<<16 | uint32(sc.L)
		s.fe.args.ScissorY = uint32(sc.B)<<16 | uint32(sc.T)
	}
	// Depth clamp: setup_k keeps the geometry the near plane would cut and
	// the merger clamps the depth to the depth range (routed to software:
	// swom.State.FFWhy). spec: vortexpipe §3.7 (depth-clamp row)
	s.fe.args.DepthClipDisable = s.ms.DepthClamp
	po := s.dr.PolygonOffset
	if s.dr.expansion() != PrimTriangles {
		po = frontend.PolygonOffset{} // GL offsets polygons only (ref: lines and points are not offset)
	}
	po.DepthBits = s.d.depthBits()
	po.SetArgs(&s.fe.args)
	return nil
}

// depthBits is the depth bits of the pass's depth plane for the polygon
// offset's r (0 without a depth attachment or over S8, as ref's rule).
func (d *Device) depthBits() uint8 {
	if d.tc.NoDepth {
		return 0
	}
	switch d.tc.Depth {
	case abi.OMDepthD24S8:
		return 24
	case abi.OMDepthD16:
		return 16
	case abi.OMDepthD32F:
		return 32
	}
	return 0
}

// feBuffers are one compiled draw's front-end buffers.
type feBuffers struct {
	args           frontend.Args
	frag, counters *runtime.Buffer
	bins           int // of the bin grid
}

// frontEndArgs allocates the front end's buffers for nt triangles over the
// expand_k records at verts (worst-case sized, as draw3d's device replay:
// the exact counts exist only on the device) and returns the argument
// block; the caller queues the counter reset. spec: rasterizer §3.1; vortexpipe §3.2
func (d *Device) frontEndArgs(verts uint64, nverts uint32, tris uint64, nt, passes int, near, far float32, cull frontend.CullMode,
	nvar, nflat uint32, clipMask uint8) (feBuffers, error) {
	g, err := frontend.NewBinGrid(d.w, d.h, d.binLog)
	if err != nil {
		return feBuffers{}, err
	}
	slots := frontend.SlotsPerTriangle(clipMask)
	maxPrims := min(nt*slots, abi.MaxPrimsPerPass+slots)
	side := 0 // the per-primitive side array: flat words, varyings beyond the planes
	if nflat > 0 || nvar > abi.NumVaryingPlanes {
		side = 4 * abi.SideArrayWords(int(nvar), int(nflat))
	}
	bins := g.Bins()
	sizes := []int{
		nt * slots * abi.PrimBytes, nt * slots * frontend.BBoxBytes, 4 * nt,
		4 * (max(nt, maxPrims) + 1), maxPrims * abi.PrimBytes, maxPrims * frontend.BBoxBytes, 4 * abi.FECounterWords * passes,
		8 * abi.ArgFSSlots, 4 * maxPrims, 4 * maxPrims * bins, 4 * bins, 4 * bins, bins*abi.BinHeaderBytes + 4*maxPrims*bins,
		nt * slots * side, maxPrims * side,
	}
	b := make([]*runtime.Buffer, len(sizes))
	for k, n := range sizes {
		if b[k], err = d.buffer(n); err != nil {
			return feBuffers{}, err
		}
	}
	a := frontend.Args{
		Verts: verts, NumVerts: nverts, Tris: tris, NumTris: uint32(nt),
		Width: uint32(d.w), Height: uint32(d.h), Near: near, Far: far, Cull: uint32(cull), Planes: abi.PackFEPlanes(uint8(frontend.PlanesCompiled), clipMask),
		Slots: b[0].Addr(), SlotBoxes: b[1].Addr(), Keep: b[2].Addr(), Offsets: b[3].Addr(), Prims: b[4].Addr(),
		Boxes: b[5].Addr(), Counters: b[6].Addr(), FragArgs: b[7].Addr(),
		Cols: uint32(g.Cols), Rows: uint32(g.Rows), BinLog: uint32(d.binLog),
		Counts: b[8].Addr(), Keys: b[9].Addr(), Hist: b[10].Addr(), Base: b[11].Addr(), TBuf: b[12].Addr(), NVar: nvar,
		NFlat: nflat, FlatSlots: b[13].Addr(), Flat: b[14].Addr(),
	}
	return feBuffers{args: a, frag: b[7], counters: b[6], bins: bins}, nil
}
