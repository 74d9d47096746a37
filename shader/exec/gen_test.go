package exec

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/shader/ir"
)

// gen builds random structured programs that verify by construction: float and int
// register pools, a register array, nested ifs and bounded loops with break and
// continue, returns, discard/demote and derivatives in fragment programs.
type gen struct {
	rng    *rand.Rand
	b      *ir.Builder
	p      *ir.Program
	fl, in []ir.Reg
	arr    ir.Reg // first register of a 4-element float array
	carr   ir.Reg // first register of a 4-element constant float array (never stored)
	depth  int
	loops  int
}

var (
	genF2 = []ir.Op{ir.FAdd, ir.FSub, ir.FMul, ir.FDiv, ir.FMin, ir.FMax, ir.FMod, ir.Pow, ir.Atan2}
	genF1 = []ir.Op{ir.FNeg, ir.FAbs, ir.Sin, ir.Cos, ir.Floor, ir.Fract, ir.Sqrt, ir.InvSqrt, ir.Exp2, ir.Log2, ir.RoundEven, ir.FSign}
	genI2 = []ir.Op{ir.IAdd, ir.ISub, ir.IMul, ir.IDiv, ir.IMod, ir.IMin, ir.IMax, ir.And, ir.Or, ir.Xor, ir.Shl, ir.IShr}
	genFC = []ir.Op{ir.FLt, ir.FLe, ir.FGt, ir.FEq, ir.FNe}
	genIC = []ir.Op{ir.ILt, ir.IGe, ir.Eq, ir.Ne}
)

func newGen(seed uint64, stage ir.Stage) *gen {
	p := &ir.Program{Stage: stage, InputWords: 2, OutputWords: 4, UniformWords: 4}
	g := &gen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b9)), b: ir.NewBuilder(p), p: p}
	for i := 0; i < 6; i++ {
		g.fl = append(g.fl, g.b.Reg(ir.F32))
		g.in = append(g.in, g.b.Reg(ir.I32))
	}
	g.arr = g.b.Reg(ir.F32)
	for i := 1; i < 4; i++ {
		g.b.Reg(ir.F32)
	}
	g.carr = g.b.Reg(ir.F32)
	for i := 1; i < 4; i++ {
		g.b.Reg(ir.F32)
	}
	return g
}

func (g *gen) pick(rs []ir.Reg) ir.Reg { return rs[g.rng.IntN(len(rs))] }

func (g *gen) program() *ir.Program {
	b := g.b
	b.Imm(ir.LoadInput, g.fl[0], 0)
	b.Imm(ir.LoadInput, g.in[0], 1)
	b.Imm(ir.LoadUniform, g.fl[1], 0)
	b.Imm(ir.LoadUniform, g.in[1], 1)
	for i := 2; i < 6; i++ {
		b.Imm(ir.Const, g.fl[i], math.Float32bits(float32(g.rng.IntN(9))-2))
		b.Imm(ir.Const, g.in[i], uint32(g.rng.IntN(9)-2))
	}
	for i := 0; i < 4; i++ { // equal values on purpose: constants must not merge
		b.Imm(ir.Const, g.carr+ir.Reg(i), math.Float32bits(float32(i&1)))
	}
	g.block(6 + g.rng.IntN(10))
	for i := 0; i < 2; i++ {
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), g.pick(g.fl))
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i+2), g.pick(g.in))
	}
	b.Ctl(ir.Export)
	return g.p
}

func (g *gen) block(n int) {
	for i := 0; i < n; i++ {
		g.stmt()
	}
}

