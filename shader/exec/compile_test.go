package exec

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
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

// diffRun runs p on one width with the compiled path on (or, generic, off) and
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
		m.useGeneric()
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
			for _, present := range []uint64{full, full &^ 2, full >> (w / 2)} {
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

// TestCompiledMatchesGeneric runs random structured programs (vertex and fragment,
// before and after Optimize), random verified byte programs (the FuzzExec decoder)
// and the benchmark programs with the compiled path and with every instruction on
// the generic path: results must agree bit for bit.
func TestCompiledMatchesGeneric(t *testing.T) {
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
	var fastOps []ir.Op
	for op := ir.Op(0); op < ir.NumOps; op++ {
		if op.IsPure() {
			fastOps = append(fastOps, op)
		}
	}
	fastOps = append(fastOps, ir.LoadInput, ir.LoadUniform, ir.LoadUniformIdx, ir.ArrayLoad, ir.StoreOutput)
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
		// Turn instructions into compiled ops wherever the program still verifies.
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
		for _, s := range m.compiled {
			if s.lanes != nil {
				decoded++
			}
		}
	}
	if decoded < 1000 {
		t.Fatalf("only %d instructions take the compiled path: the test does not exercise it", decoded)
	}
}

// opProgram returns a vertex program that loads its sources from input words
// 0..3 (a bool source is the word tested against zero), applies op once and stores the result to output word 0, with the first
// register typing (destination, then each source) that verifies; nil when none
// does.
func opProgram(op ir.Op, imm uint32) *ir.Program {
	types := []ir.Type{ir.F32, ir.I32, ir.U32, ir.Bool}
	n := op.NumSrc()
	combos := 1
	for i := 0; i <= n; i++ {
		combos *= len(types)
	}
	for k := 0; k < combos; k++ {
		var ts [5]ir.Type
		for i, c := 0, k; i <= n; i, c = i+1, c/len(types) {
			ts[i] = types[c%len(types)]
		}
		p, b := newProg(ir.Vertex, 4, 1)
		var src [4]ir.Reg
		for i := 0; i < n; i++ {
			if ts[i+1] == ir.Bool {
				// Inputs cannot be bool: test the word against zero.
				u := b.Imm(ir.LoadInput, b.Reg(ir.U32), uint32(i))
				src[i] = b.Op(ir.Ne, ir.Bool, u, b.ConstU(0))
				continue
			}
			src[i] = b.Imm(ir.LoadInput, b.Reg(ts[i+1]), uint32(i))
		}
		r := b.Op(op, ts[0], src[:n]...)
		p.Code[len(p.Code)-1].Imm = imm
		b.Imm(ir.StoreOutput, ir.NoReg, 0, r)
		if ir.Verify(p) == nil {
			return p
		}
	}
	return nil
}

