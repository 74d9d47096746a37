package exec

import (
	"math"
	"math/bits"

	"vortexgfx/shader/ir"
)

// The all-lanes-active fast path. Most instructions of vertex batches and fragment
// quad-warps run with every lane active, so New decodes each of the commonest
// non-control instructions once into a fullInst: its operation with the program's
// denormal mode already chosen (an ftz variant for the arithmetic that flushes) and
// its operands as word offsets into the register, input or output buffer. When an
// instruction runs with the full mask the interpreter executes the fullInst with
// one tight loop over the lanes, without the per-instruction dispatch through alu,
// fast and operand; with a partial mask it computes into tmp and copies the active
// lanes, as alu does. The results are exactly alu's (TestFullPathMatchesGeneric
// runs random programs both ways, full and partial); any other instruction takes
// alu.

// fullKind is the operation of a decoded all-lanes instruction; fkNone means the
// instruction always takes the generic path.
type fullKind uint8

const (
	fkNone fullKind = iota
	fkConst
	fkMov
	fkLoadInput
	fkStoreOutput
	fkLoadUniform
	fkSelect
	fkFAdd
	fkFAddZ
	fkFSub
	fkFSubZ
	fkFMul
	fkFMulZ
	fkFDiv
	fkFDivZ
	fkFma
	fkFmaZ
	fkFMin
	fkFMax
	fkFNeg
	fkFAbs
	fkSqrt
	fkSqrtZ
	fkInvSqrt
	fkInvSqrtZ
	fkIAdd
	fkISub
	fkIMul
	fkAnd
	fkOr
	fkFLt
	fkFLe
	fkFGt
	fkFGe
	fkILt
	fkIGe
	fkEq
	fkNe
	fkItoF
)

// fullInst is one instruction decoded for the all-lanes path: the word offsets of
// its destination and sources (registers, or the input/output buffer for
// LoadInput/StoreOutput). Unused sources repeat the destination offset so every
// offset is a valid lane array.
type fullInst struct {
	kind       fullKind
	imm        uint32
	d, a, b, c int
}

// fullKindOf returns an op's all-lanes kind, with denormal flushing in the same
// pass when flush is set; fkNone when the op (or its flushing form) has none.
func fullKindOf(op ir.Op, flush bool) fullKind {
	switch op {
	case ir.Const:
		return fkConst
	case ir.Mov:
		return fkMov
	case ir.Cast:
		return fkMov
	case ir.LoadInput:
		return fkLoadInput
	case ir.StoreOutput:
		return fkStoreOutput
	case ir.LoadUniform:
		return fkLoadUniform
	case ir.Select:
		return fkSelect
	case ir.FAdd:
		if flush {
			return fkFAddZ
		}
		return fkFAdd
	case ir.FSub:
		if flush {
			return fkFSubZ
		}
		return fkFSub
	case ir.FMul:
		if flush {
			return fkFMulZ
		}
		return fkFMul
	case ir.FDiv:
		if flush {
			return fkFDivZ
		}
		return fkFDiv
	case ir.Fma:
		if flush {
			return fkFmaZ
		}
		return fkFma
	case ir.FMin:
		return fkFMin
	case ir.FMax:
		return fkFMax
	case ir.FNeg:
		return fkFNeg
	case ir.FAbs:
		return fkFAbs
	case ir.Sqrt:
		if flush {
			return fkSqrtZ
		}
		return fkSqrt
	case ir.InvSqrt:
		if flush {
			return fkInvSqrtZ
		}
		return fkInvSqrt
	case ir.IAdd:
		return fkIAdd
	case ir.UAdd:
		return fkIAdd
	case ir.ISub:
		return fkISub
	case ir.USub:
		return fkISub
	case ir.IMul:
		return fkIMul
	case ir.UMul:
		return fkIMul
	case ir.And:
		return fkAnd
	case ir.Or:
		return fkOr
	case ir.FLt:
		return fkFLt
	case ir.FLe:
		return fkFLe
	case ir.FGt:
		return fkFGt
	case ir.FGe:
		return fkFGe
	case ir.ILt:
		return fkILt
	case ir.IGe:
		return fkIGe
	case ir.Eq:
		return fkEq
	case ir.Ne:
		return fkNe
	case ir.ItoF:
		return fkItoF
	}
	return fkNone
}

