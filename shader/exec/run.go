package exec

import (
	"context"
	"math/bits"

	"vortexgfx/shader/ir"
)

// ctxCheckEvery is how many warp instructions run between context checks.
const ctxCheckEvery = 4096

func (m *Machine) run(ctx context.Context, exec, live uint64) (uint64, error) {
	code := m.code
	n := m.mainEnd
	fr := m.frames
	fr[0] = frame{kind: ir.Scope, saved: exec, loop: -1, scope: 0, ret: -1}
	callRet := int32(-1)
	top := 0
	var killed uint64
	steps, laneOps := int64(0), int64(0)
	budget := m.maxSteps
	defer func() { m.steps, m.laneOps = steps, laneOps }()

	for pc := 0; pc != n; {
		if exec == 0 {
			pc = int(m.skip[pc])
			if pc == n {
				break
			}
		}
		steps++
		if steps > budget {
			return live, ErrBudget
		}
		if steps&(ctxCheckEvery-1) == 0 {
			if err := ctx.Err(); err != nil {
				return live, err
			}
		}
		laneOps += int64(bits.OnesCount64(exec))
		in := &code[pc]
		switch in.Op {
		case ir.If:
			c := m.condMask(in.Src[0], exec)
			top++
			fr[top] = frame{kind: ir.If, saved: exec, other: exec &^ c, loop: fr[top-1].loop, scope: fr[top-1].scope, ret: -1}
			exec &= c
			if exec == 0 {
				pc = int(m.match[pc])
				continue
			}
		case ir.Else:
			f := &fr[top]
			exec = f.other &^ removed(fr, f, killed)
			if exec == 0 {
				pc = int(m.match[pc])
				continue
			}
		case ir.EndIf:
			f := &fr[top]
			exec = f.saved &^ removed(fr, f, killed)
			top--
		case ir.Loop:
			top++
			fr[top] = frame{kind: ir.Loop, saved: exec, loop: int32(top), scope: fr[top-1].scope, start: int32(pc + 1), ret: -1}
		case ir.Continuing:
			f := &fr[top]
			exec |= f.cont
			f.cont = 0
		case ir.EndLoop:
			f := &fr[top]
			exec |= f.cont
			f.cont = 0
			if exec != 0 {
				pc = int(f.start)
				continue
			}
			exec = f.saved &^ (killed | fr[f.scope].other)
			top--
		case ir.Break:
			f := &fr[fr[top].loop]
			f.other |= exec
			exec = 0
		case ir.Continue:
			f := &fr[fr[top].loop]
			f.cont |= exec
			exec = 0
		case ir.Scope:
			top++
			fr[top] = frame{kind: ir.Scope, saved: exec, loop: -1, scope: int32(top), ret: callRet}
			callRet = -1
		case ir.EndScope:
			exec = fr[top].saved &^ killed
			ret := fr[top].ret
			top--
			if ret >= 0 {
				pc = int(ret)
				continue
			}
		case ir.Call:
			callRet = int32(pc + 1)
			pc = int(m.funcStart[in.Imm])
			continue
		case ir.Return:
			fr[fr[top].scope].other |= exec
			exec = 0
		case ir.Discard:
			live &^= exec
			killed |= exec
			exec = 0
		case ir.Demote:
			live &^= exec
		case ir.Nop:
		case ir.Tex:
			if err := m.tex(&m.prog.Tex[in.Imm], exec); err != nil {
				return live, err
			}
		case ir.Export:
			if m.sink != nil {
				m.expReq.Mask = exec & live
				if err := m.sink.Export(&m.expReq); err != nil {
					return live, err
				}
			}
		case ir.IsHelper:
			d := m.reg(in.Dst)
			for mm := exec; mm != 0; mm &= mm - 1 {
				l := bits.TrailingZeros64(mm)
				d[l] = uint32(^live>>l) & 1
			}
		case ir.DdxFine, ir.DdyFine, ir.DdxCoarse, ir.DdyCoarse:
			m.deriv(in.Op, m.reg(in.Dst), m.reg(in.Src[0]), exec)
		default:
			m.alu(in, exec)
		}
		pc++
	}
	return live, nil
}

// removed returns the lanes that left the construct f since it was entered: lanes
// that broke out of or continued the innermost loop, returned from the innermost
// scope, or were discarded.
func removed(fr []frame, f *frame, killed uint64) uint64 {
	r := killed | fr[f.scope].other
	if f.loop >= 0 {
		l := &fr[f.loop]
		r |= l.other | l.cont
	}
	return r
}

func (m *Machine) reg(r ir.Reg) []uint32 {
	return m.regs[int(r)*m.w : (int(r)+1)*m.w : (int(r)+1)*m.w]
}

func (m *Machine) condMask(r ir.Reg, exec uint64) uint64 {
	c := m.reg(r)
	var mask uint64
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		if c[l] != 0 {
			mask |= 1 << l
		}
	}
	return mask
}
