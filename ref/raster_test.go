package ref

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
)

// additive returns a state that adds 1.0 per fragment into an R32F target.
func additive(w, h int) State {
	s := DefaultState(w, h)
	s.Blend[0] = BlendState{Enable: true, SrcRGB: blend.One, DstRGB: blend.One, SrcAlpha: blend.One, DstAlpha: blend.One, WriteMask: 0xF}
	s.Vertex, s.Fragment = passVS(0), constFS([4]float32{1, 1, 1, 1})
	return s
}

// checkOnce reports pixels of an R32F target not covered exactly once
// inside the region in(x, y) and not zero outside it.
func checkOnce(t *testing.T, tg *Target, in func(x, y int) bool) {
	t.Helper()
	bad := 0
	for y := 0; y < tg.H; y++ {
		for x := 0; x < tg.W; x++ {
			want := float32(0)
			if in(x, y) {
				want = 1
			}
			if got := tg.Color[0].Float(x, y)[0]; got != want {
				if bad < 5 {
					t.Errorf("pixel (%d,%d) covered %v times, want %v", x, y, got, want)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d pixels wrong", bad)
	}
}

// A jittered grid mesh covering the whole viewport, drawn with additive
// blending, covers every pixel exactly once (top-left rule, shared edges).
func TestWatertightMesh(t *testing.T) {
	for _, scale := range []float32{1, 1.7, 3.1} {
		watertightMesh(t, scale)
	}
}

// watertightMesh draws the jittered grid scaled by scale: beyond 1 most
// border triangles are clipped against the side planes, and the shared
// clipped edges must still meet exactly.
func watertightMesh(t *testing.T, scale float32) {
	const w, h, n = 64, 48, 9
	rng := rand.New(rand.NewPCG(1, 2))
	var grid [n + 1][n + 1][2]float32
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			x, y := -1+2*float32(i)/n, -1+2*float32(j)/n
			if i > 0 && i < n {
				x += (rng.Float32() - 0.5) * 0.15
			}
			if j > 0 && j < n {
				y += (rng.Float32() - 0.5) * 0.15
			}
			grid[j][i] = [2]float32{x, y}
		}
	}
	var rows [][]float32
	var idx []byte
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			// vary w so the mesh is perspective-projected but still covers NDC
			wv := 1 + rng.Float32()
			rows = append(rows, []float32{grid[j][i][0] * wv * scale, grid[j][i][1] * wv * scale, 0, wv})
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a, b, c, d := j*(n+1)+i, j*(n+1)+i+1, (j+1)*(n+1)+i+1, (j+1)*(n+1)+i
			if (i+j)%2 == 0 {
				idx = append(idx, byte(a), byte(b), byte(c), byte(a), byte(c), byte(d))
			} else {
				idx = append(idx, byte(a), byte(b), byte(d), byte(b), byte(c), byte(d))
			}
		}
	}
	tg := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
	s := additive(w, h)
	draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: len(idx), IndexType: Index8, Indices: idx})
	checkOnce(t, tg, func(x, y int) bool { return true })
}

// A fan of thin triangles around an off-centre point, with vertices on
// sub-pixel positions, covers its disc exactly once.
func TestWatertightFan(t *testing.T) {
	const w, h, n = 40, 40, 37
	rows := [][]float32{{0.013, -0.021, 0, 1}}
	for i := 0; i <= n; i++ {
		a := 2 * math.Pi * float64(i%n) / n
		rows = append(rows, []float32{float32(0.9 * math.Cos(a)), float32(0.9 * math.Sin(a)), 0, 1})
	}
	tg := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
	s := additive(w, h)
	draw(t, tg, &s, verts(rows...), DrawParams{Topology: TriangleFan, Count: len(rows)})
	for y := range h {
		for x := range w {
			if v := tg.Color[0].Float(x, y)[0]; v != 0 && v != 1 {
				t.Fatalf("pixel (%d,%d) covered %v times", x, y, v)
			}
		}
	}
	if tg.Color[0].Float(20, 20)[0] != 1 {
		t.Fatal("centre not covered")
	}
}

