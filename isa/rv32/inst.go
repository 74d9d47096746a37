package rv32

import "fmt"

// Rounding modes (the rm field and the frm CSR). spec: RISC-V unprivileged §11.2.
const (
	RNE = 0 // round to nearest, ties to even
	RTZ = 1 // round towards zero
	RDN = 2 // round down (towards -inf)
	RUP = 3 // round up (towards +inf)
	RMM = 4 // round to nearest, ties to max magnitude
	DYN = 7 // use frm
)

// Inst is one decoded instruction. Unused fields are zero. Imm holds the sign-extended
// immediate (the byte offset for branches and jumps, the already-shifted value for
// lui/auipc, shamt for shifts, fm<<8|pred<<4|succ for fence, the zero-extended uimm for the
// CSR immediate forms, and funct2 for the Vortex graphics ops).
type Inst struct {
	Op                Op
	Rd, Rs1, Rs2, Rs3 uint8
	RM                uint8  // rounding mode, for ops that take one
	AqRl              uint8  // AMO ordering bits: aq<<1 | rl
	CSR               uint16 // CSR number
	Imm               int32
}

// DecodeError is a word that is no instruction of the modelled set.
type DecodeError struct {
	Word   uint32
	Reason string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("rv32: illegal instruction 0x%08x: %s", e.Word, e.Reason)
}

// IsCompressed reports whether the low 16 bits of w start a 16-bit (C extension)
// instruction: kernels are built without C, so such words are refused.
func IsCompressed(w uint32) bool { return w&3 != 3 }

func sext(v uint32, bits uint) int32 { return int32(v<<(32-bits)) >> (32 - bits) }

// Decode decodes one 32-bit instruction word.
func Decode(w uint32) (Inst, error) {
	if IsCompressed(w) {
		return Inst{}, &DecodeError{w, "compressed (C extension) instructions are not supported"}
	}
	for _, op := range byOpcode[w&mOpc] {
		info := &ops[op]
		if w&info.mask != info.match {
			continue
		}
		in := Inst{Op: op}
		rd, rs1, rs2 := uint8(w>>7&31), uint8(w>>15&31), uint8(w>>20&31)
		switch info.fmt {
		case fmtR:
			in.Rd, in.Rs1, in.Rs2 = rd, rs1, rs2
		case fmtR4:
			in.Rd, in.Rs1, in.Rs2, in.Rs3 = rd, rs1, rs2, uint8(w>>27)
			if info.f2imm {
				in.Imm = int32(w >> 25 & 3)
			}
		case fmtI:
			in.Rd, in.Rs1, in.Imm = rd, rs1, int32(w)>>20
		case fmtS:
			in.Rs1, in.Rs2 = rs1, rs2
			in.Imm = sext(w>>25<<5|w>>7&31, 12)
		case fmtB:
			in.Rs1, in.Rs2 = rs1, rs2
			in.Imm = sext(w>>31<<12|(w>>7&1)<<11|(w>>25&0x3f)<<5|(w>>8&0xf)<<1, 13)
		case fmtU:
			in.Rd, in.Imm = rd, int32(w&0xfffff000)
		case fmtJ:
			in.Rd = rd
			in.Imm = sext(w>>31<<20|(w>>12&0xff)<<12|(w>>20&1)<<11|(w>>21&0x3ff)<<1, 21)
		case fmtShift:
			in.Rd, in.Rs1, in.Imm = rd, rs1, int32(w>>20&31)
		case fmtCSR:
			in.Rd, in.Rs1, in.CSR = rd, rs1, uint16(w>>20)
		case fmtCSRI:
			in.Rd, in.CSR, in.Imm = rd, uint16(w>>20), int32(rs1)
		case fmtFence:
			in.Imm = int32(w >> 20)
		case fmtNone:
		case fmtAMO:
			in.Rd, in.Rs1, in.Rs2, in.AqRl = rd, rs1, rs2, uint8(w>>25&3)
		}
		if info.rd == regNone {
			in.Rd = 0
		}
		if info.rs1 == regNone && info.fmt != fmtCSRI {
			in.Rs1 = 0
		}
		if info.rs2 == regNone {
			in.Rs2 = 0
		}
		if info.rm {
			in.RM = uint8(w >> 12 & 7)
			if in.RM == 5 || in.RM == 6 {
				return Inst{}, &DecodeError{w, fmt.Sprintf("%s with reserved rounding mode %d", info.name, in.RM)}
			}
		}
		return in, nil
	}
	return Inst{}, &DecodeError{w, fmt.Sprintf("no instruction with opcode 0x%02x and these fields", w&mOpc)}
}

