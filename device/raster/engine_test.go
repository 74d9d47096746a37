package raster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"vortexgfx/abi"
)

// mem is a flat test memory at address 0.
type mem []byte

func (m mem) View(addr uint64, n int) ([]byte, error) {
	if n < 0 || addr > uint64(len(m)) || uint64(n) > uint64(len(m))-addr {
		return nil, fmt.Errorf("view [0x%x, +%d) outside %d bytes", addr, n, len(m))
	}
	return m[addr : addr+uint64(n)], nil
}

const (
	tbufAt = 0x1000
	pbufAt = 0x8000
	zbufAt = 0x10000
)

// prim writes a record whose three edges are {0, 0, c[k]} (all-covering when
// every c > 0) or the given edges, and a constant depth plane z.
func putPrim(m mem, pid int, edges [9]int32, z int32) {
	b := m[pbufAt+pid*abi.PrimBytes:]
	for i, v := range edges {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	binary.LittleEndian.PutUint32(b[4*abi.PrimZWord+8:], uint32(z))
}

var cover = [9]int32{0, 0, 1, 0, 0, 1, 0, 0, 1}

func putBins(m mem, hs []abi.BinHeader, pids []uint32) {
	for i, h := range hs {
		h.Put(m[tbufAt+12*i:])
	}
	base := tbufAt + 12*len(hs)
	for i, p := range pids {
		binary.LittleEndian.PutUint32(m[base+4*i:], p)
	}
}

func state(tiles int, w, h int) *State {
	s := &State{}
	for _, wr := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRRasterTBufAddr, tbufAt >> 6}, {abi.DCRRasterTileCount, uint32(tiles)},
		{abi.DCRRasterPBufAddr, pbufAt >> 6}, {abi.DCRRasterPBufStride, abi.PrimBytes},
		{abi.DCRRasterScissorX, uint32(w) << 16}, {abi.DCRRasterScissorY, uint32(h) << 16},
		{abi.DCRRasterFragEntryLo, 0x80}, {abi.DCROMZBufAddr, zbufAt >> 6}, {abi.DCROMZBufPitch, uint32(4 * w)},
		{abi.DCROMDepthFunc, uint32(abi.CmpLess)},
	} {
		if !s.Write(wr.a, wr.v) {
			t := wr.a
			panic(fmt.Sprintf("DCR 0x%x not latched", t))
		}
	}
	return s
}

type frag struct{ x, y, pid int }

// collect returns a launch that records covered fragments in launch order and
// checks each wave's invariants.
func collect(t *testing.T, cores int, binLog int) (Launch, *[]frag, *sync.Mutex) {
	var mu sync.Mutex
	var out []frag
	return func(core int, w *Wave) error {
		mu.Lock()
		defer mu.Unlock()
		seen := map[[2]int]bool{}
		for q := 0; q < w.Quads; q++ {
			x0, y0, _ := abi.UnpackFragPos(w.Pos[4*q])
			if seen[[2]int{x0, y0}] {
				t.Errorf("wave holds quad (%d,%d) twice", x0, y0)
			}
			seen[[2]int{x0, y0}] = true
			if o := abi.RasterOwner(x0/2, y0/2, binLog, cores); o != core {
				t.Errorf("quad (%d,%d) launched on core %d, owner %d", x0, y0, core, o)
			}
			for s := 0; s < 4; s++ {
				x, y, cov := abi.UnpackFragPos(w.Pos[4*q+s])
				if x != x0+s&1 || y != y0+s>>1 {
					t.Errorf("lane %d of quad (%d,%d) at (%d,%d)", s, x0, y0, x, y)
				}
				if cov {
					out = append(out, frag{x, y, int(w.PID[4*q+s])})
				}
			}
		}
		for l := 4 * w.Quads; l < len(w.Pos); l++ {
			if w.Pos[l] != 0 {
				t.Errorf("inactive lane %d carries 0x%x", l, w.Pos[l])
			}
		}
		return nil
	}, &out, &mu
}

// TestStalePidRule: an empty bin is skipped without touching its pid list, even
// when its offset points outside memory. spec: rasterizer §2.2, §6.1
func TestStalePidRule(t *testing.T) {
	m := make(mem, 0x20000)
	putPrim(m, 0, cover, 0)
	putBins(m, []abi.BinHeader{{BinX: 0, BinY: 0, PidsOffset: 0xFFFFFF, PidsCount: 0}, {BinX: 1, BinY: 0, PidsOffset: 0, PidsCount: 1}}, []uint32{0})
	launch, frags, _ := collect(t, 1, 4)
	st, err := Run(m, state(2, 32, 16), Config{BinLog: 4, Workers: 1}, launch)
	if err != nil {
		t.Fatal(err)
	}
	if st.EmptyBins != 1 || st.Bins != 1 || len(*frags) != 16*16 {
		t.Errorf("stats %+v, %d fragments", st, len(*frags))
	}
	for _, f := range *frags {
		if f.x < 16 {
			t.Fatalf("fragment (%d,%d) in the empty bin", f.x, f.y)
		}
	}
}

