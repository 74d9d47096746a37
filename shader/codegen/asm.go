package codegen

import (
	"fmt"

	"vortexgfx/isa/rv32"
)

// Integer register numbers the generator names. spec: RISC-V ABI register names
// (the kernel calls nothing, so every register but zero and sp is the allocator's).
const (
	rZero = 0
	rRA   = 1
	rSP   = 2
	rT0   = 5
	rT1   = 6
	rT2   = 7
	rT3   = 28
	rT4   = 29
	rT5   = 30
	rT6   = 31
)

// item is one emitted instruction; a branch or jal to a label carries the label
// and is patched when the code is laid out.
type item struct {
	in     rv32.Inst
	target int  // label id, -1: none
	long   bool // a conditional branch relaxed to an inverted branch over a jal
	// la is auipc rd + addi rd, rd: the address of label target, pc-relative
	// (two words), so the code stays position independent.
	la bool
	// data is a read-only data word (in.Imm's bits), not an instruction: a
	// table the code reads through la.
	data bool
}

// asm collects instructions and labels and lays them out with branch relaxation:
// a conditional branch whose label lies beyond ±4 KiB becomes the inverted branch
// over a jal (±1 MiB), so control flow never fails on a large kernel.
type asm struct {
	items  []item
	labels []int // label id -> index of the item it precedes (-1: not placed)
}

func (a *asm) emit(in rv32.Inst) { a.items = append(a.items, item{in: in, target: -1}) }

func (a *asm) newLabel() int {
	a.labels = append(a.labels, -1)
	return len(a.labels) - 1
}

func (a *asm) place(l int) { a.labels[l] = len(a.items) }

// la loads the address of label l into rd (auipc + addi, pc-relative).
func (a *asm) la(rd uint8, l int) {
	a.items = append(a.items, item{in: rv32.Inst{Op: rv32.AUIPC, Rd: rd}, target: l, la: true})
}

// word places data word w in the code (read-only data after the last
// instruction, reached with la).
func (a *asm) word(w uint32) {
	a.items = append(a.items, item{in: rv32.Inst{Imm: int32(w)}, target: -1, data: true})
}

// branch emits a conditional branch (BEQ, BNE, ...) to label l.
func (a *asm) branch(op rv32.Op, rs1, rs2 uint8, l int) {
	a.items = append(a.items, item{in: rv32.Inst{Op: op, Rs1: rs1, Rs2: rs2}, target: l})
}

// jump emits jal x0 to label l.
func (a *asm) jump(l int) {
	a.items = append(a.items, item{in: rv32.Inst{Op: rv32.JAL}, target: l})
}

func invert(op rv32.Op) rv32.Op {
	switch op {
	case rv32.BEQ:
		return rv32.BNE
	case rv32.BNE:
		return rv32.BEQ
	case rv32.BLT:
		return rv32.BGE
	case rv32.BGE:
		return rv32.BLT
	case rv32.BLTU:
		return rv32.BGEU
	}
	return rv32.BLTU
}

// words lays the code out and encodes it.
func (a *asm) words() ([]uint32, error) {
	for l, at := range a.labels {
		if at < 0 {
			return nil, fmt.Errorf("codegen: internal error: label %d never placed", l)
		}
	}
	addr := make([]int32, len(a.items)+1)
	for {
		var pc int32
		for i, it := range a.items {
			addr[i] = pc
			pc += 4
			if it.long || it.la {
				pc += 4
			}
		}
		addr[len(a.items)] = pc
		changed := false
		for i := range a.items {
			it := &a.items[i]
			if it.target < 0 || it.in.Op == rv32.JAL || it.long || it.la {
				continue
			}
			if off := addr[a.labels[it.target]] - addr[i]; off < -4096 || off > 4094 {
				it.long, changed = true, true
			}
		}
		if !changed {
			break
		}
	}
	out := make([]uint32, 0, addr[len(a.items)]/4)
	put := func(in rv32.Inst, where string) error {
		w, err := rv32.Encode(in)
		if err != nil {
			return fmt.Errorf("codegen: %s: %w", where, err)
		}
		out = append(out, w)
		return nil
	}
	for i, it := range a.items {
		in := it.in
		if it.data {
			out = append(out, uint32(in.Imm))
			continue
		}
		if it.la {
			off := addr[a.labels[it.target]] - addr[i]
			hi := (off + 0x800) &^ 0xfff
			if err := put(rv32.Inst{Op: rv32.AUIPC, Rd: in.Rd, Imm: hi}, "la"); err != nil {
				return nil, err
			}
			if err := put(rv32.Inst{Op: rv32.ADDI, Rd: in.Rd, Rs1: in.Rd, Imm: off - hi}, "la"); err != nil {
				return nil, err
			}
			continue
		}
		if it.target >= 0 {
			off := addr[a.labels[it.target]] - addr[i]
			switch {
			case in.Op == rv32.JAL:
				in.Imm = off
			case it.long:
				if err := put(rv32.Inst{Op: invert(in.Op), Rs1: in.Rs1, Rs2: in.Rs2, Imm: 8}, "branch"); err != nil {
					return nil, err
				}
				in = rv32.Inst{Op: rv32.JAL, Imm: off - 4}
			default:
				in.Imm = off
			}
		}
		if err := put(in, fmt.Sprintf("instruction %d (%s)", i, in.Op)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Instruction shorthands.
func (a *asm) r(op rv32.Op, rd, rs1, rs2 uint8) {
	a.emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2})
}
func (a *asm) i(op rv32.Op, rd, rs1 uint8, imm int32) {
	a.emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Imm: imm})
}
func (a *asm) fr(op rv32.Op, rd, rs1, rs2 uint8, rm uint8) {
	a.emit(rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2, RM: rm})
}
func (a *asm) lw(rd, base uint8, off int32) { a.i(rv32.LW, rd, base, off) }
func (a *asm) sw(rs, base uint8, off int32) {
	a.emit(rv32.Inst{Op: rv32.SW, Rs1: base, Rs2: rs, Imm: off})
}
func (a *asm) flw(rd, base uint8, off int32) { a.i(rv32.FLW, rd, base, off) }
func (a *asm) fsw(rs, base uint8, off int32) {
	a.emit(rv32.Inst{Op: rv32.FSW, Rs1: base, Rs2: rs, Imm: off})
}
func (a *asm) mv(rd, rs uint8) {
	if rd != rs {
		a.i(rv32.ADDI, rd, rs, 0)
	}
}
func (a *asm) csrr(rd uint8, csr uint16) { a.emit(rv32.Inst{Op: rv32.CSRRS, Rd: rd, CSR: csr}) }

// li loads a 32-bit constant: addi alone when it fits 12 bits, else lui (+ addi).
func (a *asm) li(rd uint8, v uint32) {
	s := int32(v)
	if s >= -2048 && s < 2048 {
		a.i(rv32.ADDI, rd, rZero, s)
		return
	}
	lo := int32(v<<20) >> 20
	hi := int32(v - uint32(lo))
	a.emit(rv32.Inst{Op: rv32.LUI, Rd: rd, Imm: hi})
	if lo != 0 {
		a.i(rv32.ADDI, rd, rd, lo)
	}
}

// addConst emits rd = rs + v (through scratch tmp when v does not fit 12 bits).
func (a *asm) addConst(rd, rs uint8, v int32, tmp uint8) {
	if v >= -2048 && v < 2048 {
		if v != 0 || rd != rs {
			a.i(rv32.ADDI, rd, rs, v)
		}
		return
	}
	a.li(tmp, uint32(v))
	a.r(rv32.ADD, rd, rs, tmp)
}
