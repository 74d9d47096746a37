package preproc

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// maxExpansion bounds the work of macro expansion (tokens produced, scanned for
// arguments and prescanned), so that exponential or deeply nested macro use fails
// with an error instead of exhausting time or memory.
const maxExpansion = 1 << 19

// expand macro-expands ts (Prosser's algorithm with hide sets). In #if lines
// (inDirective) the result is used for evaluation only.
func (p *pp) expand(ts []Token, inDirective bool) []Token {
	// in is a stack: the next token is at the end, so pushing a replacement list
	// costs only its own length.
	p.budget -= len(ts)
	if p.budget < 0 {
		return p.overflow(ts)
	}
	in := slices.Clone(ts)
	slices.Reverse(in)
	var out []Token
	for len(in) > 0 {
		t := in[len(in)-1]
		in = in[:len(in)-1]
		if t.Kind != Ident || slices.Contains(t.hide, t.Text) {
			out = append(out, t)
			continue
		}
		switch t.Text {
		case "__LINE__":
			if m := p.macros[t.Text]; m != nil && m.builtin {
				out = append(out, Token{Kind: Number, Text: strconv.Itoa(t.Pos.Line), Pos: t.Pos, Space: t.Space})
				continue
			}
		case "__FILE__":
			// GLSL ES 3.00 §3.4: __FILE__ is the source string number, which
			// "#line line source" sets.
			if m := p.macros[t.Text]; m != nil && m.builtin {
				out = append(out, Token{Kind: Number, Text: strconv.Itoa(p.source), Pos: t.Pos, Space: t.Space})
				continue
			}
		case "__VERSION__":
			if m := p.macros[t.Text]; m != nil && m.builtin {
				out = append(out, Token{Kind: Number, Text: strconv.Itoa(p.res.Version), Pos: t.Pos, Space: t.Space})
				continue
			}
		default:
			if strings.HasPrefix(t.Text, "GL_") && p.predefined(t.Text) && p.macros[t.Text] == nil {
				out = append(out, Token{Kind: Number, Text: "1", Pos: t.Pos, Space: t.Space})
				continue
			}
		}
		m := p.macros[t.Text]
		if m == nil {
			out = append(out, t)
			continue
		}
		hide := union(t.hide, []string{m.name})
		var repl []Token
		if !m.funcLike {
			repl = p.subst(m, nil, hide, t, inDirective)
		} else {
			if len(in) == 0 || in[len(in)-1].Text != "(" {
				out = append(out, t)
				continue
			}
			args, n, rp, ok := collectArgs(in[:len(in)-1])
			p.budget -= n
			if !ok {
				p.errs.Add(t.Pos, sprintf("unterminated invocation of macro %s", m.name))
				return out
			}
			if len(args) == 1 && len(args[0]) == 0 && len(m.params) == 0 {
				args = nil
			}
			if len(args) != len(m.params) {
				p.errs.Add(t.Pos, sprintf("macro %s expects %d arguments, got %d", m.name, len(m.params), len(args)))
				in = in[:len(in)-1-n]
				continue
			}
			in = in[:len(in)-1-n]
			hide = union(intersect(t.hide, rp.hide), []string{m.name})
			repl = p.subst(m, args, hide, t, inDirective)
		}
		if inDirective {
			var ok bool
			if repl, ok = p.evalDefined(repl); !ok {
				return out
			}
		}
		p.budget -= len(repl) + 1
		if p.budget < 0 {
			if !p.overBudget {
				p.errs.Add(t.Pos, sprintf("macro expansion of %s is too large", m.name))
			}
			p.overBudget = true
			return out
		}
		for i := len(repl) - 1; i >= 0; i-- {
			in = append(in, repl[i])
		}
	}
	return out
}

