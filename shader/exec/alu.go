package exec

import (
	"math"
	"math/bits"

	"vortexgfx/shader/ir"
)

// alu runs one non-control instruction across the lanes in exec. The commonest ops
// have their own lane loops; the rest call ir.Eval per lane (a plain function call,
// never an interface call), which is also what constant folding uses.
func (m *Machine) alu(in *ir.Inst, exec uint64) {
	full := exec == m.full
	switch in.Op {
	case ir.Const:
		d := m.reg(in.Dst)
		if full {
			for l := range d {
				d[l] = in.Imm
			}
			return
		}
		for mm := exec; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = in.Imm
		}
		return
	case ir.Mov, ir.Cast:
		d, a := m.reg(in.Dst), m.reg(in.Src[0])
		if full {
			copy(d, a)
			return
		}
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = a[l]
		}
		return
	case ir.Select:
		d, c, a, b := m.reg(in.Dst), m.reg(in.Src[0]), m.reg(in.Src[1]), m.reg(in.Src[2])
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			if c[l] != 0 {
				d[l] = a[l]
			} else {
				d[l] = b[l]
			}
		}
		return
	case ir.LoadInput:
		d, s := m.reg(in.Dst), m.Input(int(in.Imm))
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = s[l]
		}
		return
	case ir.StoreOutput:
		d, s := m.Output(int(in.Imm)), m.reg(in.Src[0])
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = s[l]
		}
		return
	case ir.LoadUniform:
		d, v := m.reg(in.Dst), m.uniforms[in.Imm]
		for mm := exec; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = v
		}
		return
	case ir.LoadUniformIdx:
		d, idx := m.reg(in.Dst), m.reg(in.Src[0])
		u := m.uniforms
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = u[in.Imm+clampIndex(idx[l], in.Len, m.prog.Regs[in.Src[0]])*in.Stride]
		}
		return
	case ir.ArrayLoad:
		d, idx := m.reg(in.Dst), m.reg(in.Src[0])
		signed := m.prog.Regs[in.Src[0]]
		w := uint32(m.w)
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			r := in.Imm + clampIndex(idx[l], in.Len, signed)*in.Stride
			d[l] = m.regs[r*w+uint32(l)]
		}
		return
	case ir.ArrayStore:
		idx, s := m.reg(in.Src[0]), m.reg(in.Src[1])
		signed := m.prog.Regs[in.Src[0]]
		w := uint32(m.w)
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			r := in.Imm + clampIndex(idx[l], in.Len, signed)*in.Stride
			m.regs[r*w+uint32(l)] = s[l]
		}
		return
	}
	// Pure ops: compute every lane (pure ops have no side effects and never fail),
	// straight into the destination when all lanes are active, otherwise into tmp
	// and merge the active lanes. Each lane reads only its own source words before
	// writing its own destination word, so dst may equal a source.
	d := m.reg(in.Dst)
	out := d
	if !full {
		out = m.tmp
	}
	handled, flushed := m.fast(in, out)
	if !handled {
		a, b, c, e := m.operand(in, 0), m.operand(in, 1), m.operand(in, 2), m.operand(in, 3)
		op, imm := in.Op, in.Imm
		if full {
			for l := range out {
				out[l] = ir.Eval(op, imm, a[l], b[l], c[l], e[l])
			}
		} else {
			for mm := exec; mm != 0; mm &= mm - 1 {
				l := bits.TrailingZeros64(mm)
				d[l] = ir.Eval(op, imm, a[l], b[l], c[l], e[l])
			}
		}
	} else if !full {
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = out[l]
		}
	}
	if m.ftz && !flushed && in.Op.FlushesDenormals() {
		m.flush(d, exec, full)
	}
}

// flush flushes the denormal words of d's active lanes to zero (Config.Denormals).
func (m *Machine) flush(d []uint32, exec uint64, full bool) {
	if full {
		for l, w := range d {
			d[l] = ftz(w)
		}
		return
	}
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		d[l] = ir.FlushDenormal(d[l])
	}
}

// clampIndex clamps a lane's array index to [0, n-1] (GLSL leaves out-of-bounds
// indexing undefined; here it reads or writes the nearest element).
func clampIndex(v, n uint32, t ir.Type) uint32 {
	if t == ir.I32 && int32(v) < 0 {
		return 0
	}
	if v >= n {
		return n - 1
	}
	return v
}

// deriv computes a screen-space derivative for every active lane from its 2x2 quad
// (lanes 4k..4k+3 = TL, TR, BL, BR). A neighbour that is inactive or absent returns
// the reader's own value. spec: vortexpipe-driver §2.2 (quad shuffle).
func (m *Machine) deriv(op ir.Op, d, s []uint32, exec uint64) {
	t := m.tmp
	w := m.w
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		q := l &^ 3
		var lo, hi int
		switch op {
		case ir.DdxFine:
			lo = q + l&2
			hi = lo + 1
		case ir.DdyFine:
			lo = q + l&1
			hi = lo + 2
		case ir.DdxCoarse:
			lo, hi = q, q+1
		default:
			lo, hi = q, q+2
		}
		vlo, vhi := s[l], s[l]
		if lo < w && exec>>lo&1 != 0 {
			vlo = s[lo]
		}
		if hi < w && exec>>hi&1 != 0 {
			vhi = s[hi]
		}
		t[l] = math.Float32bits(math.Float32frombits(vhi) - math.Float32frombits(vlo))
	}
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		d[l] = t[l]
		if m.ftz {
			d[l] = ir.FlushDenormal(d[l])
		}
	}
}

