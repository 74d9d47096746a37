package draw3d

import (
	"reflect"
	"testing"
	"vortexgfx/gfx/session"
)

// TestDevicePerfWorkers: every RASTER/TEX/OM counter of facts §7, read through
// MPM_VALUE, is identical for 1, 2 and 4 host workers (2 engines, 4 cores and
// 16-pixel bins, so waves of many bins interleave on a core in scheduling order),
// and the cache models saw traffic where the trace has it.
// spec: vortex-hardware-facts §7
func TestDevicePerfWorkers(t *testing.T) {
	ran := 0
	for _, g := range deviceGoldens(t) {
		if g.size != 128 || (g.name != "box" && g.name != "scene") {
			continue
		}
		ran++
		var ref []session.DrawStats
		for _, workers := range []int{1, 2, 4} {
			cfg := deviceCase{flavor: "emu", engines: 2, slices: 1, workers: workers, cores: 2}.config()
			cfg.Raster.BinLogSize = 4 // 64 bins: waves of many bins share each core
			img, stats, err := Device{Width: g.size, Height: g.size, Planes: goldenPlanes[g.name][0], Config: cfg}.Replay(g.tr)
			if err != nil {
				t.Fatal(err)
			}
			if n, _, first := diff(img, loadPNG(t, g.png)); n != 0 {
				t.Errorf("%s, %d workers: %d differing pixels: %v", g.name, workers, n, first)
			}
			if ref == nil {
				ref = stats
				var tot session.PerfCounters
				for _, s := range stats {
					tot = tot.Add(s.Perf)
				}
				if tot.OMCacheWrites == 0 || tot.OMLat == 0 || tot.RasterLat == 0 ||
					(g.name == "box" && (tot.TexCacheReads < tot.TexReads || tot.TexLat == 0)) {
					t.Errorf("%s: counters missing traffic: %+v", g.name, tot)
				}
				t.Logf("%s 128²: %+v", g.name, tot)
				continue
			}
			for i := range stats {
				if !reflect.DeepEqual(stats[i].Perf, ref[i].Perf) {
					t.Errorf("%s draw %d, %d workers: %+v\n1 worker: %+v", g.name, i, workers, stats[i].Perf, ref[i].Perf)
				}
			}
		}
	}
	if ran != 2 {
		t.Errorf("box and scene at 128² not both found (%d)", ran)
	}
}
