package shaderdev

import (
	"math"
	"math/rand"
	"testing"

	"vortexgfx/shader/codegen"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// TestTexLodMatchesWrapper proves codegen's exact formulation of the level
// of detail (codegen.TexLod: thresholds on the float64 squared gradient,
// integer clamps) equal to the Go wrapper's float64 log2 (fsTexState.lod) on
// 3·10^6 random lanes: every mip mode and chain length, gradients spread over
// 2^±40 (so every level and every 1/256 step is crossed), gradients just
// beside each level's power of two (the boundaries), and zeros, subnormals,
// infinities and NaNs. spec: vortex-hardware-facts.md §4 (software LOD)
func TestTexLodMatchesWrapper(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	req := &exec.TexRequest{Op: ir.TexSample, Grads: 2, Width: 1}
	for i := range req.DPdx {
		req.DPdx[i], req.DPdy[i] = make([]float32, 1), make([]float32, 1)
	}
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -3e-39, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0.5, 1, 65536, 3e38}
	grad := func() float32 {
		switch rng.Intn(8) {
		case 0:
			return special[rng.Intn(len(special))]
		case 1: // beside a power of two or its square root: a level boundary
			e := float64(rng.Intn(40) - 20)
			v := math.Pow(2, e/2)
			b := math.Float32bits(float32(v)) + uint32(rng.Intn(5)) - 2
			return math.Float32frombits(b)
		case 2:
			return float32(rng.NormFloat64())
		}
		v := float32(math.Exp2(rng.Float64()*80 - 40))
		if rng.Intn(2) == 0 {
			v = -v
		}
		return v
	}
	bad := 0
	for n := 0; n < 3_000_000; n++ {
		lw, lh := uint32(rng.Intn(16)), uint32(rng.Intn(16))
		mip := uint32(rng.Intn(4))
		levels := uint32(rng.Intn(17))
		ts := fsTexState{w: float32(uint32(1) << lw), h: float32(uint32(1) << lh), levels: max(levels, 1), mip: MipFilter(mip)}
		g := [4]float32{grad(), grad(), grad(), grad()}
		req.DPdx[0][0], req.DPdx[1][0], req.DPdy[0][0], req.DPdy[1][0] = g[0], g[1], g[2], g[3]
		want := ts.lod(req, 0)
		got := codegen.TexLod([4]uint32{1 << lw, 1 << lh, levels, mip}, g[0], g[1], g[2], g[3])
		if got != want {
			if bad++; bad <= 10 {
				t.Errorf("%dx%d levels %d mip %d grads %v: lod %d, the wrapper's %d", 1<<lw, 1<<lh, levels, mip, g, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}

// TestTexExplicitLodMatchesWrapper proves codegen's textureLod lod operand
// (codegen.TexExplicitLod: fcvt.wu.s of lod·2^8, NaN masked, then the
// integer clamps) equal to the Go wrapper's float64 clamp and quantisation
// (fsTexState.lod on ir.TexSampleLod) for every mip mode and chain length:
// random lods over ±2^±30 and uniformly over [−2, 18], every k/256 and
// k + 1/2 step and its float32 neighbours, and zeros, subnormals,
// infinities and NaNs. spec: vortex-hardware-facts.md §4 (the lod operand)
func TestTexExplicitLodMatchesWrapper(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	req := &exec.TexRequest{Op: ir.TexSampleLod, Width: 1, HasLod: true, Lod: make([]float32, 1)}
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -1e-45, 3e-39, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 0.5, 0.49999997, 15, 15.5, 16, 3e38, -3e38, 4294967296.0 / 256}
	lod := func() float32 {
		switch rng.Intn(5) {
		case 0:
			return special[rng.Intn(len(special))]
		case 1: // beside a step
			v := float32(rng.Intn(17*256)-256) / 256
			if rng.Intn(2) == 0 {
				v = float32(rng.Intn(18)) + 0.5
			}
			return math.Float32frombits(math.Float32bits(v) + uint32(rng.Intn(5)) - 2)
		case 2:
			return float32(rng.Float64()*20 - 2)
		}
		v := float32(math.Exp2(rng.Float64()*60 - 30))
		if rng.Intn(3) == 0 {
			v = -v
		}
		return v
	}
	bad := 0
	for n := 0; n < 1_000_000; n++ {
		lw, lh := uint32(rng.Intn(16)), uint32(rng.Intn(16))
		mip, levels := uint32(rng.Intn(4)), uint32(rng.Intn(17))
		ts := fsTexState{w: float32(uint32(1) << lw), h: float32(uint32(1) << lh), levels: max(levels, 1), mip: MipFilter(mip)}
		req.Lod[0] = lod()
		want := ts.lod(req, 0)
		if got := codegen.TexExplicitLod([4]uint32{1 << lw, 1 << lh, levels, mip}, req.Lod[0]); got != want {
			if bad++; bad <= 10 {
				t.Errorf("levels %d mip %d lod %g (%08x): %d, the wrapper's %d", levels, mip, req.Lod[0], math.Float32bits(req.Lod[0]), got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}
