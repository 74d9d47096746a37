package simt

import (
	"testing"

	"vortexgfx/isa/rv32"
)

const (
	codeBase = 0x100 // code and data below 2 KiB: every address fits an immediate
	dataBase = 0x400
	memSize  = 0x10000
)

// Register numbers used by the hand-written programs.
const (
	zero, ra, sp, t0, t1, t2 = 0, 1, 2, 5, 6, 7
	a0, a1, a2, a3, a4, a5   = 10, 11, 12, 13, 14, 15
)

// prog assembles instructions at codeBase into a fresh flat memory.
func prog(t *testing.T, insts ...rv32.Inst) *FlatMemory {
	t.Helper()
	m := NewFlatMemory(0, memSize)
	for i, in := range insts {
		w, err := rv32.Encode(in)
		if err != nil {
			t.Fatalf("instruction %d (%s): %v", i, in.Op, err)
		}
		if err := m.Store(codeBase+uint32(4*i), 4, w); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func newCore(t *testing.T, mem Memory, warps, threads int) *Core {
	t.Helper()
	c, err := New(Config{Warps: warps, Threads: threads, MaxInstructions: 1_000_000}, mem)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Instruction constructors.
func I(op rv32.Op, rd, rs1 uint8, imm int32) rv32.Inst {
	return rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Imm: imm}
}
func R(op rv32.Op, rd, rs1, rs2 uint8) rv32.Inst {
	return rv32.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2}
}
func S(op rv32.Op, rs2, rs1 uint8, imm int32) rv32.Inst {
	return rv32.Inst{Op: op, Rs1: rs1, Rs2: rs2, Imm: imm}
}
func B(op rv32.Op, rs1, rs2 uint8, off int32) rv32.Inst {
	return rv32.Inst{Op: op, Rs1: rs1, Rs2: rs2, Imm: off}
}
func csrr(rd uint8, csr uint16) rv32.Inst { return rv32.Inst{Op: rv32.CSRRS, Rd: rd, CSR: csr} }
func li(rd uint8, v int32) rv32.Inst      { return I(rv32.ADDI, rd, zero, v) }

// halt is vx_tmc(x0): the warp (its running lane group) stops.
var halt = rv32.Inst{Op: rv32.VXTMC}

// tmc sets the thread mask from rs1.
func tmc(rs1 uint8) rv32.Inst { return rv32.Inst{Op: rv32.VXTMC, Rs1: rs1} }

// storeTid stores rs (per lane) to dataBase + 4*thread id, using t2 as scratch.
func storeTid(rs uint8) []rv32.Inst {
	return []rv32.Inst{csrr(t2, CSRThreadID), I(rv32.SLLI, t2, t2, 2), S(rv32.SW, rs, t2, dataBase)}
}

func cat(parts ...any) []rv32.Inst {
	var out []rv32.Inst
	for _, p := range parts {
		switch v := p.(type) {
		case rv32.Inst:
			out = append(out, v)
		case []rv32.Inst:
			out = append(out, v...)
		}
	}
	return out
}

func word(t *testing.T, m Memory, addr uint32) uint32 {
	t.Helper()
	v, err := m.Load(addr, 4)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
