package exec

import (
	"context"
	"errors"
	"math"
	"testing"

	"vortexgfx/shader/ir"
)

// newProg returns a program of the given stage with nIn input and nOut output words.
func newProg(stage ir.Stage, nIn, nOut int) (*ir.Program, *ir.Builder) {
	p := &ir.Program{Stage: stage, InputWords: nIn, OutputWords: nOut}
	return p, ir.NewBuilder(p)
}

func mustNew(t testing.TB, p *ir.Program, w int) *Machine {
	t.Helper()
	m, err := New(p, Config{Width: w})
	if err != nil {
		t.Fatalf("New: %v\n%s", err, p)
	}
	return m
}

// loopProgram builds, for an int input x:
//
//	acc = 0; i = 0
//	loop {
//	  if i >= x { break }
//	  if (i & 1) == 1 { if i == 5 { acc += 100; continue }; acc += 1 } else {
//	    acc += i
//	    if acc > 20 { break }
//	    if x == 9 && i == 4 { return }   // out stays 0 for x==9
//	  }
//	} continuing { i = i + 1 }
//	out = acc
func loopProgram() *ir.Program {
	p, b := newProg(ir.Vertex, 1, 1)
	x := b.Reg(ir.I32)
	b.Imm(ir.LoadInput, x, 0)
	acc, i := b.ConstI(0), b.ConstI(0)
	one, five, hundred, twenty := b.ConstI(1), b.ConstI(5), b.ConstI(100), b.ConstI(20)
	nine, four := b.ConstI(9), b.ConstI(4)
	b.Ctl(ir.Loop)
	b.Ctl(ir.If, b.Op(ir.IGe, ir.Bool, i, x))
	b.Ctl(ir.Break)
	b.Ctl(ir.EndIf)
	odd := b.Op(ir.Eq, ir.Bool, b.Op(ir.And, ir.I32, i, one), one)
	b.Ctl(ir.If, odd)
	b.Ctl(ir.If, b.Op(ir.Eq, ir.Bool, i, five))
	b.OpTo(ir.IAdd, acc, acc, hundred)
	b.Ctl(ir.Continue)
	b.Ctl(ir.EndIf)
	b.OpTo(ir.IAdd, acc, acc, one)
	b.Ctl(ir.Else)
	b.OpTo(ir.IAdd, acc, acc, i)
	b.Ctl(ir.If, b.Op(ir.IGt, ir.Bool, acc, twenty))
	b.Ctl(ir.Break)
	b.Ctl(ir.EndIf)
	c := b.Op(ir.BAnd, ir.Bool, b.Op(ir.Eq, ir.Bool, x, nine), b.Op(ir.Eq, ir.Bool, i, four))
	b.Ctl(ir.If, c)
	b.Ctl(ir.Return)
	b.Ctl(ir.EndIf)
	b.Ctl(ir.EndIf)
	b.Ctl(ir.Continuing)
	b.OpTo(ir.IAdd, i, i, one)
	b.Ctl(ir.EndLoop)
	b.Imm(ir.StoreOutput, ir.NoReg, 0, acc)
	return p
}

func loopRef(x int32) int32 {
	acc := int32(0)
	for i := int32(0); ; i++ {
		if i >= x {
			break
		}
		if i&1 == 1 {
			if i == 5 {
				acc += 100
				continue
			}
			acc++
		} else {
			acc += i
			if acc > 20 {
				break
			}
			if x == 9 && i == 4 {
				return 0
			}
		}
	}
	return acc
}

func TestDivergentLoop(t *testing.T) {
	p := loopProgram()
	for _, w := range []int{1, 4, 8, 32, 64} {
		m := mustNew(t, p, w)
		for base := int32(-2); base < 40; base += int32(w) {
			in := m.Input(0)
			for l := range in {
				in[l] = uint32(base + int32(l))
			}
			present := m.full &^ 0b100 // lane 2 absent
			if w == 1 {
				present = 1
			}
			if _, err := m.Run(context.Background(), present, present); err != nil {
				t.Fatal(err)
			}
			out := m.Output(0)
			for l := range out {
				want := loopRef(base + int32(l))
				if present>>l&1 == 0 {
					want = 0
				}
				if int32(out[l]) != want {
					t.Fatalf("width %d x=%d: got %d, want %d", w, base+int32(l), int32(out[l]), want)
				}
			}
		}
	}
}