func TestTopLeftRule(t *testing.T) {
	// A 4x4-pixel square with edges exactly on pixel centres (x = 2.5 ..
	// 6.5): the left/bottom-row (lower y) edges are owned, right/top not.
	const w, h = 10, 10
	px := func(p float32) float32 { return p/w*2 - 1 }
	tg := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
	s := additive(w, h)
	in := quadVerts(px(2.5), px(2.5), px(6.5), px(6.5), 0, red)
	draw(t, tg, &s, VertexInput{Words: 8, Data: in.Data}, DrawParams{Topology: Triangles, Count: 6})
	checkOnce(t, tg, func(x, y int) bool { return x >= 2 && x < 6 && y >= 2 && y < 6 })
}

// spec: software-shader-backend "W and clipping behavior": W = 0 and
// near-plane crossings are clipped, not skipped or divided by zero.
func TestClipping(t *testing.T) {
	cases := []struct {
		name string
		rows [][]float32
		zero bool
		in   func(x, y int) bool
	}{
		// Half the quad is behind the eye (w < 0) and one edge passes w = 0.
		{"w zero", [][]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {1, 1, 0, 0}, {-1, -1, 0, 1}, {1, 1, 0, 0}, {-1, 1, 0, 0}}, false,
			func(x, y int) bool { return true }},
		// Near-plane crossing: z from -2 to 0 with w = 1 covers x in the right
		// half only (z >= -w where x >= 0).
		{"near crossing GL", [][]float32{{-1, -1, -2, 1}, {1, -1, 0, 1}, {1, 1, 0, 1}, {-1, -1, -2, 1}, {1, 1, 0, 1}, {-1, 1, -2, 1}}, false,
			func(x, y int) bool { return x >= 8 }},
		// Vulkan convention: z from -1 to 1, near at z = 0 (x >= 0).
		{"near crossing VK", [][]float32{{-1, -1, -1, 1}, {1, -1, 1, 1}, {1, 1, 1, 1}, {-1, -1, -1, 1}, {1, 1, 1, 1}, {-1, 1, -1, 1}}, true,
			func(x, y int) bool { return x >= 8 }},
		// Entirely behind the eye.
		{"behind", [][]float32{{-1, -1, 0, -1}, {1, -1, 0, -1}, {1, 1, 0, -1}}, false, func(x, y int) bool { return false }},
		// Guard band: a huge triangle is clipped to the view volume.
		{"huge", [][]float32{{-1e6, -1e6, 0, 1}, {1e6, -1e6, 0, 1}, {0, 1e6, 0, 1}}, false, func(x, y int) bool { return true }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tg := newTarget(t, 16, 16, []format.Format{format.R32F}, format.Invalid)
			s := additive(16, 16)
			s.ClipZeroToOne = c.zero
			draw(t, tg, &s, verts(c.rows...), DrawParams{Topology: Triangles, Count: len(c.rows) / 3 * 3})
			checkOnce(t, tg, c.in)
		})
	}
}

func TestUserClipDistances(t *testing.T) {
	// distance = x (the left half is clipped) and distance 1 - 2y... only
	// enabled planes clip.
	vs := VertexFunc{Out: VertexLayout{ClipDistances: 2}, Fn: func(b *VertexBatch, _ Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			x, y := math.Float32frombits(a[0]), math.Float32frombits(a[1])
			b.Position[v] = [4]float32{x, y, 0, 1}
			b.ClipDist[v*2] = x
			b.ClipDist[v*2+1] = -y
		}
		return nil
	}}
	for _, c := range []struct {
		mask uint8
		in   func(x, y int) bool
	}{
		{0, func(x, y int) bool { return true }},
		{1, func(x, y int) bool { return x >= 8 }},
		{2, func(x, y int) bool { return y < 8 }},
		{3, func(x, y int) bool { return x >= 8 && y < 8 }},
	} {
		tg := newTarget(t, 16, 16, []format.Format{format.R32F}, format.Invalid)
		s := additive(16, 16)
		s.Vertex, s.ClipDistances = vs, c.mask
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, 0, red), DrawParams{Topology: Triangles, Count: 6})
		checkOnce(t, tg, c.in)
	}
}

