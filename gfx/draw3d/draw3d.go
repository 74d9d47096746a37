package draw3d

import (
	"encoding/binary"
	"fmt"
	"sort"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/device/tex"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/mipmap"
	"vortexgfx/trace"
)

// Host replays a trace as gfx_draw3d's host flow does, on simulated memory
// with the Go FragKernel behind RASTER (no command processor, no SIMT cores):
// the direct harness the device replay is checked against.
type Host struct {
	Width, Height int             // render size (the trace's viewport is ignored)
	Raster        raster.Config   // engine shape; BinLog defaults to 7
	Planes        frontend.Planes // attribute-plane convention of the generation replayed
	// walk replaces raster.Run when set: the tests' per-pixel oracle of the
	// coverage formula (stress_test.go) runs the same host flow through it.
	walk func(raster.Memory, *raster.State, raster.Config, raster.Launch) (raster.Stats, error)
}

// DrawStats are one draw call's counters and the DCR writes that programmed it
// in bus order (the sequence the CP integration streams).
type DrawStats struct {
	Writes     []abi.DCRPair
	Vertices   int
	Primitives int // after setup (culled and degenerate removed)
	Bins       int // headers emitted
	Pairs      int // (bin, primitive) pairs
	Raster     raster.Stats
	Shaded     int64 // covered fragments run through the fragment kernel
	Written    int64 // fragments that passed the OM tests
}

// Image is a rendered frame as the test saves it: A8R8G8B8 pixels, row 0 first,
// already flipped vertically (row 0 is the colour buffer's last row).
type Image struct {
	Width, Height int
	Pix           []uint32
}

// Clear values of gfx_draw3d. spec: vortex-hardware-facts §8
const (
	ClearColor uint32 = 0xFF000000
	ClearDepth uint32 = 0xFFFFFFFF
)

// fragEntry is a stand-in FRAG_ENTRY (nonzero arms the fragment launch); the
// kernel here is the Go FragKernel rather than a device binary.
const fragEntry = 0x8000_0000

