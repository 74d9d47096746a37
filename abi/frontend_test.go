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
	if SetupVertexBytes != 40 || FrontEndArgSlots != 26 || Draw3DFragArgsBytes != 32 {
		t.Error("record sizes")
	}
	a := FrontEndArgs{Stage: FEStageBHist, Verts: 0x1000, NumVerts: 3, Tris: 0x2000, NumTris: 1,
		Width: 640, Height: 480, Near: 0.25, Far: 1, Cull: 1, Planes: 2, Slots: 8, SlotBoxes: 9,
		Keep: 10, Offsets: 11, Prims: 12, Boxes: 13, Counters: 14, FragArgs: 15, Cols: 5, Rows: 4,
		BinLog: 7, Counts: 18, Keys: 19, Hist: 20, Base: 21, TBuf: 22, NVar: 8, NFlat: 2, FlatSlots: 24, Flat: 25}
	b := a.Pack()
	slot := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	for _, tc := range []struct {
		slot int
		want uint64
	}{
		{0, FEStageBHist}, {1, 0x1000}, {2, 3}, {3, 0x2000}, {4, 1}, {5, 480<<32 | 640},
		{6, uint64(math.Float32bits(1))<<32 | uint64(math.Float32bits(0.25))}, {7, 2<<32 | 1},
		{12, 12}, {15, 15}, {16, 4<<32 | 5}, {17, 7}, {22, 22}, {23, 2<<32 | 8}, {25, 25},
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
	if FECounterPrims != 0 || FECounterKeys != 1 || FECounterWords != 6 {
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
