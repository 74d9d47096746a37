package shaderdev

import (
	"math"
	"testing"

	"vortexgfx/abi"
)

// FuzzPrimGeom feeds prim_k's geometry arbitrary clip positions, viewport,
// line width and point size (NaN, infinities, w ≤ 0, huge coordinates):
// every line, point and polygon expansion must write whole records without
// panicking, and a line's exact records must be flagged or zero.
func FuzzPrimGeom(f *testing.F) {
	f.Add(float32(-0.5), float32(0.25), float32(0), float32(1), float32(0.75), float32(-0.5), float32(0.5), float32(2),
		float32(32), float32(24), float32(1), float32(4))
	f.Add(float32(math.NaN()), float32(0), float32(0), float32(1), float32(1), float32(1), float32(-3), float32(0),
		float32(32), float32(-24), float32(2048.5), float32(0.1))
	f.Add(float32(1e30), float32(-1e30), float32(1e30), float32(1e-30), float32(0), float32(0), float32(0), float32(-1),
		float32(3e4), float32(3e4), float32(float32(math.Inf(1))), float32(math.MaxFloat32))
	f.Fuzz(func(t *testing.T, ax, ay, az, aw, bx, by, bz, bw, sx, sy, width, size float32) {
		const n = 8
		g := primGeom{sx: sx, sy: sy, tx: sx, ty: sy, width: width, size: size, sizeWord: -1, frontCCW: true, fillFront: PolygonLine, fillBack: PolygonPoint}
		g.n, g.on = n, n
		g.noPersp = make([]bool, n)
		g.noPersp[5] = true
		g.flat = []int{6}
		g.pl = []int{0, 1, 2, 3, 4, 5}
		g.cdWord = -1
		g.a, g.b, g.t = make([]float64, n), make([]float64, n), make([]float64, n)
		rec := func(x, y, z, w float32) []uint32 {
			r := make([]uint32, n)
			for k, v := range []float32{x, y, z, w, 0.5, 0.25, 7, 1} {
				r[k] = math.Float32bits(v)
			}
			return r
		}
		a, b, c := rec(ax, ay, az, aw), rec(bx, by, bz, bw), rec(ax, by, bz, aw)
		out := make([]uint32, 18*n)
		ex := make([]uint32, 6*abi.LineCoverBytes/4)
		g.line(a, b, b, out[:6*n], ex[:2*abi.LineCoverBytes/4], false)
		for t2 := range 2 {
			if r := ex[t2*abi.LineCoverBytes/4:]; r[0] != 0 && r[0] != abi.LineCoverExact {
				t.Fatalf("line: exact record flags %#x", r[0])
			}
		}
		g.point(a, a, out[:6*n], false)
		g.poly = true
		g.polygon(a, b, c, 0b101, out, ex)
		for r := range 18 {
			if w := out[r*n+3]; w == 0 && out[r*n] != 0 {
				t.Fatalf("record %d: x %#x with w 0", r, out[r*n])
			}
		}
		// Under a user clip distance (the record's x): the clipped
		// polygon's edges and vertices, in polyEdges(1) slots.
		g.view, g.pl, g.cd, g.cdWord = g.pl[:6:6], append(g.pl[:6:6], clipPlane), []int{0}, 0
		g.a, g.b, g.t = make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
		if err := g.polygonModes(primFlagPolygons | primFlagFrontCCW | uint64(PolygonLine)<<primFillFrontShift | uint64(PolygonPoint)<<primFillBackShift); err != nil {
			t.Fatal(err)
		}
		slots := polyEdges(1)
		out, ex = make([]uint32, 6*slots*n), make([]uint32, 2*slots*abi.LineCoverBytes/4)
		g.polygon(a, b, c, 0b101, out, ex)
		for r := range 6 * slots {
			if w := out[r*n+3]; w == 0 && out[r*n] != 0 {
				t.Fatalf("clipped record %d: x %#x with w 0", r, out[r*n])
			}
		}
		for t2 := range 2 * slots {
			if r := ex[t2*abi.LineCoverBytes/4:]; r[0] != 0 && r[0] != abi.LineCoverExact {
				t.Fatalf("clipped line: exact record flags %#x", r[0])
			}
		}
	})
}
