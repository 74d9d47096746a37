package shaderdev

import (
	"encoding/binary"
	"testing"
)

// TestPutWords checks the one-copy store against the per-word encoding the
// other hosts use: the same little-endian bytes, nothing past them.
func TestPutWords(t *testing.T) {
	w := []uint32{0x01020304, 0xA0B0C0D0, 0, 0xFFFFFFFF, 7}
	for _, le := range []bool{true, false} {
		saved := hostLittleEndian
		hostLittleEndian = le && saved
		b := make([]byte, 4*len(w)+3)
		for i := range b {
			b[i] = 0xEE
		}
		putWords(b, w)
		hostLittleEndian = saved
		for i, v := range w {
			if got := binary.LittleEndian.Uint32(b[4*i:]); got != v {
				t.Fatalf("one copy %v: word %d = %#x, want %#x", le, i, got, v)
			}
		}
		if b[4*len(w)] != 0xEE {
			t.Fatalf("one copy %v: wrote past the words", le)
		}
	}
}
