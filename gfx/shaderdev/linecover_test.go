package shaderdev

import (
	"math/rand/v2"
	"testing"
)

// TestQuadSpanCovers checks that quadSpan never narrows a quad row past a
// covered centre: over random triangles (thin slivers, axis-aligned,
// negative coordinates, ties on the 1/256 grid), every pixel covers accepts
// lies in its row pair's span.
func TestQuadSpanCovers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := range 3000 {
		var x, y [3]int64
		for k := range 3 {
			x[k], y[k] = r.Int64N(40*256)-8*256, r.Int64N(40*256)-8*256
			if it%3 == 0 {
				x[k], y[k] = x[k]&^127, y[k]&^127 // half pixels: centres on edges
			}
		}
		if it%5 == 0 {
			x[1], y[2] = x[0], y[0] // axis-aligned edges
		}
		if (x[1]-x[0])*(y[2]-y[0])-(x[2]-x[0])*(y[1]-y[0]) < 0 {
			x[1], x[2], y[1], y[2] = x[2], x[1], y[2], y[1]
		}
		var lc lineCover
		for e := range 3 {
			p, q := (e+1)%3, (e+2)%3
			lc.a[e], lc.b[e] = y[p]-y[q], x[q]-x[p]
			lc.c[e] = -(lc.a[e]*x[p] + lc.b[e]*y[p])
			lc.t[e] = 1
			if lc.a[e] > 0 || (lc.a[e] == 0 && lc.b[e] > 0) {
				lc.t[e] = 0
			}
		}
		const x0, x1 = -8, 40
		for py := int32(-8); py < 40; py += 2 {
			lo, hi := lc.quadSpan(py, x0, x1)
			for Y := py; Y < py+2; Y++ {
				for X := int32(x0); X < x1; X++ {
					if lc.covers(X, Y) && (X < lo || X >= hi) {
						t.Fatalf("triangle %v %v: pixel (%d, %d) covered outside the span [%d, %d)", x, y, X, Y, lo, hi)
					}
				}
			}
		}
	}
}