// Replay runs the draw3d host flow over every draw call of tr: host Binning at
// BIN_LOG 7, upload of the tile and primitive buffers, the RASTER/OM/TEX DCR
// writes in the test's order (with its quirks), the frame kick, and finally the
// colour buffer read back and flipped. spec: vortex-hardware-facts §8, §9 item 3
func (d Host) Replay(tr *trace.Trace) (*Image, []DrawStats, error) {
	W, H := d.Width, d.Height
	if W <= 0 || H <= 0 || W > 4096 || H > 4096 {
		return nil, nil, fmt.Errorf("draw3d: render size %dx%d out of range", W, H)
	}
	cfg := d.Raster
	if cfg.BinLog == 0 {
		cfg.BinLog = abi.DefaultBinLogSize
	}
	// Bin every draw first so the arena can be sized once.
	binned := make([]*frontend.Binned, len(tr.DrawCalls))
	need := 2*W*H*4 + 4096
	maxDraw := 0
	for i := range tr.DrawCalls {
		dc := &tr.DrawCalls[i]
		verts, tris := flatten(dc)
		b, err := frontend.Binning(verts, tris, W, H, dc.Viewport.Near, dc.Viewport.Far, uint(cfg.BinLog), d.Planes)
		if err != nil {
			return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
		}
		binned[i] = b
		n := len(b.TileBuf) + len(b.PrimBuf) + 512
		if dc.States.TextureEnabled {
			t := tr.Textures[dc.TextureID]
			n += 2 * len(t.Pixels)
		}
		maxDraw = max(maxDraw, n)
	}
	mem := NewArena(0x1000_0000, need+maxDraw)
	cbuf, _ := mem.Alloc(W * H * 4)
	zbuf, _ := mem.Alloc(W * H * 4)
	fill(mem, cbuf, W*H, ClearColor)
	fill(mem, zbuf, W*H, ClearDepth)
	mark := mem.top

	var rs raster.State
	var oms om.State
	var txs tex.DCRs
	var log *[]abi.DCRPair
	dcr := func(a abi.DCR, v uint32) {
		*log = append(*log, abi.DCRPair{Addr: a, Value: v})
		rs.Write(a, v)
		oms.Write(a, v)
		txs.Write(a, v)
	}
	stats := make([]DrawStats, len(tr.DrawCalls))
	for i := range tr.DrawCalls {
		dc := &tr.DrawCalls[i]
		st := &dc.States
		b := binned[i]
		stats[i] = DrawStats{Vertices: len(dc.Vertices), Primitives: len(b.Prims), Bins: b.TileCount, Pairs: b.Pairs}
		if b.TileCount == 0 {
			continue
		}
		log = &stats[i].Writes
		mem.top = mark
		tileAddr, err := upload(mem, b.TileBuf)
		if err != nil {
			return nil, nil, err
		}
		primAddr, err := upload(mem, b.PrimBuf)
		if err != nil {
			return nil, nil, err
		}
		dt := drawTargets{W: W, H: H, Tile: tileAddr, TileCount: b.TileCount, Prim: primAddr, CBuf: cbuf, ZBuf: zbuf, FragEntry: fragEntry}
		if st.TextureEnabled {
			t := tr.Textures[dc.TextureID]
			chain, err := dt.texture(t)
			if err != nil {
				return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
			}
			if dt.Tex, err = upload(mem, chain); err != nil {
				return nil, nil, err
			}
		}
		args := drawFragArgs(st, primAddr, len(b.Prims))
		if dt.FragArgs, err = upload(mem, abi.Draw3DFragArgs(args).Pack()); err != nil {
			return nil, nil, err
		}
		for _, w := range hostFlowDCRs(st, &dt) {
			dcr(w.Addr, w.Value)
		}
		var sampler *tex.Sampler
		if st.TextureEnabled {
			if sampler, err = tex.Bind(mem, txs.Stages[0]); err != nil {
				return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
			}
		}
		unit, err := om.Bind(mem, &oms, 0, W, H)
		if err != nil {
			return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
		}
		k, err := NewFragKernel(mem, args, sampler, unit)
		if err != nil {
			return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
		}
		run := raster.Run
		if d.walk != nil {
			run = d.walk
		}
		rst, err := run(mem, &rs, cfg, k.Launch)
		stats[i].Raster = rst
		stats[i].Shaded, stats[i].Written, _ = k.Counts()
		if err != nil {
			return nil, nil, fmt.Errorf("draw3d: draw %d: %w", i, err)
		}
	}
	img := &Image{Width: W, Height: H, Pix: make([]uint32, W*H)}
	cb, err := mem.View(cbuf, W*H*4)
	if err != nil {
		return nil, nil, err
	}
	for y := 0; y < H; y++ {
		row := cb[(H-1-y)*W*4:]
		for x := 0; x < W; x++ {
			img.Pix[y*W+x] = binary.LittleEndian.Uint32(row[4*x:])
		}
	}
	return img, stats, nil
}

// drawTargets is what one draw's host flow points the units at.
type drawTargets struct {
	W, H       int
	Tile       uint64 // tile buffer
	TileCount  int
	Prim       uint64 // primitive buffer
	CBuf, ZBuf uint64
	Tex        uint64 // mip chain (0: untextured)
	texW, texH uint32
	texFmt     abi.TexFormat
	texOffs    []uint32
	FragArgs   uint64
	FragEntry  uint64
}

// texture converts a trace texture to its FF format and mip chain (draw3d's
// upload) and records what the TEX DCRs need.
func (dt *drawTargets) texture(t trace.Texture) ([]byte, error) {
	tf, err := t.Format.ToTex()
	if err != nil {
		return nil, err
	}
	chain, offs, err := mipmap.Generate(t.Pixels, tf, t.Width, t.Height)
	if err != nil {
		return nil, err
	}
	dt.texW, dt.texH, dt.texFmt, dt.texOffs = t.Width, t.Height, tf, offs
	return chain, nil
}