// TestCompiledEdgeOperands runs every op the compiled path covers over every pair
// of diffWords (NaNs of both signs and payloads, infinities, denormals, integer
// extremes, shift counts beyond 31, zero divisors) and over random words, on the
// compiled path and on the generic one, with every lane active, with low lanes
// active and with a scattered mask, flushing and IEEE: the outputs must be equal bit for bit.
func TestCompiledEdgeOperands(t *testing.T) {
	const w = 16
	var pairs [][2]uint32
	for _, a := range diffWords {
		for _, b := range diffWords {
			pairs = append(pairs, [2]uint32{a, b})
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 512; i++ {
		pairs = append(pairs, [2]uint32{rng.Uint32(), rng.Uint32()})
	}
	covered := 0
	for op := ir.Op(0); op < ir.NumOps; op++ {
		if !op.IsPure() {
			continue
		}
		tested := false
		for _, imm := range []uint32{0, 1, 3, 0x3f800000} {
			p := opProgram(op, imm)
			if p == nil {
				continue // an immediate the op does not accept
			}
			tested = true
			for _, dn := range []Denormals{DenormalsFlush, DenormalsIEEE} {
				var ms [2]*Machine
				for i := range ms {
					m, err := New(p, Config{Width: w, Denormals: dn})
					if err != nil {
						t.Fatal(err)
					}
					ms[i] = m
				}
				if ms[0].compiled[len(p.Code)-2].lanes == nil {
					t.Fatalf("%v is not compiled", op)
				}
				ms[1].useGeneric()
				for base := 0; base < len(pairs); base += w {
					for _, exec := range []uint64{0xffff, 0x5a5a, 0x00ff, 0x0001} {
						var outs [2][w]uint32
						for i, m := range ms {
							for l := 0; l < w; l++ {
								pr := pairs[(base+l)%len(pairs)]
								qr := pairs[(base+l+7)%len(pairs)]
								m.Input(0)[l], m.Input(1)[l], m.Input(2)[l], m.Input(3)[l] = pr[0], pr[1], qr[0], qr[1]
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
									t.Fatalf("%v imm %#x denormals %d: %#x, %#x: compiled %#x, generic %#x", op, imm, dn, pr[0], pr[1], outs[0][l], outs[1][l])
								}
							}
						}
					}
				}
			}
		}
		if !tested {
			t.Fatalf("%v: no register typing verifies", op)
		}
		covered++
	}
	if covered < 100 {
		t.Fatalf("only %d pure ops compared", covered)
	}
}

// TestCompiledNoAllocs: once a Machine exists, running it allocates nothing, on
// full and partial masks, with control flow, for the benchmark programs and a
// random structured program.
func TestCompiledNoAllocs(t *testing.T) {
	for i, p := range []*ir.Program{lambertFS(), loopALU(), newGen(3, ir.Fragment).program(), newGen(4, ir.Vertex).program()} {
		m, err := New(p, Config{Width: 16})
		if err != nil {
			t.Fatal(err)
		}
		m.SetSampler(fuzzSampler{})
		if err := m.SetUniforms(make([]uint32, max(p.UniformWords, 4))); err != nil {
			t.Fatal(err)
		}
		for _, exec := range []uint64{0xffff, 0x0ff0, 0x00ff} {
			if n := testing.AllocsPerRun(20, func() {
				if _, err := m.Run(context.Background(), exec, exec); err != nil && !errors.Is(err, ErrBudget) {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("program %d mask %#x: %v allocations per run", i, exec, n)
			}
		}
	}
}

// TestCompiledBudget: a block that would cross the step budget runs one
// instruction at a time, so a run stopped by ErrBudget stops at the same
// instruction with the same registers, Steps and LaneOps as the generic path,
// for every budget across the first iterations of a loop.
func TestCompiledBudget(t *testing.T) {
	p := loopALU()
	for budget := int64(1); budget <= 80; budget++ {
		var res [2]diffResult
		for i, generic := range []bool{false, true} {
			res[i] = diffRun(t, p, Config{Width: 4, MaxSteps: budget}, 1, 0xb, generic)
		}
		if !errors.Is(res[0].err, ErrBudget) || !errors.Is(res[1].err, ErrBudget) {
			t.Fatalf("budget %d: errors %v, %v; want ErrBudget", budget, res[0].err, res[1].err)
		}
		if res[0].steps != res[1].steps || res[0].lanops != res[1].lanops || firstDiff(res[0].regs, res[1].regs) >= 0 {
			t.Fatalf("budget %d: compiled stops at %d steps %d lane ops, generic at %d, %d (or registers differ)",
				budget, res[0].steps, res[0].lanops, res[1].steps, res[1].lanops)
		}
	}
}

// TestNaNOperandOrder pins the NaN the shared commutative float loops return when
// both operands are NaN: on amd64 the first operand's, quieted, as the loops have
// always given (the compiler is free to swap the operands of a commutative
// instruction; this catches a rewrite that does).
func TestNaNOperandOrder(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("pins amd64's NaN-operand choice; other architectures pick NaN payloads by their own rules (the compiled and generic paths share these loops, so they still agree there)")
	}
	pairs := [][2]uint32{{0x7fc0beef, 0xffc12345}, {0xffc00001, 0x7fc00002}, {0x7f800001, 0xffc00000}, {0xff812345, 0x7f800003}}
	for _, f := range []struct {
		name string
		fn   func(d, a, b []uint32)
	}{{"add", addLanes}, {"addFTZ", addLanesFTZ}, {"mul", mulLanes}, {"mulFTZ", mulLanesFTZ}} {
		for _, pr := range pairs {
			// Every lane of every length to 9: the flushing loops run groups
			// of four lanes in SSE2 and the rest one by one.
			for n := 1; n <= 9; n++ {
				for pos := range n {
					a, b, d := make([]uint32, n), make([]uint32, n), make([]uint32, n)
					a[pos], b[pos] = pr[0], pr[1]
					f.fn(d, a, b)
					if want := pr[0] | 0x00400000; d[pos] != want {
						t.Errorf("%s(%#x, %#x) in lane %d of %d = %#x, want %#x (the first operand's NaN)", f.name, pr[0], pr[1], pos, n, d[pos], want)
					}
				}
			}
		}
	}
}

// TestFloatLanesFTZ compares the flushing add and multiply (groups of four
// lanes in SSE2 on amd64, the rest in Go) with the shared IEEE loops followed
// by ftz word by word: every length up to 11, a special operand at every lane among normal
// ones (denormals, zeros, infinities, quiet and signalling NaNs of both
// signs, products and sums that underflow or overflow), NaN pairs in both
// orders, and destinations that are one of the sources. Any rewrite of these
// loops (an unrolled one, whose copies the compiler may give either operand
// order, as it does under -race) must keep this passing.
func TestFloatLanesFTZ(t *testing.T) {
	special := []uint32{0x00000001, 0x807fffff, 0x00000000, 0x80000000, 0x00800000, 0x80800000,
		0x7f800000, 0xff800000, 0x7fc00001, 0xffc12345, 0x7f800003, 0xff812345, 0x7f7fffff, 0x1f800000, 0x3f800000}
	for _, f := range []struct {
		name      string
		fn, plain func(d, a, b []uint32)
	}{{"add", addLanesFTZ, addLanes}, {"mul", mulLanesFTZ, mulLanes}} {
		want := func(a, b []uint32) []uint32 {
			d := make([]uint32, len(a))
			f.plain(d, a, b)
			for l := range d {
				d[l] = ftz(d[l])
			}
			return d
		}
		check := func(a, b []uint32) {
			t.Helper()
			w := want(a, b)
			got := make([]uint32, len(a))
			f.fn(got, a, b)
			for l := range got {
				if got[l] != w[l] {
					t.Fatalf("%s(%#x, %#x): lane %d = %#x, want %#x", f.name, a, b, l, got[l], w[l])
				}
			}
			for _, src := range []int{0, 1} { // in place: d is a, then b
				x, y := append([]uint32(nil), a...), append([]uint32(nil), b...)
				d := x
				if src == 1 {
					d = y
				}
				f.fn(d, x, y)
				for l := range d {
					if d[l] != w[l] {
						t.Fatalf("%s(%#x, %#x) into source %d: lane %d = %#x, want %#x", f.name, a, b, src, l, d[l], w[l])
					}
				}
			}
		}
		for n := 0; n <= 11; n++ {
			for pos := range max(n, 1) {
				for _, s := range special {
					for _, other := range special {
						a, b := make([]uint32, n), make([]uint32, n)
						for l := range a {
							a[l], b[l] = 0x3f800000+uint32(l)<<12, 0x40000000-uint32(l)<<11
						}
						if n > 0 {
							a[pos], b[pos] = s, other
						}
						check(a, b)
						check(b, a)
					}
				}
			}
		}
	}
}

// TestInvSqrtFTZ4 compares the flushing inverse square root of groups of four
// lanes (invSqrtFTZ4) with the scalar expression and ftz on edge words at every
// lane (zeros, denormals, negatives, infinities, NaNs, results that underflow)
// and random words, in place too.
func TestInvSqrtFTZ4(t *testing.T) {
	words := append([]uint32(nil), diffWords[:]...)
	words = append(words, 0x7f7fffff, 0x7effffff, 0x00000010, 0xbf800000, 0x7f800001)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 256 {
		words = append(words, rng.Uint32())
	}
	for len(words)%4 != 0 {
		words = append(words, 0x3f800000)
	}
	want := make([]uint32, len(words))
	for l, w := range words {
		want[l] = ftz(fw(float32(1 / math.Sqrt(float64(fl(w))))))
	}
	got := make([]uint32, len(words))
	invSqrtFTZ4(&got[0], &words[0], len(words))
	inPlace := append([]uint32(nil), words...)
	invSqrtFTZ4(&inPlace[0], &inPlace[0], len(inPlace))
	for l := range words {
		if got[l] != want[l] || inPlace[l] != want[l] {
			t.Errorf("inversesqrt(%#x) = %#x (in place %#x), want %#x", words[l], got[l], inPlace[l], want[l])
		}
	}
}

// TestSplat: splat (groups of four words in splat4, the rest one by one) sets
// every word of lane arrays of every length to 67 and not one word past them.
func TestSplat(t *testing.T) {
	for n := 0; n <= 67; n++ {
		buf := make([]uint32, n+8)
		for i := range buf {
			buf[i] = 0xdead
		}
		splat(buf[2:2+n], 0x12345678)
		for i, w := range buf {
			want := uint32(0xdead)
			if i >= 2 && i < 2+n {
				want = 0x12345678
			}
			if w != want {
				t.Fatalf("splat of %d words: word %d = %#x, want %#x", n, i-2, w, want)
			}
		}
	}
}
