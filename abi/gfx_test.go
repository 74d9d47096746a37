package abi

import (
	"bytes"
	"math"
	"testing"
)

// spec: vortex-hardware-facts §2 (DCR map); rasterizer §4
func TestDCRMap(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  DCR
		want DCR
		unit DCRUnit
	}{
		{"CACHE_FLUSH", DCRCacheFlush, 0x000, UnitBase}, {"MPM_VALUE", DCRMPMValue, 0x001, UnitBase},
		{"STARTUP_ADDR0", DCRStartupAddr0, 0x010, UnitKMU}, {"KERNEL_ENTRY0", DCRKernelEntry0, 0x012, UnitKMU},
		{"STARTUP_ARG0", DCRStartupArg0, 0x014, UnitKMU}, {"BLOCK_DIM_X", DCRBlockDimX, 0x016, UnitKMU},
		{"GRID_DIM_X", DCRGridDimX, 0x019, UnitKMU}, {"LMEM_SIZE", DCRLMemSize, 0x01C, UnitKMU},
		{"BLOCK_SIZE", DCRBlockSize, 0x01D, UnitKMU}, {"WARP_STEP_X", DCRWarpStepX, 0x01E, UnitKMU},
		{"CLUSTER_DIM_Z", DCRClusterDimZ, 0x023, UnitKMU},
		{"TEX_STAGE", DCRTexStage, 0x040, UnitTEX}, {"TEX_ADDR", DCRTexAddr, 0x041, UnitTEX},
		{"TEX_LOGDIM", DCRTexLogDim, 0x042, UnitTEX}, {"TEX_FORMAT", DCRTexFormat, 0x043, UnitTEX},
		{"TEX_FILTER", DCRTexFilter, 0x044, UnitTEX}, {"TEX_WRAP", DCRTexWrap, 0x045, UnitTEX},
		{"TEX_MIPOFF(0)", DCRTexMipOff(0), 0x046, UnitTEX}, {"TEX_MIPOFF(15)", DCRTexMipOff(15), 0x055, UnitTEX},
		{"TEX_BORDER", DCRTexBorder, 0x056, UnitTEX},
		{"RASTER_TBUF_ADDR", DCRRasterTBufAddr, 0x060, UnitRASTER}, {"RASTER_TILE_COUNT", DCRRasterTileCount, 0x061, UnitRASTER},
		{"RASTER_PBUF_ADDR", DCRRasterPBufAddr, 0x062, UnitRASTER}, {"RASTER_PBUF_STRIDE", DCRRasterPBufStride, 0x063, UnitRASTER},
		{"RASTER_SCISSOR_X", DCRRasterScissorX, 0x064, UnitRASTER}, {"RASTER_SCISSOR_Y", DCRRasterScissorY, 0x065, UnitRASTER},
		{"RASTER_FRAG_ENTRY_LO", DCRRasterFragEntryLo, 0x066, UnitRASTER}, {"RASTER_FRAG_ENTRY_HI", DCRRasterFragEntryHi, 0x067, UnitRASTER},
		{"RASTER_FRAG_PARAM_LO", DCRRasterFragParamLo, 0x068, UnitRASTER}, {"RASTER_FRAG_PARAM_HI", DCRRasterFragParamHi, 0x069, UnitRASTER},
		{"OM_CBUF_ADDR", DCROMCBufAddr, 0x080, UnitOM}, {"OM_CBUF_PITCH", DCROMCBufPitch, 0x081, UnitOM},
		{"OM_CBUF_WRITEMASK", DCROMCBufWriteMask, 0x082, UnitOM}, {"OM_ZBUF_ADDR", DCROMZBufAddr, 0x083, UnitOM},
		{"OM_ZBUF_PITCH", DCROMZBufPitch, 0x084, UnitOM}, {"OM_DEPTH_FUNC", DCROMDepthFunc, 0x085, UnitOM},
		{"OM_DEPTH_WRITEMASK", DCROMDepthWriteMask, 0x086, UnitOM}, {"OM_STENCIL_FUNC", DCROMStencilFunc, 0x087, UnitOM},
		{"OM_STENCIL_ZPASS", DCROMStencilZPass, 0x088, UnitOM}, {"OM_STENCIL_ZFAIL", DCROMStencilZFail, 0x089, UnitOM},
		{"OM_STENCIL_FAIL", DCROMStencilFail, 0x08A, UnitOM}, {"OM_STENCIL_REF", DCROMStencilRef, 0x08B, UnitOM},
		{"OM_STENCIL_MASK", DCROMStencilMask, 0x08C, UnitOM}, {"OM_STENCIL_WRITEMASK", DCROMStencilWriteMask, 0x08D, UnitOM},
		{"OM_BLEND_MODE", DCROMBlendMode, 0x08E, UnitOM}, {"OM_BLEND_FUNC", DCROMBlendFunc, 0x08F, UnitOM},
		{"OM_BLEND_CONST", DCROMBlendConst, 0x090, UnitOM}, {"OM_LOGIC_OP", DCROMLogicOp, 0x091, UnitOM},
		{"OM_EARLYZ_SAFE", DCROMEarlyZSafe, 0x092, UnitOM}, {"OM_APERTURE_XBITS", DCROMApertureXBits, 0x093, UnitOM},
		{"OM_APERTURE_YBITS", DCROMApertureYBits, 0x094, UnitOM}, {"OM_APERTURE_RECORD_SHIFT", DCROMApertureRecordShift, 0x095, UnitOM},
		{"OM_APERTURE_DEPTH_ONLY", DCROMApertureDepthOnly, 0x096, UnitOM}, {"OM_RT_SELECT", DCROMRTSelect, 0x097, UnitOM},
		{"RTU CONFIG", DCRRTUFirst, 0x0A0, UnitRTU}, {"DXA first", DCRDXAFirst, 0x100, UnitDXA},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = 0x%03X, want 0x%03X", tc.name, tc.got, tc.want)
		}
		if u := UnitOf(tc.got); u != tc.unit {
			t.Errorf("%s decoded by %v, want %v", tc.name, u, tc.unit)
		}
	}
	for _, d := range []DCR{0x002, 0x00F, 0x024, 0x03F, 0x057, 0x06A, 0x07F, 0x098, 0x0A7, 0x0FF, 0x280, 0xFFF} {
		if UnitOf(d) != UnitNone {
			t.Errorf("0x%03X should be unmapped, got %v", d, UnitOf(d))
		}
	}
	perRT := map[DCR]bool{DCROMCBufAddr: true, DCROMCBufPitch: true, DCROMCBufWriteMask: true,
		DCROMBlendMode: true, DCROMBlendFunc: true, DCROMBlendConst: true, DCROMLogicOp: true}
	for d := DCROMCBufAddr; d < DCROMEnd; d++ {
		if OMPerRT(d) != perRT[d] {
			t.Errorf("OM 0x%03X per-RT = %v", d, OMPerRT(d))
		}
	}
}

