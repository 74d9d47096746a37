package codegen

import (
	"fmt"

	"vortexgfx/shader/ir"
)

// nodeKind is the shape of one node of a program's structured control tree.
type nodeKind uint8

const (
	nInst     nodeKind = iota // a straight-line instruction
	nIf                       // if cond { body } else { els }
	nLoop                     // loop { body } continuing { els }
	nScope                    // an inlined function body: Return leaves it
	nBreak                    // leave the innermost loop
	nContinue                 // go to the innermost loop's continue block
	nReturn                   // leave the innermost scope
	nGuard                    // run body only in the lanes still live here (see guard)
	nDiscard                  // end the lane: leave every loop and scope (fragment discard)
)

// node is one node of the control tree. The IR's flat structured code (If / Else /
// EndIf, Loop / Continuing / EndLoop, Scope / EndScope) is parsed into it once, so
// that the generator sees each construct whole.
type node struct {
	kind nodeKind
	pc   int // the IR instruction it came from (errors name it)
	in   *ir.Inst
	body []*node
	els  []*node
	// tok is the virtual register holding the vx_split token of an If or a Guard;
	// for a loop, tok is its entry mask and state its per-lane state word (0
	// running, 1 continued, 2 left); for a scope, state is its returned flag.
	tok, state vreg
	exits      bool // a Break, Continue or Return inside can end the enclosing context's lanes
	hasCont    bool // loops: a Continue targets this loop
}

// parse builds the control tree of code[pc:] up to (not including) the first of
// the closing opcodes in stop, returning the nodes and the pc of that closer.
func parse(code []ir.Inst, pc int, stop ...ir.Op) ([]*node, int, error) {
	var out []*node
	for pc < len(code) {
		in := &code[pc]
		for _, s := range stop {
			if in.Op == s {
				return out, pc, nil
			}
		}
		n := &node{pc: pc, in: in}
		var err error
		switch in.Op {
		case ir.If:
			n.kind = nIf
			if n.body, pc, err = parse(code, pc+1, ir.Else, ir.EndIf); err != nil {
				return nil, 0, err
			}
			if code[pc].Op == ir.Else {
				if n.els, pc, err = parse(code, pc+1, ir.EndIf); err != nil {
					return nil, 0, err
				}
			}
		case ir.Loop:
			n.kind = nLoop
			if n.body, pc, err = parse(code, pc+1, ir.Continuing, ir.EndLoop); err != nil {
				return nil, 0, err
			}
			if code[pc].Op == ir.Continuing {
				if n.els, pc, err = parse(code, pc+1, ir.EndLoop); err != nil {
					return nil, 0, err
				}
			}
		case ir.Scope:
			n.kind = nScope
			if n.body, pc, err = parse(code, pc+1, ir.EndScope); err != nil {
				return nil, 0, err
			}
		case ir.Break:
			n.kind = nBreak
		case ir.Continue:
			n.kind = nContinue
		case ir.Return:
			n.kind = nReturn
		case ir.Discard:
			n.kind = nDiscard
		case ir.Else, ir.EndIf, ir.Continuing, ir.EndLoop, ir.EndScope:
			return nil, 0, fmt.Errorf("codegen: main@%d: unmatched %s", pc, in.Op)
		case ir.Call:
			return nil, 0, fmt.Errorf("codegen: main@%d: call: the program is not inlined", pc)
		default:
			n.kind = nInst
		}
		out = append(out, n)
		pc++
	}
	if len(stop) > 0 {
		return nil, 0, fmt.Errorf("codegen: main@%d: unterminated construct (want %v)", pc, stop)
	}
	return out, pc, nil
}

// mark computes exits and hasCont bottom up and wraps the code after every node that
// can end lanes into guards. inLoop says whether Break/Continue here target a loop
// of the current scope; loop is that loop.
func (g *gen) mark(nodes []*node, loop *node) []*node {
	for _, n := range nodes {
		switch n.kind {
		case nInst:
			g.use(n.in)
		case nBreak, nReturn, nDiscard:
			n.exits = true
		case nContinue:
			n.exits = true
			if loop != nil {
				loop.hasCont = true
			}
		case nIf:
			g.use(n.in)
			n.body = g.mark(n.body, loop)
			n.els = g.mark(n.els, loop)
			n.exits = anyExits(n.body) || anyExits(n.els)
			n.tok = g.newVreg(false, 2)
		case nLoop:
			outer := g.wscale
			g.wscale = min(g.wscale*8, 1<<20)
			n.body = g.mark(n.body, n)
			n.els = g.mark(n.els, n)
			if len(n.els) > 0 && anyExits(n.body) {
				// lanes that left the loop must not run its continue block
				n.els = []*node{{kind: nGuard, pc: n.els[0].pc, tok: g.newVreg(false, 2), body: n.els, exits: anyExits(n.els)}}
			}
			g.wscale = outer
			n.exits = hasReturn(n.body) || hasReturn(n.els) || hasDiscard(n.body) || hasDiscard(n.els)
			n.tok = g.newVreg(false, 4)
			n.state = g.newVreg(false, 16)
		case nScope:
			n.body = g.mark(n.body, nil)
			n.exits = hasDiscard(n.body) // a discard inside ends the lane past the scope too
			if hasReturn(n.body) || n.exits {
				n.state = g.newVreg(false, 8)
			} else {
				n.state = noVreg
			}
		}
	}
	return g.guard(nodes)
}

// guard splits a block at each node that can end lanes: the nodes after it run in a
// Guard (a vx_split on "this lane is still live" and its join), one Guard per
// segment so the IPDOM depth does not grow with the number of exits.
func (g *gen) guard(nodes []*node) []*node {
	var out []*node
	var cur *node
	for i, n := range nodes {
		if cur != nil {
			cur.body = append(cur.body, n)
		} else {
			out = append(out, n)
		}
		if n.exits && i+1 < len(nodes) {
			cur = &node{kind: nGuard, pc: nodes[i+1].pc, tok: g.newVreg(false, 2), exits: true}
			out = append(out, cur)
		}
	}
	return out
}

func anyExits(ns []*node) bool {
	for _, n := range ns {
		if n.exits {
			return true
		}
	}
	return false
}

// hasReturn reports whether a Return inside ns (outside nested scopes) can run.
func hasReturn(ns []*node) bool {
	for _, n := range ns {
		switch n.kind {
		case nReturn:
			return true
		case nIf, nLoop, nGuard:
			if hasReturn(n.body) || hasReturn(n.els) {
				return true
			}
		}
	}
	return false
}

// hasDiscard reports whether a Discard inside ns (nested scopes included) can run.
func hasDiscard(ns []*node) bool {
	for _, n := range ns {
		switch n.kind {
		case nDiscard:
			return true
		case nIf, nLoop, nGuard, nScope:
			if hasDiscard(n.body) || hasDiscard(n.els) {
				return true
			}
		}
	}
	return false
}
