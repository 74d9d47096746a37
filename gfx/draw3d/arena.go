package draw3d

import "fmt"

// Arena is a flat simulated device memory with a bump allocator, for harnesses and
// tests until device/mem is wired in. It satisfies the units' one-method Memory
// interface.
type Arena struct {
	base uint64
	buf  []byte
	top  uint64
}

// NewArena returns an arena of size bytes starting at device address base.
func NewArena(base uint64, size int) *Arena {
	return &Arena{base: base, buf: make([]byte, size), top: base}
}

// View returns the n bytes at addr, aliasing the arena.
func (a *Arena) View(addr uint64, n int) ([]byte, error) {
	if n < 0 || addr < a.base || addr-a.base > uint64(len(a.buf)) || uint64(n) > uint64(len(a.buf))-(addr-a.base) {
		return nil, fmt.Errorf("draw3d: arena access [0x%x, +%d) outside [0x%x, +%d)", addr, n, a.base, len(a.buf))
	}
	off := addr - a.base
	return a.buf[off : off+uint64(n) : off+uint64(n)], nil
}

// Alloc reserves n bytes aligned to 64 and returns their address.
func (a *Arena) Alloc(n int) (uint64, error) {
	addr := (a.top + 63) &^ 63
	if n < 0 || addr-a.base+uint64(n) > uint64(len(a.buf)) {
		return 0, fmt.Errorf("draw3d: arena out of memory allocating %d bytes", n)
	}
	a.top = addr + uint64(n)
	return addr, nil
}

// Reset frees every allocation.
func (a *Arena) Reset() { a.top = a.base }

// Write copies b to addr.
func (a *Arena) Write(addr uint64, b []byte) error {
	v, err := a.View(addr, len(b))
	if err != nil {
		return err
	}
	copy(v, b)
	return nil
}
