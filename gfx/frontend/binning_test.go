package frontend

import (
	"encoding/binary"
	"errors"
	"math/rand"
	"sort"
	"testing"

	"vortexgfx/abi"
)

type pair struct{ bx, by, pid uint32 }

// pairs lists the (bin, pid) pairs of a tile buffer, checking each bin's pids
// ascend (order-preserving sort).
func pairs(t *testing.T, tbuf []byte, n int) []pair {
	t.Helper()
	var out []pair
	pids := tbuf[n*abi.BinHeaderBytes:]
	for i := 0; i < n; i++ {
		h := abi.DecodeBinHeader(tbuf[i*abi.BinHeaderBytes:])
		prev := int64(-1)
		for k := uint32(0); k < h.PidsCount; k++ {
			pid := binary.LittleEndian.Uint32(pids[4*(h.PidsOffset+k):])
			if int64(pid) <= prev {
				t.Fatalf("bin (%d,%d): pids not ascending", h.BinX, h.BinY)
			}
			prev = int64(pid)
			out = append(out, pair{uint32(h.BinX), uint32(h.BinY), pid})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.bx != b.bx {
			return a.bx < b.bx
		}
		if a.by != b.by {
			return a.by < b.by
		}
		return a.pid < b.pid
	})
	return out
}

// randomScene makes n triangles scattered over (and beyond) clip space.
func randomScene(seed int64, n int) ([]Vertex, [][3]uint32) {
	r := rand.New(rand.NewSource(seed))
	verts := make([]Vertex, 3*n)
	tris := make([][3]uint32, n)
	for i := range verts {
		w := 1 + r.Float32()*3
		verts[i] = Vertex{Pos: [4]float32{(r.Float32()*2.4 - 1.2) * w, (r.Float32()*2.4 - 1.2) * w, r.Float32() * w, w},
			Color: [4]float32{r.Float32(), r.Float32(), r.Float32(), 1}}
	}
	for i := range tris {
		tris[i] = [3]uint32{uint32(3 * i), uint32(3*i + 1), uint32(3*i + 2)}
	}
	return verts, tris
}

// TestProducersAgree: the host oracle (touched bins, sorted by bin_x then bin_y)
// and the device stages (dense row-major grid) cover the same (bin, pid) pairs.
// spec: rasterizer §3
func TestProducersAgree(t *testing.T) {
	verts, tris := randomScene(50, 400)
	for _, size := range [][2]int{{128, 128}, {300, 200}, {1024, 768}} {
		for _, binLog := range []uint{4, 6, 7} {
			host, err := Binning(verts, tris, size[0], size[1], 0, 1, binLog, PlanesGrx)
			if err != nil {
				t.Fatal(err)
			}
			// Header order of the oracle.
			for i := 1; i < host.TileCount; i++ {
				a := abi.DecodeBinHeader(host.TileBuf[(i-1)*12:])
				b := abi.DecodeBinHeader(host.TileBuf[i*12:])
				if a.BinX > b.BinX || (a.BinX == b.BinX && a.BinY >= b.BinY) {
					t.Fatalf("oracle headers %d, %d out of (bin_x, bin_y) order", i-1, i)
				}
			}
			g, err := NewBinGrid(size[0], size[1], binLog)
			if err != nil {
				t.Fatal(err)
			}
			dev, n, err := DeviceBinning(g, host.BBoxes)
			if err != nil {
				t.Fatal(err)
			}
			if n != g.Bins() {
				t.Fatalf("dense grid has %d headers, want %d", n, g.Bins())
			}
			for b := 0; b < n; b++ {
				h := abi.DecodeBinHeader(dev[b*12:])
				if int(h.BinX) != b%g.Cols || int(h.BinY) != b/g.Cols {
					t.Fatalf("dense header %d names bin (%d,%d)", b, h.BinX, h.BinY)
				}
			}
			hp, dp := pairs(t, host.TileBuf, host.TileCount), pairs(t, dev, n)
			if len(hp) != len(dp) || len(hp) != host.Pairs {
				t.Fatalf("%v bin %d: host %d pairs, device %d", size, binLog, len(hp), len(dp))
			}
			for i := range hp {
				if hp[i] != dp[i] {
					t.Fatalf("%v bin %d: pair %d host %v device %v", size, binLog, i, hp[i], dp[i])
				}
			}
		}
	}
}

