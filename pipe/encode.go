package pipe

import (
	"math"

	"vortexgfx/abi"
)

// OMCompare maps a compare function to the OM's code; the OM orders the functions
// ALWAYS, NEVER, LESS, LEQUAL, EQUAL, GEQUAL, GREATER, NOTEQUAL. ok is false for an
// undefined function. spec: vortex-hardware-facts §5; vortexpipe §3.7 (all 8 1:1)
func OMCompare(f CompareFunc) (abi.CompareFunc, bool) {
	switch f {
	case FuncNever:
		return abi.CmpNever, true
	case FuncLess:
		return abi.CmpLess, true
	case FuncEqual:
		return abi.CmpEqual, true
	case FuncLEqual:
		return abi.CmpLEqual, true
	case FuncGreater:
		return abi.CmpGreater, true
	case FuncNotEqual:
		return abi.CmpNotEqual, true
	case FuncGEqual:
		return abi.CmpGEqual, true
	case FuncAlways:
		return abi.CmpAlways, true
	}
	return 0, false
}

// OMStencilOp maps a stencil operation to the OM's code (INVERT and the wrapping
// forms sit in a different order). spec: vortex-hardware-facts §5
func OMStencilOp(o StencilOp) (abi.StencilOp, bool) {
	switch o {
	case StencilKeep:
		return abi.StencilKeep, true
	case StencilZero:
		return abi.StencilZero, true
	case StencilReplace:
		return abi.StencilReplace, true
	case StencilIncr:
		return abi.StencilIncr, true
	case StencilDecr:
		return abi.StencilDecr, true
	case StencilIncrWrap:
		return abi.StencilIncrWrap, true
	case StencilDecrWrap:
		return abi.StencilDecrWrap, true
	case StencilInvert:
		return abi.StencilInvert, true
	}
	return 0, false
}

// OMBlendFactor maps a blend factor to the OM's code. The OM's SRC_RGB/DST_RGB
// factors use all four channels, so as an alpha factor they are GL's SRC_COLOR/
// DST_COLOR exactly; CONST_A is the constant's alpha on every channel, which is
// CONSTANT_ALPHA exactly (it is not collapsed to ONE). Dual-source factors have no
// encoding: ok is false. spec: vortex-hardware-facts §5; vortexpipe §3.7
func OMBlendFactor(f BlendFactor) (abi.BlendFactor, bool) {
	switch f {
	case FactorZero:
		return abi.BlendZero, true
	case FactorOne:
		return abi.BlendOne, true
	case FactorSrcColor:
		return abi.BlendSrcRGB, true
	case FactorInvSrcColor:
		return abi.BlendOneMinusSrcRGB, true
	case FactorSrcAlpha:
		return abi.BlendSrcA, true
	case FactorInvSrcAlpha:
		return abi.BlendOneMinusSrcA, true
	case FactorDstColor:
		return abi.BlendDstRGB, true
	case FactorInvDstColor:
		return abi.BlendOneMinusDstRGB, true
	case FactorDstAlpha:
		return abi.BlendDstA, true
	case FactorInvDstAlpha:
		return abi.BlendOneMinusDstA, true
	case FactorConstColor:
		return abi.BlendConstRGB, true
	case FactorInvConstColor:
		return abi.BlendOneMinusConstRGB, true
	case FactorConstAlpha:
		return abi.BlendConstA, true
	case FactorInvConstAlpha:
		return abi.BlendOneMinusConstA, true
	case FactorSrcAlphaSaturate:
		return abi.BlendAlphaSat, true
	}
	return 0, false
}

// OMBlendMode maps a blend equation to the OM's mode. spec: vortex-hardware-facts §5
func OMBlendMode(e BlendEquation) (abi.BlendMode, bool) {
	switch e {
	case EqAdd:
		return abi.BlendAdd, true
	case EqSubtract:
		return abi.BlendSub, true
	case EqReverseSubtract:
		return abi.BlendRevSub, true
	case EqMin:
		return abi.BlendMin, true
	case EqMax:
		return abi.BlendMax, true
	}
	return 0, false
}

// OMLogicOp maps a logic op (GL order) to the OM's code. spec: vortex-hardware-facts §5
func OMLogicOp(o LogicOp) (abi.LogicOp, bool) {
	switch o {
	case LogicClear:
		return abi.LogicClear, true
	case LogicNor:
		return abi.LogicNor, true
	case LogicAndInverted:
		return abi.LogicAndInverted, true
	case LogicCopyInverted:
		return abi.LogicCopyInverted, true
	case LogicAndReverse:
		return abi.LogicAndReverse, true
	case LogicInvert:
		return abi.LogicInvert, true
	case LogicXor:
		return abi.LogicXor, true
	case LogicNand:
		return abi.LogicNand, true
	case LogicAnd:
		return abi.LogicAnd, true
	case LogicEquiv:
		return abi.LogicEquiv, true
	case LogicNoop:
		return abi.LogicNoop, true
	case LogicOrInverted:
		return abi.LogicOrInverted, true
	case LogicCopy:
		return abi.LogicCopy, true
	case LogicOrReverse:
		return abi.LogicOrReverse, true
	case LogicOr:
		return abi.LogicOr, true
	case LogicSet:
		return abi.LogicSet, true
	}
	return 0, false
}

// TexWrapEncoding maps a wrap mode to the TEX wrap code. ff reports whether the
// fixed-function unit implements it (CLAMP/REPEAT/MIRROR/BORDER); MIRROR_CLAMP_TO_EDGE
// has a code only the software sampler decodes (ok, !ff); legacy CLAMP and the
// other mirror-clamp forms have no encoding at all (!ok). spec: vortexpipe §3.6;
// vortex-hardware-facts §4
func TexWrapEncoding(w Wrap) (code abi.TexWrap, ff, ok bool) {
	switch w {
	case WrapRepeat:
		return abi.WrapRepeat, true, true
	case WrapClampToEdge:
		return abi.WrapClamp, true, true
	case WrapClampToBorder:
		return abi.WrapBorder, true, true
	case WrapMirrorRepeat:
		return abi.WrapMirror, true, true
	case WrapMirrorClampToEdge:
		return abi.WrapMirrorClamp, false, true
	}
	return 0, false, false
}

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
