package raster

import (
	"errors"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/cache"
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

// fetcher is one engine's read port onto its rcache: it splits each request
// into its lines and counts READS and LAT.
type fetcher struct {
	c     *cache.Cache
	lb    uint64
	lines []uint64 // scratch: one request's lines
	p     *EnginePerf
}

// request issues one read of n bytes at addr at cycle t and returns its
// response cycle; it counts READS and LAT (the cache counts the rest).
// spec: rasterizer §6.1, §13
//
// A request within one line (a pid word, most headers and records) is the
// one-line case of cache.Request, taken directly: the line's access, answered
// no earlier than t.
func (f *fetcher) request(addr uint64, n int, t int64) int64 {
	first, last := addr/f.lb, (addr+uint64(max(n, 1))-1)/f.lb
	var resp int64
	if first == last {
		r, _ := f.c.Access(first, t, false)
		resp = max(t, r)
	} else {
		f.lines = f.lines[:0]
		for ln := first; ln <= last; ln++ {
			f.lines = append(f.lines, ln)
		}
		resp, _ = f.c.Request(f.lines, t, false)
	}
	f.p.Reads++
	f.p.Lat += uint64(resp - t)
	return resp
}

// errWalkEnded is the cost model's replay abandoned because the walk stopped
// (an error) before a job it needs was walked; run reports the walk's error.
var errWalkEnded = errors.New("raster: cost model: the walk ended early")

// perf replays every engine's fetch stream through the cost model, engines in
// index order and each engine's headers in stripe order, so the counters do not
// depend on which worker walked which bin. It runs beside the walk: each job is
// read only once its done channel is closed; once stop is closed a job not
// walked ends the replay with errWalkEnded. spec: rasterizer §6.1, §6.2, §13
func (f *frame) perf(jobs []job, stop <-chan struct{}) ([]EnginePerf, error) {
	walked := func(j *job) bool {
		select {
		case <-j.done:
			return true
		case <-stop:
		}
		select { // both may be ready: done decides
		case <-j.done:
			return true
		default:
			return false
		}
	}
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
		// m is resolved, so the geometry passes cache.Check.
		c := &fetcher{c: cache.New(cache.Geometry{Bytes: m.CacheBytes, Ways: m.CacheWays, LineBytes: m.LineBytes,
			Banks: m.CacheBanks, MSHRs: m.MSHRs, HitLatency: m.HitLatency, MemLatency: m.MemLatency}),
			lb: uint64(m.LineBytes), lines: make([]uint64, 0, 4), p: p}
		credit := make([]int64, m.MemFifoDepth) // pop cycle of the record holding each credit
		var t, walkEnd int64
		var rec int
		for k := lo; k < hi; k++ {
			j := &jobs[k]
			if !walked(j) {
				return nil, errWalkEnded
			}
			h := f.headers[j.hdr]
			t = c.request(tbuf+uint64(j.hdr)*abi.BinHeaderBytes, abi.BinHeaderBytes, t)
			if h.PidsCount == 0 {
				continue
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
				pid := j.pids[i]
				dr := c.request(f.pbuf+uint64(pid)*f.stride, 4*f.words, pr+int64(m.MulLatency))
				last = max(last, dr)
				start := max(dr, walkEnd)
				walkEnd = start + int64(cost)
				*slot = start
			}
			t = max(last, issue)
		}
		p.Cycles = uint64(max(t, walkEnd))
		k := c.c.Counters()
		p.CacheReads, p.CacheMissR, p.CacheBankSt, p.CacheMSHRSt = k.Reads, k.MissR, k.BankSt, k.MSHRSt
		lo = hi
	}
	return out, nil
}
