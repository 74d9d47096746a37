package ir

// FoldConstants evaluates pure instructions whose sources are all known constants
// (with Eval, so folding and execution agree bit for bit), turns indexed loads with
// constant indices into plain loads and selects with constant conditions into
// moves. Knowledge flows into nested constructs; at an Else it is the knowledge at
// the If, and after a construct (and at a loop head) it is the knowledge at its
// start minus every register the construct writes. It reports whether p changed.
func FoldConstants(p *Program) bool {
	known := make([]bool, len(p.Regs))
	val := make([]uint32, len(p.Regs))
	type snap struct {
		known []bool
		val   []uint32
		start int
	}
	var stack []snap
	ends := matchEnds(p.Code)
	changed := false
	killRange := func(from, to int) {
		for pc := from; pc <= to && pc < len(p.Code); pc++ {
			forEachWrite(p, &p.Code[pc], func(r Reg) { known[r] = false })
		}
	}
	for pc := range p.Code {
		in := &p.Code[pc]
		if in.Op == Call {
			clear(known) // the callee may write any register
		}
		switch in.Op {
		case If, Scope, Loop:
			if in.Op == Loop {
				killRange(pc, ends[pc])
			}
			stack = append(stack, snap{known: append([]bool(nil), known...), val: append([]uint32(nil), val...), start: pc})
		case Else, Continuing:
			// The else part starts from the state at the If; the continue block from
			// the loop-head state (which already excludes everything the loop writes).
			top := stack[len(stack)-1]
			copy(known, top.known)
			copy(val, top.val)
		case EndIf, EndLoop, EndScope:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			copy(known, top.known)
			copy(val, top.val)
			killRange(top.start, pc)
		}
		switch in.Op {
		case ArrayLoad:
			if known[in.Src[0]] {
				idx := clampConst(val[in.Src[0]], in.Len, p.Regs[in.Src[0]])
				*in = Inst{Op: Mov, Dst: in.Dst, Src: [4]Reg{Reg(in.Imm + idx*in.Stride), NoReg, NoReg, NoReg}}
				changed = true
			}
		case LoadUniformIdx:
			if known[in.Src[0]] {
				idx := clampConst(val[in.Src[0]], in.Len, p.Regs[in.Src[0]])
				*in = Inst{Op: LoadUniform, Dst: in.Dst, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}, Imm: in.Imm + idx*in.Stride}
				changed = true
			}
		case Select:
			if known[in.Src[0]] && !(known[in.Src[1]] && known[in.Src[2]]) {
				s := in.Src[2]
				if val[in.Src[0]] != 0 {
					s = in.Src[1]
				}
				*in = Inst{Op: Mov, Dst: in.Dst, Src: [4]Reg{s, NoReg, NoReg, NoReg}}
				changed = true
			}
		}
		if in.Op.IsPure() {
			n := in.Op.NumSrc()
			all := true
			var s [4]uint32
			for i := 0; i < n; i++ {
				if !known[in.Src[i]] {
					all = false
					break
				}
				s[i] = val[in.Src[i]]
			}
			if all {
				v := Eval(in.Op, in.Imm, s[0], s[1], s[2], s[3])
				if p.FlushDenormals && in.Op.FlushesDenormals() {
					v = FlushDenormal(v)
				}
				if in.Op != Const {
					*in = Inst{Op: Const, Dst: in.Dst, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}, Imm: v}
					changed = true
				}
				known[in.Dst], val[in.Dst] = true, v
				continue
			}
		}
		forEachWrite(p, in, func(r Reg) { known[r] = false })
	}
	return changed
}

func clampConst(v, n uint32, t Type) uint32 {
	if t == I32 && int32(v) < 0 {
		return 0
	}
	return min(v, n-1)
}
