package swtex

import (
	"vortexgfx/abi"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// formatCodes maps the descriptor's format codes to the reference formats.
var formatCodes = [...]struct {
	code abi.SWTexFormat
	f    format.Format
}{
	{abi.SWTexRGBA8, format.RGBA8}, {abi.SWTexBGRA8, format.BGRA8}, {abi.SWTexSRGB8A8, format.SRGB8A8},
	{abi.SWTexR8, format.R8}, {abi.SWTexRG8, format.RG8}, {abi.SWTexRGBA16F, format.RGBA16F},
	{abi.SWTexR32F, format.R32F}, {abi.SWTexRG32F, format.RG32F}, {abi.SWTexRGBA32F, format.RGBA32F},
	{abi.SWTexRGBA8I, format.RGBA8I}, {abi.SWTexRGBA8UI, format.RGBA8UI}, {abi.SWTexR32I, format.R32I},
	{abi.SWTexR32UI, format.R32UI}, {abi.SWTexD16, format.D16}, {abi.SWTexD24S8, format.D24S8},
	{abi.SWTexD32F, format.D32F}, {abi.SWTexS8, format.S8}, {abi.SWTexRGBA8SNorm, format.RGBA8SNorm},
	{abi.SWTexRGBA16, format.RGBA16}, {abi.SWTexR16F, format.R16F}, {abi.SWTexRG16F, format.RG16F},
	{abi.SWTexRGBA16I, format.RGBA16I}, {abi.SWTexRGBA16UI, format.RGBA16UI}, {abi.SWTexRG32I, format.RG32I},
	{abi.SWTexRG32UI, format.RG32UI}, {abi.SWTexRGBA32I, format.RGBA32I}, {abi.SWTexRGBA32UI, format.RGBA32UI},
}

// FormatCode returns the descriptor code of a reference format.
// spec: vortexpipe-driver §3.6 (format rows)
func FormatCode(f format.Format) (abi.SWTexFormat, bool) {
	for _, c := range formatCodes {
		if c.f == f {
			return c.code, true
		}
	}
	return 0, false
}

// Format returns the reference format of a descriptor code.
// spec: vortexpipe-driver §3.6 (format rows)
func Format(c abi.SWTexFormat) (format.Format, bool) {
	for _, e := range formatCodes {
		if e.code == c {
			return e.f, true
		}
	}
	return format.Invalid, false
}

var targets = [...]struct {
	t abi.SWTexTarget
	d sampler.Dim
}{
	{abi.SWTex1D, sampler.Dim1D}, {abi.SWTex2D, sampler.Dim2D}, {abi.SWTex3D, sampler.Dim3D},
	{abi.SWTexCube, sampler.DimCube}, {abi.SWTex1DArray, sampler.Dim1DArray},
	{abi.SWTex2DArray, sampler.Dim2DArray}, {abi.SWTexCubeArray, sampler.DimCubeArray},
	{abi.SWTexBuffer, sampler.DimBuffer},
}

func targetOf(d sampler.Dim) (abi.SWTexTarget, bool) {
	for _, e := range targets {
		if e.d == d {
			return e.t, true
		}
	}
	return 0, false
}

func dimOf(t abi.SWTexTarget) sampler.Dim {
	for _, e := range targets {
		if e.t == t {
			return e.d
		}
	}
	return 0
}

// wrapOf is the wrap mode a descriptor's wrap code encodes; an undefined
// code reads as CLAMP_TO_EDGE.
func wrapOf(c abi.TexWrap) sampler.Wrap {
	if w, ok := sampler.WrapFromSWTex(c); ok {
		return w
	}
	return sampler.ClampToEdge
}

// compareOf is the comparison an OM compare code in a descriptor encodes;
// an undefined code reads as NEVER.
func compareOf(c abi.CompareFunc) compare.Func {
	f, _ := compare.FromOM(c) // 0, NEVER, when undefined
	return f
}