func TestDepthClamp(t *testing.T) {
	// A quad at z = -3 (in front of the near plane) vanishes unless depth
	// clamp is on, and then it stores the clamped depth range minimum.
	for _, clampOn := range []bool{false, true} {
		tg := newTarget(t, 4, 4, []format.Format{format.R32F}, format.D32F)
		_ = tg.ClearDepth(1)
		s := additive(4, 4)
		s.Depth.Test, s.Depth.Clamp = true, clampOn
		s.Viewport.MinDepth, s.Viewport.MaxDepth = 0.25, 0.75
		draw(t, tg, &s, quadVerts(-1, -1, 1, 1, -3, red), DrawParams{Topology: Triangles, Count: 6})
		got := tg.DepthStencil.Depth(1, 1)
		if clampOn && got != 0.25 || !clampOn && got != 1 {
			t.Errorf("clamp %v: depth %v", clampOn, got)
		}
	}
}

func TestInterpolation(t *testing.T) {
	// A triangle with w varying 1..4 and one varying word 0..1 per mode: at
	// a pixel, perspective-correct, noperspective and flat values follow the
	// analytic formulas computed from the barycentrics.
	const w, h = 32, 32
	rows := [][]float32{
		{-1, -1, 0, 1, 0, 0, 0},
		{4, -4, 0, 4, 1, 1, 1},
		{-2, 2, 0, 2, 0.5, 0.5, 0.25},
	}
	var got [3]float32
	var fc [4]float32
	fs := FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			q := &qs[i]
			for l := range 4 {
				x, y := int(q.X)+l&1, int(q.Y)+l>>1
				if x == 10 && y == 12 && q.Helper&(1<<l) == 0 {
					for k := range 3 {
						got[k] = q.Varying(l, 3, k)
					}
					fc = q.FragCoord[l]
				}
			}
		}
		return nil
	})
	for _, prov := range []ProvokingVertex{ProvokingLast, ProvokingFirst} {
		tg := newTarget(t, w, h, []format.Format{format.RGBA8}, format.Invalid)
		s := DefaultState(w, h)
		s.Vertex, s.Fragment = passVS(3), fs
		s.Interp = []Interp{Smooth, NoPerspective, Flat}
		s.Provoking = prov
		draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: 3})
		// window positions
		var wx, wy, iw [3]float64
		for i, r := range rows {
			wx[i] = (float64(r[0])/float64(r[3]) + 1) * w / 2
			wy[i] = (float64(r[1])/float64(r[3]) + 1) * h / 2
			iw[i] = 1 / float64(r[3])
		}
		px, py := 10.5, 12.5
		area := (wx[1]-wx[0])*(wy[2]-wy[0]) - (wx[2]-wx[0])*(wy[1]-wy[0])
		b := [3]float64{
			((wx[1]-px)*(wy[2]-py) - (wx[2]-px)*(wy[1]-py)) / area,
			((wx[2]-px)*(wy[0]-py) - (wx[0]-px)*(wy[2]-py)) / area,
			((wx[0]-px)*(wy[1]-py) - (wx[1]-px)*(wy[0]-py)) / area,
		}
		var num, den, lin float64
		for i := range 3 {
			a := float64(rows[i][4])
			num += b[i] * a * iw[i]
			den += b[i] * iw[i]
			lin += b[i] * a
		}
		flat := rows[2][6]
		if prov == ProvokingFirst {
			flat = rows[0][6]
		}
		if math.Abs(float64(got[0])-num/den) > 1e-4 || math.Abs(float64(got[1])-lin) > 1e-4 || got[2] != flat {
			t.Errorf("provoking %d: got %v, want smooth %v noperspective %v flat %v", prov, got, num/den, lin, flat)
		}
		if fc[0] != 10.5 || fc[1] != 12.5 || math.Abs(float64(fc[3])-den) > 1e-5 || math.Abs(float64(fc[2])-0.5) > 1e-6 {
			t.Errorf("gl_FragCoord %v, want (10.5, 12.5, 0.5, %v)", fc, den)
		}
	}
}

