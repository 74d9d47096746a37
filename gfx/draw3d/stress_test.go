package draw3d

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/raster"
	"vortexgfx/gfx/frontend"
	"vortexgfx/trace"
)

// The stress scenes are generated CGLTraces aimed at the fidelity corners the
// shared goldens barely touch: long shared edges (a fan whose spokes run far
// past the target, some lying exactly on pixel centres, and a grid whose edges
// are rows and columns of pixel centres), steep silhouettes (slivers down to
// 0.002 px wide whose depth planes overflow Q7.24) and surfaces that meet at
// nearly equal depth (LEQUAL and LESS) and a floor reaching up to 24 320 pixels
// past the target (beyond the guard band, but exactly representable). Every
// scene stays inside the near plane, where the device front end must set up
// exactly what host Binning does. spec: vortex-hardware-facts §3.2, §3.3, §5

// lcg is the scenes' deterministic random source.
type lcg uint32

func (s *lcg) next() float32 {
	*s = *s*1664525 + 1013904223
	return float32(uint32(*s)>>8) / (1 << 24)
}

// sceneBuilder accumulates one draw's vertices and triangles.
type sceneBuilder struct {
	dc trace.DrawCall
}

func newDraw(st trace.States) *sceneBuilder {
	st.ColorEnabled, st.ColorWriteMask = true, 0xFFFFFFFF
	return &sceneBuilder{dc: trace.DrawCall{States: st, Vertices: map[uint32]trace.Vertex{},
		Viewport: trace.Viewport{Right: 800, Bottom: 600, Far: 1}}}
}

// vertex adds a vertex at NDC (x, y, z) with clip w (clip = ndc·w).
func (b *sceneBuilder) vertex(x, y, z, w float32, c trace.Color, u, v float32) uint32 {
	id := uint32(len(b.dc.Vertices))
	b.dc.Vertices[id] = trace.Vertex{Pos: trace.Pos{X: x * w, Y: y * w, Z: z * w, W: w}, Color: c, TexCoord: trace.TexCoord{U: u, V: v}}
	return id
}

func (b *sceneBuilder) tri(i, j, k uint32) {
	b.dc.Primitives = append(b.dc.Primitives, trace.Primitive{I0: i, I1: j, I2: k})
}

// pixNDC is the NDC coordinate of pixel-centre coordinate p on a 128-pixel axis
// (the default viewport maps NDC [−1, 1] onto [0, 128]).
func pixNDC(p float32) float32 { return p/64 - 1 }

// fanDraw is a fan of n triangles around a pixel-centre-exact centre, spokes of
// radius r NDC (far past the target); spokes 0, n/4, n/2, 3n/4 are exactly
// horizontal or vertical (pixel centres lie on them at 128²) and spokes n/8 + k·n/4
// exact diagonals. persp varies w and z per spoke; flat gives every triangle one
// colour, else the colour varies per vertex.
func fanDraw(st trace.States, n int, r float32, persp, flat bool, uvScale float32) *sceneBuilder {
	b := newDraw(st)
	cx, cy := pixNDC(64.5), pixNDC(40.5)
	type rimPt struct {
		x, y, z, w, u, v float32
		c                trace.Color
	}
	rim := make([]rimPt, n+1)
	for i := 0; i <= n; i++ {
		k := i % n
		var dx, dy float32
		switch {
		case k%(n/4) == 0:
			dx, dy = [4]float32{1, 0, -1, 0}[k/(n/4)], [4]float32{0, 1, 0, -1}[k/(n/4)]
		case k%(n/8) == 0:
			q := k / (n / 8) // 1, 3, 5, 7
			dx, dy = [8]float32{0, 1, 0, -1, 0, -1, 0, 1}[q], [8]float32{0, 1, 0, 1, 0, -1, 0, -1}[q]
		default:
			a := 2 * math.Pi * float64(k) / float64(n)
			dx, dy = float32(math.Cos(a)), float32(math.Sin(a))
		}
		w, z := float32(1), float32(0.5)
		if persp {
			w, z = 1+float32(k%5)*0.7, 0.2+float32(k%7)*0.1
		}
		c := trace.Color{R: float32(k%3) * 0.5, G: float32(k%4) / 3, B: float32(k%5) / 4, A: 1}
		rim[i] = rimPt{cx + r*dx, cy + r*dy, z, w, uvScale * dx, uvScale * dy, c}
	}
	add := func(p rimPt, c trace.Color) uint32 { return b.vertex(p.x, p.y, p.z, p.w, c, p.u, p.v) }
	centre := rimPt{x: cx, y: cy, z: 0.5, w: 1, c: trace.Color{R: 1, G: 1, B: 1, A: 1}}
	if persp {
		centre.w = 1.3
	}
	if flat {
		// Each triangle its own three vertices in its first rim vertex's
		// colour: one flat colour per triangle.
		for i := 0; i < n; i++ {
			c := rim[i].c
			b.tri(add(centre, c), add(rim[i], c), add(rim[i+1], c))
		}
		return b
	}
	ci := add(centre, centre.c)
	ids := make([]uint32, n+1)
	for i := range rim {
		ids[i] = add(rim[i], rim[i].c)
	}
	for i := 0; i < n; i++ {
		b.tri(ci, ids[i], ids[i+1])
	}
	return b
}

