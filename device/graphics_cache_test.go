package device

import (
	"testing"

	"vortexgfx/device/om"
	"vortexgfx/device/tex"
)

// recWave is one hand-made wave record: its bin, its vx_tex requests (line
// numbers each) and its OM exports ({flags, depth line, colour line}).
type recWave struct {
	bin uint32
	tex [][]uint64
	om  [][3]uint64
}

func record(waves []recWave) *perfRecorder {
	r := &perfRecorder{}
	for i, w := range waves {
		c := &CTA{fragPos: []uint32{uint32(i)}, fragPID: []uint32{0}}
		for _, q := range w.tex {
			r.addTex(c, 0, q)
		}
		for _, e := range w.om {
			r.addOM(c, 0, e[0], e[1], e[2])
		}
		r.segs[len(r.segs)-1].bin = w.bin
	}
	return r
}

// TestTexCostModel pins the TEX cache-model counters of tiny request streams,
// worked by hand from tex.CostModel (defaults: hit 2, memory 100, 16 KiB,
// 4 ways, 64-byte lines, 4 banks, 8 MSHRs; one request issues per cycle).
// READS is counted live by CTA.Tex, so the replay leaves it 0.
// spec: vortex-hardware-facts §7
func TestTexCostModel(t *testing.T) {
	for _, c := range []struct {
		name  string
		cost  tex.CostModel
		waves []recWave
		want  tex.Perf
	}{
		// miss 0→102.
		{"one line", tex.CostModel{}, []recWave{{tex: [][]uint64{{0x40}}}},
			tex.Perf{Lat: 102, CacheReads: 1, CacheMissR: 1}},
		// second request at 1 hits the line still filling: answers at 102.
		{"hit under fill", tex.CostModel{}, []recWave{{tex: [][]uint64{{0x40}, {0x40}}}},
			tex.Perf{Lat: 102 + 101, CacheReads: 2, CacheMissR: 1}},
		// lines 0 and 4 share bank 0: the second goes at 1 and fills at 103.
		{"bank conflict", tex.CostModel{}, []recWave{{tex: [][]uint64{{0, 4}}}},
			tex.Perf{Lat: 103, CacheReads: 2, CacheMissR: 2, CacheBankSt: 1}},
		{"two banks", tex.CostModel{}, []recWave{{tex: [][]uint64{{0, 1}}}},
			tex.Perf{Lat: 102, CacheReads: 2, CacheMissR: 2}},
		// one miss slot: request 2 (cycle 1) waits for the fill at 102 (MSHR_ST
		// and ST 101) and answers at 204.
		{"mshr stall", tex.CostModel{MSHRs: 1}, []recWave{{tex: [][]uint64{{0}, {1}}}},
			tex.Perf{Lat: 102 + 203, Stalls: 101, CacheReads: 2, CacheMissR: 2, CacheMSHRSt: 101}},
		// one line of cache: 0, 1, 0 all miss (102, 103, 104 after issue 0, 1, 2).
		{"capacity", tex.CostModel{CacheBytes: 64, CacheWays: 1}, []recWave{{tex: [][]uint64{{0}, {1}, {0}}}},
			tex.Perf{Lat: 3 * 102, CacheReads: 3, CacheMissR: 3}},
		// replay order is bin order, not arrival order: bin 0's wave runs
		// first (line 1 misses 0→102, line 0 evicts it 1→103), then bin 1's
		// line 0 hits under the fill at 2→103: 2 misses, where arrival order
		// would give 3.
		{"bin order", tex.CostModel{CacheBytes: 64, CacheWays: 1},
			[]recWave{{bin: 1, tex: [][]uint64{{0}}}, {bin: 0, tex: [][]uint64{{1}, {0}}}},
			tex.Perf{Lat: 102 + 102 + 101, CacheReads: 3, CacheMissR: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm, err := c.cost.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			om0, _ := om.CostModel{}.Resolve()
			got, _ := replay([]*perfRecorder{record(c.waves)}, tm, om0, nil)
			if got != c.want {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestOMCostModel pins the OM cache-model counters of tiny export streams,
// worked by hand from om.CostModel (defaults as TEX). Flags: 1 depth read,
// 2 colour read, 4 depth write, 8 colour write. Depth line 0x100 and colour
// line 0x200 share bank 0 and set 0. READS/WRITES are counted live by
// CTA.OMExport. spec: vortex-hardware-facts §7
func TestOMCostModel(t *testing.T) {
	for _, c := range []struct {
		name  string
		cost  om.CostModel
		waves []recWave
		want  om.Perf
	}{
		// depth read misses 0→102; at 102 the depth write hits (104) and the
		// colour write, serialised behind it in bank 0, misses at 103.
		{"depth test and write", om.CostModel{}, []recWave{{om: [][3]uint64{{1 | 4 | 8, 0x100, 0x200}}}},
			om.Perf{Lat: 102, CacheReads: 1, CacheWrites: 2, CacheMissR: 1, CacheMissW: 1, CacheBankSt: 1}},
		// colour-only writes are posted: no latency; the second hits.
		{"colour writes", om.CostModel{}, []recWave{{om: [][3]uint64{{8, 0, 0x200}, {8, 0, 0x200}}}},
			om.Perf{CacheWrites: 2, CacheMissW: 1}},
		// blending reads the colour (miss 0→102), then writes it (hit).
		{"blend", om.CostModel{}, []recWave{{om: [][3]uint64{{2 | 8, 0, 0x200}}}},
			om.Perf{Lat: 102, CacheReads: 1, CacheWrites: 1, CacheMissR: 1}},
		// one miss slot: the second export's write miss at 1 waits for the fill
		// at 102.
		{"mshr stall", om.CostModel{MSHRs: 1}, []recWave{{om: [][3]uint64{{8, 0, 0x200}, {8, 0, 0x201}}}},
			om.Perf{Stalls: 101, CacheWrites: 2, CacheMissW: 2, CacheMSHRSt: 101}},
	} {
		t.Run(c.name, func(t *testing.T) {
			omm, err := c.cost.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			tm, _ := tex.CostModel{}.Resolve()
			_, got := replay([]*perfRecorder{record(c.waves)}, tm, omm, nil)
			if got != c.want {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}
