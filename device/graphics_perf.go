package device

import (
	"vortexgfx/abi"
	"vortexgfx/device/raster"
)

// publishGraphicsPerf adds one frame's fixed-function counters to the MPM banks
// the host reads through MPM_VALUE (facts §7):
//   - TEX READS on each core: the vx_tex requests its fragment waves made;
//   - OM READS / WRITES on each core: fragments exported / written;
//   - RASTER READS, LAT, ST and RCACHE_READS/MISS_R/BANK_ST/MSHR_ST of each
//     engine (raster.CostModel), on the core rasterPerfCore names, so that
//     "all cores" sums the engines.
//
// Engines are published in index order and each sum is a fixed reduction of
// per-engine or per-core values, so the counters do not depend on the worker
// count. spec: vortex-hardware-facts §7; rasterizer §6.2, §13
func (d *Device) publishGraphicsPerf(fr *gfxFrame, rst *raster.Stats, rc raster.Config) {
	for i := range fr.cores {
		c := &fr.cores[i]
		d.perf[i].add(abi.MPMTex, abi.CSRTexReads-abi.CSRMPMBase, c.texReads)
		d.perf[i].add(abi.MPMOM, abi.CSROMReads-abi.CSRMPMBase, c.omReads)
		d.perf[i].add(abi.MPMOM, abi.CSROMWrites-abi.CSRMPMBase, c.omWrites)
	}
	for e := range rst.Perf {
		p := &rst.Perf[e]
		b := &d.perf[rasterPerfCore(e, rc, d.ncores)]
		for _, c := range [...]struct {
			csr int
			v   uint64
		}{
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
