package codegen

import (
	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// Structured control flow on the SIMT core. spec: vortex-hardware-facts.md §6 and
// device/simt (vx_split/vx_join: the IPDOM stack; vx_pred: narrow the thread mask
// or take the fallback mask when no lane passes).
//
//   - if/else: vx_split on the condition (each half then branches uniformly), the
//     else half resumes at the instruction after the split, vx_join at the end.
//   - Lanes that break, continue or return stay in the thread mask but are no
//     longer live: each lane keeps a state word per loop (0 running, 1 continued,
//     2 left) and a returned flag per scope, and every run of code after a node
//     that can end lanes is a guard, a vx_split on "still live" and its join.
//     Guards are siblings, not nested, so the IPDOM depth is the construct depth.
//   - loops: the entry mask is read from the thread-mask CSR; at the bottom,
//     vx_pred on "state = 0" with the entry mask as fallback narrows the warp to
//     the lanes that go round again, or, when none does, restores the entry mask
//     and falls out of the loop.

func (g *gen) block(ns []*node) {
	for _, n := range ns {
		if g.err != nil {
			return
		}
		g.node(n)
	}
}

// innermost returns the innermost enclosing loop or scope.
func (g *gen) innermost() *node { return g.ctx[len(g.ctx)-1] }

// liveFlag returns the virtual register a lane is live by (zero) in the current
// context.
func (g *gen) liveFlag() vreg { return g.innermost().state }

// split emits vx_split on the 0/1 predicate in register c, keeping the token in
// tok, and a branch to els for the lanes where c is 0.
func (g *gen) split(tok vreg, c uint8, els int) {
	d := g.dx(tok)
	g.a.emit(rv32.Inst{Op: rv32.VXSPLIT, Rd: d, Rs1: c})
	g.finX(tok, d)
	g.a.branch(rv32.BEQ, c, rZero, els)
}

func (g *gen) join(tok vreg) {
	g.reset()
	g.a.emit(rv32.Inst{Op: rv32.VXJOIN, Rs1: g.x(tok)})
}

func (g *gen) node(n *node) {
	g.pc = n.pc
	g.reset()
	a := &g.a
	switch n.kind {
	case nInst:
		g.inst(n.in)
	case nIf:
		c := g.x(g.src(n.in, 0))
		t := g.tmpX()
		a.r(rv32.SLTU, t, rZero, c) // vx_split tests bit 0: normalise the bool
		els := a.newLabel()
		g.split(n.tok, t, els)
		b := g.enter()
		g.block(n.body)
		g.leave(b)
		if len(n.els) > 0 {
			end := a.newLabel()
			a.jump(end)
			a.place(els)
			b := g.enter()
			g.block(n.els)
			g.leave(b)
			a.place(end)
		} else {
			a.place(els)
		}
		g.join(n.tok)
	case nGuard:
		live := g.liveFlag()
		if live == noVreg {
			g.fail("internal error: a guard outside a loop or returning scope")
			return
		}
		s := g.x(live)
		t := g.tmpX()
		a.i(rv32.SLTIU, t, s, 1)
		skip := a.newLabel()
		g.split(n.tok, t, skip)
		b := g.enter()
		g.block(n.body)
		g.leave(b)
		a.place(skip)
		g.join(n.tok)
	case nLoop:
		m := g.dx(n.tok)
		a.csrr(m, simt.CSRActiveThread) // the thread mask: the loop's entry lanes
		g.finX(n.tok, m)
		g.setConst(n.state, 0)
		head := a.newLabel()
		a.place(head)
		lb := g.enter()
		lr := loopRange{start: len(g.refs), blk: g.blk}
		g.ctx = append(g.ctx, n)
		b := g.enter()
		g.block(n.body)
		g.leave(b)
		g.pc = n.pc
		if n.hasCont { // continued lanes run the continue block: 1 -> 0, 2 stays
			g.reset()
			s := g.x(n.state)
			d := g.dx(n.state)
			a.i(rv32.ANDI, d, s, 2)
			g.finX(n.state, d)
		}
		b = g.enter()
		g.block(n.els)
		g.leave(b)
		g.ctx = g.ctx[:len(g.ctx)-1]
		g.pc = n.pc
		g.reset()
		s := g.x(n.state)
		t := g.tmpX()
		a.i(rv32.SLTIU, t, s, 1)
		a.emit(rv32.Inst{Op: rv32.VXPRED, Rs1: t, Rs2: g.x(n.tok)})
		a.branch(rv32.BNE, t, rZero, head)
		g.leave(lb)
		lr.end = len(g.refs) - 1
		if g.rec {
			g.loops = append(g.loops, lr)
		}
	case nScope:
		if n.state != noVreg {
			g.setConst(n.state, 0)
		}
		g.ctx = append(g.ctx, n)
		g.block(n.body)
		g.ctx = g.ctx[:len(g.ctx)-1]
	case nBreak, nContinue:
		l := g.innermost()
		if l.kind != nLoop {
			g.fail("%s outside a loop", n.in.Op)
			return
		}
		v := uint32(2)
		if n.kind == nContinue {
			v = 1
		}
		g.setConst(l.state, v)
	case nDiscard:
		// The lane ends: it leaves every enclosing loop and scope.
		for i := len(g.ctx) - 1; i >= 0; i-- {
			c := g.ctx[i]
			v := uint32(2)
			if c.kind == nScope {
				v = 1
			}
			if c.state == noVreg {
				g.fail("internal error: discard in a context without a state")
				return
			}
			g.setConst(c.state, v)
		}
	case nReturn:
		for i := len(g.ctx) - 1; i >= 0; i-- {
			c := g.ctx[i]
			if c.kind == nScope {
				g.setConst(c.state, 1)
				break
			}
			g.setConst(c.state, 2)
		}
	}
}

// inst generates one straight-line instruction or refuses it by name.
func (g *gen) inst(in *ir.Inst) {
	switch {
	case in.Op == ir.Nop:
		return
	case g.fsg != nil && g.fragmentOp(in):
		return
	case in.Op == ir.Tex && g.fsg == nil && g.vs == nil && int(in.Imm) < len(g.p.Tex):
		g.texFetch(&g.p.Tex[in.Imm], abi.ArgCSSWSampler)
		return
	case in.Op == ir.VoteAny || in.Op == ir.VoteAll || in.Op == ir.VoteEq:
		g.vote(in)
		return
	case in.Op.IsPure():
		if g.alu(in) {
			g.flushDst(in)
			return
		}
	default:
		if g.mem(in) {
			return
		}
	}
	g.fail("IR op %s is not implemented by the machine-code backend", in.Op)
}

// vote is vx_vote_any/all/uni on the 0/1 bool: the device votes over the
// running lanes, which are the IR's active lanes since divergent code runs
// under vx_split and guards narrow the thread mask to the live lanes (the
// executor's group, ir.VoteAny).
func (g *gen) vote(in *ir.Inst) {
	op := map[ir.Op]rv32.Op{ir.VoteAny: rv32.VXVOTEANY, ir.VoteAll: rv32.VXVOTEALL, ir.VoteEq: rv32.VXVOTEUNI}[in.Op]
	s := g.x(g.src(in, 0))
	d := g.dx(vreg(in.Dst))
	g.a.emit(rv32.Inst{Op: op, Rd: d, Rs1: s})
	g.finX(vreg(in.Dst), d)
}
