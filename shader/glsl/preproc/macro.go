package preproc

// Macros: #define (object- and function-like, redefinition rules) and #undef.

import (
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

type macro struct {
	name     string
	pos      ast.Pos
	funcLike bool
	params   []string
	body     []Token
	builtin  bool
}

func (p *pp) define(name string, body []Token, builtin bool) {
	p.macros[name] = &macro{name: name, body: body, builtin: builtin}
}

func (p *pp) doDefine(name Token, args []Token) {
	if len(args) == 0 || args[0].Kind != Ident {
		p.errorf(name.Pos, "#define expects a macro name")
		return
	}
	id := args[0]
	m := &macro{name: id.Text, pos: id.Pos}
	body := args[1:]
	if len(body) > 0 && body[0].Text == "(" && !body[0].Space {
		m.funcLike = true
		i := 1
		for {
			if i >= len(body) {
				p.errorf(id.Pos, "unterminated macro parameter list")
				return
			}
			if body[i].Text == ")" && len(m.params) == 0 {
				i++
				break
			}
			if body[i].Kind != Ident {
				p.errorf(body[i].Pos, "invalid macro parameter")
				return
			}
			if slices.Contains(m.params, body[i].Text) {
				p.errorf(body[i].Pos, "duplicate macro parameter %s", body[i].Text)
				return
			}
			m.params = append(m.params, body[i].Text)
			i++
			if i < len(body) && body[i].Text == "," {
				i++
				continue
			}
			if i < len(body) && body[i].Text == ")" {
				i++
				break
			}
			p.errorf(id.Pos, "invalid macro parameter list")
			return
		}
		body = body[i:]
	}
	if m.funcLike {
		for _, b := range body {
			if b.Kind == Punct && b.Text == "#" {
				p.errorf(b.Pos, "'#' (stringification) is not allowed in GLSL macros")
				return
			}
		}
	}
	m.body = slices.Clone(body)
	if old := p.macros[id.Text]; old != nil {
		if old.builtin {
			p.errorf(id.Pos, "cannot redefine built-in macro %s", id.Text)
			return
		}
		if !sameMacro(old, m) {
			p.errorf(id.Pos, "macro %s redefined", id.Text)
			return
		}
	}
	if strings.HasPrefix(id.Text, "GL_") {
		p.errorf(id.Pos, "macro names beginning with GL_ are reserved")
		return
	}
	if id.Text == "defined" {
		p.errorf(id.Pos, "'defined' cannot be used as a macro name")
		return
	}
	if strings.Contains(id.Text, "__") {
		// GLSL ES 3.00 §3.4 (and GLSL 4.50 §3.3): macro names containing "__" are
		// reserved for underlying software layers; "defining such a name in a
		// shader does not itself result in an error". GLSL ES 1.00 §3.4 only
		// reserves them. Mesa's glcpp warns in every version; so do we.
		p.warnf(id.Pos, "macro names containing __ are reserved")
	}
	p.macros[id.Text] = m
}

func sameMacro(a, b *macro) bool {
	if a.funcLike != b.funcLike || !slices.Equal(a.params, b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.body {
		if a.body[i].Text != b.body[i].Text || (i > 0 && a.body[i].Space != b.body[i].Space) {
			return false
		}
	}
	return true
}

// undef runs #undef: built-in and GL_ macros cannot be undefined.
func (p *pp) undef(name Token, args []Token) {
	if len(args) != 1 || args[0].Kind != Ident {
		p.errorf(name.Pos, "#undef expects one macro name")
		return
	}
	n := args[0].Text
	if m := p.macros[n]; m != nil && m.builtin || strings.HasPrefix(n, "GL_") {
		p.errorf(args[0].Pos, "cannot undefine built-in macro %s", n)
		return
	}
	if n == "defined" {
		p.errorf(args[0].Pos, "'defined' cannot be used as a macro name")
		return
	}
	if strings.Contains(n, "__") {
		// GLSL ES 1.00 §3.4 and ES 3.00 §3.4 reserve macro names containing
		// "__"; Mesa's glcpp (like glslang) makes #undef of one an error up to
		// ES 3.00 and a warning in ES 3.10+ and desktop GLSL, whose §3.3
		// (GLSL 4.50) says defining or undefining one is not itself an error.
		if p.res.ES && p.res.Version <= 300 {
			p.errorf(args[0].Pos, "macro names containing __ are reserved")
			return
		}
		p.warnf(args[0].Pos, "macro names containing __ are reserved")
	}
	delete(p.macros, n)
}
