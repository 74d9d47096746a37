package codegen

import (
	"math"
	"math/rand"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/shader/ir"
)

// A random-program differential test: programs of random ALU ops (every opcode the
// backend implements, with random operands among the live registers of the right
// type, under random divergent if/else), on random and special inputs, run on the
// executor and as machine code. Many registers are live at once, so the allocator's
// frame homes are exercised as much as its registers.

type opSig struct {
	op   ir.Op
	dst  ir.Type // TNone: the type of the first source (sSame ops)
	srcs []ir.Type
	same bool // dst and srcs marked 0 are one int type chosen at random (I32 or U32)
}

const (
	tF, tI, tU, tB = ir.F32, ir.I32, ir.U32, ir.Bool
	tS             = ir.TNone // "the chosen int type"
)

var genOps = func() []opSig {
	var s []opSig
	add := func(op ir.Op, dst ir.Type, src ...ir.Type) { s = append(s, opSig{op: op, dst: dst, srcs: src}) }
	for _, op := range []ir.Op{ir.FNeg, ir.FAbs, ir.FSign, ir.Floor, ir.Ceil, ir.Trunc, ir.Round, ir.RoundEven, ir.Fract, ir.Sqrt} {
		add(op, tF, tF)
	}
	for _, op := range []ir.Op{ir.FAdd, ir.FSub, ir.FMul, ir.FDiv, ir.FMod, ir.FMin, ir.FMax} {
		add(op, tF, tF, tF)
	}
	add(ir.FClamp, tF, tF, tF, tF)
	add(ir.Fma, tF, tF, tF, tF)
	add(ir.FrexpMant, tF, tF)
	add(ir.FrexpExp, tI, tF)
	add(ir.Ldexp, tF, tF, tI)
	add(ir.IsNan, tB, tF)
	add(ir.IsInf, tB, tF)
	for _, op := range []ir.Op{ir.INeg, ir.IAbs, ir.ISign} {
		add(op, tI, tI)
	}
	for _, op := range []ir.Op{ir.IAdd, ir.ISub, ir.IMul, ir.IDiv, ir.IMod, ir.IMin, ir.IMax, ir.IMulHi} {
		add(op, tI, tI, tI)
	}
	add(ir.IClamp, tI, tI, tI, tI)
	for _, op := range []ir.Op{ir.UAdd, ir.USub, ir.UMul, ir.UDiv, ir.UMod, ir.UMin, ir.UMax, ir.UMulHi, ir.UAddCarry, ir.USubBorrow} {
		add(op, tU, tU, tU)
	}
	add(ir.UClamp, tU, tU, tU, tU)
	s = append(s, opSig{op: ir.Not, same: true, srcs: []ir.Type{tS}}, opSig{op: ir.And, same: true, srcs: []ir.Type{tS, tS}},
		opSig{op: ir.Or, same: true, srcs: []ir.Type{tS, tS}}, opSig{op: ir.Xor, same: true, srcs: []ir.Type{tS, tS}},
		opSig{op: ir.Shl, same: true, srcs: []ir.Type{tS, tU}}, opSig{op: ir.BitReverse, same: true, srcs: []ir.Type{tS}},
		opSig{op: ir.BitfieldInsert, same: true, srcs: []ir.Type{tS, tS, tI, tI}})
	add(ir.IShr, tI, tI, tU)
	add(ir.UShr, tU, tU, tI)
	add(ir.IBfe, tI, tI, tI, tI)
	add(ir.UBfe, tU, tU, tI, tI)
	add(ir.BitCount, tI, tU)
	add(ir.FindLSB, tI, tI)
	add(ir.IFindMSB, tI, tI)
	add(ir.UFindMSB, tI, tU)
	add(ir.FtoI, tI, tF)
	add(ir.FtoU, tU, tF)
	add(ir.ItoF, tF, tI)
	add(ir.UtoF, tF, tU)
	add(ir.BtoF, tF, tB)
	add(ir.BtoI, tI, tB)
	add(ir.BtoU, tU, tB)
	for _, op := range []ir.Op{ir.FEq, ir.FNe, ir.FLt, ir.FLe, ir.FGt, ir.FGe} {
		add(op, tB, tF, tF)
	}
	for _, op := range []ir.Op{ir.ILt, ir.ILe, ir.IGt, ir.IGe} {
		add(op, tB, tI, tI)
	}
	for _, op := range []ir.Op{ir.ULt, ir.ULe, ir.UGt, ir.UGe} {
		add(op, tB, tU, tU)
	}
	for _, op := range []ir.Op{ir.BAnd, ir.BOr, ir.BXor} {
		add(op, tB, tB, tB)
	}
	add(ir.BNot, tB, tB)
	return s
}()

