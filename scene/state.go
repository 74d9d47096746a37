package scene

import (
	"fmt"
	"sort"
	"strings"
)

// CompareFunc is a depth comparison (GL's glDepthFunc set).
type CompareFunc uint8

// Depth comparisons.
const (
	CompareNever CompareFunc = iota
	CompareLess
	CompareEqual
	CompareLequal
	CompareGreater
	CompareNotequal
	CompareGequal
	CompareAlways
)

// CullMode selects which faces are discarded.
type CullMode uint8

// Cull modes.
const (
	CullNone CullMode = iota
	CullFront
	CullBack
	CullFrontAndBack
)

// FrontFace says which winding is front-facing.
type FrontFace uint8

// Front-face windings.
const (
	FrontCCW FrontFace = iota
	FrontCW
)

// BlendEquation combines source and destination terms (glBlendEquation).
type BlendEquation uint8

// Blend equations.
const (
	BlendAdd BlendEquation = iota
	BlendSubtract
	BlendReverseSubtract
	BlendMin
	BlendMax
)

// BlendFactor scales a blend term (glBlendFunc).
type BlendFactor uint8

// Blend factors.
const (
	BlendZero BlendFactor = iota
	BlendOne
	BlendSrcColor
	BlendOneMinusSrcColor
	BlendDstColor
	BlendOneMinusDstColor
	BlendSrcAlpha
	BlendOneMinusSrcAlpha
	BlendDstAlpha
	BlendOneMinusDstAlpha
	BlendConstantColor
	BlendOneMinusConstantColor
	BlendConstantAlpha
	BlendOneMinusConstantAlpha
	BlendSrcAlphaSaturate
)

var (
	compareNames   = []string{"never", "less", "equal", "lequal", "greater", "notequal", "gequal", "always"}
	cullNames      = []string{"none", "front", "back", "front_and_back"}
	frontNames     = []string{"ccw", "cw"}
	equationNames  = []string{"add", "subtract", "reverse_subtract", "min", "max"}
	blendFactNames = []string{"zero", "one", "src_color", "one_minus_src_color", "dst_color", "one_minus_dst_color",
		"src_alpha", "one_minus_src_alpha", "dst_alpha", "one_minus_dst_alpha", "constant_color",
		"one_minus_constant_color", "constant_alpha", "one_minus_constant_alpha", "src_alpha_saturate"}
)

func enumName(names []string, v uint8) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%d", v)
}

// String returns the scene-file name.
func (c CompareFunc) String() string { return enumName(compareNames, uint8(c)) }

// String returns the scene-file name.
func (c CullMode) String() string { return enumName(cullNames, uint8(c)) }

// String returns the scene-file name.
func (f FrontFace) String() string { return enumName(frontNames, uint8(f)) }

// String returns the scene-file name.
func (e BlendEquation) String() string { return enumName(equationNames, uint8(e)) }

// String returns the scene-file name.
func (f BlendFactor) String() string { return enumName(blendFactNames, uint8(f)) }

// parseEnum maps a scene-file name to its index in names ("" gives def).
func parseEnum(names []string, s string, def uint8) (uint8, error) {
	if s == "" {
		return def, nil
	}
	for i, n := range names {
		if n == s {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not one of %s", s, strings.Join(names, ", "))
}

func parseNamed[T ~uint16](m map[T]string, s string, def T) (T, error) {
	if s == "" {
		return def, nil
	}
	var names []string
	for k, n := range m {
		if n == s {
			return k, nil
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return 0, fmt.Errorf("%q is not one of %s", s, strings.Join(names, ", "))
}

// BlendState is one draw's colour blending (glBlendEquationSeparate,
// glBlendFuncSeparate, glBlendColor).
type BlendState struct {
	Enable                     bool
	EquationRGB, EquationAlpha BlendEquation
	SrcRGB, DstRGB             BlendFactor
	SrcAlpha, DstAlpha         BlendFactor
	Color                      [4]float32
}

// PipelineState is one draw's fixed-function state. The zero value is
// GL's default except that it is spelled out: depth test off, LESS, depth
// writes on, no culling, counter-clockwise front faces, blending off with
// ADD and ONE/ZERO. spec: issue 7 "Scenes" (pipeline state).
type PipelineState struct {
	DepthTest  bool
	DepthFunc  CompareFunc
	DepthWrite bool
	Cull       CullMode
	FrontFace  FrontFace
	Blend      BlendState
}

// DefaultPipelineState returns GL's default state.
func DefaultPipelineState() PipelineState {
	return PipelineState{
		DepthFunc:  CompareLess,
		DepthWrite: true,
		Blend:      BlendState{SrcRGB: BlendOne, SrcAlpha: BlendOne, DstRGB: BlendZero, DstAlpha: BlendZero},
	}
}
