package fecode_test

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/gfx/fecode"
	"vortexgfx/gfx/frontend"
)

// binCase is one binning input: a grid and the dense bbox array.
type binCase struct {
	g     frontend.BinGrid
	boxes []frontend.BBox
}

// binMem lays out a front-end arg block and its buffers in a flat memory.
type binMem struct {
	mem                                                         *simt.FlatMemory
	args, ctr, boxes, counts, offs, keys, hist, base, tbuf, end uint32
}

func newBinMem(c binCase, keys int) *binMem {
	n, bins := uint32(len(c.boxes)), uint32(c.g.Bins())
	m := &binMem{args: 0x800, ctr: 0x1000}
	at := uint32(0x2000)
	alloc := func(bytes uint32) uint32 { a := at; at += (bytes + 63) &^ 63; return a }
	m.boxes, m.counts, m.offs = alloc(16*n), alloc(4*n), alloc(4*n+4)
	m.keys, m.hist, m.base = alloc(4*uint32(keys)+4), alloc(4*bins), alloc(4*bins)
	m.tbuf = alloc(bins*abi.BinHeaderBytes + 4*uint32(keys))
	m.end = at
	m.mem = simt.NewFlatMemory(0, int(at)+0x10000)
	for i, b := range c.boxes {
		for k, w := range []uint32{b.L, b.R, b.T, b.B} {
			binary.LittleEndian.PutUint32(m.mem.Data[m.boxes+uint32(16*i+4*k):], w)
		}
	}
	binary.LittleEndian.PutUint32(m.mem.Data[m.ctr+4*abi.FECounterPrims:], n)
	a := abi.FrontEndArgs{Width: 1, Height: 1, Offsets: uint64(m.offs), Boxes: uint64(m.boxes), Counters: uint64(m.ctr),
		Cols: uint32(c.g.Cols), Rows: uint32(c.g.Rows), BinLog: uint32(c.g.BinLog),
		Counts: uint64(m.counts), Keys: uint64(m.keys), Hist: uint64(m.hist), Base: uint64(m.base), TBuf: uint64(m.tbuf)}
	copy(m.mem.Data[m.args:], a.Pack())
	return m
}

// run runs stage s of the machine code over grid CTAs of warps×threads.
func (m *binMem) run(t *testing.T, code []byte, s uint64, grid, warps, threads int) {
	t.Helper()
	const codeAt = 0x100000
	if len(m.mem.Data) < codeAt+len(code) {
		m.mem.Data = append(m.mem.Data, make([]byte, codeAt+len(code)-len(m.mem.Data))...)
	}
	copy(m.mem.Data[codeAt:], code)
	binary.LittleEndian.PutUint64(m.mem.Data[m.args:], s)
	if _, err := fecode.RunGrid(t, m.mem, codeAt, m.args, grid, warps, threads); err != nil {
		t.Fatalf("stage %d: %v", s, err)
	}
}

func (m *binMem) words(at uint32, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(m.mem.Data[at+uint32(4*i):])
	}
	return out
}

// randomBinCase makes n primitives' boxes over a w×h target: most small,
// some spanning many bins, some on the target's edges (the grid clamp).
func randomBinCase(rng *rand.Rand, w, h uint32, binLog uint, n int) binCase {
	size := uint32(1) << binLog
	g := frontend.BinGrid{Cols: int((w + size - 1) / size), Rows: int((h + size - 1) / size), BinLog: binLog}
	c := binCase{g: g}
	for range n {
		l, t := rng.Uint32N(w), rng.Uint32N(h)
		ext := uint32(1 + rng.IntN(8))
		if rng.IntN(6) == 0 {
			ext = rng.Uint32N(w) + 1
		}
		c.boxes = append(c.boxes, frontend.BBox{L: l, R: min(l+ext, w), T: t, B: min(t+1+rng.Uint32N(ext+1), h)})
	}
	return c
}

