package codegen

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// Fragment-stage texture sampling as machine code: vx_tex on the FF TEX unit.
//
// A fragment program's sample of a float 2D sampler — texture(s, p)
// (ir.TexSample), textureLod(s, p, lod) (ir.TexSampleLod) and textureGrad(s,
// p, dPdx, dPdy) (ir.TexSampleGrad) — becomes, per lane, exactly what the Go
// wrapper's vx_tex path (gfx/shaderdev tex.go, fsScratch.Texture) does:
//
//   - u and v to S.23: the float times 2^23 (fmul.s, exact but for overflow,
//     which saturates as the wrapper's float64 product does) converted
//     toward zero with fcvt.w.s, whose saturation (±2^31 and beyond to
//     INT32_MAX / INT32_MIN) is abi.FixedFromFloat's; a NaN coordinate,
//     which fcvt.w.s would make INT32_MAX, is masked to 0 (feq.s);
//   - the lod operand: 0 without mips, else the Go wrapper's level of
//     detail bit for bit — from the quad gradients (texture) or the explicit
//     ones (textureGrad) by lod.go's thresholds, or textureLod's lod clamped
//     and quantised (texExplicitLod); a biased texture() of a mipmapped
//     texture is routed to the Go wrapper by the draw (gfx/shaderdev
//     isafs.go: the wrapper adds the bias to its float64 log2, which the
//     thresholds, fixed at compile time, cannot shift);
//   - vx_tex rd, u, v, lod with funct2 = the sampler index (the TEX stage
//     the draw programs for binding i, abi.TexNumStages of them);
//   - the A8R8G8B8 result to four floats, channel/255 (fcvt.s.wu, fdiv.s:
//     both correctly rounded, as Go's float32 division is): R = bits 23:16,
//     G 15:8, B 7:0, A 31:24.
//
// Everything else — the other texture ops (texelFetch, gathers, queries,
// sizes), shadow compares, offsets, samplers that are not float 2D, more
// samplers than TEX stages — is refused with its name (texRefusal), and the
// draw runs the Go wrapper.
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
	case t.Op != ir.TexSample && t.Op != ir.TexSampleLod && t.Op != ir.TexSampleGrad && t.Op != ir.TexFetch && t.Op != ir.TexSize:
		return fmt.Sprintf("texture op %v (only texture, textureLod and textureGrad on vx_tex, and texelFetch and textureSize on the software sampler's descriptors, are compiled)", t.Op)
	case b.Kind.Shadow() || t.Compare != ir.NoReg:
		// vx_tex takes u, v and lod only: a depth compare is the software
		// sampler's (vortex-hardware-facts.md §4: the shader passes u, v and
		// a lod, the DCRs hold no compare state).
		return fmt.Sprintf("sampler %s (%v): a shadow compare, which vx_tex has no form of", b.Name, b.Kind)
	case b.Kind != ir.Sampler2D || b.Result != ir.F32:
		return fmt.Sprintf("sampler %s (%v) is not a float 2D sampler", b.Name, b.Kind)
	case t.HasOffset || t.HasOffsets || t.HasDynOffset:
		return fmt.Sprintf("sampler %s: a texel offset", b.Name)
	case t.Op == ir.TexSize:
	case t.Op == ir.TexFetch && t.NCoord != 2, t.NCoord < 2:
		return fmt.Sprintf("sampler %s: %d coordinates", b.Name, t.NCoord)
	case t.Op == ir.TexSampleLod && t.Lod == ir.NoReg:
		return fmt.Sprintf("sampler %s: textureLod without a lod", b.Name)
	case t.Op == ir.TexSampleGrad && (t.DPdx[0] == ir.NoReg || t.DPdx[1] == ir.NoReg):
		return fmt.Sprintf("sampler %s: textureGrad without two gradient components", b.Name)
	}
	return ""
}

// texRefused returns the first texture instruction of p codegen refuses, as
// an error naming it, or nil.
func texRefused(p *ir.Program) error {
	sw := 0
	for i := range p.Tex {
		if why := texRefusal(p, &p.Tex[i]); why != "" {
			return fmt.Errorf("codegen: fragment-stage texture: %s", why)
		}
		if TexOnDescriptors(p.Tex[i].Op) {
			sw++
		}
	}
	if sw > 0 && sw < len(p.Tex) {
		return fmt.Errorf("codegen: fragment-stage texture: vx_tex samples beside texelFetch/textureSize (a draw's TEX runs on the FF unit or on the software sampler, not both)")
	}
	return nil
}

