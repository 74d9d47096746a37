package abi

import (
	"encoding/binary"
	"math"
	"testing"
)

// spec: vortex-hardware-facts §3.2 (stage numbers SETUP 0 … BSCATTER 8, 40-byte
// setup_vertex_t); our front-end argument block slots.
func TestFrontEndABI(t *testing.T) {
	stages := []uint64{FEStageSetup, FEStageScan, FEStageEmit, FEStageBCount, FEStageBScan,
		FEStageBEmit, FEStageBHist, FEStageBBase, FEStageBScatter}
	for i, s := range stages {
		if s != uint64(i) {
			t.Errorf("stage %d has number %d", i, s)
		}
	}
	if SetupVertexBytes != 40 || FrontEndArgSlots != 31 || Draw3DFragArgsBytes != 32 {
		t.Error("record sizes")
	}
	a := FrontEndArgs{Stage: FEStageBHist, Verts: 0x1000, NumVerts: 3, Tris: 0x2000, NumTris: 1,
		Width: 640, Height: 480, Near: 0.25, Far: 1, Cull: 1, Planes: 2, Slots: 8, SlotBoxes: 9,
		Keep: 10, Offsets: 11, Prims: 12, Boxes: 13, Counters: 14, FragArgs: 15, Cols: 5, Rows: 4,
		BinLog: 7, Counts: 18, Keys: 19, Hist: 20, Base: 21, TBuf: 22, NVar: 8, NFlat: 2, FlatSlots: 24, Flat: 25,
		ViewSX: 40, ViewTX: 60.5, ViewSY: -20, ViewTY: 30, ScissorX: 100<<16 | 3, ScissorY: 90<<16 | 7,
		OffsetFactor: 2, OffsetUnits: -1, OffsetClamp: 0.5, OffsetDepth: FEOffsetOn | 24<<FEOffsetBitsShift}
	b := a.Pack()
	slot := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	for _, tc := range []struct {
		slot int
		want uint64
	}{
		{0, FEStageBHist}, {1, 0x1000}, {2, 3}, {3, 0x2000}, {4, 1}, {5, 480<<32 | 640},
		{6, uint64(math.Float32bits(1))<<32 | uint64(math.Float32bits(0.25))}, {7, 2<<32 | 1},
		{12, 12}, {15, 15}, {16, 4<<32 | 5}, {17, 7}, {22, 22}, {23, 2<<32 | 8}, {25, 25},
		{26, uint64(math.Float32bits(60.5))<<32 | uint64(math.Float32bits(40))},
		{27, uint64(math.Float32bits(30))<<32 | uint64(math.Float32bits(-20))}, {28, (90<<16|7)<<32 | (100<<16 | 3)},
		{29, uint64(math.Float32bits(-1))<<32 | uint64(math.Float32bits(2))}, {30, 0x1801<<32 | uint64(math.Float32bits(0.5))},
	} {
		if got := slot(tc.slot); got != tc.want {
			t.Errorf("slot %d = %#x, want %#x", tc.slot, got, tc.want)
		}
	}
	got, err := UnpackFrontEndArgs(b)
	if err != nil || got != a {
		t.Errorf("round trip %+v, %v", got, err)
	}
	if _, err := UnpackFrontEndArgs(b[:100]); err == nil {
		t.Error("a short block must be refused")
	}
	if FECounterPrims != 0 || FECounterKeys != 1 || FECounterPrecisionLoss != 5 || FECounterFarClipped != 6 || FECounterWords != 7 {
		t.Error("counter words")
	}
}

func TestDraw3DFragArgs(t *testing.T) {
	a := Draw3DFragArgs{DepthEnabled: true, TexModulate: true, PrimAddr: 0x1234_5678_9A, NumPrims: 77}
	b := a.Pack()
	if binary.LittleEndian.Uint64(b) != a.PrimAddr || binary.LittleEndian.Uint32(b[8:]) != 77 ||
		binary.LittleEndian.Uint32(b[12:]) != 1 || binary.LittleEndian.Uint32(b[16:]) != 0 ||
		binary.LittleEndian.Uint32(b[24:]) != 1 {
		t.Errorf("layout % x", b)
	}
	if got, err := UnpackDraw3DFragArgs(b); err != nil || got != a {
		t.Errorf("round trip %+v %v", got, err)
	}
	binary.LittleEndian.PutUint32(b[8:], MaxPrimsPerPass+1)
	if _, err := UnpackDraw3DFragArgs(b); err == nil {
		t.Error("more prims than the pid field addresses must be refused")
	}
}

