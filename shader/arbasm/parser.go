package arbasm

import (
	"fmt"
	"math"
	"strings"
)

// parser reads a tokenised program, declaring names as it meets them (the
// languages require a name's declaration before its use) and checking each
// instruction as it is read (check.go).
type parser struct {
	toks []token
	pos  int
	prog *program
	// names are the declared names (case-sensitive), with ALIAS entries
	// pointing at the symbol they rename.
	names map[string]*symbol
	// statements counts declarations and instructions (options must come
	// first).
	statements int
}

// headers are the program strings' required first characters.
// spec: ARB_vertex_program §2.14.2 (<program> ::= "!!ARBvp1.0" ...),
// ARB_fragment_program §3.11.2
var headers = map[Target]string{VertexProgram: "!!ARBvp1.0", FragmentProgram: "!!ARBfp1.0"}

// parse parses and checks src, a program of the given target.
func parse(src string, target Target) (*program, error) {
	hdr := headers[target]
	start := len(src) - len(strings.TrimLeft(src, " \t\r\n"))
	if !strings.HasPrefix(src[start:], hdr) {
		line := 1 + strings.Count(src[:start], "\n")
		col := start - strings.LastIndexByte(src[:start], '\n')
		other := headers[VertexProgram]
		if target == VertexProgram {
			other = headers[FragmentProgram]
		}
		if strings.HasPrefix(src[start:], other) {
			return nil, &Error{Line: line, Col: col, Msg: fmt.Sprintf("a %s must start with %q, not %q", target, hdr, other)}
		}
		return nil, &Error{Line: line, Col: col, Msg: fmt.Sprintf("a %s must start with %q", target, hdr)}
	}
	// Lex from after the header, keeping positions in the whole string.
	lx := newLexer(src)
	lx.advance(start + len(hdr))
	var toks []token
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.kind == tokEOF || t.kind == tokIdent && t.text == "END" {
			// Text after END is ignored. spec: ARB_vertex_program §2.14.2
			break
		}
	}
	p := &parser{toks: toks, prog: &program{target: target, options: map[string]bool{}, units: map[int]texTarget{}},
		names: map[string]*symbol{}}
	if err := p.program(); err != nil {
		return nil, err
	}
	return p.prog, nil
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) peekN(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) take() token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *parser) errAt(t token, format string, args ...any) error {
	return &Error{Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

// unsupportedAt reports a well-formed use of something not implemented.
func (p *parser) unsupportedAt(t token, format string, args ...any) error {
	return &Error{Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, args...), Unsupported: true}
}

func (p *parser) isPunct(s string) bool {
	t := p.peek()
	return t.kind == tokPunct && t.text == s
}

func (p *parser) isIdent(s string) bool {
	t := p.peek()
	return t.kind == tokIdent && t.text == s
}

func (p *parser) expect(s string) (token, error) {
	t := p.take()
	if t.kind != tokPunct || t.text != s {
		return t, p.errAt(t, "expected %q, found %s", s, t)
	}
	return t, nil
}

func (p *parser) expectKeyword(s string) error {
	t := p.take()
	if t.kind != tokIdent || t.text != s {
		return p.errAt(t, "expected %q, found %s", s, t)
	}
	return nil
}

// ident reads a name.
func (p *parser) ident(what string) (token, error) {
	t := p.take()
	if t.kind != tokIdent {
		return t, p.errAt(t, "expected %s, found %s", what, t)
	}
	return t, nil
}

// program reads the statements up to END.
func (p *parser) program() error {
	for {
		t := p.peek()
		switch {
		case t.kind == tokEOF:
			return p.errAt(t, "missing END")
		case t.kind == tokIdent && t.text == "END":
			return nil
		case t.kind != tokIdent:
			return p.errAt(t, "expected an instruction or a declaration, found %s", t)
		}
		var err error
		switch t.text {
		case "OPTION":
			err = p.option()
		case "TEMP", "ADDRESS":
			err = p.tempDecl()
		case "ATTRIB":
			err = p.attribDecl()
		case "PARAM":
			err = p.paramDecl()
		case "OUTPUT":
			err = p.outputDecl()
		case "ALIAS":
			err = p.aliasDecl()
		default:
			err = p.instruction()
		}
		if err != nil {
			return err
		}
		if _, err := p.expect(";"); err != nil {
			return err
		}
	}
}

// options each program accepts. spec: ARB_vertex_program §2.14.4.5
// (ARB_position_invariant), ARB_fragment_program §3.11.4.5
// (ARB_precision_hint_fastest/nicest, ARB_fog_*), ARB_fragment_program_shadow,
// ARB_draw_buffers, ARB_fragment_coord_conventions (the pixel centre and
// origin options)
var knownOptions = map[Target][]string{
	VertexProgram: {"ARB_position_invariant"},
	FragmentProgram: {"ARB_precision_hint_fastest", "ARB_precision_hint_nicest", "ARB_fragment_program_shadow", "ARB_draw_buffers",
		"ARB_fragment_coord_pixel_center_integer", "ARB_fragment_coord_origin_upper_left"},
}

func (p *parser) option() error {
	kw := p.take()
	if p.statements > 0 {
		return p.errAt(kw, "OPTION after the first declaration or instruction")
	}
	t, err := p.ident("an option name")
	if err != nil {
		return err
	}
	known := false
	for _, o := range knownOptions[p.prog.target] {
		known = known || o == t.text
	}
	if !known {
		if strings.HasPrefix(t.text, "ARB_fog_") && p.prog.target == FragmentProgram {
			return p.unsupportedAt(t, "option %s (fixed-function fog after a fragment program) is not supported", t.text)
		}
		return p.errAt(t, "unknown %s option %s", p.prog.target, t.text)
	}
	if t.text == "ARB_fragment_coord_origin_upper_left" {
		// The translation has no form of the window height it needs.
		return p.unsupportedAt(t, "option %s is not supported", t.text)
	}
	p.prog.options[t.text] = true
	if p.prog.options["ARB_precision_hint_fastest"] && p.prog.options["ARB_precision_hint_nicest"] {
		return p.errAt(t, "ARB_precision_hint_fastest and ARB_precision_hint_nicest together")
	}
	return nil
}

// declare enters a new name, refusing a name already declared.
func (p *parser) declare(t token, s *symbol) error {
	if _, dup := p.names[t.text]; dup {
		return p.errAt(t, "%s redeclared", t.text)
	}
	if _, reserved := opcodes[strings.TrimSuffix(t.text, "_SAT")]; reserved {
		return p.errAt(t, "%s is an instruction name", t.text)
	}
	switch t.text {
	case "vertex", "fragment", "result", "program", "state", "texture", "OPTION", "TEMP", "ADDRESS", "ATTRIB",
		"PARAM", "OUTPUT", "ALIAS", "END":
		return p.errAt(t, "%s is a reserved word", t.text)
	}
	s.name = t.text
	p.names[t.text] = s
	return nil
}

func (p *parser) tempDecl() error {
	kw := p.take()
	p.statements++
	kind := symTemp
	if kw.text == "ADDRESS" {
		if p.prog.target != VertexProgram {
			return p.errAt(kw, "ADDRESS registers exist only in vertex programs")
		}
		kind = symAddress
	}
	for {
		t, err := p.ident("a name")
		if err != nil {
			return err
		}
		s := &symbol{kind: kind}
		if kind == symTemp {
			s.id = len(p.prog.temps)
			p.prog.temps = append(p.prog.temps, s)
		} else {
			s.id = len(p.prog.addrs)
			p.prog.addrs = append(p.prog.addrs, s)
		}
		if err := p.declare(t, s); err != nil {
			return err
		}
		if !p.isPunct(",") {
			return nil
		}
		p.take()
	}
}

// bindingHead reads the "KEYWORD name =" that begins an ATTRIB, OUTPUT or
// ALIAS statement and returns the name's token.
func (p *parser) bindingHead() (token, error) {
	p.take()
	p.statements++
	t, err := p.ident("a name")
	if err != nil {
		return t, err
	}
	_, err = p.expect("=")
	return t, err
}

func (p *parser) attribDecl() error {
	t, err := p.bindingHead()
	if err != nil {
		return err
	}
	at := p.peek()
	expr, err := p.attribBinding()
	if err != nil {
		return err
	}
	if expr == "" {
		return p.errAt(at, "expected a vertex or fragment attribute binding, found %s", at)
	}
	return p.declare(t, &symbol{kind: symAttrib, attr: expr})
}

func (p *parser) outputDecl() error {
	t, err := p.bindingHead()
	if err != nil {
		return err
	}
	if !p.isIdent("result") {
		return p.errAt(p.peek(), "expected a result binding, found %s", p.peek())
	}
	out, err := p.resultBinding()
	if err != nil {
		return err
	}
	return p.declare(t, &symbol{kind: symOutput, out: out})
}

func (p *parser) aliasDecl() error {
	t, err := p.bindingHead()
	if err != nil {
		return err
	}
	o, err := p.ident("a declared name")
	if err != nil {
		return err
	}
	s, ok := p.names[o.text]
	if !ok {
		return p.errAt(o, "ALIAS of undeclared name %s", o.text)
	}
	if _, dup := p.names[t.text]; dup {
		return p.errAt(t, "%s redeclared", t.text)
	}
	p.names[t.text] = s
	return nil
}

// paramDecl reads PARAM name = item or PARAM name[size] = { items }.
// spec: ARB_vertex_program §2.14.3.4 (program parameters; an array's size,
// when given, must equal its element count)
func (p *parser) paramDecl() error {
	p.take()
	p.statements++
	t, err := p.ident("a name")
	if err != nil {
		return err
	}
	s := &symbol{kind: symParam}
	size := -1
	if p.isPunct("[") {
		p.take()
		s.array = true
		if !p.isPunct("]") {
			n := p.take()
			if n.kind != tokNumber || n.num != math.Trunc(n.num) || n.num < 1 || n.num > MaxLocalParams+MaxEnvParams {
				return p.errAt(n, "array size must be a positive integer, found %s", n)
			}
			size = int(n.num)
		}
		if _, err := p.expect("]"); err != nil {
			return err
		}
	}
	if _, err := p.expect("="); err != nil {
		return err
	}
	if !s.array {
		start := p.peek()
		elems, err := p.paramItem(false)
		if err != nil {
			return err
		}
		if len(elems) != 1 {
			return p.errAt(start, "a binding of %d vectors needs an array PARAM", len(elems))
		}
		s.elems = elems
		return p.declare(t, s)
	}
	open, err := p.expect("{")
	if err != nil {
		return err
	}
	for {
		elems, err := p.paramItem(true)
		if err != nil {
			return err
		}
		s.elems = append(s.elems, elems...)
		if !p.isPunct(",") {
			break
		}
		p.take()
	}
	if _, err := p.expect("}"); err != nil {
		return err
	}
	if size >= 0 && size != len(s.elems) {
		return p.errAt(open, "array %s declared with %d elements is initialised with %d", t.text, size, len(s.elems))
	}
	s.id = len(p.prog.arrays)
	p.prog.arrays = append(p.prog.arrays, s)
	return p.declare(t, s)
}

// paramItem reads one parameter initialiser: a constant (a scalar or a
// {vector}), program.env / program.local (a range in an array), or a state
// binding.
func (p *parser) paramItem(multi bool) ([]paramElem, error) {
	t := p.peek()
	switch {
	case t.kind == tokIdent && t.text == "program":
		return p.programParam(multi)
	case t.kind == tokIdent && t.text == "state":
		return p.stateBinding(multi)
	}
	v, err := p.constant()
	if err != nil {
		return nil, err
	}
	return []paramElem{{kind: elemConst, value: v}}, nil
}

// constant reads a signed scalar (replicated) or a {vector} of one to four
// signed numbers (y and z default to 0, w to 1).
// spec: ARB_vertex_program §2.14.3.4 ("<paramConstVector>")
func (p *parser) constant() ([4]float32, error) {
	if p.isPunct("{") {
		p.take()
		v := [4]float32{0, 0, 0, 1}
		for i := 0; ; i++ {
			if i == 4 {
				return v, p.errAt(p.peek(), "a constant vector has at most four components")
			}
			f, err := p.signedNumber()
			if err != nil {
				return v, err
			}
			v[i] = f
			if !p.isPunct(",") {
				break
			}
			p.take()
		}
		_, err := p.expect("}")
		return v, err
	}
	f, err := p.signedNumber()
	return [4]float32{f, f, f, f}, err
}

func (p *parser) signedNumber() (float32, error) {
	neg := false
	if p.isPunct("-") || p.isPunct("+") {
		neg = p.take().text == "-"
	}
	t := p.take()
	if t.kind != tokNumber {
		return 0, p.errAt(t, "expected a number, found %s", t)
	}
	f := float32(t.num)
	if neg {
		f = -f
	}
	return f, nil
}

// intIndex reads an integer in [lo, hi).
func (p *parser) intIndex(what string, lo, hi int) (int, token, error) {
	t := p.take()
	if t.kind != tokNumber || t.num != math.Trunc(t.num) || strings.ContainsAny(t.text, ".eE") {
		return 0, t, p.errAt(t, "expected an integer %s, found %s", what, t)
	}
	if t.num < float64(lo) || t.num >= float64(hi) {
		return 0, t, p.errAt(t, "%s %s out of range (%d..%d)", what, t.text, lo, hi-1)
	}
	return int(t.num), t, nil
}

// programParam reads program.env[a] / program.local[a], or a range [a..b]
// inside an array initialiser.
func (p *parser) programParam(multi bool) ([]paramElem, error) {
	p.take()
	if _, err := p.expect("."); err != nil {
		return nil, err
	}
	t, err := p.ident("env or local")
	if err != nil {
		return nil, err
	}
	kind, limit := elemEnv, MaxEnvParams
	switch t.text {
	case "env":
	case "local":
		kind, limit = elemLocal, MaxLocalParams
	default:
		return nil, p.errAt(t, "expected program.env or program.local, found program.%s", t.text)
	}
	if _, err := p.expect("["); err != nil {
		return nil, err
	}
	a, _, err := p.intIndex("program."+t.text+" index", 0, limit)
	if err != nil {
		return nil, err
	}
	b := a
	if p.isPunct("..") {
		dots := p.take()
		if !multi {
			return nil, p.errAt(dots, "a range of parameters needs an array PARAM")
		}
		var bt token
		b, bt, err = p.intIndex("program."+t.text+" index", 0, limit)
		if err != nil {
			return nil, err
		}
		if b < a {
			return nil, p.errAt(bt, "range %d..%d is reversed", a, b)
		}
	}
	if _, err := p.expect("]"); err != nil {
		return nil, err
	}
	var out []paramElem
	for i := a; i <= b; i++ {
		out = append(out, paramElem{kind: kind, index: i})
	}
	p.noteParams(kind, b)
	return out, nil
}

// noteParams records the highest env/local index used.
func (p *parser) noteParams(kind elemKind, hi int) {
	switch kind {
	case elemEnv:
		p.prog.envMax = max(p.prog.envMax, hi+1)
	case elemLocal:
		p.prog.localMax = max(p.prog.localMax, hi+1)
	}
}