func TestHelperLanes(t *testing.T) {
	// A tiny triangle covering only pixel (5,5): its quad (4..5, 4..5) is
	// shaded with all four lanes, three of them helpers, and only the
	// covered lane is written.
	const w, h = 10, 10
	px := func(p float32) float32 { return p/w*2 - 1 }
	var helpers []uint8
	fs := FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			helpers = append(helpers, qs[i].Helper)
			for l := range 4 {
				qs[i].SetColor(0, l, red)
			}
		}
		return nil
	})
	tg := newTarget(t, w, h, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(w, h)
	s.Vertex, s.Fragment = passVS(0), fs
	draw(t, tg, &s, verts([]float32{px(5.2), px(5.2), 0, 1}, []float32{px(5.9), px(5.2), 0, 1}, []float32{px(5.2), px(5.9), 0, 1}), DrawParams{Topology: Triangles, Count: 3})
	if len(helpers) != 1 || helpers[0] != 0b0111 {
		t.Fatalf("helper masks %v, want [0b0111]", helpers)
	}
	if count(tg.Color[0]) != 1 || tg.Color[0].Raw(5, 5)[0] != 255 {
		t.Fatal("only pixel (5,5) must be written")
	}
}

func TestDerivativesFromQuad(t *testing.T) {
	// A varying equal to 3*x_window: its quad x derivative is 3 everywhere.
	const w, h = 8, 8
	bad := 0
	fs := FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			var v [4]float32
			for l := range 4 {
				v[l] = qs[i].Varying(l, 1, 0)
			}
			for _, d := range QuadDdx(v) {
				if math.Abs(float64(d)-3) > 1e-4 {
					bad++
				}
			}
		}
		return nil
	})
	tg := newTarget(t, w, h, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(w, h)
	s.Vertex, s.Fragment = passVS(1), fs
	draw(t, tg, &s, verts([]float32{-1, -1, 0, 1, 0}, []float32{3, -1, 0, 1, 48}, []float32{-1, 3, 0, 1, 0}), DrawParams{Topology: Triangles, Count: 3})
	if bad > 0 {
		t.Fatalf("%d lanes with a wrong derivative", bad)
	}
}

func TestPoints(t *testing.T) {
	cases := []struct {
		x, y, size float32 // window position
		want       [4]int  // covered x0, y0, x1, y1 (exclusive)
	}{
		{5.5, 5.5, 1, [4]int{5, 5, 6, 6}},
		{5, 5, 2, [4]int{4, 4, 6, 6}},
		{5.5, 5.5, 3, [4]int{4, 4, 7, 7}},
		{0.5, 0.5, 4, [4]int{0, 0, 2, 2}}, // clipped by the target edge
	}
	for _, c := range cases {
		tg := newTarget(t, 12, 12, []format.Format{format.R32F}, format.Invalid)
		s := additive(12, 12)
		s.PointSize = c.size
		draw(t, tg, &s, verts([]float32{c.x/6 - 1, c.y/6 - 1, 0, 1}), DrawParams{Topology: Points, Count: 1})
		checkOnce(t, tg, func(x, y int) bool { return x >= c.want[0] && x < c.want[2] && y >= c.want[1] && y < c.want[3] })
	}
	// gl_PointCoord spans (0,1) across the point, origin upper left.
	var pc [][2]float32
	tg := newTarget(t, 12, 12, []format.Format{format.R32F}, format.Invalid)
	s := DefaultState(12, 12)
	s.PointSize = 4
	s.Vertex = passVS(0)
	s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			for l := range 4 {
				if qs[i].Helper&(1<<l) == 0 && qs[i].X+int32(l&1) == 4 && qs[i].Y+int32(l>>1) == 4 {
					pc = append(pc, qs[i].PointCoord[l])
				}
			}
		}
		return nil
	})
	draw(t, tg, &s, verts([]float32{6.0/6 - 1, 6.0/6 - 1, 0, 1}), DrawParams{Topology: Points, Count: 1})
	if len(pc) != 1 || pc[0] != [2]float32{0.125, 0.875} {
		t.Fatalf("point coord at the lower-left pixel %v, want (0.125, 0.875)", pc)
	}
}

