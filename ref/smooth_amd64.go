package ref

// smoothQuad writes packQuad's smooth words of a fully covered quad: for each
// of the nw words i, lane l of (*dst[i])[j0:j0+4] becomes
// float32((b1*a1 + b0*a0 + b2*a2) / iw[l]) as packLanes evaluates it, with
// (a0, a1, a2) = terms[3i:3i+3] and (b0, b1, b2) = bary[l] (AVX where the
// CPU has it, a word's four lanes per instruction, else SSE2, two:
// smooth_amd64.s, avx_amd64.s; TestSmoothQuadMatchesGo runs both).
func smoothQuad(dst **uint32, j0 int, terms *float64, nw int, bary *[4][3]float64, iw *[4]float64) {
	if useAVX {
		smoothQuadAVX(dst, j0, terms, nw, bary, iw)
		return
	}
	smoothQuadSSE2(dst, j0, terms, nw, bary, iw)
}

//go:noescape
func smoothQuadSSE2(dst **uint32, j0 int, terms *float64, nw int, bary *[4][3]float64, iw *[4]float64)

//go:noescape
func smoothQuadAVX(dst **uint32, j0 int, terms *float64, nw int, bary *[4][3]float64, iw *[4]float64)
