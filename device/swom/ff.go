package swom

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
)

// FFWhy reports why the fixed-function OM cannot run this state ("" when it
// can): the FF unit takes 1 sample, up to abi.OMMaxRT targets in
// A8R8G8B8 (BGRA8, or RGBA8 packed in its own byte order through the variant
// key's bgra mask), a D24S8 plane, and none of the per-fragment extras; a
// multi-target draw that writes depth or stencil runs on the software merger
// (each export would re-run the depth/stencil stage).
// spec: vortexpipe §2.3.3, §3.7
func (s *State) FFWhy() string {
	switch {
	case s.Samples != 1:
		return fmt.Sprintf("%d samples per pixel", s.Samples)
	case s.NumTargets > abi.OMMaxRT:
		return fmt.Sprintf("%d colour targets", s.NumTargets)
	case s.HasDS && s.DepthFormat != abi.OMDepthD24S8:
		return "a depth/stencil format other than D24S8"
	case s.AlphaTest:
		return "the alpha test"
	case s.AlphaToCoverage || s.AlphaToOne:
		return "alpha-to-coverage / alpha-to-one"
	case s.DepthBounds:
		return "the depth-bounds test"
	case s.DepthClamp && (s.ClampMin > 0 || s.ClampMax < 1):
		// (To [0, 1] the FF path clamps already: the plane depth is
		// clamped to the Z24 range by early-Z and the export.)
		return "depth clamping to a range inside [0, 1]"
	case s.DualSource:
		return "dual-source blending"
	case s.HasDS && s.DSAddr%64 != 0:
		return "an unaligned depth plane"
	}
	if s.NumTargets > 1 && s.HasDS && (s.DepthTest && s.DepthWrite || s.StencilTest && (s.Front.WriteMask|s.Back.WriteMask) != 0) {
		return "several colour targets with depth/stencil writes"
	}
	for i := 0; i < s.NumTargets; i++ {
		t := &s.Targets[i]
		if t.Format != format.BGRA8 && t.Format != format.RGBA8 {
			return fmt.Sprintf("a %v colour target", t.Format)
		}
		if t.Addr%64 != 0 {
			return "an unaligned colour plane"
		}
		if t.Blend.Enable && t.Blend.usesSrc1() {
			return "dual-source blend factors"
		}
	}
	return ""
}

// ffMask maps an RGBA write mask onto the FF bits of a target's byte order
// (bit i is byte i of the word: B, G, R, A for BGRA8; R, G, B, A for RGBA8).
func ffMask(f format.Format, m uint8) uint32 {
	m &= 0xF
	if f == format.RGBA8 {
		return uint32(m)
	}
	return uint32(m&1)<<2 | uint32(m&2) | uint32(m>>2&1) | uint32(m&8)
}

// PackColor packs RGBA unorm8 channels in a target's byte order as one
// little-endian word (BGRA8 is the FF A8R8G8B8 word).
func PackColor(f format.Format, r, g, b, a uint32) uint32 {
	if f == format.RGBA8 {
		return a<<24 | b<<16 | g<<8 | r
	}
	return a<<24 | r<<16 | g<<8 | b
}