// TexOnDescriptors reports whether a fragment kernel answers op from the
// software sampler's descriptors in device memory (texelFetch, textureSize:
// texfetch.go) rather than with vx_tex: a draw runs such a kernel only on the
// software TEX route, each binding's descriptor passing
// FetchDescriptorRefusal. spec: vortexpipe-driver.md §3.6
func TexOnDescriptors(op ir.TexOp) bool { return op == ir.TexFetch || op == ir.TexSize }

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

// texDesc leaves in r the address of sampler's record in descriptor set 0
// ({w, h, levels, mip}, texDescBytes each; FS arg slot abi.ArgFSDesc, word 2).
func (g *gen) texDesc(r uint8, sampler int) {
	g.fsArg(r, abi.ArgFSDesc)
	g.a.lw(r, r, 8)
	g.a.i(rv32.ADDI, r, r, int32(sampler*texDescBytes))
}

// texLod computes t's lod operand into g.fsg.lod (lod.go).
func (g *gen) texLod(t *ir.TexInfo) {
	a, f := &g.a, g.fsg
	if f.lodTab < 0 {
		f.lodTab = a.newLabel()
	}
	// The four scaled gradients, as package exec's quadGrad: fine
	// differences within the quad (vx_shfl_idx; a neighbour not running
	// gives the lane's own value), unflushed, times the level-0 size;
	// textureGrad's are its operands (dPdy defaults to dPdx, as exec's).
	for i := 0; i < 4; i++ {
		if t.Op == ir.TexSampleGrad {
			g.texGradIn(t, i)
			continue
		}
		g.reset()
		s := g.x(vreg(t.Coord[i%2]))
		lo, hi, k := g.tmpX(), g.tmpX(), g.tmpX()
		a.csrr(lo, simt.CSRThreadID)
		if i < 2 {
			a.i(rv32.ANDI, lo, lo, 2)
			a.i(rv32.ORI, hi, lo, 1)
		} else {
			a.i(rv32.ANDI, lo, lo, 1)
			a.i(rv32.ORI, hi, lo, 2)
		}
		a.li(k, quadShuffle)
		a.r(rv32.OR, lo, lo, k)
		a.r(rv32.OR, hi, hi, k)
		a.emit(rv32.Inst{Op: rv32.VXSHFLIDX, Rd: lo, Rs1: s, Rs2: lo})
		a.emit(rv32.Inst{Op: rv32.VXSHFLIDX, Rd: hi, Rs1: s, Rs2: hi})
		f0, f1 := g.tmpF(), g.tmpF()
		a.r(rv32.FMVWX, f0, lo, 0)
		a.r(rv32.FMVWX, f1, hi, 0)
		a.fr(rv32.FSUBS, f1, f1, f0, rv32.RNE)
		g.texDesc(lo, t.Sampler)
		a.lw(hi, lo, int32(4*(i%2)))
		a.fr(rv32.FCVTSWU, f0, hi, 0, rv32.RNE)
		a.fr(rv32.FMULS, f1, f1, f0, rv32.RNE)
		a.r(rv32.FMVXW, lo, f1, 0)
		g.finX(f.lodIn[i], lo)
	}
	// The two vectors' keys; the larger; the thresholds at or below it.
	r := [8]uint8(scratchX)
	for v := 0; v < 2; v++ {
		g.reset()
		p := g.x(f.lodIn[2*v])
		a.mv(r[0], p)
		g.xs = 1
		q := g.x(f.lodIn[2*v+1])
		a.mv(r[1], q)
		g.reset()
		lodKey(a, r, scratchF[0])
		if v == 0 {
			g.finX(f.lodKey[0], r[0])
			g.finX(f.lodKey[1], r[1])
		}
	}
	g.xs = 2
	h1 := g.x(f.lodKey[0])
	a.mv(r[2], h1)
	g.xs = 3
	l1 := g.x(f.lodKey[1])
	a.mv(r[3], l1)
	// r[0]:r[1] = max(r[0]:r[1], r[2]:r[3]) (unsigned 64-bit).
	c, e := r[4], r[5]
	a.r(rv32.SLTU, c, r[0], r[2])
	a.r(rv32.XOR, e, r[0], r[2])
	a.i(rv32.SLTIU, e, e, 1)
	a.r(rv32.SLTU, r[6], r[1], r[3])
	a.r(rv32.AND, e, e, r[6])
	a.r(rv32.OR, c, c, e) // the second key < the first: take the first
	a.r(rv32.SUB, c, rZero, c)
	for _, p := range [2][2]uint8{{r[0], r[2]}, {r[1], r[3]}} {
		a.r(rv32.XOR, e, p[0], p[1])
		a.r(rv32.AND, e, e, c)
		a.r(rv32.XOR, p[0], p[0], e)
	}
	lodCount(a, r[0], r[1], [6]uint8{r[2], r[3], r[4], r[5], r[6], r[7]}, f.lodTab)
	g.finX(f.lod, r[2])
	// NaN without an Inf-only vector: 0. nanK/infK per vector.
	g.reset()
	var nan, inf [2]uint8
	nan[0], nan[1], inf[0], inf[1] = g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	u, k := g.tmpX(), g.tmpX()
	for i := 0; i < 4; i++ {
		v := i / 2
		x := g.x(f.lodIn[i])
		a.li(k, 0x7fffffff)
		a.r(rv32.AND, u, x, k)
		g.xs = 6
		a.li(k, 0x7f800000)
		if i%2 == 0 {
			a.r(rv32.SLTU, nan[v], k, u)
			a.r(rv32.XOR, inf[v], u, k)
			a.i(rv32.SLTIU, inf[v], inf[v], 1)
			continue
		}
		x2 := g.tmpX()
		a.r(rv32.SLTU, x2, k, u)
		a.r(rv32.OR, nan[v], nan[v], x2)
		a.r(rv32.XOR, x2, u, k)
		a.i(rv32.SLTIU, x2, x2, 1)
		a.r(rv32.OR, inf[v], inf[v], x2)
		g.xs = 6
	}
	for v := 0; v < 2; v++ {
		a.i(rv32.XORI, u, nan[v], 1)
		a.r(rv32.AND, inf[v], inf[v], u)
	}
	a.r(rv32.OR, nan[0], nan[0], nan[1])
	a.r(rv32.OR, inf[0], inf[0], inf[1])
	a.i(rv32.XORI, inf[0], inf[0], 1)
	a.r(rv32.AND, nan[0], nan[0], inf[0]) // lod 0
	g.texLodClamp(t, u, nan[0], rZero, nan[1], inf[0], inf[1], k)
}

