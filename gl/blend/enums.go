// Package blend holds GL's blend factors and equations: the one enum of each
// the reference renderer, the driver, the scene format, the software merger
// and the FF OM use, the blend itself in float (GL 4.6 §17.3.6) and in the
// unorm8 fixed point the OM computes it in (vortex-hardware-facts §5), and
// the mappings into the OM's codes (abi.BlendFactor, abi.BlendMode), which
// order the factors differently and have no dual-source factors.
//
// The unorm8 form is GL's equation evaluated exactly in integers and rounded
// to nearest, so the software merger and the FF unit, which both use it,
// write the bytes GL's float blend followed by the unorm8 store would.
package blend

import (
	"fmt"

	"vortexgfx/abi"
)

// Factor is a blend factor (GL 4.6 table 17.2) in the order of its rows:
// the OM's fifteen, then the dual-source factors (ARB_blend_func_extended).
type Factor uint8

// The blend factors. The *Color factors scale every channel by that
// colour's channel, alpha by its alpha; the *Alpha factors scale every
// channel by the alpha; SrcAlphaSaturate is min(As, 1-Ad) on RGB and 1 on
// alpha.
const (
	Zero Factor = iota
	One
	SrcColor
	OneMinusSrcColor
	DstColor
	OneMinusDstColor
	SrcAlpha
	OneMinusSrcAlpha
	DstAlpha
	OneMinusDstAlpha
	ConstantColor
	OneMinusConstantColor
	ConstantAlpha
	OneMinusConstantAlpha
	SrcAlphaSaturate
	Src1Color
	OneMinusSrc1Color
	Src1Alpha
	OneMinusSrc1Alpha
	// NumFactors is the number of defined factors.
	NumFactors
)

var factorNames = [NumFactors]string{"ZERO", "ONE", "SRC_COLOR", "ONE_MINUS_SRC_COLOR", "DST_COLOR",
	"ONE_MINUS_DST_COLOR", "SRC_ALPHA", "ONE_MINUS_SRC_ALPHA", "DST_ALPHA", "ONE_MINUS_DST_ALPHA",
	"CONSTANT_COLOR", "ONE_MINUS_CONSTANT_COLOR", "CONSTANT_ALPHA", "ONE_MINUS_CONSTANT_ALPHA",
	"SRC_ALPHA_SATURATE", "SRC1_COLOR", "ONE_MINUS_SRC1_COLOR", "SRC1_ALPHA", "ONE_MINUS_SRC1_ALPHA"}

// Valid reports whether f is a defined factor.
func (f Factor) Valid() bool { return f < NumFactors }

// String names the factor as GL does, without the GL_ prefix.
func (f Factor) String() string {
	if f.Valid() {
		return factorNames[f]
	}
	return fmt.Sprintf("blend.Factor(%d)", uint8(f))
}

// DualSource reports whether f reads the second source colour.
func (f Factor) DualSource() bool { return f >= Src1Color && f < NumFactors }

// omFactors is the OM's code of each single-source factor. The OM's
// SRC_RGB/DST_RGB/CONST_RGB use all four channels, so as an alpha factor
// they are GL's *_COLOR exactly, and CONST_A is the constant's alpha on
// every channel, GL's CONSTANT_ALPHA. spec: vortex-hardware-facts §5
var omFactors = [Src1Color]abi.BlendFactor{
	Zero: abi.BlendZero, One: abi.BlendOne,
	SrcColor: abi.BlendSrcRGB, OneMinusSrcColor: abi.BlendOneMinusSrcRGB,
	DstColor: abi.BlendDstRGB, OneMinusDstColor: abi.BlendOneMinusDstRGB,
	SrcAlpha: abi.BlendSrcA, OneMinusSrcAlpha: abi.BlendOneMinusSrcA,
	DstAlpha: abi.BlendDstA, OneMinusDstAlpha: abi.BlendOneMinusDstA,
	ConstantColor: abi.BlendConstRGB, OneMinusConstantColor: abi.BlendOneMinusConstRGB,
	ConstantAlpha: abi.BlendConstA, OneMinusConstantAlpha: abi.BlendOneMinusConstA,
	SrcAlphaSaturate: abi.BlendAlphaSat,
}

// OM maps f to the OM's blend-factor code (OM_BLEND_FUNC). ok is false for
// the dual-source factors, which the FF unit has no form of, and for an
// undefined f. spec: vortex-hardware-facts §5; vortexpipe §3.7
func (f Factor) OM() (abi.BlendFactor, bool) {
	if f >= Src1Color {
		return 0, false
	}
	return omFactors[f], true
}

// FactorFromOM is the inverse of OM: the factor an OM code encodes. ok is
// false for a code outside 0..14.
func FactorFromOM(c abi.BlendFactor) (Factor, bool) {
	for f, e := range omFactors {
		if e == c {
			return Factor(f), true
		}
	}
	return 0, false
}

// SWOM maps f to the software merger's descriptor code
// (abi.SWOMFactor*): the OM's code for the single-source factors, then the
// dual-source codes 15..18. ok is false for an undefined f.
func (f Factor) SWOM() (abi.BlendFactor, bool) {
	switch f {
	case Src1Color:
		return abi.SWOMFactorSrc1Color, true
	case OneMinusSrc1Color:
		return abi.SWOMFactorOneMinusSrc1Color, true
	case Src1Alpha:
		return abi.SWOMFactorSrc1Alpha, true
	case OneMinusSrc1Alpha:
		return abi.SWOMFactorOneMinusSrc1Alpha, true
	}
	return f.OM()
}

// FactorFromSWOM is the inverse of SWOM. ok is false for a code outside
// 0..18.
func FactorFromSWOM(c abi.BlendFactor) (Factor, bool) {
	for f := range NumFactors {
		if e, _ := f.SWOM(); e == c {
			return f, true
		}
	}
	return 0, false
}

// Equation is a blend equation (GL 4.6 table 17.1). Min and Max ignore the
// factors.
type Equation uint8

// The blend equations.
const (
	Add Equation = iota
	Subtract
	ReverseSubtract
	Min
	Max
	// NumEquations is the number of defined equations.
	NumEquations
)

// Valid reports whether e is a defined equation.
func (e Equation) Valid() bool { return e < NumEquations }

// String names the equation as GL does, without the GL_FUNC_ prefix.
func (e Equation) String() string {
	names := [...]string{"ADD", "SUBTRACT", "REVERSE_SUBTRACT", "MIN", "MAX"}
	if e.Valid() {
		return names[e]
	}
	return fmt.Sprintf("blend.Equation(%d)", uint8(e))
}

// omModes is the OM's code of each equation. spec: vortex-hardware-facts §5
var omModes = [NumEquations]abi.BlendMode{
	Add: abi.BlendAdd, Subtract: abi.BlendSub, ReverseSubtract: abi.BlendRevSub, Min: abi.BlendMin, Max: abi.BlendMax,
}

// OM maps e to the OM's blend-mode code (OM_BLEND_MODE; LOGICOP is not an
// equation but the logic op taking the blend's place). ok is false for an
// undefined e. spec: vortex-hardware-facts §5
func (e Equation) OM() (abi.BlendMode, bool) {
	if !e.Valid() {
		return 0, false
	}
	return omModes[e], true
}

// EquationFromOM is the inverse of OM: the equation an OM mode encodes. ok
// is false for LOGICOP and undefined codes.
func EquationFromOM(m abi.BlendMode) (Equation, bool) {
	for e, c := range omModes {
		if c == m {
			return Equation(e), true
		}
	}
	return 0, false
}
