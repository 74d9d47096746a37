package rv32

import (
	"fmt"
	"strconv"
	"strings"
)

// The ABI register names objdump prints.
var xNames = [32]string{"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
	"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"}

var fNames = [32]string{"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1",
	"fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6",
	"fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"}

var rmNames = [8]string{"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"}

// csrNames are the CSR names binutils prints for the CSRs a kernel plausibly touches;
// any other CSR prints as its number, as objdump does for CSRs it does not know
// (the Vortex CSRs among them).
var csrNames = map[uint16]string{
	0x001: "fflags", 0x002: "frm", 0x003: "fcsr",
	0xc00: "cycle", 0xc01: "time", 0xc02: "instret", 0xc80: "cycleh", 0xc81: "timeh", 0xc82: "instreth",
	0x300: "mstatus", 0x301: "misa", 0x304: "mie", 0x305: "mtvec", 0x340: "mscratch",
	0x341: "mepc", 0x342: "mcause", 0x343: "mtval", 0x344: "mip",
	0xb00: "mcycle", 0xb02: "minstret", 0xb80: "mcycleh", 0xb82: "minstreth",
	0xf11: "mvendorid", 0xf12: "marchid", 0xf13: "mimpid", 0xf14: "mhartid",
}

func reg(class uint8, r uint8) string {
	if class == regF {
		return fNames[r]
	}
	return xNames[r]
}

func csrName(c uint16) string {
	if n, ok := csrNames[c]; ok {
		return n
	}
	return fmt.Sprintf("0x%x", c)
}

func fenceSet(v int32) string {
	s := ""
	for i, c := range "iorw" {
		if v&(8>>i) != 0 {
			s += string(c)
		}
	}
	if s == "" {
		return "0"
	}
	return s
}

// Disasm renders in, located at pc, in GNU objdump's `-M no-aliases` syntax
// (mnemonic, a tab, comma-separated operands with ABI register names; branch and
// jump targets as absolute hex addresses; rounding modes only when not dyn). The
// Vortex ops, which binutils does not know, use the kernel SDK's intrinsic names.
func Disasm(in Inst, pc uint32) string {
	if in.Op == OpInvalid || in.Op >= numOps || in.Rd > 31 || in.Rs1 > 31 || in.Rs2 > 31 || in.Rs3 > 31 || in.AqRl > 3 || in.RM > 7 {
		return "invalid"
	}
	info := &ops[in.Op]
	if info.rm && (in.RM == 5 || in.RM == 6) {
		return "invalid" // reserved rounding modes
	}
	name := info.name
	var args []string
	r := func(class, n uint8) { args = append(args, reg(class, n)) }
	switch info.fmt {
	case fmtR:
		if info.rd != regNone {
			r(info.rd, in.Rd)
		}
		if info.rs1 != regNone {
			r(info.rs1, in.Rs1)
		}
		if info.rs2 != regNone {
			r(info.rs2, in.Rs2)
		}
	case fmtR4:
		if info.rd != regNone {
			r(info.rd, in.Rd)
		}
		r(info.rs1, in.Rs1)
		r(info.rs2, in.Rs2)
		r(info.rs3, in.Rs3)
		if info.f2imm {
			args = append(args, strconv.Itoa(int(in.Imm)))
		}
	case fmtI:
		if info.mem {
			r(info.rd, in.Rd)
			args = append(args, fmt.Sprintf("%d(%s)", in.Imm, xNames[in.Rs1]))
		} else {
			r(info.rd, in.Rd)
			r(info.rs1, in.Rs1)
			args = append(args, strconv.Itoa(int(in.Imm)))
		}
	case fmtS:
		r(info.rs2, in.Rs2)
		args = append(args, fmt.Sprintf("%d(%s)", in.Imm, xNames[in.Rs1]))
	case fmtB:
		r(regX, in.Rs1)
		r(regX, in.Rs2)
		args = append(args, fmt.Sprintf("%x", pc+uint32(in.Imm)))
	case fmtU:
		r(regX, in.Rd)
		args = append(args, fmt.Sprintf("0x%x", uint32(in.Imm)>>12))
	case fmtJ:
		r(regX, in.Rd)
		args = append(args, fmt.Sprintf("%x", pc+uint32(in.Imm)))
	case fmtShift:
		r(regX, in.Rd)
		r(regX, in.Rs1)
		args = append(args, fmt.Sprintf("0x%x", in.Imm))
	case fmtCSR:
		r(regX, in.Rd)
		args = append(args, csrName(in.CSR))
		r(regX, in.Rs1)
	case fmtCSRI:
		r(regX, in.Rd)
		args = append(args, csrName(in.CSR), strconv.Itoa(int(in.Imm)))
	case fmtFence:
		if in.Imm == 0x833 {
			return "fence.tso"
		}
		args = append(args, fenceSet(in.Imm>>4&15), fenceSet(in.Imm&15))
	case fmtNone:
		return name
	case fmtAMO:
		name += [...]string{"", ".rl", ".aq", ".aqrl"}[in.AqRl]
		r(regX, in.Rd)
		if in.Op != LRW {
			r(regX, in.Rs2)
		}
		args = append(args, "("+xNames[in.Rs1]+")")
	}
	if info.rm && in.RM != DYN {
		args = append(args, rmNames[in.RM])
	}
	if len(args) == 0 {
		return name
	}
	return name + "\t" + strings.Join(args, ",")
}

// DisasmWord decodes and renders w at pc; a word that is no instruction renders as
// objdump renders it, `.4byte 0x...` (compressed halves included, which this model
// refuses to execute).
func DisasmWord(w, pc uint32) string {
	in, err := Decode(w)
	if err != nil {
		return fmt.Sprintf(".4byte\t0x%x", w)
	}
	return Disasm(in, pc)
}
