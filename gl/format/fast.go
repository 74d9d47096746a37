package format

// Fast paths for the formats the fragment pipeline meets most: RGBA8
// colour and D24S8 depth/stencil. Each is the generic function specialised
// to one format, with no format dispatch and no loop over components;
// fast_test.go checks every one against the generic path for every byte
// value and every class of float input, so they stay equal.
// spec: vortexpipe-driver §5.2 (the oracle's results must not change).

// UnpackRGBA8 is Unpack(RGBA8, src).
func UnpackRGBA8(src []byte) Raw {
	_ = src[3]
	return Raw{uint32(src[0]), uint32(src[1]), uint32(src[2]), uint32(src[3])}
}

// PackRGBA8 is Pack(RGBA8, dst, r).
func PackRGBA8(dst []byte, r Raw) {
	_ = dst[3]
	dst[0], dst[1], dst[2], dst[3] = byte(r[0]), byte(r[1]), byte(r[2]), byte(r[3])
}

// UNorm8 is UNorm(v, 8): floor(clamp(v, 0, 1) * 255 + 0.5), NaN as 0.
func UNorm8(v float32) uint32 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	// The argument is positive, so truncation is the floor.
	return uint32(float64(v)*255 + 0.5)
}

// FromFloatRGBA8 is FromFloat(RGBA8, c).
func FromFloatRGBA8(c [4]float32) Raw {
	return Raw{UNorm8(c[0]), UNorm8(c[1]), UNorm8(c[2]), UNorm8(c[3])}
}

// ToFloatRGBA8 is ToFloat(RGBA8, r) for r holding bytes (as Unpack gives).
func ToFloatRGBA8(r Raw) [4]float32 {
	return [4]float32{
		float32(float64(r[0]) / 255), float32(float64(r[1]) / 255),
		float32(float64(r[2]) / 255), float32(float64(r[3]) / 255),
	}
}

// UnpackDepthD24S8 is UnpackDepth(D24S8, src).
func UnpackDepthD24S8(src []byte) float32 {
	return float32(float64(le32(src)>>8) / 16777215)
}

// UNorm24 is UNorm(v, 24).
func UNorm24(v float32) uint32 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 0xFFFFFF
	}
	return uint32(float64(v)*16777215 + 0.5)
}

// QuantizeDepthD24S8 is QuantizeDepth(D24S8, z).
func QuantizeDepthD24S8(z float32) float32 {
	return float32(float64(UNorm24(z)) / 16777215)
}

// PackDepthD24S8 is PackDepth(D24S8, dst, z): the stencil byte is kept.
func PackDepthD24S8(dst []byte, z float32) {
	put32(dst, UNorm24(z)<<8|le32(dst)&0xFF)
}
