package codegen

import (
	"math"

	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// packNorm describes one normalised pack/unpack family (GLSL 4.50 §8.4).
type packNorm struct {
	bits   int32   // field width: 8 or 16
	scale  float32 // 255, 127, 65535 or 32767
	signed bool
}

var packNorms = map[ir.Op]packNorm{
	ir.PackUnorm4x8: {8, 255, false}, ir.PackSnorm4x8: {8, 127, true},
	ir.PackUnorm2x16: {16, 65535, false}, ir.PackSnorm2x16: {16, 32767, true},
	ir.UnpackUnorm4x8: {8, 255, false}, ir.UnpackSnorm4x8: {8, 127, true},
	ir.UnpackUnorm2x16: {16, 65535, false}, ir.UnpackSnorm2x16: {16, 32767, true},
}

// fconst loads the float constant v into a float scratch register.
func (g *gen) fconst(v float32) uint8 {
	t, f := g.tmpX(), g.tmpF()
	g.a.li(t, math.Float32bits(v))
	g.a.r(rv32.FMVWX, f, t, 0)
	g.xs--
	return f
}

// pack emits the normalised pack and unpack ops with ir.Eval's arithmetic: pack
// clamps, scales in float32 and rounds to nearest even (fcvt with rne of the
// float32 product is math.RoundToEven of it); unpack converts the field exactly and
// divides once. For a NaN input the executor's result depends on how Go converts
// NaN to an integer on the host; RV32F's fmax/fmin return the bound (0, or -1 for
// snorm), so the field is 0 (unorm) or the encoding of -1 (snorm): the package doc
// lists it with the NaN differences.
func (g *gen) pack(in *ir.Inst) bool {
	switch in.Op {
	case ir.UnpackHalf2x16:
		g.unpackHalf(in)
		return true
	case ir.PackHalf2x16:
		g.packHalf(in)
		return true
	case ir.FrexpExp, ir.FrexpMant:
		g.frexp(in)
		return true
	case ir.Ldexp:
		g.ldexp(in)
		return true
	}
	pn, ok := packNorms[in.Op]
	if !ok {
		return false
	}
	a := &g.a
	dst := vreg(in.Dst)
	if in.Op >= ir.UnpackSnorm2x16 {
		w := g.x(g.src(in, 0))
		t := g.tmpX()
		sh := int32(pn.bits) * int32(in.Imm&(32/uint32(pn.bits)-1))
		a.i(rv32.SLLI, t, w, 32-pn.bits-sh) // the field at the top...
		op, cv := rv32.SRLI, rv32.FCVTSWU
		if pn.signed {
			op, cv = rv32.SRAI, rv32.FCVTSW
		}
		a.i(op, t, t, 32-pn.bits) // ... and back, sign- or zero-extended
		f := g.tmpF()
		a.fr(cv, f, t, 0, rv32.RNE)
		s := g.fconst(pn.scale)
		a.fr(rv32.FDIVS, f, f, s, rv32.RNE)
		if pn.signed { // min(max(v, -1), 1): only -128/127 and -32768/32767 reach it
			a.fr(rv32.FMAXS, f, f, g.fconst(-1), 0)
		}
		g.finF(dst, f)
		return true
	}
	n := 32 / int(pn.bits)
	r, t, k := g.tmpX(), g.tmpX(), g.tmpX()
	a.mv(r, rZero)
	low := float32(0)
	if pn.signed {
		low = -1
	}
	setF := func(f uint8, v float32) {
		a.li(k, math.Float32bits(v))
		a.r(rv32.FMVWX, f, k, 0)
	}
	for i := 0; i < n; i++ {
		fs := g.fs
		x := g.f(g.src(in, i))
		f, c := g.tmpF(), g.tmpF()
		setF(c, low)
		a.fr(rv32.FMAXS, f, x, c, 0)
		setF(c, 1)
		a.fr(rv32.FMINS, f, f, c, 0)
		setF(c, pn.scale)
		a.fr(rv32.FMULS, f, f, c, rv32.RNE)
		a.fr(rv32.FCVTWS, t, f, 0, rv32.RNE)
		if pn.signed {
			a.i(rv32.SLLI, t, t, 32-pn.bits)
			a.i(rv32.SRLI, t, t, 32-pn.bits)
		}
		if i > 0 {
			a.i(rv32.SLLI, t, t, int32(i)*pn.bits)
		}
		a.r(rv32.OR, r, r, t)
		g.fs = fs // the component's float registers are free again
	}
	g.finX(dst, r)
	return true
}

// unpackHalf is ir.HalfToFloat exactly: a normal half or an infinity/NaN moves its
// fields into a float32 (exponent rebiased by 112, or 255), a subnormal half is its
// mantissa times 2^-24, computed exactly by fcvt and an fmul by a power of two.
func (g *gen) unpackHalf(in *ir.Inst) {
	a := &g.a
	w := g.x(g.src(in, 0))
	h, sg, e, m, c, n := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	a.i(rv32.SLLI, h, w, 16-16*int32(in.Imm&1))
	a.i(rv32.SRLI, h, h, 16)
	a.i(rv32.SRLI, sg, h, 15)
	a.i(rv32.SLLI, sg, sg, 31)
	a.i(rv32.SRLI, e, h, 10)
	a.i(rv32.ANDI, e, e, 0x1f)
	a.i(rv32.ANDI, m, h, 0x3ff)
	a.i(rv32.ADDI, c, e, -31) // c = 112 when e == 31 (infinity, NaN), else 0
	a.i(rv32.SLTIU, c, c, 1)
	a.r(rv32.SUB, c, rZero, c)
	a.i(rv32.ANDI, c, c, 112)
	a.i(rv32.ADDI, n, e, 112)
	a.r(rv32.ADD, n, n, c)
	a.i(rv32.SLLI, n, n, 23)
	a.i(rv32.SLLI, c, m, 13)
	a.r(rv32.OR, n, n, c)
	a.r(rv32.OR, n, n, sg)
	f := g.tmpF()
	a.fr(rv32.FCVTSWU, f, m, 0, rv32.RNE)
	a.fr(rv32.FMULS, f, f, g.fconst(1.0/16777216), rv32.RNE)
	a.r(rv32.FMVXW, m, f, 0)
	a.r(rv32.OR, m, m, sg)
	a.i(rv32.SLTIU, c, e, 1) // a subnormal half (or zero)?
	g.sel(m, c, m, n)
	g.finX(vreg(in.Dst), m)
}

// packHalf is ir.FloatToHalf of each component, branch-free: the float's
// mantissa with its implicit bit (a subnormal half, shift 14-e) or its exponent
// rebiased by -112 above it (a normal half, shift 13) is shifted right with round
// to nearest even — up when rem + (h&1) exceeds half; a normal that rounds up
// carries into the exponent, up to infinity, as in Eval — then exponents from 31
// up give infinity (NaN: 0x7e00) and those below -10 give the signed zero.
// Component 0 waits in the frame's dummy word while component 1 is converted.
func (g *gen) packHalf(in *ir.Inst) {
	a := &g.a
	base := g.xs
	for i := 0; i < 2; i++ {
		g.xs = base
		w := g.x(g.src(in, i))
		sg, man, e, ov, mn, ms, t := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
		a.i(rv32.SRLI, sg, w, 31)
		a.i(rv32.SLLI, sg, sg, 15)
		a.i(rv32.SLLI, man, w, 9)
		a.i(rv32.SRLI, man, man, 9)
		a.i(rv32.SRLI, e, w, 23)
		a.i(rv32.ANDI, e, e, 0xff)
		a.i(rv32.ADDI, e, e, -112)
		// ov = the result for e >= 31: 0x7c00, or 0x7e00 for a NaN
		a.i(rv32.ADDI, ov, e, -143)
		a.i(rv32.SLTIU, ov, ov, 1)
		a.r(rv32.SLTU, mn, rZero, man)
		a.r(rv32.AND, ov, ov, mn)
		a.i(rv32.SLLI, ov, ov, 9)
		a.li(mn, 0x7c00)
		a.r(rv32.OR, ov, ov, mn)
		// M: normal (e<<23 | man) or subnormal (man | 1<<23)
		a.i(rv32.SLLI, mn, e, 23)
		a.r(rv32.OR, mn, mn, man)
		a.li(ms, 0x800000)
		a.r(rv32.OR, ms, ms, man)
		a.i(rv32.SLTI, man, e, 1) // man now: subnormal?
		a.mv(t, man)
		g.sel(ms, t, ms, mn) // ms = M
		// s: 14-e for a subnormal, else 13
		a.li(mn, 14)
		a.r(rv32.SUB, mn, mn, e)
		a.li(t, 13)
		g.sel(mn, man, mn, t)      // mn = s
		a.r(rv32.SRL, man, ms, mn) // man = h
		a.r(rv32.SLL, t, man, mn)
		a.r(rv32.SUB, t, ms, t) // t = rem
		a.i(rv32.ADDI, ms, mn, -1)
		a.i(rv32.ADDI, mn, rZero, 1)
		a.r(rv32.SLL, mn, mn, ms) // mn = half
		a.i(rv32.ANDI, ms, man, 1)
		a.r(rv32.ADD, ms, t, ms)
		a.r(rv32.SLTU, ms, mn, ms)
		a.r(rv32.ADD, man, man, ms) // h rounded
		a.i(rv32.ADDI, mn, rZero, 30)
		a.r(rv32.SLT, mn, mn, e)
		g.sel(ov, mn, ov, man) // ov = e >= 31 ? ov : h
		a.i(rv32.SLTI, mn, e, -10)
		a.i(rv32.ADDI, mn, mn, -1)
		a.r(rv32.AND, ov, ov, mn)
		a.r(rv32.OR, ov, ov, sg)
		if i == 0 {
			a.sw(ov, rSP, 0)
			continue
		}
		a.lw(t, rSP, 0)
		a.i(rv32.SLLI, ov, ov, 16)
		a.r(rv32.OR, ov, ov, t)
		g.finX(vreg(in.Dst), ov)
	}
}

// frexp emits FrexpExp and FrexpMant as math.Frexp computes them on the float's
// bits: a normal x is m·2^e with m's exponent field 126 and e = exp-126; a
// subnormal is normalised by the position of its mantissa's top bit (the float
// exponent of the mantissa converted with rtz, as findMSB does); zero, infinity
// and NaN give exponent 0 and themselves as the mantissa.
func (g *gen) frexp(in *ir.Inst) {
	a := &g.a
	src := g.f(g.src(in, 0))
	w, ex, man, msb, r, c := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	f := g.tmpF()
	a.r(rv32.FMVXW, w, src, 0)
	a.i(rv32.SRLI, ex, w, 23)
	a.i(rv32.ANDI, ex, ex, 0xff)
	a.i(rv32.SLLI, man, w, 9)
	a.i(rv32.SRLI, man, man, 9)
	a.fr(rv32.FCVTSWU, f, man, 0, rv32.RTZ)
	a.r(rv32.FMVXW, msb, f, 0)
	a.i(rv32.SRLI, msb, msb, 23)
	a.i(rv32.ADDI, msb, msb, -127) // the mantissa's top bit (garbage when man = 0)
	if in.Op == ir.FrexpExp {
		a.i(rv32.ADDI, r, ex, -126)    // normal
		a.i(rv32.ADDI, msb, msb, -148) // subnormal
		a.i(rv32.SLTIU, c, ex, 1)
		g.sel(msb, c, msb, r)
		a.i(rv32.ADDI, c, ex, -255) // infinity, NaN: 0
		a.i(rv32.SLTIU, c, c, 1)
		a.r(rv32.OR, r, ex, man) // zero: 0
		a.i(rv32.SLTIU, r, r, 1)
		a.r(rv32.OR, c, c, r)
		a.i(rv32.ADDI, c, c, -1)
		a.r(rv32.AND, msb, msb, c)
		g.finX(vreg(in.Dst), msb)
		return
	}
	a.li(c, 23) // subnormal: sign | 0.5's exponent | man << (23-msb) without the top bit
	a.r(rv32.SUB, c, c, msb)
	a.r(rv32.SLL, r, man, c)
	a.i(rv32.SLLI, r, r, 9)
	a.i(rv32.SRLI, r, r, 9)
	a.i(rv32.SRLI, msb, w, 31)
	a.i(rv32.SLLI, msb, msb, 31)
	a.r(rv32.OR, r, r, msb)
	a.li(c, 0x3f000000)
	a.r(rv32.OR, r, r, c)
	a.li(msb, 0x807fffff) // normal: the exponent field replaced
	a.r(rv32.AND, msb, w, msb)
	a.r(rv32.OR, msb, msb, c)
	a.i(rv32.SLTIU, c, ex, 1)
	g.sel(r, c, r, msb)
	a.r(rv32.OR, msb, ex, man) // zero, infinity, NaN: x itself
	a.i(rv32.SLTIU, msb, msb, 1)
	a.i(rv32.ADDI, c, ex, -255)
	a.i(rv32.SLTIU, c, c, 1)
	a.r(rv32.OR, c, c, msb)
	g.sel(w, c, w, r)
	g.finX(vreg(in.Dst), w)
}

// ldexp is ir.Eval's float32(math.Ldexp(x, clamp(n, -300, 300))): one rounding of
// the exact product. A subnormal x is first scaled by 2^24 (exact). A normal
// result is x's bits with n added to the exponent field (exact); one beyond 254 is
// the signed infinity; one below 2^-149 by more than half an ulp is the signed
// zero; the rest, subnormal results, are x's mantissa with exponent 0, times 2^-24
// (exact), times the normal power 2^(e+24) — the only rounding. Zero, infinity and
// NaN are x.
func (g *gen) ldexp(in *ir.Inst) {
	a := &g.a
	n := g.x(g.src(in, 1))
	fx := g.f(g.src(in, 0))
	nn, t, c, w, ex, e2, res := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	f, p := g.tmpF(), g.tmpF()
	a.li(t, uint32(0xfffffed4)) // -300
	a.r(rv32.SLT, c, n, t)
	g.sel(t, c, t, n) // t = max(n, -300)
	a.li(nn, 300)
	a.r(rv32.SLT, c, nn, t)
	g.sel(nn, c, nn, t) // nn = min(t, 300)
	// a subnormal x: x·2^24 and n-24
	a.r(rv32.FMVXW, w, fx, 0)
	a.i(rv32.SRLI, ex, w, 23)
	a.i(rv32.ANDI, ex, ex, 0xff)
	a.li(t, 0x4b800000) // 2^24
	a.r(rv32.FMVWX, p, t, 0)
	a.fr(rv32.FMULS, f, fx, p, rv32.RNE)
	a.r(rv32.FMVXW, t, f, 0)
	a.i(rv32.SLTIU, c, ex, 1)
	a.i(rv32.SLLI, e2, c, 3) // 24·sub
	a.i(rv32.SLLI, res, c, 4)
	a.r(rv32.ADD, e2, e2, res)
	a.r(rv32.SUB, nn, nn, e2)
	g.sel(t, c, t, w)
	a.mv(w, t)
	a.i(rv32.SRLI, ex, w, 23)
	a.i(rv32.ANDI, ex, ex, 0xff)
	a.r(rv32.ADD, e2, ex, nn)
	// subnormal result: (sign | 1.m) · 2^-24 · 2^(e2-127+24)
	a.li(t, 0x807fffff)
	a.r(rv32.AND, res, w, t)
	a.li(t, 0x3f800000)
	a.r(rv32.OR, res, res, t)
	a.r(rv32.FMVWX, f, res, 0)
	a.li(t, 0x33800000) // 2^-24
	a.r(rv32.FMVWX, p, t, 0)
	a.fr(rv32.FMULS, f, f, p, rv32.RNE)
	a.i(rv32.ADDI, t, e2, 24) // biased exponent of 2^(e2-127+24): e2+24, in 1..24 where used
	a.i(rv32.SLLI, t, t, 23)
	a.r(rv32.FMVWX, p, t, 0)
	a.fr(rv32.FMULS, f, f, p, rv32.RNE)
	a.r(rv32.FMVXW, res, f, 0)
	// below: the signed zero
	a.i(rv32.SLTI, c, e2, -23)
	a.i(rv32.SRLI, t, w, 31)
	a.i(rv32.SLLI, t, t, 31)
	g.sel(t, c, t, res)
	a.mv(res, t)
	// normal result: the exponent field moved
	a.i(rv32.SLTI, c, e2, 1)
	a.i(rv32.XORI, c, c, 1)
	a.i(rv32.SLLI, t, nn, 23)
	a.r(rv32.ADD, t, w, t)
	g.sel(t, c, t, res)
	a.mv(res, t)
	// overflow: the signed infinity
	a.li(t, 254)
	a.r(rv32.SLT, c, t, e2)
	a.i(rv32.SRLI, t, w, 31)
	a.i(rv32.SLLI, t, t, 31)
	a.li(e2, 0x7f800000)
	a.r(rv32.OR, t, t, e2)
	g.sel(t, c, t, res)
	a.mv(res, t)
	// zero, infinity, NaN: x
	a.i(rv32.ADDI, c, ex, -255)
	a.i(rv32.SLTIU, c, c, 1)
	a.i(rv32.SLTIU, t, ex, 1)
	a.r(rv32.OR, c, c, t)
	g.sel(w, c, w, res)
	g.finX(vreg(in.Dst), w)
}