// gridDraw is a 4×4 grid of quads whose edges are rows and columns of pixel
// centres at 128² (x, y ∈ {8.5, 40.5, 72.5, 104.5, 120.5}), each quad split on an
// alternating diagonal, colour per triangle.
func gridDraw(st trace.States) *sceneBuilder {
	b := newDraw(st)
	lines := []float32{8.5, 40.5, 72.5, 104.5, 120.5}
	for j := 0; j+1 < len(lines); j++ {
		for i := 0; i+1 < len(lines); i++ {
			col := func(t int) trace.Color {
				return trace.Color{R: float32((i+t)%2) * 0.8, G: float32(j%2) * 0.6, B: float32(t) * 0.9, A: 1}
			}
			x0, x1, y0, y1 := pixNDC(lines[i]), pixNDC(lines[i+1]), pixNDC(lines[j]), pixNDC(lines[j+1])
			for t := 0; t < 2; t++ {
				c := col(t)
				a, bb, cc, d := b.vertex(x0, y0, 0.5, 1, c, 0, 0), b.vertex(x1, y0, 0.5, 1, c, 0, 0),
					b.vertex(x0, y1, 0.5, 1, c, 0, 0), b.vertex(x1, y1, 0.5, 1, c, 0, 0)
				switch {
				case (i+j)%2 == 0 && t == 0:
					b.tri(a, bb, d)
				case (i+j)%2 == 0:
					b.tri(a, d, cc)
				case t == 0:
					b.tri(a, bb, cc)
				default:
					b.tri(bb, d, cc)
				}
			}
		}
	}
	return b
}

// sliverDraws is a background quad and then n long thin triangles across it,
// depth LESS: widths cycle through 0.6, 0.05 and 0.002 px, the far vertex is much
// deeper than the long edge (the thinnest give |dz/dx| beyond Q7.24's ±128), and
// w varies.
func sliverDraws(n int, seed lcg) []trace.DrawCall {
	st := trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: trace.CompareLess}
	bg := newDraw(st)
	grey := trace.Color{R: 0.5, G: 0.5, B: 0.5, A: 1}
	a, b, c, d := bg.vertex(-1, -1, 0.6, 1, grey, 0, 0), bg.vertex(1, -1, 0.6, 1, grey, 0, 0),
		bg.vertex(-1, 1, 0.6, 1, grey, 0, 0), bg.vertex(1, 1, 0.6, 1, grey, 0, 0)
	bg.tri(a, b, c)
	bg.tri(c, b, d)
	fg := newDraw(st)
	widths := []float32{0.6, 0.05, 0.002}
	for i := 0; i < n; i++ {
		x0, y0 := seed.next()*1.6-0.8, seed.next()*1.6-0.8
		ang := float64(seed.next()) * 2 * math.Pi
		l := 0.5 + seed.next()
		dx, dy := float32(math.Cos(ang)), float32(math.Sin(ang))
		x1, y1 := x0+l*dx, y0+l*dy
		wpx := widths[i%len(widths)] / 64 // pixels → NDC at 128²
		mx, my := (x0+x1)/2-dy*wpx, (y0+y1)/2+dx*wpx
		col := trace.Color{R: seed.next(), G: seed.next(), B: 1, A: 1}
		w0, w1 := 1+seed.next()*2, 1+seed.next()*2
		fg.tri(fg.vertex(x0, y0, 0.1, w0, col, 0, 0), fg.vertex(x1, y1, 0.15, w1, col, 0, 0), fg.vertex(mx, my, 0.9, 1.5, col, 0, 0))
	}
	return []trace.DrawCall{bg.dc, fg.dc}
}

