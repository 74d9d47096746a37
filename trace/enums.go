package trace

import (
	"fmt"

	"vortexgfx/abi"
)

// The trace's own enums (cocogfx CGLTrace). Their values differ from Vortex's and
// are translated by the To* methods. spec: vortex-hardware-facts §8

// Filter is CGLTrace::eTexFilter.
type Filter uint32

// The texture filters.
const (
	FilterNone Filter = iota
	FilterNearest
	FilterLinear
	FilterNearestMipmapNearest
	FilterLinearMipmapNearest
	FilterNearestMipmapLinear
	FilterLinearMipmapLinear
	numFilter
)

// Address is CGLTrace::eTexAddress.
type Address uint32

// The texture address modes.
const (
	AddressWrap Address = iota
	AddressClamp
	numAddress
)

// EnvMode is CGLTrace::eEnvMode.
type EnvMode uint32

// The texture environment modes.
const (
	EnvAdd EnvMode = iota
	EnvBlend
	EnvReplace
	EnvModulate
	EnvDecal
	numEnvMode
)

// Compare is CGLTrace::ecompare (GL order).
type Compare uint32

// The compare functions.
const (
	CompareNever Compare = iota
	CompareLess
	CompareEqual
	CompareLEqual
	CompareGreater
	CompareNotEqual
	CompareGEqual
	CompareAlways
	numCompare
)

// StencilOp is CGLTrace::eStencilOp.
type StencilOp uint32

// The stencil operations.
const (
	StencilKeep StencilOp = iota
	StencilReplace
	StencilIncr
	StencilDecr
	StencilZero
	StencilInvert
	numStencilOp
)

// BlendOp is CGLTrace::eBlendOp.
type BlendOp uint32

// The blend factors.
const (
	BlendZero BlendOp = iota
	BlendOne
	BlendSrcColor
	BlendOneMinusSrcColor
	BlendSrcAlpha
	BlendOneMinusSrcAlpha
	BlendDstAlpha
	BlendOneMinusDstAlpha
	BlendDstColor
	BlendOneMinusDstColor
	BlendSrcAlphaSaturate
	numBlendOp
)

// PixelFormat is cocogfx ePixelFormat.
type PixelFormat uint32

// The pixel formats a trace may use for textures.
const (
	FormatUnknown  PixelFormat = 0
	FormatA8       PixelFormat = 1
	FormatL8       PixelFormat = 2
	FormatA8L8     PixelFormat = 3
	FormatR5G6B5   PixelFormat = 4
	FormatA8R8G8B8 PixelFormat = 5
	FormatA1R5G5B5 PixelFormat = 6
	FormatR8G8B8   PixelFormat = 7
	FormatA4R4G4B4 PixelFormat = 8
)

// BytesPerPixel is the texel size of a texture format, 0 for one the FF TEX
// cannot sample.
func (f PixelFormat) BytesPerPixel() int {
	if t, err := f.ToTex(); err == nil {
		return t.Stride()
	}
	return 0
}

// ToTex translates a texture format to the TEX unit's code (gfx_draw3d toVXFormat).
func (f PixelFormat) ToTex() (abi.TexFormat, error) {
	switch f {
	case FormatA8R8G8B8:
		return abi.TexA8R8G8B8, nil
	case FormatR5G6B5:
		return abi.TexR5G6B5, nil
	case FormatA1R5G5B5:
		return abi.TexA1R5G5B5, nil
	case FormatA4R4G4B4:
		return abi.TexA4R4G4B4, nil
	case FormatA8L8:
		return abi.TexA8L8, nil
	case FormatL8:
		return abi.TexL8, nil
	case FormatA8:
		return abi.TexA8, nil
	}
	return 0, fmt.Errorf("trace: pixel format %d has no TEX equivalent", uint32(f))
}

// ToOM translates a compare function to the OM's code order.
func (c Compare) ToOM() abi.CompareFunc {
	return [numCompare]abi.CompareFunc{
		CompareNever: abi.CmpNever, CompareLess: abi.CmpLess, CompareEqual: abi.CmpEqual,
		CompareLEqual: abi.CmpLEqual, CompareGreater: abi.CmpGreater,
		CompareNotEqual: abi.CmpNotEqual, CompareGEqual: abi.CmpGEqual, CompareAlways: abi.CmpAlways,
	}[c%numCompare]
}

// ToOM translates a stencil operation.
func (s StencilOp) ToOM() abi.StencilOp {
	return [numStencilOp]abi.StencilOp{
		StencilKeep: abi.StencilKeep, StencilReplace: abi.StencilReplace, StencilIncr: abi.StencilIncr,
		StencilDecr: abi.StencilDecr, StencilZero: abi.StencilZero, StencilInvert: abi.StencilInvert,
	}[s%numStencilOp]
}

// ToOM translates a blend factor (gfx_draw3d toVXBlendFunc).
func (b BlendOp) ToOM() abi.BlendFactor {
	return [numBlendOp]abi.BlendFactor{
		BlendZero: abi.BlendZero, BlendOne: abi.BlendOne,
		BlendSrcColor: abi.BlendSrcRGB, BlendOneMinusSrcColor: abi.BlendOneMinusSrcRGB,
		BlendSrcAlpha: abi.BlendSrcA, BlendOneMinusSrcAlpha: abi.BlendOneMinusSrcA,
		BlendDstAlpha: abi.BlendDstA, BlendOneMinusDstAlpha: abi.BlendOneMinusDstA,
		BlendDstColor: abi.BlendDstRGB, BlendOneMinusDstColor: abi.BlendOneMinusDstRGB,
		BlendSrcAlphaSaturate: abi.BlendAlphaSat,
	}[b%numBlendOp]
}
