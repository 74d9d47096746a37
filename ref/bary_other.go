//go:build !amd64

package ref

// baryQuad is bary_amd64.go's, in Go.
func baryQuad(out *[4][3]float64, e *[12]int64, fa float64) { baryQuadGo(out, e, fa) }
