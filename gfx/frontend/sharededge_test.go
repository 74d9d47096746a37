package frontend

import (
	"fmt"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/raster"
)

// flatMem is device memory at address 0 for raster.Run.
type flatMem []byte

func (m flatMem) View(addr uint64, n int) ([]byte, error) {
	if n < 0 || addr > uint64(len(m)) || uint64(n) > uint64(len(m))-addr {
		return nil, fmt.Errorf("view [0x%x, +%d) outside %d bytes", addr, n, len(m))
	}
	return m[addr : addr+uint64(n)], nil
}

// wQuad is piglit's draw rect -1 -1 2 2 through the vertex shader
// w = 1 + 0.5·x, gl_Position = (0.875·x·w, 0.875·y·w, 0, w), as a triangle
// strip (v0 v1 v2, v2 v1 v3): its screen square is [15.625, 234.375]² on a
// 250×250 target whatever w, but w differs by 3× across the shared diagonal.
func wQuad() ([]Vertex, [][3]uint32) {
	mk := func(x, y float32) Vertex {
		w := 1 + 0.5*x
		return Vertex{Pos: [4]float32{0.875 * x * w, 0.875 * y * w, 0, w}}
	}
	return []Vertex{mk(-1, -1), mk(1, -1), mk(-1, 1), mk(1, 1)}, [][3]uint32{{0, 1, 2}, {2, 1, 3}}
}

// rasterCoverage runs RASTER over the host binning of verts and returns how
// many primitives cover each pixel of the w×h target.
func rasterCoverage(t *testing.T, bn *Binned, w, h int, fill raster.FillRule) [][]int {
	t.Helper()
	const tbuf, pbuf = 0x1000, 0x10000
	m := make(flatMem, pbuf+len(bn.PrimBuf)+64)
	copy(m[tbuf:], bn.TileBuf)
	copy(m[pbuf:], bn.PrimBuf)
	st := &raster.State{}
	for _, wr := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRRasterTBufAddr, tbuf >> 6}, {abi.DCRRasterTileCount, uint32(bn.TileCount)},
		{abi.DCRRasterPBufAddr, pbuf >> 6}, {abi.DCRRasterPBufStride, abi.PrimBytes},
		{abi.DCRRasterScissorX, uint32(w) << 16}, {abi.DCRRasterScissorY, uint32(h) << 16},
		{abi.DCRRasterFragEntryLo, 0x80},
	} {
		st.Write(wr.a, wr.v)
	}
	n := make([][]int, h)
	for y := range n {
		n[y] = make([]int, w)
	}
	launch := func(core int, wv *raster.Wave) error {
		for l := 0; l < 4*wv.Quads; l++ {
			if x, y, cov := abi.UnpackFragPos(wv.Pos[l]); cov {
				n[y][x]++
			}
		}
		return nil
	}
	if _, err := raster.Run(m, st, raster.Config{Workers: 1, Fill: fill}, launch); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSharedEdgeNormalisation: the w-varying quad's two triangles share the
