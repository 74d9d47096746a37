package exec

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"vortexgfx/shader/ir"
)

// diffWords are lane inputs chosen to reach the edges of the arithmetic: zeros of
// both signs, denormals (and products that become denormal), infinities, NaNs,
// integer extremes and ordinary values.
var diffWords = [...]uint32{
	0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x1f800000, 0x20000000,
	0x3f800000, 0xbf800000, 0x3f000000, 0x40490fdb, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
	0x7fffffff, 0xffffffff, 2, 3, 0xfffffffe, 0x40a00000, 0xc0a00000, 0x3dcccccd,
	0xffc00000, 0x7f800001, 0xff812345, 0x7fc0beef,
}

// diffRun runs p on one width with the all-lanes path on (or, generic, off) and
// returns everything observable: outputs, the live mask, the error, the step and
// lane-instruction counts and the final registers.
type diffResult struct {
	out, regs     []uint32
	live          uint64
	err           error
	steps, lanops int64
}

func diffRun(t *testing.T, p *ir.Program, cfg Config, seed uint64, present uint64, generic bool) diffResult {
	t.Helper()
	m, err := New(p, cfg)
	if err != nil {
		t.Fatalf("New: %v\n%s", err, p)
	}
	if generic {
		for i := range m.fullCode {
			m.fullCode[i].kind = fkNone
		}
	}
	m.SetSampler(fuzzSampler{})
	m.SetMemory(fuzzMemory())
	rng := rand.New(rand.NewPCG(seed, 11))
	uni := make([]uint32, max(p.UniformWords, 4))
	for i := range uni {
		uni[i] = diffWords[rng.IntN(len(diffWords))]
	}
	if err := m.SetUniforms(uni); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < p.InputWords; i++ {
		for l := range m.Input(i) {
			if rng.IntN(3) == 0 {
				m.Input(i)[l] = diffWords[rng.IntN(len(diffWords))]
			} else {
				m.Input(i)[l] = math.Float32bits(float32(rng.IntN(13) - 6))
			}
		}
	}
	live, err := m.Run(context.Background(), present, present&0xfffffffffffffff5)
	return diffResult{out: slices.Clone(m.out), regs: slices.Clone(m.regs), live: live, err: err, steps: m.Steps(), lanops: m.LaneOps()}
}

// checkSame runs p both ways for each width and denormal mode and requires every
// observable result to be identical, bit for bit.
func checkSame(t *testing.T, p *ir.Program, seed uint64) {
	t.Helper()
	for _, w := range []int{1, 4, 16} {
		for _, dn := range []Denormals{DenormalsProgram, DenormalsFlush, DenormalsIEEE} {
			cfg := Config{Width: w, MaxSteps: 20000, Denormals: dn}
			full := ^uint64(0) >> (64 - w)
			for _, present := range []uint64{full, full &^ 2} {
				fast := diffRun(t, p, cfg, seed, present, false)
				gen := diffRun(t, p, cfg, seed, present, true)
				if (fast.err == nil) != (gen.err == nil) || fast.err != nil && !errors.Is(fast.err, gen.err) && fast.err.Error() != gen.err.Error() {
					t.Fatalf("seed %d width %d denormals %d: errors differ: fast %v, generic %v\n%s", seed, w, dn, fast.err, gen.err, p)
				}
				if fast.live != gen.live || fast.steps != gen.steps || fast.lanops != gen.lanops {
					t.Fatalf("seed %d width %d denormals %d: live/steps/laneops fast %#x/%d/%d, generic %#x/%d/%d\n%s",
						seed, w, dn, fast.live, fast.steps, fast.lanops, gen.live, gen.steps, gen.lanops, p)
				}
				if i := firstDiff(fast.out, gen.out); i >= 0 {
					t.Fatalf("seed %d width %d denormals %d present %#x: output word %d lane %d: fast %#x, generic %#x\n%s",
						seed, w, dn, present, i/w, i%w, fast.out[i], gen.out[i], p)
				}
				if i := firstDiff(fast.regs, gen.regs); i >= 0 {
					t.Fatalf("seed %d width %d denormals %d present %#x: register %d lane %d: fast %#x, generic %#x\n%s",
						seed, w, dn, present, i/w, i%w, fast.regs[i], gen.regs[i], p)
				}
			}
		}
	}
}

