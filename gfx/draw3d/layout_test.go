package draw3d

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/om"
	"vortexgfx/device/raster"
	"vortexgfx/gfx/frontend"
)

// TestSmallDrawLayout pins the buffers of one known triangle at 16×16: clip
// (−1,−1), (1,−1), (−1,1), w = 1, so screen (0,0), (16,0), (0,16) in the y-down
// default viewport. Edge k is the HDC cross product of the other two vertices,
// offset by half a pixel and normalised by
// max|A|,|B| = 256 (det > 0: front-facing, no flip); the depth plane is the
// constant z; colours are deltas.
// spec: rasterizer §2.2, §2.3; vortex-hardware-facts §3.2
func TestSmallDrawLayout(t *testing.T) {
	verts := []frontend.Vertex{
		{Pos: [4]float32{-1, -1, 0.5, 1}, Color: [4]float32{1, 0, 0, 1}},
		{Pos: [4]float32{1, -1, 0.5, 1}, Color: [4]float32{0, 1, 0, 1}},
		{Pos: [4]float32{-1, 1, 0.5, 1}, Color: [4]float32{0, 0, 1, 1}, TexCoord: [2]float32{0.25, 0.75}},
	}
	b, err := frontend.Binning(verts, [][3]uint32{{0, 1, 2}}, 16, 16, 0, 1, 4, frontend.PlanesGrx)
	if err != nil {
		t.Fatal(err)
	}
	// One 16-pixel bin at (0,0) with pid 0.
	wantTile := []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}
	if string(b.TileBuf) != string(wantTile) || b.TileCount != 1 {
		t.Errorf("tile buffer % x (count %d), want % x", b.TileBuf, b.TileCount, wantTile)
	}
	if len(b.PrimBuf) != abi.PrimBytes {
		t.Fatalf("prim buffer %d bytes", len(b.PrimBuf))
	}
	w := func(i int) int32 { return int32(binary.LittleEndian.Uint32(b.PrimBuf[4*i:])) }
	const one16, one24 = 1 << 16, 1 << 24
	// Edges in pixels: E0 = 16 − x − y, E1 = x, E2 = y; then +½A+½B.
	wantEdges := [9]int32{
		-one16, -one16, int32(15 * one16),
		one16, 0, one16 / 2,
		0, one16, one16 / 2,
	}
	for i, v := range wantEdges {
		if w(i) != v {
			t.Errorf("edge word %d = %d, want %d", i, w(i), v)
		}
	}
	// z plane {0, 0, 0.5}: screen z = 0.5·(far−near)/2·… = 0.75 with near 0 far 1.
	if w(abi.PrimZWord) != 0 || w(abi.PrimZWord+1) != 0 || w(abi.PrimZWord+2) != 3*one24/4 {
		t.Errorf("z plane %d %d %d", w(9), w(10), w(11))
	}
	// r plane: deltas {1−0, 0−0, 0}; b plane {0−1, 0−1, 1}; v plane {0−.75, 0−.75, .75}; rhw {0, 0, 1}.
	check := func(pl abi.PrimPlane, x, y, z int32) {
		o := pl.Word()
		if w(o) != x || w(o+1) != y || w(o+2) != z {
			t.Errorf("plane %v = {%d %d %d}, want {%d %d %d}", pl, w(o), w(o+1), w(o+2), x, y, z)
		}
	}
	check(abi.PlaneR, one24, 0, 0)
	check(abi.PlaneB, -one24, -one24, one24)
	check(abi.PlaneV, -3*one24/4, -3*one24/4, 3*one24/4)
	check(abi.PlaneRHW, 0, 0, one24)
	if f := w(abi.PrimFacingWord); f != 0 {
		t.Errorf("facing %d, want 0 (front-facing)", f)
	}
	if s := math.Float32frombits(uint32(w(abi.PrimRHWScaleW))); s != 1 {
		t.Errorf("rhw_scale %v", s)
	}
}