// coplanarDraws is two perspective quads over the whole target whose depths
// differ by at most about 2⁻²⁰ (they cross along x = 0.1), triangulated on
// opposite diagonals, the second drawn with fn.
func coplanarDraws(fn trace.Compare) []trace.DrawCall {
	quad := func(st trace.States, eps float32, flip bool, c trace.Color) trace.DrawCall {
		b := newDraw(st)
		v := func(x, y float32) uint32 {
			z := 0.2 + 0.3*x + 0.1*y + eps*(x-0.1)
			return b.vertex(x, y, z, 1.5+0.5*y, c, 0, 0)
		}
		p00, p10, p01, p11 := v(-1, -1), v(1, -1), v(-1, 1), v(1, 1)
		if flip {
			b.tri(p00, p10, p11)
			b.tri(p00, p11, p01)
		} else {
			b.tri(p00, p10, p01)
			b.tri(p01, p10, p11)
		}
		return b.dc
	}
	first := trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: trace.CompareLess}
	second := trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: fn}
	return []trace.DrawCall{
		quad(first, 0, false, trace.Color{R: 1, G: 0.2, B: 0.1, A: 1}),
		quad(second, 1.0/(1<<20), true, trace.Color{R: 0.1, G: 0.3, B: 1, A: 1}),
	}
}

// farFloorDraw is a depth-tested quad whose near corners reach reach NDC (64
// pixels per NDC unit at 128²) past the target, beyond the 8192-pixel guard
// band, with a long diagonal shared by its two triangles.
func farFloorDraw(reach float32) trace.DrawCall {
	b := newDraw(trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: trace.CompareLess})
	c1 := trace.Color{R: 1, G: 0.5, B: 0.2, A: 1}
	p0 := b.vertex(-reach, -reach*0.3, 0.1, 1, c1, 0, 0)
	p1 := b.vertex(reach*0.9, -reach*0.31, 0.15, 1, c1, 1, 0)
	p2 := b.vertex(-0.6, 0.5, 0.8, 1, trace.Color{R: 0.1, G: 0.9, B: 0.3, A: 1}, 0, 1)
	p3 := b.vertex(0.7, 0.45, 0.85, 1, trace.Color{R: 0.2, G: 0.2, B: 0.9, A: 1}, 1, 1)
	b.tri(p0, p1, p2)
	b.tri(p2, p1, p3)
	return b.dc
}

// stressTexture is a 16×16 A8R8G8B8 pattern (gradients and a checker).
func stressTexture() trace.Texture {
	const n = 16
	px := make([]byte, 4*n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := uint32(0xFF000000) | uint32(x*16)<<16 | uint32(y*16)<<8 | uint32((x^y)&1)*0xFF
			binary.LittleEndian.PutUint32(px[4*(y*n+x):], c)
		}
	}
	return trace.Texture{Format: trace.FormatA8R8G8B8, Width: n, Height: n, Pixels: px}
}

// stressScenes are the generated traces by name.
func stressScenes() map[string]*trace.Trace {
	plain := trace.States{}
	add := trace.States{BlendEnabled: true, BlendSrc: trace.BlendOne, BlendDst: trace.BlendOne}
	less := trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: trace.CompareLess}
	tex := trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: trace.CompareLEqual, TextureEnabled: true,
		TextureEnvMode: trace.EnvModulate, TextureMagFilter: trace.FilterLinear, TextureMinFilter: trace.FilterLinear,
		TextureAddressU: trace.AddressWrap, TextureAddressV: trace.AddressWrap}
	addConst := fanDraw(add, 48, 2.5, false, true, 0)
	for id, v := range addConst.dc.Vertices {
		v.Color = trace.Color{R: 0.01, G: 0.01, B: 0.01, A: 0.01}
		addConst.dc.Vertices[id] = v
	}
	return map[string]*trace.Trace{
		"fan":           {DrawCalls: []trace.DrawCall{fanDraw(plain, 48, 2.5, false, true, 0).dc, gridDraw(plain).dc}},
		"fan_add":       {DrawCalls: []trace.DrawCall{addConst.dc}},
		"fan_persp":     {DrawCalls: []trace.DrawCall{fanDraw(less, 64, 1.8, true, false, 0).dc}},
		"slivers":       {DrawCalls: sliverDraws(90, 7)},
		"coplanar":      {DrawCalls: coplanarDraws(trace.CompareLEqual)},
		"coplanar_less": {DrawCalls: coplanarDraws(trace.CompareLess)},
		"far_floor":     {DrawCalls: []trace.DrawCall{farFloorDraw(130), farFloorDraw(200), farFloorDraw(380)}},
		"textured": {DrawCalls: []trace.DrawCall{fanDraw(tex, 32, 1.6, true, false, 40).dc},
			Textures: map[uint32]trace.Texture{0: stressTexture()}},
	}
}

