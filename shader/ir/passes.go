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
