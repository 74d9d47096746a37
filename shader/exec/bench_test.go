package exec

import (
	"context"
	"math"
	"testing"

	"vortexgfx/shader/ir"
)

// lambertFS builds the scalar form of the benchmark lambert.frag (normalize, dot,
// max, multiply-add), as the lowering produces it.
func lambertFS() *ir.Program {
	p, b := newProg(ir.Fragment, 3, 4)
	p.UniformWords = 6
	var n [3]ir.Reg
	for i := range n {
		n[i] = b.Imm(ir.LoadInput, b.Reg(ir.F32), uint32(i))
	}
	dot := func(a, c [3]ir.Reg) ir.Reg {
		s := b.Op(ir.FMul, ir.F32, a[0], c[0])
		s = b.Op(ir.Fma, ir.F32, a[1], c[1], s)
		return b.Op(ir.Fma, ir.F32, a[2], c[2], s)
	}
	inv := b.Op(ir.InvSqrt, ir.F32, dot(n, n))
	for i := range n {
		n[i] = b.Op(ir.FMul, ir.F32, n[i], inv)
	}
	var light, base [3]ir.Reg
	for i := range light {
		light[i] = b.Imm(ir.LoadUniform, b.Reg(ir.F32), uint32(i))
		base[i] = b.Imm(ir.LoadUniform, b.Reg(ir.F32), uint32(3+i))
	}
	diff := b.Op(ir.FMax, ir.F32, dot(n, light), b.ConstF(0))
	k := b.Op(ir.Fma, ir.F32, b.ConstF(0.85), diff, b.ConstF(0.15))
	for i := range base {
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), b.Op(ir.FMul, ir.F32, base[i], k))
	}
	b.Imm(ir.StoreOutput, ir.NoReg, 3, b.ConstF(1))
	b.Ctl(ir.Export)
	return p
}

// loopALU builds a vertex program with a divergent loop of float and int ALU work.
func loopALU() *ir.Program {
	p, b := newProg(ir.Vertex, 1, 1)
	x := b.Imm(ir.LoadInput, b.Reg(ir.F32), 0)
	i, one, n := b.ConstI(0), b.ConstI(1), b.ConstI(64)
	acc := b.ConstF(0)
	half := b.ConstF(0.5)
	b.Ctl(ir.Loop)
	b.Ctl(ir.If, b.Op(ir.IGe, ir.Bool, i, n))
	b.Ctl(ir.Break)
	b.Ctl(ir.EndIf)
	t := b.Op(ir.FMul, ir.F32, x, half)
	b.OpTo(ir.FAdd, acc, acc, t)
	b.OpTo(ir.FMul, acc, acc, half)
	b.OpTo(ir.FAdd, x, x, acc)
	b.OpTo(ir.IAdd, i, i, one)
	b.Ctl(ir.EndLoop)
	b.Imm(ir.StoreOutput, ir.NoReg, 0, acc)
	return p
}

func benchRun(bn *testing.B, p *ir.Program, w int) {
	q, err := ir.Optimize(p)
	if err != nil {
		bn.Fatal(err)
	}
	m, err := New(q, Config{Width: w})
	if err != nil {
		bn.Fatal(err)
	}
	uni := []uint32{0, math.Float32bits(0.6), math.Float32bits(0.8), math.Float32bits(1), math.Float32bits(0.5), math.Float32bits(0.25)}
	if err := m.SetUniforms(uni); err != nil {
		bn.Fatal(err)
	}
	for i := 0; i < p.InputWords; i++ {
		for l := range m.Input(i) {
			m.Input(i)[l] = math.Float32bits(float32(l+i) * 0.1)
		}
	}
	ctx := context.Background()
	full := m.full
	var steps, lanes int64
	bn.ReportAllocs()
	bn.ResetTimer()
	for bn.Loop() {
		if _, err := m.Run(ctx, full, full); err != nil {
			bn.Fatal(err)
		}
		steps += m.Steps()
		lanes += m.LaneOps()
	}
	sec := bn.Elapsed().Seconds()
	bn.ReportMetric(float64(steps)/sec/1e6, "Mwarpinstr/s")
	bn.ReportMetric(float64(lanes)/sec/1e6, "Mlaneinstr/s")
}

func BenchmarkLambertFS(b *testing.B) {
	for _, w := range []int{1, 16, 32} {
		b.Run(map[int]string{1: "w1", 16: "w16", 32: "w32"}[w], func(b *testing.B) { benchRun(b, lambertFS(), w) })
	}
}

func BenchmarkLoopALU(b *testing.B) {
	for _, w := range []int{1, 16, 32} {
		b.Run(map[int]string{1: "w1", 16: "w16", 32: "w32"}[w], func(b *testing.B) { benchRun(b, loopALU(), w) })
	}
}