func fl(w uint32) float32 { return math.Float32frombits(w) }
func fw(v float32) uint32 { return math.Float32bits(v) }
func bw(c bool) uint32 {
	if c {
		return 1
	}
	return 0
}

// ftz flushes a denormal word to the zero of its sign (ir.FlushDenormal, written
// so that the compiler makes it a conditional move: four instructions a lane).
func ftz(w uint32) uint32 {
	if w&0x7f800000 == 0 {
		w &= 0x80000000
	}
	return w
}

// fast computes the commonest pure ops for all lanes into out with dedicated loops
// (the results equal ir.Eval's; TestALUMatchesEval checks it). It reports whether it
// handled the op and whether it already flushed denormal results (Config.Denormals:
// the arithmetic loops flush in the same pass).
func (m *Machine) fast(in *ir.Inst, out []uint32) (handled, flushed bool) {
	a := m.operand(in, 0)[:len(out)]
	b := m.operand(in, 1)[:len(out)]
	z := m.ftz
	switch in.Op {
	case ir.FAdd:
		if z {
			addLanesFTZ(out, a, b)
			return true, true
		}
		addLanes(out, a, b)
	case ir.FSub:
		if z {
			for l := range out {
				out[l] = ftz(fw(fl(a[l]) - fl(b[l])))
			}
			return true, true
		}
		for l := range out {
			out[l] = fw(fl(a[l]) - fl(b[l]))
		}
	case ir.FMul:
		if z {
			mulLanesFTZ(out, a, b)
			return true, true
		}
		mulLanes(out, a, b)
	case ir.FDiv:
		if z {
			for l := range out {
				out[l] = ftz(fw(fl(a[l]) / fl(b[l])))
			}
			return true, true
		}
		for l := range out {
			out[l] = fw(fl(a[l]) / fl(b[l]))
		}
	case ir.Fma:
		c := m.operand(in, 2)[:len(out)]
		if z {
			for l := range out {
				out[l] = ftz(fw(ir.FMA32(fl(a[l]), fl(b[l]), fl(c[l]))))
			}
			return true, true
		}
		for l := range out {
			out[l] = fw(ir.FMA32(fl(a[l]), fl(b[l]), fl(c[l])))
		}
	case ir.FMin:
		for l := range out {
			out[l] = ir.FMinNum(a[l], b[l])
		}
	case ir.FMax:
		for l := range out {
			out[l] = ir.FMaxNum(a[l], b[l])
		}
	case ir.FNeg:
		for l := range out {
			out[l] = a[l] ^ 0x80000000
		}
	case ir.FAbs:
		for l := range out {
			out[l] = a[l] &^ 0x80000000
		}
	case ir.Sqrt:
		for l := range out {
			out[l] = fw(float32(math.Sqrt(float64(fl(a[l])))))
		}
	case ir.InvSqrt:
		for l := range out {
			out[l] = fw(float32(1 / math.Sqrt(float64(fl(a[l])))))
		}
	case ir.IAdd, ir.UAdd:
		for l := range out {
			out[l] = a[l] + b[l]
		}
	case ir.ISub, ir.USub:
		for l := range out {
			out[l] = a[l] - b[l]
		}
	case ir.IMul, ir.UMul:
		for l := range out {
			out[l] = a[l] * b[l]
		}
	case ir.And:
		for l := range out {
			out[l] = a[l] & b[l]
		}
	case ir.Or:
		for l := range out {
			out[l] = a[l] | b[l]
		}
	case ir.FLt:
		for l := range out {
			out[l] = bw(fl(a[l]) < fl(b[l]))
		}
	case ir.FLe:
		for l := range out {
			out[l] = bw(fl(a[l]) <= fl(b[l]))
		}
	case ir.FGt:
		for l := range out {
			out[l] = bw(fl(a[l]) > fl(b[l]))
		}
	case ir.FGe:
		for l := range out {
			out[l] = bw(fl(a[l]) >= fl(b[l]))
		}
	case ir.ILt:
		for l := range out {
			out[l] = bw(int32(a[l]) < int32(b[l]))
		}
	case ir.IGe:
		for l := range out {
			out[l] = bw(int32(a[l]) >= int32(b[l]))
		}
	case ir.Eq:
		for l := range out {
			out[l] = bw(a[l] == b[l])
		}
	case ir.Ne:
		for l := range out {
			out[l] = bw(a[l] != b[l])
		}
	case ir.ItoF:
		for l := range out {
			out[l] = fw(float32(int32(a[l])))
		}
	default:
		return false, false
	}
	return true, false
}

// operand returns the lanes of source i, or zeros when the opcode has fewer
// sources (unused source fields are not verified and may hold anything).
func (m *Machine) operand(in *ir.Inst, i int) []uint32 {
	if i >= in.Op.NumSrc() {
		return m.zero
	}
	return m.reg(in.Src[i])
}