// formulaWalk is the coverage formula as an oracle for the RASTER walk: for
// each bin header in order and each of its pids in order, every pixel of the
// bin inside the exclusive scissor whose three int32 edge values
// E = A·x + B·y + C pass the top-left rule (E ≥ 0 on an edge with A > 0, or
// A = 0 and B > 0; E > 0 otherwise) is launched alone, pixel by pixel, row
// by row. It shares nothing with the tile engine (no extents, no descent, no
// packer, no early-Z), so an image it makes differs from raster.Run's only
// where the walk loses, adds or reorders a pixel. spec: vortex-hardware-facts
// §3.3; rasterizer §7.4
func formulaWalk(mem raster.Memory, st *raster.State, cfg raster.Config, launch raster.Launch) (raster.Stats, error) {
	var stats raster.Stats
	if st.FragEntry() == 0 {
		return stats, nil
	}
	binLog := uint(cfg.BinLog)
	n := int(st.TileCount)
	tb := abi.ByteAddr(st.TBufAddr)
	hdr, err := mem.View(tb, n*abi.BinHeaderBytes)
	if err != nil {
		return stats, err
	}
	pidsBase := tb + uint64(n*abi.BinHeaderBytes)
	stride := uint64(st.PBufStride)
	if stride == 0 {
		stride = abi.PrimBytes
	}
	xmin, xmax := int32(st.ScissorX&0xFFFF), int32(st.ScissorX>>16)
	ymin, ymax := int32(st.ScissorY&0xFFFF), int32(st.ScissorY>>16)
	wave := raster.Wave{Quads: 1, Pos: make([]uint32, 4), PID: make([]uint32, 4), Entry: st.FragEntry(), Param: st.FragParam()}
	for i := 0; i < n; i++ {
		h := hdr[i*abi.BinHeaderBytes:]
		bx, by := int32(binary.LittleEndian.Uint16(h)), int32(binary.LittleEndian.Uint16(h[2:]))
		off, cnt := binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:])
		if cnt == 0 {
			continue
		}
		pl, err := mem.View(pidsBase+4*uint64(off), 4*int(cnt))
		if err != nil {
			return stats, err
		}
		for j := 0; j < int(cnt); j++ {
			pid := binary.LittleEndian.Uint32(pl[4*j:]) & (abi.MaxPrimsPerPass - 1)
			rec, err := mem.View(abi.ByteAddr(st.PBufAddr)+uint64(pid)*stride, 36)
			if err != nil {
				return stats, err
			}
			var a, b, c [3]int32
			for k := 0; k < 3; k++ {
				a[k] = int32(binary.LittleEndian.Uint32(rec[12*k:]))
				b[k] = int32(binary.LittleEndian.Uint32(rec[12*k+4:]))
				c[k] = int32(binary.LittleEndian.Uint32(rec[12*k+8:]))
			}
			for y := by << binLog; y < (by+1)<<binLog; y++ {
				for x := bx << binLog; x < (bx+1)<<binLog; x++ {
					if x < xmin || x >= xmax || y < ymin || y >= ymax || !formulaCovers(a, b, c, x, y) {
						continue
					}
					wave.Pos[0] = uint32(x) | uint32(y)<<16 | 1<<31
					wave.PID[0] = pid
					stats.Fragments++
					if err := launch(0, &wave); err != nil {
						return stats, err
					}
				}
			}
		}
	}
	return stats, nil
}

// formulaCovers is the per-pixel inside test of vortex-hardware-facts §3.3.
func formulaCovers(a, b, c [3]int32, x, y int32) bool {
	for k := 0; k < 3; k++ {
		e := a[k]*x + b[k]*y + c[k] // int32 wrap-around, as the adders
		tl := a[k] > 0 || (a[k] == 0 && b[k] > 0)
		if e < 0 || (e == 0 && !tl) {
			return false
		}
	}
	return true
}

