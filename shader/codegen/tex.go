package codegen

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// Fragment-stage texture sampling as machine code: vx_tex on the FF TEX unit.
//
// A fragment program's implicit-LOD sample (texture(s, p) on a float 2D
// sampler, ir.TexSample) becomes, per lane, exactly what the Go wrapper's
// vx_tex path (gfx/shaderdev tex.go, fsScratch.Texture) does on a draw whose
// textures have no mip chain:
//
//   - u and v to S.23: the float times 2^23 (fmul.s, exact but for overflow,
//     which saturates as the wrapper's float64 product does) converted
//     toward zero with fcvt.w.s, whose saturation (±2^31 and beyond to
//     INT32_MAX / INT32_MIN) is abi.FixedFromFloat's; a NaN coordinate,
//     which fcvt.w.s would make INT32_MAX, is masked to 0 (feq.s);
//   - lod 0 (x0): the level of detail is the wrapper's only on a draw
//     without mipmaps, so the draw routes a mipmapped texture to the Go
//     wrapper (gfx/shaderdev isafs.go) — its lod is float64 log2 of the
//     quad gradients, which RV32F cannot reproduce bit for bit;
//   - vx_tex rd, u, v, lod with funct2 = the sampler index (the TEX stage
//     the draw programs for binding i, abi.TexNumStages of them);
//   - the A8R8G8B8 result to four floats, channel/255 (fcvt.s.wu, fdiv.s:
//     both correctly rounded, as Go's float32 division is): R = bits 23:16,
//     G 15:8, B 7:0, A 31:24.
//
// Everything else — the other texture ops (texelFetch, textureLod, grads,
// gathers, queries, sizes), shadow compares, offsets, samplers that are not
// float 2D, more samplers than TEX stages — is refused with its name
// (texRefusal), and the draw runs the Go wrapper.
// spec: vortex-hardware-facts.md §4 (S.23 coordinates, lod), §6 (vx_tex R4 at
// funct3 = 5, funct2 = stage); vortexpipe-driver.md §2.2 (emit_vx_tex), §3.6;
// docs/ABI.md row 44.

// s23Scale is 2^23 as a float32: 1.0 in S.23. spec: vortex-hardware-facts.md §4
const s23Scale = float32(1 << abi.FracTex)

// texRefusal says why fragment program p's texture instruction t is not
// compiled ("" when it is).
func texRefusal(p *ir.Program, t *ir.TexInfo) string {
	if t.Sampler < 0 || t.Sampler >= len(p.Samplers) {
		return fmt.Sprintf("texture instruction names sampler %d of %d", t.Sampler, len(p.Samplers))
	}
	b := p.Samplers[t.Sampler]
	switch {
	case len(p.Samplers) > abi.TexNumStages:
		return fmt.Sprintf("%d samplers exceed the %d TEX stages", len(p.Samplers), abi.TexNumStages)
	case t.Op != ir.TexSample:
		return fmt.Sprintf("texture op %v (only implicit-LOD sampling is compiled to vx_tex)", t.Op)
	case b.Kind != ir.Sampler2D || b.Result != ir.F32:
		return fmt.Sprintf("sampler %s (%v) is not a float 2D sampler", b.Name, b.Kind)
	case t.Compare != ir.NoReg:
		return fmt.Sprintf("sampler %s: a shadow compare", b.Name)
	case t.HasOffset || t.HasOffsets || t.HasDynOffset:
		return fmt.Sprintf("sampler %s: a texel offset", b.Name)
	case t.NCoord < 2:
		return fmt.Sprintf("sampler %s: %d coordinates", b.Name, t.NCoord)
	}
	return ""
}

// texRefused returns the first texture instruction of p codegen refuses, as
// an error naming it, or nil.
func texRefused(p *ir.Program) error {
	for i := range p.Tex {
		if why := texRefusal(p, &p.Tex[i]); why != "" {
			return fmt.Errorf("codegen: fragment-stage texture: %s", why)
		}
	}
	return nil
}

// texS23 converts float register f to its S.23 operand in a fresh integer
// scratch register (see above); k is a free float scratch register.
func (g *gen) texS23(f, k uint8) uint8 {
	a := &g.a
	r, m := g.tmpX(), g.tmpX()
	g.fliInto(k, m, s23Scale)
	a.fr(rv32.FMULS, k, f, k, rv32.RNE)
	a.fr(rv32.FCVTWS, r, k, 0, rv32.RTZ)
	a.r(rv32.FEQS, m, f, f)
	a.r(rv32.SUB, m, rZero, m)
	a.r(rv32.AND, r, r, m)
	return r
}

// texSample emits one ir.TexSample as vx_tex (see above).
func (g *gen) texSample(t *ir.TexInfo) {
	a := &g.a
	g.reset()
	fu := g.f(vreg(t.Coord[0]))
	k := g.tmpF()
	u := g.texS23(fu, k)
	g.fs = 0
	fv := g.f(vreg(t.Coord[1]))
	k = g.tmpF()
	v := g.texS23(fv, k)
	texel := g.tmpX()
	a.emit(rv32.Inst{Op: rv32.VXTEX, Rd: texel, Rs1: u, Rs2: v, Rs3: rZero, Imm: int32(t.Sampler)})
	g.xs, g.fs = 0, 0
	texel = g.keepX(texel)
	c, k255 := g.tmpX(), g.tmpF()
	g.fliInto(k255, c, 255)
	for i, sh := range [4]int32{16, 8, 0, 24} {
		dst := vreg(t.Dst[i])
		if t.Dst[i] == ir.NoReg {
			continue
		}
		a.i(rv32.SRLI, c, texel, sh)
		if sh != 24 {
			a.i(rv32.ANDI, c, c, 0xFF)
		}
		fs := g.fs
		d := g.df(dst)
		a.fr(rv32.FCVTSWU, d, c, 0, rv32.RTZ) // exact: a byte
		a.fr(rv32.FDIVS, d, d, k255, rv32.RNE)
		g.finF(dst, d)
		g.fs = fs
	}
	g.reset()
}

// keepX moves integer scratch register r, taken before g.xs was reset, to
// the first scratch register and claims it, so later scratch requests do not
// overwrite it.
func (g *gen) keepX(r uint8) uint8 {
	s := g.tmpX()
	if s != r {
		g.a.mv(s, r)
	}
	return s
}
