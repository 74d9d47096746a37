package ir

// Inline returns a copy of p in which every Call is replaced by the callee's body
// wrapped in Scope/EndScope (a Return inside the body leaves the Scope, exactly as
// it left the function), recursively, and Funcs is empty. GLSL forbids recursion and
// every function owns its registers, so copying bodies is enough: no renaming is
// needed. p must have been verified.
func Inline(p *Program) *Program {
	q := p.Clone()
	if len(p.Funcs) == 0 {
		return q
	}
	memo := make([][]Inst, len(p.Funcs))
	var expand func(code []Inst) []Inst
	expand = func(code []Inst) []Inst {
		var out []Inst
		for _, in := range code {
			if in.Op != Call {
				out = append(out, in)
				continue
			}
			if memo[in.Imm] == nil {
				memo[in.Imm] = expand(p.Funcs[in.Imm].Code)
			}
			out = append(out, Inst{Op: Scope, Dst: NoReg, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}})
			out = append(out, memo[in.Imm]...)
			out = append(out, Inst{Op: EndScope, Dst: NoReg, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}})
		}
		return out
	}
	q.Code = expand(p.Code)
	q.Funcs = nil
	return q
}
