package om

import "vortexgfx/device/cache"

// CostModel is the deterministic model behind the OM performance counters
// (facts §7: READS, WRITES, LAT, ST, OCACHE_READS/WRITES/MISS_R/MISS_W/BANK_ST/
// MSHR_ST): one output cache per core, replayed by the device after each frame
// in a fixed wave order. Zero fields take the defaults in brackets.
//
// Each exported fragment issues in one cycle: one read request for the
// depth/stencil and colour words it reads (Access), then, when that answers, one
// write request for the words it writes. The ocache is CacheBytes [16384] in
// CacheWays [4] ways of LineBytes [64]-byte lines over CacheBanks [4]
// line-interleaved banks, LRU, write-back and write-allocate (a write miss
// fetches its line). Lines of one bank in one request serialise (BANK_ST +=
// k − 1 per bank); a read or write miss takes one of MSHRs [8] miss slots and
// fills after HitLatency [2] + MemLatency [100] cycles; a hit answers after
// HitLatency, or when its line's fill lands. Waiting for a free miss slot is
// MSHR_ST per line, and a request's longest such wait stalls the unit (ST). LAT
// sums the read requests' issue-to-response cycles (writes are posted).
// spec: vortex-hardware-facts §7
//
// The cache parameters and their defaults are cache.Model's, shared with the
// other unit.
type CostModel = cache.Model

// Perf is one core's OM counters for a frame, at the MPM OM class CSRs of
// facts §7. spec: vortex-hardware-facts §7
type Perf struct {
	Reads       uint64 // READS (0xB03): fragments exported to the OM
	Writes      uint64 // WRITES (0xB04): fragments that passed and were merged
	Lat         uint64 // LAT (0xB05): Σ read-request issue→response cycles
	Stalls      uint64 // ST (0xB06): issue cycles lost to full miss slots
	CacheReads  uint64 // OCACHE_READS (0xB07): line reads
	CacheWrites uint64 // OCACHE_WRITES (0xB08): line writes
	CacheMissR  uint64 // OCACHE_MISS_R (0xB09)
	CacheMissW  uint64 // OCACHE_MISS_W (0xB0A)
	CacheBankSt uint64 // OCACHE_BANK_ST (0xB0B)
	CacheMSHRSt uint64 // OCACHE_MSHR_ST (0xB0C)
}
