// Package swom is the software output merger of the device fragment path: the
// arithmetic the FS wrapper runs on the SIMT cores, over the colour and
// depth/stencil planes in device memory, when a draw's output-merger state is
// one the fixed-function OM cannot encode (gfx_om_fragment_sw,
// gfx_om_fragment_mrt_sw and gfx_om_fragment_msaa_sw of vortexpipe §3.4).
//
// It covers every colour attachment format of package gl/format (sRGB, R8,
// RG8, float and integer formats included), D24S8 (the device word: stencil in
// [31:24], depth in [23:0], as the FF OM stores it), D16, D32F and S8
// depth/stencil planes, up to MaxTargets render targets, 1, 2, 4, 8 or 16
// samples per pixel (gl/msaa's standard counts; the spec's hardware takes 1
// and 4) in sample-major planes (texel (y·w + x)·S + k), the 8 depth compares,
// two-sided stencil, 5 blend equations with all blend factors including
// CONSTANT_ALPHA and the dual-source SRC1 factors, the 16 logic ops, RGBA
// write masks, the alpha test, alpha-to-coverage and alpha-to-one, the
// depth-bounds test, depth clamping, and the box-filter resolve.
//
// The GL maths is the gl tree's, shared with the reference renderer and the
// FF OM: formats (gl/format), compare functions (gl/compare), stencil ops
// (gl/stencil), logic ops (gl/logicop) and blending (gl/blend). Unorm8
// attachments (RGBA8, BGRA8, R8, RG8) blend with blend.Func.Unorm8, the FF
// OM's 8-bit arithmetic (facts §5: (s·fs + d·fd + 0x80) through Div255), so a
// draw forced to the software merger writes the same bytes as the FF unit;
// every other format blends with blend.Func.Float, as GL 4.6 §17.3.6 says.
// The state holds the gl enums; the descriptor and the FF DCRs carry them as
// OM codes through their explicit mappings (Factor.SWOM, Func.OM, ...).
//
// The state reaches the device as a descriptor (State.Marshal, read back by
// Unmarshal in the FS wrapper) at FS arg slot abi.ArgFSSWMerger.
// spec: vortexpipe §2.3.3, §3.4, §3.4.1, §3.7; vortex-hardware-facts §5
package swom

import (
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/msaa"
	"vortexgfx/gl/stencil"
)

// MaxTargets is the most colour attachments the software merger takes (the FF
// OM has abi.OMMaxRT banks).
const MaxTargets = abi.SWOMMaxTargets

// Blend is one render target's blend state and colour write mask.
type Blend struct {
	Enable       bool
	EqRGB, EqA   blend.Equation // the logic op is not an equation: see State.LogicOp
	SrcRGB, SrcA blend.Factor
	DstRGB, DstA blend.Factor
	WriteMask    uint8 // bit 0 R, 1 G, 2 B, 3 A
}

// fn is b's blend function.
func (b *Blend) fn() blend.Func {
	return blend.Func{EqRGB: b.EqRGB, EqAlpha: b.EqA, SrcRGB: b.SrcRGB, DstRGB: b.DstRGB, SrcAlpha: b.SrcA, DstAlpha: b.DstA}
}

// usesSrc1 reports whether b's factors read the second source colour.
func (b *Blend) usesSrc1() bool { return b.fn().UsesSrc1() }

// Face is the stencil state of one facing.
type Face struct {
	Func                     compare.Func // ref&ReadMask FUNC stored&ReadMask
	Fail, ZFail, ZPass       stencil.Op
	Ref, ReadMask, WriteMask uint8
}

// Target is one colour attachment: its format, plane address and blend state.
type Target struct {
	Format format.Format
	Addr   uint64
	Blend  Blend
}

// State is the whole per-draw merger state plus the planes it writes.
type State struct {
	Width, Height int
	Samples       int // 1, 2, 4, 8 or 16 (msaa.Valid)
	NumTargets    int
	Targets       [MaxTargets]Target

	// The depth/stencil plane; HasDS false means no depth/stencil attachment.
	HasDS       bool
	DepthFormat abi.OMDepthFormat
	DSAddr      uint64

	DepthTest  bool
	DepthFunc  compare.Func
	DepthWrite bool

	StencilTest bool
	Front, Back Face

	// DepthBounds discards fragments whose stored depth is outside
	// [BoundsMin, BoundsMax]; DepthClamp clamps the fragment depth to
	// [ClampMin, ClampMax] (the depth range).
	DepthBounds          bool
	BoundsMin, BoundsMax float32
	DepthClamp           bool
	ClampMin, ClampMax   float32

	// AlphaTest compares target 0's alpha against AlphaRef (legacy GL).
	AlphaTest bool
	AlphaFunc compare.Func
	AlphaRef  float32

	AlphaToCoverage, AlphaToOne bool

	// LogicOpEnable applies LogicOp to unorm (non-sRGB) and integer targets
	// instead of blending, as Vulkan and GL do.
	LogicOpEnable bool
	LogicOp       logicop.Op

	// DualSource makes Fragment.Src1 the second source of target 0.
	DualSource bool

	Constant [4]float32 // blend constant, RGBA
}

