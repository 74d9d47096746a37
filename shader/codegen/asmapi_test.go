package codegen

import (
	"testing"

	"vortexgfx/isa/rv32"
)

// Asm lays out hand-written code as the generator's: labels patched, a
// far conditional branch relaxed over a jal, La pc-relative, data words
// after the code, and an unplaced label an error.
func TestAsmLayout(t *testing.T) {
	var a Asm
	far, data := a.NewLabel(), a.NewLabel()
	a.Branch(rv32.BEQ, 5, 0, far) // beyond ±4 KiB: relaxed
	for range 1100 {
		a.Emit(rv32.Inst{Op: rv32.ADDI, Rd: 6, Rs1: 6, Imm: 1})
	}
	a.Place(far)
	a.La(7, data)
	a.Li(8, 0x12345678)
	a.Emit(rv32.Inst{Op: rv32.VXTMC})
	a.Place(data)
	a.Word(0xCAFEF00D)
	w, err := a.Words()
	if err != nil {
		t.Fatal(err)
	}
	first, err := rv32.Decode(w[0])
	if err != nil || first.Op != rv32.BNE || first.Imm != 8 {
		t.Fatalf("word 0: %+v (%v), want the inverted branch over the jal", first, err)
	}
	j, _ := rv32.Decode(w[1])
	if j.Op != rv32.JAL || int(j.Imm) != 4*(1100+1) {
		t.Fatalf("word 1: %+v, want jal +%d", j, 4*(1100+1))
	}
	at := 2 + 1100 // the auipc of La
	au, _ := rv32.Decode(w[at])
	ad, _ := rv32.Decode(w[at+1])
	if off := au.Imm + ad.Imm; au.Op != rv32.AUIPC || int(off) != 4*(len(w)-1-at) {
		t.Errorf("la: %+v %+v: offset %d, want %d", au, ad, off, 4*(len(w)-1-at))
	}
	if w[len(w)-1] != 0xCAFEF00D {
		t.Errorf("data word %#x", w[len(w)-1])
	}
	var b Asm
	b.Jump(b.NewLabel())
	if _, err := b.Words(); err == nil {
		t.Error("an unplaced label assembled")
	}
}
