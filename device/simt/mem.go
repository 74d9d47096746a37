package simt

import (
	"encoding/binary"
	"fmt"
)

// Memory is what the core loads from and stores to: 1-, 2- or 4-byte little-endian
// accesses at a 32-bit address. An access the memory cannot serve returns an error
// (the core turns it into a Fault naming PC, warp and lane). The shape is that of
// vortexgfx's device memory (mem.Memory.Read/Write of a byte slice at a uint64
// address), so an adapter is a few lines.
type Memory interface {
	Load(addr uint32, size int) (uint32, error)
	Store(addr uint32, size int, v uint32) error
}

// SharedMemory is a Memory other cores reach at the same time (a device's
// memory). The core holds LockAtomic across the read-modify-write of every AMO and
// SC lane, so atomics are atomic device-wide; and since a reservation here does
// not see another core's stores, an SC on a SharedMemory also fails when the word
// no longer holds the value its LR read (the compare QEMU's sc.w makes too).
type SharedMemory interface {
	Memory
	LockAtomic()
	UnlockAtomic()
}

// FlatMemory is a Memory of one contiguous region [Base, Base+len(Data)); any other
// address is an error. It is the loader's and the tests' memory.
type FlatMemory struct {
	Base uint32
	Data []byte
}

// NewFlatMemory returns a zeroed region of size bytes at base.
func NewFlatMemory(base uint32, size int) *FlatMemory {
	return &FlatMemory{Base: base, Data: make([]byte, size)}
}

// UnmappedError is an access outside a FlatMemory.
type UnmappedError struct {
	Addr  uint32
	Size  int
	Write bool
}

func (e *UnmappedError) Error() string {
	op := "load"
	if e.Write {
		op = "store"
	}
	return fmt.Sprintf("%s of %d bytes at 0x%08x: address not mapped", op, e.Size, e.Addr)
}

func (m *FlatMemory) slice(addr uint32, size int) []byte {
	off := uint64(addr) - uint64(m.Base)
	if addr < m.Base || off+uint64(size) > uint64(len(m.Data)) {
		return nil
	}
	return m.Data[off : off+uint64(size)]
}

// Load implements Memory.
func (m *FlatMemory) Load(addr uint32, size int) (uint32, error) {
	b := m.slice(addr, size)
	if b == nil {
		return 0, &UnmappedError{Addr: addr, Size: size}
	}
	switch size {
	case 1:
		return uint32(b[0]), nil
	case 2:
		return uint32(binary.LittleEndian.Uint16(b)), nil
	default:
		return binary.LittleEndian.Uint32(b), nil
	}
}

// Store implements Memory.
func (m *FlatMemory) Store(addr uint32, size int, v uint32) error {
	b := m.slice(addr, size)
	if b == nil {
		return &UnmappedError{Addr: addr, Size: size, Write: true}
	}
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	default:
		binary.LittleEndian.PutUint32(b, v)
	}
	return nil
}

// Write copies p into the region at addr (the loader's path).
func (m *FlatMemory) Write(addr uint32, p []byte) error {
	b := m.slice(addr, len(p))
	if b == nil {
		return &UnmappedError{Addr: addr, Size: len(p), Write: true}
	}
	copy(b, p)
	return nil
}
