package codegen

import (
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

func (g *gen) src(in *ir.Inst, i int) vreg { return vreg(in.Src[i]) }

// bin emits dst = op(src0, src1) on integer registers.
func (g *gen) bin(op rv32.Op, in *ir.Inst, swap bool) {
	a, b := g.x(g.src(in, 0)), g.x(g.src(in, 1))
	if swap {
		a, b = b, a
	}
	d := g.dx(vreg(in.Dst))
	g.a.r(op, d, a, b)
	g.finX(vreg(in.Dst), d)
}

// fbin emits dst = op(src0, src1) on float registers with rounding mode rm.
func (g *gen) fbin(op rv32.Op, in *ir.Inst, rm uint8) {
	a, b := g.f(g.src(in, 0)), g.f(g.src(in, 1))
	d := g.df(vreg(in.Dst))
	g.a.fr(op, d, a, b, rm)
	g.finF(vreg(in.Dst), d)
}

// fcmp emits dst = op(a, b) (feq/flt/fle) with the sources optionally swapped and
// the result optionally negated.
func (g *gen) fcmp(op rv32.Op, in *ir.Inst, swap, neg bool) {
	a, b := g.f(g.src(in, 0)), g.f(g.src(in, 1))
	if swap {
		a, b = b, a
	}
	d := g.tmpX()
	g.a.r(op, d, a, b)
	if neg {
		g.a.i(rv32.XORI, d, d, 1)
	}
	g.finX(vreg(in.Dst), d)
}

// icmp emits dst = slt/sltu(a, b), optionally swapped and negated.
func (g *gen) icmp(op rv32.Op, in *ir.Inst, swap, neg bool) {
	a, b := g.x(g.src(in, 0)), g.x(g.src(in, 1))
	if swap {
		a, b = b, a
	}
	d := g.tmpX()
	g.a.r(op, d, a, b)
	if neg {
		g.a.i(rv32.XORI, d, d, 1)
	}
	g.finX(vreg(in.Dst), d)
}

// sel emits r = c ? b : e branch-free; c is a scratch register holding 0 or 1,
// and is clobbered (r may be b, but not c or e).
func (g *gen) sel(r, c, b, e uint8) {
	g.a.r(rv32.SUB, c, rZero, c)
	g.a.r(rv32.XOR, r, b, e)
	g.a.r(rv32.AND, r, r, c)
	g.a.r(rv32.XOR, r, r, e)
}

// minmax emits r = (a < b by op) == wantB ? b : a: slt/sltu select.
func (g *gen) minmax(r, a, b uint8, op rv32.Op, swap bool) {
	c := g.tmpX()
	if swap {
		g.a.r(op, c, a, b) // c = a < b: take b (max)
	} else {
		g.a.r(op, c, b, a) // c = b < a: take b (min)
	}
	g.sel(r, c, b, a)
}

// copyBits emits dst = src's bits, across register classes.
func (g *gen) copyBits(dst, src vreg) {
	if g.float[dst] {
		g.finF(dst, g.f(src))
		return
	}
	g.finX(dst, g.x(src))
}

// alu generates one pure ALU instruction; ok is false for an opcode it does not
// implement (the caller refuses the program naming it).
func (g *gen) alu(in *ir.Inst) bool {
	a := &g.a
	dst := vreg(in.Dst)
	switch in.Op {
	case ir.Const:
		g.setConst(dst, in.Imm)
	case ir.Mov, ir.Cast:
		g.copyBits(dst, g.src(in, 0))
	case ir.Select:
		c := g.x(g.src(in, 0))
		t := g.tmpX()
		a.r(rv32.SLTU, t, rZero, c)
		b, e := g.x(g.src(in, 1)), g.x(g.src(in, 2))
		r := g.tmpX()
		g.sel(r, t, b, e)
		g.finX(dst, r)

	// Integer arithmetic: RISC-V M gives the executor's results for x/0 (-1, all
	// ones), x%0 (x) and INT_MIN/-1 (INT_MIN, remainder 0) directly.
	case ir.IAdd, ir.UAdd:
		g.bin(rv32.ADD, in, false)
	case ir.ISub, ir.USub:
		g.bin(rv32.SUB, in, false)
	case ir.IMul, ir.UMul:
		g.bin(rv32.MUL, in, false)
	case ir.IDiv:
		g.bin(rv32.DIV, in, false)
	case ir.UDiv:
		g.bin(rv32.DIVU, in, false)
	case ir.IMod:
		g.bin(rv32.REM, in, false)
	case ir.UMod:
		g.bin(rv32.REMU, in, false)
	case ir.IMulHi:
		g.bin(rv32.MULH, in, false)
	case ir.UMulHi:
		g.bin(rv32.MULHU, in, false)
	case ir.UAddCarry:
		x, y := g.x(g.src(in, 0)), g.x(g.src(in, 1))
		t := g.tmpX()
		a.r(rv32.ADD, t, x, y)
		a.r(rv32.SLTU, t, t, x)
		g.finX(dst, t)
	case ir.USubBorrow:
		g.bin(rv32.SLTU, in, false)
	case ir.INeg:
		x := g.x(g.src(in, 0))
		d := g.dx(dst)
		a.r(rv32.SUB, d, rZero, x)
		g.finX(dst, d)
	case ir.IAbs:
		x := g.x(g.src(in, 0))
		t, r := g.tmpX(), g.tmpX()
		a.i(rv32.SRAI, t, x, 31)
		a.r(rv32.XOR, r, x, t)
		a.r(rv32.SUB, r, r, t)
		g.finX(dst, r)
	case ir.ISign:
		x := g.x(g.src(in, 0))
		t, r := g.tmpX(), g.tmpX()
		a.r(rv32.SLT, t, rZero, x)
		a.i(rv32.SRAI, r, x, 31)
		a.r(rv32.OR, r, r, t)
		g.finX(dst, r)
	case ir.IMin, ir.IMax, ir.UMin, ir.UMax:
		x, y := g.x(g.src(in, 0)), g.x(g.src(in, 1))
		op := rv32.SLT
		if in.Op == ir.UMin || in.Op == ir.UMax {
			op = rv32.SLTU
		}
		r := g.tmpX()
		g.minmax(r, x, y, op, in.Op == ir.IMax || in.Op == ir.UMax)
		g.finX(dst, r)
	case ir.IClamp, ir.UClamp: // min(max(x, lo), hi), the executor's order
		op := rv32.SLT
		if in.Op == ir.UClamp {
			op = rv32.SLTU
		}
		x, lo, hi := g.x(g.src(in, 0)), g.x(g.src(in, 1)), g.x(g.src(in, 2))
		r := g.tmpX()
		g.minmax(r, x, lo, op, true)
		r2 := g.tmpX()
		g.minmax(r2, r, hi, op, false)
		g.finX(dst, r2)

	case ir.Not:
		x := g.x(g.src(in, 0))
		d := g.dx(dst)
		a.i(rv32.XORI, d, x, -1)
		g.finX(dst, d)
	case ir.And:
		g.bin(rv32.AND, in, false)
	case ir.Or:
		g.bin(rv32.OR, in, false)
	case ir.Xor:
		g.bin(rv32.XOR, in, false)
	case ir.Shl: // the shifts use the amount's low five bits, as the executor does
		g.bin(rv32.SLL, in, false)
	case ir.IShr:
		g.bin(rv32.SRA, in, false)
	case ir.UShr:
		g.bin(rv32.SRL, in, false)
	case ir.IBfe, ir.UBfe, ir.BitfieldInsert:
		g.bitfield(in)
	case ir.BitReverse:
		g.bitReverse(in)
	case ir.BitCount:
		g.bitCount(in)
	case ir.FindLSB, ir.IFindMSB, ir.UFindMSB:
		g.findBit(in)

	case ir.BAnd, ir.BOr, ir.BXor:
		x, y := g.x(g.src(in, 0)), g.x(g.src(in, 1))
		t, u := g.tmpX(), g.tmpX()
		a.r(rv32.SLTU, t, rZero, x)
		a.r(rv32.SLTU, u, rZero, y)
		a.r(map[ir.Op]rv32.Op{ir.BAnd: rv32.AND, ir.BOr: rv32.OR, ir.BXor: rv32.XOR}[in.Op], t, t, u)
		g.finX(dst, t)
	case ir.BNot:
		x := g.x(g.src(in, 0))
		t := g.tmpX()
		a.i(rv32.SLTIU, t, x, 1)
		g.finX(dst, t)
	case ir.BtoI, ir.BtoU:
		x := g.x(g.src(in, 0))
		t := g.tmpX()
		a.r(rv32.SLTU, t, rZero, x)
		g.finX(dst, t)
	case ir.BtoF:
		x := g.x(g.src(in, 0))
		t, u := g.tmpX(), g.tmpX()
		a.r(rv32.SLTU, t, rZero, x)
		a.r(rv32.SUB, t, rZero, t)
		a.li(u, 0x3f800000)
		a.r(rv32.AND, t, t, u)
		g.finX(dst, t)

	case ir.ILt:
		g.icmp(rv32.SLT, in, false, false)
	case ir.IGt:
		g.icmp(rv32.SLT, in, true, false)
	case ir.ILe:
		g.icmp(rv32.SLT, in, true, true)
	case ir.IGe:
		g.icmp(rv32.SLT, in, false, true)
	case ir.ULt:
		g.icmp(rv32.SLTU, in, false, false)
	case ir.UGt:
		g.icmp(rv32.SLTU, in, true, false)
	case ir.ULe:
		g.icmp(rv32.SLTU, in, true, true)
	case ir.UGe:
		g.icmp(rv32.SLTU, in, false, true)
	case ir.Eq, ir.Ne: // the words' bits, whatever their type
		x, y := g.x(g.src(in, 0)), g.x(g.src(in, 1))
		t := g.tmpX()
		a.r(rv32.XOR, t, x, y)
		if in.Op == ir.Eq {
			a.i(rv32.SLTIU, t, t, 1)
		} else {
			a.r(rv32.SLTU, t, rZero, t)
		}
		g.finX(dst, t)

	default:
		return g.falu(in)
	}
	return true
}
