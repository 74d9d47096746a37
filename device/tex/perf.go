package tex

import "fmt"

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
type CostModel struct {
	MemLatency int // cycles from a miss to its fill beyond the hit latency
	HitLatency int // tcache hit latency
	CacheBytes int // capacity per core
	CacheWays  int // associativity
	LineBytes  int // line size (a power of two)
	CacheBanks int // banks (a power of two), line-interleaved
	MSHRs      int // outstanding-miss slots
}

// Resolve fills the defaults and validates the model.
func (m CostModel) Resolve() (CostModel, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&m.MemLatency, 100)
	def(&m.HitLatency, 2)
	def(&m.CacheBytes, 16384)
	def(&m.CacheWays, 4)
	def(&m.LineBytes, 64)
	def(&m.CacheBanks, 4)
	def(&m.MSHRs, 8)
	if err := checkCache(m.MemLatency, m.HitLatency, m.CacheBytes, m.CacheWays, m.LineBytes, m.CacheBanks, m.MSHRs); err != nil {
		return m, fmt.Errorf("tex: cost model: %w", err)
	}
	return m, nil
}

func checkCache(mem, hit, bytes, ways, line, banks, mshrs int) error {
	pow2 := func(v int) bool { return v > 0 && v&(v-1) == 0 }
	switch {
	case mem < 0 || hit < 1:
		return fmt.Errorf("latencies mem %d hit %d", mem, hit)
	case !pow2(line) || line < 4 || line > 4096 || !pow2(banks) || banks > 64 || ways < 1 || ways > 64 || mshrs < 1 || mshrs > 1<<10:
		return fmt.Errorf("cache line %d banks %d ways %d mshrs %d", line, banks, ways, mshrs)
	case bytes%(line*ways) != 0 || bytes/(line*ways) < 1 || bytes > 1<<24:
		return fmt.Errorf("cache %d bytes is not a whole number of %d-way sets of %d-byte lines", bytes, ways, line)
	}
	return nil
}

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
