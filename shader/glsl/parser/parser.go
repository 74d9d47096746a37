// Package parser implements a recursive-descent parser for GLSL 1.10-4.50 and
// GLSL ES 1.00/3.00 vertex and fragment shaders, producing an ast.File.
// spec: GLSL 4.50 §9 (shading language grammar).
package parser

import (
	"slices"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/preproc"
)

// Options configure ParseFile.
type Options struct {
	// DefaultVersion is used when the source has no #version (110 when zero).
	DefaultVersion int
	// Extensions the compiler supports (passed to the preprocessor).
	Extensions []string
	// Defines are predefined macros.
	Defines map[string]string
	// Includes are the named strings #include reads (nil: none).
	Includes *preproc.Includes
}

// bailout aborts parsing after a syntax error; it never escapes ParseFile.
type bailout struct{}

type parser struct {
	toks []preproc.Token
	i    int
	tok  preproc.Token
	lang langVersion
	errs ast.ErrorList
	// typeNames is a scope stack of declared struct names (the grammar needs them
	// to tell declarations from expressions).
	typeNames []map[string]bool
	depth     int
	links     int // chained operators in the current statement (see maxLinks)
	// paramNames collects the parameter names of the function being parsed.
	paramNames []string
}

// ParseFile preprocesses and parses src. On error it returns the partial file and an
// ast.ErrorList sorted by position. It never panics.
func ParseFile(name, src string, opts Options) (f *ast.File, err error) {
	res, perr := preproc.Process(name, src, preproc.Options{
		DefaultVersion: opts.DefaultVersion, Extensions: opts.Extensions, Defines: opts.Defines, Includes: opts.Includes,
	})
	if _, set := res.Extensions[rectangleExt]; !set && !res.ES && slices.Contains(opts.Extensions, rectangleExt) {
		// The rectangle samplers need no #extension in desktop GLSL: Mesa,
		// whose results piglit encodes, has GL_ARB_texture_rectangle always on
		// (a shader may still disable it).
		res.Extensions[rectangleExt] = "enable"
	}
	f = &ast.File{Name: name, Version: res.Version, ES: res.ES, Versioned: res.Versioned, Profile: res.Profile,
		InvariantAll: res.InvariantAll, Extensions: res.Extensions}
	for _, w := range res.Warnings {
		f.Warnings = append(f.Warnings, w.String())
	}
	var errs ast.ErrorList
	if perr != nil {
		errs = append(errs, perr.(ast.ErrorList)...)
		errs.Sort()
		return f, errs
	}
	p := &parser{toks: res.Tokens, lang: langVersion{v: res.Version, es: res.ES, ext: res.Extensions}}
	p.typeNames = []map[string]bool{{}}
	p.tok = p.toks[0]
	for p.tok.Kind != preproc.EOF && len(p.errs) < maxSyntaxErrors {
		f.Decls = append(f.Decls, p.recoverDecl()...)
	}
	errs = append(errs, p.errs...)
	errs.Sort()
	return f, errs.Err()
}

// ParseExpr parses a single expression (for tests and tools).
func ParseExpr(src string) (x ast.Expr, err error) {
	res, perr := preproc.Process("expr", src, preproc.Options{DefaultVersion: 450})
	if perr != nil {
		return nil, perr
	}
	p := &parser{toks: res.Tokens, lang: langVersion{v: 450}}
	p.typeNames = []map[string]bool{{}}
	p.tok = p.toks[0]
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					p.errs.Add(p.tok.Pos, sprintf("internal compiler error: %v", r))
				}
			}
		}()
		x = p.expr()
		if p.tok.Kind != preproc.EOF {
			p.fail(p.tok.Pos, "unexpected '%s' after expression", p.tok.Text)
		}
	}()
	return x, p.errs.Err()
}

// maxSyntaxErrors stops parsing after this many syntax errors.
const maxSyntaxErrors = 10

// recoverDecl parses one external declaration; after a syntax error it skips to
// the end of the broken declaration (a ';' or the '}' closing a body at nesting
// depth zero) so that later errors are reported too, like go/parser.
func (p *parser) recoverDecl() (decls []ast.Decl) {
	start := p.i
	p.links = 0
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				// A parser bug must not crash the caller: report it and stop.
				p.errs.Add(p.tok.Pos, sprintf("internal compiler error: %v", r))
				p.i = len(p.toks) - 1
				p.tok = p.toks[p.i]
				decls = nil
				return
			}
			decls = nil
			p.depth = 0
			p.typeNames = p.typeNames[:1]
			p.sync(start)
		}
	}()
	return p.externalDecl()
}