// TestPidGuard: more visible primitives than the 16-bit pid field addresses is
// refused, never aliased. spec: rasterizer §3.2
func TestPidGuard(t *testing.T) {
	v := []Vertex{
		{Pos: [4]float32{-1, -1, 0, 1}}, {Pos: [4]float32{1, -1, 0, 1}}, {Pos: [4]float32{-1, 1, 0, 1}},
	}
	tris := make([][3]uint32, abi.MaxPrimsPerPass+1)
	for i := range tris {
		tris[i] = [3]uint32{0, 1, 2}
	}
	if _, err := Binning(v, tris, 8, 8, 0, 1, 7, PlanesGrx); !errors.Is(err, ErrTooManyPrims) {
		t.Errorf("oracle: %v", err)
	}
	if _, _, err := Run(v, tris, 8, 8, 0, 1, CullNone, nil, PlanesGrx); !errors.Is(err, ErrTooManyPrims) {
		t.Errorf("front end: %v", err)
	}
	if _, err := Binning(v, tris[:abi.MaxPrimsPerPass], 8, 8, 0, 1, 7, PlanesGrx); err != nil {
		t.Errorf("exactly 65536 primitives: %v", err)
	}
}

// TestFrontEndClipCull: near clipping splits a triangle crossing z + w = 0 into
// two, and the cull modes drop the matching winding.
func TestFrontEndClipCull(t *testing.T) {
	ccw := []Vertex{
		{Pos: [4]float32{-1, -1, 0, 1}}, {Pos: [4]float32{1, -1, 0, 1}}, {Pos: [4]float32{-1, 1, 0, 1}},
	}
	tri := [][3]uint32{{0, 1, 2}}
	for _, c := range []struct {
		cull CullMode
		tri  [][3]uint32
		want int
	}{
		{CullNone, tri, 1}, {CullBack, tri, 1}, {CullFront, tri, 0},
		{CullBack, [][3]uint32{{0, 2, 1}}, 0}, {CullFront, [][3]uint32{{0, 2, 1}}, 1},
	} {
		p, _, err := Run(ccw, c.tri, 16, 16, 0, 1, c.cull, nil, PlanesGrx)
		if err != nil || len(p) != c.want {
			t.Errorf("cull %d tri %v: %d prims (%v), want %d", c.cull, c.tri, len(p), err, c.want)
		}
	}
	// One vertex behind the near plane: the clipped quad fans into two.
	behind := append([]Vertex(nil), ccw...)
	behind[2].Pos = [4]float32{-1, 1, -3, 1}
	p, bb, err := Run(behind, tri, 16, 16, 0, 1, CullNone, nil, PlanesGrx)
	if err != nil || len(p) != 2 || len(bb) != 2 {
		t.Fatalf("near clip: %d prims (%v), want 2", len(p), err)
	}
	// All behind: nothing.
	for i := range behind {
		behind[i].Pos[2] = -2
	}
	if p, _, _ := Run(behind, tri, 16, 16, 0, 1, CullNone, nil, PlanesGrx); len(p) != 0 {
		t.Errorf("fully clipped triangle produced %d prims", len(p))
	}
}

// TestGuardBand: a triangle reaching far beyond the target is clipped against the
// guard band instead of overflowing Q15.16, and still covers the pixels it should.
// spec: vortexpipe §3.8
func TestGuardBand(t *testing.T) {
	huge := []Vertex{
		{Pos: [4]float32{-1, -1, 0, 1}}, {Pos: [4]float32{5000, -1, 0, 1}}, {Pos: [4]float32{-1, 5000, 0, 1}},
	}
	tri := [][3]uint32{{0, 1, 2}}
	p, bb, st, err := RunWithStats(huge, tri, 64, 64, 0, 1, CullNone, nil, PlanesGrx)
	if err != nil {
		t.Fatal(err)
	}
	if st.GuardClipped != 1 || st.PrecisionLoss != 0 || len(p) == 0 {
		t.Fatalf("stats %+v, %d prims", st, len(p))
	}
	// Every pixel of the 64×64 target lies inside the triangle: exactly one
	// emitted sub-triangle covers it.
	for y := int32(0); y < 64; y++ {
		for x := int32(0); x < 64; x++ {
			n := 0
			for i := range p {
				if bb[i].L > uint32(x) || bb[i].R <= uint32(x) || bb[i].T > uint32(y) || bb[i].B <= uint32(y) {
					continue
				}
				in := true
				for e := 0; e < 3; e++ {
					a, b, c := p[i].Edge(e)
					v := a*x + b*y + c
					if v < 0 || (v == 0 && !(a > 0 || (a == 0 && b > 0))) {
						in = false
					}
				}
				if in {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("pixel (%d,%d) covered %d times", x, y, n)
			}
		}
	}
	// The oracle (no guard band) on the same triangle: stays faithful to the
	// reference, whose edges are still representable here.
	if _, err := Binning(huge, tri, 64, 64, 0, 1, 7, PlanesGrx); err != nil {
		t.Fatal(err)
	}
}
