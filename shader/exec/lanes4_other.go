//go:build !amd64

package exec

import (
	"math"
	"unsafe"
)

// addFTZ4 and mulFTZ4 are lanes4_amd64.go's, as the shared loops and ftz
// (other architectures pick NaN payloads by their own rules, the same for
// the compiled and generic paths, which both run these).
func addFTZ4(d, a, b *uint32, n int) {
	dd, aa, bb := unsafe.Slice(d, n), unsafe.Slice(a, n), unsafe.Slice(b, n)
	addLanes(dd, aa, bb)
	for l := range dd {
		dd[l] = ftz(dd[l])
	}
}

func mulFTZ4(d, a, b *uint32, n int) {
	dd, aa, bb := unsafe.Slice(d, n), unsafe.Slice(a, n), unsafe.Slice(b, n)
	mulLanes(dd, aa, bb)
	for l := range dd {
		dd[l] = ftz(dd[l])
	}
}

func invSqrtFTZ4(d, a *uint32, n int) {
	dd, aa := unsafe.Slice(d, n), unsafe.Slice(a, n)
	for l := range dd {
		dd[l] = ftz(fw(float32(1 / math.Sqrt(float64(fl(aa[l]))))))
	}
}

func splat4(d *uint32, v uint32, n int) {
	for l, dd := 0, unsafe.Slice(d, n); l < n; l++ {
		dd[l] = v
	}
}
