package mem

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Single-copy atomic words.
//
// Most of device memory is touched by one agent at a time (the host stages a buffer,
// then the device reads it), and Read/Write/ReadU64/WriteU64 are plain copies: two
// agents writing one range at once is the caller's race, as on real memory. A few
// words are shared on purpose while both run — the counter slot an EVENT_WAIT polls
// while the host (or another queue's EVENT_SIGNAL) writes it. AXI moves such a slot
// in one 8-byte beat (command-processor.md §7, event unit: awsize=3, wstrb=0xFF), so
// a poll sees the old value or the new one, never a torn mix. LoadU64 and StoreU64
// give that guarantee; both sides of a shared word must use them.
//
// An 8-aligned word uses the CPU's atomic load/store. A misaligned one (the ABI does
// not forbid it) is serialised by one lock, which is slow but still never torn.

var unalignedWords sync.Mutex

// word returns the 8 bytes at addr and, when they are 8-aligned in the host's
// memory, a pointer for atomic access.
func (m *Memory) word(addr uint64, write bool) ([]byte, *uint64, error) {
	b, err := m.slice(addr, 8, write)
	if err != nil {
		return nil, nil, err
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%8 != 0 {
		return b, nil, nil
	}
	return b, (*uint64)(p), nil
}

// LoadU64 reads the little-endian word at addr atomically with respect to StoreU64.
func (m *Memory) LoadU64(addr uint64) (uint64, error) {
	b, p, err := m.word(addr, false)
	if err != nil {
		return 0, err
	}
	if p == nil {
		unalignedWords.Lock()
		defer unalignedWords.Unlock()
		return binary.LittleEndian.Uint64(b), nil
	}
	return fromLE(atomic.LoadUint64(p)), nil
}

// StoreU64 writes the little-endian word at addr atomically with respect to LoadU64.
func (m *Memory) StoreU64(addr, v uint64) error {
	b, p, err := m.word(addr, true)
	if err != nil {
		return err
	}
	if p == nil {
		unalignedWords.Lock()
		defer unalignedWords.Unlock()
		binary.LittleEndian.PutUint64(b, v)
		return nil
	}
	atomic.StoreUint64(p, fromLE(v))
	return nil
}

// fromLE converts between a native uint64 and its little-endian memory image (the
// identity on little-endian hosts; a byte swap on big-endian ones).
func fromLE(v uint64) uint64 {
	var b [8]byte
	*(*uint64)(unsafe.Pointer(&b)) = v
	return binary.LittleEndian.Uint64(b[:])
}
