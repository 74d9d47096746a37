package ir

import "errors"

// Optimize returns an optimised copy of a verified program: functions inlined,
// then constant folding, copy propagation, dead-code elimination, scope
// simplification, constant hoisting and move coalescing repeated until nothing
// changes (at most a few rounds), and finally the registers compacted. The result
// verifies and computes the same outputs as p. A program whose inlined form would
// exceed MaxInlinedCode keeps its functions (the executor runs Call) and is only
// folded, propagated and cleaned of dead code. The error is nil for every
// verified program; it is part of the signature so that a fallible pass can be
// added without changing callers.
func Optimize(p *Program) (*Program, error) {
	q, err := Inline(p)
	if errors.Is(err, ErrTooLarge) {
		// Keep the functions (the executor runs Call); fold and propagate inside
		// each body and remove dead code everywhere.
		q = p.Clone()
		for round := 0; round < 8; round++ {
			changed := false
			bodies := append([]*[]Inst{&q.Code}, nil)[:1]
			for i := range q.Funcs {
				bodies = append(bodies, &q.Funcs[i].Code)
			}
			for _, body := range bodies {
				v := *q
				v.Code = *body
				changed = FoldConstants(&v) || changed
				changed = PropagateCopies(&v) || changed
				*body = v.Code
			}
			changed = EliminateDeadCode(q) || changed
			if !changed {
				break
			}
		}
		return q, nil
	}
	if err != nil {
		return nil, err
	}
	for round := 0; round < 8; round++ {
		changed := FoldConstants(q)
		if q.Stage == Compute {
			changed = LocalValueNumbering(q) || changed
		}
		changed = PropagateCopies(q) || changed
		changed = EliminateDeadCode(q) || changed
		changed = SimplifyScopes(q) || changed
		changed = HoistConstants(q) || changed
		changed = CoalesceMoves(q) || changed
		if !changed {
			break
		}
	}
	CompactRegisters(q)
	return q, nil
}

// joinPoint reports whether knowledge about register values must be dropped before
// instruction op: a control-flow join or loop head. Entering an If's then-part or a
// Scope keeps it (the block is dominated by what precedes it).
func joinPoint(op Op) bool {
	switch op {
	case Else, EndIf, Loop, Continuing, EndLoop, EndScope:
		return true
	}
	return false
}

// forEachWrite calls f for every register in that in writes.
func forEachWrite(p *Program, in *Inst, f func(Reg)) {
	switch {
	case in.Op == ArrayStore:
		for i := uint32(0); i < in.Len; i++ {
			f(Reg(in.Imm + i*in.Stride))
		}
	case in.Op == Tex:
		for _, r := range p.Tex[in.Imm].Dst {
			if r != NoReg {
				f(r)
			}
		}
	case in.Op.HasDst():
		f(in.Dst)
	}
}

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

// matchEnds maps each If, Loop and Scope to its EndIf, EndLoop or EndScope, and
// every other instruction to itself.
func matchEnds(code []Inst) []int {
	ends := make([]int, len(code))
	var stack []int
	for pc, in := range code {
		ends[pc] = pc
		switch in.Op {
		case If, Loop, Scope:
			stack = append(stack, pc)
		case EndIf, EndLoop, EndScope:
			if len(stack) > 0 {
				ends[stack[len(stack)-1]] = pc
				stack = stack[:len(stack)-1]
			}
		}
	}
	return ends
}

func clampConst(v, n uint32, t Type) uint32 {
	if t == I32 && int32(v) < 0 {
		return 0
	}
	return min(v, n-1)
}

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
			for _, r := range []*Reg{&t.Lod, &t.Bias, &t.Compare, &t.DPdx[0], &t.DPdx[1], &t.DPdx[2], &t.DPdy[0], &t.DPdy[1], &t.DPdy[2]} {
				if *r != NoReg {
					*r = rename[*r]
				}
			}
		}
	}
	p.Code = append(head, rest...)
	return true
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

// SimplifyScopes removes Return instructions that immediately precede their
// scope's EndScope (they leave nothing) and then Scope/EndScope pairs that contain
// no Return of their own, such as the bodies of inlined functions that return only
// at the end. It reports whether p changed.
func SimplifyScopes(p *Program) bool {
	changed := false
	code := p.Code
	// Trailing returns: a Return at the scope's own level right before EndScope.
	for pc := 0; pc+1 < len(code); pc++ {
		if code[pc].Op == Return && code[pc+1].Op == EndScope {
			code[pc].Op = Nop
			changed = true
		}
	}
	// Scopes without their own Return.
	var stack []int
	hasRet := map[int]bool{}
	remove := make([]bool, len(code))
	for pc, in := range code {
		switch in.Op {
		case Scope:
			stack = append(stack, pc)
		case Return:
			if len(stack) > 0 {
				hasRet[stack[len(stack)-1]] = true
			}
		case EndScope:
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !hasRet[open] {
				remove[open], remove[pc] = true, true
				changed = true
			}
		}
	}
	out := code[:0]
	for pc, in := range code {
		if remove[pc] || in.Op == Nop {
			continue
		}
		out = append(out, in)
	}
	p.Code = out
	return changed
}

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
	}
	p.Regs = regs
	return true
}