func TestLines(t *testing.T) {
	const w, h = 16, 16
	ndc := func(p float32) float32 { return p/8 - 1 }
	cases := []struct {
		name string
		top  Topology
		pts  [][2]float32
		want int // fragments
	}{
		{"horizontal", Lines, [][2]float32{{2, 4.5}, {10, 4.5}}, 8},
		{"vertical", Lines, [][2]float32{{3.5, 1}, {3.5, 11}}, 10},
		{"diagonal", Lines, [][2]float32{{1, 1}, {9, 9}}, 8},
		{"strip joints once", LineStrip, [][2]float32{{1, 2.5}, {6, 2.5}, {12, 2.5}}, 11},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rows [][]float32
			for _, p := range c.pts {
				rows = append(rows, []float32{ndc(p[0]), ndc(p[1]), 0, 1})
			}
			tg := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
			s := additive(w, h)
			draw(t, tg, &s, verts(rows...), DrawParams{Topology: c.top, Count: len(rows)})
			n := 0
			for y := range h {
				for x := range w {
					v := tg.Color[0].Float(x, y)[0]
					if v > 1 {
						t.Fatalf("pixel (%d,%d) covered %v times", x, y, v)
					}
					if v == 1 {
						n++
					}
				}
			}
			if n != c.want {
				t.Fatalf("%d fragments, want %d", n, c.want)
			}
		})
	}
	// A line loop is its strip plus the closing segment: it matches the same
	// segments drawn as a line list (additively).
	pts := [][]float32{{ndc(2), ndc(2.5), 0, 1}, {ndc(12), ndc(3.5), 0, 1}, {ndc(9), ndc(13.5), 0, 1}, {ndc(3), ndc(9), 0, 1}}
	loop := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
	list := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
	s := additive(w, h)
	draw(t, loop, &s, verts(pts...), DrawParams{Topology: LineLoop, Count: 4})
	draw(t, list, &s, verts(pts[0], pts[1], pts[1], pts[2], pts[2], pts[3], pts[3], pts[0]), DrawParams{Topology: Lines, Count: 8})
	if !bytes.Equal(loop.Color[0].Data, list.Color[0].Data) {
		t.Fatal("line loop differs from its segments drawn as a list")
	}
}

// Near-plane clipping keeps attributes exact: on the clipped part of a
// triangle (all w > 0, crossing z = -w) the smooth varying is the
// perspective-correct and the noperspective varying the window-linear
// interpolation over the original, unclipped triangle, and a flat integer
// word (a NaN bit pattern) arrives bit-exactly.
func TestClippedAttributes(t *testing.T) {
	const w, h = 40, 40
	const flatBits = 0x7FC0_1234
	rows := [][]float32{
		{-1, -1, -3, 1, 0, 0, math.Float32frombits(flatBits)},
		{2, -2, 1.5, 2, 1, 1, 0},
		{-1.2, 3, 2, 3, 0.25, 0.5, 0},
	}
	type sample struct {
		x, y        int
		smooth, nop float32
		flat        uint32
	}
	var got []sample
	fs := FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			q := &qs[i]
			for l := range 4 {
				if q.Helper&(1<<l) == 0 {
					got = append(got, sample{int(q.X) + l&1, int(q.Y) + l>>1, q.Varying(l, 3, 0), q.Varying(l, 3, 1), q.Varyings[l*3+2]})
				}
			}
		}
		return nil
	})
	tg := newTarget(t, w, h, []format.Format{format.RGBA8}, format.Invalid)
	s := DefaultState(w, h)
	s.Vertex, s.Fragment = passVS(3), fs
	s.Interp = []Interp{Smooth, NoPerspective, Flat}
	s.Provoking = ProvokingFirst
	draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: 3})
	var wx, wy, iw [3]float64
	for i, r := range rows {
		wx[i] = (float64(r[0])/float64(r[3]) + 1) * w / 2
		wy[i] = (float64(r[1])/float64(r[3]) + 1) * h / 2
		iw[i] = 1 / float64(r[3])
	}
	area := (wx[1]-wx[0])*(wy[2]-wy[0]) - (wx[2]-wx[0])*(wy[1]-wy[0])
	clippedAway := 0
	for _, g := range got {
		px, py := float64(g.x)+0.5, float64(g.y)+0.5
		b := [3]float64{
			((wx[1]-px)*(wy[2]-py) - (wx[2]-px)*(wy[1]-py)) / area,
			((wx[2]-px)*(wy[0]-py) - (wx[0]-px)*(wy[2]-py)) / area,
			((wx[0]-px)*(wy[1]-py) - (wx[1]-px)*(wy[0]-py)) / area,
		}
		var num, den, lin float64
		for i := range 3 {
			num += b[i] * float64(rows[i][4]) * iw[i]
			den += b[i] * iw[i]
			lin += b[i] * float64(rows[i][5])
		}
		if math.Abs(float64(g.smooth)-num/den) > 2e-4 || math.Abs(float64(g.nop)-lin) > 2e-4 || g.flat != flatBits {
			t.Fatalf("pixel (%d,%d): smooth %v nop %v flat %#x, want %v %v %#x", g.x, g.y, g.smooth, g.nop, g.flat, num/den, lin, uint32(flatBits))
		}
	}
	// The triangle's unclipped screen area is larger than what was drawn.
	full := 0
	for y := range h {
		for x := range w {
			px, py := float64(x)+0.5, float64(y)+0.5
			e0 := (wx[1]-px)*(wy[2]-py) - (wx[2]-px)*(wy[1]-py)
			e1 := (wx[2]-px)*(wy[0]-py) - (wx[0]-px)*(wy[2]-py)
			e2 := (wx[0]-px)*(wy[1]-py) - (wx[1]-px)*(wy[0]-py)
			if (e0 > 0) == (area > 0) && (e1 > 0) == (area > 0) && (e2 > 0) == (area > 0) {
				full++
			}
		}
	}
	clippedAway = full - len(got)
	if len(got) == 0 || clippedAway <= 0 {
		t.Fatalf("drawn %d of %d pixels: the near plane must clip part of the triangle", len(got), full)
	}
}

