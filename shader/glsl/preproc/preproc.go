package preproc

import (
	"slices"
	"strconv"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// Options configure a preprocessor run.
type Options struct {
	// DefaultVersion is used when the source has no #version (110 when zero;
	// 100 means GLSL ES 1.00).
	DefaultVersion int
	// Extensions lists the extensions the compiler supports; #extension X : require
	// or enable of any other name is an error (warn/disable are accepted).
	Extensions []string
	// Defines are predefined object-like macros (name -> replacement text).
	Defines map[string]string
	// Includes are the named strings and search points #include reads
	// (ARB_shading_language_include); nil: none.
	Includes *Includes
}

// Result is the output of Process.
type Result struct {
	Tokens     []Token // expanded tokens, no Newline tokens, ending with EOF
	Version    int
	ES         bool
	Profile    string // "core", "compatibility", "es" or ""
	Versioned  bool   // a #version directive was present
	VersionPos ast.Pos
	Extensions map[string]string // extension name -> behavior, in effect at the end
	// InvariantAll is the position of "#pragma STDGL invariant(all)", if any.
	InvariantAll ast.Pos
	// Warnings are diagnostics that do not fail the compile (sorted by position).
	Warnings []Warning
}

// Warning is a diagnostic that does not make the shader invalid.
type Warning struct {
	Pos ast.Pos
	Msg string
}

// String formats the warning as "file:line:col: warning: msg", like ast.Error.
func (w Warning) String() string {
	if !w.Pos.IsValid() {
		return w.Pos.File + ": warning: " + w.Msg
	}
	return w.Pos.String() + ": warning: " + w.Msg
}

type pp struct {
	file   string
	opts   Options
	errs   ast.ErrorList
	macros map[string]*macro
	conds  []condState
	res    *Result
	// lineDelta adjusts reported line numbers after #line; every token is adjusted
	// once, when its line is collected, so positions inside the preprocessor are
	// already the reported ones.
	lineDelta int
	// source is the source string number set by "#line line source" (__FILE__).
	source    int
	seenToken bool // a non-directive token or directive other than #version was seen
	out       []Token
	pending   []Token
	// budget bounds the total number of tokens macro expansion may produce.
	budget     int
	overBudget bool
	// stack holds the string being read and the named strings #include
	// entered, innermost last.
	stack []includeFrame
}

// Process preprocesses src (named file in diagnostics). The returned error is an
// ast.ErrorList when non-nil; the Result is valid even when errors were found.
// spec: GLSL 4.50 §3.3.
func Process(file, src string, opts Options) (*Result, error) {
	p := &pp{file: file, opts: opts, macros: map[string]*macro{}, budget: maxExpansion}
	p.res = &Result{Version: opts.DefaultVersion, Extensions: map[string]string{}}
	if p.res.Version == 0 {
		p.res.Version = 110
	}
	// GLSL ES 1.00 is the only version numbered 100.
	p.res.ES = p.res.Version == 100
	lx := &lexer{src: src, file: file, line: 1, col: 1, errs: &p.errs}
	p.define("__LINE__", nil, true)
	p.define("__FILE__", nil, true)
	p.define("__VERSION__", nil, true)
	for name, text := range opts.Defines {
		sub := &lexer{src: text, file: file, line: 1, col: 1, errs: &p.errs}
		sub.run()
		var body []Token
		for _, t := range sub.tokens {
			if t.Kind != Newline && t.Kind != EOF {
				body = append(body, t)
			}
		}
		p.macros[name] = &macro{name: name, body: body, builtin: true}
	}
	func() {
		// A preprocessor bug must not crash the caller: report it as an error.
		defer func() {
			if r := recover(); r != nil {
				p.errs.Add(ast.Pos{File: file, Line: 1, Col: 1}, sprintf("internal compiler error: %v", r))
				p.res.Tokens = []Token{{Kind: EOF, Pos: ast.Pos{File: file, Line: 1, Col: 1}}}
			}
		}()
		lx.run()
		p.stack = []includeFrame{{lines: strings.Split(src, "\n")}}
		p.run(lx.tokens)
	}()
	p.errs.Sort()
	slices.SortStableFunc(p.res.Warnings, func(a, b Warning) int {
		if a.Pos.Before(b.Pos) {
			return -1
		}
		if b.Pos.Before(a.Pos) {
			return 1
		}
		return 0
	})
	return p.res, p.errs.Err()
}

// errorf reports an error at pos (a token position, already adjusted for #line).
func (p *pp) errorf(pos ast.Pos, format string, args ...any) {
	p.errs.Add(pos, sprintf(format, args...))
}

func (p *pp) warnf(pos ast.Pos, format string, args ...any) {
	p.res.Warnings = append(p.res.Warnings, Warning{Pos: pos, Msg: sprintf(format, args...)})
}

func (p *pp) adjust(pos ast.Pos) ast.Pos {
	pos.Line += p.lineDelta
	return pos
}

func (p *pp) active() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].active
}

