package exec

import (
	"math/bits"
	"unsafe"

	"vortexgfx/shader/ir"
)

// The compiled path. New compiles every instruction that the run loop would hand
// to alu — the pure ALU operations, input, uniform and array loads, output stores —
// once into a step: a closure specialised by opcode and by the program's denormal
// mode, with the lane arrays of its sources and destination bound at compile time,
// that computes every lane of the warp into a lane array. Running a step therefore
// decodes nothing: no opcode switch, no operand lookup, no denormal test.
//
// A maximal run of consecutive compiled instructions is a block (block[pc] is the
// number of compiled instructions from pc on): the mask cannot change inside one,
// so the run loop executes the whole block at once — over the lanes up to the
// highest active one: when all of those are active each step writes its
// destination in place, otherwise it computes into tmp and copies the active lanes
// (the ops are pure and never fail, so computing inactive lanes is harmless) — and
// accounts its steps and lane instructions together. A block
// that would cross the step budget or a context check runs one instruction at a
// time instead, so errors, Steps and LaneOps are exactly the generic ones.
//
// The results are alu's bit for bit (NaN payloads and signs, denormal flushing in
// both modes, division by zero, out-of-range shifts, wrapping): every step either
// runs the lane loop alu runs for that op (the shared addLanes/mulLanes for the
// commutative float ops, whose NaN operand order the compiler may otherwise choose
// differently per copy), a loop over the expression ir.Eval evaluates, or ir.Eval
// itself per lane. TestCompiledEdgeOperands and TestCompiledMatchesGeneric compare
// every compiled op against the generic path; anything not compiled (control flow,
// memory, texture, derivatives, ArrayStore) stays on the generic path.

// step is one compiled instruction: lanes computes lanes 0..len(d)-1 of the result
// into its argument d (at most Width words) from the bound sources; dst is the
// destination lane array. A nil lanes means the instruction takes the generic path.
type step struct {
	lanes func(d []uint32)
	dst   []uint32
	// multi, when set, runs this and the next n-1 instructions together (see
	// fuse.go); runBlock uses it only when the whole group is in the block.
	multi multiStep
	n     int32
}

// compile compiles m.code into m.compiled and m.block (called once by New).
func (m *Machine) compile() {
	n := len(m.code)
	m.compiled = make([]step, n)
	m.block = make([]int32, n+1)
	for pc := range m.code {
		m.compiled[pc] = m.compileInst(&m.code[pc])
	}
	for pc := n - 1; pc >= 0; pc-- {
		if m.compiled[pc].lanes != nil {
			m.block[pc] = m.block[pc+1] + 1
		}
	}
	m.fuse()
}

// useGeneric drops the compiled steps so every instruction takes the generic
// path (the differential tests compare the two).
func (m *Machine) useGeneric() {
	clear(m.compiled)
	clear(m.block)
}

// compileInst compiles one instruction, or returns the zero step when it has no
// compiled form.
func (m *Machine) compileInst(in *ir.Inst) step {
	w := m.w
	lanes := func(buf []uint32, i int) []uint32 { return buf[i*w : (i+1)*w : (i+1)*w] }
	switch in.Op {
	case ir.LoadInput:
		return step{lanes: copyKernel(lanes(m.in, int(in.Imm))), dst: m.reg(in.Dst)}
	case ir.StoreOutput:
		return step{lanes: copyKernel(m.reg(in.Src[0])), dst: lanes(m.out, int(in.Imm))}
	case ir.LoadUniform:
		return step{lanes: m.uniformKernel(in.Imm), dst: m.reg(in.Dst)}
	case ir.LoadUniformIdx:
		return step{lanes: m.uniformIdxKernel(in), dst: m.reg(in.Dst)}
	case ir.ArrayLoad:
		return step{lanes: m.arrayLoadKernel(in), dst: m.reg(in.Dst)}
	}
	if !in.Op.IsPure() {
		return step{}
	}
	var src [4][]uint32
	for i := range src {
		src[i] = m.operand(in, i)
	}
	z := m.ftz && in.Op.FlushesDenormals()
	return step{lanes: kernel(in.Op, in.Imm, z, src[0], src[1], src[2], src[3]), dst: m.reg(in.Dst)}
}

