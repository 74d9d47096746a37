package ir

import "testing"

// TestDCEChain: one EliminateDeadCode call removes a whole chain of dead values
// (each read only by the next), keeps what the output reads, and keeps a value
// that only reads itself (registers are not SSA: "never read" is the criterion).
func TestDCEChain(t *testing.T) {
	p := &Program{Stage: Vertex, InputWords: 1, OutputWords: 1}
	b := NewBuilder(p)
	x := b.Imm(LoadInput, b.Reg(F32), 0)
	r := x
	for i := 0; i < 1000; i++ {
		r = b.Op(Sin, F32, r)
	}
	self := b.Op(Mov, F32, x)
	p.Code = append(p.Code, Inst{Op: FAdd, Dst: self, Src: [4]Reg{self, self, NoReg, NoReg}})
	b.Imm(StoreOutput, NoReg, 0, b.Op(FAdd, F32, x, x))
	if !EliminateDeadCode(p) {
		t.Fatal("nothing removed")
	}
	if len(p.Code) != 5 {
		t.Errorf("after DCE, %d instructions, want 5 (load, the self-reading pair, add, store):\n%s", len(p.Code), p)
	}
	if EliminateDeadCode(p) {
		t.Error("a second call still removed something")
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}
