package ir

// HoistConstants moves a Const to the start of the program when its register has
// no other definition and every read of it follows it in the same basic block (so
// the definition always ran just before, under the same mask): constants the
// lowering materialises inside loops are then computed once per run. It reports
// whether p changed.
func HoistConstants(p *Program) bool {
	defs := make([]int, len(p.Regs))
	for pc := range p.Code {
		forEachWrite(p, &p.Code[pc], func(r Reg) { defs[r]++ })
	}
	// block[pc] numbers the straight-line block of each instruction.
	block := make([]int, len(p.Code))
	b := 0
	for pc, in := range p.Code {
		if in.Op.IsControl() {
			b++
		}
		block[pc] = b
	}
	defAt := make([]int, len(p.Regs))
	for i := range defAt {
		defAt[i] = -1
	}
	ok := make([]bool, len(p.Regs))
	for pc, in := range p.Code {
		if in.Op == Const && defs[in.Dst] == 1 {
			defAt[in.Dst] = pc
			ok[in.Dst] = true
		}
	}
	check := func(r Reg, pc int) {
		if r == NoReg || int(r) >= len(ok) || !ok[r] {
			return
		}
		if d := defAt[r]; d < 0 || d >= pc || block[d] != block[pc] {
			ok[r] = false
		}
	}
	for pc := range p.Code {
		in := &p.Code[pc]
		for i := 0; i < in.Op.NumSrc(); i++ {
			check(in.Src[i], pc)
		}
		switch in.Op {
		case ArrayLoad:
			// Elements of an indexed range are read by position: they keep their
			// own registers (no hoisting or merging).
			for i := uint32(0); i < in.Len; i++ {
				ok[in.Imm+i*in.Stride] = false
			}
		case Tex:
			t := &p.Tex[in.Imm]
			for _, r := range append(append([]Reg{t.Lod, t.Bias, t.Compare}, t.Coord[:]...), append(t.DPdx[:], t.DPdy[:]...)...) {
				check(r, pc)
			}
			for _, r := range t.DynRegs() {
				check(*r, pc)
			}
		}
	}
	var head, rest []Inst
	moved := false
	type key struct {
		t    Type
		bits uint32
	}
	first := map[key]Reg{}
	rename := make([]Reg, len(p.Regs))
	for i := range rename {
		rename[i] = Reg(i)
	}
	for pc, in := range p.Code {
		if in.Op == Const && ok[in.Dst] && defAt[in.Dst] == pc {
			k := key{p.Regs[in.Dst], in.Imm}
			if r, dup := first[k]; dup {
				rename[in.Dst] = r // same constant: read the first copy
				moved = true
				continue
			}
			first[k] = in.Dst
			head = append(head, in)
			if block[pc] != 0 {
				moved = true
			}
			continue
		}
		rest = append(rest, in)
	}
	if !moved {
		return false
	}
	for pc := range rest {
		in := &rest[pc]
		for i := 0; i < in.Op.NumSrc(); i++ {
			in.Src[i] = rename[in.Src[i]]
		}
		if in.Op == Tex {
			t := &p.Tex[in.Imm]
			for k := 0; k < 4; k++ {
				if t.Coord[k] != NoReg {
					t.Coord[k] = rename[t.Coord[k]]
				}
			}
			for _, r := range append([]*Reg{&t.Lod, &t.Bias, &t.Compare, &t.DPdx[0], &t.DPdx[1], &t.DPdx[2], &t.DPdy[0], &t.DPdy[1], &t.DPdy[2]}, t.DynRegs()...) {
				if *r != NoReg {
					*r = rename[*r]
				}
			}
		}
	}
	p.Code = append(head, rest...)
	return true
}
