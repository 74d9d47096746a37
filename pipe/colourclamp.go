package pipe

import (
	"fmt"

	"vortexgfx/gfx/shaderdev"
	"vortexgfx/shader/ir"
	"vortexgfx/shader/lower"
)

// legacyColourOut are the vertex outputs GL clamps to [0,1] in a
// compatibility context (GL 3.0 §2.19.6, CLAMP_VERTEX_COLOR).
var legacyColourOut = []string{"gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"}

// ClampVertexColours returns p with GL's vertex colour clamp in its vertex stage:
// every store to a legacy colour output (gl_FrontColor, gl_BackColor and the
// secondary colours) stores clamp(x, 0, 1) instead, so the device's vertex
// kernel writes what a compatibility context's CLAMP_VERTEX_COLOR (TRUE by
// default) makes the fragment stage see — the clamp the reference renderer
// applies to the same output words after its vertex stage. p is not
// modified; nil is returned when the vertex stage writes no legacy colour.
// spec: GL 3.0 §2.19.6 (flatshading and colour clamping); vortexpipe-driver
// §2.3.1 (state the variant folds into the shader)
func ClampVertexColours(p *lower.Program) *lower.Program {
	vs := p.VS
	var clamped []bool
	for _, s := range vs.Outputs {
		for _, n := range legacyColourOut {
			if s.Name != n {
				continue
			}
			if clamped == nil {
				clamped = make([]bool, vs.OutputWords)
			}
			for w := s.Word; w < s.Word+s.Words && w < len(clamped); w++ {
				clamped[w] = true
			}
		}
	}
	if clamped == nil {
		return nil
	}
	out := vs.Clone()
	zero, one := ir.Reg(len(out.Regs)), ir.Reg(len(out.Regs)+1)
	out.Regs = append(out.Regs, ir.F32, ir.F32)
	rewrite := func(code []ir.Inst, consts bool) []ir.Inst {
		n := make([]ir.Inst, 0, len(code)+8)
		if consts {
			n = append(n, ir.Inst{Op: ir.Const, Dst: zero, Imm: ir.F32Bits(0)}, ir.Inst{Op: ir.Const, Dst: one, Imm: ir.F32Bits(1)})
		}
		for _, in := range code {
			if in.Op == ir.StoreOutput && int(in.Imm) < len(clamped) && clamped[in.Imm] {
				t := ir.Reg(len(out.Regs))
				out.Regs = append(out.Regs, ir.F32)
				n = append(n, ir.Inst{Op: ir.FClamp, Dst: t, Src: [4]ir.Reg{in.Src[0], zero, one}})
				in.Src[0] = t
			}
			n = append(n, in)
		}
		return n
	}
	out.Code = rewrite(out.Code, true)
	for i := range out.Funcs {
		out.Funcs[i].Code = rewrite(out.Funcs[i].Code, false)
	}
	q := *p
	q.VS = out
	return &q
}

// clampColour reports whether the bound rasterizer clamps vertex colours.
func (st *BoundState) clampColour() bool { return st.Rast != nil && st.Rast.State.ClampVertexColor }

// clampVariants is the device program cache of a linked program lp with the
// vertex colour clamp folded in: nil when the vertex stage writes no legacy
// colour, or the reason the clamped stage does not verify.
func clampVariants(name string, lp *lower.Program, release func(VariantKey, any)) (*VariantCache, string) {
	q := ClampVertexColours(lp)
	if q == nil {
		return nil, ""
	}
	if err := ir.Verify(q.VS); err != nil {
		return nil, err.Error()
	}
	return NewVariantCache(func(key VariantKey) (any, error) {
		return shaderdev.NewProgram(fmt.Sprintf("%s.clamp.v%x", name, variantBits(key)), q)
	}, release), ""
}
