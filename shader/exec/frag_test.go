package exec

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/shader/ir"
)

func f32(w uint32) float32 { return math.Float32frombits(w) }

// TestDerivatives runs ddx/ddy fine and coarse over quads of v = x*x + 3*y where
// lanes 4k..4k+3 are the pixels (0,0) (1,0) (0,1) (1,1) of quad k, including
// helper lanes (present, not live) and a lane made inactive by divergence, whose
// neighbours then read their own value (spec: vortexpipe-driver §2.2).
func TestDerivatives(t *testing.T) {
	p, b := newProg(ir.Fragment, 2, 4)
	x, y := b.Reg(ir.F32), b.Reg(ir.F32)
	b.Imm(ir.LoadInput, x, 0)
	b.Imm(ir.LoadInput, y, 1)
	v := b.Op(ir.FAdd, ir.F32, b.Op(ir.FMul, ir.F32, x, x), b.Op(ir.FMul, ir.F32, y, b.ConstF(3)))
	// Lanes with x == 7 skip the derivatives (divergence).
	b.Ctl(ir.If, b.Op(ir.FNe, ir.Bool, x, b.ConstF(7)))
	for i, op := range []ir.Op{ir.DdxFine, ir.DdyFine, ir.DdxCoarse, ir.DdyCoarse} {
		b.Imm(ir.StoreOutput, ir.NoReg, uint32(i), b.Op(op, ir.F32, v))
	}
	b.Ctl(ir.EndIf)
	m := mustNew(t, p, 16)
	// Quad k at (2k, 0); quad 3 has its top-right pixel at x == 7.
	xs, ys := m.Input(0), m.Input(1)
	val := func(px, py int) float32 { return float32(px*px + 3*py) }
	for l := 0; l < 16; l++ {
		px, py := 2*(l/4)+l&1, (l>>1)&1
		xs[l], ys[l] = math.Float32bits(float32(px)), math.Float32bits(float32(py))
	}
	present := uint64(0xffff)
	live := present &^ 0b0110 // lanes 1, 2 are helpers
	gotLive, err := m.Run(context.Background(), present, live)
	if err != nil {
		t.Fatal(err)
	}
	if gotLive != live {
		t.Fatalf("live %#x, want %#x", gotLive, live)
	}
	active := present &^ (1<<13 | 1<<15) // lanes 13, 15 are pixels (7,0), (7,1)
	for l := 0; l < 16; l++ {
		if active>>l&1 == 0 {
			continue
		}
		q := l &^ 3
		pix := func(n int) float32 {
			if active>>n&1 == 0 {
				n = l
			}
			return val(2*(n/4)+n&1, (n>>1)&1)
		}
		x0 := q + l&2
		y0 := q + l&1
		want := [4]float32{pix(x0+1) - pix(x0), pix(y0+2) - pix(y0), pix(q+1) - pix(q), pix(q+2) - pix(q)}
		for i := 0; i < 4; i++ {
			if got := f32(m.Output(i)[l]); got != want[i] {
				t.Errorf("lane %d output %d: got %v, want %v", l, i, got, want[i])
			}
		}
	}
	// Quad 0, lane 0 (TL): ddx fine = v(1,0)-v(0,0) = 1; quad 1 lane 5: v(3,0)-v(2,0) = 5.
	if got := f32(m.Output(0)[5]); got != 5 {
		t.Errorf("ddx at (3,0) = %v, want 5", got)
	}
	// Lane 12 (6,0): its right neighbour 13 is inactive, so ddx reads its own value: 0.
	if got := f32(m.Output(0)[12]); got != 0 {
		t.Errorf("ddx beside an inactive lane = %v, want 0", got)
	}
}