// spec: vortex-hardware-facts §2 (field encodings)
func TestFieldPackings(t *testing.T) {
	if b, err := BlockAddr(0x12340); err != nil || b != 0x48D {
		t.Errorf("BlockAddr = 0x%X, %v", b, err)
	}
	if _, err := BlockAddr(0x12341); err == nil {
		t.Error("unaligned block address must fail")
	}
	if ByteAddr(0x48D) != 0x12340 {
		t.Error("ByteAddr")
	}
	if w, err := PackScissor(0, 128); err != nil || w != 128<<16 {
		t.Errorf("draw3d scissor (width << 16) | 0 = 0x%X, %v", w, err)
	}
	if _, err := PackScissor(0, 65536); err == nil {
		t.Error("a 65536-pixel framebuffer must not wrap the 16-bit scissor (vortexpipe §3.8)")
	}
	if lo, hi := UnpackScissor(0x00800010); lo != 0x10 || hi != 0x80 {
		t.Errorf("UnpackScissor %d %d", lo, hi)
	}
	if PackHalves(0x12, 0x34) != 0x00340012 {
		t.Error("stencil front low, back high")
	}
	if w := PackBlendFunc(BlendSrcA, BlendOne, BlendOneMinusSrcA, BlendZero); w != 0x00070106 {
		t.Errorf("BLEND_FUNC 0x%08X", w)
	}
	if PackTexLogDim(8, 7) != 7<<16|8 || PackTexWrap(WrapRepeat, WrapMirror) != 2<<16|1 {
		t.Error("TEX_LOGDIM / TEX_WRAP packing")
	}
	for _, tc := range []struct{ m, want uint32 }{{0xF, 0xFFFFFFFF}, {0x1, 0xFF}, {0x8, 0xFF000000}, {0x6, 0x00FFFF00}} {
		if got := ExpandWriteMask(tc.m); got != tc.want {
			t.Errorf("ExpandWriteMask(0x%X) = 0x%08X, want 0x%08X", tc.m, got, tc.want)
		}
	}
}