// TestWatertight draws a jittered mesh of many triangles sharing edges over the
// whole target with additive blending (ONE, ONE) of 0x01010101: every pixel must
// be covered exactly once — no cracks, no double cover. spec: rasterizer §7.4
func TestWatertight(t *testing.T) {
	const W, H, N = 96, 80, 12
	verts, tris := jitterMesh(N, 7)
	for _, engines := range []int{1, 4} {
		b, err := frontend.Binning(verts, tris, W, H, 0, 1, 5, frontend.PlanesGrx)
		if err != nil {
			t.Fatal(err)
		}
		mem := NewArena(0x4000, 1<<20)
		cb, _ := mem.Alloc(W * H * 4)
		tb, _ := upload(mem, b.TileBuf)
		pb, _ := upload(mem, b.PrimBuf)
		var rs raster.State
		var os om.State
		for _, wr := range []struct {
			a abi.DCR
			v uint32
		}{
			{abi.DCRRasterTBufAddr, uint32(tb >> 6)}, {abi.DCRRasterTileCount, uint32(b.TileCount)},
			{abi.DCRRasterPBufAddr, uint32(pb >> 6)}, {abi.DCRRasterPBufStride, abi.PrimBytes},
			{abi.DCRRasterScissorX, W << 16}, {abi.DCRRasterScissorY, H << 16}, {abi.DCRRasterFragEntryLo, 1},
			{abi.DCROMCBufAddr, uint32(cb >> 6)}, {abi.DCROMCBufPitch, W * 4}, {abi.DCROMCBufWriteMask, 0xF},
			{abi.DCROMBlendFunc, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendOne, abi.BlendOne)},
		} {
			rs.Write(wr.a, wr.v)
			os.Write(wr.a, wr.v)
		}
		unit, err := om.Bind(mem, &os, 0, W, H)
		if err != nil {
			t.Fatal(err)
		}
		launch := func(core int, wv *raster.Wave) error {
			for l := 0; l < 4*wv.Quads; l++ {
				x, y, covered := abi.UnpackFragPos(wv.Pos[l])
				if covered {
					unit.Export(x, y, 0, 0x01010101, 0)
				}
			}
			return nil
		}
		if _, err := raster.Run(mem, &rs, raster.Config{BinLog: 5, Engines: engines, Workers: 3}, launch); err != nil {
			t.Fatal(err)
		}
		px, _ := mem.View(cb, W*H*4)
		bad := 0
		for i := 0; i < W*H; i++ {
			if v := binary.LittleEndian.Uint32(px[4*i:]); v != 0x01010101 {
				if bad < 5 {
					t.Errorf("engines %d: pixel (%d,%d) = %08x, want exactly one cover", engines, i%W, i/W, v)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("engines %d: %d pixels not covered exactly once", engines, bad)
		}
	}
}

// jitterMesh is an n×n grid of quads over clip space [−1, 1]², interior vertices
// jittered, each quad split along an alternating diagonal.
func jitterMesh(n int, seed uint32) ([]frontend.Vertex, [][3]uint32) {
	var verts []frontend.Vertex
	s := seed
	rnd := func() float32 { s = s*1664525 + 1013904223; return float32(s>>8)/float32(1<<24) - 0.5 }
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			fn := float32(n)
			x, y := -1+2*float32(i)/fn, -1+2*float32(j)/fn
			if i > 0 && i < n && j > 0 && j < n {
				x += rnd() * 1.2 / fn
				y += rnd() * 1.2 / fn
			}
			verts = append(verts, frontend.Vertex{Pos: [4]float32{x, y, 0.5, 1}, Color: [4]float32{1, 1, 1, 1}})
		}
	}
	var tris [][3]uint32
	idx := func(i, j int) uint32 { return uint32(j*(n+1) + i) }
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a, b, c, d := idx(i, j), idx(i+1, j), idx(i, j+1), idx(i+1, j+1)
			if (i+j)%2 == 0 {
				tris = append(tris, [3]uint32{a, b, d}, [3]uint32{a, d, c})
			} else {
				tris = append(tris, [3]uint32{a, b, c}, [3]uint32{b, d, c})
			}
		}
	}
	return verts, tris
}
