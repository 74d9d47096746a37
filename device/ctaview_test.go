package device

import (
	"bytes"
	"fmt"
	"testing"

	"vortexgfx/device/mem"
)

// TestCTAViewsMatchCopies: every zero-copy access (ReadView, WriteView,
// Copy, the word runs, CopyWordsSpan, Touch and a Span's accessors) leaves the same bytes in
// memory, counts the same accesses for the cost model and records the same
// first fault as the Read/Write/ReadU32/WriteU32 sequence it stands for —
// inside an allocation, straddling its end, unmapped, and after a free
// under a taken span. spec: vortex-hardware-facts §1.4 (device memory faults
// end the launch)
func TestCTAViewsMatchCopies(t *testing.T) {
	type access func(c *CTA, a, b uint64)
	pairs := []struct {
		name       string
		fast, slow access
	}{
		{"ReadView", func(c *CTA, a, b uint64) {
			v := c.ReadView(a, make([]byte, 12))
			c.Write(b, v)
		}, func(c *CTA, a, b uint64) {
			p := make([]byte, 12)
			c.Read(a, p)
			c.Write(b, p)
		}},
		{"WriteView", func(c *CTA, a, b uint64) {
			if d := c.WriteView(b, 8); d != nil {
				copy(d, "abcdefgh")
			} else {
				c.Write(b, []byte("abcdefgh"))
			}
		}, func(c *CTA, a, b uint64) { c.Write(b, []byte("abcdefgh")) }},
		{"Copy", func(c *CTA, a, b uint64) { c.Copy(b, a, make([]byte, 20)) }, func(c *CTA, a, b uint64) {
			p := make([]byte, 20)
			c.Read(a, p)
			c.Write(b, p)
		}},
		{"Words", func(c *CTA, a, b uint64) {
			w := make([]uint32, 5)
			c.ReadWords(a, w)
			c.WriteWords(b, w)
		}, func(c *CTA, a, b uint64) {
			w := make([]uint32, 5)
			for i := range w {
				w[i] = c.ReadU32(a + 4*uint64(i))
			}
			for i, v := range w {
				c.WriteU32(b+4*uint64(i), v)
			}
		}},
		{"CopyWords", func(c *CTA, a, b uint64) { c.CopyWords(b, a, 6) }, func(c *CTA, a, b uint64) {
			for k := uint64(0); k < 6; k++ {
				c.WriteU32(b+4*k, c.ReadU32(a+4*k))
			}
		}},
		{"Touch", func(c *CTA, a, b uint64) { c.Touch(a, 16) }, func(c *CTA, a, b uint64) { c.Read(a, make([]byte, 16)) }},
		{"Span", func(c *CTA, a, b uint64) {
			sa, sb := c.Span(a), c.Span(b)
			w := make([]uint32, 3)
			sa.ReadWords(4, w)
			sb.WriteWords(0, w)
			sb.WriteU32(12, sa.ReadU32(0))
			sb.Write(16, sa.ReadView(8, make([]byte, 6)))
			if d := sb.WriteView(24, 4); d != nil {
				copy(d, "wxyz")
			} else {
				c.Write(b+24, []byte("wxyz"))
			}
			c.CopySpan(&sb, 28, &sa, 2, make([]byte, 9))
		}, func(c *CTA, a, b uint64) {
			for i := uint64(0); i < 3; i++ {
				c.WriteU32(b+4*i, c.ReadU32(a+4+4*i))
			}
			c.WriteU32(b+12, c.ReadU32(a))
			p := make([]byte, 6)
			c.Read(a+8, p)
			c.Write(b+16, p)
			c.Write(b+24, []byte("wxyz"))
			q := make([]byte, 9)
			c.Read(a+2, q)
			c.Write(b+28, q)
		}},
		{"CopyWordsSpan", func(c *CTA, a, b uint64) {
			sa, sb := c.Span(a), c.Span(b)
			c.CopyWordsSpan(&sb, 4, &sa, 0, make([]uint32, 4))
		}, func(c *CTA, a, b uint64) {
			// All four words are read before any is stored (the runs may
			// overlap: a source straddling its allocation's end reads the
			// next one), as the span's ReadWords then WriteWords do.
			w := make([]uint32, 4)
			for k := range w {
				w[k] = c.ReadU32(a + 4*uint64(k))
			}
			for k, v := range w {
				c.WriteU32(b+4+4*uint64(k), v)
			}
		}},
		// After an earlier fault the copy is still exactly the span's
		// ReadWords then WriteWords it stands for.
		{"CopyWordsSpan after a fault", func(c *CTA, a, b uint64) {
			c.ReadU32(1 << 30)
			sa, sb := c.Span(a), c.Span(b)
			c.CopyWordsSpan(&sb, 4, &sa, 0, make([]uint32, 4))
		}, func(c *CTA, a, b uint64) {
			c.ReadU32(1 << 30)
			sa, sb := c.Span(a), c.Span(b)
			w := make([]uint32, 4)
			sa.ReadWords(0, w)
			sb.WriteWords(4, w)
		}},
	}
	// Source and destination offsets into two 64-byte allocations: inside,
	// straddling the end, and (a past both) unmapped.
	places := []struct{ src, dst uint64 }{{0, 0}, {40, 8}, {8, 40}, {60, 0}, {1 << 20, 4}}
	for _, p := range pairs {
		for _, at := range places {
			for _, free := range []bool{false, true} {
				var got [2]struct {
					mem    []byte
					ops    uint64
					err    string
					failed bool
				}
				for k, run := range []access{p.fast, p.slow} {
					m := mem.NewDevice(mem.DefaultDeviceBase, 1<<16)
					a, _ := m.Alloc(64, 0)
					b, _ := m.Alloc(64, 0)
					init := make([]byte, 64)
					for i := range init {
						init[i] = byte(i*7 + 1)
					}
					_ = m.Write(a, init)
					var c CTA
					c.setMemory(m)
					c.ReadU32(a) // a window on a, as a kernel's earlier access leaves
					if free {
						_ = c.Span(a) // taken, then the allocation goes
						_ = m.Free(a)
					}
					run(&c, a+at.src, b+at.dst)
					out := make([]byte, 64)
					_ = m.Read(b, out)
					got[k].mem, got[k].ops, got[k].failed = out, c.memOps, c.err != nil
					if c.err != nil {
						got[k].err = c.err.Error()
					}
				}
				name := fmt.Sprintf("%s src+%d dst+%d freed %v", p.name, at.src, at.dst, free)
				if !bytes.Equal(got[0].mem, got[1].mem) || got[0].ops != got[1].ops || got[0].err != got[1].err {
					t.Errorf("%s: memory equal %v, %d vs %d accesses, fault %q vs %q", name,
						bytes.Equal(got[0].mem, got[1].mem), got[0].ops, got[1].ops, got[0].err, got[1].err)
				}
			}
		}
	}
}

