package ref

// baryQuad sets the barycentrics of a quad's four lanes: out[l][k] =
// float64(e[3l+k]) / fa, the lanes' edge values over twice the triangle's
// area, exactly as baryQuadGo computes them (SSE2, two divisions per
// instruction: bary_amd64.s; TestBaryQuadMatchesGo).
//
//go:noescape
func baryQuad(out *[4][3]float64, e *[12]int64, fa float64)
