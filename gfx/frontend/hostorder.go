package frontend

import (
	"encoding/binary"
	"unsafe"
)

// hostLittleEndian reports whether the host stores words little-endian, as
// device memory does: records can then move between typed words and device
// bytes with one copy instead of a per-word encoding.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// wordBytes is the memory of w as bytes (4·len(w) of them, in host order).
func wordBytes(w []uint32) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
}

// floatBytes is the memory of f as bytes (4·len(f) of them, in host order).
func floatBytes(f []float32) []byte {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), 4*len(f))
}
