package cache

import (
	"math/rand/v2"
	"testing"
)

// plainCache is the cache model written the obvious way (modulo set and bank
// selection, every request through the bank loop): the reference the
// optimised Cache must match counter for counter and cycle for cycle.
type plainCache struct {
	hit, mem int64
	ways     int
	sets     uint64
	lines    []line
	mshr     []int64
	bank     []int
	clock    uint64
	ctr      Counters
}

func newPlain(g Geometry) *plainCache {
	c := New(g)
	return &plainCache{hit: c.hit, mem: c.mem, ways: c.ways, sets: c.sets, lines: make([]line, len(c.lines)),
		mshr: make([]int64, len(c.mshr)), bank: make([]int, len(c.bank))}
}

func (c *plainCache) request(lines []uint64, t int64, write bool) (resp, stall int64) {
	clear(c.bank)
	resp = t
	for _, ln := range lines {
		b := int(ln % uint64(len(c.bank)))
		tb := t + int64(c.bank[b])
		if c.bank[b] > 0 {
			c.ctr.BankSt++
		}
		c.bank[b]++
		r, w := c.access(ln, tb, write)
		resp, stall = max(resp, r), max(stall, w)
	}
	return resp, stall
}

func (c *plainCache) access(ln uint64, t int64, write bool) (ready, wait int64) {
	c.clock++
	if write {
		c.ctr.Writes++
	} else {
		c.ctr.Reads++
	}
	set := c.lines[(ln%c.sets)*uint64(c.ways):][:c.ways]
	victim := 0
	for i := range set {
		if set[i].tag == ln+1 {
			set[i].used = c.clock
			return max(t+c.hit, set[i].ready), 0
		}
		if set[i].used < set[victim].used {
			victim = i
		}
	}
	if write {
		c.ctr.MissW++
	} else {
		c.ctr.MissR++
	}
	slot := 0
	for i := range c.mshr {
		if c.mshr[i] < c.mshr[slot] {
			slot = i
		}
	}
	start := t
	if c.mshr[slot] > t {
		wait = c.mshr[slot] - t
		c.ctr.MSHRSt += uint64(wait)
		start = c.mshr[slot]
	}
	ready = start + c.hit + c.mem
	c.mshr[slot] = ready
	set[victim] = line{tag: ln + 1, used: c.clock, ready: ready}
	return ready, wait
}

// TestMatchesPlainModel drives Cache and the plain model with the same random
// requests (0 to 4 distinct lines each) over power-of-two and other set and
// bank counts, including a negative hit latency New accepts, and requires the
// same answers and counters. spec: vortex-hardware-facts §7
func TestMatchesPlainModel(t *testing.T) {
	geoms := []Geometry{
		{Bytes: 16 << 10, Ways: 4, LineBytes: 64, Banks: 4, MSHRs: 8, HitLatency: 2, MemLatency: 40},
		{Bytes: 3 * 4 * 64, Ways: 4, LineBytes: 64, Banks: 3, MSHRs: 2, HitLatency: 1, MemLatency: 10},
		{Bytes: 64, Ways: 1, LineBytes: 64, Banks: 1, MSHRs: 1, HitLatency: 0, MemLatency: 5},
		{Bytes: 5 * 2 * 32, Ways: 2, LineBytes: 32, Banks: 8, MSHRs: 4, HitLatency: -3, MemLatency: 7},
	}
	for gi, g := range geoms {
		r := rand.New(rand.NewPCG(uint64(gi), 7))
		a, p := New(g), newPlain(g)
		var tm int64
		for i := 0; i < 20000; i++ {
			n := r.IntN(5)
			var ls []uint64
			for len(ls) < n {
				ln := r.Uint64N(200)
				dup := false
				for _, x := range ls {
					dup = dup || x == ln
				}
				if !dup {
					ls = append(ls, ln)
				}
			}
			w := r.IntN(3) == 0
			r1, s1 := a.Request(ls, tm, w)
			r2, s2 := p.request(ls, tm, w)
			if r1 != r2 || s1 != s2 || a.Counters() != p.ctr {
				t.Fatalf("geometry %d request %d %v at %d: got (%d, %d) %+v, want (%d, %d) %+v", gi, i, ls, tm, r1, s1, a.Counters(), r2, s2, p.ctr)
			}
			tm += int64(r.IntN(4))
		}
	}
}

// BenchmarkOMStream times the OM cost model's replay pattern per export: a
// depth-line read, then the depth and colour lines written together when
// the read answers, over a raster-order walk of a 512-pixel-wide target
// (16 pixels a line) in the default geometry.
func BenchmarkOMStream(b *testing.B) {
	c := New(Geometry{Bytes: 16 << 10, Ways: 4, LineBytes: 64, Banks: 4, MSHRs: 8, HitLatency: 2, MemLatency: 40})
	var t int64
	var px uint64
	lines := make([]uint64, 2)
	for b.Loop() {
		zl, cl := px/16, 1<<20+px/16
		resp, stall := c.Request([]uint64{zl}, t, false)
		lines[0], lines[1] = zl, cl
		_, ws := c.Request(lines, resp, true)
		t += 1 + stall + ws
		px = (px + 1) % (512 * 512)
	}
}
