package exec

import (
	"context"
	"math/bits"

	"vortexgfx/shader/ir"
)

// ctxCheckEvery is how many warp instructions run between context checks.
const ctxCheckEvery = 4096

func (m *Machine) run(ctx context.Context, exec, live uint64) (uint64, error) {
	m.frames[0] = frame{kind: ir.Scope, saved: exec, loop: -1, scope: 0, ret: -1}
	m.st = runState{exec: exec, live: live, callRet: -1}
	_, err := m.resume(ctx)
	return m.st.live, err
}

// runState is a warp's execution state between a barrier and its resumption (and
// the final state after a run): the program counter, masks and frame depth.
type runState struct {
	pc      int
	exec    uint64
	live    uint64
	killed  uint64
	top     int
	callRet int32
	done    bool
}

// resume continues the warp from m.st until the program ends or, when the machine
// yields at barriers (it runs inside a Workgroup), until it executes a Barrier. It
// reports whether the warp stopped at a barrier; m.st holds where to continue.
func (m *Machine) resume(ctx context.Context) (bool, error) {
	code := m.code
	n := m.mainEnd
	fr := m.frames
	st := &m.st
	if st.done {
		return false, nil
	}
	exec, live, killed := st.exec, st.live, st.killed
	callRet := st.callRet
	top := st.top
	steps, laneOps := m.steps, m.laneOps
	budget := m.maxSteps
	pc := st.pc
	cs := m.compiled
	blk := m.block

	for pc != n {
		if exec == 0 {
			pc = int(m.skip[pc])
			if pc == n {
				break
			}
		}
		// A block of compiled instructions runs at once when neither the step
		// budget nor a context check falls inside it; otherwise it runs one
		// instruction at a time below, so errors, steps and lane counts are the
		// same either way.
		if k := int64(blk[pc]); k > 1 && steps+k <= budget && (steps+k)/ctxCheckEvery == steps/ctxCheckEvery {
			m.runBlock(pc, int(k), exec)
			steps += k
			laneOps += k * int64(bits.OnesCount64(exec))
			pc += int(k)
			continue
		}
		steps++
		if steps > budget {
			m.save(pc, exec, live, killed, callRet, top, steps, laneOps, true)
			return false, ErrBudget
		}
		if steps&(ctxCheckEvery-1) == 0 {
			if err := ctx.Err(); err != nil {
				m.save(pc, exec, live, killed, callRet, top, steps, laneOps, true)
				return false, err
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
		case ir.Emit:
			m.geo.emit(m, exec)
		case ir.EndPrim:
			m.geo.cut |= exec
		case ir.Barrier:
			if m.yield {
				m.save(pc+1, exec, live, killed, callRet, top, steps, laneOps, false)
				return true, nil
			}
		case ir.MemLoad, ir.MemStore, ir.MemAtomic, ir.MemSize, ir.ImageExtent, ir.ImageFormatOf:
			mask := exec
			if in.Op == ir.MemStore || in.Op == ir.MemAtomic {
				// Helper invocations (and demoted lanes) never write memory;
				// their atomics return undefined values (here: the register is
				// left as it was). spec: GLSL 4.60 §7.1.2 (gl_HelperInvocation),
				// ARB_shader_image_load_store (helper pixels).
				mask &= live
			}
			if err := m.memory(in, mask); err != nil {
				m.save(pc, exec, live, killed, callRet, top, steps, laneOps, true)
				return false, err
			}
		case ir.Tex:
			if err := m.tex(&m.prog.Tex[in.Imm], exec); err != nil {
				m.save(pc, exec, live, killed, callRet, top, steps, laneOps, true)
				return false, err
			}
		case ir.Export:
			if m.sink != nil {
				m.expReq.Mask = exec & live
				if err := m.sink.Export(&m.expReq); err != nil {
					m.save(pc, exec, live, killed, callRet, top, steps, laneOps, true)
					return false, err
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
		case ir.VoteAny, ir.VoteAll, ir.VoteEq:
			m.vote(in, exec)
		default:
			if cs[pc].lanes == nil {
				m.alu(in, exec)
			} else {
				m.runBlock(pc, 1, exec)
			}
		}
		pc++
	}
	m.save(pc, exec, live, killed, callRet, top, steps, laneOps, true)
	return false, nil
}

// save records the warp's state when resume returns.
func (m *Machine) save(pc int, exec, live, killed uint64, callRet int32, top int, steps, laneOps int64, done bool) {
	m.steps, m.laneOps = steps, laneOps
	m.st = runState{pc: pc, exec: exec, live: live, killed: killed, callRet: callRet, top: top, done: done}
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

// vote answers VoteAny, VoteAll or VoteEq over the active lanes: the group is
// the lanes that run the instruction together (ir.VoteAny). Every active lane
// gets the same answer.
func (m *Machine) vote(in *ir.Inst, exec uint64) {
	s, d := m.reg(in.Src[0]), m.reg(in.Dst)
	var set uint64
	for mm := exec; mm != 0; mm &= mm - 1 {
		if l := bits.TrailingZeros64(mm); s[l] != 0 {
			set |= 1 << l
		}
	}
	var r uint32
	switch in.Op {
	case ir.VoteAny:
		r = b2u(set != 0)
	case ir.VoteAll:
		r = b2u(set == exec)
	default:
		r = b2u(set == 0 || set == exec)
	}
	for mm := exec; mm != 0; mm &= mm - 1 {
		d[bits.TrailingZeros64(mm)] = r
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
