package shaderdev

import (
	"encoding/binary"
	"unsafe"
)

// hostLittleEndian reports whether the host stores words little-endian, as
// device memory does: a record of words then moves to device bytes with one
// copy instead of a per-word encoding (as package gfx/frontend's records do).
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// putWords stores w little-endian into b[:4·len(w)].
func putWords(b []byte, w []uint32) {
	b = b[:4*len(w)]
	if hostLittleEndian && len(w) > 0 {
		copy(b, unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w)))
		return
	}
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
}
