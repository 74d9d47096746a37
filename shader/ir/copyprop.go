package ir

// PropagateCopies replaces, within each basic block, reads of a register that was
// copied from another (Mov) by reads of the original, as long as neither has been
// written since. Texture records and indexed ranges are left alone. It reports
// whether p changed.
func PropagateCopies(p *Program) bool {
	copyOf := make([]Reg, len(p.Regs))
	for i := range copyOf {
		copyOf[i] = NoReg
	}
	var live []Reg // registers with a recorded copy, to clear quickly
	reset := func() {
		for _, r := range live {
			copyOf[r] = NoReg
		}
		live = live[:0]
	}
	kill := func(r Reg) {
		copyOf[r] = NoReg
		for _, k := range live {
			if copyOf[k] == r {
				copyOf[k] = NoReg
			}
		}
	}
	changed := false
	for pc := range p.Code {
		in := &p.Code[pc]
		if joinPoint(in.Op) || in.Op == Call {
			reset()
		}
		for i := 0; i < in.Op.NumSrc(); i++ {
			if c := copyOf[in.Src[i]]; c != NoReg {
				in.Src[i] = c
				changed = true
			}
		}
		forEachWrite(p, in, kill)
		if in.Op == Mov && in.Dst != in.Src[0] {
			copyOf[in.Dst] = in.Src[0]
			live = append(live, in.Dst)
		}
	}
	return changed
}

// CoalesceMoves removes "t = op ...; ...; d = mov t" pairs in one basic block when
// t has no other definition or use and d is neither read nor written in between:
// the op writes d directly. It reports whether p changed.
func CoalesceMoves(p *Program) bool {
	defs := make([]int, len(p.Regs))
	uses := make([]int, len(p.Regs))
	defAt := make([]int, len(p.Regs))
	for pc := range p.Code {
		in := &p.Code[pc]
		forEachWrite(p, in, func(r Reg) { defs[r]++; defAt[r] = pc })
		for i := 0; i < in.Op.NumSrc(); i++ {
			uses[in.Src[i]]++
		}
		switch in.Op {
		case ArrayLoad, ArrayStore:
			for i := uint32(0); i < in.Len; i++ {
				uses[in.Imm+i*in.Stride] += 2 // never coalesce array elements
				defs[in.Imm+i*in.Stride] += 2
			}
		case Tex:
			t := &p.Tex[in.Imm]
			for _, r := range append(append([]Reg{t.Lod, t.Bias, t.Compare}, t.Coord[:]...), append(t.DPdx[:], t.DPdy[:]...)...) {
				if r != NoReg {
					uses[r] += 2
				}
			}
			for _, r := range t.DynRegs() {
				uses[*r] += 2
			}
		}
	}
	changed := false
	for pc := range p.Code {
		mv := &p.Code[pc]
		if mv.Op != Mov {
			continue
		}
		t, d := mv.Src[0], mv.Dst
		if t == d || defs[t] != 1 || uses[t] != 1 {
			continue
		}
		at := defAt[t]
		def := &p.Code[at]
		if at >= pc || !def.Op.HasDst() || def.Op == Tex || def.Dst != t {
			continue
		}
		clean := true
		for k := at + 1; k < pc && clean; k++ {
			in := &p.Code[k]
			if in.Op.IsControl() {
				clean = false
			}
			for i := 0; i < in.Op.NumSrc(); i++ {
				if in.Src[i] == d {
					clean = false
				}
			}
			forEachWrite(p, in, func(r Reg) {
				if r == d {
					clean = false
				}
			})
			if in.Op == ArrayLoad || in.Op == ArrayStore || in.Op == Tex {
				clean = false
			}
		}
		if !clean {
			continue
		}
		def.Dst = d
		mv.Op = Nop
		defs[t], uses[t] = 0, 0
		changed = true
	}
	if changed {
		out := p.Code[:0]
		for _, in := range p.Code {
			if in.Op != Nop {
				out = append(out, in)
			}
		}
		p.Code = out
	}
	return changed
}
