package preproc

// The directives that set the language: #version, #extension and #line.

import (
	"slices"
	"strings"
)

func joinTokens(ts []Token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.Space {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

func (p *pp) version(name Token, args []Token) {
	if p.seenToken || p.res.Versioned {
		p.errorf(name.Pos, "#version must occur on the first line of a shader, before anything else")
		return
	}
	p.res.Versioned = true
	p.res.VersionPos = name.Pos
	if len(args) < 1 || args[0].Kind != Number {
		p.errorf(name.Pos, "#version expects a version number")
		return
	}
	n, ok := parseInt(args[0].Text)
	if !ok {
		p.errorf(args[0].Pos, "invalid #version number %s", args[0].Text)
		return
	}
	v := int(n)
	p.res.Version = v
	p.res.ES = false
	if len(args) > 1 {
		if args[1].Kind != Ident || len(args) > 2 {
			p.errorf(args[1].Pos, "invalid #version profile")
			return
		}
		p.res.Profile = args[1].Text
		switch args[1].Text {
		case "es":
			if v != 300 && v != 310 && v != 320 && v != 100 {
				p.errorf(args[1].Pos, "GLSL ES version %d is not supported", v)
			}
			if v == 100 {
				p.errorf(args[1].Pos, "#version 100 does not take a profile")
			}
			p.res.ES = true
		case "core", "compatibility":
			if v < 150 {
				p.errorf(args[1].Pos, "#version %d does not take a profile", v)
			}
		default:
			p.errorf(args[1].Pos, "invalid #version profile %s", args[1].Text)
		}
	}
	if v == 100 {
		p.res.ES = true
	}
	if !p.res.ES {
		switch v {
		case 110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450:
		default:
			p.errorf(args[0].Pos, "GLSL %d is not supported", v)
		}
	} else if v == 300 && len(args) < 2 {
		p.errorf(args[0].Pos, "GLSL 3.00 requires the es profile (#version 300 es)")
	}
}

func (p *pp) extension(name Token, args []Token) {
	if len(args) != 3 || args[0].Kind != Ident || args[1].Text != ":" || args[2].Kind != Ident {
		p.errorf(name.Pos, "#extension expects 'name : behavior'")
		return
	}
	ext, beh := args[0].Text, args[2].Text
	switch beh {
	case "require", "enable", "warn", "disable":
	default:
		p.errorf(args[2].Pos, "invalid #extension behavior %s", beh)
		return
	}
	if ext == "all" {
		if beh == "require" || beh == "enable" {
			p.errorf(args[2].Pos, "#extension all : %s is not allowed", beh)
		}
		return
	}
	if (beh == "require" || beh == "enable") && !slices.Contains(p.opts.Extensions, ext) {
		if beh == "require" {
			p.errorf(args[0].Pos, "extension %s is not supported", ext)
			return
		}
	}
	p.res.Extensions[ext] = beh
}

// line runs #line N [source]: the following line is line N of source string
// number source; under ARB_shading_language_include the source may be a
// quoted path instead ("#line N "name"", which names the string only).
// GLSL ES 1.00 §3.4, ES 3.00 §3.4: after the directive (including its
// new-line) the implementation behaves as if compiling at line number N.
// hash.Pos is already adjusted by the old delta. (Desktop GLSL before 3.30
// says N+1; Mesa's glcpp gives N there too, and so do we.)
func (p *pp) line(hash, name Token, args []Token) {
	toks := p.expand(args, false)
	named := len(toks) > 1 && toks[1].Kind == Other && strings.HasPrefix(toks[1].Text, "\"")
	if named && !p.includeEnabled() {
		p.errorf(toks[1].Pos, "#line with a source string name requires #extension %s", ExtShadingLanguageInclude)
		return
	}
	if len(toks) < 1 || !named && len(toks) > 2 {
		p.errorf(name.Pos, "#line expects a line number and an optional source string number")
		return
	}
	n, ok := parseInt(toks[0].Text)
	if !ok || toks[0].Kind != Number || !named && len(toks) == 2 && toks[1].Kind != Number {
		p.errorf(toks[0].Pos, "#line expects an integer line number")
		return
	}
	p.lineDelta += int(n) - (hash.Pos.Line + 1)
	if named || len(toks) < 2 {
		return
	}
	s, ok := parseInt(toks[1].Text)
	if !ok {
		p.errorf(toks[1].Pos, "#line expects an integer source string number")
		return
	}
	p.source = int(s)
}
