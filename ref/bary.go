package ref

// baryQuadGo is baryQuad in Go: rasterTri's barycentric expression,
// float64(edge value) / fa, for the four lanes of a quad (e holds lane l's
// three edge values at 3l..3l+2). The division is IEEE's, correctly
// rounded, so any evaluation order or width gives these values.
func baryQuadGo(out *[4][3]float64, e *[12]int64, fa float64) {
	for l := range out {
		out[l] = [3]float64{float64(e[3*l]) / fa, float64(e[3*l+1]) / fa, float64(e[3*l+2]) / fa}
	}
}
