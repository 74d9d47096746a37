package arbasm

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// The uniform names of the parameter arrays, by target.
var envNames = [...]string{VertexProgram: "vx_vp_env", FragmentProgram: "vx_fp_env"}
var localNames = [...]string{VertexProgram: "vx_vp_local", FragmentProgram: "vx_fp_local"}

// samplerName is the sampler uniform of texture image unit u.
func samplerName(u int) string { return fmt.Sprintf("vx_fp_tex%d", u) }

// glslSampler is the GLSL 1.20 sampler type of each target.
var glslSampler = [...]string{tex1D: "sampler1D", tex2D: "sampler2D", tex3D: "sampler3D", texCube: "samplerCube",
	texRect: "sampler2DRect", texShadow1D: "sampler1DShadow", texShadow2D: "sampler2DShadow", texShadowRect: "sampler2DRectShadow"}

// emitter writes the GLSL of a checked program.
type emitter struct {
	p *program
	b strings.Builder
}

// float formats f as a GLSL float literal that reads back as exactly f.
func glslFloat(f float32) string {
	switch {
	case math.IsInf(float64(f), 1):
		return "(1.0/0.0)"
	case math.IsInf(float64(f), -1):
		return "(-1.0/0.0)"
	case f != f:
		return "(0.0/0.0)"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

func vec4(v [4]float32) string {
	return fmt.Sprintf("vec4(%s, %s, %s, %s)", glslFloat(v[0]), glslFloat(v[1]), glslFloat(v[2]), glslFloat(v[3]))
}

// elemExpr is the vec4 expression of one parameter element.
func (e *emitter) elemExpr(el paramElem) string {
	switch el.kind {
	case elemEnv:
		return fmt.Sprintf("%s[%d]", envNames[e.p.target], el.index)
	case elemLocal:
		return fmt.Sprintf("%s[%d]", localNames[e.p.target], el.index)
	case elemState:
		return el.expr
	}
	return vec4(el.value)
}

// uniformRun reports whether an array's elements are consecutive entries of
// one parameter array (program.local[a..b]), which relative addressing then
// indexes directly: its uniform and first index.
func (e *emitter) uniformRun(s *symbol) (string, int, bool) {
	k := s.elems[0].kind
	if k != elemEnv && k != elemLocal {
		return "", 0, false
	}
	for i, el := range s.elems {
		if el.kind != k || el.index != s.elems[0].index+i {
			return "", 0, false
		}
	}
	if k == elemEnv {
		return envNames[e.p.target], s.elems[0].index, true
	}
	return localNames[e.p.target], s.elems[0].index, true
}

// allConst reports whether every element of an array is a constant.
func allConst(s *symbol) bool {
	for _, el := range s.elems {
		if el.kind != elemConst {
			return false
		}
	}
	return true
}

// arrayInit is the constructor of an array's elements.
func (e *emitter) arrayInit(s *symbol) string {
	parts := make([]string, len(s.elems))
	for i, el := range s.elems {
		parts[i] = e.elemExpr(el)
	}
	return fmt.Sprintf("vec4[%d](%s)", len(s.elems), strings.Join(parts, ", "))
}

// base is the vec4 expression of a source register before its swizzle.
func (e *emitter) base(s srcOperand) string {
	sym := s.sym
	switch sym.kind {
	case symTemp:
		return fmt.Sprintf("vx_t%d", sym.id)
	case symAttrib:
		return sym.attr
	}
	if !sym.array {
		return e.elemExpr(sym.elems[0])
	}
	if s.rel == nil {
		return e.elemExpr(sym.elems[s.index])
	}
	idx := fmt.Sprintf("vx_a%d", s.rel.id)
	if name, first, ok := e.uniformRun(sym); ok {
		if off := first + s.index; off != 0 {
			idx = fmt.Sprintf("%s + %d", idx, off)
		}
		return fmt.Sprintf("%s[%s]", name, idx)
	}
	if s.index != 0 {
		idx = fmt.Sprintf("%s + %d", idx, s.index)
	}
	return fmt.Sprintf("vx_p%d[%s]", sym.id, idx)
}

const compNames = "xyzw"

// vecSrc is a source operand as a vec4 (a scalar suffix replicates).
func (e *emitter) vecSrc(s srcOperand) string {
	x := e.base(s)
	if s.swz != identity {
		var sw [4]byte
		for i, c := range s.swz {
			sw[i] = compNames[c]
		}
		x = "(" + x + ")." + string(sw[:])
	}
	if s.neg {
		x = "(-" + x + ")"
	}
	return x
}

// scalarSrc is a scalar operand as a float.
func (e *emitter) scalarSrc(s srcOperand) string {
	x := "(" + e.base(s) + ")." + string(compNames[s.swz[0]])
	if s.neg {
		x = "(-" + x + ")"
	}
	return x
}

// emit writes the GLSL translation of p.
func emit(p *program) string {
	e := &emitter{p: p}
	b := &e.b
	b.WriteString("#version 120\n")
	units := make([]int, 0, len(p.units))
	for u := range p.units {
		units = append(units, u)
	}
	sort.Ints(units)
	rect := false
	for _, u := range units {
		rect = rect || p.units[u] == texRect || p.units[u] == texShadowRect
	}
	if rect {
		b.WriteString("#extension GL_ARB_texture_rectangle : enable\n")
	}
	fmt.Fprintf(b, "// Translated from an ARB %s by shader/arbasm.\n", p.target)
	if p.envMax > 0 {
		fmt.Fprintf(b, "uniform vec4 %s[%d];\n", envNames[p.target], p.envMax)
	}
	if p.localMax > 0 {
		fmt.Fprintf(b, "uniform vec4 %s[%d];\n", localNames[p.target], p.localMax)
	}
	for _, u := range units {
		fmt.Fprintf(b, "uniform %s %s;\n", glslSampler[p.units[u]], samplerName(u))
	}
	for _, s := range p.arrays {
		if _, _, ok := e.uniformRun(s); ok || !allConst(s) {
			continue
		}
		fmt.Fprintf(b, "const vec4 vx_p%d[%d] = %s;\n", s.id, len(s.elems), e.arrayInit(s))
	}
	for _, in := range p.insts {
		if in.op.name == "POW" || in.op.name == "LIT" {
			b.WriteString(powHelper)
			break
		}
	}
	b.WriteString("void main()\n{\n")
	if p.options["ARB_position_invariant"] {
		// spec: ARB_vertex_program §2.14.4.5.1: the position is
		// transformed exactly as the fixed-function pipeline does.
		b.WriteString("\tgl_Position = ftransform();\n")
	} else if p.target == VertexProgram {
		// A component the program leaves unwritten is undefined
		// (ARB_vertex_program §2.14.3.2): zero here.
		b.WriteString("\tgl_Position = vec4(0.0);\n")
	}
	for _, s := range p.temps {
		fmt.Fprintf(b, "\tvec4 vx_t%d = vec4(0.0); // TEMP %s\n", s.id, s.name)
	}
	for _, s := range p.addrs {
		fmt.Fprintf(b, "\tint vx_a%d = 0; // ADDRESS %s\n", s.id, s.name)
	}
	for _, s := range p.arrays {
		if _, _, ok := e.uniformRun(s); ok || allConst(s) {
			continue
		}
		fmt.Fprintf(b, "\tvec4 vx_p%d[%d] = %s; // PARAM %s\n", s.id, len(s.elems), e.arrayInit(s), s.name)
	}
	for _, in := range p.insts {
		e.inst(in)
	}
	b.WriteString("}\n")
	return b.String()
}

// inst writes one instruction as a block: the operands into locals, the
// result r (saturated for _SAT), then the masked components of r into the
// destination, so a destination that is also an operand is read before it
// is written.
func (e *emitter) inst(in *inst) {
	b := &e.b
	fmt.Fprintf(b, "\t{ // %d:%d %s\n", in.line, in.col, in.op.name)
	for i, s := range in.src {
		if in.op.kind == opScalar || in.op.kind == opArl {
			fmt.Fprintf(b, "\t\tfloat s%d = %s;\n", i, e.scalarSrc(s))
		} else {
			fmt.Fprintf(b, "\t\tvec4 s%d = %s;\n", i, e.vecSrc(s))
		}
	}
	if in.op.kind == opKil {
		// spec: ARB_fragment_program §3.11.5.12 (KIL): the fragment is discarded
		// when any component of the operand is negative.
		b.WriteString("\t\tif (any(lessThan(s0, vec4(0.0)))) discard;\n\t}\n")
		return
	}
	if in.op.kind == opArl {
		// spec: ARB_vertex_program §2.14.5.3 (ARL): A.x = floor(s).
		fmt.Fprintf(b, "\t\tvx_a%d = int(floor(s0));\n\t}\n", in.dst.sym.id)
		return
	}
	for _, line := range e.result(in) {
		fmt.Fprintf(b, "\t\t%s\n", line)
	}
	if in.sat {
		b.WriteString("\t\tr = clamp(r, 0.0, 1.0);\n")
	}
	e.write(in.dst)
	b.WriteString("\t}\n")
}

// write stores the masked components of r into d.
func (e *emitter) write(d dstOperand) {
	b := &e.b
	var dst string
	scalar := -1
	switch d.sym.kind {
	case symTemp:
		dst = fmt.Sprintf("vx_t%d", d.sym.id)
	case symOutput:
		dst, scalar = d.sym.out.glsl, d.sym.out.scalar
	}
	if scalar >= 0 {
		if d.mask&(1<<scalar) != 0 {
			fmt.Fprintf(b, "\t\t%s = r.%c;\n", dst, compNames[scalar])
		}
		return
	}
	if d.mask == 0xf {
		fmt.Fprintf(b, "\t\t%s = r;\n", dst)
		return
	}
	var m []byte
	for c := range 4 {
		if d.mask&(1<<c) != 0 {
			m = append(m, compNames[c])
		}
	}
	fmt.Fprintf(b, "\t\t%s.%s = r.%s;\n", dst, m, m)
}