// decodeFull decodes m.code for the all-lanes path (called once by New).
func (m *Machine) decodeFull() {
	m.fullCode = make([]fullInst, len(m.code))
	w := m.w
	for pc := range m.code {
		in := &m.code[pc]
		flush := m.ftz && in.Op.FlushesDenormals()
		k := fullKindOf(in.Op, flush)
		if k == fkNone || flush && k == fullKindOf(in.Op, false) {
			// No all-lanes form, or none that flushes: alu handles it.
			continue
		}
		f := fullInst{kind: k, imm: in.Imm}
		switch in.Op {
		case ir.LoadInput:
			f.d, f.a = int(in.Dst)*w, int(in.Imm)*w
		case ir.StoreOutput:
			f.d, f.a = int(in.Imm)*w, int(in.Src[0])*w
		default:
			f.d = int(in.Dst) * w
			f.a, f.b, f.c = f.d, f.d, f.d
			n := in.Op.NumSrc()
			if n > 0 {
				f.a = int(in.Src[0]) * w
			}
			if n > 1 {
				f.b = int(in.Src[1]) * w
			}
			if n > 2 {
				f.c = int(in.Src[2]) * w
			}
		}
		m.fullCode[pc] = f
	}
}

// runPartial executes a decoded instruction on the lanes in exec when some are
// inactive: it computes every lane into tmp (the ops are pure and never fail) and
// copies the active lanes, as alu does.
func (m *Machine) runPartial(f *fullInst, exec uint64) {
	dst := m.regs
	if f.kind == fkStoreOutput {
		dst = m.out
	}
	d := dst[f.d : f.d+m.w]
	t := m.tmp[:len(d)]
	m.lanes(f, t)
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		d[l] = t[l]
	}
}

