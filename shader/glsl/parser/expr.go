package parser

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/preproc"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// maxDepth bounds expression and statement nesting so hostile input cannot exhaust
// the stack.
const maxDepth = 400

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.tok.Pos, "expression or statement nesting too deep")
	}
}

func (p *parser) leave() { p.depth-- }

// maxLinks bounds the operators one statement or external declaration may chain
// (a + b + ..., a[i].x..., a, b, ...). The parser builds such chains in a loop, so
// maxDepth does not see them, but the checker and lowering walk the tree they make
// recursively: an unbounded chain would exhaust their stack. Every expression tree
// lies within one statement or declaration, so its depth stays below
// maxDepth + maxLinks.
const maxLinks = 20000

// link counts one chained operator at pos.
func (p *parser) link(pos ast.Pos) {
	p.links++
	if p.links > maxLinks {
		p.fail(pos, "expression too long: more than %d chained operators in one statement", maxLinks)
	}
}

// expr parses a full expression including the comma operator.
func (p *parser) expr() ast.Expr {
	x := p.assignExpr()
	for p.is(",") {
		pos := p.tok.Pos
		p.link(pos)
		p.next()
		y := p.assignExpr()
		x = &ast.Binary{OpPos: pos, Op: ast.OpComma, X: x, Y: y}
	}
	return x
}

var assignOps = map[string]ast.Op{
	"=": ast.OpAssign, "+=": ast.OpAdd, "-=": ast.OpSub, "*=": ast.OpMul, "/=": ast.OpDiv,
	"%=": ast.OpMod, "<<=": ast.OpShl, ">>=": ast.OpShr, "&=": ast.OpBitAnd, "^=": ast.OpBitXor,
	"|=": ast.OpBitOr,
}

func (p *parser) assignExpr() ast.Expr {
	p.enter()
	defer p.leave()
	x := p.condExpr()
	if p.tok.Kind == preproc.Punct {
		if op, ok := assignOps[p.tok.Text]; ok {
			pos := p.tok.Pos
			p.next()
			y := p.assignExpr()
			return &ast.Assign{OpPos: pos, Op: op, LHS: x, RHS: y}
		}
	}
	return x
}

func (p *parser) condExpr() ast.Expr {
	p.enter()
	defer p.leave()
	x := p.binaryExpr(1)
	if p.is("?") {
		pos := p.tok.Pos
		p.next()
		a := p.expr()
		p.expect(":")
		b := p.assignExpr()
		return &ast.Cond{QPos: pos, Cond: x, Then: a, Else: b}
	}
	return x
}

type binOp struct {
	prec int
	op   ast.Op
}

var binOps = map[string]binOp{
	"||": {1, ast.OpLogOr}, "^^": {2, ast.OpLogXor}, "&&": {3, ast.OpLogAnd},
	"|": {4, ast.OpBitOr}, "^": {5, ast.OpBitXor}, "&": {6, ast.OpBitAnd},
	"==": {7, ast.OpEq}, "!=": {7, ast.OpNe},
	"<": {8, ast.OpLt}, ">": {8, ast.OpGt}, "<=": {8, ast.OpLe}, ">=": {8, ast.OpGe},
	"<<": {9, ast.OpShl}, ">>": {9, ast.OpShr},
	"+": {10, ast.OpAdd}, "-": {10, ast.OpSub},
	"*": {11, ast.OpMul}, "/": {11, ast.OpDiv}, "%": {11, ast.OpMod},
}

func (p *parser) binaryExpr(minPrec int) ast.Expr {
	x := p.unaryExpr()
	for {
		if p.tok.Kind != preproc.Punct {
			return x
		}
		b, ok := binOps[p.tok.Text]
		if !ok || b.prec < minPrec {
			return x
		}
		pos := p.tok.Pos
		p.link(pos)
		p.next()
		y := p.binaryExpr(b.prec + 1)
		x = &ast.Binary{OpPos: pos, Op: b.op, X: x, Y: y}
	}
}

func (p *parser) unaryExpr() ast.Expr {
	p.enter()
	defer p.leave()
	if p.tok.Kind == preproc.Punct {
		var op ast.Op
		switch p.tok.Text {
		case "-":
			op = ast.OpNeg
		case "+":
			op = ast.OpPlus
		case "!":
			op = ast.OpNot
		case "~":
			op = ast.OpBitNot
		case "++":
			op = ast.OpPreInc
		case "--":
			op = ast.OpPreDec
		}
		if op != ast.OpInvalid {
			pos := p.tok.Pos
			p.next()
			x := p.unaryExpr()
			return &ast.Unary{OpPos: pos, Op: op, X: x}
		}
	}
	return p.postfixExpr()
}

