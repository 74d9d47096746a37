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
	for _, w := range []int{1, 16, 32, 64} {
		b.Run(map[int]string{1: "w1", 16: "w16", 32: "w32", 64: "w64"}[w], func(b *testing.B) { benchRun(b, lambertFS(), w) })
	}
}

func BenchmarkLoopALU(b *testing.B) {
	for _, w := range []int{1, 16, 32} {
		b.Run(map[int]string{1: "w1", 16: "w16", 32: "w32"}[w], func(b *testing.B) { benchRun(b, loopALU(), w) })
	}
}

// opClassProgram builds a vertex program of rounds of one op class over four
// inputs: each round applies every op of ops to the previous round's values, so
// the benchmark times the per-instruction cost of the class at full occupancy.
func opClassProgram(src ir.Type, ops []ir.Op, dst func(ir.Op) ir.Type) *ir.Program {
	p, b := newProg(ir.Vertex, 4, 4)
	p.FlushDenormals = true
	var v [4]ir.Reg
	for i := range v {
		v[i] = b.Imm(ir.LoadInput, b.Reg(src), uint32(i))
	}
	for round := 0; round < 8; round++ {
		for i, op := range ops {
			x, y, z := v[i%4], v[(i+1)%4], v[(i+2)%4]
			var r ir.Reg
			switch op.NumSrc() {
			case 1:
				r = b.Op(op, dst(op), x)
			case 3:
				r = b.Op(op, dst(op), x, y, z)
			default:
				r = b.Op(op, dst(op), x, y)
			}
			if dst(op) == src {
				v[i%4] = r
			}
		}
	}
	for i := range v {
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), v[i])
	}
	return p
}

func same(t ir.Type) func(ir.Op) ir.Type { return func(ir.Op) ir.Type { return t } }

// BenchmarkOpClass times straight-line blocks of one op class at width 16:
// float arithmetic (flushing, as vertex programs do), integer arithmetic and
// bit operations, compares feeding selects, and conversions.
func BenchmarkOpClass(bn *testing.B) {
	floatALU := opClassProgram(ir.F32, []ir.Op{ir.FMul, ir.FAdd, ir.Fma, ir.FSub, ir.FMax, ir.FMin, ir.FAbs, ir.Floor, ir.Fract, ir.Sqrt}, same(ir.F32))
	intALU := opClassProgram(ir.I32, []ir.Op{ir.IAdd, ir.IMul, ir.ISub, ir.Xor, ir.And, ir.Shl, ir.IShr, ir.IMin, ir.IMax, ir.Or}, same(ir.I32))
	cmpSel := func() *ir.Program {
		p, b := newProg(ir.Vertex, 4, 4)
		var v [4]ir.Reg
		for i := range v {
			v[i] = b.Imm(ir.LoadInput, b.Reg(ir.F32), uint32(i))
		}
		for round := 0; round < 16; round++ {
			for i, op := range []ir.Op{ir.FLt, ir.FGe, ir.FEq, ir.FNe} {
				c := b.Op(op, ir.Bool, v[i], v[(i+1)%4])
				v[i] = b.Op(ir.Select, ir.F32, c, v[(i+2)%4], v[(i+3)%4])
			}
		}
		for i := range v {
			b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), v[i])
		}
		return p
	}()
	conv := func() *ir.Program {
		p, b := newProg(ir.Vertex, 4, 4)
		var v [4]ir.Reg
		for i := range v {
			v[i] = b.Imm(ir.LoadInput, b.Reg(ir.F32), uint32(i))
		}
		for round := 0; round < 16; round++ {
			for i := range v {
				n := b.Op(ir.FtoI, ir.I32, v[i])
				u := b.Op(ir.FtoU, ir.U32, v[(i+1)%4])
				f := b.Op(ir.ItoF, ir.F32, n)
				g := b.Op(ir.UtoF, ir.F32, u)
				v[i] = b.Op(ir.FAdd, ir.F32, f, g)
			}
		}
		for i := range v {
			b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), v[i])
		}
		return p
	}()
	for _, c := range []struct {
		name string
		p    *ir.Program
	}{{"float", floatALU}, {"int", intALU}, {"cmpsel", cmpSel}, {"conv", conv}, {"uniform", uniformALU()}, {"moves", moves()}} {
		bn.Run(c.name, func(bn *testing.B) { benchRunRaw(bn, c.p, 16) })
	}
}

