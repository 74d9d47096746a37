package abi

import (
	"encoding/binary"
	"testing"
)

// spec: command-processor §2.3 (QMD {u32 count, count × (u32 dcr_addr, u32 value)},
// 64-pair backstop); vortex-hardware-facts §1.3 (addresses masked to 12 bits)
func TestQMD(t *testing.T) {
	pairs := []DCRPair{{DCRStartupAddr0, 0x80000000}, {DCRGridDimX, 7}}
	b, err := EncodeQMD(pairs)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 4+8*2 || binary.LittleEndian.Uint32(b) != 2 {
		t.Fatalf("descriptor % x", b)
	}
	for i, p := range pairs {
		if got := DecodeQMDPair(b[4:], i); got != p {
			t.Errorf("pair %d = %+v, want %+v", i, got, p)
		}
	}
	binary.LittleEndian.PutUint32(b[4:], 0xF060)
	if got := DecodeQMDPair(b[4:], 0).Addr; got != 0x060 {
		t.Errorf("address not masked to 12 bits: 0x%X", got)
	}
	for _, tc := range []struct{ raw, want uint32 }{{0, 0}, {64, 64}, {65, 64}, {0xFFFFFFFF, 64}} {
		if got := QMDCount(tc.raw); got != int(tc.want) {
			t.Errorf("QMDCount(%d) = %d, want %d", tc.raw, got, tc.want)
		}
	}
	if _, err := EncodeQMD(make([]DCRPair, 65)); err == nil {
		t.Error("65 pairs must be refused, not truncated")
	}
}

// spec: command-processor §8.1 ({u32 num_steps, 28-byte steps}, 256 clamp)
func TestDrawDescriptor(t *testing.T) {
	steps := []Command{DCRWrite(DCRRasterTileCount, 4), LaunchQMD(0x2000), CacheFlush(4)}
	b, err := EncodeDraw(steps)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 4+28*3 || binary.LittleEndian.Uint32(b) != 3 {
		t.Fatalf("descriptor length %d", len(b))
	}
	for i, s := range steps {
		if got := CommandFromStep28(b[4+28*i:]); got != s {
			t.Errorf("step %d = %+v, want %+v", i, got, s)
		}
	}
	for _, tc := range []struct{ raw, want uint32 }{{1, 1}, {256, 256}, {257, 256}, {0xFFFFFFFF, 256}} {
		if got := DrawStepCount(tc.raw); got != int(tc.want) {
			t.Errorf("DrawStepCount(%d) = %d, want %d", tc.raw, got, tc.want)
		}
	}
	for _, tc := range []struct {
		op   Opcode
		runs bool
	}{
		{OpLaunch, true}, {OpLaunchQMD, true}, {OpDCRWrite, true}, {OpDCRRead, true}, {OpCacheFlush, true},
		{OpNop, false}, {OpFence, false}, {OpMemWrite, false}, {OpMemRead, false}, {OpMemCopy, false},
		{OpEventSignal, false}, {OpEventWait, false}, {OpDraw, false},
	} {
		if DrawStepExecutes(tc.op) != tc.runs {
			t.Errorf("%v inside a bundle executes = %v", tc.op, !tc.runs)
		}
	}
	if _, err := EncodeDraw([]Command{Fence(0)}); err == nil {
		t.Error("a step the CP ignores must be refused")
	}
	if _, err := EncodeDraw(make([]Command, 257)); err == nil {
		t.Error("257 steps must be refused")
	}
}

// spec: vortex-hardware-facts §1.4 (the 20-write launch order and WARP_STEP formulas)
func TestLaunchDCRs(t *testing.T) {
	l := LaunchInfo{StartupAddr: 0x80000000, KernelEntry: 0x80000100, Args: 0x1_0000_0040, NDim: 2,
		Grid: [3]uint32{8, 4, 0}, Block: [3]uint32{3, 5, 0}, LMemSize: 1024}
	got := LaunchDCRs(l, 16)
	want := []DCRPair{
		{DCRStartupAddr0, 0x80000000}, {DCRStartupAddr1, 0},
		{DCRKernelEntry0, 0x80000100}, {DCRKernelEntry1, 0},
		{DCRStartupArg0, 0x40}, {DCRStartupArg1, 1},
		{DCRBlockDimX, 3}, {DCRBlockDimY, 5}, {DCRBlockDimZ, 1},
		{DCRGridDimX, 8}, {DCRGridDimY, 4}, {DCRGridDimZ, 1},
		{DCRLMemSize, 1024}, {DCRBlockSize, 15},
		{DCRWarpStepX, 16 % 3}, {DCRWarpStepY, (16 / 3) % 5}, {DCRWarpStepZ, 0},
		{DCRClusterDimX, 1}, {DCRClusterDimY, 1}, {DCRClusterDimZ, 1},
	}
	if len(got) != 20 {
		t.Fatalf("%d writes, want 20", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("write %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// The escape hatches skip whole groups.
	if n := len(LaunchDCRs(LaunchInfo{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{1}}, 4)); n != 14 {
		t.Errorf("no kernel, no args: %d writes, want 14", n)
	}
	if n := len(LaunchDCRs(LaunchInfo{StartupAddr: 1, KernelEntry: 1}, 4)); n != 4 {
		t.Errorf("ndim 0: %d writes, want 4", n)
	}
	if s := WarpSteps(4, [3]uint32{2, 2, 4}, 3); s != [3]uint32{0, 0, 1} {
		t.Errorf("WarpSteps(4, 2x2x4) = %v", s)
	}
}
