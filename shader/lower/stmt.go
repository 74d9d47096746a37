package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

func (l *lowerer) block(bl *ast.Block) {
	for _, s := range bl.Stmts {
		l.stmt(s)
	}
}

func (l *lowerer) stmt(s ast.Stmt) {
	b := l.b
	switch x := s.(type) {
	case nil:
	case *ast.Block:
		l.block(x)
	case *ast.EmptyStmt:
	case *ast.ExprStmt:
		if x.X != nil {
			l.expr(x.X)
		}
	case *ast.DeclStmt:
		l.localDecl(x.Decl)
	case *ast.IfStmt:
		if cv := x.Cond.Value(); cv != nil {
			// A constant condition: only the taken branch exists (a call in the
			// dead one may name a function that is never defined).
			if cv.Bool(0) {
				l.stmt(x.Then)
			} else if x.Else != nil {
				l.stmt(x.Else)
			}
			return
		}
		c := l.expr(x.Cond).r[0]
		b.Ctl(ir.If, c)
		l.stmt(x.Then)
		if x.Else != nil {
			b.Ctl(ir.Else)
			l.stmt(x.Else)
		}
		b.Ctl(ir.EndIf)
	case *ast.ForStmt:
		l.stmt(x.Init)
		b.Ctl(ir.Loop)
		l.breakIfFalse(x.Cond)
		l.loopBody(x.Body)
		if x.Post != nil {
			b.Ctl(ir.Continuing)
			l.expr(x.Post)
		}
		b.Ctl(ir.EndLoop)
	case *ast.WhileStmt:
		b.Ctl(ir.Loop)
		l.breakIfFalse(x.Cond)
		l.loopBody(x.Body)
		b.Ctl(ir.EndLoop)
	case *ast.DoStmt:
		b.Ctl(ir.Loop)
		l.loopBody(x.Body)
		b.Ctl(ir.Continuing)
		l.breakIfFalse(x.Cond)
		b.Ctl(ir.EndLoop)
	case *ast.SwitchStmt:
		l.switchStmt(x)
	case *ast.BranchStmt:
		switch x.Kind {
		case ast.Break:
			b.Ctl(ir.Break)
		case ast.Continue:
			l.continueStmt()
		case ast.Discard:
			if l.stage != ast.StageFragment {
				l.errorf(x.Pos(), "discard outside a fragment shader")
				return
			}
			b.Ctl(ir.Discard)
		}
	case *ast.ReturnStmt:
		if x.Result != nil {
			v := l.expr(x.Result)
			for k, r := range v.r {
				if k < len(l.fn.ret) {
					b.OpTo(ir.Mov, l.fn.ret[k], r)
				}
			}
		}
		b.Ctl(ir.Return)
	case *ast.CaseStmt:
		l.errorf(x.Pos(), "case label outside a switch")
	default:
		l.errorf(s.Pos(), "cannot lower statement")
	}
}

// breakIfFalse emits "if !cond break" (nothing for a missing condition).
func (l *lowerer) breakIfFalse(cond ast.Expr) {
	if cond == nil {
		return
	}
	if cv := cond.Value(); cv != nil && cv.Bool(0) {
		return
	}
	c := l.expr(cond).r[0]
	l.b.Ctl(ir.If, l.b.Op(ir.BNot, ir.Bool, c))
	l.b.Ctl(ir.Break)
	l.b.Ctl(ir.EndIf)
}

func (l *lowerer) loopBody(body ast.Stmt) {
	l.fn.breaks = append(l.fn.breaks, breakable{})
	l.stmt(body)
	l.fn.breaks = l.fn.breaks[:len(l.fn.breaks)-1]
}

// continueStmt continues the innermost loop; inside a switch (lowered as a one-trip
// loop) it sets the switch's flag and leaves the switch, which re-issues the
// continue after it.
func (l *lowerer) continueStmt() {
	if n := len(l.fn.breaks); n > 0 && l.fn.breaks[n-1].isSwitch {
		br := l.fn.breaks[n-1]
		l.b.OpTo(ir.Mov, br.cont, l.b.ConstB(true))
		l.b.Ctl(ir.Break)
		return
	}
	l.b.Ctl(ir.Continue)
}

// switchStmt lowers switch as a one-trip loop: case bodies run in order from the
// first matching label (fallthrough), break leaves the loop, default matches when
// no case value does. spec: GLSL 4.50 §6.2.
func (l *lowerer) switchStmt(x *ast.SwitchStmt) {
	b := l.b
	tag := l.expr(x.Tag)
	// Any-case-matched flag for default.
	var matchedAny ir.Reg = ir.NoReg
	for _, s := range x.Body.Stmts {
		if c, ok := s.(*ast.CaseStmt); ok && c.Value != nil {
			e := l.equal(tag, l.expr(c.Value))
			if matchedAny == ir.NoReg {
				matchedAny = e
			} else {
				matchedAny = b.Op(ir.BOr, ir.Bool, matchedAny, e)
			}
		}
	}
	fall := b.ConstB(false)
	contFlag := b.ConstB(false)
	inLoop := false
	for _, br := range l.fn.breaks {
		if !br.isSwitch {
			inLoop = true
		}
	}
	b.Ctl(ir.Loop)
	l.fn.breaks = append(l.fn.breaks, breakable{isSwitch: true, cont: contFlag})
	open := false
	for _, s := range x.Body.Stmts {
		c, ok := s.(*ast.CaseStmt)
		if !ok {
			if open {
				l.stmt(s)
			}
			continue
		}
		if open {
			b.Ctl(ir.EndIf)
		}
		var m ir.Reg
		if c.Value != nil {
			m = l.equal(tag, l.expr(c.Value))
		} else if matchedAny != ir.NoReg {
			m = b.Op(ir.BNot, ir.Bool, matchedAny)
		} else {
			m = b.ConstB(true)
		}
		b.OpTo(ir.BOr, fall, fall, m)
		b.Ctl(ir.If, fall)
		open = true
	}
	if open {
		b.Ctl(ir.EndIf)
	}
	b.Ctl(ir.Break)
	l.fn.breaks = l.fn.breaks[:len(l.fn.breaks)-1]
	b.Ctl(ir.EndLoop)
	if inLoop {
		b.Ctl(ir.If, contFlag)
		l.continueStmt()
		b.Ctl(ir.EndIf)
	}
}

// localDecl allocates and initialises local variables.
func (l *lowerer) localDecl(d ast.Decl) {
	g, ok := d.(*ast.DeclGroup)
	if !ok {
		return // struct definitions, precision statements
	}
	for _, vs := range g.Vars {
		if vs.Var == nil {
			continue
		}
		l.noteSize(vs.Var, vs.Init)
		st := l.storageOf(vs.Var)
		if st.isSamp {
			l.errorf(vs.NamePos, "local sampler variables are not supported")
			continue
		}
		switch {
		case vs.Init != nil:
			v := l.expr(vs.Init)
			l.store(l.whole(st), v)
		case vs.Var.ConstValue != nil:
			l.store(l.whole(st), l.constValue(vs.Var.Type, vs.Var.ConstValue))
		}
	}
}
