package ir

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
