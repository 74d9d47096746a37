package frontend

import (
	"encoding/binary"
	"testing"

	"vortexgfx/abi"
)

// TestBEmitKernelKeysAndAccesses: binning_k's BEMIT stage stores exactly the
// host BEmit's keys (with the primitive's pid in the low bits) at each
// primitive's scanned offset, leaves the words past the last key alone, and
// counts one device access per word it reads or stores: per CTA the argument
// block and the primitive count, per primitive its four box words and its
// offset, and one per key stored. The access count feeds the core cost model
// (LaunchStats.MemOps), so batching the key stores must not change it.
// spec: rasterizer §3.1 (BEMIT)
func TestBEmitKernelKeysAndAccesses(t *testing.T) {
	const ctas = 3
	r := newKernelRig(t)
	g, err := NewBinGrid(100, 70, 4) // 7×5 bins, the last column and row partial
	if err != nil {
		t.Fatal(err)
	}
	boxes := []BBox{
		{0, 16, 0, 16},    // one bin
		{0, 100, 0, 70},   // every bin
		{10, 40, 20, 30},  // a row of three
		{99, 100, 69, 70}, // the corner bin
		{15, 17, 15, 17},  // four bins around a corner
		{33, 34, 2, 66},   // a column
		{0, 1, 0, 1},
	}
	n := len(boxes)
	counts := make([]uint32, n)
	BCount(g, boxes, counts)
	offs := make([]uint32, n+1)
	total := BScan(counts, offs)
	want := make([]uint32, total)
	if err := BEmit(g, boxes, offs, want); err != nil {
		t.Fatal(err)
	}
	alloc := func(size int) uint64 {
		a, err := r.m.Alloc(uint64(size), 64)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	const guard = 8 // words past the last key that BEMIT must not touch
	a := Args{Stage: abi.FEStageBEmit, Width: 100, Height: 70, Far: 1, Cols: uint32(g.Cols), Rows: uint32(g.Rows), BinLog: 4,
		Boxes: alloc(n * BBoxBytes), Offsets: alloc(4 * (n + 1)), Keys: alloc(4 * (int(total) + guard)),
		Counters: alloc(4 * abi.FECounterWords)}
	bb := make([]byte, n*BBoxBytes)
	for i, b := range boxes {
		for k, w := range [4]uint32{b.L, b.R, b.T, b.B} {
			binary.LittleEndian.PutUint32(bb[i*BBoxBytes+4*k:], w)
		}
	}
	ob := make([]byte, 4*(n+1))
	for i, o := range offs {
		binary.LittleEndian.PutUint32(ob[4*i:], o)
	}
	cb := make([]byte, 4*abi.FECounterWords)
	binary.LittleEndian.PutUint32(cb[4*abi.FECounterPrims:], uint32(n))
	kb := make([]byte, 4*(int(total)+guard))
	for i := range kb {
		kb[i] = 0xA5
	}
	args := alloc(8 * abi.FrontEndArgSlots)
	for _, w := range []struct {
		addr uint64
		b    []byte
	}{{a.Boxes, bb}, {a.Offsets, ob}, {a.Counters, cb}, {a.Keys, kb}, {args, a.Pack()}} {
		if err := r.m.Write(w.addr, w.b); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.launchGrid("binning_k", args, ctas); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(kb))
	if err := r.m.Read(a.Keys, got); err != nil {
		t.Fatal(err)
	}
	k := 0
	for pid := range boxes {
		for range counts[pid] {
			w := want[k]&^(1<<abi.PipePrimBits-1) | uint32(pid)
			if g := binary.LittleEndian.Uint32(got[4*k:]); g != w {
				t.Errorf("key %d (pid %d): got %#x, want %#x", k, pid, g, w)
			}
			k++
		}
	}
	for i := 4 * int(total); i < len(got); i++ {
		if got[i] != 0xA5 {
			t.Fatalf("byte %d past the last key overwritten: %#x", i, got[i])
		}
	}
	wantOps := uint64(ctas*(1+1) + n*(4+1) + int(total))
	if ops := r.d.LastLaunch().MemOps; ops != wantOps {
		t.Errorf("BEMIT counted %d device accesses, want %d (%d CTAs, %d primitives, %d keys)", ops, wantOps, ctas, n, total)
	}
}
