package exec

import (
	"context"
	"math"
	"testing"

	"vortexgfx/shader/ir"
)

// denormProg multiplies input word 0 by input word 1 (FMul), negates the product
// (FNeg keeps its bits) and takes fine x derivative of input 0 into three outputs.
func denormProg(flush bool) *ir.Program {
	p, b := newProg(ir.Fragment, 2, 3)
	p.FlushDenormals = flush
	x := b.Imm(ir.LoadInput, b.Reg(ir.F32), 0)
	y := b.Imm(ir.LoadInput, b.Reg(ir.F32), 1)
	prod := b.Op(ir.FMul, ir.F32, x, y)
	b.Imm(ir.StoreOutput, ir.NoReg, 0, prod)
	b.Imm(ir.StoreOutput, ir.NoReg, 1, b.Op(ir.FNeg, ir.F32, x))
	b.Imm(ir.StoreOutput, ir.NoReg, 2, b.Op(ir.DdxFine, ir.F32, x))
	return p
}

// TestDenormals checks that a flushing program flushes the denormal results of
// float arithmetic (and derivatives) to a zero of the same sign, keeps the bits
// of FNeg, and that Config.Denormals overrides the program either way, on full
// and partial masks. spec: GLSL 4.60 §4.7.1.
func TestDenormals(t *testing.T) {
	tiny := float32(1e-30) // x*x = 1e-60 underflows to 0; tiny*1e-9 ≈ 1e-39 is denormal
	den := math.Float32frombits(0x00400000)
	tests := []struct {
		name  string
		flush bool
		mode  Denormals
		mask  uint64
		want0 uint32 // product of lane 0 (x = tiny, y = -1e-9)
		want1 uint32 // -x of lane 1 (x = den)
	}{
		{"program flushes", true, DenormalsProgram, 0xf, 0x80000000, 0x80400000},
		{"program flushes, partial mask", true, DenormalsProgram, 0x3, 0x80000000, 0x80400000},
		{"program IEEE", false, DenormalsProgram, 0xf, math.Float32bits(tiny * -1e-9), 0x80400000},
		{"override IEEE", true, DenormalsIEEE, 0xf, math.Float32bits(tiny * -1e-9), 0x80400000},
		{"override flush", false, DenormalsFlush, 0x7, 0x80000000, 0x80400000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(denormProg(tc.flush), Config{Width: 4, Denormals: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			xs := []float32{tiny, den, den * 3, 1}
			for l := 0; l < 4; l++ {
				m.Input(0)[l] = math.Float32bits(xs[l])
				m.Input(1)[l] = math.Float32bits(-1e-9)
			}
			if _, err := m.Run(context.Background(), tc.mask, tc.mask); err != nil {
				t.Fatal(err)
			}
			if got := m.Output(0)[0]; got != tc.want0 {
				t.Errorf("tiny*-1e-9 = %#x, want %#x", got, tc.want0)
			}
			if got := m.Output(1)[1]; got != tc.want1 {
				t.Errorf("-denormal = %#x, want %#x (negation keeps the bits)", got, tc.want1)
			}
			// dFdx on lanes 0,1 is den - tiny, a normal number either way;
			// lanes 2,3 (when active) give 1 - 3*den: normal too. The derivative
			// of lane 1 when lane 0 is den: check one denormal difference.
			wantDdx := math.Float32bits(den - tiny)
			if got := m.Output(2)[0]; got != wantDdx {
				t.Errorf("ddx = %#x, want %#x", got, wantDdx)
			}
		})
	}
}

// TestDenormalFoldingAgrees checks that constant folding flushes exactly when the
// program does, so that an optimised program computes what the executor would.
func TestDenormalFoldingAgrees(t *testing.T) {
	for _, flush := range []bool{false, true} {
		p, b := newProg(ir.Vertex, 0, 2)
		p.FlushDenormals = flush
		prod := b.Op(ir.FMul, ir.F32, b.ConstF(1e-30), b.ConstF(-1e-9))
		diff := b.Op(ir.FSub, ir.F32, b.ConstF(2e-38), b.ConstF(1.5e-38))
		b.Imm(ir.StoreOutput, ir.NoReg, 0, prod)
		b.Imm(ir.StoreOutput, ir.NoReg, 1, diff)
		run := func(p *ir.Program) [2]uint32 {
			m, err := New(p, Config{Width: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Run(context.Background(), 1, 1); err != nil {
				t.Fatal(err)
			}
			return [2]uint32{m.Output(0)[0], m.Output(1)[0]}
		}
		plain := run(p)
		q, err := ir.Optimize(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := run(q); got != plain {
			t.Errorf("flush=%v: optimised %#x, executed %#x", flush, got, plain)
		}
		if flush && (plain[0] != 0x80000000 || plain[1] != 0) {
			t.Errorf("flush: results %#x, want signed zeros", plain)
		}
		if !flush && (plain[0]&0x7f800000 != 0 || plain[0]&0x7fffff == 0) {
			t.Errorf("IEEE: product %#x is not a denormal", plain[0])
		}
	}
}

// BenchmarkDenormals measures the flush pass: the Lambert fragment shader and the
// float loop with IEEE subnormals and with flushing.
func BenchmarkDenormals(b *testing.B) {
	for _, tc := range []struct {
		name string
		p    func() *ir.Program
	}{{"lambert", lambertFS}, {"loop", loopALU}} {
		for _, flush := range []bool{false, true} {
			name := tc.name + "/ieee"
			if flush {
				name = tc.name + "/flush"
			}
			b.Run(name, func(b *testing.B) {
				p := tc.p()
				p.FlushDenormals = flush
				benchRun(b, p, 16)
			})
		}
	}
}
