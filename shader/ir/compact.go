package ir

// CompactRegisters renumbers the registers that are still referenced into a dense
// range, keeping their order (so the element ranges of indexed ops stay contiguous),
// and drops the rest, and drops texture records no instruction uses. Fewer
// registers mean a smaller register file to clear per run.
// It reports whether p changed.
func CompactRegisters(p *Program) bool {
	// Drop texture records no instruction refers to any more.
	texUsed := make([]int, len(p.Tex))
	for i := range texUsed {
		texUsed[i] = -1
	}
	var tex []TexInfo
	renum := func(code []Inst) {
		for pc := range code {
			if in := &code[pc]; in.Op == Tex {
				if texUsed[in.Imm] < 0 {
					texUsed[in.Imm] = len(tex)
					tex = append(tex, p.Tex[in.Imm])
				}
				in.Imm = uint32(texUsed[in.Imm])
			}
		}
	}
	renum(p.Code)
	for i := range p.Funcs {
		renum(p.Funcs[i].Code)
	}
	texChanged := len(tex) != len(p.Tex)
	p.Tex = tex
	used := make([]bool, len(p.Regs))
	mark := func(r Reg) {
		if r != NoReg && int(r) < len(used) {
			used[r] = true
		}
	}
	visit := func(code []Inst, f func(*Inst)) {
		for pc := range code {
			f(&code[pc])
		}
	}
	all := func(f func(*Inst)) {
		visit(p.Code, f)
		for _, fn := range p.Funcs {
			visit(fn.Code, f)
		}
	}
	all(func(in *Inst) {
		if in.Op.HasDst() {
			mark(in.Dst)
		}
		for i := 0; i < in.Op.NumSrc(); i++ {
			mark(in.Src[i])
		}
		if in.Op == ArrayLoad || in.Op == ArrayStore {
			for r := in.Imm; r <= in.Imm+(in.Len-1)*in.Stride; r++ {
				mark(Reg(r))
			}
		}
	})
	for i := range p.Tex {
		t := &p.Tex[i]
		for _, r := range t.Dst {
			mark(r)
		}
		for _, r := range t.Coord {
			mark(r)
		}
		for k := 0; k < 3; k++ {
			mark(t.DPdx[k])
			mark(t.DPdy[k])
		}
		mark(t.Lod)
		mark(t.Bias)
		mark(t.Compare)
		for _, r := range t.DynRegs() {
			mark(*r)
		}
	}
	newIdx := make([]Reg, len(p.Regs))
	var regs []Type
	for r, u := range used {
		if u {
			newIdx[r] = Reg(len(regs))
			regs = append(regs, p.Regs[r])
		}
	}
	if len(regs) == len(p.Regs) {
		return texChanged
	}
	re := func(r Reg) Reg {
		if r == NoReg || int(r) >= len(newIdx) {
			return r
		}
		return newIdx[r]
	}
	all(func(in *Inst) {
		if in.Op.HasDst() {
			in.Dst = re(in.Dst)
		}
		for i := 0; i < in.Op.NumSrc(); i++ {
			in.Src[i] = re(in.Src[i])
		}
		if in.Op == ArrayLoad || in.Op == ArrayStore {
			in.Imm = uint32(re(Reg(in.Imm)))
		}
	})
	for i := range p.Tex {
		t := &p.Tex[i]
		for k := range t.Dst {
			t.Dst[k] = re(t.Dst[k])
			t.Coord[k] = re(t.Coord[k])
		}
		for k := 0; k < 3; k++ {
			t.DPdx[k] = re(t.DPdx[k])
			t.DPdy[k] = re(t.DPdy[k])
		}
		t.Lod, t.Bias, t.Compare = re(t.Lod), re(t.Bias), re(t.Compare)
		for _, r := range t.DynRegs() {
			*r = re(*r)
		}
	}
	p.Regs = regs
	return true
}