// Vertices at the eye (w = 0 with x = y = 0) survive the view-volume planes
// under depth clamp; their primitives are dropped rather than divided by 0.
func TestEyeVertexDropped(t *testing.T) {
	tg := newTarget(t, 8, 8, []format.Format{format.R32F}, format.Invalid)
	s := additive(8, 8)
	s.Depth.Clamp = true
	draw(t, tg, &s, verts([]float32{0, 0, 0, 0}, []float32{1, -1, 0, 1}, []float32{1, 1, 0, 1}, []float32{0, 0, 0, 0}, []float32{0, 0, 5, 0}), DrawParams{Topology: Triangles, Count: 3})
	draw(t, tg, &s, verts([]float32{0, 0, 0, 0}, []float32{1, 1, 0, 1}), DrawParams{Topology: Lines, Count: 2})
	draw(t, tg, &s, verts([]float32{0, 0, 0, 0}), DrawParams{Topology: Points, Count: 1})
	checkOnce(t, tg, func(x, y int) bool { return false })
}

// A mesh whose vertices straddle the near and far planes is clipped into
// many polygons; no pixel may be covered twice.
func TestNoDoubleCoverageNearFar(t *testing.T) {
	const w, h, n = 64, 64, 12
	rng := rand.New(rand.NewPCG(9, 10))
	var rows [][]float32
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			wv := 0.5 + rng.Float32()*2
			x, y := (-1+2*float32(i)/n)*1.3, (-1+2*float32(j)/n)*1.3
			z := (rng.Float32()*2 - 1) * 2
			rows = append(rows, []float32{x * wv, y * wv, z * wv, wv})
		}
	}
	var idx []byte
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a, b, c, d := j*(n+1)+i, j*(n+1)+i+1, (j+1)*(n+1)+i+1, (j+1)*(n+1)+i
			idx = binary.LittleEndian.AppendUint16(idx, uint16(a))
			idx = binary.LittleEndian.AppendUint16(idx, uint16(b))
			idx = binary.LittleEndian.AppendUint16(idx, uint16(c))
			idx = binary.LittleEndian.AppendUint16(idx, uint16(a))
			idx = binary.LittleEndian.AppendUint16(idx, uint16(c))
			idx = binary.LittleEndian.AppendUint16(idx, uint16(d))
		}
	}
	for _, zero := range []bool{false, true} {
		tg := newTarget(t, w, h, []format.Format{format.R32F}, format.Invalid)
		s := additive(w, h)
		s.ClipZeroToOne = zero
		draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: len(idx) / 2, IndexType: Index16, Indices: idx})
		covered := 0
		for y := range h {
			for x := range w {
				switch v := tg.Color[0].Float(x, y)[0]; v {
				case 0:
				case 1:
					covered++
				default:
					t.Fatalf("zero-to-one %v: pixel (%d,%d) covered %v times", zero, x, y, v)
				}
			}
		}
		if covered == 0 || covered == w*h {
			t.Fatalf("zero-to-one %v: %d pixels covered; the mesh must be partly clipped", zero, covered)
		}
	}
}
