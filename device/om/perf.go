package om

import "fmt"

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
type CostModel struct {
	MemLatency int // cycles from a miss to its fill beyond the hit latency
	HitLatency int // ocache hit latency
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
	pow2 := func(v int) bool { return v > 0 && v&(v-1) == 0 }
	switch {
	case m.MemLatency < 0 || m.HitLatency < 1:
		return m, fmt.Errorf("om: cost model latencies mem %d hit %d", m.MemLatency, m.HitLatency)
	case !pow2(m.LineBytes) || m.LineBytes < 4 || m.LineBytes > 4096 || !pow2(m.CacheBanks) || m.CacheBanks > 64 ||
		m.CacheWays < 1 || m.CacheWays > 64 || m.MSHRs < 1 || m.MSHRs > 1<<10:
		return m, fmt.Errorf("om: cost model cache line %d banks %d ways %d mshrs %d", m.LineBytes, m.CacheBanks, m.CacheWays, m.MSHRs)
	case m.CacheBytes%(m.LineBytes*m.CacheWays) != 0 || m.CacheBytes/(m.LineBytes*m.CacheWays) < 1 || m.CacheBytes > 1<<24:
		return m, fmt.Errorf("om: cost model cache %d bytes is not a whole number of %d-way sets of %d-byte lines", m.CacheBytes, m.CacheWays, m.LineBytes)
	}
	return m, nil
}

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
