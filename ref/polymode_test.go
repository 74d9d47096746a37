package ref

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// ndc16 maps a window coordinate of a 16-pixel axis to NDC.
func ndc16(p float32) float32 { return p/8 - 1 }

// rows16 turns window positions of a 16x16 target into vertex rows.
func rows16(pts ...[2]float32) [][]float32 {
	var rows [][]float32
	for _, p := range pts {
		rows = append(rows, []float32{ndc16(p[0]), ndc16(p[1]), 0, 1})
	}
	return rows
}

// coverage draws rows with s (additively, one per fragment) into a new
// 16x16 R32F target and returns its bytes.
func coverage(t *testing.T, s State, top Topology, rows [][]float32) []byte {
	t.Helper()
	tg := newTarget(t, 16, 16, []format.Format{format.R32F}, format.Invalid)
	draw(t, tg, &s, verts(rows...), DrawParams{Topology: top, Count: len(rows)})
	return tg.Color[0].Data
}

// A LINE face is its boundary edges drawn as lines of the line width and a
// POINT face its boundary vertices drawn as points: each image equals that
// of the same lines or points drawn as line or point primitives, the fan
// diagonals of quads and polygons hidden. spec: GL 4.6 §14.6.4
func TestPolygonModeEdgesAndVertices(t *testing.T) {
	a, b, c, d, e := [2]float32{2, 2}, [2]float32{13, 3}, [2]float32{12, 12}, [2]float32{3, 13}, [2]float32{1, 7}
	cases := []struct {
		name    string
		top     Topology
		poly    []([2]float32)
		mode    PolygonMode
		refTop  Topology
		refPts  [][2]float32
		width   float32
		workers int
	}{
		{"triangle lines", Triangles, [][2]float32{a, b, c}, PolygonLine, Lines, [][2]float32{a, b, b, c, c, a}, 1, 1},
		{"wide triangle lines", Triangles, [][2]float32{a, b, c}, PolygonLine, Lines, [][2]float32{a, b, b, c, c, a}, 3, 1},
		{"triangle points", Triangles, [][2]float32{a, b, c}, PolygonPoint, Points, [][2]float32{a, b, c}, 3, 1},
		{"quad lines", Quads, [][2]float32{a, b, c, d}, PolygonLine, LineLoop, [][2]float32{a, b, c, d}, 1, 1},
		{"quad points", Quads, [][2]float32{a, b, c, d}, PolygonPoint, Points, [][2]float32{a, b, c, d}, 2, 1},
		{"quad strip lines", QuadStrip, [][2]float32{a, b, d, c}, PolygonLine, LineLoop, [][2]float32{a, b, c, d}, 1, 1},
		{"polygon lines", Polygon, [][2]float32{e, a, b, c, d}, PolygonLine, LineLoop, [][2]float32{e, a, b, c, d}, 2, 1},
		{"polygon points", Polygon, [][2]float32{e, a, b, c, d}, PolygonPoint, Points, [][2]float32{e, a, b, c, d}, 3, 1},
		{"fan lines, four workers", TriangleFan, [][2]float32{e, a, b, c}, PolygonLine, Lines, [][2]float32{e, a, a, b, b, e, e, b, b, c, c, e}, 5, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := additive(16, 16)
			s.LineWidth, s.PointSize, s.Workers = tc.width, tc.width, tc.workers
			want := coverage(t, s, tc.refTop, rows16(tc.refPts...))
			s.PolygonFront, s.PolygonBack = tc.mode, tc.mode
			got := coverage(t, s, tc.top, rows16(tc.poly...))
			if !bytes.Equal(got, want) {
				t.Fatal("polygon-mode image differs from its edges or vertices drawn as primitives")
			}
			if bytes.Equal(got, make([]byte, len(got))) {
				t.Fatal("nothing drawn")
			}
		})
	}
}

// facingFS writes (1, gl_FrontFacing, gl_PrimitiveID, 1).
var facingFS = FragmentFunc(func(qs []Quad, _ Textures) error {
	for i := range qs {
		q := &qs[i]
		ff := float32(0)
		if q.FrontFacing {
			ff = 1
		}
		for l := range 4 {
			q.SetColor(0, l, [4]float32{1, ff, float32(q.PrimitiveID), 1})
		}
	}
	return nil
})