// spec: vortex-hardware-facts §4, §5 (enumerations)
func TestFFEnums(t *testing.T) {
	for _, tc := range []struct {
		f      TexFormat
		code   uint32
		stride int
		ff     bool
	}{
		{TexA8R8G8B8, 0, 4, true}, {TexR5G6B5, 1, 2, true}, {TexA1R5G5B5, 2, 2, true},
		{TexA4R4G4B4, 3, 2, true}, {TexA8L8, 4, 2, true}, {TexL8, 5, 1, true}, {TexA8, 6, 1, true},
		{TexSRGB8A8, 8, 4, false}, {TexRGBA32F, 16, 16, false}, {TexD32F, 18, 4, false},
	} {
		if uint32(tc.f) != tc.code || tc.f.Stride() != tc.stride || tc.f.FixedFunction() != tc.ff {
			t.Errorf("%v: code %d stride %d ff %v", tc.f, uint32(tc.f), tc.f.Stride(), tc.f.FixedFunction())
		}
	}
	if WrapClamp != 0 || WrapRepeat != 1 || WrapMirror != 2 || WrapBorder != 3 {
		t.Error("wrap codes")
	}
	// The OM's code tables (the behaviour is gl/compare's, gl/stencil's and
	// gl/logicop's, tested there).
	for i, f := range []CompareFunc{CmpAlways, CmpNever, CmpLess, CmpLEqual, CmpEqual, CmpGEqual, CmpGreater, CmpNotEqual} {
		if uint32(f) != uint32(i) {
			t.Errorf("compare %v has code %d, want %d", f, uint32(f), i)
		}
	}
	for i, op := range []StencilOp{StencilKeep, StencilZero, StencilReplace, StencilIncr, StencilDecr, StencilInvert, StencilIncrWrap, StencilDecrWrap} {
		if uint32(op) != uint32(i) {
			t.Errorf("stencil op code %d, want %d", uint32(op), i)
		}
	}
	for i, op := range []LogicOp{LogicClear, LogicAnd, LogicAndReverse, LogicCopy, LogicAndInverted, LogicNoop, LogicXor, LogicOr,
		LogicNor, LogicEquiv, LogicInvert, LogicOrReverse, LogicCopyInverted, LogicOrInverted, LogicNand, LogicSet} {
		if uint32(op) != uint32(i) {
			t.Errorf("logic op code %d, want %d", uint32(op), i)
		}
	}
	if NumBlendFactors != 15 || BlendAlphaSat != 14 || BlendLogicOp != 5 {
		t.Error("blend enumerations")
	}
	want := [4][2]int{{6, 2}, {14, 6}, {2, 10}, {10, 14}}
	for i := range want {
		if x, y := MSAA4Sample(i); x != want[i][0] || y != want[i][1] {
			t.Errorf("sample %d = (%d,%d)", i, x, y)
		}
	}
}