// diagonal v1–v2, and setup gives both the same HDC vertices (the edge's
// float coefficients are exact negatives), but it normalises each triangle's
// edges by its own max |A|, |B| before truncating to Q15.16 (gfx_setup.h
// EdgeToFixed): triangle 0's maxVal is the diagonal's own |A|, triangle 1's is
// three times it, so the copies become {−1, −1, 249} and a truncated −1/3 of
// it. Against the quad's exact coverage (every pixel centre inside
// [15.625, 234.375]² once): the inclusive rule (the RTL QE) matches it; the
// top-left rule (the documents' QE) misses the 218 pixels on x + y = 249,
// where triangle 0's edge is 0 but not top-left and triangle 1's is −83 —
// the crack --path device showed, which Vortex's own setup and C++ QE give
// too (raster.FillRule). spec: rasterizer §7.4; vortex-hardware-facts §3.2
func TestSharedEdgeNormalisation(t *testing.T) {
	verts, tris := wQuad()
	bn, err := Binning(verts, tris, 250, 250, 0, 1, abi.DefaultBinLogSize, PlanesCompiled)
	if err != nil || len(bn.Prims) != 2 {
		t.Fatalf("binning: %d prims, %v", len(bn.Prims), err)
	}
	a0, b0, c0 := bn.Prims[0].Edge(0)
	a1, b1, c1 := bn.Prims[1].Edge(2)
	if [3]int32{a0, b0, c0} != [3]int32{-65536, -65536, 16318464} || [3]int32{a1, b1, c1} != [3]int32{21845, 21845, -5439488} {
		t.Fatalf("shared edge {%d, %d, %d} / {%d, %d, %d}", a0, b0, c0, a1, b1, c1)
	}
	for _, tc := range []struct {
		fill  raster.FillRule
		holes int
	}{{raster.FillInclusive, 0}, {raster.FillTopLeft, 218}} {
		n := rasterCoverage(t, bn, 250, 250, tc.fill)
		holes := 0
		for y := 0; y < 250; y++ {
			for x := 0; x < 250; x++ {
				cx, cy := float64(x)+0.5, float64(y)+0.5
				want := 0
				if cx >= 15.625 && cx < 234.375 && cy >= 15.625 && cy < 234.375 {
					want = 1
				}
				if n[y][x] == want {
					continue
				}
				if tc.fill == raster.FillTopLeft && want == 1 && n[y][x] == 0 && x+y == 249 {
					holes++
					continue
				}
				t.Errorf("%v: pixel (%d,%d) covered %d times, want %d", tc.fill, x, y, n[y][x], want)
			}
		}
		if holes != tc.holes {
			t.Errorf("%v: %d pixels of the diagonal uncovered, want %d", tc.fill, holes, tc.holes)
		}
	}
}

// TestSharedEdgeExact: with w constant the two copies of the diagonal are
// exact negatives (both triangles normalise by the same maxVal), so the
// top-left rule covers every pixel once, and the RTL's inclusive test covers
// the 218 pixel centres on x + y = 249 twice (a double blend under
// blending): neither rule is watertight for every quad given setup's
// per-triangle normalisation. spec: rasterizer §7.4; vortex-hardware-facts §3.2
func TestSharedEdgeExact(t *testing.T) {
	mk := func(x, y float32) Vertex { return Vertex{Pos: [4]float32{0.875 * x, 0.875 * y, 0, 1}} }
	verts := []Vertex{mk(-1, -1), mk(1, -1), mk(-1, 1), mk(1, 1)}
	bn, err := Binning(verts, [][3]uint32{{0, 1, 2}, {2, 1, 3}}, 250, 250, 0, 1, abi.DefaultBinLogSize, PlanesCompiled)
	if err != nil || len(bn.Prims) != 2 {
		t.Fatalf("binning: %d prims, %v", len(bn.Prims), err)
	}
	a0, b0, c0 := bn.Prims[0].Edge(0)
	a1, b1, c1 := bn.Prims[1].Edge(2)
	if a0 != -a1 || b0 != -b1 || c0 != -c1 {
		t.Fatalf("shared edge {%d, %d, %d} / {%d, %d, %d}: not exact negatives", a0, b0, c0, a1, b1, c1)
	}
	for _, tc := range []struct {
		fill   raster.FillRule
		double int
	}{{raster.FillTopLeft, 0}, {raster.FillInclusive, 218}} {
		n := rasterCoverage(t, bn, 250, 250, tc.fill)
		double := 0
		for y := 16; y < 234; y++ {
			for x := 16; x < 234; x++ {
				switch {
				case n[y][x] == 2 && x+y == 249:
					double++
				case n[y][x] != 1:
					t.Errorf("%v: pixel (%d,%d) covered %d times", tc.fill, x, y, n[y][x])
				}
			}
		}
		if double != tc.double {
			t.Errorf("%v: %d diagonal pixels covered twice, want %d", tc.fill, double, tc.double)
		}
	}
}
