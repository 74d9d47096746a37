package cache

import (
	"math/rand/v2"
	"testing"
)

// TestReadWriteMatchesRequests drives ReadWrite and the plain model's two
// requests (the read, then the write at the read's answer) with the same
// random exports — zero to two lines each way, depth and colour lines often
// equal, near and far — and requires the same answers, waits and counters.
// spec: vortex-hardware-facts §7
func TestReadWriteMatchesRequests(t *testing.T) {
	geoms := []Geometry{
		{Bytes: 16 << 10, Ways: 4, LineBytes: 64, Banks: 4, MSHRs: 8, HitLatency: 2, MemLatency: 100},
		{Bytes: 3 * 4 * 64, Ways: 4, LineBytes: 64, Banks: 3, MSHRs: 2, HitLatency: 1, MemLatency: 10},
		{Bytes: 64, Ways: 1, LineBytes: 64, Banks: 1, MSHRs: 1, HitLatency: 0, MemLatency: 5},
	}
	for gi, g := range geoms {
		r := rand.New(rand.NewPCG(uint64(gi), 11))
		a, p := New(g), newPlain(g)
		var tm int64
		for i := 0; i < 30000; i++ {
			zl := uint64(r.IntN(64))
			cl := zl
			if r.IntN(4) != 0 {
				cl = 1000 + uint64(r.IntN(64))
			}
			sel := func() ([2]uint64, int, []uint64) {
				z, c := r.IntN(2) == 0, r.IntN(2) == 0
				var ls []uint64
				if z {
					ls = append(ls, zl)
				}
				if c && !(z && cl == zl) {
					ls = append(ls, cl)
				}
				var arr [2]uint64
				copy(arr[:], ls)
				return arr, len(ls), ls
			}
			rd, nr, rds := sel()
			wr, nw, wrs := sel()
			resp, rs, ws := a.ReadWrite(rd, nr, wr, nw, tm)
			presp, prs := tm, int64(0)
			if nr > 0 {
				presp, prs = p.request(rds, tm, false)
			}
			var pws int64
			if nw > 0 {
				_, pws = p.request(wrs, presp, true)
			}
			if resp != presp || rs != prs || ws != pws || a.Counters() != p.ctr {
				t.Fatalf("geometry %d export %d read %v write %v at %d: got (%d, %d, %d) %+v, want (%d, %d, %d) %+v",
					gi, i, rds, wrs, tm, resp, rs, ws, a.Counters(), presp, prs, pws, p.ctr)
			}
			tm += 1 + rs + ws
		}
	}
}

// BenchmarkOMReadWrite is BenchmarkOMStream through ReadWrite.
func BenchmarkOMReadWrite(b *testing.B) {
	c := New(Geometry{Bytes: 16 << 10, Ways: 4, LineBytes: 64, Banks: 4, MSHRs: 8, HitLatency: 2, MemLatency: 40})
	var t int64
	var px uint64
	for b.Loop() {
		zl, cl := px/16, 1<<20+px/16
		_, rs, ws := c.ReadWrite([2]uint64{zl}, 1, [2]uint64{zl, cl}, 2, t)
		t += 1 + rs + ws
		px = (px + 1) % (512 * 512)
	}
}
