package codegen

import (
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// clampBits emits the executor's bitfield range clamp (ir's bfRange: 0 <= offset
// <= 32, 0 <= count <= 32-offset, signed compares) and returns the registers
// holding offset and count.
func (g *gen) clampBits(o, c uint8) (off, n uint8) {
	a := &g.a
	r1, r2, t, r3 := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	a.i(rv32.SRAI, r1, o, 31) // r1 = max(o, 0)
	a.i(rv32.XORI, r1, r1, -1)
	a.r(rv32.AND, r1, o, r1)
	a.li(r2, 32) // r2 = min(r1, 32)
	a.r(rv32.SLT, t, r2, r1)
	g.sel(r2, t, r2, r1)
	a.i(rv32.SRAI, r3, c, 31) // r3 = max(c, 0)
	a.i(rv32.XORI, r3, r3, -1)
	a.r(rv32.AND, r3, c, r3)
	a.li(r1, 32) // r1 = min(r3, 32-off)
	a.r(rv32.SUB, r1, r1, r2)
	a.r(rv32.SLT, t, r1, r3)
	g.sel(r1, t, r1, r3)
	g.xs -= 2 // t and r3 are free again
	return r2, r1
}

// bitfield emits bitfieldExtract (IBfe/UBfe) and bitfieldInsert. With n >= 1 the
// shift amounts 32-off-n and 32-n lie in 0..31; n = 0 is masked to the executor's
// result (0 for an extract, the base for an insert).
func (g *gen) bitfield(in *ir.Inst) {
	a := &g.a
	dst := vreg(in.Dst)
	if in.Op == ir.BitfieldInsert {
		base, ins := g.x(g.src(in, 0)), g.x(g.src(in, 1))
		off, n := g.clampBits(g.x(g.src(in, 2)), g.x(g.src(in, 3)))
		m, t := g.tmpX(), g.tmpX()
		a.li(t, 32) // m = (^0 >> (32-n)) << off, 0 when n = 0
		a.r(rv32.SUB, t, t, n)
		a.i(rv32.ADDI, m, rZero, -1)
		a.r(rv32.SRL, m, m, t)
		a.r(rv32.SLL, m, m, off)
		a.r(rv32.SLTU, t, rZero, n)
		a.r(rv32.SUB, t, rZero, t)
		a.r(rv32.AND, m, m, t)
		a.r(rv32.SLL, t, ins, off) // t = (ins << off) & m
		a.r(rv32.AND, t, t, m)
		a.i(rv32.XORI, m, m, -1)
		a.r(rv32.AND, m, m, base)
		a.r(rv32.OR, m, m, t)
		g.finX(dst, m)
		return
	}
	v := g.x(g.src(in, 0))
	off, n := g.clampBits(g.x(g.src(in, 1)), g.x(g.src(in, 2)))
	t, r := g.tmpX(), g.tmpX()
	a.li(t, 32)
	a.r(rv32.SUB, t, t, off)
	a.r(rv32.SUB, t, t, n)
	a.r(rv32.SLL, r, v, t)
	a.li(t, 32)
	a.r(rv32.SUB, t, t, n)
	sh := rv32.SRL
	if in.Op == ir.IBfe {
		sh = rv32.SRA
	}
	a.r(sh, r, r, t)
	a.r(rv32.SLTU, t, rZero, n)
	a.r(rv32.SUB, t, rZero, t)
	a.r(rv32.AND, r, r, t)
	g.finX(dst, r)
}

// bitReverse swaps bits, pairs, nibbles, bytes and halves.
func (g *gen) bitReverse(in *ir.Inst) {
	a := &g.a
	src := g.x(g.src(in, 0))
	v, m, t, u := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	a.mv(v, src)
	for _, st := range []struct {
		sh   int32
		mask uint32
	}{{1, 0x55555555}, {2, 0x33333333}, {4, 0x0f0f0f0f}, {8, 0x00ff00ff}} {
		a.li(m, st.mask)
		a.i(rv32.SRLI, t, v, st.sh)
		a.r(rv32.AND, t, t, m)
		a.r(rv32.AND, u, v, m)
		a.i(rv32.SLLI, u, u, st.sh)
		a.r(rv32.OR, v, t, u)
	}
	a.i(rv32.SRLI, t, v, 16)
	a.i(rv32.SLLI, u, v, 16)
	a.r(rv32.OR, v, t, u)
	g.finX(vreg(in.Dst), v)
}

// bitCount is the SWAR population count.
func (g *gen) bitCount(in *ir.Inst) {
	a := &g.a
	src := g.x(g.src(in, 0))
	v, m, t := g.tmpX(), g.tmpX(), g.tmpX()
	a.li(m, 0x55555555)
	a.i(rv32.SRLI, t, src, 1)
	a.r(rv32.AND, t, t, m)
	a.r(rv32.SUB, v, src, t)
	a.li(m, 0x33333333)
	a.i(rv32.SRLI, t, v, 2)
	a.r(rv32.AND, t, t, m)
	a.r(rv32.AND, v, v, m)
	a.r(rv32.ADD, v, v, t)
	a.i(rv32.SRLI, t, v, 4)
	a.r(rv32.ADD, v, v, t)
	a.li(m, 0x0f0f0f0f)
	a.r(rv32.AND, v, v, m)
	a.li(m, 0x01010101)
	a.r(rv32.MUL, v, v, m)
	a.i(rv32.SRLI, v, v, 24)
	g.finX(vreg(in.Dst), v)
}

// findBit emits findLSB and findMSB through the float exponent: a power of two
// (the isolated low bit) or the value itself converted with rtz (never rounding
// up into the next exponent) has exponent 127 + the bit index; 0 gives -1.
func (g *gen) findBit(in *ir.Inst) {
	a := &g.a
	src := g.x(g.src(in, 0))
	v, t, k := g.tmpX(), g.tmpX(), g.tmpX()
	f := g.tmpF()
	switch in.Op {
	case ir.FindLSB:
		a.r(rv32.SUB, v, rZero, src)
		a.r(rv32.AND, v, v, src)
	case ir.IFindMSB: // the highest bit that differs from the sign
		a.i(rv32.SRAI, v, src, 31)
		a.r(rv32.XOR, v, v, src)
	default:
		a.mv(v, src)
	}
	a.fr(rv32.FCVTSWU, f, v, 0, rv32.RTZ)
	a.r(rv32.FMVXW, t, f, 0)
	a.i(rv32.SRLI, t, t, 23)
	a.i(rv32.ADDI, t, t, -127)
	a.i(rv32.SLTIU, v, v, 1)
	a.i(rv32.ADDI, k, rZero, -1)
	g.sel(k, v, k, t)
	g.finX(vreg(in.Dst), k)
}