// spec: rasterizer §2.2, §2.3 (bin header and rast_prim_t layout)
func TestRasterLayouts(t *testing.T) {
	h := BinHeader{BinX: 3, BinY: 5, PidsOffset: 0x01020304, PidsCount: 9}
	var b [12]byte
	h.Put(b[:])
	if !bytes.Equal(b[:], []byte{3, 0, 5, 0, 4, 3, 2, 1, 9, 0, 0, 0}) {
		t.Errorf("header bytes % x", b)
	}
	if DecodeBinHeader(b[:]) != h {
		t.Error("header round trip")
	}
	if PidsBase(0x1000, 4) != 0x1000+48 {
		t.Error("pids_base = tbuf + num_bins × 12")
	}
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"sizeof(rast_prim_t)", PrimBytes, 212}, {"edges word", PrimEdgesWord, 0},
		{"z plane word", PlaneZ.Word(), 9}, {"r plane word", PlaneR.Word(), 12},
		{"g", PlaneG.Word(), 15}, {"b", PlaneB.Word(), 18}, {"a", PlaneA.Word(), 21},
		{"u", PlaneU.Word(), 24}, {"v", PlaneV.Word(), 27}, {"rhw", PlaneRHW.Word(), 30},
		{"w0", PlaneW0.Word(), 33}, {"w5", PlaneW5.Word(), 48}, {"facing word", PrimFacingWord, 51},
		{"rhw_scale word", PrimRHWScaleW, 52}, {"raster slice", RasterVisibleWords, 9},
		{"raster slice early-Z", RasterVisibleWordsEarlyZ, 12}, {"pid bits", PidBits, 16},
		{"sort key pid bits", PipePrimBits, 20}, {"bin log size", DefaultBinLogSize, 7},
		{"block log size", DefaultBlockLogSize, 2},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	if PlaneW5.Word()+3 != PrimFacingWord {
		t.Error("planes must end where facing starts (word 51)")
	}
	order := []PrimPlane{PlaneU, PlaneV, PlaneR, PlaneG, PlaneB, PlaneA, PlaneW0, PlaneW1, PlaneW2, PlaneW3, PlaneW4, PlaneW5}
	for i, p := range order {
		if VaryingPlane(i) != p {
			t.Errorf("varying %d on plane %v, want %v", i, VaryingPlane(i), p)
		}
	}
}

// spec: rasterizer §2.4, §11; vortex-hardware-facts §3.1
func TestStampAndFragPos(t *testing.T) {
	s := Stamp{QX: 0x3FFF, QY: 0x1234, Mask: 0xA, PID: 0xBEEF}
	w := s.Pack()
	if w>>34 != 0x3FFF || w>>20&0x3FFF != 0x1234 || w>>16&0xF != 0xA || w&0xFFFF != 0xBEEF || w>>48 != 0 {
		t.Errorf("stamp 0x%012X", w)
	}
	if UnpackStamp(w) != s {
		t.Error("stamp round trip")
	}
	p, err := PackFragPos(0x1234, 0x7FFF, true)
	if err != nil || p != 0x80000000|0x7FFF<<16|0x1234 {
		t.Errorf("FRAG_POS 0x%08X %v", p, err)
	}
	if x, y, c := UnpackFragPos(p); x != 0x1234 || y != 0x7FFF || !c {
		t.Error("FRAG_POS round trip")
	}
	if _, err := PackFragPos(0, 0x8000, false); err == nil {
		t.Error("y beyond 15 bits must fail")
	}
	for lane, want := range [][2]int{{10, 20}, {11, 20}, {10, 21}, {11, 21}} {
		if x, y := LanePixel(5, 10, lane); x != want[0] || y != want[1] {
			t.Errorf("lane %d at (%d,%d)", lane, x, y)
		}
	}
	if CSRFragPos != 0xCE2 || CSRFragPID != 0xCE3 || CSRCTAEntry != 0xCE1 {
		t.Error("FRAG CSR numbers")
	}
	// owner = ((qx >> 6) + (qy >> 6)) % cores with 128-pixel bins
	if RasterOwner(64, 0, 7, 4) != 1 || RasterOwner(63, 63, 7, 4) != 0 || RasterOwner(128, 64, 7, 2) != 1 {
		t.Error("raster owner")
	}
	// (tile_count + N − 1 − i) >> log2 N
	for _, tc := range []struct{ tiles, i, n, want int }{{10, 0, 4, 3}, {10, 1, 4, 3}, {10, 2, 4, 2}, {10, 3, 4, 2}, {1, 1, 2, 0}, {7, 0, 1, 7}} {
		if got := EngineBinCount(tc.tiles, tc.i, tc.n); got != tc.want {
			t.Errorf("EngineBinCount(%d,%d,%d) = %d", tc.tiles, tc.i, tc.n, got)
		}
	}
}

