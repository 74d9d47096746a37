package rv32

// Op names one instruction of the modelled instruction set.
type Op uint16

// The instructions, in the order of the table below. OpInvalid is the zero Op.
const (
	OpInvalid Op = iota
	// RV32I
	LUI
	AUIPC
	JAL
	JALR
	BEQ
	BNE
	BLT
	BGE
	BLTU
	BGEU
	LB
	LH
	LW
	LBU
	LHU
	SB
	SH
	SW
	ADDI
	SLTI
	SLTIU
	XORI
	ORI
	ANDI
	SLLI
	SRLI
	SRAI
	ADD
	SUB
	SLL
	SLT
	SLTU
	XOR
	SRL
	SRA
	OR
	AND
	FENCE
	ECALL
	EBREAK
	// Zicsr
	CSRRW
	CSRRS
	CSRRC
	CSRRWI
	CSRRSI
	CSRRCI
	// M
	MUL
	MULH
	MULHSU
	MULHU
	DIV
	DIVU
	REM
	REMU
	// A
	LRW
	SCW
	AMOSWAPW
	AMOADDW
	AMOXORW
	AMOANDW
	AMOORW
	AMOMINW
	AMOMAXW
	AMOMINUW
	AMOMAXUW
	// F
	FLW
	FSW
	FMADDS
	FMSUBS
	FNMSUBS
	FNMADDS
	FADDS
	FSUBS
	FMULS
	FDIVS
	FSQRTS
	FSGNJS
	FSGNJNS
	FSGNJXS
	FMINS
	FMAXS
	FCVTWS
	FCVTWUS
	FMVXW
	FEQS
	FLTS
	FLES
	FCLASSS
	FCVTSW
	FCVTSWU
	FMVWX
	// Vortex custom-0 (opcode 0x0B): warp control, vote and shuffle.
	VXTMC
	VXWSPAWN
	VXSPLIT
	VXSPLITN
	VXJOIN
	VXBAR
	VXPRED
	VXPREDN
	VXVOTEALL
	VXVOTEANY
	VXVOTEUNI
	VXVOTEBALLOT
	VXSHFLUP
	VXSHFLDOWN
	VXSHFLBFLY
	VXSHFLIDX
	// Vortex custom-1 (opcode 0x2B): graphics.
	VXTEX
	VXOMEXPORT
	numOps
)

// format is an instruction's encoding layout.
type format uint8

const (
	fmtR     format = iota // rd, rs1, rs2
	fmtR4                  // rd, rs1, rs2, rs3 (funct2 fixed, or the Imm for Vortex graphics)
	fmtI                   // rd, rs1, imm[11:0]
	fmtS                   // rs1, rs2, imm[11:0] split
	fmtB                   // rs1, rs2, 13-bit even offset
	fmtU                   // rd, imm[31:12]
	fmtJ                   // rd, 21-bit even offset
	fmtShift               // rd, rs1, shamt[4:0]
	fmtCSR                 // rd, csr, rs1
	fmtCSRI                // rd, csr, uimm[4:0] (in the rs1 field)
	fmtFence               // pred, succ (and fm) in imm[11:0]
	fmtNone                // no operands (ecall, ebreak)
	fmtAMO                 // rd, rs2, (rs1), aq/rl
)

// Operand register classes.
const (
	regNone = 0
	regX    = 1
	regF    = 2
)

// opInfo describes one Op: its assembler name, encoding and operands.
type opInfo struct {
	name  string
	fmt   format
	match uint32 // the fixed bits
	mask  uint32 // which bits are fixed
	// register classes of rd, rs1, rs2, rs3
	rd, rs1, rs2, rs3 uint8
	rm                bool // funct3 is a rounding mode
	f2imm             bool // R4 funct2 is an operand (Vortex tex stage, OM flags), kept in Imm
	mem               bool // offset(base) syntax
}

// Masks of the fixed fields.
const (
	mOpc    = 0x7f
	mF3     = 0x7 << 12
	mF7     = 0x7f << 25
	mRs2    = 0x1f << 20
	mRd     = 0x1f << 7
	mRs1    = 0x1f << 15
	mF2     = 0x3 << 25
	mF5     = 0x1f << 27
	mAll    = 0xffffffff
	opCust0 = 0x0b
	opCust1 = 0x2b
)

func f3(v uint32) uint32 { return v << 12 }
func f7(v uint32) uint32 { return v << 25 }

var ops [numOps]opInfo

func def(op Op, info opInfo) { ops[op] = info }

