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

// wordView is the memory of w as 4·len(w) bytes in host order: on a
// little-endian host, device words read into it or written from it need
// no per-word conversion.
func wordView(w []uint32) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
}

// readWordsInto reads n little-endian words with read (which fills the
// bytes it is given) into a new word slice: in place on a little-endian
// host, through a byte buffer otherwise.
func readWordsInto(n int, read func(b []byte) error) ([]uint32, error) {
	w := make([]uint32, n)
	if hostLittleEndian {
		return w, read(wordView(w))
	}
	b := make([]byte, 4*n)
	if err := read(b); err != nil {
		return nil, err
	}
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w, nil
}

// wordBytes is w as little-endian bytes for a copy the caller does not keep
// (the host memory itself on a little-endian host).
func wordBytes(w []uint32) []byte {
	if hostLittleEndian {
		return wordView(w)
	}
	b := make([]byte, 4*len(w))
	putWords(b, w)
	return b
}
