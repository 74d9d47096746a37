package exec

import (
	"context"
	"testing"

	"vortexgfx/shader/ir"
)

// callTree builds 40 functions where f_i calls f_{i+1} twice while x > i, and
// otherwise adds 1 to acc; lanes with x < 0 return at once. Inlined it would be
// 2^40 instructions, so the executor runs Call; lane x gets acc = 2^x.
func callTree() (*ir.Program, ir.Reg) {
	p, b := newProg(ir.Vertex, 1, 1)
	x := b.Imm(ir.LoadInput, b.Reg(ir.I32), 0)
	acc := b.ConstI(0)
	const n = 40
	p.Funcs = make([]ir.Func, n)
	for i := 0; i < n; i++ {
		old := b.Into(&p.Funcs[i].Code)
		b.Ctl(ir.If, b.Op(ir.ILt, ir.Bool, x, b.ConstI(0)))
		b.Ctl(ir.Return)
		b.Ctl(ir.EndIf)
		if i+1 < n {
			b.Ctl(ir.If, b.Op(ir.IGt, ir.Bool, x, b.ConstI(int32(i))))
			call := ir.Inst{Op: ir.Call, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(i + 1)}
			b.Emit(call)
			b.Emit(call)
			b.Ctl(ir.Else)
		}
		b.OpTo(ir.IAdd, acc, acc, b.ConstI(1))
		if i+1 < n {
			b.Ctl(ir.EndIf)
		}
		b.Into(old)
	}
	b.Emit(ir.Inst{Op: ir.Call, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: 0})
	b.Imm(ir.StoreOutput, ir.NoReg, 0, acc)
	return p, acc
}

// TestCallWithoutInlining runs a call tree too large to inline with divergent
// lanes, before and after Optimize.
func TestCallWithoutInlining(t *testing.T) {
	p, _ := callTree()
	if ir.InlinedSize(p) <= ir.MaxInlinedCode {
		t.Fatal("test program is small enough to inline")
	}
	q, err := ir.Optimize(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, prog := range []*ir.Program{p, q} {
		for _, w := range []int{1, 8} {
			m := mustNew(t, prog, w)
			if len(m.Program().Funcs) == 0 {
				t.Fatal("functions were inlined")
			}
			for base := -2; base < 8; base += w {
				for l := range m.Input(0) {
					m.Input(0)[l] = uint32(int32(base + l))
				}
				if _, err := m.Run(context.Background(), m.full, m.full); err != nil {
					t.Fatal(err)
				}
				for l, got := range m.Output(0) {
					x := base + l
					want := 0
					if x >= 0 {
						want = 1 << x
					}
					if int(got) != want {
						t.Fatalf("width %d x=%d: acc %d, want %d", w, x, got, want)
					}
				}
			}
		}
	}
}