// drawFragArgs is the fragment argument block draw3d builds from a draw's state.
func drawFragArgs(st *trace.States, primAddr uint64, nprims int) FragArgs {
	args := FragArgs{
		DepthEnabled: st.DepthTest,
		ColorEnabled: st.ColorEnabled,
		TexEnabled:   st.TextureEnabled,
		TexModulate:  st.TextureEnabled && st.TextureEnvMode == trace.EnvModulate,
		PrimAddr:     primAddr,
		NumPrims:     nprims,
	}
	if args.TexModulate && !args.ColorEnabled {
		args.TexModulate = false
	}
	if args.TexEnabled && args.ColorEnabled && !args.TexModulate {
		args.ColorEnabled = false
	}
	return args
}

// hostFlowDCRs is the DCR sequence of one draw3d draw call in bus order, quirks
// included: RASTER, OM (ZBUF only with depth or stencil; the stencil ZFAIL value
// lands in ZPASS), TEX (wrap_v from addressU, the filter from magfilter only,
// MIPOFF only for existing levels), then FRAG_ENTRY/PARAM.
// spec: vortex-hardware-facts §8, §9 item 3
func hostFlowDCRs(st *trace.States, dt *drawTargets) []abi.DCRPair {
	var out []abi.DCRPair
	dcr := func(a abi.DCR, v uint32) { out = append(out, abi.DCRPair{Addr: a, Value: v}) }
	blk := func(a uint64) uint32 { return uint32(a >> 6) }
	W, H := dt.W, dt.H
	pitch := uint32(W * 4)
	dcr(abi.DCRRasterTBufAddr, blk(dt.Tile))
	dcr(abi.DCRRasterTileCount, uint32(dt.TileCount))
	dcr(abi.DCRRasterPBufAddr, blk(dt.Prim))
	dcr(abi.DCRRasterPBufStride, abi.PrimBytes)
	dcr(abi.DCRRasterScissorX, uint32(W)<<16)
	dcr(abi.DCRRasterScissorY, uint32(H)<<16)

	dcr(abi.DCROMCBufAddr, blk(dt.CBuf))
	dcr(abi.DCROMCBufPitch, pitch)
	dcr(abi.DCROMCBufWriteMask, st.ColorWriteMask)
	if st.DepthTest || st.StencilTest {
		dcr(abi.DCROMZBufAddr, blk(dt.ZBuf))
		dcr(abi.DCROMZBufPitch, pitch)
	}
	if st.DepthTest {
		dcr(abi.DCROMDepthFunc, uint32(st.DepthFunc.ToOM()))
		dcr(abi.DCROMDepthWriteMask, b2u(st.DepthWriteMask))
	} else {
		dcr(abi.DCROMDepthFunc, uint32(abi.CmpAlways))
		dcr(abi.DCROMDepthWriteMask, 0)
	}
	if st.StencilTest {
		dcr(abi.DCROMStencilFunc, uint32(st.StencilFunc.ToOM()))
		dcr(abi.DCROMStencilZPass, uint32(st.StencilZPass.ToOM()))
		dcr(abi.DCROMStencilZPass, uint32(st.StencilZFail.ToOM())) // draw3d quirk: ZFAIL lands in ZPASS
		dcr(abi.DCROMStencilFail, uint32(st.StencilFail.ToOM()))
		dcr(abi.DCROMStencilRef, uint32(st.StencilRef))
		dcr(abi.DCROMStencilMask, uint32(st.StencilMask))
		dcr(abi.DCROMStencilWriteMask, uint32(st.StencilWriteMask))
	} else {
		dcr(abi.DCROMStencilFunc, uint32(abi.CmpAlways))
		dcr(abi.DCROMStencilZPass, uint32(abi.StencilKeep))
		dcr(abi.DCROMStencilZPass, uint32(abi.StencilKeep))
		dcr(abi.DCROMStencilFail, uint32(abi.StencilKeep))
		dcr(abi.DCROMStencilRef, 0)
		dcr(abi.DCROMStencilMask, 0xFF)
		dcr(abi.DCROMStencilWriteMask, 0)
	}
	zf := st.DepthFunc.ToOM()
	safe := st.DepthTest && (zf == abi.CmpLess || zf == abi.CmpLEqual) && !st.StencilTest && !st.BlendEnabled
	dcr(abi.DCROMEarlyZSafe, b2u(safe))
	dcr(abi.DCROMBlendMode, abi.PackHalves(uint32(abi.BlendAdd), uint32(abi.BlendAdd)))
	if st.BlendEnabled {
		s, t := st.BlendSrc.ToOM(), st.BlendDst.ToOM()
		dcr(abi.DCROMBlendFunc, abi.PackBlendFunc(s, s, t, t))
	} else {
		dcr(abi.DCROMBlendFunc, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero))
	}
	if st.TextureEnabled {
		filter := uint32(0)
		if st.TextureMagFilter != trace.FilterNearest { // filter from magfilter only
			filter = abi.TexFilterBilinear
		}
		wrap := abi.WrapClamp
		if st.TextureAddressU == trace.AddressWrap { // wrap_v from addressU too
			wrap = abi.WrapRepeat
		}
		dcr(abi.DCRTexStage, 0)
		dcr(abi.DCRTexLogDim, abi.PackTexLogDim(mipmap.Log2Ceil(dt.texW), mipmap.Log2Ceil(dt.texH)))
		dcr(abi.DCRTexFormat, uint32(dt.texFmt))
		dcr(abi.DCRTexWrap, abi.PackTexWrap(wrap, wrap))
		dcr(abi.DCRTexFilter, filter)
		dcr(abi.DCRTexAddr, blk(dt.Tex))
		for l, o := range dt.texOffs { // MIPOFF only for the levels that exist
			dcr(abi.DCRTexMipOff(l), o)
		}
	}
	dcr(abi.DCRRasterFragEntryLo, uint32(dt.FragEntry))
	dcr(abi.DCRRasterFragEntryHi, uint32(dt.FragEntry>>32))
	dcr(abi.DCRRasterFragParamLo, uint32(dt.FragArgs))
	dcr(abi.DCRRasterFragParamHi, uint32(dt.FragArgs>>32))
	return out
}