// randProgram builds a compute program of n random ops from r. Every lane loads
// inWords words of binding 0 (words gid*inWords...) and stores every register to
// binding 1 (words gid*len(Regs)...).
func randProgram(r *rand.Rand, n int) (*ir.Program, int) {
	const inWords = 8
	p := &ir.Program{Stage: ir.Compute, InputWords: ir.ComputeInputWords, LocalSize: [3]uint32{16, 1, 1},
		Buffers: []ir.BufferBinding{{Name: "In", Binding: 0, Stride: 4}, {Name: "Out", Binding: 1, Stride: 4}}}
	b := ir.NewBuilder(p)
	byType := map[ir.Type][]ir.Reg{}
	def := func(t ir.Type) ir.Reg {
		d := b.Reg(t)
		byType[t] = append(byType[t], d)
		return d
	}
	pick := func(t ir.Type) ir.Reg {
		rs := byType[t]
		// favour recent values, so chains of ops form
		if len(rs) > 4 && r.Intn(3) > 0 {
			return rs[len(rs)-1-r.Intn(4)]
		}
		return rs[r.Intn(len(rs))]
	}
	// canon returns a float register with any NaN replaced by the canonical NaN:
	// the generator applies it before a float's bits flow into integers (Cast,
	// Eq/Ne), where the one stated difference (NaN bits, see the package doc) would
	// otherwise become an integer difference.
	canon := func(v ir.Reg) ir.Reg {
		if p.Regs[v] != tF {
			return v
		}
		isn := b.Op(ir.IsNan, tB, v)
		return b.Op(ir.Select, tF, isn, b.ConstF(float32(math.NaN())), v)
	}
	gid := b.Reg(tU)
	b.Imm(ir.LoadInput, gid, ir.InGlobalID)
	base := b.Op(ir.UMul, tU, gid, b.ConstU(4*inWords))
	for k := 0; k < inWords; k++ {
		addr := b.Op(ir.UAdd, tU, base, b.ConstU(uint32(4*k)))
		t := []ir.Type{tF, tI, tU}[k%3]
		b.Emit(ir.Inst{Op: ir.MemLoad, Dst: def(t), Src: [4]ir.Reg{addr, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: 0, Len: uint32(ir.SpaceBuffer)})
	}
	for _, t := range []ir.Type{tF, tI, tU} {
		b.Emit(ir.Inst{Op: ir.Const, Dst: def(t), Imm: specials[r.Intn(len(specials))], Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}})
	}
	b.OpTo(ir.ULt, def(tB), byType[tU][0], byType[tU][1])
	// The open constructs, innermost last: 'i' an if, 'e' an if in its else, 'l'
	// a loop body, 'c' a loop's continue block.
	var open []byte
	// inLoop: the innermost loop is in its body (break and continue are not
	// allowed in a continue block)
	inLoop := func() bool {
		for i := len(open) - 1; i >= 0; i-- {
			if open[i] == 'l' || open[i] == 'c' {
				return open[i] == 'l'
			}
		}
		return false
	}
	top := func() byte {
		if len(open) == 0 {
			return 0
		}
		return open[len(open)-1]
	}
	closeOne := func() {
		switch top() {
		case 'i', 'e':
			b.Ctl(ir.EndIf)
		case 'l', 'c':
			b.Ctl(ir.EndLoop)
		}
		open = open[:len(open)-1]
	}
	for i := 0; i < n; i++ {
		switch x := r.Intn(48); {
		case x == 0 && len(open) < 4:
			b.Ctl(ir.If, pick(tB))
			open = append(open, 'i')
			continue
		case x == 1 && top() == 'i':
			b.Ctl(ir.Else)
			open[len(open)-1] = 'e'
			continue
		case (x == 2 || x == 7) && len(open) > 0 && top() != 'l':
			closeOne()
			continue
		case x == 8 && len(open) < 4:
			// a loop of 0..7 iterations per lane: a counter, a divergent bound, an
			// exit test first, a loop-carried accumulator
			cnt, acc := def(tU), def(tU)
			b.Emit(ir.Inst{Op: ir.Const, Dst: cnt, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}})
			b.OpTo(ir.Mov, acc, pick(tU))
			bound := b.Op(ir.And, tU, pick(tU), b.ConstU(7))
			b.Ctl(ir.Loop)
			b.OpTo(ir.UAdd, cnt, cnt, b.ConstU(1))
			b.Ctl(ir.If, b.Op(ir.UGt, tB, cnt, bound))
			b.Ctl(ir.Break)
			b.Ctl(ir.EndIf)
			b.OpTo(ir.UMul, acc, acc, b.ConstU(3))
			b.OpTo(ir.UAdd, acc, acc, pick(tU))
			open = append(open, 'l')
			continue
		case x == 9 && top() == 'l':
			if r.Intn(2) == 0 {
				b.Ctl(ir.Continuing)
				open[len(open)-1] = 'c'
			} else {
				closeOne()
			}
			continue
		case (x == 10 || x == 11) && inLoop():
			b.Ctl(ir.If, pick(tB))
			b.Ctl([]ir.Op{ir.Break, ir.Continue}[x-10])
			b.Ctl(ir.EndIf)
			continue
		case x == 12 && r.Intn(3) == 0:
			b.Ctl(ir.If, pick(tB))
			b.Ctl(ir.Return)
			b.Ctl(ir.EndIf)
			continue
		case x == 3:
			t := []ir.Type{tF, tI, tU}[r.Intn(3)]
			b.Emit(ir.Inst{Op: ir.Const, Dst: def(t), Imm: specials[r.Intn(len(specials))], Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}})
			continue
		case x == 4:
			from, to := []ir.Type{tF, tI, tU}[r.Intn(3)], []ir.Type{tF, tI, tU}[r.Intn(3)]
			src := canon(pick(from))
			b.OpTo(ir.Cast, def(to), src)
			continue
		case x == 5:
			t := []ir.Type{tF, tI, tU, tB}[r.Intn(4)]
			b.OpTo(ir.Select, def(t), pick(tB), pick(t), pick(t))
			continue
		case x == 6:
			t := []ir.Type{tF, tI, tU, tB}[r.Intn(4)]
			op := []ir.Op{ir.Eq, ir.Ne}[r.Intn(2)]
			x, y := canon(pick(t)), canon(pick(t))
			b.OpTo(op, def(tB), x, y)
			continue
		}
		s := genOps[r.Intn(len(genOps))]
		chosen := []ir.Type{tI, tU}[r.Intn(2)]
		var src []ir.Reg
		for _, t := range s.srcs {
			if t == tS {
				t = chosen
			}
			src = append(src, pick(t))
		}
		dt := s.dst
		if s.same {
			dt = chosen
		}
		b.OpTo(s.op, def(dt), src...)
	}
	for len(open) > 0 {
		closeOne()
	}
	nregs := len(p.Regs)
	obase := b.Op(ir.UMul, tU, gid, b.ConstU(uint32(4*nregs)))
	for reg := 0; reg < nregs; reg++ {
		addr := b.Op(ir.UAdd, tU, obase, b.ConstU(uint32(4*reg)))
		v := ir.Reg(reg)
		if p.Regs[reg] == tB {
			v = b.Op(ir.BtoU, tU, v)
		}
		b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{addr, v, ir.NoReg, ir.NoReg}, Imm: 1, Len: uint32(ir.SpaceBuffer)})
	}
	return p, nregs
}

