package raster

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
)

// CostModel is the deterministic cycle model behind the RASTER performance
// counters (facts §7: READS, LAT, ST, RCACHE_READS/MISS_R/BANK_ST/MSHR_ST). It
// is a model, not wall time: the same frame gives the same counters for any
// worker count. Zero fields take the defaults in brackets.
//
// Each engine replays its stripe's fetch stream (rasterizer §6.1) in header
// order, one request per cycle:
//   - TILE: one 12-byte header read; the FSM waits for it before the next
//     header (an empty bin advances on the response).
//   - PID: the bin's pid words, one request per cycle from the header response,
//     each needing a credit; the credits (MemFifoDepth [8], rasterizer §12) are
//     returned when the walker pops the record from the output queue. Cycles a
//     pid request waits only for a credit are output stalls (ST): the walk and
//     packer downstream could not accept.
//   - PDATA: on the pid's response (plus MulLatency [3], LATENCY_IMUL), one
//     request for the record's visible 36 bytes (48 with early-Z).
//
// The walker pops records in pid-list order; a record's walk costs one cycle per
// TE square tested plus one per BE quad slot of each emitted block (§7.3, §7.4).
// The next header is requested when the bin's last record response lands.
//
// Every request goes through a set-associative, LRU, write-allocate-free rcache
// of CacheBytes [8192] in CacheWays [4] ways of LineBytes [64]-byte lines over
// CacheBanks [1] banks (line-interleaved). RCACHE_READS counts line accesses,
// MISS_R line misses; a request touching k lines of one bank serialises them
// (BANK_ST += k − 1 per bank); a miss needs one of MSHRs [4] miss slots, and
// cycles spent waiting for one are MSHR_ST. A hit answers after HitLatency [2]
// cycles; a miss fills after HitLatency + MemLatency [100] cycles, and accesses
// to a line still filling answer when the fill lands. LAT sums, over all
// requests, the cycles from issue to response (SimX's pending reads summed per
// tick). spec: rasterizer §6.1, §12, §13; vortex-hardware-facts §7
type CostModel struct {
	MemLatency   int // cycles from an rcache miss to its fill
	HitLatency   int // rcache hit latency
	MulLatency   int // pid × stride multiplier latency (LATENCY_IMUL)
	MemFifoDepth int // output-queue depth = in-flight pid credits
	CacheBytes   int // rcache capacity
	CacheWays    int // associativity
	LineBytes    int // line size (a power of two)
	CacheBanks   int // banks (a power of two), line-interleaved
	MSHRs        int // outstanding-miss slots
}

func (m CostModel) resolve() (CostModel, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&m.MemLatency, 100)
	def(&m.HitLatency, 2)
	def(&m.MulLatency, 3)
	def(&m.MemFifoDepth, 8)
	def(&m.CacheBytes, 8192)
	def(&m.CacheWays, 4)
	def(&m.LineBytes, 64)
	def(&m.CacheBanks, 1)
	def(&m.MSHRs, 4)
	pow2 := func(v int) bool { return v > 0 && v&(v-1) == 0 }
	switch {
	case m.MemLatency < 0 || m.HitLatency < 1 || m.MulLatency < 0:
		return m, fmt.Errorf("raster: cost model latencies mem %d hit %d mul %d", m.MemLatency, m.HitLatency, m.MulLatency)
	case m.MemFifoDepth < 1 || m.MemFifoDepth > 1<<12:
		return m, fmt.Errorf("raster: cost model MEM_FIFO_DEPTH %d outside [1, 4096]", m.MemFifoDepth)
	case !pow2(m.LineBytes) || m.LineBytes < 4 || !pow2(m.CacheBanks) || m.CacheWays < 1 || m.MSHRs < 1 || m.MSHRs > 1<<10:
		return m, fmt.Errorf("raster: cost model cache line %d banks %d ways %d mshrs %d", m.LineBytes, m.CacheBanks, m.CacheWays, m.MSHRs)
	case m.CacheBytes%(m.LineBytes*m.CacheWays) != 0 || m.CacheBytes/(m.LineBytes*m.CacheWays) < 1 || m.CacheBytes > 1<<24:
		return m, fmt.Errorf("raster: cost model cache %d bytes is not a whole number of %d-way sets of %d-byte lines", m.CacheBytes, m.CacheWays, m.LineBytes)
	}
	return m, nil
}

// EnginePerf is one RASTER engine's counters for a frame, at the MPM RASTER
// class CSRs of facts §7, plus the engine's modelled busy cycles.
// spec: vortex-hardware-facts §7
type EnginePerf struct {
	Reads       uint64 // READS (0xB03): fetch requests (headers, pids, records)
	Lat         uint64 // LAT (0xB04): Σ request issue→response cycles
	Stalls      uint64 // ST (0xB05): fetch cycles blocked by a full output queue
	CacheReads  uint64 // RCACHE_READS (0xB06): rcache line accesses
	CacheMissR  uint64 // RCACHE_MISS_R (0xB07)
	CacheBankSt uint64 // RCACHE_BANK_ST (0xB08)
	CacheMSHRSt uint64 // RCACHE_MSHR_ST (0xB09)
	Cycles      uint64 // the engine's modelled busy cycles for the frame
}

func (p *EnginePerf) add(o *EnginePerf) {
	p.Reads += o.Reads
	p.Lat += o.Lat
	p.Stalls += o.Stalls
	p.CacheReads += o.CacheReads
	p.CacheMissR += o.CacheMissR
	p.CacheBankSt += o.CacheBankSt
	p.CacheMSHRSt += o.CacheMSHRSt
	p.Cycles = max(p.Cycles, o.Cycles)
}

