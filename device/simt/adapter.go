package simt

import (
	"encoding/binary"
	"fmt"
)

// ByteAccessor is a byte-slice memory at 64-bit addresses: vortexgfx's device
// memory (mem.Memory, mem.Device) has this shape.
type ByteAccessor interface {
	Read(addr uint64, p []byte) error
	Write(addr uint64, p []byte) error
}

// ByteMemory adapts a ByteAccessor to Memory, so the core can run on the device
// model's memory.
type ByteMemory struct{ M ByteAccessor }

// Load implements Memory.
func (b ByteMemory) Load(addr uint32, size int) (uint32, error) {
	var buf [4]byte
	if size != 1 && size != 2 && size != 4 {
		return 0, fmt.Errorf("load of %d bytes at 0x%08x: size must be 1, 2 or 4", size, addr)
	}
	if err := b.M.Read(uint64(addr), buf[:size]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(buf[:]), nil
}

// Store implements Memory.
func (b ByteMemory) Store(addr uint32, size int, v uint32) error {
	var buf [4]byte
	if size != 1 && size != 2 && size != 4 {
		return fmt.Errorf("store of %d bytes at 0x%08x: size must be 1, 2 or 4", size, addr)
	}
	binary.LittleEndian.PutUint32(buf[:], v)
	return b.M.Write(uint64(addr), buf[:size])
}