// DepthBytes is the texel size of a depth/stencil plane format.
func DepthBytes(f abi.OMDepthFormat) int {
	switch f {
	case abi.OMDepthD16:
		return 2
	case abi.OMDepthS8:
		return 1
	}
	return 4
}

// Check validates the state; the error names the field.
func (s *State) Check() error {
	switch {
	case s.Width < 1 || s.Height < 1 || s.Width > 1<<15 || s.Height > 1<<15:
		return fmt.Errorf("swom: target %dx%d out of range", s.Width, s.Height)
	case !msaa.Valid(s.Samples):
		return fmt.Errorf("swom: %d samples (1, 2, 4, 8 or 16)", s.Samples)
	case s.NumTargets < 0 || s.NumTargets > MaxTargets:
		return fmt.Errorf("swom: %d colour targets (at most %d)", s.NumTargets, MaxTargets)
	case s.HasDS && s.DepthFormat > abi.OMDepthS8:
		return fmt.Errorf("swom: depth format %d", s.DepthFormat)
	case !s.DepthFunc.Valid() || !s.AlphaFunc.Valid() || !s.LogicOp.Valid():
		return fmt.Errorf("swom: depth func %d / alpha func %d / logic op %d out of range", s.DepthFunc, s.AlphaFunc, s.LogicOp)
	}
	for i, f := range []*Face{&s.Front, &s.Back} {
		if !f.Func.Valid() || !f.Fail.Valid() || !f.ZFail.Valid() || !f.ZPass.Valid() {
			return fmt.Errorf("swom: stencil face %d: func/op out of range", i)
		}
	}
	for i := 0; i < s.NumTargets; i++ {
		t := &s.Targets[i]
		if !t.Format.IsColor() {
			return fmt.Errorf("swom: target %d: %v is not a colour format", i, t.Format)
		}
		b := &t.Blend
		if !b.EqRGB.Valid() || !b.EqA.Valid() {
			return fmt.Errorf("swom: target %d: blend equation %d/%d out of range", i, b.EqRGB, b.EqA)
		}
		for _, f := range []blend.Factor{b.SrcRGB, b.SrcA, b.DstRGB, b.DstA} {
			if !f.Valid() {
				return fmt.Errorf("swom: target %d: blend factor %d out of range", i, f)
			}
		}
	}
	return nil
}

// TexelIndex is the sample-major plane index of sample k of pixel (x, y).
// spec: vortexpipe §3.4.1
func (s *State) TexelIndex(x, y, k int) int { return (y*s.Width+x)*s.Samples + k }

// Fragment is one shaded fragment as the merger takes it: the output words of
// each target (float bits for unorm, snorm and float targets, integer bits for
// integer targets), the dual-source second colour, and its facing.
type Fragment struct {
	Color [MaxTargets][4]uint32
	Src1  [4]float32
	Back  bool
}

// Depth is a fragment depth: Z24 in the FF OM's convention (the Q7.24 plane
// value, z·2^24 clamped to 0xFFFFFF), which D24S8 planes compare and store
// exactly as the FF unit does, and F the same depth as a float for D16 and
// D32F planes.
type Depth struct {
	Z24 uint32
	F   float32
}

// PlaneDepth is the depth of a Q7.24 plane value already clamped to
// [0, 0xFFFFFF] (the wrapper's plane_z). spec: vortexpipe §3.4
func PlaneDepth(z24 uint32) Depth {
	z24 &= abi.DepthMask
	return Depth{Z24: z24, F: float32(float64(z24) / (1 << 24))}
}

// FloatDepth is the depth of a float window depth (gl_FragDepth), clamped to
// [0, 1].
func FloatDepth(z float32) Depth {
	switch {
	case !(z > 0):
		z = 0
	case z > 1:
		z = 1
	}
	return Depth{Z24: min(uint32(float64(z)*(1<<24)), abi.DepthMask), F: z}
}

// Coverage applies the per-fragment tests to a sample mask before any sample
// is merged: the alpha test (the whole fragment), alpha-to-coverage (the
// first round(α·S) samples of the standard pattern are kept) and alpha-to-one
// (target 0's alpha becomes 1). It returns the surviving mask.
// spec: vortexpipe §3.7 (alpha test, alpha_to_coverage / alpha_to_one)
func (s *State) Coverage(f *Fragment, mask msaa.Mask) msaa.Mask {
	if s.NumTargets == 0 || s.Targets[0].Format.IsInteger() {
		return mask
	}
	a := math.Float32frombits(f.Color[0][3])
	if s.AlphaTest && !s.AlphaFunc.Test(a, s.AlphaRef) {
		return 0
	}
	if s.AlphaToCoverage {
		c := min(max(a, 0), 1)
		if c != c {
			c = 0
		}
		n := int(math.Floor(float64(c)*float64(s.Samples) + 0.5))
		mask &= msaa.Full(n)
	}
	if s.AlphaToOne {
		f.Color[0][3] = math.Float32bits(1)
	}
	return mask
}