// The machine code's six stages write the Go stages' words (frontend.BCount,
// BScan, BEmit, BHist, BBase, BScatter) over random primitives and several
// launch shapes, every buffer checked after each stage.
func TestBinningStagesMatchGo(t *testing.T) {
	code, err := fecode.BinningCode()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 9))
	cases := []binCase{
		randomBinCase(rng, 128, 128, 4, 37),
		randomBinCase(rng, 640, 480, 5, 300),
		randomBinCase(rng, 100, 60, 3, 1),
		{g: frontend.BinGrid{Cols: 3, Rows: 2, BinLog: 4}}, // no primitives
	}
	// Boxes beyond a grid narrower and shorter than the target: the clamp.
	clamp := randomBinCase(rng, 256, 192, 4, 120)
	clamp.g.Cols, clamp.g.Rows = 9, 7
	kept := clamp.boxes[:0]
	for _, b := range clamp.boxes { // a box starts inside the grid (setup's scissor clamp)
		if b.L < 9*16 && b.T < 7*16 {
			kept = append(kept, b)
		}
	}
	clamp.boxes = kept
	cases = append(cases, clamp)
	shapes := [][3]int{{1, 1, 1}, {2, 4, 4}, {3, 2, 8}}
	for ci, c := range cases {
		n, bins := len(c.boxes), c.g.Bins()
		counts := make([]uint32, n)
		frontend.BCount(c.g, c.boxes, counts)
		offs := make([]uint32, n+1)
		keys := frontend.BScan(counts, offs)
		kw := make([]uint32, keys)
		if err := frontend.BEmit(c.g, c.boxes, offs, kw); err != nil {
			t.Fatal(err)
		}
		hist := make([]uint32, bins)
		frontend.BHist(kw, hist)
		base := make([]uint32, bins)
		tb := make([]byte, bins*abi.BinHeaderBytes)
		frontend.BBase(c.g, hist, base, tb)
		for _, sh := range shapes {
			m := newBinMem(c, int(keys))
			check := func(what string, got, want []uint32) {
				t.Helper()
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("case %d shape %v: %s[%d] = 0x%x, Go 0x%x", ci, sh, what, i, got[i], want[i])
					}
				}
			}
			m.run(t, code, abi.FEStageBCount, sh[0], sh[1], sh[2])
			check("counts", m.words(m.counts, n), counts)
			m.run(t, code, abi.FEStageBScan, sh[0], sh[1], sh[2])
			check("offsets", m.words(m.offs, n+1), offs)
			check("key count", m.words(m.ctr+4*abi.FECounterKeys, 1), []uint32{keys})
			m.run(t, code, abi.FEStageBEmit, sh[0], sh[1], sh[2])
			check("keys", m.words(m.keys, int(keys)), kw)
			for b := range bins { // stale words: BHIST must write every bin
				binary.LittleEndian.PutUint32(m.mem.Data[m.hist+uint32(4*b):], 0xDEAD)
			}
			m.run(t, code, abi.FEStageBHist, sh[0], sh[1], sh[2])
			check("hist", m.words(m.hist, bins), hist)
			m.run(t, code, abi.FEStageBBase, sh[0], sh[1], sh[2])
			check("base", m.words(m.base, bins), base)
			want := make([]uint32, len(tb)/4)
			for i := range want {
				want[i] = binary.LittleEndian.Uint32(tb[4*i:])
			}
			check("headers", m.words(m.tbuf, len(want)), want)
			m.run(t, code, abi.FEStageBScatter, sh[0], sh[1], sh[2])
			pids := make([]byte, 4*keys)
			frontend.BScatter(kw, base, pids)
			for i := range want {
				want[i] = binary.LittleEndian.Uint32(tb[4*i:])
			}
			wantPids := make([]uint32, keys)
			for i := range wantPids {
				wantPids[i] = binary.LittleEndian.Uint32(pids[4*i:])
			}
			check("sorted pids", m.words(m.tbuf+uint32(bins*abi.BinHeaderBytes), int(keys)), wantPids)
			check("hist after BSCATTER", m.words(m.hist, bins), hist)
			check("base after BSCATTER", m.words(m.base, bins), base)
		}
	}
}

// The machine code takes exactly the six binning stages; a block with another
// stage fails the launch with the core's illegal-instruction error (the host
// sends it to the Go kernel, which names it).
func TestBinningStageSelection(t *testing.T) {
	for s := uint64(0); s <= abi.FEStageBScatter+1; s++ {
		err := fecode.BinningStage(s)
		want := s >= abi.FEStageBCount && s <= abi.FEStageBScatter
		if (err == nil) != want {
			t.Errorf("stage %d: %v", s, err)
		}
	}
	code, err := fecode.BinningCode()
	if err != nil {
		t.Fatal(err)
	}
	m := newBinMem(binCase{g: frontend.BinGrid{Cols: 1, Rows: 1, BinLog: 4}}, 0)
	const at = 0x8000
	copy(m.mem.Data[at:], code)
	binary.LittleEndian.PutUint64(m.mem.Data[m.args:], abi.FEStageSetup)
	core, err := simt.New(simt.Config{Warps: 1, Threads: 1, MaxInstructions: 1 << 20}, m.mem)
	if err != nil {
		t.Fatal(err)
	}
	if err := core.SetMScratch(0, m.args); err != nil {
		t.Fatal(err)
	}
	if err := core.Start(0, at, 1); err != nil {
		t.Fatal(err)
	}
	if err := core.Run(); err == nil {
		t.Error("a SETUP block ran on the binning machine code without an error")
	}
}
