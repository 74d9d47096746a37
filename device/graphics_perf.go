package device

import (
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/device/tex"
)

// publishGraphicsPerf adds one frame's fixed-function counters to the MPM banks
// the host reads through MPM_VALUE (facts §7):
//   - TEX READS on each core: the vx_tex requests its fragment waves made, and
//     LAT, ST and TCACHE_READS/MISS_R/BANK_ST/MSHR_ST of the core's tcache
//     (tex.CostModel) replayed from the core's record (perfRecorder);
//   - OM READS / WRITES on each core: fragments exported / written, and LAT, ST
//     and OCACHE_READS/WRITES/MISS_R/MISS_W/BANK_ST/MSHR_ST of its ocache
//     (om.CostModel), replayed likewise;
//   - RASTER READS, LAT, ST and RCACHE_READS/MISS_R/BANK_ST/MSHR_ST of each
//     engine (raster.CostModel), on the core rasterPerfCore names, so that
//     "all cores" sums the engines.
//
// Engines are published in index order and each sum is a fixed reduction of
// per-engine or per-core values, so the counters do not depend on the worker
// count. spec: vortex-hardware-facts §7; rasterizer §6.2, §13
func (d *Device) publishGraphicsPerf(fr *gfxFrame, rst *raster.Stats, rc raster.Config, tm tex.CostModel, omm om.CostModel, gs *GraphicsStats) {
	type ctr struct {
		csr int
		v   uint64
	}
	// Each core's replay is independent: run them side by side, publish in
	// core order.
	n := d.ncores
	workers := len(fr.cores) / n
	tps, ops := make([]tex.Perf, n), make([]om.Perf, n)
	if len(d.gfx.replayRefs) != n {
		d.gfx.replayRefs = make([][]segRef, n)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			recs := make([]*perfRecorder, workers)
			for w := range recs {
				recs[w] = &fr.cores[w*n+i].rec
			}
			tps[i], ops[i] = replay(recs, tm, omm, &d.gfx.replayRefs[i])
		})
	}
	wg.Wait()
	for i := range n {
		tp, op := tps[i], ops[i]
		for w := range workers {
			c := &fr.cores[w*n+i]
			tp.Reads += c.texReads
			op.Reads, op.Writes = op.Reads+c.omReads, op.Writes+c.omWrites
		}
		addTexPerf(&gs.Tex, &tp)
		addOMPerf(&gs.OM, &op)
		for _, x := range [...]ctr{
			{abi.CSRTexReads, tp.Reads}, {abi.CSRTexLat, tp.Lat}, {abi.CSRTexStalls, tp.Stalls},
			{abi.CSRTexCacheReads, tp.CacheReads}, {abi.CSRTexCacheMissR, tp.CacheMissR},
			{abi.CSRTexCacheBankSt, tp.CacheBankSt}, {abi.CSRTexCacheMSHRSt, tp.CacheMSHRSt},
		} {
			d.perf[i].add(abi.MPMTex, x.csr-abi.CSRMPMBase, x.v)
		}
		for _, x := range [...]ctr{
			{abi.CSROMReads, op.Reads}, {abi.CSROMWrites, op.Writes}, {abi.CSROMLat, op.Lat}, {abi.CSROMStalls, op.Stalls},
			{abi.CSROMCacheReads, op.CacheReads}, {abi.CSROMCacheWrites, op.CacheWrites},
			{abi.CSROMCacheMissR, op.CacheMissR}, {abi.CSROMCacheMissW, op.CacheMissW},
			{abi.CSROMCacheBankSt, op.CacheBankSt}, {abi.CSROMCacheMSHRSt, op.CacheMSHRSt},
		} {
			d.perf[i].add(abi.MPMOM, x.csr-abi.CSRMPMBase, x.v)
		}
	}
	for e := range rst.Perf {
		p := &rst.Perf[e]
		b := &d.perf[rasterPerfCore(e, rc, d.ncores)]
		for _, c := range [...]ctr{
			{abi.CSRRasterReads, p.Reads}, {abi.CSRRasterLat, p.Lat}, {abi.CSRRasterStalls, p.Stalls},
			{abi.CSRRasterCacheReads, p.CacheReads}, {abi.CSRRasterCacheMissR, p.CacheMissR},
			{abi.CSRRasterCacheBankSt, p.CacheBankSt}, {abi.CSRRasterCacheMSHRSt, p.CacheMSHRSt},
		} {
			b.add(abi.MPMRaster, c.csr-abi.CSRMPMBase, c.v)
		}
	}
}

// rasterPerfCore is the core whose RASTER counter bank holds engine e's
// counters: engine e belongs to cluster e / (engines per cluster) (rasterizer
// §6.2, §10), and its counters sit on that cluster's core (e mod engines per
// cluster) mod (cores per cluster) — one engine per core for up to one engine
// per core, so a per-core read sees one engine and the "all cores" sum sees all.
func rasterPerfCore(e int, rc raster.Config, ncores int) int {
	engines, clusters := max(1, rc.Engines), max(1, rc.Clusters)
	per := max(1, engines/clusters)
	coresPer := max(1, ncores/clusters)
	core := (e/per)*coresPer + (e%per)%coresPer
	return min(core, ncores-1)
}

func addTexPerf(t, p *tex.Perf) {
	t.Reads += p.Reads
	t.Lat += p.Lat
	t.Stalls += p.Stalls
	t.CacheReads += p.CacheReads
	t.CacheMissR += p.CacheMissR
	t.CacheBankSt += p.CacheBankSt
	t.CacheMSHRSt += p.CacheMSHRSt
}

func addOMPerf(t, p *om.Perf) {
	t.Reads += p.Reads
	t.Writes += p.Writes
	t.Lat += p.Lat
	t.Stalls += p.Stalls
	t.CacheReads += p.CacheReads
	t.CacheWrites += p.CacheWrites
	t.CacheMissR += p.CacheMissR
	t.CacheMissW += p.CacheMissW
	t.CacheBankSt += p.CacheBankSt
	t.CacheMSHRSt += p.CacheMSHRSt
}