func (g *gen) stmt() {
	b := g.b
	k := g.rng.IntN(20)
	if g.depth >= 3 && k >= 12 {
		k = g.rng.IntN(12)
	}
	switch {
	case k < 4:
		b.OpTo(genF2[g.rng.IntN(len(genF2))], g.pick(g.fl), g.pick(g.fl), g.pick(g.fl))
	case k < 6:
		b.OpTo(genF1[g.rng.IntN(len(genF1))], g.pick(g.fl), g.pick(g.fl))
	case k < 8:
		b.OpTo(genI2[g.rng.IntN(len(genI2))], g.pick(g.in), g.pick(g.in), g.pick(g.in))
	case k == 8:
		b.OpTo(ir.ItoF, g.pick(g.fl), g.pick(g.in))
		b.OpTo(ir.FtoI, g.pick(g.in), g.pick(g.fl))
	case k == 9:
		b.Emit(ir.Inst{Op: ir.ArrayStore, Dst: ir.NoReg, Src: [4]ir.Reg{g.pick(g.in), g.pick(g.fl), ir.NoReg, ir.NoReg}, Imm: uint32(g.arr), Len: 4, Stride: 1})
		b.Emit(ir.Inst{Op: ir.ArrayLoad, Dst: g.pick(g.fl), Src: [4]ir.Reg{g.pick(g.in), ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(g.arr), Len: 4, Stride: 1})
		b.Emit(ir.Inst{Op: ir.ArrayLoad, Dst: g.pick(g.fl), Src: [4]ir.Reg{g.pick(g.in), ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(g.carr), Len: 4, Stride: 1})
	case k == 10:
		if g.p.Stage == ir.Fragment {
			ops := []ir.Op{ir.DdxFine, ir.DdyFine, ir.DdxCoarse, ir.DdyCoarse}
			b.OpTo(ops[g.rng.IntN(4)], g.pick(g.fl), g.pick(g.fl))
		} else {
			b.OpTo(ir.Mov, g.pick(g.fl), g.pick(g.fl))
		}
	case k == 11:
		c := g.cond()
		b.OpTo(ir.Select, g.pick(g.fl), c, g.pick(g.fl), g.pick(g.fl))
	case k < 15:
		g.depth++
		b.Ctl(ir.If, g.cond())
		g.block(1 + g.rng.IntN(3))
		if g.rng.IntN(2) == 0 {
			b.Ctl(ir.Else)
			g.block(1 + g.rng.IntN(3))
		}
		b.Ctl(ir.EndIf)
		g.depth--
	case k < 17:
		// Bounded loop: a private counter breaks after at most 1..6 iterations.
		g.depth++
		g.loops++
		cnt := b.ConstI(0)
		limit := b.ConstI(int32(1 + g.rng.IntN(6)))
		one := b.ConstI(1)
		b.Ctl(ir.Loop)
		b.OpTo(ir.IAdd, cnt, cnt, one)
		b.Ctl(ir.If, b.Op(ir.IGt, ir.Bool, cnt, limit))
		b.Ctl(ir.Break)
		b.Ctl(ir.EndIf)
		g.block(1 + g.rng.IntN(3))
		if g.rng.IntN(2) == 0 {
			b.Ctl(ir.If, g.cond())
			if g.rng.IntN(2) == 0 {
				b.Ctl(ir.Break)
			} else {
				b.Ctl(ir.Continue)
			}
			b.Ctl(ir.EndIf)
		}
		g.block(g.rng.IntN(2))
		if g.rng.IntN(2) == 0 {
			b.Ctl(ir.Continuing)
			b.OpTo(ir.FAdd, g.pick(g.fl), g.pick(g.fl), g.pick(g.fl))
		}
		b.Ctl(ir.EndLoop)
		g.loops--
		g.depth--
	case k == 17:
		b.Ctl(ir.If, g.cond())
		b.Ctl(ir.Return)
		b.Ctl(ir.EndIf)
	default:
		if g.p.Stage == ir.Fragment {
			b.Ctl(ir.If, g.cond())
			if k == 18 {
				b.Ctl(ir.Discard)
			} else {
				b.Ctl(ir.Demote)
			}
			b.Ctl(ir.EndIf)
		}
	}
}

func (g *gen) cond() ir.Reg {
	if g.rng.IntN(2) == 0 {
		return g.b.Op(genFC[g.rng.IntN(len(genFC))], ir.Bool, g.pick(g.fl), g.pick(g.fl))
	}
	return g.b.Op(genIC[g.rng.IntN(len(genIC))], ir.Bool, g.pick(g.in), g.pick(g.in))
}

// runAll runs p on width w with deterministic inputs and returns outputs and live.
func runAll(t *testing.T, p *ir.Program, w int, seed uint64) ([]uint32, uint64, error) {
	m := mustNew(t, p, w)
	rng := rand.New(rand.NewPCG(seed, 7))
	for l := 0; l < w; l++ {
		m.Input(0)[l] = math.Float32bits(float32(rng.IntN(13) - 6))
		m.Input(1)[l] = uint32(rng.IntN(13) - 6)
	}
	if err := m.SetUniforms([]uint32{math.Float32bits(1.5), 3, 0, 0}); err != nil {
		t.Fatal(err)
	}
	present := m.full
	live, err := m.Run(context.Background(), present, present)
	out := make([]uint32, 0, 4*w)
	for i := 0; i < 4; i++ {
		out = append(out, m.Output(i)...)
	}
	return out, live, err
}

// TestOptimizePreservesResults runs random programs before and after Optimize and
// requires identical outputs and live masks, bit for bit.
func TestOptimizePreservesResults(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		stage := ir.Vertex
		w := 8
		if seed%2 == 1 {
			stage = ir.Fragment
		}
		p := newGen(seed, stage).program()
		if err := ir.Verify(p); err != nil {
			t.Fatalf("seed %d: generated program does not verify: %v\n%s", seed, err, p)
		}
		q, err := ir.Optimize(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := ir.Verify(q); err != nil {
			t.Fatalf("seed %d: optimised program does not verify: %v\n%s", seed, err, q)
		}
		a, la, ea := runAll(t, p, w, seed)
		bb, lb, eb := runAll(t, q, w, seed)
		if ea != nil || eb != nil {
			t.Fatalf("seed %d: run errors %v / %v", seed, ea, eb)
		}
		if la != lb {
			t.Fatalf("seed %d: live %#x vs %#x", seed, la, lb)
		}
		for i := range a {
			if a[i] != bb[i] && !(isNaN(a[i]) && isNaN(bb[i])) {
				t.Fatalf("seed %d: output word %d lane %d: %#x vs %#x\n%s\n---\n%s", seed, i/w, i%w, a[i], bb[i], p, q)
			}
		}
		if len(q.Code) > len(p.Code) {
			t.Fatalf("seed %d: optimisation grew the code", seed)
		}
	}
}

func isNaN(w uint32) bool { return w&0x7f800000 == 0x7f800000 && w&0x7fffff != 0 }

// TestScalarMatchesWarp runs random vertex programs at width 1 lane by lane and at
// width 16, which must agree: the scalar interpreter is the same IR with one lane.
func TestScalarMatchesWarp(t *testing.T) {
	for seed := uint64(0); seed < 100; seed++ {
		p := newGen(seed, ir.Vertex).program()
		wide := mustNew(t, p, 16)
		one := mustNew(t, p, 1)
		uni := []uint32{math.Float32bits(-0.5), 5, 0, 0}
		_ = wide.SetUniforms(uni)
		_ = one.SetUniforms(uni)
		rng := rand.New(rand.NewPCG(seed, 3))
		for l := 0; l < 16; l++ {
			wide.Input(0)[l] = math.Float32bits(float32(rng.IntN(13) - 6))
			wide.Input(1)[l] = uint32(rng.IntN(13) - 6)
		}
		if _, err := wide.Run(context.Background(), 0xffff, 0xffff); err != nil {
			t.Fatal(err)
		}
		for l := 0; l < 16; l++ {
			one.Input(0)[0], one.Input(1)[0] = wide.Input(0)[l], wide.Input(1)[l]
			if _, err := one.Run(context.Background(), 1, 1); err != nil && !errors.Is(err, ErrBudget) {
				t.Fatal(err)
			}
			for i := 0; i < 4; i++ {
				if a, b := wide.Output(i)[l], one.Output(i)[0]; a != b && !(isNaN(a) && isNaN(b)) {
					t.Fatalf("seed %d lane %d word %d: warp %#x, scalar %#x\n%s", seed, l, i, a, b, p)
				}
			}
		}
	}
}
