package frontend

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"testing"

	"vortexgfx/abi"
)

// TestBScanKernelMatchesWordLoop: binning_k's BSCAN stage leaves device
// memory exactly as the serial word loop of rasterizer §3.1 does (for each
// primitive: store the running sum at Offsets[i], then add Counts[i]; then the
// total at Offsets[prims] and in the keys counter), and counts one access per
// word, whatever the layout: disjoint arrays longer than a batch, Offsets
// overlapping Counts (the same words, or a few words ahead or behind: each
// store can change a later read), and Counts running past its allocation into
// the next one (read there through the CTA's path). The batched scan
// (scanWords) must be indistinguishable from the word loop in all of them.
func TestBScanKernelMatchesWordLoop(t *testing.T) {
	const ctas = 2
	const words = 2048 // each arena's words
	for _, tc := range []struct {
		name         string
		prims        int
		counts, offs int // word offsets from the first arena's base
		secondArena  bool
	}{
		{"disjoint, 3 batches", 600, 0, 700, false},
		{"disjoint, one word", 1, 5, 9, false},
		{"disjoint, a batch exactly", scanChunk, 0, scanChunk + 1, false},
		{"offsets are counts", 300, 10, 10, false},
		{"offsets 3 words ahead", 300, 10, 13, false},
		{"offsets 3 words behind", 300, 13, 10, false},
		{"offsets a batch ahead", 600, 0, scanChunk, false},
		{"counts run into the next allocation", 600, words - 100, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newKernelRig(t)
			alloc := func(size int) uint64 {
				a, err := r.m.Alloc(uint64(size), 64)
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			lo := alloc(4 * words)
			hi := lo + 4*words
			if tc.secondArena {
				b := alloc(4 * words)
				if b != hi {
					t.Skipf("second arena at %#x, not adjacent to the first (%#x)", b, hi)
				}
				hi = b + 4*words
			}
			arena := make([]byte, hi-lo)
			rnd := rand.New(rand.NewSource(int64(tc.prims)))
			for i := 0; i < len(arena); i += 4 {
				binary.LittleEndian.PutUint32(arena[i:], uint32(rnd.Intn(5)))
			}
			for off := 0; off < len(arena); off += 4 * words { // one write per allocation
				if err := r.m.Write(lo+uint64(off), arena[off:off+4*words]); err != nil {
					t.Fatal(err)
				}
			}
			a := Args{Stage: abi.FEStageBScan, Width: 64, Height: 64, Far: 1, Cols: 1, Rows: 1, BinLog: 7,
				Counts: lo + 4*uint64(tc.counts), Offsets: lo + 4*uint64(tc.offs), Counters: alloc(4 * abi.FECounterWords)}
			cb := make([]byte, 4*abi.FECounterWords)
			binary.LittleEndian.PutUint32(cb[4*abi.FECounterPrims:], uint32(tc.prims))
			args := alloc(8 * abi.FrontEndArgSlots)
			if err := r.m.Write(a.Counters, cb); err != nil {
				t.Fatal(err)
			}
			if err := r.m.Write(args, a.Pack()); err != nil {
				t.Fatal(err)
			}
			// The word loop on a copy of the arena.
			want := bytes.Clone(arena)
			var s uint32
			for i := range tc.prims {
				binary.LittleEndian.PutUint32(want[4*(tc.offs+i):], s)
				s += binary.LittleEndian.Uint32(want[4*(tc.counts+i):])
			}
			binary.LittleEndian.PutUint32(want[4*(tc.offs+tc.prims):], s)
			if err := r.launchGrid("binning_k", args, ctas); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(arena))
			for off := 0; off < len(arena); off += 4 * words {
				if err := r.m.Read(lo+uint64(off), got[off:off+4*words]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, want) {
				for i := 0; i < len(got); i += 4 {
					if g, w := binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:]); g != w {
						t.Fatalf("word %d of the arena: got %d, want %d (the word loop's)", i/4, g, w)
					}
				}
			}
			if err := r.m.Read(a.Counters, cb); err != nil {
				t.Fatal(err)
			}
			if k := binary.LittleEndian.Uint32(cb[4*abi.FECounterKeys:]); k != s {
				t.Errorf("keys counter %d, want %d", k, s)
			}
			// Per CTA the argument block and the primitive count; CTA 0's
			// scan one store and one load per primitive, then the total's
			// two stores.
			wantOps := uint64(ctas*2 + 2*tc.prims + 2)
			if ops := r.d.LastLaunch().MemOps; ops != wantOps {
				t.Errorf("BSCAN counted %d device accesses, want %d", ops, wantOps)
			}
		})
	}
}
