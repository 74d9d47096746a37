package pipe

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/logicop"
)

// MaxRenderTargets is the number of colour attachments the API accepts; the FF
// merger has abi.OMMaxRT banks, and more attachments (up to
// abi.SWOMMaxTargets) run on the software merger. spec: vortexpipe §3.7 (MRT)
const MaxRenderTargets = 8

// RTBlendState is one attachment's blend state (pipe_rt_blend_state).
type RTBlendState struct {
	BlendEnable                        bool
	RGBFunc, AlphaFunc                 blend.Equation
	RGBSrc, RGBDst, AlphaSrc, AlphaDst blend.Factor
	ColorMask                          uint8 // MaskR|MaskG|MaskB|MaskA
}

// BlendState is the blend CSO description (pipe_blend_state). Without
// IndependentBlend, RT[0] applies to every attachment.
type BlendState struct {
	IndependentBlend bool
	LogicOpEnable    bool
	LogicOp          logicop.Op
	AlphaToCoverage  bool
	AlphaToOne       bool
	RT               [MaxRenderTargets]RTBlendState
}

// RTBlend is one attachment's captured OM bank: BLEND_MODE, BLEND_FUNC, LOGIC_OP and
// CBUF_WRITEMASK in both attachment byte orders (index 0 RGBA8, 1 BGRA8).
type RTBlend struct {
	Mode      uint32    // OM_BLEND_MODE: rgb [15:0], alpha [31:16]
	Func      uint32    // OM_BLEND_FUNC
	LogicOp   uint32    // OM_LOGIC_OP
	WriteMask [2]uint32 // OM_CBUF_WRITEMASK for an RGBA8 / a BGRA8 attachment
}

// Blend is a blend CSO captured as OM words per attachment at creation; the logic
// op, when enabled, supersedes blending on every attachment (mode LOGICOP).
// Routes lists what the FF merger cannot express and the software merger runs
// (dual-source factors, alpha-to-coverage, alpha-to-one); Flags what gates the
// draw (none at present: kept for the CSO's contract).
// spec: vortexpipe §1.4, §3.3 step 2, §3.7
type Blend struct {
	State      BlendState
	RT         [MaxRenderTargets]RTBlend
	DualSource bool
	Flags      []Reason
	Routes     []Reason
}

// defaultBlendFunc is the "blend disabled" function word (ONE, ONE, ZERO, ZERO).
var defaultBlendFunc = abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero)

// NewBlend captures s. It fails on an undefined enum value.
// spec: vortexpipe §1.4 (vp_create_blend_state)
func NewBlend(s BlendState) (*Blend, error) {
	b := &Blend{State: s}
	var lop abi.LogicOp
	if s.LogicOpEnable {
		v, ok := s.LogicOp.OM()
		if !ok {
			return nil, fmt.Errorf("pipe: blend: logic op %d undefined", s.LogicOp)
		}
		lop = v
	}
	for i := range b.RT {
		rt := s.RT[0]
		if s.IndependentBlend {
			rt = s.RT[i]
		}
		out := &b.RT[i]
		out.WriteMask[0] = WriteMask(rt.ColorMask, false)
		out.WriteMask[1] = WriteMask(rt.ColorMask, true)
		out.Mode = abi.PackHalves(uint32(abi.BlendAdd), uint32(abi.BlendAdd))
		out.Func = defaultBlendFunc
		out.LogicOp = uint32(abi.LogicCopy)
		if s.LogicOpEnable {
			out.Mode = abi.PackHalves(uint32(abi.BlendLogicOp), uint32(abi.BlendLogicOp))
			out.LogicOp = uint32(lop)
			continue
		}
		if !rt.BlendEnable {
			continue
		}
		mr, ok1 := rt.RGBFunc.OM()
		ma, ok2 := rt.AlphaFunc.OM()
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("pipe: blend: rt %d: equation %d/%d undefined", i, rt.RGBFunc, rt.AlphaFunc)
		}
		var f [4]abi.BlendFactor
		for j, src := range [4]blend.Factor{rt.RGBSrc, rt.AlphaSrc, rt.RGBDst, rt.AlphaDst} {
			if !src.Valid() {
				return nil, fmt.Errorf("pipe: blend: rt %d: factor %d undefined", i, src)
			}
			if src.DualSource() {
				if !b.DualSource {
					b.Routes = append(b.Routes, Reason{RouteDualSource, fmt.Sprintf("rt %d factor %s", i, src)})
				}
				b.DualSource = true
				continue
			}
			f[j], _ = src.OM()
		}
		out.Mode = abi.PackHalves(uint32(mr), uint32(ma))
		out.Func = abi.PackBlendFunc(f[0], f[1], f[2], f[3])
	}
	if s.AlphaToCoverage {
		b.Routes = append(b.Routes, Reason{RouteAlphaToCoverage, ""})
	}
	if s.AlphaToOne {
		b.Routes = append(b.Routes, Reason{RouteAlphaToOne, ""})
	}
	return b, nil
}

// BlendColor is the captured blend constant (pipe_blend_color) as OM_BLEND_CONST
// words for an RGBA8 (index 0) and a BGRA8 (index 1) attachment. spec: vortexpipe §3.7
type BlendColor [2]uint32

// NewBlendColor packs the constant colour for both byte orders.
func NewBlendColor(c [4]float32) BlendColor {
	return BlendColor{PackColor(c, false), PackColor(c, true)}
}
