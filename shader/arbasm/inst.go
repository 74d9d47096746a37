package arbasm

import (
	"fmt"
	"strings"
)

// instruction reads and checks one instruction. spec: ARB_vertex_program
// §2.14.2 (<instruction>), §2.14.4 (operand and result processing),
// ARB_fragment_program §3.11.2, §3.11.4
func (p *parser) instruction() error {
	opTok := p.take()
	p.statements++
	name, sat := opTok.text, false
	if base, ok := strings.CutSuffix(name, "_SAT"); ok {
		name, sat = base, true
	}
	op, ok := opcodes[name]
	if !ok {
		return p.errAt(opTok, "unknown instruction %s", opTok.text)
	}
	vp := p.prog.target == VertexProgram
	if vp && !op.vp || !vp && !op.fp {
		return p.errAt(opTok, "%s is not a %s instruction", name, p.prog.target)
	}
	if sat && (vp || op.kind == opKil) {
		return p.errAt(opTok, "%s has no _SAT form in a %s", name, p.prog.target)
	}
	in := &inst{op: op, sat: sat, line: opTok.line, col: opTok.col}
	if op.kind == opKil {
		s, err := p.srcOperand()
		if err != nil {
			return err
		}
		in.src = []srcOperand{s}
		p.prog.insts = append(p.prog.insts, in)
		return nil
	}
	dst, err := p.dstOperand(op)
	if err != nil {
		return err
	}
	in.dst = dst
	for i := range op.nsrc {
		if _, err := p.expect(","); err != nil {
			return err
		}
		s, err := p.srcOperand()
		if err != nil {
			return err
		}
		if (op.kind == opScalar || op.kind == opArl) && !s.scalar {
			return &Error{Line: s.line, Col: s.col, Msg: fmt.Sprintf("%s operand %d must be a scalar (a one-component suffix such as .x)", name, i+1)}
		}
		in.src = append(in.src, s)
	}
	switch op.kind {
	case opSwz:
		if in.src[0].swz != identity || in.src[0].scalar {
			return &Error{Line: in.src[0].line, Col: in.src[0].col, Msg: "SWZ's operand takes no swizzle suffix (the extended swizzle follows it)"}
		}
		if _, err := p.expect(","); err != nil {
			return err
		}
		if in.ext, err = p.extSwizzle(); err != nil {
			return err
		}
	case opTex:
		if err := p.texOperand(in); err != nil {
			return err
		}
	}
	p.prog.insts = append(p.prog.insts, in)
	return nil
}

// identity is the swizzle .xyzw.
var identity = [4]uint8{0, 1, 2, 3}

// components reads a swizzle or mask suffix: xyzw letters, or (fragment
// programs) rgba letters, not mixed.
func (p *parser) components(t token) ([]uint8, error) {
	xyzw, rgba := "xyzw", "rgba"
	var out []uint8
	set := ""
	for _, c := range t.text {
		i := strings.IndexRune(xyzw, c)
		s := xyzw
		if i < 0 && p.prog.target == FragmentProgram {
			i, s = strings.IndexRune(rgba, c), rgba
		}
		if i < 0 || set != "" && set != s {
			return nil, p.errAt(t, "invalid component suffix .%s", t.text)
		}
		set = s
		out = append(out, uint8(i))
	}
	return out, nil
}