// Encode encodes in back into its 32-bit word. Fields out of range for the op are
// an error naming the field.
func Encode(in Inst) (uint32, error) {
	if in.Op == OpInvalid || in.Op >= numOps {
		return 0, fmt.Errorf("rv32: encode: invalid op %d", in.Op)
	}
	info := &ops[in.Op]
	if in.Rd > 31 || in.Rs1 > 31 || in.Rs2 > 31 || in.Rs3 > 31 {
		return 0, fmt.Errorf("rv32: encode %s: register number above 31", info.name)
	}
	w := info.match
	rd, rs1, rs2 := uint32(in.Rd)<<7, uint32(in.Rs1)<<15, uint32(in.Rs2)<<20
	imm := uint32(in.Imm)
	immRange := func(bits uint, align int32) error {
		lim := int32(1) << (bits - 1)
		if in.Imm < -lim || in.Imm >= lim || in.Imm%align != 0 {
			return fmt.Errorf("rv32: encode %s: immediate %d out of range", info.name, in.Imm)
		}
		return nil
	}
	switch info.fmt {
	case fmtR:
		w |= rd | rs1 | rs2
	case fmtR4:
		w |= rd | rs1 | rs2 | uint32(in.Rs3)<<27
		if info.f2imm {
			if in.Imm < 0 || in.Imm > 3 {
				return 0, fmt.Errorf("rv32: encode %s: funct2 %d out of range", info.name, in.Imm)
			}
			w |= imm << 25
		}
	case fmtI:
		if err := immRange(12, 1); err != nil {
			return 0, err
		}
		w |= rd | rs1 | imm<<20
	case fmtS:
		if err := immRange(12, 1); err != nil {
			return 0, err
		}
		w |= rs1 | rs2 | (imm>>5&0x7f)<<25 | (imm&31)<<7
	case fmtB:
		if err := immRange(13, 2); err != nil {
			return 0, err
		}
		w |= rs1 | rs2 | (imm>>12&1)<<31 | (imm>>5&0x3f)<<25 | (imm>>1&0xf)<<8 | (imm>>11&1)<<7
	case fmtU:
		if imm&0xfff != 0 {
			return 0, fmt.Errorf("rv32: encode %s: immediate 0x%x has low bits set", info.name, imm)
		}
		w |= rd | imm
	case fmtJ:
		if err := immRange(21, 2); err != nil {
			return 0, err
		}
		w |= rd | (imm>>20&1)<<31 | (imm>>1&0x3ff)<<21 | (imm>>11&1)<<20 | (imm>>12&0xff)<<12
	case fmtShift:
		if in.Imm < 0 || in.Imm > 31 {
			return 0, fmt.Errorf("rv32: encode %s: shift amount %d out of range", info.name, in.Imm)
		}
		w |= rd | rs1 | imm<<20
	case fmtCSR:
		if in.CSR > 0xfff {
			return 0, fmt.Errorf("rv32: encode %s: CSR 0x%x out of range", info.name, in.CSR)
		}
		w |= rd | rs1 | uint32(in.CSR)<<20
	case fmtCSRI:
		if in.CSR > 0xfff || in.Imm < 0 || in.Imm > 31 {
			return 0, fmt.Errorf("rv32: encode %s: CSR or uimm out of range", info.name)
		}
		w |= rd | imm<<15 | uint32(in.CSR)<<20
	case fmtFence:
		if in.Imm < 0 || in.Imm > 0xfff {
			return 0, fmt.Errorf("rv32: encode fence: fm/pred/succ 0x%x out of range", in.Imm)
		}
		w |= imm << 20
	case fmtNone:
	case fmtAMO:
		if in.AqRl > 3 {
			return 0, fmt.Errorf("rv32: encode %s: aq/rl %d out of range", info.name, in.AqRl)
		}
		w |= rd | rs1 | rs2 | uint32(in.AqRl)<<25
	}
	if info.rm {
		if in.RM > 7 || in.RM == 5 || in.RM == 6 {
			return 0, fmt.Errorf("rv32: encode %s: rounding mode %d is reserved", info.name, in.RM)
		}
		w |= uint32(in.RM) << 12
	}
	if w&info.mask != info.match {
		return 0, fmt.Errorf("rv32: encode %s: an operand overlaps a fixed field", info.name)
	}
	return w, nil
}
