package format

import "math"

// UnpackDepth reads the depth value of a depth format as a float in the
// format's own precision (unorm depth as k/(2^n-1)). Formats without depth
// read as 0.
func UnpackDepth(f Format, src []byte) float32 {
	switch f {
	case D16:
		return float32(float64(le16(src)) / 65535)
	case D24S8:
		return float32(float64(le32(src)>>8) / 16777215)
	case D32F:
		return math.Float32frombits(le32(src))
	}
	return 0
}

// QuantizeDepth returns z as the depth format will store it: clamped to
// [0,1] and rounded for unorm formats, NaN as 0. The depth test compares
// quantized values so that an equal-depth refragment compares equal.
// spec: software-shader-backend "Persistent depth semantics".
func QuantizeDepth(f Format, z float32) float32 {
	switch f {
	case D16:
		return float32(float64(UNorm(z, 16)) / 65535)
	case D24S8:
		return float32(float64(UNorm(z, 24)) / 16777215)
	case D32F:
		if z != z {
			return 0
		}
		return z
	}
	return 0
}

// PackDepth stores z (clamped and rounded as QuantizeDepth does) and keeps a
// D24S8 texel's stencil bits.
func PackDepth(f Format, dst []byte, z float32) {
	switch f {
	case D16:
		put16(dst, UNorm(z, 16))
	case D24S8:
		put32(dst, UNorm(z, 24)<<8|le32(dst)&0xFF)
	case D32F:
		if z != z {
			z = 0
		}
		put32(dst, math.Float32bits(z))
	}
}

// UnpackStencil reads the stencil value; 0 for formats without stencil.
func UnpackStencil(f Format, src []byte) uint8 {
	switch f {
	case D24S8:
		return src[0]
	case S8:
		return src[0]
	}
	return 0
}

// PackStencil stores the stencil value and keeps a D24S8 texel's depth bits.
func PackStencil(f Format, dst []byte, s uint8) {
	switch f {
	case D24S8, S8:
		dst[0] = s // the stencil byte is the lowest byte of the little-endian word
	}
}