func init() {
	x, f := uint8(regX), uint8(regF)
	// RV32I
	def(LUI, opInfo{name: "lui", fmt: fmtU, match: 0x37, mask: mOpc, rd: x})
	def(AUIPC, opInfo{name: "auipc", fmt: fmtU, match: 0x17, mask: mOpc, rd: x})
	def(JAL, opInfo{name: "jal", fmt: fmtJ, match: 0x6f, mask: mOpc, rd: x})
	def(JALR, opInfo{name: "jalr", fmt: fmtI, match: 0x67, mask: mOpc | mF3, rd: x, rs1: x, mem: true})
	for i, op := range []Op{BEQ, BNE, 0, 0, BLT, BGE, BLTU, BGEU} {
		if op != 0 {
			def(op, opInfo{name: [...]string{"beq", "bne", "", "", "blt", "bge", "bltu", "bgeu"}[i], fmt: fmtB, match: 0x63 | f3(uint32(i)), mask: mOpc | mF3, rs1: x, rs2: x})
		}
	}
	for i, op := range []Op{LB, LH, LW, 0, LBU, LHU} {
		if op != 0 {
			def(op, opInfo{name: [...]string{"lb", "lh", "lw", "", "lbu", "lhu"}[i], fmt: fmtI, match: 0x03 | f3(uint32(i)), mask: mOpc | mF3, rd: x, rs1: x, mem: true})
		}
	}
	for i, op := range []Op{SB, SH, SW} {
		def(op, opInfo{name: [...]string{"sb", "sh", "sw"}[i], fmt: fmtS, match: 0x23 | f3(uint32(i)), mask: mOpc | mF3, rs1: x, rs2: x, mem: true})
	}
	for i, op := range []Op{ADDI, 0, SLTI, SLTIU, XORI, 0, ORI, ANDI} {
		if op != 0 {
			def(op, opInfo{name: [...]string{"addi", "", "slti", "sltiu", "xori", "", "ori", "andi"}[i], fmt: fmtI, match: 0x13 | f3(uint32(i)), mask: mOpc | mF3, rd: x, rs1: x})
		}
	}
	def(SLLI, opInfo{name: "slli", fmt: fmtShift, match: 0x13 | f3(1), mask: mOpc | mF3 | mF7, rd: x, rs1: x})
	def(SRLI, opInfo{name: "srli", fmt: fmtShift, match: 0x13 | f3(5), mask: mOpc | mF3 | mF7, rd: x, rs1: x})
	def(SRAI, opInfo{name: "srai", fmt: fmtShift, match: 0x13 | f3(5) | f7(0x20), mask: mOpc | mF3 | mF7, rd: x, rs1: x})
	rr := func(op Op, name string, fn3, fn7 uint32) {
		def(op, opInfo{name: name, fmt: fmtR, match: 0x33 | f3(fn3) | f7(fn7), mask: mOpc | mF3 | mF7, rd: x, rs1: x, rs2: x})
	}
	rr(ADD, "add", 0, 0)
	rr(SUB, "sub", 0, 0x20)
	rr(SLL, "sll", 1, 0)
	rr(SLT, "slt", 2, 0)
	rr(SLTU, "sltu", 3, 0)
	rr(XOR, "xor", 4, 0)
	rr(SRL, "srl", 5, 0)
	rr(SRA, "sra", 5, 0x20)
	rr(OR, "or", 6, 0)
	rr(AND, "and", 7, 0)
	// fence: rd and rs1 are reserved fields; fm, pred and succ are operands (imm[11:0]).
	def(FENCE, opInfo{name: "fence", fmt: fmtFence, match: 0x0f, mask: mOpc | mF3 | mRd | mRs1})
	def(ECALL, opInfo{name: "ecall", fmt: fmtNone, match: 0x73, mask: mAll})
	def(EBREAK, opInfo{name: "ebreak", fmt: fmtNone, match: 0x00100073, mask: mAll})
	// Zicsr
	for i, op := range []Op{CSRRW, CSRRS, CSRRC} {
		def(op, opInfo{name: [...]string{"csrrw", "csrrs", "csrrc"}[i], fmt: fmtCSR, match: 0x73 | f3(uint32(i+1)), mask: mOpc | mF3, rd: x, rs1: x})
	}
	for i, op := range []Op{CSRRWI, CSRRSI, CSRRCI} {
		def(op, opInfo{name: [...]string{"csrrwi", "csrrsi", "csrrci"}[i], fmt: fmtCSRI, match: 0x73 | f3(uint32(i+5)), mask: mOpc | mF3, rd: x})
	}
	// M
	for i, op := range []Op{MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM, REMU} {
		rr(op, [...]string{"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"}[i], uint32(i), 1)
	}
	// A
	amo := func(op Op, name string, fn5 uint32) {
		def(op, opInfo{name: name, fmt: fmtAMO, match: 0x2f | f3(2) | fn5<<27, mask: mOpc | mF3 | mF5, rd: x, rs1: x, rs2: x})
	}
	def(LRW, opInfo{name: "lr.w", fmt: fmtAMO, match: 0x2f | f3(2) | 0x02<<27, mask: mOpc | mF3 | mF5 | mRs2, rd: x, rs1: x})
	amo(SCW, "sc.w", 0x03)
	amo(AMOSWAPW, "amoswap.w", 0x01)
	amo(AMOADDW, "amoadd.w", 0x00)
	amo(AMOXORW, "amoxor.w", 0x04)
	amo(AMOANDW, "amoand.w", 0x0c)
	amo(AMOORW, "amoor.w", 0x08)
	amo(AMOMINW, "amomin.w", 0x10)
	amo(AMOMAXW, "amomax.w", 0x14)
	amo(AMOMINUW, "amominu.w", 0x18)
	amo(AMOMAXUW, "amomaxu.w", 0x1c)
	// F
	def(FLW, opInfo{name: "flw", fmt: fmtI, match: 0x07 | f3(2), mask: mOpc | mF3, rd: f, rs1: x, mem: true})
	def(FSW, opInfo{name: "fsw", fmt: fmtS, match: 0x27 | f3(2), mask: mOpc | mF3, rs1: x, rs2: f, mem: true})
	for i, op := range []Op{FMADDS, FMSUBS, FNMSUBS, FNMADDS} {
		def(op, opInfo{name: [...]string{"fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"}[i], fmt: fmtR4, match: 0x43 | uint32(i)<<2, mask: mOpc | mF2, rd: f, rs1: f, rs2: f, rs3: f, rm: true})
	}
	fr := func(op Op, name string, fn7 uint32, fn3 int, rd, rs1, rs2 uint8, rs2v int) {
		info := opInfo{name: name, fmt: fmtR, match: 0x53 | f7(fn7), mask: mOpc | mF7, rd: rd, rs1: rs1, rs2: rs2}
		if fn3 < 0 {
			info.rm = true
		} else {
			info.match |= f3(uint32(fn3))
			info.mask |= mF3
		}
		if rs2v >= 0 {
			info.match |= uint32(rs2v) << 20
			info.mask |= mRs2
		}
		def(op, info)
	}
	fr(FADDS, "fadd.s", 0x00, -1, f, f, f, -1)
	fr(FSUBS, "fsub.s", 0x04, -1, f, f, f, -1)
	fr(FMULS, "fmul.s", 0x08, -1, f, f, f, -1)
	fr(FDIVS, "fdiv.s", 0x0c, -1, f, f, f, -1)
	fr(FSQRTS, "fsqrt.s", 0x2c, -1, f, f, 0, 0)
	fr(FSGNJS, "fsgnj.s", 0x10, 0, f, f, f, -1)
	fr(FSGNJNS, "fsgnjn.s", 0x10, 1, f, f, f, -1)
	fr(FSGNJXS, "fsgnjx.s", 0x10, 2, f, f, f, -1)
	fr(FMINS, "fmin.s", 0x14, 0, f, f, f, -1)
	fr(FMAXS, "fmax.s", 0x14, 1, f, f, f, -1)
	fr(FCVTWS, "fcvt.w.s", 0x60, -1, x, f, 0, 0)
	fr(FCVTWUS, "fcvt.wu.s", 0x60, -1, x, f, 0, 1)
	fr(FMVXW, "fmv.x.w", 0x70, 0, x, f, 0, 0)
	fr(FEQS, "feq.s", 0x50, 2, x, f, f, -1)
	fr(FLTS, "flt.s", 0x50, 1, x, f, f, -1)
	fr(FLES, "fle.s", 0x50, 0, x, f, f, -1)
	fr(FCLASSS, "fclass.s", 0x70, 1, x, f, 0, 0)
	fr(FCVTSW, "fcvt.s.w", 0x68, -1, f, x, 0, 0)
	fr(FCVTSWU, "fcvt.s.wu", 0x68, -1, f, x, 0, 1)
	fr(FMVWX, "fmv.w.x", 0x78, 0, f, x, 0, 0)
	// Vortex custom-0, R-type (vx_intrinsics.h: `.insn r 0x0b, funct3, funct7, rd, rs1, rs2`).
	// spec: vortex-hardware-facts.md §6 names funct3=4 the barrier and funct3=6 the quad
	// shuffle; the kernel SDK puts the shuffles at funct7=1 (up/down/bfly/idx at funct3
	// 4..7) with the quad shuffle being the butterfly at funct3=6, which is what this
	// table follows. Older SDKs put wsched/async barriers at funct7=0 funct3=6/7; those
	// are not modelled and decode as illegal.
	vx := func(op Op, name string, fn3, fn7 uint32, mask uint32, rd, rs1, rs2 uint8) {
		def(op, opInfo{name: name, fmt: fmtR, match: opCust0 | f3(fn3) | f7(fn7), mask: mOpc | mF3 | mF7 | mask, rd: rd, rs1: rs1, rs2: rs2})
	}
	vx(VXTMC, "vx_tmc", 0, 0, mRd|mRs2, 0, x, 0)
	vx(VXWSPAWN, "vx_wspawn", 1, 0, mRd, 0, x, x)
	vx(VXSPLIT, "vx_split", 2, 0, mRs2, x, x, 0)
	ops[VXSPLITN] = ops[VXSPLIT]
	ops[VXSPLITN].name = "vx_split_n"
	ops[VXSPLITN].match |= 1 << 20 // rs2 = x1 negates the predicate
	vx(VXJOIN, "vx_join", 3, 0, mRd|mRs2, 0, x, 0)
	vx(VXBAR, "vx_bar", 4, 0, mRd, 0, x, x)
	vx(VXPRED, "vx_pred", 5, 0, mRd, 0, x, x)
	ops[VXPREDN] = ops[VXPRED]
	ops[VXPREDN].name = "vx_pred_n"
	ops[VXPREDN].match |= 1 << 7 // rd = x1 negates the predicate
	for i, op := range []Op{VXVOTEALL, VXVOTEANY, VXVOTEUNI, VXVOTEBALLOT} {
		vx(op, [...]string{"vx_vote_all", "vx_vote_any", "vx_vote_uni", "vx_vote_ballot"}[i], uint32(i), 1, mRs2, x, x, 0)
	}
	for i, op := range []Op{VXSHFLUP, VXSHFLDOWN, VXSHFLBFLY, VXSHFLIDX} {
		vx(op, [...]string{"vx_shfl_up", "vx_shfl_down", "vx_shfl_bfly", "vx_shfl_idx"}[i], uint32(i+4), 1, 0, x, x, x)
	}
	// Vortex custom-1, R4-type (spec: vortex-hardware-facts.md §6, vortexpipe-driver.md
	// §2.3.4): vx_tex at funct3=5 (funct2 = TEX stage), vx_om_export at funct3=3 with
	// rd = x0 and funct2 = {has_depth, has_colour}. The newest generation has no raster
	// op (RASTER launches the FS itself; the stamp is read through FRAG_POS/FRAG_PID),
	// and funct3=6/7 belong to the RTU, which is not modelled.
	def(VXTEX, opInfo{name: "vx_tex", fmt: fmtR4, match: opCust1 | f3(5), mask: mOpc | mF3, rd: x, rs1: x, rs2: x, rs3: x, f2imm: true})
	def(VXOMEXPORT, opInfo{name: "vx_om_export", fmt: fmtR4, match: opCust1 | f3(3), mask: mOpc | mF3 | mRd, rs1: x, rs2: x, rs3: x, f2imm: true})

	for op := Op(1); op < numOps; op++ {
		info := ops[op]
		if info.name == "" {
			panic("rv32: op table has a hole")
		}
		key := info.match & mOpc
		byOpcode[key] = append(byOpcode[key], op)
	}
}

// byOpcode lists the candidate Ops of each 7-bit major opcode.
var byOpcode [128][]Op

// String returns the assembler mnemonic.
func (o Op) String() string {
	if o == OpInvalid || o >= numOps {
		return "invalid"
	}
	return ops[o].name
}

// NumOps is one more than the largest valid Op, for iterating over every op.
const NumOps = int(numOps)

// IsWarpControl reports whether op is a Vortex warp-control instruction (tmc,
// wspawn, split, join, bar, pred): the ones that change which warps and lanes run.
func (o Op) IsWarpControl() bool { return o >= VXTMC && o <= VXPREDN }

// HasRM reports whether op takes a rounding mode operand.
func (o Op) HasRM() bool { return o < numOps && ops[o].rm }