// spec: rasterizer §2.1; vortex-hardware-facts §3.1 (truncating conversion)
func TestFixedPoint(t *testing.T) {
	for _, tc := range []struct {
		f    float32
		frac uint
		raw  int32
		ok   bool
	}{
		{1, FracE, 1 << 16, true}, {-1.5, FracE, -3 << 15, true},
		{0.99999994, FracE, 65535, true},     // truncation, not rounding
		{-0.99999994, FracE, -65535, true},   // toward zero
		{1.0 / 3, FracA, 5592405, true},      // 0x555555
		{127.99999, FracA, 2147483520, true}, // largest Q7.24 region
		{128, FracA, math.MaxInt32, false},   // saturates, flagged
		{-129, FracA, math.MinInt32, false},  // saturates, flagged
		{float32(math.NaN()), FracE, 0, false},
		{1, FracTex, 1 << 23, true},
	} {
		raw, ok := FixedFromFloat(tc.f, tc.frac)
		if raw != tc.raw || ok != tc.ok {
			t.Errorf("FixedFromFloat(%v, %d) = %d, %v; want %d, %v", tc.f, tc.frac, raw, ok, tc.raw, tc.ok)
		}
	}
	// Round trips are exact for values representable in the format.
	for _, f := range []float32{0, 0.5, -2.25, 100.125, -32767.5} {
		q, _ := ToQ15_16(f)
		if q.Float() != f {
			t.Errorf("Q15.16 round trip %v -> %v", f, q.Float())
		}
	}
	if FixedMul(3<<24, 1<<23, FracA) != 3<<23 || FixedMul(-1<<24, 1<<24, FracA) != -1<<24 {
		t.Error("fixed × fixed is (a·b) >> F")
	}
	if FixedShift(1<<16, FracE, FracA) != 1<<24 || FixedShift(-3<<24, FracA, FracE) != -3<<16 {
		t.Error("conversion between F values is a shift")
	}
	if Q7_24(1<<24).TexCoord() != 1<<23 || Q7_24(-2).TexCoord() != -1 {
		t.Error("Q7.24 to S.23 is a right shift by one")
	}
}

// spec: vortex-hardware-facts §7 (MPM_VALUE tag)
func TestMPMTag(t *testing.T) {
	tag := MPMTag(MPMRaster, CSRRasterReads, 3, false)
	if tag != 12<<22|3<<16|3 {
		t.Errorf("tag 0x%08X", tag)
	}
	if hi := MPMTag(MPMOM, CSROMWrites, 0, true); hi != 14<<22|(4+32)<<16 {
		t.Errorf("high-word tag 0x%08X", hi)
	}
	c, csr, core, high := DecodeMPMTag(MPMTag(MPMTex, CSRTexCacheMSHRSt, 7, true))
	if c != MPMTex || csr != 0xB09 || core != 7 || !high {
		t.Errorf("decode %v %X %d %v", c, csr, core, high)
	}
	if MPMRaster != 12 || MPMTex != 13 || MPMOM != 14 || CSRMCycle != 0xB00 || CSRMInstret != 0xB02 {
		t.Error("MPM classes and CSRs")
	}
}

// spec: vortexpipe §2.2; vortex-hardware-facts §5 (aperture address formula)
func TestAperture(t *testing.T) {
	a, err := NewAperture(250, 250, 1, RecordShiftColorZ)
	if err != nil {
		t.Fatal(err)
	}
	if a.XBits != 8 || a.YBits != 8 {
		t.Errorf("bits %d %d", a.XBits, a.YBits)
	}
	addr := a.Addr(0, 1, 17, 33)
	want := uint64(0xE0000000) + ((((0<<1)|1)<<16 | 33<<8 | 17) << 3)
	if addr != want {
		t.Errorf("aperture 0x%X, want 0x%X", addr, want)
	}
	if rt, face, x, y, ok := a.Decode(addr); !ok || rt != 0 || face != 1 || x != 17 || y != 33 {
		t.Error("aperture decode")
	}
	if UnpackAperture(a.Pack()) != a {
		t.Error("slot-11 packing round trip")
	}
	if _, err := NewAperture(8192, 8192, 4, RecordShiftColorZ); err == nil {
		t.Error("a framebuffer that overflows the aperture must be refused")
	}
	if CeilLog2(1) != 0 || CeilLog2(2) != 1 || CeilLog2(3) != 2 || CeilLog2(128) != 7 || CeilLog2(129) != 8 {
		t.Error("CeilLog2")
	}
	if InterlockBucket(9, 3) != 3<<3|1 {
		t.Error("interlock bucket {y[2:0], x[2:0]}")
	}
}