// TestStriping: engine e walks headers e, e+N, …; every bin is walked once for
// any engine and worker count, and the per-pixel fragment order is pid order.
// spec: rasterizer §6.2, §10
func TestStriping(t *testing.T) {
	const W, H = 64, 48
	m := make(mem, 0x20000)
	var hs []abi.BinHeader
	var pids []uint32
	for by := 0; by < H/16; by++ {
		for bx := 0; bx < W/16; bx++ {
			hs = append(hs, abi.BinHeader{BinX: uint16(bx), BinY: uint16(by), PidsOffset: uint32(len(pids)), PidsCount: 2})
			pids = append(pids, 0, 1)
		}
	}
	putBins(m, hs, pids)
	putPrim(m, 0, cover, 0)
	putPrim(m, 1, cover, 0)
	var ref []frag
	for _, engines := range []int{1, 2, 4} {
		for _, workers := range []int{1, 3} {
			launch, frags, _ := collect(t, 3, 4)
			st, err := Run(m, state(len(hs), W, H), Config{BinLog: 4, Engines: engines, Workers: workers, Cores: 3, Threads: 8}, launch)
			if err != nil {
				t.Fatal(err)
			}
			if st.Bins != int64(len(hs)) || st.Pairs != int64(len(pids)) {
				t.Errorf("engines %d: %d bins %d pairs", engines, st.Bins, st.Pairs)
			}
			// Per pixel: pid 0 then pid 1.
			last := map[[2]int]int{}
			for _, f := range *frags {
				k := [2]int{f.x, f.y}
				if p, ok := last[k]; ok && p >= f.pid {
					t.Fatalf("pixel %v: pid %d after %d", k, f.pid, p)
				}
				last[k] = f.pid
			}
			if len(last) != W*H {
				t.Errorf("%d pixels covered, want %d", len(last), W*H)
			}
			if ref == nil {
				ref = *frags
			} else if len(*frags) != len(ref) {
				t.Errorf("engines %d workers %d: %d fragments, want %d", engines, workers, len(*frags), len(ref))
			}
		}
	}
	if got := abi.EngineBinCount(12, 3, 4); got != 3 {
		t.Errorf("EngineBinCount(12, 3, 4) = %d", got)
	}
}

// TestTopLeftAndScissor: a pixel on a shared edge is covered by exactly one of
// the two triangles; the scissor max is exclusive. spec: rasterizer §7.4
func TestTopLeftAndScissor(t *testing.T) {
	m := make(mem, 0x20000)
	const one = 1 << 16
	// Split the bin by the vertical line x = 8 (pixel-centre convention: E = x − 8
	// evaluated at integer x). Left: 8 − x ≥ 0 only if top-left (A < 0 → not).
	putPrim(m, 0, [9]int32{-one, 0, 8 * one, 0, 0, 1, 0, 0, 1}, 0)
	putPrim(m, 1, [9]int32{one, 0, -8 * one, 0, 0, 1, 0, 0, 1}, 0)
	putBins(m, []abi.BinHeader{{PidsCount: 2}}, []uint32{0, 1})
	launch, frags, _ := collect(t, 1, 4)
	s := state(1, 16, 16)
	s.Write(abi.DCRRasterScissorY, 12<<16|1)
	if _, err := Run(m, s, Config{BinLog: 4, Workers: 1}, launch); err != nil {
		t.Fatal(err)
	}
	count := map[[2]int]int{}
	for _, f := range *frags {
		count[[2]int{f.x, f.y}]++
		if f.y < 1 || f.y >= 12 {
			t.Errorf("fragment (%d,%d) outside scissor rows [1,12)", f.x, f.y)
		}
		if f.x == 8 && f.pid != 1 {
			t.Errorf("shared-edge pixel (8,%d) went to pid %d, want the top-left edge's pid 1", f.y, f.pid)
		}
	}
	if len(count) != 16*11 {
		t.Errorf("%d pixels covered, want %d", len(count), 16*11)
	}
	for k, c := range count {
		if c != 1 {
			t.Errorf("pixel %v covered %d times", k, c)
		}
	}
}

