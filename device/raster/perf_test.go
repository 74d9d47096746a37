package raster

import (
	"errors"
	"reflect"
	"sort"
	"sync"
	"testing"

	"vortexgfx/abi"
)

// TestCostModel pins the RASTER counters of tiny one-bin draws, worked by hand
// from the CostModel rules (defaults: hit 2, memory 100, multiplier 3, 8
// credits, 64-byte lines, 1 bank, 4 MSHRs). Headers sit at 0x1000 (line 64),
// so the pid words share the header's line; record pid p sits at 0x8000+212p.
// A covering primitive in a 16-pixel bin walks 1+4+16 TE squares and 16 blocks
// of 4 quad slots: 85 cycles. spec: rasterizer §6.1, §12, §13; facts §7
func TestCostModel(t *testing.T) {
	for _, c := range []struct {
		name string
		pids []uint32
		cost CostModel
		want EnginePerf
	}{
		// header miss 0→102; pid hit 102→104; record miss 107→209; walk 209→294.
		{"one prim", []uint32{0}, CostModel{},
			EnginePerf{Reads: 3, Lat: 206, CacheReads: 3, CacheMissR: 2, Cycles: 294}},
		// One credit: pid 1 waits for record 0's pop at 209 (ST 106), then its
		// record (line 0x203) misses 214→316 and walks 316→401.
		{"credit stall", []uint32{0, 1}, CostModel{MemFifoDepth: 1},
			EnginePerf{Reads: 5, Lat: 310, Stalls: 106, CacheReads: 5, CacheMissR: 3, Cycles: 401}},
		// One MSHR: record 1's miss at 108 waits for record 0's fill at 209
		// (MSHR_ST 101) and answers at 311; walk 311→396.
		{"mshr stall", []uint32{0, 1}, CostModel{MSHRs: 1},
			EnginePerf{Reads: 5, Lat: 411, CacheReads: 5, CacheMissR: 3, CacheMSHRSt: 101, Cycles: 396}},
		// Record 2 (0x81A8..0x81CB) spans lines 0x206 and 0x207: one bank
		// serialises them (BANK_ST 1, second fill at 210).
		{"bank stall", []uint32{2}, CostModel{},
			EnginePerf{Reads: 3, Lat: 207, CacheReads: 4, CacheMissR: 3, CacheBankSt: 1, Cycles: 295}},
		{"two banks", []uint32{2}, CostModel{CacheBanks: 2},
			EnginePerf{Reads: 3, Lat: 206, CacheReads: 4, CacheMissR: 3, Cycles: 294}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := make(mem, 0x20000)
			for _, p := range c.pids {
				putPrim(m, int(p), cover, 0)
			}
			putBins(m, []abi.BinHeader{{PidsCount: uint32(len(c.pids))}}, c.pids)
			nop := func(int, *Wave) error { return nil }
			st, err := Run(m, state(1, 16, 16), Config{BinLog: 4, Workers: 1, Cost: c.cost}, nop)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Perf) != 1 || st.Perf[0] != c.want {
				t.Errorf("perf %+v\nwant %+v", st.Perf, c.want)
			}
			if st.Total().Reads != uint64(st.Reads) {
				t.Errorf("model reads %d, walk reads %d", st.Total().Reads, st.Reads)
			}
		})
	}
}

// TestCostModelDeterministic: the counters of a multi-engine frame do not
// depend on the worker count; a re-fetched record hits the rcache.
func TestCostModelDeterministic(t *testing.T) {
	m, hs, _ := gridScene()
	var ref []EnginePerf
	for _, workers := range []int{1, 2, 5} {
		nop := func(int, *Wave) error { return nil }
		st, err := Run(m, state(len(hs), 64, 48), Config{BinLog: 4, Engines: 2, Workers: workers, Cores: 3}, nop)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = st.Perf
			tot := st.Total()
			// 12 bins × (header + 2 pids + 2 records); 2 prim lines per engine miss
			// once, later bins hit them.
			if tot.Reads != 60 || tot.CacheMissR >= tot.CacheReads || tot.CacheMissR == 0 {
				t.Errorf("totals %+v", tot)
			}
			continue
		}
		if !reflect.DeepEqual(st.Perf, ref) {
			t.Errorf("workers %d: %+v, want %+v", workers, st.Perf, ref)
		}
	}
}