// lanes computes a decoded instruction for every lane into d, or (d nil, every
// lane active) straight into its destination. Each lane reads its own source words
// before writing its own word of d, so d may be a source.
func (m *Machine) lanes(f *fullInst, d []uint32) {
	r := m.regs
	if d == nil {
		if f.kind == fkStoreOutput {
			d = m.out[f.d : f.d+m.w]
		} else {
			d = r[f.d : f.d+m.w]
		}
	}
	switch f.kind {
	case fkLoadInput:
		copy(d, m.in[f.a:][:len(d)])
		return
	case fkStoreOutput:
		copy(d, r[f.a:][:len(d)])
		return
	case fkLoadUniform:
		v := m.uniforms[f.imm]
		for l := range d {
			d[l] = v
		}
		return
	}
	// Sources sliced to len(d) so the lane loops need no bounds checks.
	a := r[f.a:][:len(d)]
	b := r[f.b:][:len(d)]
	switch f.kind {
	case fkConst:
		for l := range d {
			d[l] = f.imm
		}
	case fkMov:
		copy(d, a)
	case fkSelect:
		c := r[f.c:][:len(d)]
		for l := range d {
			if a[l] != 0 {
				d[l] = b[l]
			} else {
				d[l] = c[l]
			}
		}
	case fkFAdd:
		addLanes(d, a, b)
	case fkFAddZ:
		addLanesFTZ(d, a, b)
	case fkFSub:
		for l := range d {
			d[l] = fw(fl(a[l]) - fl(b[l]))
		}
	case fkFSubZ:
		for l := range d {
			d[l] = ftz(fw(fl(a[l]) - fl(b[l])))
		}
	case fkFMul:
		mulLanes(d, a, b)
	case fkFMulZ:
		mulLanesFTZ(d, a, b)
	case fkFDiv:
		for l := range d {
			d[l] = fw(fl(a[l]) / fl(b[l]))
		}
	case fkFDivZ:
		for l := range d {
			d[l] = ftz(fw(fl(a[l]) / fl(b[l])))
		}
	case fkFma:
		c := r[f.c:][:len(d)]
		for l := range d {
			d[l] = fw(ir.FMA32(fl(a[l]), fl(b[l]), fl(c[l])))
		}
	case fkFmaZ:
		c := r[f.c:][:len(d)]
		for l := range d {
			d[l] = ftz(fw(ir.FMA32(fl(a[l]), fl(b[l]), fl(c[l]))))
		}
	case fkFMin:
		for l := range d {
			d[l] = ir.FMinNum(a[l], b[l])
		}
	case fkFMax:
		for l := range d {
			d[l] = ir.FMaxNum(a[l], b[l])
		}
	case fkFNeg:
		for l := range d {
			d[l] = a[l] ^ 0x80000000
		}
	case fkFAbs:
		for l := range d {
			d[l] = a[l] &^ 0x80000000
		}
	case fkSqrt:
		for l := range d {
			d[l] = fw(float32(math.Sqrt(float64(fl(a[l])))))
		}
	case fkSqrtZ:
		for l := range d {
			d[l] = ftz(fw(float32(math.Sqrt(float64(fl(a[l]))))))
		}
	case fkInvSqrt:
		for l := range d {
			d[l] = fw(float32(1 / math.Sqrt(float64(fl(a[l])))))
		}
	case fkInvSqrtZ:
		for l := range d {
			d[l] = ftz(fw(float32(1 / math.Sqrt(float64(fl(a[l]))))))
		}
	case fkIAdd:
		for l := range d {
			d[l] = a[l] + b[l]
		}
	case fkISub:
		for l := range d {
			d[l] = a[l] - b[l]
		}
	case fkIMul:
		for l := range d {
			d[l] = a[l] * b[l]
		}
	case fkAnd:
		for l := range d {
			d[l] = a[l] & b[l]
		}
	case fkOr:
		for l := range d {
			d[l] = a[l] | b[l]
		}
	case fkFLt:
		for l := range d {
			d[l] = bw(fl(a[l]) < fl(b[l]))
		}
	case fkFLe:
		for l := range d {
			d[l] = bw(fl(a[l]) <= fl(b[l]))
		}
	case fkFGt:
		for l := range d {
			d[l] = bw(fl(a[l]) > fl(b[l]))
		}
	case fkFGe:
		for l := range d {
			d[l] = bw(fl(a[l]) >= fl(b[l]))
		}
	case fkILt:
		for l := range d {
			d[l] = bw(int32(a[l]) < int32(b[l]))
		}
	case fkIGe:
		for l := range d {
			d[l] = bw(int32(a[l]) >= int32(b[l]))
		}
	case fkEq:
		for l := range d {
			d[l] = bw(a[l] == b[l])
		}
	case fkNe:
		for l := range d {
			d[l] = bw(a[l] != b[l])
		}
	case fkItoF:
		for l := range d {
			d[l] = fw(float32(int32(a[l])))
		}
	}
}

// The commutative float lane loops (add, multiply) are shared by this path and
// alu's and kept out of line: Go leaves NaN payloads unspecified and the compiler
// may swap the operands of a commutative instruction differently in each inlined
// copy, which changes the result when both operands are NaN. One compiled loop
// for both paths keeps them equal bit for bit (TestFullPathEdgeOperands).

//go:noinline
func addLanes(d, a, b []uint32) {
	a, b = a[:len(d)], b[:len(d)]
	for l := range d {
		d[l] = fw(fl(a[l]) + fl(b[l]))
	}
}

//go:noinline
func addLanesFTZ(d, a, b []uint32) {
	a, b = a[:len(d)], b[:len(d)]
	for l := range d {
		d[l] = ftz(fw(fl(a[l]) + fl(b[l])))
	}
}

//go:noinline
func mulLanes(d, a, b []uint32) {
	a, b = a[:len(d)], b[:len(d)]
	for l := range d {
		d[l] = fw(fl(a[l]) * fl(b[l]))
	}
}

//go:noinline
func mulLanesFTZ(d, a, b []uint32) {
	a, b = a[:len(d)], b[:len(d)]
	for l := range d {
		d[l] = ftz(fw(fl(a[l]) * fl(b[l])))
	}
}