// texGradIn stores textureGrad t's i-th scaled gradient (dPdx.s·w, dPdx.t·h,
// dPdy.s·w, dPdy.t·h: the Go wrapper's float32 products) in g.fsg.lodIn[i].
func (g *gen) texGradIn(t *ir.TexInfo, i int) {
	a := &g.a
	r := t.DPdx[i%2]
	if i >= 2 && t.DPdy[i%2] != ir.NoReg {
		r = t.DPdy[i%2]
	}
	g.reset()
	s := g.f(vreg(r))
	d, w := g.tmpX(), g.tmpX()
	f0, f1 := g.tmpF(), g.tmpF()
	g.texDesc(d, t.Sampler)
	a.lw(w, d, int32(4*(i%2)))
	a.fr(rv32.FCVTSWU, f0, w, 0, rv32.RNE)
	a.fr(rv32.FMULS, f1, s, f0, rv32.RNE)
	a.r(rv32.FMVXW, d, f1, 0)
	g.finX(g.fsg.lodIn[i], d)
	g.reset()
}

// texExplicitLod computes textureLod t's lod operand into g.fsg.lod, the Go
// wrapper's λ = clamp(float64(lod), 0, L) quantised: n = floor(λ·2^8) (the
// product is exact in float32, a power of two, and fcvt.wu.s rtz takes a
// negative to 0, +Inf and ≥ 2^32 to all-ones), NaN → 0 (feq.s), capped at
// lodSteps (so the rounding add cannot wrap); then the clamps every sample
// takes (texLodClamp): MIP_LINEAR min(n, L·2^8) = floor(λ·2^8), another mode
// GL's nearest level ceil(λ + 1/2) − 1 = (n + 128 − e) >> 8, e = 1 when lod·2^8
// is an integer (fcvt.s.wu of n compared with the product; only a tie
// n = 256k + 128 needs it, which a clamped n never is).
func (g *gen) texExplicitLod(t *ir.TexInfo) {
	a := &g.a
	g.reset()
	x := g.f(vreg(t.Lod))
	k, p := g.tmpF(), g.tmpF()
	n, m, e := g.tmpX(), g.tmpX(), g.tmpX()
	g.fliInto(k, m, 1<<abi.TexLodFracBits)
	a.fr(rv32.FMULS, k, x, k, rv32.RNE)
	a.fr(rv32.FCVTWUS, n, k, 0, rv32.RTZ)
	a.fr(rv32.FCVTSWU, p, n, 0, rv32.RNE)
	a.r(rv32.FEQS, e, p, k)
	a.r(rv32.FEQS, m, x, x)
	a.r(rv32.SUB, m, rZero, m)
	a.r(rv32.AND, n, n, m)
	a.li(m, lodSteps)
	g.minU(n, n, m)
	g.finX(g.fsg.lod, n)
	lv, mip, kk := g.tmpX(), g.tmpX(), g.tmpX()
	g.texLodClamp(t, n, rZero, e, m, lv, mip, kk)
}