func firstDiff(a, b []uint32) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestFullPathMatchesGeneric runs random structured programs (vertex and fragment,
// before and after Optimize), random verified byte programs (the FuzzExec decoder)
// and the benchmark programs with the all-lanes fast path and with every
// instruction on the generic path: results must agree bit for bit.
func TestFullPathMatchesGeneric(t *testing.T) {
	progs := []*ir.Program{lambertFS(), loopALU()}
	for seed := uint64(0); seed < 40; seed++ {
		for _, st := range []ir.Stage{ir.Vertex, ir.Fragment} {
			p := newGen(seed, st).program()
			progs = append(progs, p)
			if o, err := ir.Optimize(p); err == nil {
				progs = append(progs, o)
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	fastOps := []ir.Op{ir.FAdd, ir.FSub, ir.FMul, ir.FDiv, ir.Fma, ir.FMin, ir.FMax, ir.Sqrt, ir.InvSqrt,
		ir.IAdd, ir.IMul, ir.FLt, ir.Eq, ir.ItoF, ir.Mov, ir.Select, ir.Const, ir.LoadInput, ir.LoadUniform, ir.StoreOutput}
	for n := 0; n < 40; {
		data := make([]byte, 4+8*(2+rng.IntN(14)))
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		data[0] &^= 2 // vertex and fragment programs
		p := decodeProgram(data)
		if p == nil || ir.Verify(p) != nil {
			continue
		}
		// Turn instructions into fast-path ops wherever the program still verifies.
		for i := range p.Code {
			old := p.Code[i].Op
			p.Code[i].Op = fastOps[rng.IntN(len(fastOps))]
			if ir.Verify(p) != nil {
				p.Code[i].Op = old
			}
		}
		progs = append(progs, p)
		n++
	}
	decoded := 0
	for i, p := range progs {
		checkSame(t, p, uint64(i))
		m, err := New(p, Config{Width: 4})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.fullCode {
			if f.kind != fkNone {
				decoded++
			}
		}
	}
	if decoded < 1000 {
		t.Fatalf("only %d instructions take the all-lanes path: the test does not exercise it", decoded)
	}
}

// TestFullPathEdgeOperands runs every all-lanes op on every pair of diffWords (NaNs
// of both signs and payloads, infinities, denormals) both ways, with every lane
// active and with a partial mask, in both denormal modes: bit for bit equal.
func TestFullPathEdgeOperands(t *testing.T) {
	const w = 16
	type opCase struct {
		op       ir.Op
		src, dst ir.Type
	}
	var ops []opCase
	for _, op := range []ir.Op{ir.FAdd, ir.FSub, ir.FMul, ir.FDiv, ir.Fma, ir.FMin, ir.FMax, ir.FNeg, ir.FAbs, ir.Sqrt, ir.InvSqrt, ir.Mov} {
		ops = append(ops, opCase{op, ir.F32, ir.F32})
	}
	for _, op := range []ir.Op{ir.IAdd, ir.ISub, ir.IMul, ir.And, ir.Or} {
		ops = append(ops, opCase{op, ir.I32, ir.I32})
	}
	for _, op := range []ir.Op{ir.UAdd, ir.USub, ir.UMul} {
		ops = append(ops, opCase{op, ir.U32, ir.U32})
	}
	for _, op := range []ir.Op{ir.FLt, ir.FLe, ir.FGt, ir.FGe, ir.Eq, ir.Ne} {
		ops = append(ops, opCase{op, ir.F32, ir.Bool})
	}
	ops = append(ops, opCase{ir.ILt, ir.I32, ir.Bool}, opCase{ir.IGe, ir.I32, ir.Bool}, opCase{ir.ItoF, ir.I32, ir.F32})
	var pairs [][2]uint32
	for _, a := range diffWords {
		for _, b := range diffWords {
			pairs = append(pairs, [2]uint32{a, b})
		}
	}
	for _, oc := range ops {
		op := oc.op
		for _, dn := range []Denormals{DenormalsFlush, DenormalsIEEE} {
			p, b := newProg(ir.Vertex, 2, 1)
			x := b.Imm(ir.LoadInput, b.Reg(oc.src), 0)
			y := b.Imm(ir.LoadInput, b.Reg(oc.src), 1)
			var r ir.Reg
			switch op.NumSrc() {
			case 1:
				r = b.Op(op, oc.dst, x)
			case 3:
				r = b.Op(op, oc.dst, x, y, x)
			default:
				r = b.Op(op, oc.dst, x, y)
			}
			b.Imm(ir.StoreOutput, ir.NoReg, 0, r)
			if err := ir.Verify(p); err != nil {
				t.Fatalf("%v: %v", op, err)
			}
			var ms [2]*Machine
			for i := range ms {
				m, err := New(p, Config{Width: w, Denormals: dn})
				if err != nil {
					t.Fatal(err)
				}
				ms[i] = m
			}
			for i := range ms[1].fullCode {
				ms[1].fullCode[i].kind = fkNone
			}
			for base := 0; base < len(pairs); base += w {
				for _, exec := range []uint64{0xffff, 0x5a5a} {
					var outs [2][w]uint32
					for i, m := range ms {
						for l := 0; l < w; l++ {
							pr := pairs[(base+l)%len(pairs)]
							m.Input(0)[l], m.Input(1)[l] = pr[0], pr[1]
						}
						if _, err := m.Run(context.Background(), exec, exec); err != nil {
							t.Fatal(err)
						}
						copy(outs[i][:], m.Output(0))
					}
					if outs[0] != outs[1] {
						for l := range outs[0] {
							if outs[0][l] != outs[1][l] {
								pr := pairs[(base+l)%len(pairs)]
								t.Fatalf("%v denormals %d: %#x, %#x: fast %#x, generic %#x", op, dn, pr[0], pr[1], outs[0][l], outs[1][l])
							}
						}
					}
				}
			}
		}
	}
}