// Total sums the engines' counters (Cycles is the slowest engine's).
func (s *Stats) Total() EnginePerf {
	var t EnginePerf
	for i := range s.Perf {
		t.add(&s.Perf[i])
	}
	return t
}

// cacheLine is one rcache way: the line address (+1, 0 = invalid), its LRU
// stamp and the cycle its fill lands.
type cacheLine struct {
	tag   uint64
	used  uint64
	ready int64
}

// rcache is the set-associative cache model with its MSHRs and bank counts.
type rcache struct {
	m     CostModel
	sets  uint64
	lines []cacheLine // sets × ways
	mshr  []int64     // fill cycle of each miss slot
	bank  []int       // lines per bank of the current request
	clock uint64
	p     *EnginePerf
}

func newRCache(m CostModel, p *EnginePerf) *rcache {
	sets := m.CacheBytes / (m.LineBytes * m.CacheWays)
	return &rcache{m: m, sets: uint64(sets), lines: make([]cacheLine, sets*m.CacheWays),
		mshr: make([]int64, m.MSHRs), bank: make([]int, m.CacheBanks), p: p}
}

// request issues one read of n bytes at addr at cycle t and returns its
// response cycle; it counts READS, LAT and the cache counters.
func (c *rcache) request(addr uint64, n int, t int64) int64 {
	lb := uint64(c.m.LineBytes)
	first, last := addr/lb, (addr+uint64(max(n, 1))-1)/lb
	for i := range c.bank {
		c.bank[i] = 0
	}
	resp := t
	for ln := first; ln <= last; ln++ {
		b := int(ln % uint64(c.m.CacheBanks))
		tb := t + int64(c.bank[b]) // same-bank lines serialise
		if c.bank[b] > 0 {
			c.p.CacheBankSt++
		}
		c.bank[b]++
		resp = max(resp, c.access(ln, tb))
	}
	c.p.Reads++
	c.p.Lat += uint64(resp - t)
	return resp
}

// access looks one line up at cycle t and returns when its data is ready.
func (c *rcache) access(ln uint64, t int64) int64 {
	c.clock++
	c.p.CacheReads++
	set := c.lines[(ln%c.sets)*uint64(c.m.CacheWays):][:c.m.CacheWays]
	victim := 0
	for i := range set {
		if set[i].tag == ln+1 {
			set[i].used = c.clock
			return max(t+int64(c.m.HitLatency), set[i].ready)
		}
		if set[i].used < set[victim].used {
			victim = i
		}
	}
	c.p.CacheMissR++
	slot := 0
	for i := range c.mshr {
		if c.mshr[i] < c.mshr[slot] {
			slot = i
		}
	}
	start := t
	if c.mshr[slot] > t {
		c.p.CacheMSHRSt += uint64(c.mshr[slot] - t)
		start = c.mshr[slot]
	}
	ready := start + int64(c.m.HitLatency+c.m.MemLatency)
	c.mshr[slot] = ready
	set[victim] = cacheLine{tag: ln + 1, used: c.clock, ready: ready}
	return ready
}

// perf replays every engine's fetch stream through the cost model, engines in
// index order and each engine's headers in stripe order, so the counters do not
// depend on which worker walked which bin. spec: rasterizer §6.1, §6.2, §13
func (f *frame) perf(jobs []job) ([]EnginePerf, error) {
	out := make([]EnginePerf, f.cfg.Engines)
	m := f.cfg.Cost
	tbuf := abi.ByteAddr(f.st.TBufAddr)
	// jobs are grouped by engine, each group in stripe order (Run builds them so).
	for lo := 0; lo < len(jobs); {
		e := jobs[lo].engine
		hi := lo
		for hi < len(jobs) && jobs[hi].engine == e {
			hi++
		}
		p := &out[e]
		c := newRCache(m, p)
		credit := make([]int64, m.MemFifoDepth) // pop cycle of the record holding each credit
		var t, walkEnd int64
		var rec int
		for _, j := range jobs[lo:hi] {
			h := f.headers[j.hdr]
			t = c.request(tbuf+uint64(j.hdr)*abi.BinHeaderBytes, abi.BinHeaderBytes, t)
			if h.PidsCount == 0 {
				continue
			}
			pb, err := f.mem.View(f.pidsBase+uint64(h.PidsOffset)*4, len(j.cost)*4)
			if err != nil {
				return nil, fmt.Errorf("raster: cost model: bin (%d, %d) pid list: %w", h.BinX, h.BinY, err)
			}
			issue := t // the header response
			var last int64
			for i, cost := range j.cost {
				slot := &credit[rec%m.MemFifoDepth]
				rec++
				if *slot > issue {
					p.Stalls += uint64(*slot - issue)
					issue = *slot
				}
				pr := c.request(f.pidsBase+(uint64(h.PidsOffset)+uint64(i))*4, 4, issue)
				issue++
				pid := binary.LittleEndian.Uint32(pb[4*i:]) & (abi.MaxPrimsPerPass - 1)
				dr := c.request(f.pbuf+uint64(pid)*f.stride, 4*f.words, pr+int64(m.MulLatency))
				last = max(last, dr)
				start := max(dr, walkEnd)
				walkEnd = start + int64(cost)
				*slot = start
			}
			t = max(last, issue)
		}
		p.Cycles = uint64(max(t, walkEnd))
		lo = hi
	}
	return out, nil
}
