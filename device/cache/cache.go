// Package cache is the set-associative LRU cache model shared by the RASTER,
// TEX and OM cost models: lines, miss slots (MSHRs) and per-request bank
// counts, with the counters behind the units' *CACHE_READS/WRITES/MISS_R/
// MISS_W/BANK_ST/MSHR_ST CSRs. It is a cycle model, not a data store: it keeps
// tags, LRU stamps and fill cycles only. spec: vortex-hardware-facts §7
package cache

import "fmt"

// Geometry sizes a cache and its latencies. Bytes is a whole number of
// Ways-way sets of LineBytes-byte lines; lines are interleaved over Banks
// banks (line number mod Banks). A hit answers HitLatency cycles after its
// access; a miss fills HitLatency + MemLatency cycles after it gets a miss
// slot. spec: vortex-hardware-facts §7; rasterizer §12
type Geometry struct {
	Bytes      int // capacity
	Ways       int // associativity
	LineBytes  int // line size (a power of two)
	Banks      int // line-interleaved banks
	MSHRs      int // outstanding-miss slots
	HitLatency int // cycles from access to a hit's data
	MemLatency int // cycles from a miss slot to the fill, beyond HitLatency
}

// Check reports whether g describes a cache New models as specified: positive
// ways, banks, miss slots and line size, a power-of-two line, non-negative
// latencies and at least one whole set. The units' cost models validate their
// own, tighter, bounds when they resolve.
func (g Geometry) Check() error {
	switch {
	case g.HitLatency < 0 || g.MemLatency < 0:
		return fmt.Errorf("cache: latencies hit %d mem %d", g.HitLatency, g.MemLatency)
	case g.LineBytes < 1 || g.LineBytes&(g.LineBytes-1) != 0 || g.Ways < 1 || g.Banks < 1 || g.MSHRs < 1:
		return fmt.Errorf("cache: line %d ways %d banks %d mshrs %d", g.LineBytes, g.Ways, g.Banks, g.MSHRs)
	case g.Bytes%(g.LineBytes*g.Ways) != 0 || g.Bytes/(g.LineBytes*g.Ways) < 1:
		return fmt.Errorf("cache: %d bytes is not a whole number of %d-way sets of %d-byte lines", g.Bytes, g.Ways, g.LineBytes)
	}
	return nil
}

// Counters are a cache's event counts since New. spec: vortex-hardware-facts §7
type Counters struct {
	Reads  uint64 // read line accesses (*CACHE_READS)
	Writes uint64 // write line accesses (OCACHE_WRITES)
	MissR  uint64 // read misses (*CACHE_MISS_R)
	MissW  uint64 // write misses (OCACHE_MISS_W)
	BankSt uint64 // lines that waited behind a same-bank line of their request (*CACHE_BANK_ST)
	MSHRSt uint64 // cycles accesses waited for a free miss slot (*CACHE_MSHR_ST)
}

// line is one way: line number + 1 (0 = invalid), LRU stamp and the cycle its
// fill lands.
type line struct {
	tag, used uint64
	ready     int64
}

// Cache is one modelled cache. It is not safe for concurrent use; each unit
// instance owns its own.
type Cache struct {
	hit, mem int64
	ways     int
	sets     uint64
	setMask  uint64  // sets − 1 when sets is a power of two (else 0: use %)
	bankMask uint64  // banks − 1 when banks is a power of two (else 0: use %)
	lines    []line  // sets × ways
	mshr     []int64 // fill cycle of each miss slot
	bank     []int   // lines per bank in the current request
	clock    uint64  // LRU stamp source: one tick per access
	ctr      Counters
}

