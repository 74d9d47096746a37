package ir

// removable reports whether in has no effect besides writing its destination.
func removable(op Op) bool {
	if op.IsPure() {
		return true
	}
	switch op {
	case LoadInput, LoadUniform, LoadUniformIdx, ArrayLoad, IsHelper, DdxFine, DdyFine, DdxCoarse, DdyCoarse, Nop,
		MemLoad, MemSize, ImageExtent, ImageFormatOf:
		return true
	}
	return false
}

// EliminateDeadCode removes instructions without side effects whose destination
// register is never read anywhere in the program (registers are not SSA, so "never
// read" is the safe global criterion), repeating until nothing more dies. It
// reports whether p changed.
func EliminateDeadCode(p *Program) bool {
	changed := false
	read := make([]bool, len(p.Regs))
	for {
		clear(read)
		mark := func(r Reg) {
			if r != NoReg {
				read[r] = true
			}
		}
		mark2 := func(code []Inst) {
			for pc := range code {
				in := &code[pc]
				for i := 0; i < in.Op.NumSrc(); i++ {
					mark(in.Src[i])
				}
				switch in.Op {
				case ArrayLoad:
					for i := uint32(0); i < in.Len; i++ {
						mark(Reg(in.Imm + i*in.Stride))
					}
				case Tex:
					t := &p.Tex[in.Imm]
					for i := 0; i < t.NCoord; i++ {
						mark(t.Coord[i])
					}
					mark(t.Lod)
					mark(t.Bias)
					mark(t.Compare)
					for i := 0; i < 3; i++ {
						mark(t.DPdx[i])
						mark(t.DPdy[i])
					}
				}
			}
		}
		mark2(p.Code)
		for _, f := range p.Funcs {
			mark2(f.Code)
		}
		removed := false
		sweep := func(code []Inst) []Inst {
			out := code[:0]
			for _, in := range code {
				if removable(in.Op) && (in.Op == Nop || !read[in.Dst]) {
					removed = true
					continue
				}
				if in.Op == ArrayStore && !anyRead(read, in) {
					removed = true
					continue
				}
				if in.Op == Tex && !texRead(read, &p.Tex[in.Imm]) {
					removed = true // a texture lookup has no side effect
					continue
				}
				out = append(out, in)
			}
			return out
		}
		p.Code = sweep(p.Code)
		for i := range p.Funcs {
			p.Funcs[i].Code = sweep(p.Funcs[i].Code)
		}
		if !removed {
			return changed
		}
		changed = true
	}
}

// texRead reports whether any result of a texture record is read.
func texRead(read []bool, t *TexInfo) bool {
	for _, r := range t.Dst {
		if r != NoReg && read[r] {
			return true
		}
	}
	return false
}

// anyRead reports whether any register of an indexed op's element range is read.
func anyRead(read []bool, in Inst) bool {
	for i := uint32(0); i < in.Len; i++ {
		if read[in.Imm+i*in.Stride] {
			return true
		}
	}
	return false
}
