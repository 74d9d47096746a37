package frontend

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/abi"
)

// TestRecordsHostOrder checks that the one-copy record paths (Prim.Put,
// getCompiledVertex on a little-endian host) give exactly the bytes and
// fields of the per-word encoding, which the other hosts use.
func TestRecordsHostOrder(t *testing.T) {
	var p Prim
	for i := range p {
		p[i] = uint32(i)*0x01020304 + 0x80000001
	}
	var vb [CompiledVertexBytes]byte
	for i := range 4 + 9 {
		binary.LittleEndian.PutUint32(vb[4*i:], math.Float32bits(float32(i)*1.5-3))
	}
	binary.LittleEndian.PutUint32(vb[4*5:], 0x7FC00001) // a NaN payload survives
	put := func() (b [abi.PrimBytes + 4]byte, v Vertex) {
		for i := range b {
			b[i] = 0xEE
		}
		p.Put(b[:])
		v.Color, v.bary, v.Var[11], v.NVar = [4]float32{1, 2, 3, 4}, [3]float32{1, 1, 1}, 7, 3
		getCompiledVertex(vb[:], 9, &v)
		return b, v
	}
	b1, v1 := put()
	saved := hostLittleEndian
	hostLittleEndian = !saved
	b2, v2 := put()
	hostLittleEndian = saved
	if b1 != b2 {
		t.Fatalf("Prim.Put: %x on one path, %x on the other", b1, b2)
	}
	for i, w := range p {
		if got := binary.LittleEndian.Uint32(b1[4*i:]); got != w {
			t.Fatalf("Prim.Put word %d = %#x, want %#x", i, got, w)
		}
	}
	if b1[abi.PrimBytes] != 0xEE {
		t.Fatalf("Prim.Put wrote past the record")
	}
	bits := func(v *Vertex) []uint32 {
		var out []uint32
		for _, f := range append(append(append(v.Pos[:], v.Var[:]...), v.Color[:]...), v.bary[:]...) {
			out = append(out, math.Float32bits(f))
		}
		return append(out, uint32(v.NVar))
	}
	if a, b := bits(&v1), bits(&v2); len(a) != len(b) {
		t.Fatal("length")
	} else {
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("getCompiledVertex field word %d: %#x on one path, %#x on the other", i, a[i], b[i])
			}
		}
	}
	if math.Float32bits(v1.Var[1]) != 0x7FC00001 || v1.Var[11] != 0 || v1.NVar != 9 {
		t.Fatalf("getCompiledVertex: %+v", v1)
	}
}