// New returns an empty cache (every way invalid, every miss slot free at
// cycle 0) of geometry g. A geometry that fails Check is not rejected here:
// sizes below one are taken as one, so New never fails or panics; callers
// validate with Check (or their cost model's Resolve) at configuration time.
func New(g Geometry) *Cache {
	ways, banks, mshrs := max(g.Ways, 1), max(g.Banks, 1), max(g.MSHRs, 1)
	sets := 1
	if g.LineBytes > 0 {
		sets = max(g.Bytes/(g.LineBytes*ways), 1)
	}
	c := &Cache{hit: int64(g.HitLatency), mem: int64(g.MemLatency), ways: ways, sets: uint64(sets),
		lines: make([]line, sets*ways), mshr: make([]int64, mshrs), bank: make([]int, banks)}
	if sets&(sets-1) == 0 {
		c.setMask = uint64(sets - 1)
	}
	if banks&(banks-1) == 0 {
		c.bankMask = uint64(banks - 1)
	}
	return c
}

// setOf is ln mod sets (a mask when sets is a power of two).
func (c *Cache) setOf(ln uint64) uint64 {
	if c.setMask != 0 || c.sets == 1 {
		return ln & c.setMask
	}
	return ln % c.sets
}

// Counters returns the counts so far.
func (c *Cache) Counters() Counters { return c.ctr }

// Request accesses lines (distinct line numbers, in order) issued together at
// cycle t. Lines of one bank serialise: the k-th line of a bank accesses at
// t + k and counts one BankSt. It returns the cycle the last line answers
// (t when lines is empty) and the longest miss-slot wait among them, which
// the issuing unit stalls for. spec: vortex-hardware-facts §7
func (c *Cache) Request(lines []uint64, t int64, write bool) (resp, stall int64) {
	switch len(lines) {
	case 0:
		return t, 0
	case 1: // one line: no bank conflict is possible
		r, w := c.Access(lines[0], t, write)
		return max(t, r), max(0, w)
	}
	clear(c.bank)
	resp = t
	nb := uint64(len(c.bank))
	for _, ln := range lines {
		var b int
		if c.bankMask != 0 || nb == 1 {
			b = int(ln & c.bankMask)
		} else {
			b = int(ln % nb)
		}
		tb := t + int64(c.bank[b])
		if c.bank[b] > 0 {
			c.ctr.BankSt++
		}
		c.bank[b]++
		r, w := c.Access(ln, tb, write)
		resp, stall = max(resp, r), max(stall, w)
	}
	return resp, stall
}

// Access looks line ln up at cycle t, without bank accounting. A hit answers
// at t + HitLatency, or when the line's fill lands if that is later. A miss
// replaces the set's least recently used way (invalid ways first) and takes
// the miss slot that frees first, waiting for it when it is still busy; the
// fill lands HitLatency + MemLatency after the slot is won. It returns when
// the data is ready and how long the access waited for a miss slot.
// spec: vortex-hardware-facts §7
func (c *Cache) Access(ln uint64, t int64, write bool) (ready, wait int64) {
	c.clock++
	if write {
		c.ctr.Writes++
	} else {
		c.ctr.Reads++
	}
	set := c.lines[c.setOf(ln)*uint64(c.ways):][:c.ways]
	tag := ln + 1
	for i := range set {
		if set[i].tag == tag {
			set[i].used = c.clock
			return max(t+c.hit, set[i].ready), 0
		}
	}
	// The first least recently used way (invalid ways have used 0) and the
	// miss slot that frees first (the first of equals): minimum searches
	// over registers, which the compiler can make conditional moves.
	victim, vu := 0, set[0].used
	for i := 1; i < len(set); i++ {
		if u := set[i].used; u < vu {
			victim, vu = i, u
		}
	}
	if write {
		c.ctr.MissW++
	} else {
		c.ctr.MissR++
	}
	slot, free := 0, c.mshr[0]
	for i := 1; i < len(c.mshr); i++ {
		if m := c.mshr[i]; m < free {
			slot, free = i, m
		}
	}
	start := t
	if free > t {
		wait = free - t
		c.ctr.MSHRSt += uint64(wait)
		start = free
	}
	ready = start + c.hit + c.mem
	c.mshr[slot] = ready
	set[victim] = line{tag: ln + 1, used: c.clock, ready: ready}
	return ready, wait
}
