package pipe

import (
	"encoding/binary"
	"image/color"
	"math"
	"testing"
)

// TestRefVertexInputKept: a reference draw reuses the previous draw's vertex
// input only while nothing it was made from changed: a second identical draw
// reuses it; a write to the vertex buffer, a new stride or a larger vertex
// range makes a new one, and the image follows the new vertices; a destroyed
// buffer is the error it was before.
func TestRefVertexInputKept(t *testing.T) {
	e := newDrawEnv(t, Options{ForceReference: true}, false)
	e.program(t, testVS, testFS)
	red := [4]float32{1, 0, 0, 1}
	vb := e.posCol(t, quadVerts(0, red, -1, -1, 0, 1)...)
	info := &DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}
	draw := func() {
		t.Helper()
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(info); err != nil {
			t.Fatal(err)
		}
	}
	k := &e.c.refVin
	draw()
	if !k.ok {
		t.Fatal("no vertex input kept after a draw")
	}
	first := &k.in.Data[0]
	draw()
	if &k.in.Data[0] != first {
		t.Errorf("an identical draw laid the vertex input out again")
	}
	// The host moves the quad to the right half.
	v := quadVerts(0, red, 0, -1, 1, 1)
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	if err := vb.Write(0, b); err != nil {
		t.Fatal(err)
	}
	draw()
	if &k.in.Data[0] == first {
		t.Errorf("a draw after a vertex buffer write reused the old input")
	}
	img := e.image(t)
	if got := img.NRGBAAt(4, 16); got != (color.NRGBA{0, 0, 0, 255}) {
		t.Errorf("after the write: (4, 16) = %v, want the clear colour", got)
	}
	if got := img.NRGBAAt(28, 16); got != (color.NRGBA{255, 0, 0, 255}) {
		t.Errorf("after the write: (28, 16) = %v, want red", got)
	}
	// A new binding (same buffer, a stride of two vertices) is a new key.
	second := &k.in.Data[0]
	e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 64}})
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimLines, InstanceCount: 1, Draws: []DrawRange{{Count: 2}}}); err != nil {
		t.Fatal(err)
	}
	if &k.in.Data[0] == second || k.vbufs[0].Stride != 64 {
		t.Errorf("a new vertex buffer stride reused the old input")
	}
	if err := vb.Destroy(); err != nil {
		t.Fatal(err)
	}
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimLines, InstanceCount: 1, Draws: []DrawRange{{Count: 2}}}); err == nil {
		t.Errorf("a draw from a destroyed vertex buffer succeeded")
	}
}

// TestIndexSnapshotKept: redrawing from an unchanged index buffer reuses the
// snapshot and its vertex range; a write to the buffer or other draw
// parameters make new ones, and the image follows the new indices.
func TestIndexSnapshotKept(t *testing.T) {
	e := newDrawEnv(t, Options{ForceReference: true}, false)
	e.program(t, testVS, testFS)
	red, green := [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 1}
	// Vertices 0-3 the left half in red, 4-7 the right half in green.
	e.posCol(t, append(quadVerts(0, red, -1, -1, 0, 1), quadVerts(0, green, 0, -1, 1, 1)...)...)
	ib := e.bytes(t, []byte{0, 1, 2, 2, 1, 3})
	info := &DrawInfo{Mode: PrimTriangles, IndexSize: 1, Index: ib, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}}
	draw := func() {
		t.Helper()
		if err := e.c.Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(info); err != nil {
			t.Fatal(err)
		}
	}
	k := &e.c.idxKept
	draw()
	if !k.ok || !k.rangeOK || k.nverts != 4 {
		t.Fatalf("after an indexed draw: kept %v, range %v, %d vertices (want 4)", k.ok, k.rangeOK, k.nverts)
	}
	first := &k.idx[0]
	draw()
	if &k.idx[0] != first {
		t.Errorf("an identical draw copied the index buffer again")
	}
	if err := ib.Write(0, []byte{4, 5, 6, 6, 5, 7}); err != nil {
		t.Fatal(err)
	}
	draw()
	if &k.idx[0] == first || k.nverts != 8 {
		t.Errorf("after an index write: snapshot reused %v, %d vertices (want 8)", &k.idx[0] == first, k.nverts)
	}
	img := e.image(t)
	if got := img.NRGBAAt(4, 16); got != (color.NRGBA{0, 0, 0, 255}) {
		t.Errorf("(4, 16) = %v, want the clear colour", got)
	}
	if got := img.NRGBAAt(28, 16); got != (color.NRGBA{0, 255, 0, 255}) {
		t.Errorf("(28, 16) = %v, want green", got)
	}
	// Three indices reach vertex 6 only.
	info.Draws[0].Count = 3
	draw()
	if k.nverts != 7 {
		t.Errorf("a 3-index draw: %d vertices, want 7", k.nverts)
	}
}