// spec: vortexpipe §2.4 (link bases), §2.5 (arg-block slots), §2.3.4 (encodings);
// vortex-hardware-facts §6, §9 item 15
func TestArgBlocksAndEncodings(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"VP_ARG_SLOTS", ArgSlots, 9},
		{"CS push constants", ArgCSPushConstants, 0}, {"CS set-0 descriptors", ArgCSDescSet0, 1},
		{"CS dispatch base xy", ArgCSBaseXY, 2}, {"CS dispatch base z", ArgCSBaseZ, 3}, {"CS SSBO base", ArgCSSSBOBase, 4}, {"CS software-sampler table", ArgCSSWSampler, 8},
		{"VS output records", ArgVSOutput, 0}, {"VS attribute table", ArgVSAttribTable, 1},
		{"VS index buffer", ArgVSIndexBuffer, 2}, {"VS verts per instance", ArgVSVertsPerInst, 3},
		{"VS base instance", ArgVSBaseInstance, 4}, {"VS base vertex", ArgVSBaseVertex, 5},
		{"VS count", ArgVSCount, 6}, {"VS desc table", ArgVSDescTable, 8}, {"attrib table locs", VSAttribTableLocs, 8}, {"GL_MAX_VERTEX_ATTRIBS", VSMaxAttribs, 16},
		{"attrib table bytes, no attributes", VSAttribTableBytes(0), 192}, {"attrib table bytes, 8", VSAttribTableBytes(8), 192},
		{"attrib table bytes, 12", VSAttribTableBytes(12), 288}, {"attrib table bytes, 16", VSAttribTableBytes(16), 384},
		{"FS prim buffer", ArgFSPrimBuffer, 0}, {"FS SW sampler", ArgFSSWSampler, 1}, {"FS SW merger", ArgFSSWMerger, 2},
		{"FS SW raster", ArgFSSWRasterBase, 3}, {"GFX_FS_ARG_DESC", ArgFSDesc, 9}, {"GFX_FS_ARG_MRT", ArgFSMRT, 10},
		{"GFX_FS_ARG_APERTURE", ArgFSAperture, 11}, {"GFX_FS_ARG_FLAT", ArgFSFlat, 12},
		{"FS line coverage", ArgFSLineCover, 13}, {"FS arg slots", ArgFSSlots, 14}, {"line coverage record", LineCoverBytes, 28}, {"line coverage exact flag", int(LineCoverExact), 1}, {"line coverage sub-pixel", LineCoverSubPixel, 256},
		{"desc table slots", FSDescSlots, 8}, {"VP_MAX_DESCS", MaxDescriptorsPerSh, 16}, {"flat words per prim", FlatSideWords, 12},
		{"FS link base", LinkBaseFS, 0x8000_0000}, {"front-end link base", LinkBaseFrontEnd, 0x8020_0000},
		{"VS link base", LinkBaseVS, 0x8040_0000}, {"aperture base", ApertureBase, 0xE000_0000},
		{"custom-0", OpcodeCustom0, 0x0B}, {"custom-1", OpcodeCustom1, 0x2B}, {"barrier funct3", Funct3Barrier, 4},
		{"quad shuffle funct3", Funct3QuadShuffle, 6}, {"om_export funct3", Funct3OMExport, 3}, {"tex funct3", Funct3Tex, 5},
		{"OM_RT_IDX", CSROMRTIdx, 0x7CE}, {"OM_SAMPLE_IDX", CSROMSampleIdx, 0x7CF},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d (0x%X), want %d (0x%X)", tc.name, tc.got, tc.got, tc.want, tc.want)
		}
	}
}
