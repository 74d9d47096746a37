package parser

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/preproc"
)

// block parses { statements }. newScope opens a scope for struct names.
func (p *parser) block(newScope bool) *ast.Block {
	b := &ast.Block{Lbrace: p.expect("{")}
	if newScope {
		p.openScope()
		defer p.closeScope()
	}
	for !p.is("}") {
		if p.tok.Kind == preproc.EOF {
			p.fail(p.tok.Pos, "syntax error: unexpected end of file, expected '}'")
		}
		b.Stmts = append(b.Stmts, p.stmt())
	}
	p.next()
	return b
}

// startsDecl reports whether the statement at the current token is a declaration.
func (p *parser) startsDecl() bool {
	t := p.tok
	if p.isQualifierTok(t) || p.isKw("precision") || p.isKw("struct") {
		return true
	}
	if !p.isTypeName(t) {
		return false
	}
	n := p.peek(1)
	if n.Kind == preproc.Ident {
		return true
	}
	if n.Kind == preproc.Punct && n.Text == "[" {
		depth := 0
		for k := 1; ; k++ {
			u := p.peek(k)
			if u.Kind == preproc.EOF {
				return false
			}
			if u.Kind == preproc.Punct && u.Text == "[" {
				depth++
			}
			if u.Kind == preproc.Punct && u.Text == "]" {
				depth--
				if depth == 0 {
					nn := p.peek(k + 1)
					if nn.Kind == preproc.Punct && nn.Text == "[" {
						continue
					}
					return nn.Kind == preproc.Ident
				}
			}
		}
	}
	return false
}

func (p *parser) stmt() ast.Stmt {
	p.enter()
	defer p.leave()
	p.links = 0
	t := p.tok
	if t.Kind == preproc.Punct {
		switch t.Text {
		case "{":
			return p.block(true)
		case ";":
			p.next()
			return &ast.EmptyStmt{Semi: t.Pos}
		}
	}
	if t.Kind == preproc.Ident && p.isKeyword(t.Text) {
		switch t.Text {
		case "if":
			p.next()
			p.expect("(")
			s := &ast.IfStmt{IfPos: t.Pos, Cond: p.expr()}
			p.expect(")")
			s.Then = p.scopedStmt()
			if p.isKw("else") {
				p.next()
				s.Else = p.scopedStmt()
			}
			return s
		case "for":
			p.next()
			p.expect("(")
			p.openScope()
			defer p.closeScope()
			s := &ast.ForStmt{ForPos: t.Pos}
			if !p.is(";") {
				if p.startsDecl() {
					s.Init = &ast.DeclStmt{Decl: p.declaration(false)}
				} else {
					s.Init = &ast.ExprStmt{X: p.expr()}
					p.expect(";")
				}
			} else {
				p.next()
			}
			var condDecl *ast.DeclStmt
			if !p.is(";") {
				s.Cond, condDecl = p.condition()
			}
			p.expect(";")
			if !p.is(")") {
				s.Post = p.expr()
			}
			p.expect(")")
			s.Body = p.bodyStmt()
			if condDecl != nil {
				s.Body = declLoopBody(condDecl, s.Body)
			}
			return s
		case "while":
			p.next()
			p.expect("(")
			p.openScope()
			defer p.closeScope()
			cond, condDecl := p.condition()
			s := &ast.WhileStmt{WhilePos: t.Pos, Cond: cond}
			p.expect(")")
			s.Body = p.bodyStmt()
			if condDecl != nil {
				// while (T x = e) body  ==  for (;;) { T x = e; if (x) ; else break; body }
				return &ast.ForStmt{ForPos: t.Pos, Body: declLoopBody(condDecl, s.Body)}
			}
			return s
		case "do":
			p.next()
			s := &ast.DoStmt{DoPos: t.Pos, Body: p.scopedStmt()}
			if !p.isKw("while") {
				p.fail(p.tok.Pos, "syntax error: expected 'while' after do body, found %s", p.describe(p.tok))
			}
			p.next()
			p.expect("(")
			s.Cond = p.expr()
			p.expect(")")
			p.expect(";")
			return s
		case "switch":
			p.next()
			p.expect("(")
			s := &ast.SwitchStmt{SwitchPos: t.Pos, Tag: p.expr()}
			p.expect(")")
			s.Body = p.block(true)
			return s
		case "case":
			p.next()
			s := &ast.CaseStmt{CasePos: t.Pos, Value: p.expr()}
			p.expect(":")
			return s
		case "default":
			p.next()
			p.expect(":")
			return &ast.CaseStmt{CasePos: t.Pos}
		case "break", "continue", "discard":
			p.next()
			p.expect(";")
			k := map[string]ast.BranchKind{"break": ast.Break, "continue": ast.Continue, "discard": ast.Discard}[t.Text]
			return &ast.BranchStmt{TokPos: t.Pos, Kind: k}
		case "return":
			p.next()
			s := &ast.ReturnStmt{ReturnPos: t.Pos}
			if !p.is(";") {
				s.Result = p.expr()
			}
			p.expect(";")
			return s
		}
	}
	if p.startsDecl() {
		return &ast.DeclStmt{Decl: p.declaration(false)}
	}
	x := p.expr()
	p.expect(";")
	return &ast.ExprStmt{X: x}
}

// condition parses a loop condition: an expression, or a declaration
// "type name = initializer" (spec: GLSL 4.50 §6.3), returned as a DeclStmt with a
// nil expression; the loop then tests the declared variable each iteration.
func (p *parser) condition() (ast.Expr, *ast.DeclStmt) {
	if !p.startsDecl() {
		return p.expr(), nil
	}
	q := p.qualifiers()
	g := &ast.DeclGroup{Qual: q, Type: p.typeSpec(q.Precision)}
	vs := &ast.VarSpec{}
	vs.Name, vs.NamePos = p.ident()
	p.typeNames[len(p.typeNames)-1][vs.Name] = false
	p.expect("=")
	vs.Init = p.assignExpr()
	g.Vars = []*ast.VarSpec{vs}
	return nil, &ast.DeclStmt{Decl: g}
}

// declLoopBody builds the body of a loop whose condition declares a variable:
// { decl; if (name) ; else break; body }. A continue in body still re-evaluates the
// declaration (and runs a for loop's post expression) before the next test.
func declLoopBody(d *ast.DeclStmt, body ast.Stmt) ast.Stmt {
	vs := d.Decl.(*ast.DeclGroup).Vars[0]
	test := &ast.IfStmt{IfPos: vs.NamePos,
		Cond: &ast.Ident{NamePos: vs.NamePos, Name: vs.Name},
		Then: &ast.EmptyStmt{Semi: vs.NamePos},
		Else: &ast.BranchStmt{TokPos: vs.NamePos, Kind: ast.Break}}
	return &ast.Block{Lbrace: d.Pos(), Stmts: []ast.Stmt{d, test, body}}
}

// scopedStmt parses a sub-statement that gets its own scope.
func (p *parser) scopedStmt() ast.Stmt {
	p.openScope()
	defer p.closeScope()
	return p.stmt()
}

// bodyStmt parses a loop body (a compound body shares the loop's scope in GLSL,
// but nested struct names are still scoped).
func (p *parser) bodyStmt() ast.Stmt {
	if p.is("{") {
		return p.block(true)
	}
	return p.stmt()
}
