package pipe

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
)

func dcrMap(pairs []abi.DCRPair) (shared map[abi.DCR]uint32, perRT map[[2]uint32]uint32) {
	shared, perRT = map[abi.DCR]uint32{}, map[[2]uint32]uint32{}
	rt, stage := uint32(0), uint32(0)
	for _, p := range pairs {
		switch {
		case p.Addr == abi.DCROMRTSelect:
			rt = p.Value
		case p.Addr == abi.DCRTexStage:
			stage = p.Value
		case abi.OMPerRT(p.Addr):
			perRT[[2]uint32{rt, uint32(p.Addr)}] = p.Value
			continue
		case abi.UnitOf(p.Addr) == abi.UnitTEX:
			perRT[[2]uint32{0x100 + stage, uint32(p.Addr)}] = p.Value
			continue
		}
		shared[p.Addr] = p.Value
	}
	return shared, perRT
}

// TestDrawDCRs: a draw's RASTER/OM/TEX writes come straight from the CSO words.
// spec: vortexpipe §3.3 steps 1–3
func TestDrawDCRs(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	st := eligible(t, s)
	st.FB.Cbufs = append(st.FB.Cbufs, testSurface(t, s, format.BGRA8, 64, 64))
	st.Rast, _ = NewRasterizer(RasterizerState{Scissor: true})
	st.Scissor = Scissor{MinX: 4, MinY: -3, MaxX: 40, MaxY: 100}
	st.BlendColor = NewBlendColor([4]float32{1, 0, 0, 1})
	st.StencilRef = PackStencilRef(3, 4)
	var bs BlendState
	bs.IndependentBlend = true
	bs.RT[0] = RTBlendState{ColorMask: MaskRGBA}
	bs.RT[1] = RTBlendState{BlendEnable: true, RGBSrc: blend.SrcAlpha, RGBDst: blend.OneMinusSrcAlpha, AlphaSrc: blend.One, AlphaDst: blend.Zero, ColorMask: MaskR}
	st.Blend, _ = NewBlend(bs)
	key := Route(fullCaps(), Options{}, st, DrawShape{Mode: PrimTriangles, Draw: DirectDraw{Count: 3, InstanceCount: 1}}).Key
	if key != (VariantKey{Samples: 1, BGRAMask: 2, SWOM: true}) {
		t.Fatalf("key %v (MRT with depth writes routes OM)", key)
	}
	key.SWOM = false // emit the FF banks for the check
	a := &DrawAddrs{TileBuf: 0x1000, TileCount: 7, PrimBuf: 0x2000, FragEntry: 0x1_8000_0040, FragParam: 0x3000,
		Depth: SurfaceAddr{0x40000, 256}}
	a.Color[0] = SurfaceAddr{0x10000, 256}
	a.Color[1] = SurfaceAddr{0x20000, 256}
	a.Textures[0] = TextureAddr{Addr: 0x80000, MipOffsets: [16]uint32{0, 16384, 20480}}
	pairs, err := DrawDCRs(st, key, a)
	if err != nil {
		t.Fatal(err)
	}
	sh, rt := dcrMap(pairs)
	checks := map[abi.DCR]uint32{
		abi.DCRRasterTBufAddr: 0x40, abi.DCRRasterTileCount: 7, abi.DCRRasterPBufAddr: 0x80, abi.DCRRasterPBufStride: 212,
		abi.DCRRasterScissorX: 40<<16 | 4, abi.DCRRasterScissorY: 64 << 16,
		abi.DCRRasterFragEntryLo: 0x8000_0040, abi.DCRRasterFragEntryHi: 1, abi.DCRRasterFragParamLo: 0x3000,
		abi.DCROMZBufAddr: 0x1000, abi.DCROMZBufPitch: 256, abi.DCROMDepthFunc: uint32(abi.CmpLess), abi.DCROMDepthWriteMask: 1,
		abi.DCROMStencilRef: 4<<16 | 3, abi.DCROMStencilFunc: 0, abi.DCROMStencilMask: 0x00FF00FF,
		abi.DCROMEarlyZSafe: 1, abi.DCROMApertureXBits: 6, abi.DCROMApertureYBits: 6,
		abi.DCROMApertureRecordShift: 2, abi.DCROMApertureDepthOnly: 0,
	}
	for d, v := range checks {
		if got, ok := sh[d]; !ok || got != v {
			t.Errorf("DCR %#x = %#x (%v), want %#x", d, got, ok, v)
		}
	}
	rtChecks := map[[2]uint32]uint32{
		{0, uint32(abi.DCROMCBufAddr)}: 0x400, {0, uint32(abi.DCROMCBufWriteMask)}: 0xF,
		{0, uint32(abi.DCROMBlendConst)}: 0xFF0000FF, {0, uint32(abi.DCROMBlendMode)}: 0,
		{1, uint32(abi.DCROMCBufAddr)}: 0x800, {1, uint32(abi.DCROMCBufWriteMask)}: 4, // R is byte 2 of BGRA
		{1, uint32(abi.DCROMBlendConst)}: 0xFFFF0000,
		{1, uint32(abi.DCROMBlendFunc)}:  abi.PackBlendFunc(abi.BlendSrcA, abi.BlendOne, abi.BlendOneMinusSrcA, abi.BlendZero),
		{0x100, uint32(abi.DCRTexAddr)}:  0x2000, {0x100, uint32(abi.DCRTexLogDim)}: 6<<16 | 6,
		{0x100, uint32(abi.DCRTexFormat)}: uint32(abi.TexA8R8G8B8), {0x100, uint32(abi.DCRTexFilter)}: 3,
		{0x100, uint32(abi.DCRTexMipOff(2))}: 20480,
	}
	for k, v := range rtChecks {
		if got, ok := rt[k]; !ok || got != v {
			t.Errorf("bank %#x DCR %#x = %#x (%v), want %#x", k[0], k[1], got, ok, v)
		}
	}
	// Software units emit no FF DCRs of their own.
	pairs, err = DrawDCRs(st, VariantKey{SWTex: true, SWOM: true, SWRaster: true, Samples: 1}, a)
	if err != nil || len(pairs) != 0 {
		t.Errorf("all-software draw wrote %d DCRs (%v)", len(pairs), err)
	}
	a.Color[0].Addr = 0x10001
	if _, err := DrawDCRs(st, key, a); err == nil {
		t.Error("unaligned colour address accepted")
	}
	// No depth attachment: depth and stencil are off whatever the DSA says.
	st.FB.Zsbuf = nil
	a.Color[0].Addr = 0x10000
	pairs, _ = DrawDCRs(st, key, a)
	sh, _ = dcrMap(pairs)
	if sh[abi.DCROMDepthFunc] != uint32(abi.CmpAlways) || sh[abi.DCROMDepthWriteMask] != 0 {
		t.Errorf("depth without attachment: func %d mask %d", sh[abi.DCROMDepthFunc], sh[abi.DCROMDepthWriteMask])
	}
	if _, ok := sh[abi.DCROMZBufAddr]; ok {
		t.Error("ZBUF_ADDR written without a depth attachment")
	}
}