// diffRandom runs one random program both ways and reports differences.
func diffRandom(t *testing.T, seed int64, n int) {
	r := rand.New(rand.NewSource(seed))
	p, nregs := randProgram(r, n)
	if err := ir.Verify(p); err != nil {
		t.Fatalf("seed %d: the generator built an invalid program: %v", seed, err)
	}
	k, err := Compile(p)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	const groups = 2
	in := make([]uint32, 8*16*groups)
	for i := range in {
		if r.Intn(3) == 0 {
			in[i] = specials[r.Intn(len(specials))]
		} else {
			in[i] = inputWords(seed+int64(i), 64)[40+r.Intn(24)]
		}
	}
	bufs := map[Binding][]byte{
		{Kind: abi.DescStorageBuffer, Slot: 0}: wordsBytes(in),
		{Kind: abi.DescStorageBuffer, Slot: 1}: make([]byte, 4*nregs*16*groups),
	}
	T := []int{4, 8, 16}[uint64(seed)%3]
	l := &Launch{Groups: [3]uint32{groups, 1, 1}, Threads: T, Buffers: cloneBufs(bufs)}
	ref := &Launch{Groups: l.Groups, Threads: T, Buffers: cloneBufs(bufs)}
	if err := runIR(p, ref); err != nil {
		t.Fatalf("seed %d: executor: %v", seed, err)
	}
	if _, err := Run(k, l); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if compareBufs(t, "seed "+itoa(seed), ref.Buffers, l.Buffers); t.Failed() {
		t.Logf("seed %d program:\n%s", seed, p.String())
	}
}

func itoa(v int64) string {
	const digits = "0123456789"
	if v == 0 {
		return "0"
	}
	s := ""
	for ; v > 0; v /= 10 {
		s = string(digits[v%10]) + s
	}
	return s
}

func TestRandomPrograms(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	ops := map[ir.Op]int{}
	for seed := int64(1); seed <= int64(n); seed++ {
		p, _ := randProgram(rand.New(rand.NewSource(seed)), 20+int(seed%7)*20)
		for _, in := range p.Code {
			ops[in.Op]++
		}
		diffRandom(t, seed, 20+int(seed%7)*20)
		if t.Failed() {
			return
		}
	}
	for _, op := range []ir.Op{ir.If, ir.Else, ir.Loop, ir.Continuing, ir.Break, ir.Continue, ir.Return} {
		if ops[op] == 0 {
			t.Errorf("no %s in %d random programs: the generator no longer covers it", op, n)
		}
	}
	t.Logf("%d programs: %d if, %d else, %d loop, %d continuing, %d break, %d continue, %d return", n,
		ops[ir.If], ops[ir.Else], ops[ir.Loop], ops[ir.Continuing], ops[ir.Break], ops[ir.Continue], ops[ir.Return])
}

// FuzzRandomPrograms explores more seeds and lengths: go test -fuzz FuzzRandomPrograms.
func FuzzRandomPrograms(f *testing.F) {
	f.Add(int64(1), uint8(40))
	f.Add(int64(977), uint8(200))
	f.Fuzz(func(t *testing.T, seed int64, n uint8) {
		diffRandom(t, seed, int(n))
	})
}
