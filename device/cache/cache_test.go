package cache

import "testing"

// small is the test geometry: 2 sets × 2 ways of 64-byte lines over 2 banks,
// 2 miss slots, hit 2, memory 10 (a miss fills 12 cycles after its slot).
var small = Geometry{Bytes: 256, Ways: 2, LineBytes: 64, Banks: 2, MSHRs: 2, HitLatency: 2, MemLatency: 10}

// req is one Request and the answer it must give.
type req struct {
	lines       []uint64
	t           int64
	write       bool
	resp, stall int64
}

// TestRequest pins each request's response and stall, and the counters, for
// streams worked by hand from the Request and Access rules.
// spec: vortex-hardware-facts §7
func TestRequest(t *testing.T) {
	one := small
	one.MSHRs = 1
	for _, c := range []struct {
		name string
		g    Geometry
		reqs []req
		want Counters
	}{
		{"empty request", small, []req{{nil, 5, false, 5, 0}}, Counters{}},
		{"cold miss", small, []req{{[]uint64{0}, 0, false, 12, 0}}, Counters{Reads: 1, MissR: 1}},
		{"hit after fill", small, []req{{[]uint64{0}, 0, false, 12, 0}, {[]uint64{0}, 20, false, 22, 0}},
			Counters{Reads: 2, MissR: 1}},
		// the second access hits the line still filling and answers at its fill.
		{"hit under fill", small, []req{{[]uint64{0}, 0, false, 12, 0}, {[]uint64{0}, 1, false, 12, 0}},
			Counters{Reads: 2, MissR: 1}},
		{"write miss then read hit", small, []req{{[]uint64{3}, 0, true, 12, 0}, {[]uint64{3}, 30, false, 32, 0}},
			Counters{Reads: 1, Writes: 1, MissW: 1}},
		// lines 0, 2, 4 share set 0 (2 ways): 4 evicts 2 (0 was touched at 40),
		// then 2 evicts 4 (0 was touched at 70) and 0 still hits.
		{"LRU eviction", small, []req{
			{[]uint64{0}, 0, false, 12, 0},
			{[]uint64{2}, 20, false, 32, 0},
			{[]uint64{0}, 40, false, 42, 0},
			{[]uint64{4}, 50, false, 62, 0},
			{[]uint64{0}, 70, false, 72, 0},
			{[]uint64{2}, 80, false, 92, 0},
			{[]uint64{0}, 100, false, 102, 0},
		}, Counters{Reads: 7, MissR: 4}},
		// lines 0 and 2 share bank 0: 2 accesses at 1 and fills at 13.
		{"bank serialisation", small, []req{{[]uint64{0, 2}, 0, false, 13, 0}},
			Counters{Reads: 2, MissR: 2, BankSt: 1}},
		{"two banks in parallel", small, []req{{[]uint64{0, 1}, 0, false, 12, 0}},
			Counters{Reads: 2, MissR: 2}},
		// one slot: the second miss (cycle 1) waits 11 cycles for the fill at 12.
		{"miss-slot stall", one, []req{{[]uint64{0}, 0, false, 12, 0}, {[]uint64{1}, 1, false, 24, 11}},
			Counters{Reads: 2, MissR: 2, MSHRSt: 11}},
		// a hit needs no miss slot even while the only one is busy.
		{"hit needs no slot", one, []req{{[]uint64{0}, 0, false, 12, 0}, {[]uint64{0}, 1, false, 12, 0}},
			Counters{Reads: 2, MissR: 1}},
		// three lines of bank 0 at 0, 1, 2 over two slots: the third waits for
		// the first fill (12), fills at 24 and evicts line 0 (set 0's LRU).
		{"bank and slot together", small, []req{{[]uint64{0, 2, 4}, 0, false, 24, 10}, {[]uint64{0}, 30, false, 42, 0}},
			Counters{Reads: 4, MissR: 4, BankSt: 2, MSHRSt: 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := New(c.g)
			for i, r := range c.reqs {
				resp, stall := k.Request(r.lines, r.t, r.write)
				if resp != r.resp || stall != r.stall {
					t.Errorf("request %d %v at %d: resp %d stall %d, want %d %d", i, r.lines, r.t, resp, stall, r.resp, r.stall)
				}
			}
			if got := k.Counters(); got != c.want {
				t.Errorf("counters %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestAccess checks that Access skips bank accounting and reports its wait.
func TestAccess(t *testing.T) {
	g := small
	g.MSHRs = 1
	k := New(g)
	for i, c := range []struct {
		ln          uint64
		t           int64
		ready, wait int64
	}{{0, 0, 12, 0}, {2, 0, 24, 12}, {0, 5, 12, 0}} {
		if r, w := k.Access(c.ln, c.t, false); r != c.ready || w != c.wait {
			t.Errorf("access %d: ready %d wait %d, want %d %d", i, r, w, c.ready, c.wait)
		}
	}
	if got, want := k.Counters(), (Counters{Reads: 3, MissR: 2, MSHRSt: 12}); got != want {
		t.Errorf("counters %+v, want %+v", got, want)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		g    Geometry
		ok   bool
	}{
		{"small", small, true},
		{"zero", Geometry{}, false},
		{"line not a power of two", Geometry{Bytes: 192, Ways: 1, LineBytes: 48, Banks: 1, MSHRs: 1}, false},
		{"no banks", Geometry{Bytes: 64, Ways: 1, LineBytes: 64, MSHRs: 1}, false},
		{"no miss slots", Geometry{Bytes: 64, Ways: 1, LineBytes: 64, Banks: 1}, false},
		{"partial set", Geometry{Bytes: 96, Ways: 1, LineBytes: 64, Banks: 1, MSHRs: 1}, false},
		{"smaller than a set", Geometry{Bytes: 64, Ways: 2, LineBytes: 64, Banks: 1, MSHRs: 1}, false},
		{"negative latency", Geometry{Bytes: 64, Ways: 1, LineBytes: 64, Banks: 1, MSHRs: 1, MemLatency: -1}, false},
	} {
		if err := c.g.Check(); (err == nil) != c.ok {
			t.Errorf("%s: Check() = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestNewInvalid checks that a geometry failing Check still gives a usable
// one-line cache instead of a panic.
func TestNewInvalid(t *testing.T) {
	k := New(Geometry{Ways: -1, LineBytes: 0, Banks: 0, MSHRs: 0})
	if r, w := k.Request([]uint64{7, 9}, 0, false); r != 1 || w != 0 {
		t.Errorf("resp %d stall %d, want 1 0", r, w)
	}
}

func TestRequestNoAlloc(t *testing.T) {
	k := New(small)
	lines := []uint64{0, 1, 2, 5}
	var t0 int64
	if n := testing.AllocsPerRun(100, func() { t0, _ = k.Request(lines, t0, false) }); n != 0 {
		t.Errorf("Request allocates %v times", n)
	}
}

func BenchmarkRequest(b *testing.B) {
	k := New(Geometry{Bytes: 16384, Ways: 4, LineBytes: 64, Banks: 4, MSHRs: 8, HitLatency: 2, MemLatency: 100})
	lines := make([]uint64, 4)
	var t int64
	for i := 0; b.Loop(); i++ {
		for j := range lines {
			lines[j] = uint64(i*3+j*7) & 1023
		}
		t, _ = k.Request(lines, t+1, false)
	}
}
