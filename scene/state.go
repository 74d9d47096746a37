package scene

import (
	"fmt"
	"sort"
	"strings"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
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

var (
	cullNames  = []string{"none", "front", "back", "front_and_back"}
	frontNames = []string{"ccw", "cw"}
)

// named is one scene-file name of an enum value.
type named[T any] struct {
	v    T
	name string
}

// The scene-file names of the depth functions, blend equations and blend
// factors (the GL enums without GL_, lower case; no dual-source factors), in
// GL's order.
var (
	compareNames = []named[compare.Func]{{compare.Never, "never"}, {compare.Less, "less"}, {compare.Equal, "equal"},
		{compare.LessEqual, "lequal"}, {compare.Greater, "greater"}, {compare.NotEqual, "notequal"},
		{compare.GreaterEqual, "gequal"}, {compare.Always, "always"}}
	equationNames = []named[blend.Equation]{{blend.Add, "add"}, {blend.Subtract, "subtract"},
		{blend.ReverseSubtract, "reverse_subtract"}, {blend.Min, "min"}, {blend.Max, "max"}}
	blendFactNames = []named[blend.Factor]{{blend.Zero, "zero"}, {blend.One, "one"}, {blend.SrcColor, "src_color"},
		{blend.OneMinusSrcColor, "one_minus_src_color"}, {blend.DstColor, "dst_color"},
		{blend.OneMinusDstColor, "one_minus_dst_color"}, {blend.SrcAlpha, "src_alpha"},
		{blend.OneMinusSrcAlpha, "one_minus_src_alpha"}, {blend.DstAlpha, "dst_alpha"},
		{blend.OneMinusDstAlpha, "one_minus_dst_alpha"}, {blend.ConstantColor, "constant_color"},
		{blend.OneMinusConstantColor, "one_minus_constant_color"}, {blend.ConstantAlpha, "constant_alpha"},
		{blend.OneMinusConstantAlpha, "one_minus_constant_alpha"}, {blend.SrcAlphaSaturate, "src_alpha_saturate"}}
)

// parseList maps a scene-file name to its value in list ("" gives def).
func parseList[T any](list []named[T], s string, def T) (T, error) {
	if s == "" {
		return def, nil
	}
	names := make([]string, len(list))
	for i, n := range list {
		if n.name == s {
			return n.v, nil
		}
		names[i] = n.name
	}
	return def, fmt.Errorf("%q is not one of %s", s, strings.Join(names, ", "))
}

func enumName(names []string, v uint8) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%d", v)
}

// String returns the scene-file name.
func (c CullMode) String() string { return enumName(cullNames, uint8(c)) }

// String returns the scene-file name.
func (f FrontFace) String() string { return enumName(frontNames, uint8(f)) }

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
	EquationRGB, EquationAlpha blend.Equation
	SrcRGB, DstRGB             blend.Factor
	SrcAlpha, DstAlpha         blend.Factor
	Color                      [4]float32
}

// PipelineState is one draw's fixed-function state. The zero value is
// GL's default except that it is spelled out: depth test off, LESS, depth
// writes on, no culling, counter-clockwise front faces, blending off with
// ADD and ONE/ZERO (the scene file's "state", package doc).
type PipelineState struct {
	DepthTest  bool
	DepthFunc  compare.Func
	DepthWrite bool
	Cull       CullMode
	FrontFace  FrontFace
	Blend      BlendState
}

// DefaultPipelineState returns GL's default state.
func DefaultPipelineState() PipelineState {
	return PipelineState{
		DepthFunc:  compare.Less,
		DepthWrite: true,
		Blend:      BlendState{SrcRGB: blend.One, SrcAlpha: blend.One, DstRGB: blend.Zero, DstAlpha: blend.Zero},
	}
}