// dstOperand reads a destination register and its optional write mask.
func (p *parser) dstOperand(op *opInfo) (dstOperand, error) {
	t := p.peek()
	var d dstOperand
	switch {
	case t.kind == tokIdent && t.text == "result":
		out, err := p.resultBinding()
		if err != nil {
			return d, err
		}
		d.sym = &symbol{kind: symOutput, out: out}
	case t.kind == tokIdent:
		p.take()
		s, ok := p.names[t.text]
		if !ok {
			return d, p.errAt(t, "undeclared name %s", t.text)
		}
		d.sym = s
	default:
		return d, p.errAt(t, "expected a destination register, found %s", t)
	}
	switch k := d.sym.kind; {
	case op.kind == opArl && k != symAddress:
		return d, p.errAt(t, "ARL writes an ADDRESS register, not %s %s", symKindNames[k], t.text)
	case op.kind != opArl && k == symAddress:
		return d, p.errAt(t, "only ARL writes ADDRESS register %s", t.text)
	case k != symTemp && k != symOutput && k != symAddress:
		return d, p.errAt(t, "%s %s cannot be written", symKindNames[k], t.text)
	}
	if d.sym.kind == symOutput && d.sym.out.glsl == "gl_Position" && p.prog.options["ARB_position_invariant"] {
		return d, p.errAt(t, "result.position written under OPTION ARB_position_invariant")
	}
	d.mask = 0xf
	if p.isPunct(".") {
		p.take()
		mt, err := p.ident("a write mask")
		if err != nil {
			return d, err
		}
		comps, err := p.components(mt)
		if err != nil {
			return d, err
		}
		d.mask = 0
		last := -1
		for _, c := range comps {
			if int(c) <= last {
				return d, p.errAt(mt, "write mask .%s is not in xyzw order", mt.text)
			}
			last = int(c)
			d.mask |= 1 << c
		}
	}
	if op.kind == opArl && d.mask != 1 {
		return d, p.errAt(t, "ARL writes only the x component of an address register")
	}
	if op.mask != 0 && d.mask&^op.mask != 0 {
		return d, p.errAt(t, "%s writes only x and y", op.name)
	}
	return d, nil
}

// srcOperand reads [sign] register [index] [.swizzle].
func (p *parser) srcOperand() (srcOperand, error) {
	t := p.peek()
	s := srcOperand{swz: identity, line: t.line, col: t.col}
	if p.isPunct("-") || p.isPunct("+") {
		s.neg = p.take().text == "-"
	}
	t = p.peek()
	switch {
	case t.kind == tokIdent && (t.text == "vertex" || t.text == "fragment"):
		expr, err := p.attribBinding()
		if err != nil {
			return s, err
		}
		s.sym = &symbol{kind: symAttrib, attr: expr}
	case t.kind == tokIdent && (t.text == "program" || t.text == "state"):
		elems, err := p.paramItem(false)
		if err != nil {
			return s, err
		}
		if len(elems) != 1 {
			return s, p.errAt(t, "a binding of %d vectors cannot be an operand", len(elems))
		}
		s.sym = &symbol{kind: symParam, elems: elems}
	case t.kind == tokNumber || t.kind == tokPunct && t.text == "{":
		v, err := p.constant()
		if err != nil {
			return s, err
		}
		s.sym = &symbol{kind: symParam, elems: []paramElem{{kind: elemConst, value: v}}}
	case t.kind == tokIdent:
		p.take()
		sym, ok := p.names[t.text]
		if !ok {
			return s, p.errAt(t, "undeclared name %s", t.text)
		}
		switch sym.kind {
		case symOutput:
			return s, p.errAt(t, "OUTPUT %s cannot be read", t.text)
		case symAddress:
			return s, p.errAt(t, "ADDRESS register %s is only an array index", t.text)
		}
		s.sym = sym
		if sym.array {
			if err := p.arrayIndex(&s); err != nil {
				return s, err
			}
		} else if p.isPunct("[") {
			return s, p.errAt(p.peek(), "%s is not an array", t.text)
		}
	default:
		return s, p.errAt(t, "expected a source register, found %s", t)
	}
	if p.isPunct(".") {
		p.take()
		st, err := p.ident("a swizzle")
		if err != nil {
			return s, err
		}
		comps, err := p.components(st)
		if err != nil {
			return s, err
		}
		switch len(comps) {
		case 1:
			s.scalar = true
			s.swz = [4]uint8{comps[0], comps[0], comps[0], comps[0]}
		case 4:
			copy(s.swz[:], comps)
		default:
			return s, p.errAt(st, "a swizzle has one or four components, not .%s", st.text)
		}
	}
	return s, nil
}