// Each face takes its own mode after facing and culling, and its lines and
// points are as front-facing as the polygon, with its primitive id.
func TestPolygonModeFacingCullAndID(t *testing.T) {
	// Three separate triangles: CCW (front), CW (back), CCW.
	tris := [][2]float32{{1, 1}, {6, 1}, {1, 6}, {9, 1}, {9, 6}, {14, 1}, {1, 9}, {6, 9}, {1, 14}}
	// seen counts each triangle's fragments of a draw in the given modes,
	// checking their ids and facing.
	seen := func(t *testing.T, front, back PolygonMode, cull CullMode) [3]int {
		tg := newTarget(t, 16, 16, []format.Format{format.RGBA32F}, format.Invalid)
		s := DefaultState(16, 16)
		s.Vertex, s.Fragment = passVS(0), facingFS
		s.PolygonFront, s.PolygonBack, s.Cull = front, back, cull
		s.PointSize = 2
		draw(t, tg, &s, verts(rows16(tris...)...), DrawParams{Topology: Triangles, Count: 9})
		var n [3]int
		for y := range 16 {
			for x := range 16 {
				c := tg.Color[0].Float(x, y)
				if c[0] == 0 {
					continue
				}
				k := 0
				switch {
				case x >= 8:
					k = 1
				case y >= 8:
					k = 2
				}
				if want := float32(k); c[2] != want {
					t.Fatalf("pixel (%d,%d): primitive id %v, want %v", x, y, c[2], want)
				}
				if want := float32(1 - k%2); c[1] != want {
					t.Fatalf("pixel (%d,%d) of triangle %d: gl_FrontFacing %v", x, y, k, c[1])
				}
				n[k]++
			}
		}
		return n
	}
	filled := seen(t, PolygonFill, PolygonFill, CullNone)
	for _, tc := range []struct {
		name        string
		front, back PolygonMode
		cull        CullMode
		drawn       [3]bool
	}{
		{"lines both", PolygonLine, PolygonLine, CullNone, [3]bool{true, true, true}},
		{"back culled", PolygonLine, PolygonPoint, CullBack, [3]bool{true, false, true}},
		{"front culled", PolygonPoint, PolygonLine, CullFront, [3]bool{false, true, false}},
		{"front filled", PolygonFill, PolygonLine, CullNone, [3]bool{true, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := seen(t, tc.front, tc.back, tc.cull)
			for k, d := range tc.drawn {
				if d != (n[k] > 0) {
					t.Fatalf("triangle %d: %d fragments, drawn %v", k, n[k], d)
				}
			}
			if tc.front == PolygonFill && n[0] != filled[0] || tc.front != PolygonFill && n[0] == filled[0] {
				t.Fatalf("front triangle in mode %d: %d fragments, %d filled", tc.front, n[0], filled[0])
			}
		})
	}
}

// A user clip plane clips the polygon before its edges are taken: the
// clipped polygon's edge along the plane is drawn, its vertices there are
// points, and nothing outside the plane is drawn. spec: GL 4.6 §14.6.4;
// compatibility §13.7 (edge flags of clipped polygons)
func TestPolygonModeUserClip(t *testing.T) {
	vs := VertexFunc{Out: VertexLayout{ClipDistances: 1}, Fn: func(b *VertexBatch, _ Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			x, y := math.Float32frombits(a[0]), math.Float32frombits(a[1])
			b.Position[v] = [4]float32{x, y, 0, 1}
			b.ClipDist[v] = x // the left half is outside
		}
		return nil
	}}
	// A(-0.5,-0.5) is outside; the plane cuts C–A at (0,0), A–B at (0,-0.5).
	tri := [][]float32{{-0.5, -0.5, 0, 1}, {0.5, -0.5, 0, 1}, {0.5, 0.5, 0, 1}}
	n1, n2 := []float32{0, 0, 0, 1}, []float32{0, -0.5, 0, 1}
	for _, tc := range []struct {
		mode PolygonMode
		top  Topology
		want [][]float32
	}{
		{PolygonLine, Lines, [][]float32{n1, n2, n2, tri[1], tri[1], tri[2], tri[2], n1}},
		{PolygonPoint, Points, [][]float32{n1, n2, tri[1], tri[2]}},
	} {
		s := additive(16, 16)
		s.PointSize = 3
		want := coverage(t, s, tc.top, tc.want)
		s.Vertex, s.ClipDistances = vs, 1
		s.PolygonFront = tc.mode
		if got := coverage(t, s, Triangles, tri); !bytes.Equal(got, want) {
			t.Fatalf("mode %d: the clipped polygon's edges or vertices differ", tc.mode)
		}
		// Without the edge along the plane (a view-volume plane draws
		// none): the image has fewer fragments.
		if tc.mode == PolygonLine {
			s2 := additive(16, 16)
			noEdge := coverage(t, s2, Lines, [][]float32{n2, tri[1], tri[1], tri[2], tri[2], n1})
			if bytes.Equal(noEdge, want) {
				t.Fatal("the edge along the plane adds no fragments")
			}
		}
	}
}

