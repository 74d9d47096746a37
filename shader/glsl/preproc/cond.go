package preproc

// Conditional compilation: the #if/#ifdef/#elif groups' state and the
// evaluation of their conditions (defined, macro expansion, the operators).

import (
	"slices"

	"vortexgfx/shader/glsl/ast"
)

type condState struct {
	pos       ast.Pos
	active    bool // this branch is being processed
	taken     bool // some branch of this group was taken
	sawElse   bool
	parentOff bool // an enclosing group is skipped
}

// condition evaluates #if/#elif/#ifdef/#ifndef.
func (p *pp) condition(name Token, args []Token) bool {
	switch name.Text {
	case "ifdef", "ifndef":
		if len(args) < 1 || args[0].Kind != Ident {
			p.errorf(name.Pos, "#%s expects a macro name", name.Text)
			return false
		}
		if len(args) > 1 {
			p.errorf(args[1].Pos, "garbage after #%s", name.Text)
		}
		_, def := p.macros[args[0].Text]
		def = def || p.predefined(args[0].Text)
		return def == (name.Text == "ifdef")
	}
	if len(args) == 0 {
		p.errorf(name.Pos, "#%s with no expression", name.Text)
		return false
	}
	// Replace defined X / defined(X) before expansion.
	pre, ok := p.evalDefined(args)
	if !ok {
		return false
	}
	nerr := len(p.errs)
	toks := p.expand(pre, true)
	if len(p.errs) > nerr {
		return false // expansion failed (reported); the rest would be noise
	}
	e := &evaluator{toks: toks, p: p, pos: name.Pos}
	v := e.expr(0, true)
	if e.failed {
		return false
	}
	if e.i < len(e.toks) {
		p.errorf(e.toks[e.i].Pos, "syntax error in #%s expression at '%s'", name.Text, e.toks[e.i].Text)
		return false
	}
	return v != 0
}

// evalDefined replaces each "defined X" and "defined ( X )" in ts by 1 or 0. It is
// applied to an #if line before expansion and, in #if lines, to every macro's
// replacement before it is rescanned: C leaves a "defined" produced by expansion
// undefined, GLSL ES 3.00 §3.4 says nothing of it, and Mesa's glcpp evaluates it
// (in ES and desktop GLSL alike), so "#define D defined(X)" then "#if D" tests X.
// ok is false (and an error reported) when a "defined" has no macro name.
func (p *pp) evalDefined(ts []Token) (out []Token, ok bool) {
	if !slices.ContainsFunc(ts, func(t Token) bool { return t.Kind == Ident && t.Text == "defined" }) {
		return ts, true
	}
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.Kind != Ident || t.Text != "defined" {
			out = append(out, t)
			continue
		}
		var id Token
		switch {
		case i+1 < len(ts) && ts[i+1].Kind == Ident:
			id = ts[i+1]
			i++
		case i+3 < len(ts) && ts[i+1].Text == "(" && ts[i+2].Kind == Ident && ts[i+3].Text == ")":
			id = ts[i+2]
			i += 3
		default:
			p.errorf(t.Pos, "defined expects a macro name")
			return nil, false
		}
		v := "0"
		if _, ok := p.macros[id.Text]; ok || p.predefined(id.Text) {
			v = "1"
		}
		out = append(out, Token{Kind: Number, Text: v, Pos: t.Pos, Space: t.Space})
	}
	return out, true
}