// TestDiscardDemote checks the live mask and lane termination: a discarded lane
// executes nothing more, a demoted lane keeps running as a helper, neither is
// exported, and derivatives across a demoted lane still see its value.
func TestDiscardDemote(t *testing.T) {
	p, b := newProg(ir.Fragment, 1, 3)
	x := b.Reg(ir.F32)
	b.Imm(ir.LoadInput, x, 0)
	// if x == 1 discard; if x == 2 demote; out0 = x*2; out1 = ddx(x); out2 = helper
	b.Ctl(ir.If, b.Op(ir.FEq, ir.Bool, x, b.ConstF(1)))
	b.Ctl(ir.Discard)
	b.Ctl(ir.EndIf)
	b.Ctl(ir.If, b.Op(ir.FEq, ir.Bool, x, b.ConstF(2)))
	b.Ctl(ir.Demote)
	b.Ctl(ir.EndIf)
	b.Imm(ir.StoreOutput, ir.NoReg, 0, b.Op(ir.FMul, ir.F32, x, b.ConstF(2)))
	b.Imm(ir.StoreOutput, ir.NoReg, 1, b.Op(ir.DdxFine, ir.F32, x))
	b.Imm(ir.StoreOutput, ir.NoReg, 2, b.Op(ir.BtoU, ir.U32, b.Op(ir.IsHelper, ir.Bool)))
	b.Ctl(ir.Export)
	m := mustNew(t, p, 4)
	in := m.Input(0)
	for l, v := range []float32{0, 1, 2, 3} {
		in[l] = math.Float32bits(v)
	}
	sink := &recordSink{}
	m.SetOutputSink(sink)
	live, err := m.Run(context.Background(), 0xf, 0xf)
	if err != nil {
		t.Fatal(err)
	}
	if live != 0b1001 {
		t.Fatalf("live = %04b, want 1001", live)
	}
	if sink.calls != 1 || sink.mask != 0b1001 {
		t.Fatalf("export calls %d mask %04b, want 1 call with 1001", sink.calls, sink.mask)
	}
	out0 := m.Output(0)
	if out0[1] != 0 { // discarded lane wrote nothing
		t.Errorf("discarded lane wrote %v", f32(out0[1]))
	}
	if f32(out0[2]) != 4 { // demoted lane kept running
		t.Errorf("demoted lane output %v, want 4", f32(out0[2]))
	}
	// ddx in lane 0: its right neighbour (lane 1) was discarded: own value, 0.
	// Lane 2 (BL, demoted helper) and lane 3 (BR): 3 - 2 = 1.
	if d := m.Output(1); f32(d[0]) != 0 || f32(d[2]) != 1 || f32(d[3]) != 1 {
		t.Errorf("ddx = %v %v %v, want 0 1 1", f32(d[0]), f32(d[2]), f32(d[3]))
	}
	if h := m.Output(2); h[2] != 1 || h[3] != 0 {
		t.Errorf("helper flags %v, want lane 2 helper only", h)
	}
}

type recordSink struct {
	calls int
	mask  uint64
}

func (s *recordSink) Export(r *ExportRequest) error {
	s.calls++
	s.mask = r.Mask
	return nil
}