// predefined reports whether a version-dependent predefined macro is defined.
// spec: GLSL 4.50 §3.3, GLSL ES 3.00 §3.4.
func (p *pp) predefined(name string) bool {
	r := p.res
	switch name {
	case "GL_ES":
		// GLSL ES 1.00 §3.4, ES 3.00 §3.4: GL_ES is 1 in every ES shader; desktop
		// GLSL does not define it.
		return r.ES
	case "GL_FRAGMENT_PRECISION_HIGH":
		// GLSL ES 3.00 §4.5.4 (highp in fragment shaders is supported); desktop GLSL
		// 1.30 §4.5.4 defines it too, as Mesa's glcpp does from 1.30 on.
		return r.ES || r.Version >= 130
	case "GL_core_profile":
		return !r.ES && r.Version >= 150 && r.Profile != "compatibility"
	case "GL_compatibility_profile":
		return !r.ES && r.Version >= 150 && r.Profile == "compatibility"
	}
	// Every supported extension defines a macro of its name.
	return slices.Contains(p.opts.Extensions, name)
}

// union returns a ∪ b without duplicates (hide sets stay as small as the number
// of distinct macros involved).
func union(a, b []string) []string {
	r := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(r, s) {
			r = append(r, s)
		}
	}
	return r
}

// overflow reports the expansion limit once and returns ts unexpanded.
func (p *pp) overflow(ts []Token) []Token {
	if !p.overBudget && len(ts) > 0 {
		p.errs.Add(ts[0].Pos, "macro expansion is too large")
	}
	p.overBudget = true
	return nil
}

func intersect(a, b []string) []string {
	var r []string
	for _, s := range a {
		if slices.Contains(b, s) {
			r = append(r, s)
		}
	}
	return r
}

// collectArgs splits the tokens after "(" (the reversed stack in, read from its end)
// into macro arguments up to the matching ")"; n is the number of tokens consumed.
func collectArgs(in []Token) (args [][]Token, n int, rparen Token, ok bool) {
	depth := 0
	cur := []Token{}
	for i := len(in) - 1; i >= 0; i-- {
		t := in[i]
		switch t.Text {
		case "(":
			if t.Kind == Punct {
				depth++
			}
		case ")":
			if t.Kind != Punct {
				break
			}
			if depth == 0 {
				args = append(args, cur)
				return args, len(in) - i, t, true
			}
			depth--
		case ",":
			if t.Kind == Punct && depth == 0 {
				args = append(args, cur)
				cur = []Token{}
				continue
			}
		}
		cur = append(cur, t)
	}
	return nil, 0, Token{}, false
}

// subst builds the replacement list of m for one invocation at site; arguments
// are expanded as the line is (inDirective: an #if line).
func (p *pp) subst(m *macro, args [][]Token, hide []string, site Token, inDirective bool) []Token {
	var out []Token
	for i := 0; i < len(m.body); i++ {
		b := m.body[i]
		if b.Kind == Punct && b.Text == "##" && len(out) > 0 && i+1 < len(m.body) {
			nx := m.body[i+1]
			i++
			var right []Token
			if k := slices.Index(m.params, nx.Text); k >= 0 && nx.Kind == Ident {
				right = args[k]
			} else {
				right = []Token{nx}
			}
			if len(right) > 0 {
				last := &out[len(out)-1]
				last.Text += right[0].Text
				if last.Kind == Punct || last.Kind == EOF {
					last.Kind = right[0].Kind
				}
				for _, r := range right[1:] {
					r.Pos, r.hide = site.Pos, hide
					out = append(out, r)
				}
			}
			continue
		}
		if b.Kind == Ident {
			if k := slices.Index(m.params, b.Text); k >= 0 {
				var exp []Token
				if i+1 < len(m.body) && m.body[i+1].Text == "##" {
					exp = args[k]
				} else {
					exp = p.expand(args[k], inDirective)
				}
				for j, r := range exp {
					r.Pos = site.Pos
					r.hide = union(r.hide, hide)
					if j == 0 {
						r.Space = b.Space
					}
					out = append(out, r)
				}
				continue
			}
		}
		b.Pos = site.Pos
		b.hide = hide
		out = append(out, b)
	}
	if len(out) > 0 {
		out[0].Space = site.Space
	}
	return out
}

// evaluator evaluates a #if constant expression with C precedence.
// spec: GLSL 4.50 §3.3 (preprocessor expressions).
type evaluator struct {
	toks   []Token
	i      int
	p      *pp
	pos    ast.Pos
	failed bool
}

func (e *evaluator) fail(pos ast.Pos, msg string) {
	if !e.failed {
		e.p.errs.Add(pos, msg)
	}
	e.failed = true
}

var binPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (e *evaluator) peek() *Token {
	if e.i < len(e.toks) {
		return &e.toks[e.i]
	}
	return nil
}

// expr parses a binary expression whose operators bind tighter than minPrec.
// live is false inside the unevaluated operand of && / ||.
func (e *evaluator) expr(minPrec int, live bool) int64 {
	x := e.unary(live)
	for !e.failed {
		t := e.peek()
		if t == nil || t.Kind != Punct {
			return x
		}
		prec, ok := binPrec[t.Text]
		if !ok || prec <= minPrec {
			return x
		}
		op := *t
		e.i++
		var y int64
		switch op.Text {
		case "&&":
			y = e.expr(prec, live && x != 0)
		case "||":
			y = e.expr(prec, live && x == 0)
		default:
			y = e.expr(prec, live)
		}
		x = e.apply(op, x, y, live)
	}
	return x
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *evaluator) apply(op Token, x, y int64, live bool) int64 {
	x32, y32 := int32(x), int32(y)
	switch op.Text {
	case "||":
		return b2i(x != 0 || y != 0)
	case "&&":
		return b2i(x != 0 && y != 0)
	case "|":
		return int64(x32 | y32)
	case "^":
		return int64(x32 ^ y32)
	case "&":
		return int64(x32 & y32)
	case "==":
		return b2i(x32 == y32)
	case "!=":
		return b2i(x32 != y32)
	case "<":
		return b2i(x32 < y32)
	case ">":
		return b2i(x32 > y32)
	case "<=":
		return b2i(x32 <= y32)
	case ">=":
		return b2i(x32 >= y32)
	case "<<":
		return int64(x32 << (uint32(y32) & 31))
	case ">>":
		return int64(x32 >> (uint32(y32) & 31))
	case "+":
		return int64(x32 + y32)
	case "-":
		return int64(x32 - y32)
	case "*":
		return int64(x32 * y32)
	case "/", "%":
		if y32 == 0 {
			if live {
				e.fail(op.Pos, "division by zero in preprocessor expression")
			}
			return 0
		}
		if x32 == -1<<31 && y32 == -1 {
			if op.Text == "/" {
				return int64(x32)
			}
			return 0
		}
		if op.Text == "/" {
			return int64(x32 / y32)
		}
		return int64(x32 % y32)
	}
	return 0
}

func (e *evaluator) unary(live bool) int64 {
	t := e.peek()
	if t == nil {
		pos := e.pos
		if len(e.toks) > 0 {
			pos = e.toks[len(e.toks)-1].Pos
		}
		e.fail(pos, "unexpected end of preprocessor expression")
		return 0
	}
	e.i++
	switch {
	case t.Kind == Punct && t.Text == "(":
		v := e.expr(0, live)
		if n := e.peek(); n == nil || n.Text != ")" {
			e.fail(t.Pos, "missing ')' in preprocessor expression")
		} else {
			e.i++
		}
		return v
	case t.Kind == Punct && t.Text == "-":
		return int64(-int32(e.unary(live)))
	case t.Kind == Punct && t.Text == "+":
		return e.unary(live)
	case t.Kind == Punct && t.Text == "!":
		return b2i(e.unary(live) == 0)
	case t.Kind == Punct && t.Text == "~":
		return int64(^int32(e.unary(live)))
	case t.Kind == Number:
		v, ok := parseInt(t.Text)
		if !ok {
			e.fail(t.Pos, "invalid integer "+t.Text+" in preprocessor expression")
		}
		return v
	case t.Kind == Ident:
		// An identifier left after expansion is not a macro. GLSL ES 1.00 §3.4 and
		// ES 3.00 §3.4: "Undefined identifiers not consumed by the defined operator
		// do not default to '0'. Use of such identifiers causes an error." Desktop
		// GLSL evaluates them to 0 as C does (GLSL 4.30 dropped 1.30's error), and so
		// does Mesa's glcpp, which in ES also skips the unevaluated operand of
		// && and || (as live says).
		if e.p.res.ES && live {
			e.fail(t.Pos, "undefined macro "+t.Text+" in preprocessor expression")
		}
		return 0
	}
	e.fail(t.Pos, "syntax error in preprocessor expression at '"+t.Text+"'")
	return 0
}
