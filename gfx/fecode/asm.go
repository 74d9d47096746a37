package fecode

import (
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/codegen"
)

// prog is codegen.Asm with the shorthands the hand-written kernels use.
type prog struct{ codegen.Asm }

func (p *prog) r(op rv32.Op, rd, rs1, rs2 uint8) {
	p.Emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2})
}
func (p *prog) i(op rv32.Op, rd, rs1 uint8, imm int32) {
	p.Emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Imm: imm})
}
func (p *prog) lw(rd, base uint8, off int32) { p.i(rv32.LW, rd, base, off) }
func (p *prog) sw(rs, base uint8, off int32) {
	p.Emit(rv32.Inst{Op: rv32.SW, Rs1: base, Rs2: rs, Imm: off})
}
func (p *prog) csr(rd uint8, n uint16) { p.Emit(rv32.Inst{Op: rv32.CSRRS, Rd: rd, CSR: n}) }

// minu sets rd = min(rd, rs) unsigned without a branch (so the lanes never
// diverge): t = -(rs < rd); rd ^= (rd ^ rs) & t. t and u are scratch.
func (p *prog) minu(rd, rs, t, u uint8) {
	p.r(rv32.SLTU, t, rs, rd)
	p.r(rv32.SUB, t, 0, t)
	p.r(rv32.XOR, u, rd, rs)
	p.r(rv32.AND, u, u, t)
	p.r(rv32.XOR, rd, rd, u)
}

// predicate is a per-lane loop's head: lanes whose cond (set by the
// caller's code before predicate) is 0 drop out; when none is left the lanes
// of the loop's entry (mask, read by the caller at entry) come back and the
// uniform branch leaves to exit. spec: vortex-hardware-facts.md §9 (vx_pred)
func (p *prog) predicate(cond, mask uint8, exit int) {
	p.Emit(rv32.Inst{Op: rv32.VXPRED, Rs1: cond, Rs2: mask})
	p.Branch(rv32.BEQ, cond, 0, exit)
}

// halt ends the warp.
func (p *prog) halt() { p.Emit(rv32.Inst{Op: rv32.VXTMC, Rs1: 0}) }
