package device

import (
	"encoding/binary"

	"vortexgfx/device/mem"
)

// Zero-copy access for kernels' hot loops. Each method is exactly the
// Read/Write/ReadU32/WriteU32 sequence its comment names — the same bytes in
// device memory, the same memory-access count for the cost model, the same
// fault for a bad address — but when the bytes lie inside one allocation it
// reaches them through the CTA's allocation window instead of copying them
// through a scratch buffer (and it looks the window up once, not per word).
// spec: vortex-hardware-facts §1.4 (device memory faults end the launch)

// ReadView is Read(addr, buf) that returns the bytes read: the device memory
// itself when the len(buf) bytes lie inside one allocation, else buf filled
// (or faulted) as Read does. The result is read-only and valid until the
// CTA's next write to those bytes.
func (c *CTA) ReadView(addr uint64, buf []byte) []byte {
	if c.wins != nil && len(buf) > 0 {
		if b := c.direct(addr, len(buf)); b != nil {
			c.memOps++
			return b
		}
	}
	c.Read(addr, buf)
	return buf
}

// WriteView returns the n bytes at addr for the caller to fill, counted as
// one Write, when they lie inside one allocation; otherwise nil, and nothing
// is counted: the caller then builds the bytes and calls Write, which faults
// exactly. The caller must fill every byte it means to store.
func (c *CTA) WriteView(addr uint64, n int) []byte {
	if c.wins != nil && n > 0 {
		if b := c.direct(addr, n); b != nil {
			c.memOps++
			return b
		}
	}
	return nil
}

// Copy is Read(src, buf) then Write(dst, buf): len(buf) bytes from src to dst
// (overlapping ranges copy as the snapshot Read takes), directly when both
// ranges lie inside allocations.
func (c *CTA) Copy(dst, src uint64, buf []byte) {
	if c.wins != nil && len(buf) > 0 {
		if s := c.direct(src, len(buf)); s != nil {
			if d := c.direct(dst, len(buf)); d != nil {
				c.memOps += 2
				copy(d, s)
				return
			}
		}
	}
	c.Read(src, buf)
	c.Write(dst, buf)
}

// ReadWords is dst[i] = ReadU32(addr + 4i) for every i, in order.
func (c *CTA) ReadWords(addr uint64, dst []uint32) {
	if c.wins != nil && len(dst) > 0 {
		if b := c.direct(addr, 4*len(dst)); b != nil {
			c.memOps += uint64(len(dst))
			if c.err != nil {
				clear(dst) // ReadU32 yields 0 after a fault
				return
			}
			for i := range dst {
				dst[i] = binary.LittleEndian.Uint32(b[4*i:])
			}
			return
		}
	}
	for i := range dst {
		dst[i] = c.ReadU32(addr + 4*uint64(i))
	}
}

// WriteWords is WriteU32(addr + 4i, src[i]) for every i, in order.
func (c *CTA) WriteWords(addr uint64, src []uint32) {
	if c.wins != nil && len(src) > 0 {
		if b := c.direct(addr, 4*len(src)); b != nil {
			c.memOps += uint64(len(src))
			for i, v := range src {
				binary.LittleEndian.PutUint32(b[4*i:], v)
			}
			return
		}
	}
	for i, v := range src {
		c.WriteU32(addr+4*uint64(i), v)
	}
}

// CopyWords is WriteU32(dst + 4k, ReadU32(src + 4k)) for k = 0..n-1, in order.
// The direct path needs both ranges inside allocations, no earlier fault and
// no overlap (the word loop would then see its own stores).
func (c *CTA) CopyWords(dst, src uint64, n int) {
	nb := uint64(4 * n)
	if c.wins != nil && n > 0 && c.err == nil && (dst+nb <= src || src+nb <= dst) {
		if s := c.direct(src, 4*n); s != nil {
			if d := c.direct(dst, 4*n); d != nil {
				c.memOps += 2 * uint64(n)
				copy(d, s)
				return
			}
		}
	}
	for k := uint64(0); k < uint64(n); k++ {
		c.WriteU32(dst+4*k, c.ReadU32(src+4*k))
	}
}

// Touch is Read of n bytes at addr whose data the kernel does not use (it
// counts and faults as that Read, without copying the bytes anywhere).
func (c *CTA) Touch(addr uint64, n int) {
	if c.wins != nil && n > 0 && c.direct(addr, n) != nil {
		c.memOps++
		return
	}
	c.Read(addr, make([]byte, n))
}

// Span is a kernel's handle on the allocation holding one address: word and
// record accesses at offsets from that address through it are exactly the
// CTA's own (the same bytes, access counts and faults), but reach the
// allocation without searching the CTA's windows, which a loop over several
// buffers at once otherwise does on every access. An access outside the
// allocation, or after the allocation map changed, takes the CTA's path.
type Span struct {
	c    *CTA
	base uint64
	win  mem.Window  // the allocation at base (no Data: none)
	m    *mem.Memory // the memory win came from (nil: none)
	d    []byte      // win.Data from base on (empty: no window)
}

