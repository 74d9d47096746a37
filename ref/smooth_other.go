//go:build !amd64

package ref

import "unsafe"

// smoothQuad is smooth_amd64.go's, in Go.
func smoothQuad(dst **uint32, j0 int, terms *float64, nw int, bary *[4][3]float64, iw *[4]float64) {
	smoothQuadGo(unsafe.Slice(dst, nw), j0, unsafe.Slice(terms, 3*nw), bary, iw)
}
