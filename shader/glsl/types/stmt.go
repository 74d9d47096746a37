package types

import (
	"vortexgfx/shader/glsl/ast"
)

// stmt checks a statement. spec: GLSL 4.50 §6.
func (c *checker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.Block:
		c.openScope()
		for _, x := range s.Stmts {
			c.stmt(x)
		}
		c.closeScope()
	case *ast.DeclStmt:
		switch d := s.Decl.(type) {
		case *ast.DeclGroup:
			c.declGroup(d, false)
		case *ast.PrecisionDecl:
			c.precisionDecl(d)
		case *ast.QualDecl:
			if q := d.Qual; q.Precise && !q.Invariant && q.Storage == ast.StorageNone && len(d.Names) > 0 {
				c.preciseDecl(d) // spec: ARB_gpu_shader5 §4.7 (any scope)
				break
			}
			c.errorf(d.Pos(), "qualifier-only declarations are only allowed at global scope")
		case *ast.BlockDecl:
			c.errorf(d.Pos(), "interface blocks are only allowed at global scope")
		}
	case *ast.ExprStmt:
		s.X = c.expr(s.X)
	case *ast.EmptyStmt:
	case *ast.IfStmt:
		s.Cond = c.boolCond(s.Cond, "if")
		v := s.Cond.Value()
		c.openScope()
		c.deadIf(v != nil && !v.Bool(0), func() { c.stmt(s.Then) })
		c.closeScope()
		if s.Else != nil {
			c.openScope()
			c.deadIf(v != nil && v.Bool(0), func() { c.stmt(s.Else) })
			c.closeScope()
		}
	case *ast.ForStmt:
		c.openScope()
		if s.Init != nil {
			c.stmt(s.Init)
		}
		if s.Cond != nil {
			s.Cond = c.boolCond(s.Cond, "for")
		}
		if s.Post != nil {
			s.Post = c.expr(s.Post)
		}
		c.loopBody(s.Body)
		c.closeScope()
	case *ast.WhileStmt:
		c.openScope()
		s.Cond = c.boolCond(s.Cond, "while")
		c.loopBody(s.Body)
		c.closeScope()
	case *ast.DoStmt:
		c.openScope()
		c.loopBody(s.Body)
		c.closeScope()
		s.Cond = c.boolCond(s.Cond, "do-while")
	case *ast.SwitchStmt:
		c.switchStmt(s)
	case *ast.CaseStmt:
		c.errorf(s.CasePos, "case label outside of a switch statement")
	case *ast.BranchStmt:
		switch s.Kind {
		case ast.Break:
			if len(c.breakable) == 0 {
				c.errorf(s.TokPos, "break statement outside of a loop or switch")
			}
		case ast.Continue:
			if c.loops == 0 {
				c.errorf(s.TokPos, "continue statement outside of a loop")
			}
		case ast.Discard:
			if c.conf.Stage != ast.StageFragment {
				c.errorf(s.TokPos, "discard is only allowed in fragment shaders")
			}
		}
	case *ast.ReturnStmt:
		c.returnStmt(s)
	}
}

// deadIf runs fn, counting it as unreachable code when dead is true.
func (c *checker) deadIf(dead bool, fn func()) {
	if dead {
		c.dead++
		defer func() { c.dead-- }()
	}
	fn()
}

func (c *checker) loopBody(body ast.Stmt) {
	c.loops++
	c.breakable = append(c.breakable, true)
	if b, ok := body.(*ast.Block); ok {
		// A compound loop body does not open a new scope beyond the loop's.
		// spec: GLSL 4.50 §6.3.
		c.openScope()
		for _, x := range b.Stmts {
			c.stmt(x)
		}
		c.closeScope()
	} else {
		c.openScope()
		c.stmt(body)
		c.closeScope()
	}
	c.breakable = c.breakable[:len(c.breakable)-1]
	c.loops--
}

func (c *checker) boolCond(e ast.Expr, what string) ast.Expr {
	x := c.expr(e)
	t := x.Type()
	if !t.IsInvalid() && !(t.IsScalar() && t.Base == ast.Bool) {
		c.errorf(e.Pos(), "%s condition must be a scalar bool, not %s", what, t)
	}
	return x
}

func (c *checker) switchStmt(s *ast.SwitchStmt) {
	s.Tag = c.expr(s.Tag)
	t := s.Tag.Type()
	if !t.IsInvalid() && !(t.IsScalar() && (t.Base == ast.Int || t.Base == ast.Uint)) {
		c.errorf(s.Tag.Pos(), "switch expression must be a scalar integer, not %s", t)
	}
	c.breakable = append(c.breakable, false)
	c.openScope()
	seen := map[uint32]bool{}
	sawDefault := false
	for i, st := range s.Body.Stmts {
		cs, ok := st.(*ast.CaseStmt)
		if !ok {
			if i == 0 {
				c.errorf(st.Pos(), "statement before the first case label in switch")
			}
			c.stmt(st)
			continue
		}
		if cs.Value == nil {
			if sawDefault {
				c.errorf(cs.CasePos, "multiple default labels in one switch")
			}
			sawDefault = true
			continue
		}
		x := c.expr(cs.Value)
		cs.Value = x
		xt := x.Type()
		if xt.IsInvalid() {
			continue
		}
		if x.Value() == nil || !xt.IsScalar() || (xt.Base != ast.Int && xt.Base != ast.Uint) {
			c.errorf(cs.Value.Pos(), "case label must be a scalar integer constant expression")
			continue
		}
		if !t.IsInvalid() && xt.Base != t.Base {
			if c.canConvert(xt, t) || c.canConvert(t, xt) {
				cs.Value = c.convertTo(x, t, cs.Value.Pos(), "case label")
			} else {
				c.errorf(cs.Value.Pos(), "case label type %s does not match switch type %s", xt, t)
				continue
			}
		}
		w := x.Value().Uint(0)
		if seen[w] {
			c.errorf(cs.Value.Pos(), "duplicate case value %s", x.Value())
		}
		seen[w] = true
	}
	if n := len(s.Body.Stmts); n > 0 {
		if _, ok := s.Body.Stmts[n-1].(*ast.CaseStmt); ok {
			c.errorf(s.Body.Stmts[n-1].Pos(), "switch must not end with a case label")
		}
	}
	c.closeScope()
	c.breakable = c.breakable[:len(c.breakable)-1]
}

func (c *checker) returnStmt(s *ast.ReturnStmt) {
	if c.fn == nil {
		return
	}
	ret := c.fn.Result
	if s.Result == nil {
		if !ret.IsVoid() && !ret.IsInvalid() {
			c.errorf(s.ReturnPos, "function '%s' must return a value of type %s", c.fn.Name, ret)
		}
		return
	}
	x := c.expr(s.Result)
	if ret.IsVoid() {
		if !x.Type().IsInvalid() {
			c.errorf(s.ReturnPos, "void function '%s' cannot return a value", c.fn.Name)
		}
		s.Result = x
		return
	}
	s.Result = c.convertTo(x, ret, s.Result.Pos(), "return from '"+c.fn.Name+"'")
}
