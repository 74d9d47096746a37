package ir

// exprKey identifies a pure computation: opcode, immediate, sources and result type.
type exprKey struct {
	op  Op
	imm uint32
	src [4]Reg
	t   Type
}

// LocalValueNumbering replaces a pure instruction that recomputes a value already
// computed earlier in the same basic block — same opcode, immediate, source
// registers and result type, with neither the sources nor the earlier result
// written in between — by a move from the earlier result. Constants are left to
// HoistConstants. Any control-flow marker or call ends the block. The result
// computes the same words: a pure op depends only on its sources and immediate.
// Optimize runs it on compute programs, whose lowered memory addressing recomputes
// the same index arithmetic for every access. It reports whether p changed.
func LocalValueNumbering(p *Program) bool {
	changed := false
	avail := map[exprKey]Reg{}
	// users[r] lists the keys whose sources or result include register r.
	users := map[Reg][]exprKey{}
	kill := func(r Reg) {
		for _, k := range users[r] {
			delete(avail, k)
		}
		delete(users, r)
	}
	body := func(code []Inst) {
		clear(avail)
		clear(users)
		for pc := range code {
			in := &code[pc]
			if in.Op.IsControl() || in.Op == Barrier {
				clear(avail)
				clear(users)
				continue
			}
			var key exprKey
			pure := in.Op.IsPure() && in.Op != Const && in.Op != Mov && in.Op != Cast
			if pure {
				key = exprKey{op: in.Op, imm: in.Imm, t: p.Regs[in.Dst]}
				for i := 0; i < in.Op.NumSrc(); i++ {
					key.src[i] = in.Src[i]
				}
				for i := in.Op.NumSrc(); i < 4; i++ {
					key.src[i] = NoReg
				}
				if r, ok := avail[key]; ok && r != in.Dst {
					*in = Inst{Op: Mov, Dst: in.Dst, Src: [4]Reg{r, NoReg, NoReg, NoReg}}
					changed = true
					pure = false
				}
			}
			forEachWrite(p, in, kill)
			if !pure {
				continue
			}
			self := false
			for i := 0; i < in.Op.NumSrc(); i++ {
				self = self || in.Src[i] == in.Dst
			}
			if self {
				continue // the result overwrote a source: the expression is gone
			}
			avail[key] = in.Dst
			users[in.Dst] = append(users[in.Dst], key)
			for i := 0; i < in.Op.NumSrc(); i++ {
				users[in.Src[i]] = append(users[in.Src[i]], key)
			}
		}
	}
	body(p.Code)
	for i := range p.Funcs {
		body(p.Funcs[i].Code)
	}
	return changed
}
