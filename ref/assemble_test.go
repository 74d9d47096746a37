package ref

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"testing"

	"vortexgfx/gl/format"
)

type prim struct {
	v    []int32
	prov int32
	cont bool
}

func assembled(t *testing.T, top Topology, slot []int32, last bool) []prim {
	t.Helper()
	var out []prim
	err := assemble(top, slot, last, nil, func(n int, v [3]int32, prov int32, cont bool, _ uint8) error {
		out = append(out, prim{slices.Clone(v[:n]), prov, cont})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// GL 4.6 §10.1 and table 13.2 (provoking vertices).
func TestAssemble(t *testing.T) {
	seq := []int32{0, 1, 2, 3, 4, 5}
	cases := []struct {
		name string
		top  Topology
		slot []int32
		last bool
		want []prim
	}{
		{"points", Points, []int32{0, 1, 2}, true, []prim{{[]int32{0}, 0, false}, {[]int32{1}, 1, false}, {[]int32{2}, 2, false}}},
		{"lines drop odd", Lines, []int32{0, 1, 2, 3, 4}, true, []prim{{[]int32{0, 1}, 1, false}, {[]int32{2, 3}, 3, false}}},
		{"lines first", Lines, []int32{0, 1}, false, []prim{{[]int32{0, 1}, 0, false}}},
		{"line strip", LineStrip, []int32{0, 1, 2}, true, []prim{{[]int32{0, 1}, 1, false}, {[]int32{1, 2}, 2, false}}},
		{"line loop", LineLoop, []int32{0, 1, 2}, true, []prim{{[]int32{0, 1}, 1, false}, {[]int32{1, 2}, 2, false}, {[]int32{2, 0}, 0, false}}},
		{"triangles", Triangles, seq, true, []prim{{[]int32{0, 1, 2}, 2, false}, {[]int32{3, 4, 5}, 5, false}}},
		{"triangles first", Triangles, seq[:3], false, []prim{{[]int32{0, 1, 2}, 0, false}}},
		{"strip", TriangleStrip, seq[:5], true, []prim{{[]int32{0, 1, 2}, 2, false}, {[]int32{2, 1, 3}, 3, false}, {[]int32{2, 3, 4}, 4, false}}},
		{"strip first", TriangleStrip, seq[:4], false, []prim{{[]int32{0, 1, 2}, 0, false}, {[]int32{2, 1, 3}, 1, false}}},
		{"fan", TriangleFan, seq[:5], true, []prim{{[]int32{0, 1, 2}, 2, false}, {[]int32{0, 2, 3}, 3, false}, {[]int32{0, 3, 4}, 4, false}}},
		{"fan first", TriangleFan, seq[:4], false, []prim{{[]int32{0, 1, 2}, 1, false}, {[]int32{0, 2, 3}, 2, false}}},
		{"restart strip", TriangleStrip, []int32{0, 1, 2, 3, -1, 4, 5, 6}, true, []prim{{[]int32{0, 1, 2}, 2, false}, {[]int32{2, 1, 3}, 3, false}, {[]int32{4, 5, 6}, 6, false}}},
		{"restart list", Triangles, []int32{0, 1, -1, 2, 3, 4}, true, []prim{{[]int32{2, 3, 4}, 4, false}}},
		{"restart fan", TriangleFan, []int32{0, 1, 2, -1, -1, 3, 4, 5}, true, []prim{{[]int32{0, 1, 2}, 2, false}, {[]int32{3, 4, 5}, 5, false}}},
		{"empty", Triangles, []int32{0, 1}, true, nil},
		{"quads", Quads, []int32{0, 1, 2, 3, 4, 5, 6}, true, []prim{{[]int32{0, 1, 2}, 3, false}, {[]int32{0, 2, 3}, 3, true}}},
		{"quads first", Quads, []int32{0, 1, 2, 3}, false, []prim{{[]int32{0, 1, 2}, 0, false}, {[]int32{0, 2, 3}, 0, true}}},
		{"quad strip", QuadStrip, []int32{0, 1, 2, 3, 4, 5}, true, []prim{{[]int32{0, 1, 3}, 3, false}, {[]int32{0, 3, 2}, 3, true}, {[]int32{2, 3, 5}, 5, false}, {[]int32{2, 5, 4}, 5, true}}},
		{"polygon", Polygon, []int32{0, 1, 2, 3, 4}, true, []prim{{[]int32{0, 1, 2}, 0, false}, {[]int32{0, 2, 3}, 0, true}, {[]int32{0, 3, 4}, 0, true}}},
	}
	for _, c := range cases {
		if got := assembled(t, c.top, c.slot, c.last); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestElementsIndexTypes(t *testing.T) {
	idx32 := make([]byte, 0)
	for _, v := range []uint32{7, 70000, 0xFFFFFFFF, 3} {
		idx32 = binary.LittleEndian.AppendUint32(idx32, v)
	}
	cases := []struct {
		name    string
		p       DrawParams
		restart bool
		want    []int64
	}{
		{"non-indexed", DrawParams{First: 2, Count: 3}, false, []int64{2, 3, 4}},
		{"u8", DrawParams{Count: 3, IndexType: Index8, Indices: []byte{5, 0xFF, 1}}, false, []int64{5, 255, 1}},
		{"u8 restart", DrawParams{Count: 3, IndexType: Index8, Indices: []byte{5, 0xFF, 1}}, true, []int64{5, restartMark, 1}},
		{"u16 first base", DrawParams{First: 1, Count: 2, IndexType: Index16, Indices: []byte{1, 0, 2, 1, 0xFF, 0xFF}, BaseVertex: 10}, true, []int64{0x0102 + 10, restartMark}},
		{"u32", DrawParams{Count: 4, IndexType: Index32, Indices: idx32, BaseVertex: -3}, true, []int64{4, 69997, restartMark, 0}},
	}
	for _, c := range cases {
		got, err := elements(VertexInput{}, c.p, c.restart, FixedRestartIndex(c.p.IndexType))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// Instanced, indexed drawing: each instance offsets a quad by its
// per-instance attribute; gl_InstanceID and gl_VertexID reach the shader.
func TestInstancedIndexed(t *testing.T) {
	var ids [][2]int32
	vs := VertexFunc{Out: VertexLayout{}, Fn: func(b *VertexBatch, _ Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			x := math.Float32frombits(a[0]) + math.Float32frombits(a[2])
			b.Position[v] = [4]float32{x, math.Float32frombits(a[1]), 0, 1}
			ids = append(ids, [2]int32{b.VertexID[v], b.InstanceID[v]})
		}
		return nil
	}}
	// unit square in NDC of a 8x2 target is 2 pixels wide
	in := VertexInput{Words: 2, InstanceWords: 1}
	for _, v := range [][2]float32{{9, 9}, {-1, -1}, {-0.5, -1}, {-0.5, 1}, {-1, 1}} { // vertex 0 unused
		in.Data = append(in.Data, math.Float32bits(v[0]), math.Float32bits(v[1]))
	}
	for _, off := range []float32{99, 0, 0.5, 1.5} { // instance 0 unused (base instance 1)
		in.InstanceData = append(in.InstanceData, math.Float32bits(off))
	}
	tg := newTarget(t, 8, 2, []format.Format{format.R32F}, format.Invalid)
	s := additive(8, 2)
	s.Vertex = vs
	s.PrimitiveRestart, s.RestartIndex = true, 0xFFFF
	idx := []byte{0, 0, 1, 0, 2, 0, 0xFF, 0xFF, 0, 0, 2, 0, 3, 0}
	draw(t, tg, &s, in, DrawParams{Topology: TriangleStrip, Count: 7, IndexType: Index16, Indices: idx, BaseVertex: 1, Instances: 3, BaseInstance: 1})
	checkOnce(t, tg, func(x, y int) bool { return x < 2 || (x >= 2 && x < 4) || (x >= 6) })
	if len(ids) != 4*3 || ids[0] != [2]int32{1, 0} || ids[len(ids)-1] != [2]int32{4, 2} {
		t.Fatalf("vertex/instance ids %v", ids)
	}
}

func TestQuadsRender(t *testing.T) {
	tg := newTarget(t, 8, 8, []format.Format{format.R32F}, format.Invalid)
	s := additive(8, 8)
	ids := map[int32]int{}
	s.Fragment = FragmentFunc(func(qs []Quad, tex Textures) error {
		for i := range qs {
			ids[qs[i].PrimitiveID]++
		}
		return constFS([4]float32{1, 1, 1, 1})(qs, tex)
	})
	// two quads side by side: x in [-1,0] and [0,1]
	in := verts([]float32{-1, -1, 0, 1}, []float32{0, -1, 0, 1}, []float32{0, 1, 0, 1}, []float32{-1, 1, 0, 1},
		[]float32{0, -1, 0, 1}, []float32{1, -1, 0, 1}, []float32{1, 1, 0, 1}, []float32{0, 1, 0, 1})
	draw(t, tg, &s, in, DrawParams{Topology: Quads, Count: 8})
	checkOnce(t, tg, func(x, y int) bool { return true })
	if len(ids) != 2 || ids[0] == 0 || ids[1] == 0 {
		t.Fatalf("primitive ids %v, want 0 and 1", ids)
	}
}

// TestAssembleCull: a primitive the cull test reports is emitted once with no
// vertices (it keeps its number); quads and polygons are tested whole, with
// all their vertices, not triangle by triangle. spec: ARB_cull_distance
func TestAssembleCull(t *testing.T) {
	out := map[int32]bool{0: true, 1: true, 2: true} // vertices behind a cull plane
	cull := func(v []int32) bool {
		for _, s := range v {
			if !out[s] {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		name string
		top  Topology
		slot []int32
		want []prim
	}{
		{"triangles", Triangles, []int32{0, 1, 2, 2, 3, 4}, []prim{{nil, 2, false}, {[]int32{2, 3, 4}, 4, false}}},
		{"points", Points, []int32{1, 3}, []prim{{nil, 1, false}, {[]int32{3}, 3, false}}},
		{"lines", Lines, []int32{0, 1, 1, 3}, []prim{{nil, 1, false}, {[]int32{1, 3}, 3, false}}},
		// The quad's first triangle (0, 1, 2) is wholly behind, vertex 3 is not: kept whole.
		{"quad kept whole", Quads, []int32{0, 1, 2, 3}, []prim{{[]int32{0, 1, 2}, 3, false}, {[]int32{0, 2, 3}, 3, true}}},
		{"polygon kept whole", Polygon, []int32{0, 1, 2, 4}, []prim{{[]int32{0, 1, 2}, 0, false}, {[]int32{0, 2, 4}, 0, true}}},
		{"polygon culled", Polygon, []int32{0, 1, 2}, []prim{{nil, 0, false}}},
	} {
		var got []prim
		err := assemble(tc.top, tc.slot, true, cull, func(n int, v [3]int32, prov int32, cont bool, _ uint8) error {
			var vs []int32
			if n > 0 {
				vs = slices.Clone(v[:n])
			}
			got = append(got, prim{vs, prov, cont})
			return nil
		})
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestAssembleDoesNotAllocate: assembling a draw's primitives allocates
// nothing per primitive, with a cull test or without (a 1M-triangle draw
// calls it a million times).
func TestAssembleDoesNotAllocate(t *testing.T) {
	slot := make([]int32, 3*1024)
	for i := range slot {
		slot[i] = int32(i)
	}
	quads := slot[:4*256]
	emit := func(int, [3]int32, int32, bool, uint8) error { return nil }
	cull := func(v []int32) bool { return v[0] < 0 }
	for _, tc := range []struct {
		name string
		top  Topology
		slot []int32
		cull func([]int32) bool
	}{{"triangles", Triangles, slot, nil}, {"triangles culled", Triangles, slot, cull}, {"quads culled", Quads, quads, cull}} {
		// One allocation per call at most (the cull scratch); none per primitive.
		if n := testing.AllocsPerRun(20, func() { _ = assemble(tc.top, tc.slot, false, tc.cull, emit) }); n > 2 {
			t.Errorf("%s: %.0f allocations per call", tc.name, n)
		}
	}
}