func countDiff(a, b *Image) (n int, first string) {
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			if n == 0 {
				first = fmt.Sprintf("(%d,%d) %08x vs %08x", i%a.Width, i/a.Width, a.Pix[i], b.Pix[i])
			}
			n++
		}
	}
	return n, first
}

// TestStressFlowsAgree renders every stress scene at 128² and 64² with both
// plane conventions through four paths that must give the same bytes: the
// coverage formula launched pixel by pixel (formulaWalk), the host flow on the
// RASTER engine (Host), the device with draw3d's host binning, and the device
// front end (setup_k and binning_k on the cores). The scenes stay inside the
// near plane and reach past the guard band only where the unclipped setup is
// exact: the device front end clips only there (near plane, and triangles
// whose unclipped setup would overflow), where host Binning copies the flaw.
func TestStressFlowsAgree(t *testing.T) {
	scenes := stressScenes()
	names := []string{"fan", "fan_add", "fan_persp", "slivers", "coplanar", "coplanar_less", "far_floor", "textured"}
	if len(names) != len(scenes) {
		t.Fatalf("%d scene names for %d scenes", len(names), len(scenes))
	}
	for _, name := range names {
		tr := scenes[name]
		for _, size := range []int{128, 64} {
			for _, pl := range []frontend.Planes{frontend.PlanesGrx, frontend.PlanesV1} {
				t.Run(fmt.Sprintf("%s_%d_%v", name, size, pl), func(t *testing.T) {
					oracle, _, err := Host{Width: size, Height: size, Planes: pl, walk: formulaWalk}.Replay(tr)
					if err != nil {
						t.Fatal(err)
					}
					host, _, err := Host{Width: size, Height: size, Planes: pl, Raster: raster.Config{Workers: 3, Engines: 2}}.Replay(tr)
					if err != nil {
						t.Fatal(err)
					}
					if n, first := countDiff(oracle, host); n != 0 {
						t.Errorf("host flow vs coverage formula: %d pixels differ, first %s", n, first)
					}
					for _, hb := range []bool{true, false} {
						dev, _, err := Device{Width: size, Height: size, Planes: pl, Config: config.Default(), HostBinning: hb}.Replay(tr)
						if err != nil {
							t.Fatal(err)
						}
						if n, first := countDiff(host, dev); n != 0 {
							t.Errorf("device (host binning %v) vs host flow: %d pixels differ, first %s", hb, n, first)
						}
					}
				})
			}
		}
	}
}

// TestStressFanCover counts, with additive blending, how many of the 48 fan
// triangles cover each pixel at 128² (each adds 2 to every channel): the long
// spokes, four of which lie exactly on rows and columns of pixel centres and
// four on exact diagonals, must each pixel be covered exactly once — Vortex's
// per-triangle normalisation and truncation to Q15.16 break the exact negation
// of a shared edge's two copies only within about (|x| + |y| + 1) LSB
// (device/raster package doc), which these spokes stay clear of. The one
// exception is the fan's centre, a vertex 48 triangles share placed exactly on
// the centre of pixel (64, 40): there every edge through it evaluates to about
// zero, and the coverage formula lets several triangles take the pixel (GL's
// rule would give exactly one). spec: vortex-hardware-facts §3.2, §3.3
func TestStressFanCover(t *testing.T) {
	tr := stressScenes()["fan_add"]
	img, _, err := Host{Width: 128, Height: 128, Planes: frontend.PlanesGrx}.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	hist := map[uint32]int{}
	for i, p := range img.Pix {
		n := (p & 0xFF) / 2
		hist[n]++
		x, y := i%128, 127-i/128 // the image is flipped: row 0 is colour-buffer row 127
		if n != 1 && (x != 64 || y != 40) {
			t.Errorf("pixel (%d, %d) covered %d times", x, y, n)
		}
	}
	t.Logf("cover counts: %v (the extra ones are all at the fan centre)", hist)
	if c := (img.Pix[(127-40)*128+64] & 0xFF) / 2; c < 1 {
		t.Errorf("fan centre (64, 40) uncovered")
	}
}