// sync skips tokens from the start of a broken declaration to its end.
func (p *parser) sync(start int) {
	depth := 0
	for i := start; i < p.i; i++ {
		switch p.toks[i].Text {
		case "{":
			depth++
		case "}":
			depth--
		}
	}
	for p.tok.Kind != preproc.EOF {
		t := p.tok
		p.next()
		if t.Kind != preproc.Punct {
			continue
		}
		switch t.Text {
		case "{":
			depth++
		case "}":
			depth--
			if depth <= 0 {
				p.got(";")
				return
			}
		case ";":
			if depth <= 0 {
				return
			}
		}
	}
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
}

func (p *parser) peek(n int) preproc.Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) fail(pos ast.Pos, format string, args ...any) {
	p.errs.Add(pos, sprintf(format, args...))
	panic(bailout{})
}

func (p *parser) errorf(pos ast.Pos, format string, args ...any) {
	p.errs.Add(pos, sprintf(format, args...))
}

func (p *parser) describe(t preproc.Token) string {
	if t.Kind == preproc.EOF {
		return "end of file"
	}
	if t.Kind == preproc.Other {
		return sprintf("invalid character %q", t.Text)
	}
	return "'" + t.Text + "'"
}

func (p *parser) is(text string) bool {
	return p.tok.Kind == preproc.Punct && p.tok.Text == text
}

func (p *parser) isKw(text string) bool {
	return p.tok.Kind == preproc.Ident && p.tok.Text == text && p.isKeyword(text)
}

func (p *parser) expect(text string) ast.Pos {
	pos := p.tok.Pos
	if !p.is(text) {
		p.fail(pos, "syntax error: expected '%s', found %s", text, p.describe(p.tok))
	}
	p.next()
	return pos
}