// arrayIndex reads "[n]" or "[A.x]" / "[A.x + n]" / "[A.x - n]" after an
// array name. spec: ARB_vertex_program §2.14.4.1 (relative addressing;
// fragment programs have no address registers). The grammar's offsets are
// -64..63; Mesa, the conformance oracle, accepts any offset within the
// parameter space, and so does this parser (maxAddressOffset).
func (p *parser) arrayIndex(s *srcOperand) error {
	if _, err := p.expect("["); err != nil {
		return err
	}
	n := len(s.sym.elems)
	t := p.peek()
	if t.kind == tokNumber {
		k, _, err := p.intIndex("array index", 0, n)
		if err != nil {
			return err
		}
		s.index = k
		_, err = p.expect("]")
		return err
	}
	at, err := p.ident("an array index")
	if err != nil {
		return err
	}
	a, ok := p.names[at.text]
	if !ok || a.kind != symAddress {
		return p.errAt(at, "array index %s is not an ADDRESS register", at.text)
	}
	if _, err := p.expect("."); err != nil {
		return err
	}
	if err := p.expectKeyword("x"); err != nil {
		return err
	}
	s.rel = a
	if p.isPunct("+") || p.isPunct("-") {
		neg := p.take().text == "-"
		k, _, err := p.intIndex("address offset", 0, maxAddressOffset)
		if err != nil {
			return err
		}
		if neg {
			k = -k
		}
		s.index = k
	}
	_, err = p.expect("]")
	return err
}

// extSwizzle reads SWZ's four comma-separated components, each an optional
// sign and 0, 1 or a component letter. spec: ARB_vertex_program §2.14.4.2
// (<extendedSwizzle>)
func (p *parser) extSwizzle() ([4]extComp, error) {
	var out [4]extComp
	set := ""
	for i := range out {
		if i > 0 {
			if _, err := p.expect(","); err != nil {
				return out, err
			}
		}
		c := &out[i]
		if p.isPunct("-") || p.isPunct("+") {
			c.neg = p.take().text == "-"
		}
		t := p.take()
		switch {
		case t.kind == tokNumber && t.text == "0":
			c.zero = true
		case t.kind == tokNumber && t.text == "1":
			c.one = true
		case t.kind == tokIdent && len(t.text) == 1:
			comps, err := p.components(t)
			if err != nil {
				return out, err
			}
			s := "xyzw"
			if !strings.Contains(s, t.text) {
				s = "rgba"
			}
			if set != "" && set != s {
				return out, p.errAt(t, "extended swizzle mixes xyzw and rgba")
			}
			set = s
			c.comp = comps[0]
		default:
			return out, p.errAt(t, "expected 0, 1 or a component in the extended swizzle, found %s", t)
		}
	}
	return out, nil
}

// texOperand reads ", texture[n], TARGET" and checks the unit and target.
// spec: ARB_fragment_program §3.11.2 (<texImageUnit>, <texTarget>), §3.11.6
// (a program that samples one unit with two targets fails to load),
// ARB_fragment_program_shadow (SHADOW targets need the option)
func (p *parser) texOperand(in *inst) error {
	if _, err := p.expect(","); err != nil {
		return err
	}
	if err := p.expectKeyword("texture"); err != nil {
		return err
	}
	unit, err := p.optIndex("texture image unit", MaxTextureUnit)
	if err != nil {
		return err
	}
	if _, err := p.expect(","); err != nil {
		return err
	}
	tt := p.take()
	name := tt.text
	if nt := p.peek(); tt.kind == tokNumber && nt.kind == tokIdent && nt.line == tt.line && nt.col == tt.col+len(tt.text) {
		// 1D, 2D, 3D lex as a number and a name.
		p.take()
		name += nt.text
	}
	target, ok := texTargets[name]
	if !ok {
		return p.errAt(tt, "expected a texture target (1D, 2D, 3D, CUBE, RECT, SHADOW1D, SHADOW2D, SHADOWRECT), found %s", tt)
	}
	if target.shadow() && !p.prog.options["ARB_fragment_program_shadow"] {
		return p.errAt(tt, "target %s needs OPTION ARB_fragment_program_shadow", name)
	}
	if prev, used := p.prog.units[unit]; used && prev != target {
		return p.errAt(tt, "texture[%d] sampled as %s and as %s", unit, prev, target)
	}
	p.prog.units[unit] = target
	in.unit, in.tex = unit, target
	return nil
}
