package ref

import (
	"math"

	"vortexgfx/gl/format"
)

// packRGBA8Go is packRGBA8 in Go: each lane's four colour words, read as
// float32, converted by gl/format.UNorm8 and packed R in the low byte, the
// little-endian RGBA8 texel as one word. spec: software-shader-backend
// "Production color packing"
func packRGBA8Go(dst, c0, c1, c2, c3 []uint32) {
	for j := range dst {
		dst[j] = format.UNorm8(math.Float32frombits(c0[j])) | format.UNorm8(math.Float32frombits(c1[j]))<<8 |
			format.UNorm8(math.Float32frombits(c2[j]))<<16 | format.UNorm8(math.Float32frombits(c3[j]))<<24
	}
}
