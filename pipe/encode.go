package pipe

import (
	"math"

	"vortexgfx/abi"
)

// LodFixed converts a LOD value to the signed fixed point with abi.TexLodFracBits
// fraction bits the shader's LOD clamp uses, rounding to nearest and saturating.
// spec: vortexpipe §1.4 (LOD min/max/bias in fixed point); facts §4
func LodFixed(v float32) int32 {
	if v != v {
		return 0
	}
	f := math.Round(float64(v) * (1 << abi.TexLodFracBits))
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	if f < math.MinInt32 {
		return math.MinInt32
	}
	return int32(f)
}

// unorm8 encodes a float channel as GL does: clamp to [0,1], floor(f*255+0.5), NaN 0.
func unorm8(f float32) uint32 {
	if !(f > 0) {
		return 0
	}
	if f >= 1 {
		return 255
	}
	return uint32(math.Floor(float64(f)*255 + 0.5))
}

// PackColor packs an RGBA float colour into a device word whose byte i holds the
// channel at byte i of an RGBA8 attachment (bgra false: R,G,B,A) or of a BGRA8
// attachment (bgra true: B,G,R,A — the A8R8G8B8 word). Alpha is byte 3 either way,
// which is the byte the OM's alpha factors read. spec: vortexpipe §3.7 (BGRA row)
func PackColor(c [4]float32, bgra bool) uint32 {
	r, g, b, a := unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])
	if bgra {
		return b | g<<8 | r<<16 | a<<24
	}
	return r | g<<8 | b<<16 | a<<24
}

// WriteMask converts a Gallium colour mask (R=1, G=2, B=4, A=8) into the OM's
// 4-bit CBUF_WRITEMASK, whose bit i enables byte i of the attachment word.
// spec: vortex-hardware-facts §2 (CBUF_WRITEMASK); vortexpipe §3.7
func WriteMask(mask uint8, bgra bool) uint32 {
	m := uint32(mask & MaskRGBA)
	if !bgra {
		return m
	}
	r, b := m&1, m>>2&1
	return b | m&2 | r<<2 | m&8
}