// TestBudget checks that a runaway loop ends with ErrBudget and a cancelled context
// with its error, instead of hanging.
func TestBudget(t *testing.T) {
	p, b := newProg(ir.Vertex, 0, 0)
	b.Ctl(ir.Loop)
	b.Ctl(ir.EndLoop)
	m, err := New(p, Config{Width: 4, MaxSteps: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(context.Background(), 0xf, 0xf); !errors.Is(err, ErrBudget) {
		t.Fatalf("got %v, want ErrBudget", err)
	}
	m, _ = New(p, Config{Width: 4})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Run(ctx, 0xf, 0xf); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestFunctionsAndReturn checks inlined functions: Return leaves only the function.
func TestFunctionsAndReturn(t *testing.T) {
	p, b := newProg(ir.Vertex, 1, 1)
	x := b.Reg(ir.F32)
	arg, res := b.Reg(ir.F32), b.Reg(ir.F32)
	// f(arg): if arg < 0 { res = 0; return }; res = sqrt(arg)
	p.Funcs = []ir.Func{{Name: "f"}}
	old := b.Into(&p.Funcs[0].Code)
	zero := b.ConstF(0)
	b.Ctl(ir.If, b.Op(ir.FLt, ir.Bool, arg, zero))
	b.OpTo(ir.Mov, res, zero)
	b.Ctl(ir.Return)
	b.Ctl(ir.EndIf)
	b.OpTo(ir.Sqrt, res, arg)
	b.Into(old)
	b.Imm(ir.LoadInput, x, 0)
	b.OpTo(ir.Mov, arg, x)
	b.Emit(ir.Inst{Op: ir.Call, Dst: ir.NoReg, Imm: 0})
	out := b.Op(ir.FAdd, ir.F32, res, b.ConstF(1))
	b.Imm(ir.StoreOutput, ir.NoReg, 0, out)
	m := mustNew(t, p, 8)
	in := m.Input(0)
	for l := range in {
		in[l] = math.Float32bits(float32(l) - 3)
	}
	if _, err := m.Run(context.Background(), 0xff, 0xff); err != nil {
		t.Fatal(err)
	}
	for l, w := range m.Output(0) {
		x := float32(l) - 3
		want := float32(1)
		if x >= 0 {
			want = float32(math.Sqrt(float64(x))) + 1
		}
		if got := math.Float32frombits(w); got != want {
			t.Errorf("lane %d: got %v, want %v", l, got, want)
		}
	}
}

// TestMachinesShareProgram runs one program on several machines in parallel (one
// per goroutine, as a renderer's workers do); run with -race. The program is only
// read, so the results are the same as sequential runs.
func TestMachinesShareProgram(t *testing.T) {
	p := loopProgram()
	const workers = 4
	results := make([][]uint32, workers)
	done := make(chan int)
	for k := 0; k < workers; k++ {
		go func(k int) {
			defer func() { done <- k }()
			m, err := New(p, Config{Width: 8})
			if err != nil {
				t.Error(err)
				return
			}
			for l := range m.Input(0) {
				m.Input(0)[l] = uint32(l + k)
			}
			if _, err := m.Run(context.Background(), 0xff, 0xff); err != nil {
				t.Error(err)
				return
			}
			results[k] = append([]uint32(nil), m.Output(0)...)
		}(k)
	}
	for k := 0; k < workers; k++ {
		<-done
	}
	for k, r := range results {
		for l, got := range r {
			if want := loopRef(int32(l + k)); int32(got) != want {
				t.Errorf("worker %d lane %d: %d, want %d", k, l, int32(got), want)
			}
		}
	}
}