// GL_POLYGON_OFFSET_LINE / _POINT offset a LINE / POINT face's fragments by
// the polygon's offset; POLYGON_OFFSET_FILL alone offsets only FILL faces.
// spec: GL 4.6 §14.6.5
func TestPolygonModeOffset(t *testing.T) {
	const units = 4096
	depth := func(mode PolygonMode, b DepthBias) *Surface {
		tg := newTarget(t, 16, 16, []format.Format{format.RGBA8}, format.D24S8)
		tg.ClearDepth(1)
		s := DefaultState(16, 16)
		s.Vertex, s.Fragment = passVS(0), constFS(red)
		s.Depth = DepthState{Test: true, Func: compare.Always, Write: true, BoundsMax: 1}
		s.PolygonFront, s.PolygonBack, s.DepthBias, s.PointSize = mode, mode, b, 2
		rows := [][]float32{{ndc16(2), ndc16(2), 0.2, 1}, {ndc16(13), ndc16(3), 0.4, 1}, {ndc16(8), ndc16(13), 0.6, 1}}
		draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: 3})
		return tg.DepthStencil
	}
	r := 1 / float64(1<<24-1)
	for _, mode := range []PolygonMode{PolygonLine, PolygonPoint} {
		base := depth(mode, DepthBias{})
		on := DepthBias{Line: mode == PolygonLine, Point: mode == PolygonPoint, Constant: units}
		off := depth(mode, on)
		fillOnly := depth(mode, DepthBias{Enable: true, Constant: units})
		if !bytes.Equal(fillOnly.Data, base.Data) {
			t.Fatalf("mode %d: POLYGON_OFFSET_FILL moved a LINE/POINT face", mode)
		}
		n := 0
		for y := range 16 {
			for x := range 16 {
				z0, z1 := float64(base.Depth(x, y)), float64(off.Depth(x, y))
				if z0 == 1 {
					continue
				}
				n++
				if d := (z1 - z0) / r; math.Abs(d-units) > 1 {
					t.Fatalf("mode %d: pixel (%d,%d) offset by %v units, want %d", mode, x, y, d, units)
				}
			}
		}
		if n == 0 {
			t.Fatalf("mode %d: nothing drawn", mode)
		}
	}
}

func TestPolygonModeInvalid(t *testing.T) {
	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(4, 4)
	s.Vertex, s.PolygonBack = passVS(0), PolygonPoint+1
	err := Draw(t.Context(), tg, &s, verts([]float32{0, 0, 0, 1}, []float32{1, 0, 0, 1}, []float32{0, 1, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
	if !errors.Is(err, ErrBadDraw) {
		t.Fatalf("polygon mode %d: %v, want ErrBadDraw", PolygonPoint+1, err)
	}
}

// Assembly's edge flags hide the fan diagonals of quads, quad strips and
// polygons (restart runs each their own polygon). spec: GL 2.1 §2.6.2
func TestAssembleEdgeFlags(t *testing.T) {
	for _, tc := range []struct {
		top  Topology
		slot []int32
		want []uint8
	}{
		{Triangles, []int32{0, 1, 2, 3, 4, 5}, []uint8{0b111, 0b111}},
		{TriangleStrip, []int32{0, 1, 2, 3}, []uint8{0b111, 0b111}},
		{Quads, []int32{0, 1, 2, 3, 4, 5, 6, 7}, []uint8{0b011, 0b110, 0b011, 0b110}},
		{QuadStrip, []int32{0, 1, 2, 3, 4, 5}, []uint8{0b011, 0b110, 0b011, 0b110}},
		{Polygon, []int32{0, 1, 2}, []uint8{0b111}},
		{Polygon, []int32{0, 1, 2, 3, 4}, []uint8{0b011, 0b010, 0b110}},
		{Polygon, []int32{0, 1, 2, 3, -1, 4, 5, 6}, []uint8{0b011, 0b110, 0b111}},
	} {
		var got []uint8
		err := assemble(tc.top, tc.slot, true, nil, func(n int, _ [3]int32, _ int32, _ bool, e uint8) error {
			got = append(got, e)
			return nil
		})
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("topology %d %v: edge flags %03b (%v), want %03b", tc.top, tc.slot, got, err, tc.want)
		}
	}
}
