package ref

// baryQuad sets the barycentrics of a quad's four lanes: out[l][k] =
// float64(e[3l+k]) / fa, the lanes' edge values over twice the triangle's
// area, exactly as baryQuadGo computes them (AVX where the CPU has it, four
// divisions per instruction, else SSE2, two: bary_amd64.s, avx_amd64.s;
// TestBaryQuadMatchesGo runs both).
func baryQuad(out *[4][3]float64, e *[12]int64, fa float64) {
	if useAVX {
		baryQuadAVX(out, e, fa)
		return
	}
	baryQuadSSE2(out, e, fa)
}

//go:noescape
func baryQuadSSE2(out *[4][3]float64, e *[12]int64, fa float64)

//go:noescape
func baryQuadAVX(out *[4][3]float64, e *[12]int64, fa float64)