// uniformALU is uniform-operand arithmetic as the lowering makes it of mat4 × vec4
// (the benchmark lambert.vert): sixteen uniform loads, then per row four multiplies
// by uniforms and three adds, for four matrices in a chain.
func uniformALU() *ir.Program {
	p, b := newProg(ir.Vertex, 4, 4)
	p.FlushDenormals = true
	p.UniformWords = 64
	var v [4]ir.Reg
	for i := range v {
		v[i] = b.Imm(ir.LoadInput, b.Reg(ir.F32), uint32(i))
	}
	for mat := 0; mat < 4; mat++ {
		var u [16]ir.Reg
		for i := range u {
			u[i] = b.Imm(ir.LoadUniform, b.Reg(ir.F32), uint32(16*mat+i))
		}
		var o [4]ir.Reg
		for row := range o {
			s := b.Op(ir.FMul, ir.F32, u[row], v[0])
			for col := 1; col < 4; col++ {
				s = b.Op(ir.FAdd, ir.F32, s, b.Op(ir.FMul, ir.F32, u[4*col+row], v[col]))
			}
			o[row] = s
		}
		v = o
	}
	for i := range v {
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), v[i])
	}
	return p
}

// moves is data movement only: input loads, register moves, constants and output
// stores, as the lowering's copies between varyings and temporaries are.
func moves() *ir.Program {
	p, b := newProg(ir.Vertex, 4, 4)
	var v [4]ir.Reg
	for round := 0; round < 8; round++ {
		for i := range v {
			v[i] = b.Imm(ir.LoadInput, b.Reg(ir.F32), uint32(i))
		}
		for i := range v {
			v[i] = b.Op(ir.Mov, ir.F32, v[(i+1)%4])
		}
		k := b.ConstF(float32(round))
		for i := range v {
			b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), v[i])
		}
		b.Imm(ir.StoreOutput, ir.NoReg, 0, k)
	}
	return p
}

// benchRunRaw is benchRun without Optimize (which would fold or drop parts of the
// op-class programs).
func benchRunRaw(bn *testing.B, p *ir.Program, w int) {
	if err := ir.Verify(p); err != nil {
		bn.Fatal(err)
	}
	m, err := New(p, Config{Width: w})
	if err != nil {
		bn.Fatal(err)
	}
	for i := 0; i < p.InputWords; i++ {
		for l := range m.Input(i) {
			m.Input(i)[l] = math.Float32bits(float32(l+i)*0.37 + 0.5)
		}
	}
	if p.UniformWords > 0 {
		uni := make([]uint32, p.UniformWords)
		for i := range uni {
			uni[i] = math.Float32bits(float32(i%7) * 0.25)
		}
		if err := m.SetUniforms(uni); err != nil {
			bn.Fatal(err)
		}
	}
	ctx := context.Background()
	full := m.full
	bn.ReportAllocs()
	bn.ResetTimer()
	for bn.Loop() {
		if _, err := m.Run(ctx, full, full); err != nil {
			bn.Fatal(err)
		}
	}
}

// BenchmarkLambertFSPartial runs the lambert fragment program at width 16 with
// a scattered mask (a quad-warp with uncovered pixels after a divergent branch
// would have one), which takes the compute-then-copy path of runBlock.
func BenchmarkLambertFSPartial(bn *testing.B) {
	q, err := ir.Optimize(lambertFS())
	if err != nil {
		bn.Fatal(err)
	}
	m, err := New(q, Config{Width: 16})
	if err != nil {
		bn.Fatal(err)
	}
	if err := m.SetUniforms([]uint32{0, math.Float32bits(0.6), math.Float32bits(0.8), math.Float32bits(1), math.Float32bits(0.5), math.Float32bits(0.25)}); err != nil {
		bn.Fatal(err)
	}
	ctx := context.Background()
	bn.ReportAllocs()
	for bn.Loop() {
		if _, err := m.Run(ctx, 0x7bde, 0x7bde); err != nil {
			bn.Fatal(err)
		}
	}
}
