package ref

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"vortexgfx/gl/format"
)

// geomFunc is a geometry shader written in Go for tests: fn emits for one
// input primitive (vertex records in, index j of the batch).
type geomFunc struct {
	in, out Topology
	lay     VertexLayout
	fn      func(b *GeometryBatch, j int)
}

func (g geomFunc) InputPrimitive() Topology  { return g.in }
func (g geomFunc) OutputPrimitive() Topology { return g.out }
func (g geomFunc) Layout() VertexLayout      { return g.lay }
func (g geomFunc) ShadePrimitives(b *GeometryBatch, _ Textures) error {
	for j := 0; j < b.N; j++ {
		g.fn(b, j)
	}
	return nil
}

// emitCopy appends input vertex v of primitive j to the output, offset in x.
func emitCopy(b *GeometryBatch, j, v int, restart bool, dx float32) {
	k := j*b.Vertices + v
	i := b.Out.Add(restart, b.PointSize[k])
	vw := b.In.Varyings
	b.Out.Position[i] = b.Position[k]
	b.Out.Position[i][0] += dx * b.Position[k][3]
	copy(b.Out.Varyings[i*vw:(i+1)*vw], b.Varyings[k*vw:(k+1)*vw])
}

// passGS re-emits each input primitive as one strip of its vertices.
func passGS(in, out Topology, vary int) geomFunc {
	return geomFunc{in: in, out: out, lay: VertexLayout{Varyings: vary}, fn: func(b *GeometryBatch, j int) {
		for v := 0; v < b.Vertices; v++ {
			emitCopy(b, j, v, out == Points || v == 0, 0)
		}
	}}
}

func sameImage(t *testing.T, a, b *Target, what string) {
	t.Helper()
	sa, sb := a.Color[0], b.Color[0]
	diff := 0
	for y := 0; y < sa.H; y++ {
		for x := 0; x < sa.W; x++ {
			if sa.Raw(x, y) != sb.Raw(x, y) {
				diff++
			}
		}
	}
	if diff != 0 {
		t.Errorf("%s: %d pixels differ", what, diff)
	}
}

// geomScene is a fan of coloured vertices around the centre: 8 vertices
// usable as points, lines, strips, fans and triangle lists.
func geomScene() VertexInput {
	var rows [][]float32
	for i := 0; i < 8; i++ {
		a := float64(i) * 0.8
		r := 0.3 + 0.08*float64(i)
		rows = append(rows, []float32{float32(r * math.Cos(a)), float32(r * math.Sin(a)), 0, 1,
			0.2 + float32(i%3)/4, float32(i % 2), float32(i) / 8, 1})
	}
	return verts(rows...)
}

// TestGeometryPassThrough: a geometry shader that re-emits its input gives
// the image of the same draw without one, for every topology a geometry
// shader accepts, both provoking conventions and several workers.
func TestGeometryPassThrough(t *testing.T) {
	tests := []struct {
		top, in, out Topology
		n            int
	}{
		{Points, Points, Points, 8},
		{Lines, Lines, LineStrip, 8},
		{LineStrip, Lines, LineStrip, 8},
		{LineLoop, Lines, LineStrip, 8},
		{Triangles, Triangles, TriangleStrip, 6},
		{TriangleStrip, Triangles, TriangleStrip, 8},
		{TriangleFan, Triangles, TriangleStrip, 8},
	}
	for _, tc := range tests {
		for _, prov := range []ProvokingVertex{ProvokingLast, ProvokingFirst} {
			for _, workers := range []int{1, 3} {
				want := newTarget(t, 32, 32, []format.Format{format.RGBA8}, format.Invalid)
				got := newTarget(t, 32, 32, []format.Format{format.RGBA8}, format.Invalid)
				s := DefaultState(32, 32)
				s.Vertex, s.Fragment, s.Provoking, s.Workers, s.PointSize = passVS(4), colorFS, prov, workers, 3
				s.Interp = []Interp{Flat, Smooth, Smooth, Flat}
				p := DrawParams{Topology: tc.top, Count: tc.n}
				draw(t, want, &s, geomScene(), p)
				s.Geometry = passGS(tc.in, tc.out, 4)
				draw(t, got, &s, geomScene(), p)
				sameImage(t, want, got, "topology "+string(rune('0'+tc.top)))
				if count(want.Color[0]) == 0 {
					t.Errorf("topology %d drew nothing", tc.top)
				}
			}
		}
	}
}

