package frontend

import (
	"math"
	"testing"
)

// TestViewportGuard: an application viewport's guard band is the target's
// (window positions within GuardBandPx of the target, whatever the
// viewport's size, position or orientation), so the full-target viewport
// gets the default planes and an off-centre or oversized one never carries a
// vertex past the Q15.16 range the default keeps; the band always contains
// the target. spec: vortexpipe-driver §3.8 (guard band); vortex-hardware-facts
// §3.2 (viewport)
func TestViewportGuard(t *testing.T) {
	const w, h = 250, 180
	def := newFEEnv(w, h, 0, 1, CullNone, nil, PlanesCompiled).guard
	full := newFEEnv(w, h, 0, 1, CullNone, &Viewport{SX: w / 2, TX: w / 2, SY: h / 2, TY: h / 2}, PlanesCompiled).guard
	for i := range def {
		if d := math.Abs(float64(def[i].g-full[i].g)) / float64(def[i].g); d > 1e-6 {
			t.Errorf("plane %d: full-target viewport g %v, default %v", i, full[i].g, def[i].g)
		}
	}
	for _, vp := range []Viewport{
		{SX: 20, TX: 30, SY: 10, TY: 170},
		{SX: 5000, TX: -4000, SY: 3000, TY: 2000},
		{SX: 0.5, TX: 17.5, SY: -0.5, TY: 11.5},
		{SX: 40, TX: 125, SY: -90, TY: 90},
		{SX: 10, TX: 20000, SY: 10, TY: 20},
	} {
		g := newFEEnv(w, h, 0, 1, CullNone, &vp, PlanesCompiled).guard
		// The window interval each axis's planes keep: ndc ∈ [−g_neg, g]
		// mapped through s·ndc + t.
		win := func(s, t, hi, lo float32) (float64, float64) {
			a, b := float64(s)*float64(hi)+float64(t), float64(s)*float64(-lo)+float64(t)
			return min(a, b), max(a, b)
		}
		for axis, size := range []float64{w, h} {
			s, tr := vp.SX, vp.TX
			if axis == 1 {
				s, tr = vp.SY, vp.TY
			}
			lo, hi := win(s, tr, g[2*axis].g, g[2*axis+1].g)
			if math.Abs(lo+GuardBandPx) > 1e-2*max(1, math.Abs(lo)) || math.Abs(hi-size-GuardBandPx) > 1e-2*max(1, hi) {
				t.Errorf("viewport %+v axis %d: guard band keeps window [%v, %v], want [%v, %v]", vp, axis, lo, hi, -GuardBandPx, size+GuardBandPx)
			}
		}
	}
}

// TestSetupScissorClamp: setup_k clamps each primitive's box to the draw's
// clip rectangle and culls a primitive left with an empty box.
// spec: rasterizer.md §4 (RASTER_SCISSOR_X/Y)
func TestSetupScissorClamp(t *testing.T) {
	tri := [3]Vertex{{Pos: [4]float32{-0.9, -0.9, 0, 1}}, {Pos: [4]float32{0.9, -0.9, 0, 1}}, {Pos: [4]float32{0, 0.9, 0, 1}}}
	for _, tc := range []struct {
		sc   *BBox
		want []BBox
	}{
		{nil, []BBox{{1, 31, 1, 31}}},
		{&BBox{L: 5, R: 20, T: 9, B: 40}, []BBox{{5, 20, 9, 31}}},
		{&BBox{L: 31, R: 32, T: 0, B: 32}, nil},
	} {
		e := newFEEnv(32, 32, 0, 1, CullNone, nil, PlanesCompiled)
		e.scissor = tc.sc
		var prims [setupSlotCap]Prim
		var bbs [setupSlotCap]BBox
		var st Stats
		n := e.setupOne(&tri[0], &tri[1], &tri[2], nil, &st, &prims, &bbs, nil)
		if n != len(tc.want) {
			t.Fatalf("scissor %+v: %d primitives, want %d", tc.sc, n, len(tc.want))
		}
		for i := range n {
			if bbs[i] != tc.want[i] {
				t.Errorf("scissor %+v: box %+v, want %+v", tc.sc, bbs[i], tc.want[i])
			}
		}
		if n == 0 && st.Culled != 1 {
			t.Errorf("scissor %+v: culled %d", tc.sc, st.Culled)
		}
	}
}