// runBlock executes the k compiled instructions from pc on for the lanes in exec.
// Only the lanes below the highest active one are computed; when those are all
// active (every lane, or a batch filling the low lanes, as partial vertex batches
// and fragment warps with fewer quads are) the steps write their destinations in
// place.
func (m *Machine) runBlock(pc, k int, exec uint64) {
	s := m.compiled[pc : pc+k]
	hi := 64 - bits.LeadingZeros64(exec)
	full := exec == m.full || exec == 1<<hi-1
	t := m.tmp[:hi]
	for i := 0; i < len(s); {
		st := &s[i]
		if st.multi != nil && i+int(st.n) <= len(s) {
			st.multi(hi, exec, full)
			i += int(st.n)
			continue
		}
		i++
		if full {
			st.lanes(st.dst[:hi])
			continue
		}
		st.lanes(t)
		d := st.dst
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = t[l]
		}
	}
}

// copyKernel copies a lane array (moves, input loads, output stores).
func copyKernel(a []uint32) func(d []uint32) {
	return func(d []uint32) { copy(d, a) }
}

// uniformKernel broadcasts uniform word i, read at run time: SetUniforms may
// replace the buffer between runs.
func (m *Machine) uniformKernel(i uint32) func(d []uint32) {
	return func(d []uint32) {
		splat(d, m.uniforms[i])
	}
}

// uniformIdxKernel loads the uniform word at a lane's clamped index.
func (m *Machine) uniformIdxKernel(in *ir.Inst) func(d []uint32) {
	idx := m.reg(in.Src[0])
	base, n, stride, t := in.Imm, in.Len, in.Stride, m.prog.Regs[in.Src[0]]
	return func(d []uint32) {
		u := m.uniforms
		idx := idx[:len(d)]
		for l := range d {
			d[l] = u[base+clampIndex(idx[l], n, t)*stride]
		}
	}
}

// arrayLoadKernel loads the register at a lane's clamped index.
func (m *Machine) arrayLoadKernel(in *ir.Inst) func(d []uint32) {
	idx := m.reg(in.Src[0])
	base, n, stride, t := in.Imm, in.Len, in.Stride, m.prog.Regs[in.Src[0]]
	regs, w := m.regs, uint32(m.w)
	return func(d []uint32) {
		idx := idx[:len(d)]
		for l := range d {
			r := base + clampIndex(idx[l], n, t)*stride
			d[l] = regs[r*w+uint32(l)]
		}
	}
}

// f32s views a lane array as float32 lanes, so that the float loops load and store
// straight between memory and float registers instead of moving every word
// through an integer register (which made them two to four times slower).
func f32s(s []uint32) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// The commutative float lane loops (add, multiply) are shared by the compiled path
// and alu's and kept out of line: Go leaves NaN payloads unspecified and the
// compiler may swap the operands of a commutative instruction differently in each
// inlined copy, which changes the result when both operands are NaN. One compiled
// loop for both paths keeps them equal bit for bit (TestCompiledEdgeOperands);
// TestNaNOperandOrder checks that a stays the first operand (x86 returns the first
// operand's NaN when both are NaN).

//go:noinline
func addLanes(d, a, b []uint32) {
	df := f32s(d)
	af, bf := f32s(a)[:len(df)], f32s(b)[:len(df)]
	for l := range df {
		df[l] = af[l] + bf[l]
	}
}

// addLanesFTZ and mulLanesFTZ are addLanes and mulLanes followed by
// flushLanes: the same loop (so the same NaN operand order), then the
// denormal flush of every result.

// addLanesFTZ and mulLanesFTZ run whole groups of four lanes through
// addFTZ4 and mulFTZ4 (SSE2 on amd64) and the rest as the scalar loop with
// ftz.

//go:noinline
func addLanesFTZ(d, a, b []uint32) {
	a, b = a[:len(d)], b[:len(d)]
	n := len(d) &^ 3
	if n > 0 {
		addFTZ4(&d[0], &a[0], &b[0], n)
	}
	for l := n; l < len(d); l++ {
		d[l] = ftz(fw(fl(a[l]) + fl(b[l])))
	}
}

//go:noinline
func mulLanes(d, a, b []uint32) {
	df := f32s(d)
	af, bf := f32s(a)[:len(df)], f32s(b)[:len(df)]
	for l := range df {
		df[l] = af[l] * bf[l]
	}
}

//go:noinline
func mulLanesFTZ(d, a, b []uint32) {
	a, b = a[:len(d)], b[:len(d)]
	n := len(d) &^ 3
	if n > 0 {
		mulFTZ4(&d[0], &a[0], &b[0], n)
	}
	for l := n; l < len(d); l++ {
		d[l] = ftz(fw(fl(a[l]) * fl(b[l])))
	}
}