// flatten turns a draw call's vertex map and index list into dense arrays.
func flatten(dc *trace.DrawCall) ([]frontend.Vertex, [][3]uint32) {
	ids := make([]uint32, 0, len(dc.Vertices))
	for id := range dc.Vertices {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	index := make(map[uint32]uint32, len(ids))
	verts := make([]frontend.Vertex, len(ids))
	for i, id := range ids {
		v := dc.Vertices[id]
		index[id] = uint32(i)
		verts[i] = frontend.Vertex{
			Pos:      [4]float32{v.Pos.X, v.Pos.Y, v.Pos.Z, v.Pos.W},
			Color:    [4]float32{v.Color.R, v.Color.G, v.Color.B, v.Color.A},
			TexCoord: [2]float32{v.TexCoord.U, v.TexCoord.V},
		}
	}
	tris := make([][3]uint32, len(dc.Primitives))
	for i, p := range dc.Primitives {
		tris[i] = [3]uint32{index[p.I0], index[p.I1], index[p.I2]}
	}
	return verts, tris
}

func upload(mem *Arena, b []byte) (uint64, error) {
	a, err := mem.Alloc(len(b))
	if err != nil {
		return 0, err
	}
	return a, mem.Write(a, b)
}

func fill(mem *Arena, addr uint64, n int, v uint32) {
	b, _ := mem.View(addr, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
