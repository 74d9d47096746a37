package program

import (
	"context"
	"testing"

	"vortexgfx/ref"
)

// BenchmarkShadeQuads shades batches of 64 quads with a textured-free
// arithmetic shader; allocs/op must stay 0 (no allocation per quad or lane).
func BenchmarkShadeQuads(b *testing.B) {
	vs := "#version 110\nattribute vec4 pos;\nvarying vec4 c;\nvoid main() { gl_Position = pos; c = pos; }\n"
	fs := "#version 110\nvarying vec4 c;\nvoid main() { gl_FragColor = vec4(sin(c.x), dFdx(c.y), c.z * c.w, 1.0); }\n"
	p, err := compile(vs, fs)
	if err != nil {
		b.Fatal(err)
	}
	f, err := p.NewFragmentShader(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	nv := p.Varyings()
	quads := make([]ref.Quad, 64)
	for i := range quads {
		quads[i].Varyings = make([]uint32, 4*nv)
		quads[i].X, quads[i].Y = int32(2*i), 0
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := f.ShadeQuads(quads, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(quads)*4), "ns/fragment")
}
