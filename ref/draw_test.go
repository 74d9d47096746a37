package ref

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

var red = [4]float32{1, 0, 0, 1}

// spec: software-shader-backend "Target lifecycle": a new target is defined
// (zero) before any clear.
func TestTargetZeroAtCreation(t *testing.T) {
	for _, f := range []format.Format{format.RGBA8, format.RGBA32F, format.R32UI, format.SRGB8A8} {
		tg := newTarget(t, 7, 5, []format.Format{f}, format.D24S8)
		for _, b := range tg.Color[0].Data {
			if b != 0 {
				t.Fatalf("%v: nonzero byte after creation", f)
			}
		}
		for _, b := range tg.DepthStencil.Data {
			if b != 0 {
				t.Fatalf("depth/stencil nonzero after creation")
			}
		}
	}
}

func TestFullScreenTriangleCoversAll(t *testing.T) {
	tg := newTarget(t, 13, 9, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(13, 9)
	s.Vertex, s.Fragment = passVS(4), colorFS
	in := verts([]float32{-1, -1, 0, 1, 1, 0, 0, 1}, []float32{3, -1, 0, 1, 1, 0, 0, 1}, []float32{-1, 3, 0, 1, 1, 0, 0, 1})
	draw(t, tg, &s, in, DrawParams{Topology: Triangles, Count: 3})
	if n := count(tg.Color[0]); n != 13*9 {
		t.Fatalf("covered %d pixels, want %d", n, 13*9)
	}
}

// spec: software-shader-backend "Production color packing": colours outside
// [0,1] are clamped, NaN stores 0, rounding is floor(f*255+0.5).
func TestColorClampAndRound(t *testing.T) {
	cases := []struct {
		in   float32
		want uint32
	}{{-2, 0}, {-0.001, 0}, {0, 0}, {0.5, 128}, {0.499, 127}, {1.0 / 255, 1}, {0.5 / 255, 1}, {0.49 / 255, 0}, {1, 255}, {7, 255}, {float32(math.NaN()), 0}, {float32(math.Inf(1)), 255}}
	for _, c := range cases {
		tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, format.Invalid)
		s := DefaultState(2, 2)
		s.Vertex, s.Fragment = passVS(4), constFS([4]float32{c.in, c.in, c.in, c.in})
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
		if got := tg.Color[0].Raw(1, 1); got != (format.Raw{c.want, c.want, c.want, c.want}) {
			t.Errorf("colour %v stored %v, want %d", c.in, got, c.want)
		}
	}
}

// spec: software-shader-backend "Persistent depth semantics": discard keeps
// the old depth, equal depth is rejected under LESS, depth disable is
// honoured, and several triangles share one target.
func TestDepthSemantics(t *testing.T) {
	discardFS := FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			qs[i].Live = 0
		}
		return nil
	})
	type drawc struct {
		z     float32
		color [4]float32
		fs    FragmentShader
	}
	cases := []struct {
		name      string
		test      bool
		fn        compare.Func
		draws     []drawc
		wantR     uint32
		wantDepth float32
	}{
		{"less nearer wins", true, compare.Less, []drawc{{0.5, red, nil}, {0, [4]float32{0, 1, 0, 1}, nil}}, 0, 0.5},
		{"less farther loses", true, compare.Less, []drawc{{0, red, nil}, {0.5, [4]float32{0, 1, 0, 1}, nil}}, 255, 0.5},
		{"less equal rejected", true, compare.Less, []drawc{{0, red, nil}, {0, [4]float32{0, 1, 0, 1}, nil}}, 255, 0.5},
		{"lequal equal passes", true, compare.LessEqual, []drawc{{0, red, nil}, {0, [4]float32{0, 1, 0, 1}, nil}}, 0, 0.5},
		{"discard keeps depth", true, compare.Less, []drawc{{0.5, red, nil}, {-0.5, [4]float32{0, 1, 0, 1}, discardFS}, {0, [4]float32{0, 0, 1, 1}, nil}}, 0, 0.5},
		{"disabled overwrites", false, compare.Less, []drawc{{0, [4]float32{0, 1, 0, 1}, nil}, {0.5, red, nil}}, 255, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.D32F)
			if err := tg.ClearDepth(1); err != nil {
				t.Fatal(err)
			}
			s := DefaultState(4, 4)
			s.Depth.Test, s.Depth.Func = c.test, c.fn
			for _, dc := range c.draws {
				s.Vertex, s.Fragment = passVS(4), colorFS
				if dc.fs != nil {
					s.Fragment = dc.fs
				}
				draw(t, tg, &s, quadVerts(-1, -1, 1, 1, dc.z, dc.color), DrawParams{Topology: Triangles, Count: 6})
			}
			for y := range 4 {
				for x := range 4 {
					if r := tg.Color[0].Raw(x, y)[0]; r != c.wantR {
						t.Fatalf("(%d,%d) red %d, want %d", x, y, r, c.wantR)
					}
					want := c.wantDepth
					if !c.test {
						want = 1
					}
					if z := tg.DepthStencil.Depth(x, y); z != want {
						t.Fatalf("(%d,%d) depth %v, want %v", x, y, z, want)
					}
				}
			}
		})
	}
}

