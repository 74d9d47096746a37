package ir

// removable reports whether in has no effect besides writing its destination.
func removable(op Op) bool {
	if op.IsPure() {
		return true
	}
	switch op {
	case LoadInput, LoadUniform, LoadUniformIdx, ArrayLoad, IsHelper, DdxFine, DdyFine, DdxCoarse, DdyCoarse, Nop,
		MemLoad, MemSize, ImageExtent, ImageFormatOf, VoteAny, VoteAll, VoteEq:
		return true
	}
	return false
}

// EliminateDeadCode removes instructions without side effects whose destination
// register is never read anywhere in the program (registers are not SSA, so "never
// read" is the safe global criterion), until nothing more dies. It reports whether
// p changed.
//
// It counts the reads of each register and, when a removal drops a count to zero,
// revisits only that register's writers: re-scanning the whole program once per
// removal round was quadratic in a chain of dead values (a 30000-case switch took
// minutes). The result is the same fixed point, since removing an instruction only
// makes others more removable.
func EliminateDeadCode(p *Program) bool {
	codes := make([][]Inst, 0, 1+len(p.Funcs))
	codes = append(codes, p.Code)
	for _, f := range p.Funcs {
		codes = append(codes, f.Code)
	}
	type at struct{ c, pc int }
	reads := make([]int, len(p.Regs))
	writers := make([][]at, len(p.Regs))
	// eachRead calls fn for every register in reads (with repeats, so that adding
	// and removing an instruction's reads balance).
	eachRead := func(in *Inst, fn func(Reg)) {
		for i := 0; i < in.Op.NumSrc(); i++ {
			if in.Src[i] != NoReg {
				fn(in.Src[i])
			}
		}
		switch in.Op {
		case ArrayLoad:
			for i := uint32(0); i < in.Len; i++ {
				fn(Reg(in.Imm + i*in.Stride))
			}
		case Tex:
			t := &p.Tex[in.Imm]
			regs := []Reg{t.Lod, t.Bias, t.Compare, t.DPdx[0], t.DPdx[1], t.DPdx[2], t.DPdy[0], t.DPdy[1], t.DPdy[2]}
			for _, r := range t.DynRegs() {
				regs = append(regs, *r)
			}
			for _, r := range append(regs, t.Coord[:t.NCoord]...) {
				if r != NoReg {
					fn(r)
				}
			}
		}
	}
	// dead reports whether the instruction may go given the current read counts.
	dead := func(in *Inst) bool {
		switch {
		case removable(in.Op):
			return in.Op == Nop || reads[in.Dst] == 0
		case in.Op == ArrayStore:
			for i := uint32(0); i < in.Len; i++ {
				if reads[in.Imm+i*in.Stride] != 0 {
					return false
				}
			}
			return true
		case in.Op == Tex:
			for _, r := range p.Tex[in.Imm].Dst {
				if r != NoReg && reads[r] != 0 {
					return false
				}
			}
			return true
		}
		return false
	}
	var work []at
	for c, code := range codes {
		for pc := range code {
			in := &code[pc]
			eachRead(in, func(r Reg) { reads[r]++ })
			switch {
			case removable(in.Op):
				if in.Op != Nop {
					writers[in.Dst] = append(writers[in.Dst], at{c, pc})
				}
			case in.Op == ArrayStore:
				for i := uint32(0); i < in.Len; i++ {
					r := in.Imm + i*in.Stride
					writers[r] = append(writers[r], at{c, pc})
				}
			case in.Op == Tex:
				for _, r := range p.Tex[in.Imm].Dst {
					if r != NoReg {
						writers[r] = append(writers[r], at{c, pc})
					}
				}
			default:
				continue
			}
			work = append(work, at{c, pc})
		}
	}
	gone := make([][]bool, len(codes))
	for c, code := range codes {
		gone[c] = make([]bool, len(code))
	}
	removed := false
	for len(work) > 0 {
		w := work[len(work)-1]
		work = work[:len(work)-1]
		in := &codes[w.c][w.pc]
		if gone[w.c][w.pc] || !dead(in) {
			continue
		}
		gone[w.c][w.pc] = true
		removed = true
		eachRead(in, func(r Reg) {
			if reads[r]--; reads[r] == 0 {
				work = append(work, writers[r]...)
			}
		})
	}
	if !removed {
		return false
	}
	sweep := func(c int) []Inst {
		out := codes[c][:0]
		for pc, in := range codes[c] {
			if !gone[c][pc] {
				out = append(out, in)
			}
		}
		return out
	}
	p.Code = sweep(0)
	for i := range p.Funcs {
		p.Funcs[i].Code = sweep(i + 1)
	}
	return true
}
