package rv32

import "testing"

// TestVXTexEncoding pins vx_tex's R4 fields against words assembled by hand
// from the spec — opcode custom-1 0x2B, rd [11:7], funct3 5 [14:12], rs1
// [19:15], rs2 [24:20], funct2 = the TEX stage [26:25], rs3 [31:27] — in both
// directions (encode, decode, disassemble), with the machine-code operand
// convention of docs/ABI.md row 44: rs1 u, rs2 v (S.23), rs3 lod, rd the
// A8R8G8B8 texel. spec: vortex-hardware-facts.md §6; vortexpipe-driver.md §2.2
func TestVXTexEncoding(t *testing.T) {
	for _, c := range []struct {
		in   Inst
		w    uint32
		text string
	}{
		{Inst{Op: VXTEX, Rd: 12, Rs1: 10, Rs2: 11, Rs3: 0, Imm: 0}, 0x00b5562b, "vx_tex\ta2,a0,a1,zero,0"},
		{Inst{Op: VXTEX, Rd: 12, Rs1: 10, Rs2: 11, Rs3: 0, Imm: 1}, 0x02b5562b, "vx_tex\ta2,a0,a1,zero,1"},
		{Inst{Op: VXTEX, Rd: 5, Rs1: 6, Rs2: 7, Rs3: 28, Imm: 1}, 0xe27352ab, "vx_tex\tt0,t1,t2,t3,1"},
		{Inst{Op: VXTEX, Rd: 31, Rs1: 31, Rs2: 31, Rs3: 31, Imm: 3}, 0xffffdfab, "vx_tex\tt6,t6,t6,t6,3"},
		{Inst{Op: VXTEX, Rd: 0, Rs1: 1, Rs2: 2, Rs3: 3, Imm: 0}, 0x1820d02b, "vx_tex\tzero,ra,sp,gp,0"},
	} {
		w, err := Encode(c.in)
		if err != nil || w != c.w {
			t.Errorf("Encode(%+v) = 0x%08x, %v; want 0x%08x", c.in, w, err, c.w)
		}
		back, err := Decode(c.w)
		if err != nil || back != c.in {
			t.Errorf("Decode(0x%08x) = %+v, %v; want %+v", c.w, back, err, c.in)
		}
		if got := DisasmWord(c.w, 0); got != c.text {
			t.Errorf("DisasmWord(0x%08x) = %q, want %q", c.w, got, c.text)
		}
	}
}