func (p *pp) run(toks []Token) {
	p.lines(toks)
	p.flush()
	for _, c := range p.conds {
		p.errorf(c.pos, "unterminated #if")
	}
	p.res.Tokens = append(p.out, Token{Kind: EOF, Pos: p.adjust(toks[len(toks)-1].Pos)})
}

// lines processes the lines of one string (the source, or a string #include
// reads), directives and text.
func (p *pp) lines(toks []Token) {
	i := 0
	for i < len(toks) && toks[i].Kind != EOF {
		// Collect one line.
		start := i
		for toks[i].Kind != Newline && toks[i].Kind != EOF {
			i++
		}
		line := toks[start:i]
		if toks[i].Kind == Newline {
			i++
		}
		if len(line) == 0 {
			continue
		}
		phys := line[0].Pos.Line // the line as written, before #line
		// The line numbers a #line directive sets hold for directives too (__LINE__
		// in #if, error positions).
		for j := range line {
			line[j].Pos = p.adjust(line[j].Pos)
		}
		if line[0].Kind == Punct && line[0].Text == "#" {
			p.flush()
			if len(line) > 1 && line[1].Kind == Ident && line[1].Text == "include" && p.active() {
				p.seenToken = true
				p.include(line[1], p.rawLine(phys))
				continue
			}
			p.directive(line)
			continue
		}
		if !p.active() {
			continue
		}
		p.seenToken = true
		p.pending = append(p.pending, line...)
	}
}

// rawLine is line n (1-based, as written) of the string being read.
func (p *pp) rawLine(n int) string {
	if len(p.stack) == 0 {
		return ""
	}
	ls := p.stack[len(p.stack)-1].lines
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

// flush macro-expands the pending text tokens into the output.
func (p *pp) flush() {
	if len(p.pending) == 0 {
		return
	}
	p.budget += len(p.pending) // plain source text is not expansion work
	p.out = append(p.out, p.expand(p.pending, false)...)
	p.pending = nil
}

func (p *pp) directive(line []Token) {
	hash := line[0]
	if len(line) == 1 {
		return // null directive
	}
	name := line[1]
	args := line[2:]
	if name.Kind != Ident {
		if p.active() {
			p.errorf(name.Pos, "invalid preprocessor directive")
		}
		return
	}
	switch name.Text {
	case "if", "ifdef", "ifndef":
		c := condState{pos: hash.Pos, parentOff: !p.active()}
		if !c.parentOff {
			c.active = p.condition(name, args)
			c.taken = c.active
		}
		p.conds = append(p.conds, c)
		return
	case "elif":
		if len(p.conds) == 0 {
			p.errorf(name.Pos, "#elif without #if")
			return
		}
		c := &p.conds[len(p.conds)-1]
		if c.sawElse {
			p.errorf(name.Pos, "#elif after #else")
		}
		if c.parentOff || c.taken {
			c.active = false
			return
		}
		c.active = p.condition(name, args)
		c.taken = c.active
		return
	case "else":
		if len(p.conds) == 0 {
			p.errorf(name.Pos, "#else without #if")
			return
		}
		c := &p.conds[len(p.conds)-1]
		if c.sawElse {
			p.errorf(name.Pos, "#else after #else")
		}
		c.sawElse = true
		c.active = !c.parentOff && !c.taken
		c.taken = true
		if len(args) > 0 && !c.parentOff {
			p.errorf(args[0].Pos, "garbage after #else")
		}
		return
	case "endif":
		if len(p.conds) == 0 {
			p.errorf(name.Pos, "#endif without #if")
			return
		}
		p.conds = p.conds[:len(p.conds)-1]
		return
	}
	if !p.active() {
		return
	}
	switch name.Text {
	case "version":
		p.version(name, args)
	case "define":
		p.seenToken = true
		p.doDefine(name, args)
	case "undef":
		p.seenToken = true
		p.undef(name, args)
	case "extension":
		p.seenToken = true
		p.extension(name, args)
	case "line":
		p.seenToken = true
		p.line(hash, name, args)
	case "error":
		p.seenToken = true
		p.errorf(hash.Pos, "#error %s", joinTokens(args))
	case "pragma":
		p.seenToken = true
		if len(args) >= 3 && args[0].Text == "STDGL" && args[1].Text == "invariant" && args[2].Text == "(" &&
			len(args) >= 4 && args[3].Text == "all" {
			p.res.InvariantAll = hash.Pos
		}
	default:
		p.errorf(name.Pos, "invalid preprocessor directive #%s", name.Text)
	}
}

func parseInt(s string) (int64, bool) {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "u"), "U")
	base := 10
	switch {
	case len(s) > 1 && s[0] == '0' && (s[1]|0x20) == 'x':
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 32)
	if err != nil {
		return 0, false
	}
	return int64(int32(uint32(v))), true
}
