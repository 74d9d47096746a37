package ir

import "testing"

// TestAnyInst: an instruction is found in the main code and in a function
// alone, and a predicate nothing satisfies reports false.
func TestAnyInst(t *testing.T) {
	p := &Program{Code: []Inst{{Op: Nop}}, Funcs: []Func{{Name: "f", Code: []Inst{{Op: Nop}, {Op: Discard}}}}}
	if !p.AnyInst(func(in *Inst) bool { return in.Op == Discard }) {
		t.Error("Discard in a function not found")
	}
	if !p.AnyInst(func(in *Inst) bool { return in.Op == Nop }) {
		t.Error("Nop in the main code not found")
	}
	if p.AnyInst(func(in *Inst) bool { return in.Op == Tex }) {
		t.Error("Tex found in a program without one")
	}
}
