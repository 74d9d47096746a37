package rv32

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// testCSRs are CSRs whose objdump spelling the disassembler knows: its named table
// and Vortex's, which binutils prints as numbers.
var testCSRs = []uint16{0x001, 0x002, 0x003, 0x300, 0x305, 0x340, 0xb00, 0xb02, 0xb80, 0xb82,
	0xc00, 0xc02, 0xf14, 0xcc0, 0xcc1, 0xcc4, 0xfc0, 0xcd3, 0xce1, 0xce2, 0xce3}

// randomInst returns a random valid instruction of op.
func randomInst(r *rand.Rand, op Op) Inst {
	info := &ops[op]
	in := Inst{Op: op}
	reg := func(class uint8) uint8 {
		if class == regNone {
			return 0
		}
		return uint8(r.Intn(32))
	}
	in.Rd, in.Rs1, in.Rs2 = reg(info.rd), reg(info.rs1), reg(info.rs2)
	switch info.fmt {
	case fmtR4:
		in.Rs3 = uint8(r.Intn(32))
		if info.f2imm {
			in.Imm = int32(r.Intn(4))
		}
	case fmtI, fmtS:
		in.Imm = int32(r.Intn(4096)) - 2048
	case fmtB:
		in.Imm = (int32(r.Intn(4096)) - 2048) * 2
	case fmtU:
		in.Imm = int32(uint32(r.Intn(1<<20)) << 12)
	case fmtJ:
		in.Imm = (int32(r.Intn(1<<20)) - 1<<19) * 2
	case fmtShift:
		in.Imm = int32(r.Intn(32))
	case fmtCSR:
		in.CSR = testCSRs[r.Intn(len(testCSRs))]
	case fmtCSRI:
		in.CSR = testCSRs[r.Intn(len(testCSRs))]
		in.Rd = uint8(r.Intn(32))
		in.Imm = int32(r.Intn(32))
	case fmtFence:
		in.Imm = int32(1+r.Intn(15))<<4 | int32(1+r.Intn(15))
		if r.Intn(8) == 0 {
			in.Imm = 0x833 // fence.tso
		}
	case fmtAMO:
		in.AqRl = uint8(r.Intn(4))
	}
	if info.rm {
		in.RM = []uint8{RNE, RTZ, RDN, RUP, RMM, DYN}[r.Intn(6)]
	}
	return in
}

func TestEncodeDecodeRoundTripEveryOp(t *testing.T) {
	r := newRand(1)
	for op := Op(1); op < numOps; op++ {
		for i := 0; i < 200; i++ {
			in := randomInst(r, op)
			w, err := Encode(in)
			if err != nil {
				t.Fatalf("%s: encode %+v: %v", op, in, err)
			}
			back, err := Decode(w)
			if err != nil {
				t.Fatalf("%s: decode 0x%08x: %v", op, w, err)
			}
			if back != in {
				t.Fatalf("%s: round trip of %+v gave %+v (word 0x%08x)", op, in, back, w)
			}
		}
	}
}

// Every word Decode accepts re-encodes to itself: no field is silently dropped.
func TestDecodeEncodeIdentityOnRandomWords(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	seen := map[Op]bool{}
	for i := 0; i < 2_000_000; i++ {
		w := r.Uint32() | 3
		in, err := Decode(w)
		if err != nil {
			continue
		}
		seen[in.Op] = true
		back, err := Encode(in)
		if err != nil || back != w {
			t.Fatalf("0x%08x decodes to %+v, which encodes to 0x%08x (%v)", w, in, back, err)
		}
	}
	if len(seen) < NumOps/2 {
		t.Errorf("random words hit only %d ops", len(seen))
	}
}

func TestDecodeRefusals(t *testing.T) {
	cases := []struct {
		w    uint32
		want string
	}{
		{0x00004501, "compressed"},                     // c.li a0,0
		{0x00000000, "compressed"},                     // the all-zero word
		{0xffffffff, "no instruction"},                 // reserved major opcode
		{0x00c5d553 | 5<<12, "reserved rounding mode"}, // fadd.s with rm=5
		{0x0400000b, "no instruction"},                 // custom-0 with funct7=2: nothing there
		{0x0000600b, "no instruction"},                 // custom-0 funct3=6 funct7=0 (wsched): not modelled
	}
	for _, c := range cases {
		_, err := Decode(c.w)
		var de *DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(0x%08x) = %v, want an error containing %q", c.w, err, c.want)
		}
	}
}

func TestEncodeRangeErrors(t *testing.T) {
	bad := []Inst{
		{Op: ADDI, Imm: 2048},
		{Op: BEQ, Imm: 3},
		{Op: JAL, Imm: 1 << 20},
		{Op: LUI, Imm: 0x123},
		{Op: SLLI, Imm: 32},
		{Op: CSRRW, CSR: 0x1000},
		{Op: FADDS, RM: 5},
		{Op: ADD, Rd: 32},
		{Op: VXTEX, Imm: 4},
		{Op: LRW, Rs2: 3}, // rs2 is a fixed field of lr.w
		{Op: OpInvalid},
	}
	for _, in := range bad {
		if _, err := Encode(in); err == nil {
			t.Errorf("Encode(%+v) succeeded", in)
		}
	}
}

func TestDisasmExamples(t *testing.T) {
	cases := []struct {
		w    uint32
		pc   uint32
		want string
	}{
		{0x00400117, 0x80000000, "auipc\tsp,0x400"},
		{0x00010113, 0, "addi\tsp,sp,0"},
		{0x300022f3, 0, "csrrs\tt0,mstatus,zero"},
		{0x0040006f, 0x80000034, "jal\tzero,80000038"},
		{0x00c59553, 0, "fadd.s\tfa0,fa1,fa2,rtz"},
		{0x00c5f553, 0, "fadd.s\tfa0,fa1,fa2"},
		{0x06c5a52f, 0, "amoadd.w.aqrl\ta0,a2,(a1)"},
		{0x8330000f, 0, "fence.tso"},
		{0xcc002573, 0, "csrrs\ta0,0xcc0,zero"},
		{0x0005000b, 0, "vx_tmc\ta0"},
		{0x0ff0000f, 0, "fence\tiorw,iorw"},
	}
	for _, c := range cases {
		if got := DisasmWord(c.w, c.pc); got != c.want {
			t.Errorf("DisasmWord(0x%08x) = %q, want %q", c.w, got, c.want)
		}
	}
	if got := DisasmWord(0x4501, 0); got != ".4byte\t0x4501" {
		t.Errorf("compressed word: %q", got)
	}
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

func TestIsWarpControl(t *testing.T) {
	for op := Op(1); op < numOps; op++ {
		want := ops[op].match&mOpc == opCust0 && ops[op].match>>25 == 0
		if op.IsWarpControl() != want {
			t.Errorf("%s: IsWarpControl %v, want %v", op, op.IsWarpControl(), want)
		}
	}
}

func TestDisasmOfOutOfRangeFieldsIsInvalid(t *testing.T) {
	for _, in := range []Inst{{Op: ADD, Rd: 32}, {Op: FMADDS, Rs3: 40}, {Op: AMOADDW, AqRl: 4}, {Op: FADDS, RM: 5}, {Op: numOps}} {
		if got := Disasm(in, 0); got != "invalid" {
			t.Errorf("Disasm(%+v) = %q", in, got)
		}
	}
}