// Span returns the span at addr.
func (c *CTA) Span(addr uint64) Span {
	s := Span{c: c, base: addr}
	if c.wins != nil {
		if w, ok := c.wins.Window(addr); ok {
			s.win, s.m, s.d = w, c.wins, w.Data[addr-w.Base:]
		}
	}
	return s
}

// bytes returns the n bytes at base+off when they lie in the span's
// allocation and the allocation map is the one it was taken from, else nil.
// (A span without a window has no bytes: every access takes the CTA's path.)
func (s *Span) bytes(off uint64, n int) []byte {
	d := s.d
	if n <= 0 || off >= uint64(len(d)) || uint64(n) > uint64(len(d))-off || !s.m.Current(&s.win) {
		return nil
	}
	return d[off : off+uint64(n) : off+uint64(n)]
}

// Has reports whether the n bytes at base+off are reached directly: inside
// the span's allocation, under the allocation map the span was taken from. It
// is no access (nothing is counted or faulted); a kernel uses it to take a
// batched path (ReadWords/WriteWords over a run of words) only where no word
// of the run can fault, so that the batch counts and stores exactly what its
// word-by-word loop, which stops at the first fault, would.
func (s *Span) Has(off uint64, n int) bool { return s.bytes(off, n) != nil }

// ReadU32 is the CTA's ReadU32(base + off).
func (s *Span) ReadU32(off uint64) uint32 {
	if b := s.bytes(off, 4); b != nil {
		s.c.memOps++
		if s.c.err != nil {
			return 0
		}
		return binary.LittleEndian.Uint32(b)
	}
	return s.c.ReadU32(s.base + off)
}

// WriteU32 is the CTA's WriteU32(base + off, v).
func (s *Span) WriteU32(off uint64, v uint32) {
	if b := s.bytes(off, 4); b != nil {
		s.c.memOps++
		binary.LittleEndian.PutUint32(b, v)
		return
	}
	s.c.WriteU32(s.base+off, v)
}

// ReadView is the CTA's ReadView(base + off, buf).
func (s *Span) ReadView(off uint64, buf []byte) []byte {
	if b := s.bytes(off, len(buf)); b != nil {
		s.c.memOps++
		return b
	}
	return s.c.ReadView(s.base+off, buf)
}

// WriteView is the CTA's WriteView(base + off, n).
func (s *Span) WriteView(off uint64, n int) []byte {
	if b := s.bytes(off, n); b != nil {
		s.c.memOps++
		return b
	}
	return s.c.WriteView(s.base+off, n)
}

// ReadWords is the CTA's ReadWords(base + off, dst).
func (s *Span) ReadWords(off uint64, dst []uint32) {
	if b := s.bytes(off, 4*len(dst)); b != nil {
		s.c.memOps += uint64(len(dst))
		if s.c.err != nil {
			clear(dst)
			return
		}
		for i := range dst {
			dst[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return
	}
	s.c.ReadWords(s.base+off, dst)
}

// WriteWords is the CTA's WriteWords(base + off, src).
func (s *Span) WriteWords(off uint64, src []uint32) {
	if b := s.bytes(off, 4*len(src)); b != nil {
		s.c.memOps += uint64(len(src))
		for i, v := range src {
			binary.LittleEndian.PutUint32(b[4*i:], v)
		}
		return
	}
	s.c.WriteWords(s.base+off, src)
}

// Write is the CTA's Write(base + off, p).
func (s *Span) Write(off uint64, p []byte) {
	if b := s.bytes(off, len(p)); b != nil {
		s.c.memOps++
		copy(b, p)
		return
	}
	s.c.Write(s.base+off, p)
}

// CopyWordsSpan is src.ReadWords(soff, buf) then dst.WriteWords(doff, buf):
// the same counts, faults and stored bytes. When both runs are reached
// directly and no fault came before, the words move as one copy of their
// bytes, without decoding them into buf (the front end's EMIT moves every
// visible primitive's bounding box this way). spec: rasterizer.md §3.1
func (c *CTA) CopyWordsSpan(dst *Span, doff uint64, src *Span, soff uint64, buf []uint32) {
	if c.err == nil {
		if sb := src.bytes(soff, 4*len(buf)); sb != nil {
			if db := dst.bytes(doff, 4*len(buf)); db != nil {
				c.memOps += 2 * uint64(len(buf))
				copy(db, sb)
				return
			}
		}
	}
	src.ReadWords(soff, buf)
	dst.WriteWords(doff, buf)
}

// CopySpan is the CTA's Copy(dst's base + doff, src's base + soff, buf).
func (c *CTA) CopySpan(dst *Span, doff uint64, src *Span, soff uint64, buf []byte) {
	if sb := src.bytes(soff, len(buf)); sb != nil {
		if db := dst.bytes(doff, len(buf)); db != nil {
			c.memOps += 2
			copy(db, sb)
			return
		}
	}
	c.Copy(dst.base+doff, src.base+soff, buf)
}
