//go:build !amd64

package ref

import "unsafe"

// packRGBA8 is rgba8_amd64.go's, in Go.
func packRGBA8(dst, c0, c1, c2, c3 *uint32, n int) {
	packRGBA8Go(unsafe.Slice(dst, n), unsafe.Slice(c0, n), unsafe.Slice(c1, n), unsafe.Slice(c2, n), unsafe.Slice(c3, n))
}
