package exec

import (
	"math/bits"

	"vortexgfx/shader/ir"
)

// Fused steps. After compiling each instruction on its own, compile looks for short
// runs of consecutive compiled instructions that one closure call can execute
// together, because in the benchmark shaders the per-instruction overhead (an
// indirect call, re-slicing every lane array, the partial-mask copy) costs about as
// much as the lane loop itself:
//
//   - a run of broadcasts (Const, LoadUniform) writes every destination in one call;
//   - a run of copies (LoadInput, StoreOutput, Mov, Cast) likewise;
//   - an FMul whose result the next instruction, an FAdd, reads runs with that add
//     in one step, through the shared mulLanes and addLanes loops (NOT an fma:
//     mul-round-add-round, the same NaN operand order, as the generic path).
//
// Every destination is still written with exactly the words the unfused steps
// write, in the same order, so registers, outputs, Steps and LaneOps are
// unchanged; only the number of calls drops. The fused group belongs to the
// step of its first instruction (step.multi, step.n) and is used only when the
// whole group lies inside the block being run; otherwise the instructions run as
// single steps.

// multiStep runs n consecutive compiled instructions over lanes 0..hi-1: all of
// them in place when full is set, else only the lanes in exec.
type multiStep func(hi int, exec uint64, full bool)

// fuse attaches fused groups to m.compiled (called by compile once the single
// steps exist).
func (m *Machine) fuse() {
	code := m.code
	for pc := 0; pc < len(code); pc++ {
		if m.compiled[pc].lanes == nil {
			continue
		}
		if n := m.runOf(pc, isBroadcast); n >= 2 {
			m.compiled[pc].multi, m.compiled[pc].n = m.broadcastGroup(pc, n), int32(n)
			pc += n - 1
			continue
		}
		if n := m.runOf(pc, isCopy); n >= 2 {
			m.compiled[pc].multi, m.compiled[pc].n = m.copyGroup(pc, n), int32(n)
			pc += n - 1
			continue
		}
		if pc+1 < len(code) && m.compiled[pc+1].lanes != nil {
			if f := m.mulAdd(&code[pc], &code[pc+1]); f != nil {
				m.compiled[pc].multi, m.compiled[pc].n = f, 2
				pc++
			}
		}
	}
}

// runOf counts the consecutive compiled instructions from pc on that satisfy ok.
func (m *Machine) runOf(pc int, ok func(ir.Op) bool) int {
	n := 0
	for pc+n < len(m.code) && m.compiled[pc+n].lanes != nil && ok(m.code[pc+n].Op) {
		n++
	}
	return n
}

func isBroadcast(op ir.Op) bool { return op == ir.Const || op == ir.LoadUniform }

func isCopy(op ir.Op) bool {
	return op == ir.LoadInput || op == ir.StoreOutput || op == ir.Mov || op == ir.Cast
}

// broadcastGroup writes n broadcasts; uniform words are read at run time, as
// uniformKernel reads them (SetUniforms may replace the buffer between runs).
func (m *Machine) broadcastGroup(pc, n int) multiStep {
	type bc struct {
		dst []uint32
		uni bool
		v   uint32
	}
	g := make([]bc, n)
	for i := range g {
		in := &m.code[pc+i]
		g[i] = bc{dst: m.compiled[pc+i].dst, uni: in.Op == ir.LoadUniform, v: in.Imm}
	}
	return func(hi int, exec uint64, full bool) {
		u := m.uniforms
		for i := range g {
			v := g[i].v
			if g[i].uni {
				v = u[v]
			}
			if full {
				splat(g[i].dst[:hi], v)
				continue
			}
			d := g[i].dst
			for mm := exec; mm != 0; mm &= mm - 1 {
				d[bits.TrailingZeros64(mm)] = v
			}
		}
	}
}

// splat writes v to every word of d, four words per store (splat4) in groups
// of four: broadcasts are the commonest instructions of the lowered shaders
// (every uniform and constant is one), and their stores are measurable
// (BenchmarkOpClass/uniform).
func splat(d []uint32, v uint32) {
	n := len(d) &^ 3
	if n > 0 {
		splat4(&d[0], v, n)
	}
	for l := n; l < len(d); l++ {
		d[l] = v
	}
}

// copyGroup runs n lane-array copies in program order (a later copy may read an
// earlier one's destination).
func (m *Machine) copyGroup(pc, n int) multiStep {
	type cp struct{ dst, src []uint32 }
	g := make([]cp, n)
	for i := range g {
		in := &m.code[pc+i]
		var src []uint32
		switch in.Op {
		case ir.LoadInput:
			src = m.in[int(in.Imm)*m.w : (int(in.Imm)+1)*m.w]
		default:
			src = m.reg(in.Src[0])
		}
		g[i] = cp{dst: m.compiled[pc+i].dst, src: src}
	}
	return func(hi int, exec uint64, full bool) {
		for i := range g {
			d, s := g[i].dst, g[i].src
			if full {
				copy(d[:hi], s[:hi])
				continue
			}
			s = s[:len(d)]
			for mm := exec; mm != 0; mm &= mm - 1 {
				l := bits.TrailingZeros64(mm)
				d[l] = s[l]
			}
		}
	}
}

// mulAdd returns the fused step of mul followed by add when add is an FAdd that
// reads mul's FMul result, or nil. The step runs the same out-of-line loops the
// single steps and alu run (mulLanes, addLanes and their FTZ forms), so the NaN
// operand order, rounding and flushing are theirs on every architecture; what
// it saves is a step dispatch. In the compute-then-copy form the add reads the
// product from scratch in place of every operand that names mul's destination,
// and its other operand from its register, which mul does not write.
func (m *Machine) mulAdd(mul, add *ir.Inst) multiStep {
	if mul.Op != ir.FMul || add.Op != ir.FAdd {
		return nil
	}
	r := mul.Dst
	s0, s1 := add.Src[0] == r, add.Src[1] == r
	if !s0 && !s1 {
		return nil
	}
	mulK, addK := mulLanes, addLanes
	if m.ftz { // FMul and FAdd both flush in flush mode
		mulK, addK = mulLanesFTZ, addLanesFTZ
	}
	a, b := m.reg(mul.Src[0]), m.reg(mul.Src[1])
	x, y := m.reg(add.Src[0]), m.reg(add.Src[1])
	d1, d2 := m.reg(r), m.reg(add.Dst)
	t1, t2 := m.tmp, m.tmp2
	return func(hi int, exec uint64, full bool) {
		if full {
			mulK(d1[:hi], a, b)
			addK(d2[:hi], x, y)
			return
		}
		p, s := t1[:hi], t2[:hi]
		mulK(p, a, b)
		px, py := x, y
		if s0 {
			px = p
		}
		if s1 {
			py = p
		}
		addK(s, px, py)
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d1[l] = p[l]
			d2[l] = s[l]
		}
	}
}