// TestEarlyZ: only strictly-behind fragments are culled, only when armed.
// spec: rasterizer §7.5; vortex-hardware-facts §3.3
func TestEarlyZ(t *testing.T) {
	for _, c := range []struct {
		fn      abi.CompareFunc
		stored  uint32
		z       int32
		armed   bool
		culled  bool
		comment string
	}{
		{abi.CmpLess, 100, 101, true, true, "behind"},
		{abi.CmpLess, 100, 100, true, false, "equal passes to late-Z"},
		{abi.CmpLEqual, 100, 99, true, false, "in front"},
		{abi.CmpLess, 100, 101, false, false, "not armed"},
		{abi.CmpGreater, 100, 99, true, true, "behind for GREATER"},
		{abi.CmpEqual, 100, 101, true, false, "EQUAL never culls"},
		{abi.CmpLess, 0x00FFFFFF, 0x7FFFFFFF, true, false, "clamped to 0xFFFFFF equals stored"},
	} {
		m := make(mem, 0x20000)
		putPrim(m, 0, cover, c.z)
		putBins(m, []abi.BinHeader{{PidsCount: 1}}, []uint32{0})
		for i := 0; i < 16*16; i++ {
			binary.LittleEndian.PutUint32(m[zbufAt+4*i:], 0xAB000000|c.stored)
		}
		s := state(1, 16, 16)
		s.Write(abi.DCROMDepthFunc, uint32(c.fn))
		s.Write(abi.DCROMEarlyZSafe, map[bool]uint32{true: 1}[c.armed])
		launch, frags, _ := collect(t, 1, 4)
		st, err := Run(m, s, Config{BinLog: 4, Workers: 1, EarlyZ: true}, launch)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(*frags) == 0; got != c.culled || (c.culled && st.EarlyZCulled != 256) {
			t.Errorf("%s: culled %v (%d), want %v", c.comment, got, st.EarlyZCulled, c.culled)
		}
	}
}

// TestPackerCollision: the same quad from two primitives never shares a wave.
func TestPackerCollision(t *testing.T) {
	m := make(mem, 0x20000)
	putPrim(m, 0, cover, 0)
	putPrim(m, 1, cover, 0)
	putBins(m, []abi.BinHeader{{PidsCount: 2}}, []uint32{0, 1})
	waves := 0
	launch := func(core int, w *Wave) error {
		waves++
		seen := map[uint32]bool{}
		for q := 0; q < w.Quads; q++ {
			p := w.Pos[4*q] & 0x7FFF7FFF
			if seen[p] {
				return errors.New("collision inside a wave")
			}
			seen[p] = true
		}
		return nil
	}
	st, err := Run(m, state(1, 4, 4), Config{BinLog: 2, Workers: 1, Threads: 32}, launch)
	if err != nil {
		t.Fatal(err)
	}
	if waves != 2 || st.Quads != 8 {
		t.Errorf("%d waves, %d quads; want 2 waves of 4 quads", waves, st.Quads)
	}
}

// TestBadInput: corrupt state returns an error naming what.
func TestBadInput(t *testing.T) {
	m := make(mem, 0x20000)
	putPrim(m, 0, cover, 0)
	putBins(m, []abi.BinHeader{{PidsCount: 1}, {PidsCount: 1}}, []uint32{0, 0})
	nop := func(int, *Wave) error { return nil }
	if _, err := Run(m, state(2, 16, 16), Config{BinLog: 4}, nop); !errors.Is(err, ErrDuplicateBin) {
		t.Errorf("duplicate bins: %v", err)
	}
	for _, c := range []struct {
		name string
		dcr  abi.DCR
		v    uint32
		want string
	}{
		{"stride", abi.DCRRasterPBufStride, 30, "PBUF_STRIDE"},
		{"scissor", abi.DCRRasterScissorY, 0x9000 << 16, "FRAG_POS"},
		{"tiles outside memory", abi.DCRRasterTBufAddr, 0x40000 >> 6, "tile headers"},
		{"prims outside memory", abi.DCRRasterPBufAddr, 0x40000 >> 6, "primitive records"},
	} {
		s := state(1, 16, 16)
		s.Write(c.dcr, c.v)
		if _, err := Run(m, s, Config{BinLog: 4}, nop); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want mention of %q", c.name, err, c.want)
		}
	}
	if _, err := Run(m, state(1, 16, 16), Config{Engines: 3}, nop); err == nil {
		t.Error("3 engines accepted")
	}
	s := state(1, 16, 16)
	s.Write(abi.DCRRasterFragEntryLo, 0)
	if _, err := Run(m, s, Config{}, func(int, *Wave) error { return errors.New("launched") }); err != nil {
		t.Errorf("FRAG_ENTRY 0 still launched: %v", err)
	}
	boom := errors.New("boom")
	if _, err := Run(m, state(1, 16, 16), Config{BinLog: 4}, func(int, *Wave) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("launch error lost: %v", err)
	}
}
