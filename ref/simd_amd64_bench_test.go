package ref

import "testing"

// BenchmarkSIMDForms times each amd64 form of baryQuad and smoothQuad (AVX
// when the CPU has it, SSE2) on one quad (smoothQuad: three words, the
// bench scene's normal).
func BenchmarkSIMDForms(b *testing.B) {
	e := [12]int64{1 << 20, 3 << 18, 5 << 17, 7 << 16, 11 << 15, 13 << 14, 17 << 13, 19 << 12, 23 << 11, 29 << 10, 31 << 9, 37 << 8}
	fa := float64(1<<21 + 12345)
	var bary [4][3]float64
	baryQuadGo(&bary, &e, fa)
	iw := [4]float64{1.1, 1.2, 1.3, 1.4}
	terms := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	arrs := [3][]uint32{make([]uint32, 64), make([]uint32, 64), make([]uint32, 64)}
	ptrs := []*uint32{&arrs[0][0], &arrs[1][0], &arrs[2][0]}
	saved := useAVX
	defer func() { useAVX = saved }()
	for _, avx := range []bool{true, false} {
		if avx && !hasAVX() {
			continue
		}
		name := "sse2"
		if avx {
			name = "avx"
		}
		useAVX = avx
		b.Run("bary/"+name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				e[0] = int64(i)
				baryQuad(&barySink, &e, fa)
			}
		})
		b.Run("smooth/"+name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				smoothQuad(&ptrs[0], i&63&^3, &terms[0], 3, &bary, &iw)
			}
		})
	}
}
