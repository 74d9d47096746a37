package ir

import (
	"errors"
	"fmt"
)

// MaxInlinedCode is the most instructions Inline produces; GLSL programs whose
// call tree expands beyond it (a chain of functions each calling the next twice
// doubles the code per level) are rejected with ErrTooLarge instead of exhausting
// memory.
const MaxInlinedCode = 1 << 20

// ErrTooLarge is returned when inlining would exceed MaxInlinedCode instructions.
var ErrTooLarge = errors.New("ir: program too large after inlining")

// InlinedSize returns the number of instructions Inline would produce, saturating
// just above MaxInlinedCode. p must have been verified (no recursion).
func InlinedSize(p *Program) int {
	memo := make([]int, len(p.Funcs))
	for i := range memo {
		memo[i] = -1
	}
	var size func(code []Inst) int
	size = func(code []Inst) int {
		n := 0
		for _, in := range code {
			if in.Op != Call {
				n++
			} else {
				if memo[in.Imm] < 0 {
					memo[in.Imm] = size(p.Funcs[in.Imm].Code)
				}
				n += memo[in.Imm] + 2
			}
			if n > MaxInlinedCode {
				return MaxInlinedCode + 1
			}
		}
		return n
	}
	return size(p.Code)
}

// Inline returns a copy of p in which every Call is replaced by the callee's body
// wrapped in Scope/EndScope (a Return inside the body leaves the Scope, exactly as
// it left the function), recursively, and Funcs is empty. GLSL forbids recursion and
// every function owns its registers, so copying bodies is enough: no renaming is
// needed. p must have been verified. It fails with ErrTooLarge when the result
// would exceed MaxInlinedCode instructions.
func Inline(p *Program) (*Program, error) {
	q := p.Clone()
	if len(p.Funcs) == 0 {
		return q, nil
	}
	if n := InlinedSize(p); n > MaxInlinedCode {
		return nil, fmt.Errorf("%w (more than %d instructions)", ErrTooLarge, MaxInlinedCode)
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
	return q, nil
}