// texLodClamp clamps the count in g.fsg.lod to t's stage into g.fsg.lod: L =
// max(levels, 1) − 1; MIP_LINEAR min(n, L << 8), another mode
// min((n + 128 − tie) >> 8, L), none 0; and 0 when zero is 1. zero and tie
// are registers holding 0 or 1, or rZero for 0; n, d, lv, mip and k are free
// scratch registers below g.xs (tie and zero too, when not rZero).
func (g *gen) texLodClamp(t *ir.TexInfo, n, zero, tie, d, lv, mip, k uint8) {
	a, f := &g.a, g.fsg
	xs := g.xs
	g.texDesc(d, t.Sampler)
	a.lw(lv, d, 8)
	a.r(rv32.SLTU, k, rZero, lv)
	a.i(rv32.XORI, k, k, 1)
	a.r(rv32.ADD, lv, lv, k)
	a.i(rv32.ADDI, lv, lv, -1)
	a.lw(mip, d, 12)
	a.i(rv32.ANDI, mip, mip, 0xff)
	a.mv(n, g.x(f.lod))
	g.xs = xs
	lin, near := d, g.tmpX()
	a.i(rv32.SLLI, k, lv, abi.TexLodFracBits)
	g.minU(lin, n, k)
	a.i(rv32.ADDI, near, n, 1<<(abi.TexLodFracBits-1))
	if tie != rZero {
		a.r(rv32.SUB, near, near, tie)
	}
	a.i(rv32.SRLI, near, near, abi.TexLodFracBits)
	g.minU(near, near, lv)
	a.i(rv32.XORI, k, mip, 2)
	a.i(rv32.SLTIU, k, k, 1)
	g.sel(n, k, lin, near)
	a.r(rv32.SLTU, k, rZero, mip)
	a.r(rv32.SUB, k, rZero, k)
	a.r(rv32.AND, n, n, k)
	if zero != rZero {
		a.i(rv32.ADDI, k, zero, -1) // 0 when lod 0
		a.r(rv32.AND, n, n, k)
	}
	g.finX(f.lod, n)
	g.reset()
}

// minU emits r = min(x, y) unsigned (r may be x, not y).
func (g *gen) minU(r, x, y uint8) {
	c := g.tmpX()
	g.a.r(rv32.SLTU, c, x, y)
	g.sel(r, c, x, y)
	g.xs--
}

// texSample emits one ir.TexSample as vx_tex (see above).
func (g *gen) texSample(t *ir.TexInfo) {
	a := &g.a
	if t.Op == ir.TexSampleLod {
		g.texExplicitLod(t)
	} else {
		g.texLod(t)
	}
	g.reset()
	fu := g.f(vreg(t.Coord[0]))
	k := g.tmpF()
	u := g.texS23(fu, k)
	g.fs = 0
	fv := g.f(vreg(t.Coord[1]))
	k = g.tmpF()
	v := g.texS23(fv, k)
	lod := g.x(g.fsg.lod)
	texel := g.tmpX()
	a.emit(rv32.Inst{Op: rv32.VXTEX, Rd: texel, Rs1: u, Rs2: v, Rs3: lod, Imm: int32(t.Sampler)})
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