// FFDCRs returns the OM DCR writes that make the FF unit run this state (FFWhy
// must be ""): each target's bank under RT_SELECT — plane, pitch, write mask,
// blend mode/func/constant and logic op in that target's byte order — then the
// shared depth/stencil state (two-sided, front in the low half) and the
// early-Z gate, armed only for a monotone depth compare without stencil or
// blending. spec: vortexpipe §3.3 step 2
func (s *State) FFDCRs() ([]abi.DCRPair, error) {
	if why := s.FFWhy(); why != "" {
		return nil, fmt.Errorf("swom: the FF OM cannot run %s", why)
	}
	var out []abi.DCRPair
	dcr := func(a abi.DCR, v uint32) { out = append(out, abi.DCRPair{Addr: a, Value: v}) }
	var e omEncoder
	blended := false
	for i := 0; i < s.NumTargets; i++ {
		t := &s.Targets[i]
		b := &t.Blend
		dcr(abi.DCROMRTSelect, uint32(i))
		dcr(abi.DCROMCBufAddr, uint32(t.Addr>>6))
		dcr(abi.DCROMCBufPitch, uint32(4*s.Width))
		dcr(abi.DCROMCBufWriteMask, ffMask(t.Format, b.WriteMask))
		k := [4]uint32{}
		for c := range 4 {
			k[c] = format.UNorm(s.Constant[c], 8)
		}
		dcr(abi.DCROMBlendConst, PackColor(t.Format, k[0], k[1], k[2], k[3]))
		dcr(abi.DCROMLogicOp, e.logicOp(s.LogicOp))
		switch {
		case s.LogicOpEnable:
			dcr(abi.DCROMBlendMode, abi.PackHalves(uint32(abi.BlendLogicOp), uint32(abi.BlendLogicOp)))
			dcr(abi.DCROMBlendFunc, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero))
			blended = true
		case b.Enable:
			dcr(abi.DCROMBlendMode, abi.PackHalves(e.equation(b.EqRGB), e.equation(b.EqA)))
			dcr(abi.DCROMBlendFunc, abi.PackBlendFunc(e.factor(b.SrcRGB), e.factor(b.SrcA), e.factor(b.DstRGB), e.factor(b.DstA)))
			blended = true
		default:
			dcr(abi.DCROMBlendMode, abi.PackHalves(uint32(abi.BlendAdd), uint32(abi.BlendAdd)))
			dcr(abi.DCROMBlendFunc, abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero))
		}
	}
	for i := s.NumTargets; i < abi.OMMaxRT; i++ {
		dcr(abi.DCROMRTSelect, uint32(i))
		dcr(abi.DCROMCBufWriteMask, 0)
	}
	dcr(abi.DCROMRTSelect, 0)
	depth := s.HasDS && s.DepthTest
	stencil := s.HasDS && s.StencilTest
	if s.HasDS {
		dcr(abi.DCROMZBufAddr, uint32(s.DSAddr>>6))
		dcr(abi.DCROMZBufPitch, uint32(4*s.Width))
	}
	if depth {
		dcr(abi.DCROMDepthFunc, e.compare(s.DepthFunc))
		dcr(abi.DCROMDepthWriteMask, b2u(s.DepthWrite))
	} else {
		dcr(abi.DCROMDepthFunc, uint32(abi.CmpAlways))
		dcr(abi.DCROMDepthWriteMask, 0)
	}
	f, k := s.Front, s.Back
	if !stencil {
		f = Face{Func: compare.Always, ReadMask: 0xFF}
		k = f
	}
	dcr(abi.DCROMStencilFunc, abi.PackHalves(e.compare(f.Func), e.compare(k.Func)))
	dcr(abi.DCROMStencilZPass, abi.PackHalves(e.stencilOp(f.ZPass), e.stencilOp(k.ZPass)))
	dcr(abi.DCROMStencilZFail, abi.PackHalves(e.stencilOp(f.ZFail), e.stencilOp(k.ZFail)))
	dcr(abi.DCROMStencilFail, abi.PackHalves(e.stencilOp(f.Fail), e.stencilOp(k.Fail)))
	dcr(abi.DCROMStencilRef, abi.PackHalves(uint32(f.Ref), uint32(k.Ref)))
	dcr(abi.DCROMStencilMask, abi.PackHalves(uint32(f.ReadMask), uint32(k.ReadMask)))
	dcr(abi.DCROMStencilWriteMask, abi.PackHalves(uint32(f.WriteMask), uint32(k.WriteMask)))
	safe := depth && (s.DepthFunc == compare.Less || s.DepthFunc == compare.LessEqual) && !stencil && !blended
	dcr(abi.DCROMEarlyZSafe, b2u(safe))
	if e.err != nil {
		return nil, e.err
	}
	return out, nil
}

// omEncoder maps the state's GL enums to OM codes, keeping the first one
// that has none.
type omEncoder struct{ err error }

func (e *omEncoder) fail(what string, v fmt.Stringer) {
	if e.err == nil {
		e.err = fmt.Errorf("swom: %s %v has no OM code", what, v)
	}
}

func (e *omEncoder) compare(f compare.Func) uint32 {
	c, ok := f.OM()
	if !ok {
		e.fail("compare function", f)
	}
	return uint32(c)
}

func (e *omEncoder) stencilOp(op stencil.Op) uint32 {
	c, ok := op.OM()
	if !ok {
		e.fail("stencil op", op)
	}
	return uint32(c)
}

func (e *omEncoder) logicOp(op logicop.Op) uint32 {
	c, ok := op.OM()
	if !ok {
		e.fail("logic op", op)
	}
	return uint32(c)
}

func (e *omEncoder) equation(q blend.Equation) uint32 {
	c, ok := q.OM()
	if !ok {
		e.fail("blend equation", q)
	}
	return uint32(c)
}

func (e *omEncoder) factor(f blend.Factor) abi.BlendFactor {
	c, ok := f.OM()
	if !ok {
		e.fail("blend factor", f)
	}
	return c
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
