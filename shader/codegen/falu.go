package codegen

import (
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// falu generates the float and conversion opcodes. Every sequence gives the
// executor's bits (ir.Eval) for every input with one exception the package doc
// names: a NaN result is RV32F's canonical NaN where the executor may keep a
// payload or the host's sign.
func (g *gen) falu(in *ir.Inst) bool {
	if g.transcendental(in) {
		return true
	}
	a := &g.a
	dst := vreg(in.Dst)
	switch in.Op {
	case ir.FAdd:
		g.fbin(rv32.FADDS, in, rv32.RNE)
	case ir.FSub:
		g.fbin(rv32.FSUBS, in, rv32.RNE)
	case ir.FMul:
		g.fbin(rv32.FMULS, in, rv32.RNE)
	case ir.FDiv:
		g.fbin(rv32.FDIVS, in, rv32.RNE)
	case ir.FMin: // fmin.s/fmax.s are IEEE minNum/maxNum, the executor's FMinNum
		g.fbin(rv32.FMINS, in, 0)
	case ir.FMax:
		g.fbin(rv32.FMAXS, in, 0)
	case ir.FClamp:
		x, lo, hi := g.f(g.src(in, 0)), g.f(g.src(in, 1)), g.f(g.src(in, 2))
		t := g.tmpF()
		a.fr(rv32.FMAXS, t, x, lo, 0)
		a.fr(rv32.FMINS, t, t, hi, 0)
		g.finF(dst, t)
	case ir.Fma:
		x, y, z := g.f(g.src(in, 0)), g.f(g.src(in, 1)), g.f(g.src(in, 2))
		d := g.df(dst)
		a.emit(rv32.Inst{Op: rv32.FMADDS, Rd: d, Rs1: x, Rs2: y, Rs3: z, RM: rv32.RNE})
		g.finF(dst, d)
	case ir.Sqrt: // correctly rounded, as float32(math.Sqrt(float64)) is
		x := g.f(g.src(in, 0))
		d := g.df(dst)
		a.fr(rv32.FSQRTS, d, x, 0, rv32.RNE)
		g.finF(dst, d)
	case ir.FNeg, ir.FAbs: // sign injection: bit operations, NaN payloads kept
		x := g.f(g.src(in, 0))
		d := g.df(dst)
		op := rv32.FSGNJNS
		if in.Op == ir.FAbs {
			op = rv32.FSGNJXS
		}
		a.fr(op, d, x, x, 0)
		g.finF(dst, d)
	case ir.FSign:
		x := g.f(g.src(in, 0))
		z := g.tmpF()
		a.r(rv32.FMVWX, z, rZero, 0)
		pos, neg, r, k, one := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
		a.r(rv32.FLTS, pos, z, x)
		a.r(rv32.FLTS, neg, x, z)
		a.r(rv32.FMVXW, r, x, 0)
		a.li(k, 0xbf800000) // -1.0
		g.sel(k, neg, k, r)
		a.li(one, 0x3f800000) // 1.0
		g.sel(one, pos, one, k)
		g.finX(dst, one)
	case ir.Floor, ir.Ceil, ir.Trunc, ir.Round, ir.RoundEven:
		rm := map[ir.Op]uint8{ir.Floor: rv32.RDN, ir.Ceil: rv32.RUP, ir.Trunc: rv32.RTZ, ir.Round: rv32.RMM, ir.RoundEven: rv32.RNE}[in.Op]
		g.round(dst, g.f(g.src(in, 0)), rm)
	case ir.Fract: // x - floor(x), both in float32 as the executor does
		x := g.f(g.src(in, 0))
		fl := g.roundTo(x, rv32.RDN)
		a.fr(rv32.FSUBS, fl, x, fl, rv32.RNE)
		g.finF(dst, fl)
	case ir.FMod: // x - y*floor(x/y): a divide, a floor, a product and a difference, each rounded
		x, y := g.f(g.src(in, 0)), g.f(g.src(in, 1))
		q := g.tmpF()
		a.fr(rv32.FDIVS, q, x, y, rv32.RNE)
		fl := g.roundTo(q, rv32.RDN)
		a.fr(rv32.FMULS, fl, y, fl, rv32.RNE)
		a.fr(rv32.FSUBS, fl, x, fl, rv32.RNE)
		g.finF(dst, fl)
	case ir.IsNan:
		x := g.f(g.src(in, 0))
		t := g.tmpX()
		a.r(rv32.FEQS, t, x, x)
		a.i(rv32.XORI, t, t, 1)
		g.finX(dst, t)
	case ir.IsInf: // fclass bits 0 (-inf) and 7 (+inf)
		x := g.f(g.src(in, 0))
		t := g.tmpX()
		a.r(rv32.FCLASSS, t, x, 0)
		a.i(rv32.ANDI, t, t, 0x81)
		a.r(rv32.SLTU, t, rZero, t)
		g.finX(dst, t)

	case ir.FEq:
		g.fcmp(rv32.FEQS, in, false, false)
	case ir.FNe:
		g.fcmp(rv32.FEQS, in, false, true)
	case ir.FLt:
		g.fcmp(rv32.FLTS, in, false, false)
	case ir.FLe:
		g.fcmp(rv32.FLES, in, false, false)
	case ir.FGt:
		g.fcmp(rv32.FLTS, in, true, false)
	case ir.FGe:
		g.fcmp(rv32.FLES, in, true, false)

	// Conversions: fcvt.w.s/fcvt.wu.s with rtz saturate and send NaN to the
	// largest value, which is package convert's definition; int to float rounds
	// to nearest even as Go's float32(int32) does.
	case ir.FtoI, ir.FtoU:
		x := g.f(g.src(in, 0))
		d := g.dx(dst)
		op := rv32.FCVTWS
		if in.Op == ir.FtoU {
			op = rv32.FCVTWUS
		}
		a.fr(op, d, x, 0, rv32.RTZ)
		g.finX(dst, d)
	case ir.ItoF, ir.UtoF:
		x := g.x(g.src(in, 0))
		d := g.df(dst)
		op := rv32.FCVTSW
		if in.Op == ir.UtoF {
			op = rv32.FCVTSWU
		}
		a.fr(op, d, x, 0, rv32.RNE)
		g.finF(dst, d)
	default:
		return g.pack(in)
	}
	return true
}

// round emits dst = x rounded to an integral value with rounding mode rm.
func (g *gen) round(dst vreg, x uint8, rm uint8) { g.finF(dst, g.roundTo(x, rm)) }

// roundTo returns a float scratch register holding x rounded to an integral value
// with rounding mode rm: for |x| < 2^23 fcvt.w.s and back, with x's sign put back
// (so -0.5 floors to -1 and ceils to -0, as math.Ceil does); otherwise (already
// integral, infinite or NaN) x itself. The magnitude test is on the bits: for a
// non-negative float the integer order is the float order, and every NaN is above
// 2^23.
func (g *gen) roundTo(x uint8, rm uint8) uint8 {
	a := &g.a
	xb, c, t := g.tmpX(), g.tmpX(), g.tmpX()
	r := g.tmpF()
	a.r(rv32.FMVXW, xb, x, 0)
	a.i(rv32.SLLI, c, xb, 1)
	a.i(rv32.SRLI, c, c, 1)
	a.li(t, 0x4b000000) // 2^23
	a.r(rv32.SLTU, c, c, t)
	a.fr(rv32.FCVTWS, t, x, 0, rm)
	a.fr(rv32.FCVTSW, r, t, 0, rv32.RNE)
	a.fr(rv32.FSGNJS, r, r, x, 0)
	a.r(rv32.FMVXW, t, r, 0)
	g.sel(t, c, t, xb)
	a.r(rv32.FMVWX, r, t, 0)
	return r
}