func TestDepthFuncTable(t *testing.T) {
	// incoming 0.5 against stored 0.25 / 0.5 / 0.75
	want := map[compare.Func][3]bool{compare.Never: {false, false, false}, compare.Less: {false, false, true}, compare.Equal: {false, true, false}, compare.LessEqual: {false, true, true}, compare.Greater: {true, false, false}, compare.NotEqual: {true, false, true}, compare.GreaterEqual: {true, true, false}, compare.Always: {true, true, true}}
	for _, df := range []format.Format{format.D16, format.D24S8, format.D32F} {
		for fn, w := range want {
			for i, stored := range []float32{0.25, 0.5, 0.75} {
				tg := newTarget(t, 2, 2, []format.Format{format.RGBA8}, df)
				_ = tg.ClearDepth(stored)
				s := DefaultState(2, 2)
				s.Depth.Test, s.Depth.Func = true, fn
				s.Vertex, s.Fragment = passVS(4), colorFS
				// window z 0.5 is NDC z 0
				draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
				if got := tg.Color[0].Raw(0, 0)[0] == 255; got != w[i] {
					t.Errorf("%v func %d stored %v: pass %v, want %v", df, fn, stored, got, w[i])
				}
			}
		}
	}
}

// spec: software-shader-backend "Culling and viewport gaps": culling is
// honoured for both windings and front-face conventions.
func TestCulling(t *testing.T) {
	ccw := verts([]float32{-1, -1, 0, 1, 1, 0, 0, 1}, []float32{1, -1, 0, 1, 1, 0, 0, 1}, []float32{-1, 1, 0, 1, 1, 0, 0, 1})
	cw := verts([]float32{-1, -1, 0, 1, 1, 0, 0, 1}, []float32{-1, 1, 0, 1, 1, 0, 0, 1}, []float32{1, -1, 0, 1, 1, 0, 0, 1})
	cases := []struct {
		cull  CullMode
		front FrontFace
		in    VertexInput
		drawn bool
	}{
		{CullNone, FrontCCW, ccw, true}, {CullNone, FrontCCW, cw, true},
		{CullBack, FrontCCW, ccw, true}, {CullBack, FrontCCW, cw, false},
		{CullFront, FrontCCW, ccw, false}, {CullFront, FrontCCW, cw, true},
		{CullBack, FrontCW, ccw, false}, {CullBack, FrontCW, cw, true},
		{CullFrontAndBack, FrontCCW, ccw, false}, {CullFrontAndBack, FrontCCW, cw, false},
	}
	for _, c := range cases {
		tg := newTarget(t, 8, 8, []format.Format{format.RGBA8}, format.Invalid)
		s := DefaultState(8, 8)
		s.Cull, s.FrontFace = c.cull, c.front
		s.Vertex, s.Fragment = passVS(4), colorFS
		draw(t, tg, &s, c.in, DrawParams{Topology: Triangles, Count: 3})
		if got := count(tg.Color[0]) > 0; got != c.drawn {
			t.Errorf("cull %d front %d: drawn %v, want %v", c.cull, c.front, got, c.drawn)
		}
	}
}