// TestCTASpanOutlivesFree: a span taken before its allocation is freed
// faults on its next access exactly as the CTA's own access does.
func TestCTASpanOutlivesFree(t *testing.T) {
	m := mem.NewDevice(mem.DefaultDeviceBase, 1<<16)
	a, _ := m.Alloc(64, 0)
	var c CTA
	c.setMemory(m)
	s := c.Span(a)
	s.WriteU32(8, 42)
	if v := s.ReadU32(8); v != 42 || c.Err() != nil || c.memOps != 2 {
		t.Fatalf("span read %d, %v, %d accesses", v, c.Err(), c.memOps)
	}
	_ = m.Free(a)
	if v := s.ReadU32(8); v != 0 || !faultAt(c.Err(), "read of 4 bytes", a+8) || c.memOps != 3 {
		t.Fatalf("span read after the free: %d, %v, %d accesses", v, c.Err(), c.memOps)
	}
}

// TestCTASpanHas: Has is true exactly for ranges inside the span's allocation
// while the allocation map is the span's, and counts no access.
func TestCTASpanHas(t *testing.T) {
	m := mem.NewDevice(mem.DefaultDeviceBase, 1<<16)
	a, _ := m.Alloc(64, 0)
	var c CTA
	c.setMemory(m)
	s := c.Span(a + 8)
	for _, tc := range []struct {
		off  uint64
		n    int
		want bool
	}{
		{0, 4, true}, {0, 56, true}, {52, 4, true}, {53, 4, false}, {0, 57, false},
		{56, 1, false}, {0, 0, false}, {0, -1, false}, {1 << 62, 4, false},
	} {
		if got := s.Has(tc.off, tc.n); got != tc.want {
			t.Errorf("Has(%d, %d) = %v, want %v", tc.off, tc.n, got, tc.want)
		}
	}
	if c.memOps != 0 || c.Err() != nil {
		t.Fatalf("Has counted %d accesses, fault %v", c.memOps, c.Err())
	}
	if _, err := m.Alloc(64, 0); err != nil { // a new allocation map
		t.Fatal(err)
	}
	if s.Has(0, 4) {
		t.Errorf("Has after the allocation map changed: true, want false (the CTA's path)")
	}
}