// TestGeometryTwoTriangles: a geometry shader emitting each triangle twice,
// the second copy moved right in its own strip, draws what a triangle list
// holding both copies draws.
func TestGeometryTwoTriangles(t *testing.T) {
	tri := [][]float32{{-0.9, -0.5, 0, 1, 1, 0, 0, 1}, {-0.1, -0.5, 0, 1, 0, 1, 0, 1}, {-0.5, 0.5, 0, 1, 0, 0, 1, 1}}
	s := DefaultState(40, 20)
	s.Vertex, s.Fragment = passVS(4), colorFS
	want := newTarget(t, 40, 20, []format.Format{format.RGBA8}, format.Invalid)
	var both [][]float32
	both = append(both, tri...)
	for _, r := range tri {
		m := slices.Clone(r)
		m[0] += 1
		both = append(both, m)
	}
	draw(t, want, &s, verts(both...), DrawParams{Topology: Triangles, Count: 6})
	got := newTarget(t, 40, 20, []format.Format{format.RGBA8}, format.Invalid)
	s.Geometry = geomFunc{in: Triangles, out: TriangleStrip, lay: VertexLayout{Varyings: 4}, fn: func(b *GeometryBatch, j int) {
		for copyN := 0; copyN < 2; copyN++ {
			for v := 0; v < 3; v++ {
				emitCopy(b, j, v, v == 0, float32(copyN))
			}
		}
	}}
	draw(t, got, &s, verts(tri...), DrawParams{Topology: Triangles, Count: 3})
	sameImage(t, want, got, "two triangles")
	if count(got.Color[0]) == 0 {
		t.Error("nothing drawn")
	}
}

// recordGS records each invocation's input vertex ids (varying word 0)
// and gl_PrimitiveIDIn, emitting nothing.
func recordGS(in Topology, rec *[][]int, pids *[]int32) geomFunc {
	return geomFunc{in: in, out: Points, lay: VertexLayout{Varyings: 1}, fn: func(b *GeometryBatch, j int) {
		var ids []int
		for v := 0; v < b.Vertices; v++ {
			ids = append(ids, int(math.Float32frombits(b.Varyings[(j*b.Vertices+v)*b.In.Varyings])))
		}
		*rec = append(*rec, ids)
		*pids = append(*pids, b.PrimitiveID[j])
	}}
}

// TestGeometryAdjacencyOrder checks the vertices each invocation receives
// for the adjacency topologies (GL 4.6 §10.1.11-§10.1.14, table 10.1 for
// triangle strips with adjacency, counted from 0 here), with a restart, and
// gl_PrimitiveIDIn counting the primitives from 0 in each instance.
func TestGeometryAdjacencyOrder(t *testing.T) {
	const R = 0xFFFF
	tests := []struct {
		top, in Topology
		idx     []uint16
		want    [][]int
	}{
		{LinesAdjacency, LinesAdjacency, []uint16{0, 1, 2, 3, 4, 5, 6, 7, 8}, [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}}},
		{LineStripAdjacency, LinesAdjacency, []uint16{0, 1, 2, 3, 4, R, 5, 6, 7, 8}, [][]int{{0, 1, 2, 3}, {1, 2, 3, 4}, {5, 6, 7, 8}}},
		{TrianglesAdjacency, TrianglesAdjacency, []uint16{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, [][]int{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}}},
		// One triangle: 1 3 5 / adj 2 6 4 (1-based).
		{TriangleStripAdjacency, TrianglesAdjacency, []uint16{0, 1, 2, 3, 4, 5}, [][]int{{0, 1, 2, 5, 4, 3}}},
		// Four triangles (12 vertices), table 10.1 with 1-based j -> j-1, in
		// gl_in order 1st, adj 1/2, 2nd, adj 2/3, 3rd, adj 3/1:
		//   i=0 first:       1 3 5  | 2 7 4   -> 0 1 2 6 4 3
		//   i=1 middle odd:  5 3 7  | 1 6 9   -> 4 0 2 5 6 8
		//   i=2 middle even: 5 7 9  | 3 11 8  -> 4 2 6 10 8 7
		//   i=3 last odd:    9 7 11 | 5 10 12 -> 8 4 6 9 10 11
		{TriangleStripAdjacency, TrianglesAdjacency, []uint16{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, [][]int{
			{0, 1, 2, 6, 4, 3}, {4, 0, 2, 5, 6, 8}, {4, 2, 6, 10, 8, 7}, {8, 4, 6, 9, 10, 11}}},
		{Triangles, Triangles, []uint16{0, 1, 2, 3, 4, 5}, [][]int{{0, 1, 2}, {3, 4, 5}}},
	}
	var rows [][]float32
	for i := 0; i < 13; i++ {
		rows = append(rows, []float32{0, 0, 0, 1, float32(i)})
	}
	for ti, tc := range tests {
		var idx []byte
		for _, x := range tc.idx {
			idx = append(idx, byte(x), byte(x>>8))
		}
		var rec [][]int
		var pids []int32
		s := DefaultState(4, 4)
		s.Vertex, s.Geometry = passVS(1), recordGS(tc.in, &rec, &pids)
		s.PrimitiveRestart, s.RestartIndex = true, R
		tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
		draw(t, tg, &s, verts(rows...), DrawParams{Topology: tc.top, Count: len(tc.idx), IndexType: Index16, Indices: idx, Instances: 2})
		want := append(slices.Clone(tc.want), tc.want...)
		if !slices.EqualFunc(rec, want, slices.Equal[[]int]) {
			t.Errorf("case %d (topology %d): got %v, want %v", ti, tc.top, rec, want)
		}
		for i, id := range pids {
			if int(id) != i%len(tc.want) {
				t.Errorf("case %d: invocation %d has gl_PrimitiveIDIn %d, want %d", ti, i, id, i%len(tc.want))
			}
		}
	}
}