func (p *parser) postfixExpr() ast.Expr {
	x := p.primaryExpr()
	for ; ; p.link(p.tok.Pos) {
		switch {
		case p.is("["):
			pos := p.tok.Pos
			p.next()
			idx := p.expr()
			p.expect("]")
			x = &ast.Index{LbrackPos: pos, X: x, Index: idx}
		case p.is("."):
			pos := p.tok.Pos
			p.next()
			if p.tok.Kind != preproc.Ident {
				p.fail(p.tok.Pos, "syntax error: expected field name after '.', found %s", p.describe(p.tok))
			}
			name, npos := p.tok.Text, p.tok.Pos
			p.next()
			if p.is("(") {
				p.next()
				c := &ast.Call{NamePos: npos, Name: name, Method: x}
				c.Args = p.callArgs()
				c.Rparen = p.expect(")")
				x = c
				continue
			}
			x = &ast.Selector{DotPos: pos, X: x, Name: name, Field: -1}
		case p.is("++"), p.is("--"):
			op := ast.OpPostInc
			if p.tok.Text == "--" {
				op = ast.OpPostDec
			}
			x = &ast.Unary{OpPos: p.tok.Pos, Op: op, X: x, Postfix: true}
			p.next()
		default:
			return x
		}
	}
}

func (p *parser) callArgs() []ast.Expr {
	var args []ast.Expr
	if p.isKw("void") && p.peek(1).Text == ")" {
		p.next()
		return nil
	}
	for !p.is(")") {
		args = append(args, p.assignExpr())
		if !p.got(",") {
			if !p.is(")") {
				p.fail(p.tok.Pos, "syntax error: expected ',' or ')' in argument list, found %s", p.describe(p.tok))
			}
			break
		}
		if p.is(")") {
			p.fail(p.tok.Pos, "syntax error: expected argument after ','")
		}
	}
	return args
}

func (p *parser) primaryExpr() ast.Expr {
	t := p.tok
	switch t.Kind {
	case preproc.Number:
		p.next()
		return p.literal(t)
	case preproc.Punct:
		if t.Text == "(" {
			p.next()
			x := p.expr()
			p.expect(")")
			return x
		}
	case preproc.Ident:
		if (t.Text == "true" || t.Text == "false") && p.isKeyword(t.Text) {
			p.next()
			return &ast.Literal{ValuePos: t.Pos, Kind: ast.LitBool, Raw: t.Text}
		}
		if p.isTypeName(t) {
			if t.Text == "struct" {
				p.fail(t.Pos, "syntax error: unexpected 'struct' in expression")
			}
			ts := &ast.TypeSpec{NamePos: t.Pos, Name: t.Text}
			p.next()
			ts.Dims = p.arrayDims()
			if !p.is("(") {
				p.fail(p.tok.Pos, "syntax error: expected '(' after type name '%s' in expression, found %s", t.Text, p.describe(p.tok))
			}
			p.next()
			c := &ast.Call{NamePos: t.Pos, Name: t.Text, TypeSpec: ts}
			c.Args = p.callArgs()
			c.Rparen = p.expect(")")
			return c
		}
		if p.isKeyword(t.Text) {
			p.fail(t.Pos, "syntax error: unexpected keyword '%s'", t.Text)
		}
		name, pos := p.ident()
		if p.is("(") {
			p.next()
			c := &ast.Call{NamePos: pos, Name: name}
			c.Args = p.callArgs()
			c.Rparen = p.expect(")")
			return c
		}
		return &ast.Ident{NamePos: pos, Name: name}
	}
	p.fail(t.Pos, "syntax error: unexpected %s", p.describe(t))
	return nil
}

// literal classifies and validates a numeric literal. spec: GLSL 4.50 §4.1.3-§4.1.4.
func (p *parser) literal(t preproc.Token) ast.Expr {
	s := t.Text
	lit := &ast.Literal{ValuePos: t.Pos, Raw: s}
	isHex := len(s) > 1 && s[0] == '0' && (s[1]|0x20) == 'x'
	isFloat := false
	if !isHex {
		for i := 0; i < len(s); i++ {
			if s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'f' || s[i] == 'F' {
				isFloat = true
			}
		}
	}
	if isFloat {
		lit.Kind = ast.LitFloat
		body := s
		if n := len(body); n > 0 && (body[n-1] == 'f' || body[n-1] == 'F') {
			body = body[:n-1]
		}
		if !validFloat(body) {
			p.fail(t.Pos, "invalid floating-point literal %s", s)
		}
		return lit
	}
	lit.Kind = ast.LitInt
	body := s
	if n := len(body); n > 0 && (body[n-1] == 'u' || body[n-1] == 'U') {
		if !p.lang.atLeast(130, 300) {
			p.fail(t.Pos, "unsigned integer literal requires GLSL 1.30")
		}
		lit.Kind = ast.LitUint
		body = body[:n-1]
	}
	if !validInt(body) {
		p.fail(t.Pos, "invalid integer literal %s", s)
	}
	return lit
}

func validFloat(s string) bool {
	i, digits := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	dot := false
	if i < len(s) && s[i] == '.' {
		dot = true
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp = true
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := 0
		for i < len(s) && isDigit(s[i]) {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s) && (dot || exp)
}

func validInt(s string) bool {
	if s == "" {
		return false
	}
	if len(s) > 1 && s[0] == '0' && (s[1]|0x20) == 'x' {
		if len(s) == 2 {
			return false
		}
		for i := 2; i < len(s); i++ {
			c := s[i] | 0x20
			if !isDigit(s[i]) && (c < 'a' || c > 'f') {
				return false
			}
		}
		return true
	}
	octal := s[0] == '0'
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || octal && s[i] > '7' {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
