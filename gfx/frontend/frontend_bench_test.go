package frontend

import (
	"math/rand"
	"testing"
)

// BenchmarkFrontEnd runs the host front end (setup_k's SETUP/SCAN/EMIT) over
// 4096 random compiled-draw triangles, a third of them crossing the near
// plane, per iteration.
func BenchmarkFrontEnd(b *testing.B) {
	r := rand.New(rand.NewSource(3))
	verts := make([]Vertex, 3*4096)
	for i := range verts {
		verts[i] = Vertex{Pos: [4]float32{r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*1.4 - 0.6, 1}, NVar: 8}
	}
	tris := make([][3]uint32, 4096)
	for i := range tris {
		tris[i] = [3]uint32{uint32(3 * i), uint32(3*i + 1), uint32(3*i + 2)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Run(verts, tris, 256, 256, 0, 1, CullNone, nil, PlanesCompiled); err != nil {
			b.Fatal(err)
		}
	}
}