// TestStressScenesExercise checks that the stress scenes reach the corners
// they are for, so that TestStressFlowsAgree keeps testing them: exact ties
// (pixels where a covering primitive's edge value is exactly 0) in the fan and
// the grid, depth planes overflowing Q7.24 among the slivers, and far-floor
// triangles past the guard band.
func TestStressScenesExercise(t *testing.T) {
	scenes := stressScenes()
	binned := func(name string, draw int) *frontend.Binned {
		dc := &scenes[name].DrawCalls[draw]
		verts, tris := flatten(dc)
		b, err := frontend.Binning(verts, tris, 128, 128, dc.Viewport.Near, dc.Viewport.Far, 7, frontend.PlanesGrx)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ties := 0
	for draw := range scenes["fan"].DrawCalls {
		b := binned("fan", draw)
		for i := range b.Prims {
			var a, bb, c [3]int32
			for k := 0; k < 3; k++ {
				a[k], bb[k], c[k] = b.Prims[i].Edge(k)
			}
			for y := int32(0); y < 128; y++ {
				for x := int32(0); x < 128; x++ {
					if !formulaCovers(a, bb, c, x, y) {
						continue
					}
					for k := 0; k < 3; k++ {
						if a[k]*x+bb[k]*y+c[k] == 0 {
							ties++
						}
					}
				}
			}
		}
	}
	if ties < 100 {
		t.Errorf("fan and grid: %d covered pixels on an edge value of exactly 0, want ≥ 100", ties)
	}
	over := 0
	for _, p := range binned("slivers", 1).Prims {
		if za, zb, _ := p.Plane(abi.PlaneZ); za == math.MinInt32 || zb == math.MinInt32 {
			over++
		}
	}
	if over == 0 {
		t.Error("slivers: no depth plane overflows Q7.24")
	}
	far := 0 // far-floor vertices more than GuardBandPx pixels outside the 128² target
	for _, dc := range scenes["far_floor"].DrawCalls {
		for _, v := range dc.Vertices {
			if px := float64(v.Pos.X/v.Pos.W+1) * 64; px < -frontend.GuardBandPx || px > 128+frontend.GuardBandPx {
				far++
			}
		}
	}
	if far == 0 {
		t.Error("far_floor: no vertex past the guard band")
	}
	t.Logf("%d exact ties, %d overflowing sliver depth planes, %d far-floor vertices past the guard band", ties, over, far)
}

// TestStressNearPlaneFlowsDiffer pins the one place where the two flows set up
// different primitives by design: geometry in front of the eye (w > 0) but
// nearer than the near plane (z < −w). Host Binning, draw3d's golden flow, has
// no near clip and draws it (its depth plane extrapolates below 0 and the
// kernel clamps the depth word to 0); the device front end clips it away as
// Vortex's setup_k does (gfx_frontend_k.h pipe_clip_and_setup), so replaying
// such a trace against a golden needs --host-binning. Every pixel the device
// draws, the host draws too. spec: vortex-hardware-facts §3.2 (near clip, host
// Binning)
func TestStressNearPlaneFlowsDiffer(t *testing.T) {
	b := newDraw(trace.States{DepthTest: true, DepthWriteMask: true, DepthFunc: trace.CompareLess})
	c := trace.Color{R: 0.9, G: 0.4, B: 0.1, A: 1}
	b.tri(b.vertex(-0.8, -0.8, 0.5, 1, c, 0, 0), b.vertex(0.8, -0.8, 0.5, 1, c, 0, 0), b.vertex(0, 0.8, -3, 2, c, 0, 0))
	tr := &trace.Trace{DrawCalls: []trace.DrawCall{b.dc}}
	host, _, err := Host{Width: 64, Height: 64, Planes: frontend.PlanesGrx}.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	dev, stats, err := Device{Width: 64, Height: 64, Planes: frontend.PlanesGrx, Config: config.Default()}.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	if stats[0].FrontEnd.NearClipped != 1 {
		t.Errorf("near-clipped %d triangles, want 1", stats[0].FrontEnd.NearClipped)
	}
	nh, nd := 0, 0
	for i := range host.Pix {
		if host.Pix[i] != ClearColor {
			nh++
		}
		if dev.Pix[i] != ClearColor {
			nd++
			if host.Pix[i] == ClearColor {
				t.Errorf("pixel %d drawn by the device front end only", i)
			}
		}
	}
	if nd == 0 || nh <= nd {
		t.Errorf("host drew %d pixels, device %d: want the device's clipped triangle inside the host's", nh, nd)
	}
	t.Logf("host Binning drew %d pixels, the near-clipping device front end %d", nh, nd)
}