// TestFrontEndClipFlag pins slot 17's high half: bit 0 is depth clip disable,
// any other bit is refused. spec: vortexpipe-driver §3.7 (depth-clamp row)
func TestFrontEndClipFlag(t *testing.T) {
	a := FrontEndArgs{BinLog: 5, DepthClipDisable: true}
	b := a.Pack()
	if got := binary.LittleEndian.Uint64(b[8*17:]); got != 1<<32|5 {
		t.Errorf("slot 17 = %#x", got)
	}
	if got, err := UnpackFrontEndArgs(b); err != nil || !got.DepthClipDisable || got.BinLog != 5 {
		t.Errorf("round trip %+v %v", got, err)
	}
	binary.LittleEndian.PutUint64(b[8*17:], 2<<32|5)
	if _, err := UnpackFrontEndArgs(b); err == nil {
		t.Error("an undefined slot-17 flag must be refused")
	}
}

// TestFSArgSlots pins the fragment and vertex arg-block slots, routing flags,
// geometry word and counter words. spec: vortexpipe-driver §2.5 (slots 3–8 the
// SW-raster tile-walk geometry; vertex slot 7 unused by the driver table)
func TestFSArgSlots(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want uint64
	}{
		{"tiles", ArgFSTiles, 3}, {"tile count", ArgFSTileCount, 4}, {"boxes", ArgFSBoxes, 5},
		{"geometry", ArgFSGeometry, 6}, {"counters", ArgFSCounters, 7}, {"flags", ArgFSFlags, 8},
		{"desc after the SW slots", ArgFSDesc, ArgFSFlags + 1},
		{"sw raster", FSFlagSWRaster, 1}, {"sw om", FSFlagSWOM, 2}, {"sw tex", FSFlagSWTex, 4}, {"per sample", FSFlagPerSample, 8},
		{"bgra shift", FSFlagBGRAShift, 8}, {"targets shift", FSFlagTargetsShift, 16},
		{"sample drop shift", FSFlagSampleDropShift, 32}, {"sample drop mask", FSFlagSampleDropMask, 0xFFFF},
		{"fragments", FSCounterFragments, 0}, {"merged", FSCounterMerged, 1}, {"passed", FSCounterPassed, 2},
		{"quads", FSCounterQuads, 3}, {"waves", FSCounterWaves, 4}, {"counter words", FSCounterWords, 5},
		{"vs sw sampler", ArgVSSWSampler, 7},
		{"geometry packing", FSGeometry{Width: 640, Height: 480, Samples: 4, BinLog: 7}.Pack(), 7<<40 | 4<<32 | 480<<16 | 640},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.name, tc.got, tc.want)
		}
	}
	for _, s := range []int{ArgVSOutput, ArgVSAttribTable, ArgVSIndexBuffer, ArgVSVertsPerInst, ArgVSBaseInstance, ArgVSBaseVertex, ArgVSCount, ArgVSDescTable} {
		if s == ArgVSSWSampler {
			t.Errorf("vertex slot %d is taken twice", s)
		}
	}
	g := FSGeometry{Width: 4096, Height: 2048, Samples: 1, BinLog: 4}
	if UnpackFSGeometry(g.Pack()) != g {
		t.Error("geometry round trip")
	}
}

// TestSideArrayWords pins the side-array stride: a flat region of at least 12
// words, then three per varying word beyond the 12 planes.
// spec: vortexpipe-driver §3.4
func TestSideArrayWords(t *testing.T) {
	for _, tc := range []struct{ nvar, nflat, want int }{{0, 0, 12}, {12, 3, 12}, {13, 0, 15}, {16, 12, 24}, {4, 13, 13}, {14, 20, 26},
		{12 + MaxExtraVaryings, MaxFlatWords, 64 + 3*52}} {
		if got := SideArrayWords(tc.nvar, tc.nflat); got != tc.want {
			t.Errorf("SideArrayWords(%d, %d) = %d, want %d", tc.nvar, tc.nflat, got, tc.want)
		}
	}
	if SideFlatWords(5) != FlatSideWords || SideFlatWords(30) != 30 {
		t.Error("flat region")
	}
}

// TestFEPlanesPacking pins FrontEndArgs.Planes: the convention in bits 0..7, the
// clip-distance enable mask in bits 8..15, reserved bits refused.
// spec: vortexpipe §3.2 (setup_k); docs/ABI.md row 30
func TestFEPlanesPacking(t *testing.T) {
	for _, tc := range []struct {
		conv, mask uint8
		word       uint32
	}{{0, 0, 0}, {2, 0, 2}, {2, 0x01, 0x102}, {1, 0xFF, 0xFF01}, {2, 0x81, 0x8102}} {
		if got := PackFEPlanes(tc.conv, tc.mask); got != tc.word {
			t.Errorf("PackFEPlanes(%d, %#x) = %#x, want %#x", tc.conv, tc.mask, got, tc.word)
		}
		c, m, ok := SplitFEPlanes(tc.word)
		if c != tc.conv || m != tc.mask || !ok {
			t.Errorf("SplitFEPlanes(%#x) = %d, %#x, %v", tc.word, c, m, ok)
		}
	}
	if _, _, ok := SplitFEPlanes(1 << 16); ok {
		t.Error("reserved bit 16 accepted")
	}
}
