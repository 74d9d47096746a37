package device

import "encoding/binary"

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