func (p *parser) got(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

// rectangleExt is GL_ARB_texture_rectangle, on by default in desktop GLSL.
const rectangleExt = "GL_ARB_texture_rectangle"

// fetchNonCoherentExt is GL_EXT_shader_framebuffer_fetch_non_coherent.
const fetchNonCoherentExt = "GL_EXT_shader_framebuffer_fetch_non_coherent"

// layoutExts are the extensions that make 'layout' a keyword before GLSL 1.40.
var layoutExts = []string{"GL_ARB_explicit_attrib_location", "GL_ARB_blend_func_extended", "GL_ARB_uniform_buffer_object",
	"GL_ARB_explicit_uniform_location", "GL_ARB_shading_language_420pack", "GL_ARB_separate_shader_objects",
	"GL_ARB_conservative_depth", "GL_AMD_conservative_depth"}

// isKeyword reports whether word is a keyword (type or other) in this language.
func (p *parser) isKeyword(word string) bool {
	if d, e, ok := keywordMin(word); ok {
		// The extensions that add layout qualifiers bring 'layout' to any
		// GLSL version (their §3.6 additions).
		// GL_EXT_shader_framebuffer_fetch_non_coherent brings it to GLSL
		// ES 1.00 for layout(noncoherent) gl_LastFragData (its §3.6).
		return p.lang.atLeast(d, e) || word == "layout" && !p.lang.es && slices.ContainsFunc(layoutExts, p.lang.has) ||
			word == "layout" && p.lang.es && p.lang.has(fetchNonCoherentExt)
	}
	if _, _, ok := builtinTypeMin(word); ok {
		return p.lang.typeAvailable(word)
	}
	return false
}

// ident consumes an identifier that is not a keyword.
func (p *parser) ident() (string, ast.Pos) {
	t := p.tok
	if t.Kind != preproc.Ident {
		p.fail(t.Pos, "syntax error: expected identifier, found %s", p.describe(t))
	}
	if p.isKeyword(t.Text) {
		p.fail(t.Pos, "syntax error: unexpected keyword '%s', expected identifier", t.Text)
	}
	if reservedWord(t.Text, p.lang) {
		p.fail(t.Pos, "'%s' is a reserved word", t.Text)
	}
	p.next()
	return t.Text, t.Pos
}

// isTypeName reports whether t starts a type: a built-in type keyword or a struct name.
func (p *parser) isTypeName(t preproc.Token) bool {
	if t.Kind != preproc.Ident {
		return false
	}
	if t.Text == "struct" {
		return true
	}
	if p.lang.typeAvailable(t.Text) {
		return true
	}
	for i := len(p.typeNames) - 1; i >= 0; i-- {
		if isType, ok := p.typeNames[i][t.Text]; ok {
			return isType
		}
	}
	return builtinStructName(t.Text)
}

func (p *parser) openScope()  { p.typeNames = append(p.typeNames, map[string]bool{}) }
func (p *parser) closeScope() { p.typeNames = p.typeNames[:len(p.typeNames)-1] }

// typeSpec parses a type specifier (with an optional precision qualifier in front
// already consumed by qualifiers) including array dimensions.
func (p *parser) typeSpec(prec ast.Precision) *ast.TypeSpec {
	ts := &ast.TypeSpec{NamePos: p.tok.Pos, Precision: prec}
	if p.tok.Kind == preproc.Ident && p.tok.Text == "struct" {
		ts.Struct = p.structSpec()
	} else {
		if !p.isTypeName(p.tok) {
			if p.tok.Kind == preproc.Ident && !p.isKeyword(p.tok.Text) {
				if reservedWord(p.tok.Text, p.lang) {
					p.fail(p.tok.Pos, "'%s' is a reserved word", p.tok.Text)
				}
				p.fail(p.tok.Pos, "syntax error: '%s' is not a type", p.tok.Text)
			}
			p.fail(p.tok.Pos, "syntax error: expected type, found %s", p.describe(p.tok))
		}
		ts.Name = p.tok.Text
		p.next()
	}
	ts.Dims = p.arrayDims()
	return ts
}

func (p *parser) arrayDims() []*ast.ArrayDim {
	var dims []*ast.ArrayDim
	for p.is("[") {
		d := &ast.ArrayDim{Lbrack: p.tok.Pos}
		p.next()
		if !p.is("]") {
			d.Size = p.condExpr()
		}
		p.expect("]")
		dims = append(dims, d)
	}
	return dims
}

func (p *parser) structSpec() *ast.StructSpec {
	s := &ast.StructSpec{StructPos: p.tok.Pos}
	p.next() // struct
	if p.tok.Kind == preproc.Ident {
		s.Name, _ = p.ident()
	}
	p.expect("{")
	for !p.is("}") {
		if p.tok.Kind == preproc.EOF {
			p.fail(p.tok.Pos, "syntax error: unexpected end of file in struct")
		}
		q := p.qualifiers()
		g := &ast.DeclGroup{Qual: q, Type: p.typeSpec(q.Precision)}
		for {
			vs := &ast.VarSpec{}
			vs.Name, vs.NamePos = p.ident()
			vs.Dims = p.arrayDims()
			g.Vars = append(g.Vars, vs)
			if !p.got(",") {
				break
			}
		}
		p.expect(";")
		s.Members = append(s.Members, g)
	}
	p.next()
	if len(s.Members) == 0 {
		p.errorf(s.StructPos, "struct must have at least one member")
	}
	if s.Name != "" {
		p.typeNames[len(p.typeNames)-1][s.Name] = true
	}
	return s
}

// externalDecl parses one global declaration or function definition.
func (p *parser) externalDecl() []ast.Decl {
	if p.got(";") {
		return nil
	}
	return []ast.Decl{p.declaration(true)}
}

// declaration parses a declaration at global (global=true) or local scope.
func (p *parser) declaration(global bool) ast.Decl {
	if p.isKw("precision") {
		d := &ast.PrecisionDecl{PrecPos: p.tok.Pos}
		p.next()
		switch p.tok.Text {
		case "lowp":
			d.Precision = ast.PrecLow
		case "mediump":
			d.Precision = ast.PrecMedium
		case "highp":
			d.Precision = ast.PrecHigh
		default:
			p.fail(p.tok.Pos, "syntax error: expected precision qualifier, found %s", p.describe(p.tok))
		}
		p.next()
		d.Type = p.typeSpec(ast.PrecNone)
		p.expect(";")
		return d
	}
	q := p.qualifiers()
	if p.is(";") && q.Count > 0 {
		p.next()
		return &ast.QualDecl{Qual: q}
	}
	// invariant/precise on a list of existing names.
	if q.Count > 0 && p.tok.Kind == preproc.Ident && !p.isTypeName(p.tok) &&
		(p.peek(1).Text == ";" || p.peek(1).Text == ",") {
		d := &ast.QualDecl{Qual: q}
		for {
			name, pos := p.ident()
			d.Names = append(d.Names, &ast.Ident{NamePos: pos, Name: name})
			if !p.got(",") {
				break
			}
		}
		p.expect(";")
		return d
	}
	// Interface block: qualifier Name { ... }
	if q.Count > 0 && p.tok.Kind == preproc.Ident && p.peek(1).Text == "{" && !p.isKeyword(p.tok.Text) {
		return p.blockDecl(q)
	}
	ts := p.typeSpec(q.Precision)
	if p.is(";") {
		p.next()
		return &ast.DeclGroup{Qual: q, Type: ts}
	}
	if p.tok.Kind == preproc.Ident && p.peek(1).Text == "(" && p.peek(1).Kind == preproc.Punct {
		if !global {
			p.fail(p.tok.Pos, "function definitions are not allowed inside functions")
		}
		return p.funcDecl(q, ts)
	}
	g := &ast.DeclGroup{Qual: q, Type: ts}
	for {
		vs := &ast.VarSpec{}
		vs.Name, vs.NamePos = p.ident()
		p.typeNames[len(p.typeNames)-1][vs.Name] = false
		vs.Dims = p.arrayDims()
		if p.got("=") {
			if p.is("{") {
				if !p.lang.atLeast(420, 0) && !p.lang.has("GL_ARB_shading_language_420pack") {
					p.fail(p.tok.Pos, "initializer lists require GLSL 4.20")
				}
				vs.Init = p.initList()
			} else {
				vs.Init = p.assignExpr()
			}
		}
		g.Vars = append(g.Vars, vs)
		if !p.got(",") {
			break
		}
	}
	p.expect(";")
	return g
}

// initList parses "{ initializer, ... [,] }". spec: GLSL 4.50 §4.1.11.
func (p *parser) initList() ast.Expr {
	p.enter()
	defer p.leave()
	l := &ast.InitList{Lbrace: p.expect("{")}
	for !p.is("}") {
		if p.is("{") {
			l.Elems = append(l.Elems, p.initList())
		} else {
			l.Elems = append(l.Elems, p.assignExpr())
		}
		if !p.got(",") {
			break
		}
	}
	p.expect("}")
	if len(l.Elems) == 0 {
		p.errorf(l.Lbrace, "empty initializer list")
	}
	return l
}

func (p *parser) blockDecl(q ast.Qualifiers) ast.Decl {
	d := &ast.BlockDecl{Qual: q}
	d.Name, d.NamePos = p.ident()
	p.expect("{")
	for !p.is("}") {
		if p.tok.Kind == preproc.EOF {
			p.fail(p.tok.Pos, "syntax error: unexpected end of file in block")
		}
		mq := p.qualifiers()
		g := &ast.DeclGroup{Qual: mq, Type: p.typeSpec(mq.Precision)}
		for {
			vs := &ast.VarSpec{}
			vs.Name, vs.NamePos = p.ident()
			vs.Dims = p.arrayDims()
			g.Vars = append(g.Vars, vs)
			if !p.got(",") {
				break
			}
		}
		p.expect(";")
		d.Members = append(d.Members, g)
	}
	p.next()
	if p.tok.Kind == preproc.Ident {
		d.InstanceName, d.InstancePos = p.ident()
		d.InstanceDims = p.arrayDims()
	}
	p.expect(";")
	return d
}

func (p *parser) funcDecl(q ast.Qualifiers, ts *ast.TypeSpec) ast.Decl {
	d := &ast.FuncDecl{Qual: q, Result: ts}
	d.Name, d.NamePos = p.ident()
	p.expect("(")
	if p.isKw("void") && p.peek(1).Text == ")" {
		p.next()
	}
	for !p.is(")") {
		pq := p.qualifiers()
		pd := &ast.ParamDecl{Qual: pq, Type: p.typeSpec(pq.Precision)}
		if p.tok.Kind == preproc.Ident && !p.isKeyword(p.tok.Text) {
			pd.Name, pd.NamePos = p.ident()
			pd.Dims = p.arrayDims()
			p.paramNames = append(p.paramNames, pd.Name)
		}
		d.Params = append(d.Params, pd)
		if !p.got(",") {
			break
		}
	}
	p.expect(")")
	names := p.paramNames
	p.paramNames = nil
	if p.is("{") {
		p.openScope()
		for _, n := range names {
			p.typeNames[len(p.typeNames)-1][n] = false
		}
		d.Body = p.block(false)
		p.closeScope()
		return d
	}
	p.expect(";")
	return d
}
