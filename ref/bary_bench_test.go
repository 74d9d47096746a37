package ref

import "testing"

var barySink [4][3]float64

// BenchmarkBaryQuad times a quad's barycentrics: baryQuad (SSE2 on amd64)
// against baryQuadGo.
func BenchmarkBaryQuad(b *testing.B) {
	e := [12]int64{1 << 20, 3 << 18, 5 << 17, 7 << 16, 11 << 15, 13 << 14, 17 << 13, 19 << 12, 23 << 11, 29 << 10, 31 << 9, 37 << 8}
	fa := float64(1<<21 + 12345)
	b.Run("asm", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			e[0] = int64(i)
			baryQuad(&barySink, &e, fa)
		}
	})
	b.Run("go", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			e[0] = int64(i)
			baryQuadGo(&barySink, &e, fa)
		}
	})
}
