package shaderdev

import (
	"encoding/binary"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
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

// TestGetPrim checks the one-copy primitive decode against the per-word one.
func TestGetPrim(t *testing.T) {
	var b [abi.PrimBytes]byte
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	var p1, p2 [abi.PrimWords]int32
	getPrim(&p1, b[:])
	saved := hostLittleEndian
	hostLittleEndian = false
	getPrim(&p2, b[:])
	hostLittleEndian = saved
	for i := range p1 {
		if want := int32(binary.LittleEndian.Uint32(b[4*i:])); p1[i] != want || p2[i] != want {
			t.Fatalf("word %d: %#x and %#x, want %#x", i, p1[i], p2[i], want)
		}
	}
}

// TestIdentityList checks the kept triangle list as it grows and shrinks:
// always the words 0..n-1, and a list handed out is never rewritten.
func TestIdentityList(t *testing.T) {
	var d Device
	first := d.identityList(3)
	for _, n := range []int{3, 7, 2, 7, 0} {
		b := d.identityList(n)
		if len(b) != 4*n {
			t.Fatalf("identityList(%d) is %d bytes", n, len(b))
		}
		for i := range n {
			if v := binary.LittleEndian.Uint32(b[4*i:]); v != uint32(i) {
				t.Fatalf("identityList(%d) word %d = %d", n, i, v)
			}
		}
	}
	for i := range 3 {
		if v := binary.LittleEndian.Uint32(first[4*i:]); v != uint32(i) {
			t.Fatalf("the first list's word %d became %d", i, v)
		}
	}
}

// TestTargetsRoundTrip writes both default targets and reads them back,
// through the in-place word paths and the per-word ones.
func TestTargetsRoundTrip(t *testing.T) {
	const W, H = 8, 4
	d, err := Open(config.Default(), W, H, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	saved := hostLittleEndian
	defer func() { hostLittleEndian = saved }()
	for _, le := range []bool{saved, false} {
		hostLittleEndian = le
		color, depth := make([]uint32, W*H), make([]uint32, W*H)
		for i := range color {
			color[i], depth[i] = 0x01020304*uint32(i+1), 0xFF000000|uint32(i*977)
		}
		if err := d.SetTargets(color, depth); err != nil {
			t.Fatal(err)
		}
		c2, z2, err := d.Targets()
		if err != nil {
			t.Fatal(err)
		}
		for i := range color {
			if c2[i] != color[i] || z2[i] != depth[i] {
				t.Fatalf("host order little-endian %v: pixel %d read back %#x/%#x, wrote %#x/%#x", le, i, c2[i], z2[i], color[i], depth[i])
			}
		}
	}
}
