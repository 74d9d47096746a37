package tex

import "vortexgfx/device/cache"

// CostModel is the deterministic model behind the TEX performance counters
// (facts §7: READS, LAT, ST, TCACHE_READS/MISS_R/BANK_ST/MSHR_ST): one texture
// cache per core, replayed by the device after each frame in a fixed wave
// order. Zero fields take the defaults in brackets.
//
// Each vx_tex request issues in one cycle and reads the distinct cache lines of
// its texel taps (Taps): CacheBytes [16384] in CacheWays [4] ways of LineBytes
// [64]-byte lines over CacheBanks [4] line-interleaved banks, LRU, read-only.
// Lines of one bank serialise (BANK_ST += k − 1 per bank); a miss takes one of
// MSHRs [8] miss slots and fills after HitLatency [2] + MemLatency [100] cycles;
// a hit answers after HitLatency, or when its line's fill lands. When no miss
// slot is free the request waits for the earliest one: each line's wait is
// MSHR_ST and the request's longest wait stalls the unit's issue (ST). LAT sums
// each request's issue-to-response cycles. spec: vortex-hardware-facts §7
//
// The cache parameters and their defaults are cache.Model's, shared with the
// other unit.
type CostModel = cache.Model

// Perf is one core's TEX counters for a frame, at the MPM TEX class CSRs of
// facts §7. spec: vortex-hardware-facts §7
type Perf struct {
	Reads       uint64 // READS (0xB03): vx_tex requests
	Lat         uint64 // LAT (0xB04): Σ request issue→response cycles
	Stalls      uint64 // ST (0xB05): issue cycles lost to full miss slots
	CacheReads  uint64 // TCACHE_READS (0xB06): line accesses
	CacheMissR  uint64 // TCACHE_MISS_R (0xB07)
	CacheBankSt uint64 // TCACHE_BANK_ST (0xB08)
	CacheMSHRSt uint64 // TCACHE_MSHR_ST (0xB09)
}

// Lines appends to dst the distinct line numbers (address / lineBytes) of t's
// taps in first-touch order and returns it. lineShift is log2 of the line size.
func (t *Taps) Lines(lineShift uint, dst []uint64) []uint64 {
	start := len(dst)
next:
	for _, a := range t.Addr[:t.N] {
		ln := a >> lineShift
		for _, x := range dst[start:] {
			if x == ln {
				continue next
			}
		}
		dst = append(dst, ln)
	}
	return dst
}
