package ref

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
)

// BenchmarkTriangles draws 10 000 small (about 30-pixel) smooth-shaded,
// depth-tested triangles per iteration into a 512x512 target and reports
// triangles/s and fragments/s.
func BenchmarkTriangles(b *testing.B) {
	const n = 10000
	rng := rand.New(rand.NewPCG(3, 4))
	var rows [][]float32
	for range n {
		cx, cy := rng.Float32()*1.9-0.95, rng.Float32()*1.9-0.95
		z := rng.Float32()*2 - 1
		for k := range 3 {
			dx, dy := float32(0.03), float32(0)
			if k == 1 {
				dx, dy = -0.015, 0.026
			} else if k == 2 {
				dx, dy = -0.015, -0.026
			}
			rows = append(rows, []float32{cx + dx, cy + dy, z, 1, rng.Float32(), rng.Float32(), rng.Float32(), 1})
		}
	}
	in := verts(rows...)
	tg := newTarget(b, 512, 512, []format.Format{format.RGBA8}, format.D24S8)
	s := DefaultState(512, 512)
	s.Depth.Test = true
	s.Vertex, s.Fragment = passVS(4), colorFS
	frags := 0
	s.Fragment = FragmentFunc(func(qs []Quad, tex Textures) error {
		for i := range qs {
			for l := range 4 {
				if qs[i].Helper&(1<<l) == 0 {
					frags++
				}
			}
		}
		return colorFS(qs, tex)
	})
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		_ = tg.ClearDepth(1)
		if err := Draw(context.Background(), tg, &s, in, DrawParams{Topology: Triangles, Count: 3 * n}); err != nil {
			b.Fatal(err)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(n*b.N)/sec, "tris/s")
	b.ReportMetric(float64(frags)/sec, "frags/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkFill draws a full-screen blended quad into a 512x512 target
// with 1 and 2 workers and reports fragments/s.
func BenchmarkFill(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			tg := newTarget(b, 512, 512, []format.Format{format.RGBA8}, format.Invalid)
			s := DefaultState(512, 512)
			s.Workers = workers
			s.Blend[0] = BlendState{Enable: true, SrcRGB: blend.SrcAlpha, DstRGB: blend.OneMinusSrcAlpha, SrcAlpha: blend.One, DstAlpha: blend.Zero, WriteMask: 0xF}
			s.Vertex, s.Fragment = passVS(4), colorFS
			in := quadVerts(-1, -1, 1, 1, 0, [4]float32{0.2, 0.4, 0.6, 0.5})
			b.ResetTimer()
			for range b.N {
				if err := Draw(context.Background(), tg, &s, in, DrawParams{Topology: Triangles, Count: 6}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(512*512*b.N)/b.Elapsed().Seconds(), "frags/s")
		})
	}
}
