package swtex

import (
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/shader/ir"
)

// benchWarp samples full warps of one texture through the exec entry point and
// reports texels (lanes) per second.
func benchWarp(b *testing.B, tx *sampler.Texture, s sampler.Sampler, op ir.TexOp, grad float32) {
	m := devMem(b)
	table := resident(b, m, []*sampler.Texture{tx}, []sampler.Sampler{s})
	sw := New()
	if err := sw.Bind(m, table, 1); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	r := newExecReq()
	r.Op, r.Mask, r.NCoord, r.Binding = op, 1<<warp-1, 2, ir.SamplerBinding{Kind: ir.Sampler2D}
	if grad > 0 {
		r.Grads = 2
	}
	for l := range warp {
		r.Coord[0][l], r.Coord[1][l] = rng.Float32(), rng.Float32()
		r.DPdx[0][l], r.DPdy[1][l] = grad*(0.5+rng.Float32()), grad*(0.5+rng.Float32())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := sw.Texture(r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*warp)/b.Elapsed().Seconds(), "texels/s")
}

// BenchmarkBilinear2D: bilinear, no mips, 256x256 RGBA8.
func BenchmarkBilinear2D(b *testing.B) {
	tx := newTex(b, sampler.Dim2D, format.RGBA8, 256, 256, 1, 1, rand.New(rand.NewPCG(1, 1)))
	benchWarp(b, tx, smp(fLin, fLin, noMip, sampler.Repeat), ir.TexSample, 0)
}

// BenchmarkTrilinearNPOT: trilinear from quad gradients, 200x120 RGBA8 chain.
func BenchmarkTrilinearNPOT(b *testing.B) {
	tx := newTex(b, sampler.Dim2D, format.RGBA8, 200, 120, 1, 0, rand.New(rand.NewPCG(1, 1)))
	benchWarp(b, tx, smp(fLin, fLin, linMip, sampler.Repeat), ir.TexSample, 0.02)
}

// BenchmarkAniso16: 16x anisotropic trilinear (footprints stretched 4:1).
func BenchmarkAniso16(b *testing.B) {
	tx := newTex(b, sampler.Dim2D, format.RGBA8, 256, 256, 1, 0, rand.New(rand.NewPCG(1, 1)))
	s := smp(fLin, fLin, linMip, sampler.Repeat)
	s.MaxAnisotropy = 16
	benchWarp(b, tx, s, ir.TexSample, 0.01)
}