// TestALUMatchesEval runs every pure opcode through the executor on random words
// with full and partial masks and checks each active lane against ir.Eval, and each
// inactive lane unchanged. It covers the specialised lane loops as well as the
// generic path.
func TestALUMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for op := ir.Op(0); op < ir.Call; op++ {
		if !op.IsPure() || op == ir.Const {
			continue
		}
		p := &ir.Program{Stage: ir.Vertex}
		b := ir.NewBuilder(p)
		// Pick register types that satisfy the signature by trial.
		var srcs [4]ir.Reg
		types := []ir.Type{ir.F32, ir.I32, ir.U32, ir.Bool}
		found := false
		for _, dt := range types {
			for _, st := range types {
				p.Regs = p.Regs[:0]
				d := b.Reg(dt)
				for i := 0; i < op.NumSrc(); i++ {
					srcs[i] = b.Reg(st)
				}
				if op == ir.Select {
					p.Regs[srcs[0]] = ir.Bool
				}
				if op == ir.Ldexp || op == ir.IBfe || op == ir.UBfe || op == ir.BitfieldInsert {
					for i := 1; i < op.NumSrc(); i++ {
						p.Regs[srcs[i]] = ir.I32
					}
					if op == ir.BitfieldInsert {
						p.Regs[srcs[1]] = dt
					} else if op != ir.Ldexp {
						p.Regs[srcs[2]] = ir.I32
					}
				}
				p.Code = nil
				b.OpTo(op, d, srcs[:op.NumSrc()]...)
				if ir.Verify(p) == nil {
					found = true
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			t.Errorf("%v: no register typing verifies", op)
			continue
		}
		for _, w := range []int{1, 8, 64} {
			m := mustNew(t, p, w)
			for trial := 0; trial < 20; trial++ {
				for r := range p.Regs {
					lanes := m.Reg(ir.Reg(r))
					for l := range lanes {
						v := rng.Uint32()
						switch {
						case p.Regs[r] == ir.Bool:
							v &= 1
						case p.Regs[r] == ir.F32 && trial%2 == 0:
							v = math.Float32bits(float32(rng.NormFloat64() * 10))
						case p.Regs[r] == ir.I32 && trial%3 == 0:
							v = uint32(rng.IntN(70) - 35)
						}
						lanes[l] = v
					}
				}
				before := append([]uint32(nil), m.Reg(0)...)
				mask := m.full
				if trial%2 == 1 {
					mask &= rng.Uint64()
				}
				// Run without clearing registers: call the inner loop directly.
				if _, err := m.run(context.Background(), mask, mask); err != nil {
					t.Fatal(err)
				}
				in := p.Code[0]
				for l := 0; l < w; l++ {
					var s [4]uint32
					for i := 0; i < op.NumSrc(); i++ {
						s[i] = m.Reg(in.Src[i])[l]
					}
					want := before[l]
					if mask>>l&1 != 0 {
						want = ir.Eval(op, in.Imm, s[0], s[1], s[2], s[3])
					}
					if got := m.Reg(0)[l]; got != want {
						t.Fatalf("%v width %d lane %d: got %#x, want %#x", op, w, l, got, want)
					}
				}
			}
		}
	}
}

// TestStraightLineZeroing: Run zeroes only the registers a straight-line
// program reads before writing them (planZeroing), and the results are those
// of a zeroed register file: a register read before its first write reads
// zero on every Run, not the previous Run's value, and a Run over fewer
// present lanes leaves the other lanes' outputs zero. A program with control
// flow has every register zeroed.
func TestStraightLineZeroing(t *testing.T) {
	p, b := newProg(ir.Fragment, 1, 2)
	early := b.Reg(ir.F32)
	b.Imm(ir.StoreOutput, ir.NoReg, 0, b.Op(ir.FAdd, ir.F32, early, b.ConstF(1))) // early is still zero
	b.Imm(ir.LoadInput, early, 0)
	b.Imm(ir.StoreOutput, ir.NoReg, 1, b.Op(ir.FMul, ir.F32, early, b.ConstF(2)))
	m := mustNew(t, p, 8)
	if m.zeroAll || len(m.zeroRegs) != 1 || m.zeroRegs[0] != early {
		t.Fatalf("zeroing plan: all %v, registers %v; want only r%d", m.zeroAll, m.zeroRegs, early)
	}
	for run, present := range []uint64{0xff, 0b101, 0xff} {
		for l := range m.Input(0) {
			m.Input(0)[l] = math.Float32bits(float32(10*run + l))
		}
		if _, err := m.Run(context.Background(), present, present); err != nil {
			t.Fatal(err)
		}
		for l := range 8 {
			want0, want1 := uint32(0), uint32(0)
			if present>>l&1 != 0 {
				want0, want1 = math.Float32bits(1), math.Float32bits(2*float32(10*run+l))
			}
			if got0, got1 := m.Output(0)[l], m.Output(1)[l]; got0 != want0 || got1 != want1 {
				t.Errorf("run %d (present %#b) lane %d: outputs %#x %#x, want %#x %#x", run, present, l, got0, got1, want0, want1)
			}
		}
	}

	q, c := newProg(ir.Fragment, 1, 1)
	x := c.Imm(ir.LoadInput, c.Reg(ir.F32), 0)
	c.Ctl(ir.If, c.Op(ir.FLt, ir.Bool, x, c.ConstF(3)))
	c.Imm(ir.StoreOutput, ir.NoReg, 0, x)
	c.Ctl(ir.EndIf)
	if mq := mustNew(t, q, 8); !mq.zeroAll {
		t.Errorf("a program with control flow: zeroing plan %v, want every register", mq.zeroRegs)
	}
}