// TestAdjacencyWithoutGeometry: without a geometry shader the adjacency
// topologies draw their main vertices only.
func TestAdjacencyWithoutGeometry(t *testing.T) {
	sc := geomScene()
	words := sc.Words
	pick := func(ids ...int) VertexInput {
		out := VertexInput{Words: words}
		for _, i := range ids {
			out.Data = append(out.Data, sc.Data[i*words:(i+1)*words]...)
		}
		return out
	}
	for _, tc := range []struct {
		top   Topology
		ids   []int
		plain Topology
		main  []int
	}{
		{TrianglesAdjacency, []int{0, 7, 2, 6, 4, 5}, Triangles, []int{0, 2, 4}},
		{LinesAdjacency, []int{0, 1, 2, 3, 4, 5, 6, 7}, Lines, []int{1, 2, 5, 6}},
		{TriangleStripAdjacency, []int{0, 1, 2, 3, 4, 5, 6, 7}, TriangleStrip, []int{0, 2, 4, 6}},
	} {
		s := DefaultState(32, 32)
		s.Vertex, s.Fragment = passVS(4), colorFS
		want := newTarget(t, 32, 32, []format.Format{format.RGBA8}, format.Invalid)
		got := newTarget(t, 32, 32, []format.Format{format.RGBA8}, format.Invalid)
		draw(t, want, &s, pick(tc.main...), DrawParams{Topology: tc.plain, Count: len(tc.main)})
		draw(t, got, &s, pick(tc.ids...), DrawParams{Topology: tc.top, Count: len(tc.ids)})
		sameImage(t, want, got, "adjacency without a geometry shader")
	}
}

// TestGeometryBadTopology: a draw whose topology does not match the
// geometry shader's input primitive is refused.
func TestGeometryBadTopology(t *testing.T) {
	s := DefaultState(4, 4)
	s.Vertex, s.Geometry = passVS(1), passGS(Triangles, TriangleStrip, 1)
	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
	in := verts([]float32{0, 0, 0, 1, 0}, []float32{0, 0, 0, 1, 0}, []float32{0, 0, 0, 1, 0}, []float32{0, 0, 0, 1, 0})
	for _, top := range []Topology{Points, Lines, LinesAdjacency, TrianglesAdjacency, Quads} {
		err := Draw(context.Background(), tg, &s, in, DrawParams{Topology: top, Count: 4})
		if !errors.Is(err, ErrBadDraw) {
			t.Errorf("topology %d: got %v, want ErrBadDraw", top, err)
		}
	}
}