func TestFrontFacingInput(t *testing.T) {
	for _, c := range []struct {
		front FrontFace
		want  uint32
	}{{FrontCCW, 255}, {FrontCW, 0}} {
		tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
		s := DefaultState(4, 4)
		s.FrontFace = c.front
		s.Vertex = passVS(0)
		s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
			for i := range qs {
				v := float32(0)
				if qs[i].FrontFacing {
					v = 1
				}
				for l := range 4 {
					qs[i].SetColor(0, l, [4]float32{v, 1, 0, 1})
				}
			}
			return nil
		})
		draw(t, tg, &s, verts([]float32{-1, -1, 0, 1}, []float32{3, -1, 0, 1}, []float32{-1, 3, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
		if r := tg.Color[0].Raw(1, 1)[0]; r != c.want {
			t.Errorf("front face %d: red %d, want %d", c.front, r, c.want)
		}
	}
}

// spec: software-shader-backend "Culling and viewport gaps": the viewport's
// x, y, w and h are honoured.
func TestViewport(t *testing.T) {
	cases := []Viewport{{0, 0, 16, 16, 0, 1}, {2, 3, 8, 4, 0, 1}, {-4, -4, 8, 8, 0, 1}, {10, 12, 6, 4, 0, 1}, {12, 0, 10, 3, 0, 1}}
	for _, vp := range cases {
		tg := newTarget(t, 16, 16, []format.Format{format.RGBA8}, format.Invalid)
		s := DefaultState(16, 16)
		s.Viewport = vp
		s.Vertex, s.Fragment = passVS(4), colorFS
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
		for y := range 16 {
			for x := range 16 {
				in := float32(x) >= vp.X && float32(x) < vp.X+vp.W && float32(y) >= vp.Y && float32(y) < vp.Y+vp.H
				if got := tg.Color[0].Raw(x, y)[0] != 0; got != in {
					t.Fatalf("viewport %+v pixel (%d,%d) drawn %v, want %v", vp, x, y, got, in)
				}
			}
		}
	}
}

func TestScissor(t *testing.T) {
	tg := newTarget(t, 10, 10, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(10, 10)
	s.ScissorTest, s.Scissor = true, Rect{X: 3, Y: 2, W: 4, H: 5}
	s.Vertex, s.Fragment = passVS(4), colorFS
	draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
	for y := range 10 {
		for x := range 10 {
			in := x >= 3 && x < 7 && y >= 2 && y < 7
			if got := tg.Color[0].Raw(x, y)[0] != 0; got != in {
				t.Fatalf("pixel (%d,%d) drawn %v, want %v", x, y, got, in)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	render := func() []byte {
		tg := newTarget(t, 33, 31, []format.Format{format.RGBA8}, format.D24S8)
		s := DefaultState(33, 31)
		s.Depth.Test = true
		_ = tg.ClearDepth(1)
		s.Vertex, s.Fragment = passVS(4), colorFS
		in := verts([]float32{-0.9, -0.7, 0.3, 1, 1, 0, 0, 1}, []float32{0.8, -0.9, -0.2, 1, 0, 1, 0, 1}, []float32{0.1, 0.95, 0.1, 1, 0, 0, 1, 1})
		draw(t, tg, &s, in, DrawParams{Topology: Triangles, Count: 3})
		return append(append([]byte{}, tg.Color[0].Data...), tg.DepthStencil.Data...)
	}
	if a, b := render(), render(); !bytes.Equal(a, b) {
		t.Fatal("two identical draws differ")
	}
}

func TestDrawErrors(t *testing.T) {
	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
	good := DefaultState(4, 4)
	good.Vertex, good.Fragment = passVS(4), colorFS
	in := quadVerts(-1, -1, 1, 1, 0, red)
	failing := good
	failing.Fragment = FragmentFunc(func([]Quad, Textures) error { return errors.New("boom") })
	badVP := good
	badVP.Viewport.W = 0
	noVS := good
	noVS.Vertex = nil
	cases := []struct {
		name string
		s    *State
		in   VertexInput
		p    DrawParams
	}{
		{"vertex out of range", &good, in, DrawParams{Topology: Triangles, Count: 9}},
		{"index buffer short", &good, in, DrawParams{Topology: Triangles, Count: 3, IndexType: Index16, Indices: []byte{0, 0, 1}}},
		{"index out of range", &good, in, DrawParams{Topology: Triangles, Count: 3, IndexType: Index8, Indices: []byte{0, 1, 77}}},
		{"negative base vertex", &good, in, DrawParams{Topology: Triangles, Count: 3, IndexType: Index8, Indices: []byte{0, 1, 2}, BaseVertex: -1}},
		{"bad topology", &good, in, DrawParams{Topology: 99, Count: 3}},
		{"shader error", &failing, in, DrawParams{Topology: Triangles, Count: 3}},
		{"zero viewport", &badVP, in, DrawParams{Topology: Triangles, Count: 3}},
		{"no vertex shader", &noVS, in, DrawParams{Topology: Triangles, Count: 3}},
		{"negative count", &good, in, DrawParams{Topology: Triangles, Count: -3}},
		{"huge count", &good, in, DrawParams{Topology: Triangles, Count: 1 << 40}},
		{"huge first indexed", &good, in, DrawParams{Topology: Triangles, First: 1 << 62, Count: 3, IndexType: Index32, Indices: make([]byte, 12)}},
		{"huge words", &good, VertexInput{Words: 1 << 40}, DrawParams{Topology: Triangles, Count: 3}},
		{"instance data short", &good, VertexInput{Words: in.Words, Data: in.Data, InstanceWords: 2}, DrawParams{Topology: Triangles, Count: 3}},
	}
	for _, c := range cases {
		if err := Draw(context.Background(), tg, c.s, c.in, c.p); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Draw(ctx, tg, &good, in, DrawParams{Topology: Triangles, Count: 6}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestClearRegions(t *testing.T) {
	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.D24S8)
	_ = tg.ClearColor(0, [4]float32{0, 0, 0, 1})
	_ = tg.ClearStencil(0xF0)
	reg := ClearRegion{Rect: Rect{X: 1, Y: 2, W: 10, H: 1}, ColorMask: 0b0011, StencilWriteMask: 0x3C}
	if err := tg.ClearColorRegion(0, [4]float32{1, 1, 1, 0}, reg); err != nil {
		t.Fatal(err)
	}
	_ = tg.ClearDepthRegion(0.5, reg)
	_ = tg.ClearStencilRegion(0x0F, reg)
	for y := range 4 {
		for x := range 4 {
			in := x >= 1 && y == 2
			wantC := format.Raw{0, 0, 0, 255}
			wantS := uint8(0xF0)
			wantZ := float32(0)
			if in {
				wantC, wantS, wantZ = format.Raw{255, 255, 0, 255}, 0xCC, format.QuantizeDepth(format.D24S8, 0.5)
			}
			if c, s, z := tg.Color[0].Raw(x, y), tg.DepthStencil.Stencil(x, y), tg.DepthStencil.Depth(x, y); c != wantC || s != wantS || z != wantZ {
				t.Fatalf("(%d,%d): colour %v stencil %#x depth %v, want %v %#x %v", x, y, c, s, z, wantC, wantS, wantZ)
			}
		}
	}
}

func TestFlippedViewport(t *testing.T) {
	// A negative height flips y: a triangle in the NDC upper half lands in
	// the lower rows, and its winding (and so culling) flips with it.
	tg := newTarget(t, 8, 8, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(8, 8)
	s.Viewport = Viewport{X: 0, Y: 8, W: 8, H: -8, MaxDepth: 1}
	s.Vertex, s.Fragment = passVS(4), colorFS
	in := quadVerts(-1, 0, 1, 1, 0, red)
	draw(t, tg, &s, in, DrawParams{Topology: Triangles, Count: 6})
	if tg.Color[0].Raw(3, 1)[0] != 255 || tg.Color[0].Raw(3, 6)[0] != 0 {
		t.Fatal("flipped viewport did not flip y")
	}
	s.Cull = CullBack
	tg2 := newTarget(t, 8, 8, []format.Format{format.RGBA8}, format.Invalid)
	draw(t, tg2, &s, in, DrawParams{Topology: Triangles, Count: 6})
	if count(tg2.Color[0]) != 0 {
		t.Fatal("a CCW quad seen through a flipped viewport must be back-facing")
	}
}

func TestReadback(t *testing.T) {
	cases := []struct {
		f    format.Format
		c    [4]float32
		want [4]uint8
	}{
		{format.RGBA8, [4]float32{1, 0.5, 0, 0.2}, [4]uint8{255, 128, 0, 51}},
		{format.BGRA8, [4]float32{1, 0.5, 0, 0.2}, [4]uint8{255, 128, 0, 51}},
		{format.SRGB8A8, [4]float32{0.5, 0, 1, 0.5}, [4]uint8{188, 0, 255, 128}}, // stored (encoded) bytes
		{format.R8, [4]float32{0.25, 1, 1, 0}, [4]uint8{64, 0, 0, 255}},
		{format.RG8, [4]float32{0.25, 1, 1, 0}, [4]uint8{64, 255, 0, 255}},
		{format.RGBA32F, [4]float32{2, -1, 0.5, 1}, [4]uint8{255, 0, 128, 255}},
		{format.RGBA16F, [4]float32{0.25, 0.75, 1, 0}, [4]uint8{64, 191, 255, 0}},
		{format.R32I, [4]float32{-5, 0, 0, 0}, [4]uint8{0, 0, 0, 255}},
		{format.RGBA8UI, [4]float32{7, 300, 0, 1}, [4]uint8{7, 255, 0, 1}},
	}
	for _, c := range cases {
		tg := newTarget(t, 1, 2, []format.Format{c.f}, format.Invalid)
		if err := tg.ClearColor(0, c.c); err != nil {
			t.Fatal(err)
		}
		p := tg.Color[0].NRGBA(true).NRGBAAt(0, 1)
		if got := [4]uint8{p.R, p.G, p.B, p.A}; got != c.want {
			t.Errorf("%v: read back %v, want %v", c.f, got, c.want)
		}
		if r := tg.Color[0].RGBA(false); r.Pix[0] != c.want[0] || r.Pix[3] != c.want[3] {
			t.Errorf("%v: RGBA readback %v", c.f, r.Pix[:4])
		}
	}
}

// A fragment shader that scribbles over its quads' inputs cannot move
// where the renderer writes.
func TestShaderCannotMoveQuads(t *testing.T) {
	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(4, 4)
	s.Vertex = passVS(0)
	s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			qs[i].X, qs[i].Y = 1<<30, -7
			for l := range 4 {
				qs[i].SetColor(0, l, red)
			}
		}
		return nil
	})
	draw(t, tg, &s, verts([]float32{-1, -1, 0, 1}, []float32{3, -1, 0, 1}, []float32{-1, 3, 0, 1}), DrawParams{Topology: Triangles, Count: 3})
	if count(tg.Color[0]) != 16 {
		t.Fatal("writes did not land on the rasterized pixels")
	}
}

func TestRasterizerDiscard(t *testing.T) {
	shaded := 0
	tg := newTarget(t, 4, 4, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(4, 4)
	s.RasterizerDiscard = true
	s.Vertex = VertexFunc{Fn: func(b *VertexBatch, tex Textures) error { shaded += b.N; return nil }}
	s.Fragment = colorFS
	draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
	if shaded != 6 || count(tg.Color[0]) != 0 {
		t.Fatalf("shaded %d vertices, %d pixels written", shaded, count(tg.Color[0]))
	}
}
