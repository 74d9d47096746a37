package cache

import "fmt"

// Model is the cache part of a unit's counter cost model (the TEX and OM units
// share it): zero fields take the defaults in brackets, and Resolve checks the
// unit-level bounds. CacheBytes [16384] in CacheWays [4] ways of LineBytes [64]-byte
// lines over CacheBanks [4] line-interleaved banks, MSHRs [8] miss slots, a hit after
// HitLatency [2] cycles and a fill after HitLatency + MemLatency [100].
// spec: vortex-hardware-facts §7 (the sizes are our choice: docs/ABI.md row 21)
type Model struct {
	MemLatency int // cycles from a miss to its fill beyond the hit latency
	HitLatency int // hit latency
	CacheBytes int // capacity per core
	CacheWays  int // associativity
	LineBytes  int // line size (a power of two)
	CacheBanks int // banks (a power of two), line-interleaved
	MSHRs      int // outstanding-miss slots
}

// Resolve fills the defaults and validates the model.
func (m Model) Resolve() (Model, error) {
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
		return m, fmt.Errorf("cache model: latencies mem %d hit %d", m.MemLatency, m.HitLatency)
	case !pow2(m.LineBytes) || m.LineBytes < 4 || m.LineBytes > 4096 || !pow2(m.CacheBanks) || m.CacheBanks > 64 ||
		m.CacheWays < 1 || m.CacheWays > 64 || m.MSHRs < 1 || m.MSHRs > 1<<10:
		return m, fmt.Errorf("cache model: line %d banks %d ways %d mshrs %d", m.LineBytes, m.CacheBanks, m.CacheWays, m.MSHRs)
	case m.CacheBytes%(m.LineBytes*m.CacheWays) != 0 || m.CacheBytes/(m.LineBytes*m.CacheWays) < 1 || m.CacheBytes > 1<<24:
		return m, fmt.Errorf("cache model: %d bytes is not a whole number of %d-way sets of %d-byte lines",
			m.CacheBytes, m.CacheWays, m.LineBytes)
	}
	return m, nil
}

// Geometry is the cache New builds for the (resolved) model.
func (m Model) Geometry() Geometry {
	return Geometry{Bytes: m.CacheBytes, Ways: m.CacheWays, LineBytes: m.LineBytes, Banks: m.CacheBanks,
		MSHRs: m.MSHRs, HitLatency: m.HitLatency, MemLatency: m.MemLatency}
}