func TestCostModelBadConfig(t *testing.T) {
	for _, c := range []CostModel{{LineBytes: 48}, {CacheBanks: 3}, {CacheBytes: 1000}, {MemFifoDepth: -1}, {HitLatency: -1}, {MSHRs: 1 << 11}} {
		if _, err := (Config{Cost: c}).resolve(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// gridScene is a 64×48 target of 16-pixel bins, each listing two covering prims.
func gridScene() (mem, []abi.BinHeader, []uint32) {
	m := make(mem, 0x20000)
	var hs []abi.BinHeader
	var pids []uint32
	for by := 0; by < 3; by++ {
		for bx := 0; bx < 4; bx++ {
			hs = append(hs, abi.BinHeader{BinX: uint16(bx), BinY: uint16(by), PidsOffset: uint32(len(pids)), PidsCount: 2})
			pids = append(pids, 0, 1)
		}
	}
	putBins(m, hs, pids)
	putPrim(m, 0, cover, 0)
	putPrim(m, 1, cover, 0)
	return m, hs, pids
}

// TestClusterAffinity: with 2 clusters of 2 engines and 2 cores each, an
// engine's waves land on its own cluster's cores at the owner of rasterizer
// §9.1 (bin_lin mod cores within the cluster); every pixel lands on exactly
// one core, both clusters shade, and the fragments are those of one cluster.
// spec: rasterizer §6.2, §9.1, §10
func TestClusterAffinity(t *testing.T) {
	m, hs, _ := gridScene()
	run := func(cfg Config) (map[[3]int]int, map[int]bool) {
		var mu sync.Mutex
		frags := map[[3]int]int{} // (x, y, pid) → core
		cores := map[int]bool{}
		pixCore := map[[2]int]int{}
		launch := func(core int, w *Wave) error {
			mu.Lock()
			defer mu.Unlock()
			per := max(1, cfg.Engines) / max(1, cfg.Clusters)
			cluster := w.Engine / per
			cores[core] = true
			for q := 0; q < w.Quads; q++ {
				x0, y0, _ := abi.UnpackFragPos(w.Pos[4*q])
				if want := cluster*max(1, cfg.Cores) + abi.RasterOwner(x0/2, y0/2, cfg.BinLog, max(1, cfg.Cores)); core != want {
					t.Errorf("engine %d quad (%d,%d) on core %d, want %d", w.Engine, x0, y0, core, want)
				}
				for s := 0; s < 4; s++ {
					x, y, cov := abi.UnpackFragPos(w.Pos[4*q+s])
					if !cov {
						continue
					}
					k := [2]int{x, y}
					if c, ok := pixCore[k]; ok && c != core {
						t.Errorf("pixel %v on cores %d and %d", k, c, core)
					}
					pixCore[k] = core
					frags[[3]int{x, y, int(w.PID[4*q+s])}]++
				}
			}
			return nil
		}
		if _, err := Run(m, state(len(hs), 64, 48), cfg, launch); err != nil {
			t.Fatal(err)
		}
		return frags, cores
	}
	one, _ := run(Config{BinLog: 4, Workers: 1})
	for _, workers := range []int{1, 3} {
		two, cores := run(Config{BinLog: 4, Engines: 4, Clusters: 2, Cores: 2, Workers: workers})
		if !reflect.DeepEqual(one, two) || len(two) != 2*64*48 {
			t.Errorf("workers %d: %d fragments differ from the 1-cluster %d", workers, len(two), len(one))
		}
		var got []int
		for c := range cores {
			got = append(got, c)
		}
		sort.Ints(got)
		if !reflect.DeepEqual(got, []int{0, 1, 2, 3}) {
			t.Errorf("cores used %v, want all four of both clusters", got)
		}
	}
	if _, err := Run(m, state(len(hs), 64, 48), Config{BinLog: 4, Engines: 2, Clusters: 4}, nil); err == nil {
		t.Error("2 engines over 4 clusters accepted")
	}
}

// TestSetupCrack pins the shared-edge crack Vortex's own golden shows: in
// scene_ref_128.png the pixel (55, 84) (PNG row 43) is the clear colour. The
// two triangles that share the edge there (setup pids 572 and 573 of the
// trace, vertices 574 and 530 at one position) were normalised by different
// max|A|, |B| and truncated to Q15.16, so their shared-edge functions are no
// longer exact negatives: at (55, 84) they evaluate to −43 and −16, both
// outside (the true centre is 0.0008 px from the edge). The QE must reject the
// pixel for both — covering it would differ from the golden. See the package
// doc ("Shared-edge cracks"). spec: rasterizer §7.4; facts §3.2
func TestSetupCrack(t *testing.T) {
	m := make(mem, 0x20000)
	putPrim(m, 0, [9]int32{-56993, -3776, 3451756, -7537, -32119, 3191928, 65536, 36319, -6607174}, 0)
	putPrim(m, 1, [9]int32{6529, 38980, -3575595, -65536, -42460, 7266706, 59774, 3960, -3620226}, 0)
	putBins(m, []abi.BinHeader{{BinX: 3, BinY: 5, PidsCount: 2}}, []uint32{0, 1})
	launch, frags, _ := collect(t, 1, 4)
	if _, err := Run(m, state(1, 128, 128), Config{BinLog: 4, Workers: 1}, launch); err != nil {
		t.Fatal(err)
	}
	by := map[[2]int][]int{}
	for _, f := range *frags {
		by[[2]int{f.x, f.y}] = append(by[[2]int{f.x, f.y}], f.pid)
	}
	if p := by[[2]int{55, 84}]; len(p) != 0 {
		t.Errorf("(55, 84) covered by pids %v; the golden leaves it uncovered", p)
	}
	for _, k := range [][2]int{{55, 83}, {56, 84}, {55, 85}} { // (54, 84) belongs to another triangle
		if len(by[k]) != 1 {
			t.Errorf("neighbour %v covered by pids %v, want exactly one", k, by[k])
		}
	}
}

// TestReplayAfterFailedWalk: the cost model replays beside the walk; when a
// wave launch fails in a middle bin the walkers stop early and the replay
// must end too, leaving the launch's error (not the replay's) as Run's, for
// any worker and engine count. spec: rasterizer §13
func TestReplayAfterFailedWalk(t *testing.T) {
	m, hs, _ := gridScene()
	boom := errors.New("boom")
	for _, engines := range []int{1, 2} {
		for workers := 1; workers <= 4; workers++ {
			launch := func(_ int, w *Wave) error {
				if x, y, _ := abi.UnpackFragPos(w.Pos[0]); x >= 32 && y >= 16 {
					return boom
				}
				return nil
			}
			_, err := Run(m, state(len(hs), 64, 48), Config{BinLog: 4, Engines: engines, Workers: workers}, launch)
			if !errors.Is(err, boom) {
				t.Errorf("engines %d workers %d: error %v, want the launch's", engines, workers, err)
			}
		}
	}
}
