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

type macro struct {
	name     string
	pos      ast.Pos
	funcLike bool
	params   []string
	body     []Token
	builtin  bool
}

type condState struct {
	pos       ast.Pos
	active    bool // this branch is being processed
	taken     bool // some branch of this group was taken
	sawElse   bool
	parentOff bool // an enclosing group is skipped
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

func (p *pp) define(name string, body []Token, builtin bool) {
	p.macros[name] = &macro{name: name, body: body, builtin: builtin}
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
	case "extension":
		p.seenToken = true
		p.extension(name, args)
	case "line":
		p.seenToken = true
		toks := p.expand(args, false)
		if len(toks) > 1 && toks[1].Kind == Other && strings.HasPrefix(toks[1].Text, "\"") {
			// "#line N "name"" names the source string by path.
			// spec: ARB_shading_language_include
			if b := p.res.Extensions[ExtShadingLanguageInclude]; b != "enable" && b != "require" && b != "warn" {
				p.errorf(toks[1].Pos, "#line with a source string name requires #extension %s", ExtShadingLanguageInclude)
				return
			}
			if _, ok := parseInt(toks[0].Text); !ok || toks[0].Kind != Number {
				p.errorf(toks[0].Pos, "#line expects an integer line number")
				return
			}
			n, _ := parseInt(toks[0].Text)
			p.lineDelta += int(n) - (hash.Pos.Line + 1)
			return
		}
		if len(toks) < 1 || len(toks) > 2 {
			p.errorf(name.Pos, "#line expects a line number and an optional source string number")
			return
		}
		n, ok := parseInt(toks[0].Text)
		if !ok || toks[0].Kind != Number || (len(toks) == 2 && toks[1].Kind != Number) {
			p.errorf(toks[0].Pos, "#line expects an integer line number")
			return
		}
		// GLSL ES 1.00 §3.4, ES 3.00 §3.4: after the directive (including its
		// new-line) the implementation behaves as if compiling at line number n and
		// source string number source. hash.Pos is already adjusted by the old delta.
		// (Desktop GLSL before 3.30 says line+1; Mesa's glcpp gives n there too, and
		// so do we.)
		p.lineDelta += int(n) - (hash.Pos.Line + 1)
		if len(toks) == 2 {
			s, ok := parseInt(toks[1].Text)
			if !ok {
				p.errorf(toks[1].Pos, "#line expects an integer source string number")
				return
			}
			p.source = int(s)
		}
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
