package arbasm

// Target is the kind of program: a vertex or a fragment program.
type Target uint8

// The two program targets.
const (
	VertexProgram   Target = iota // GL_VERTEX_PROGRAM_ARB, "!!ARBvp1.0"
	FragmentProgram               // GL_FRAGMENT_PROGRAM_ARB, "!!ARBfp1.0"
)

func (t Target) String() string {
	if t == FragmentProgram {
		return "fragment program"
	}
	return "vertex program"
}

// symKind is what a declared name denotes. spec: ARB_vertex_program §2.14.3
// (program variables: temporaries, address registers, attributes, parameters,
// results, aliases)
type symKind uint8

const (
	symTemp symKind = iota
	symAddress
	symAttrib
	symParam
	symOutput
)

var symKindNames = [...]string{"TEMP", "ADDRESS", "ATTRIB", "PARAM", "OUTPUT"}

// symbol is a program variable: a declared name or an anonymous binding used
// inline (vertex.color, program.local[2], {1, 2, 3, 4}).
type symbol struct {
	name string
	kind symKind
	// id numbers temporaries, address registers and parameter arrays; their
	// GLSL variables are vx_t<id>, vx_a<id>, vx_p<id>.
	id int
	// attr is an attribute's vec4 GLSL expression (symAttrib).
	attr string
	// out is a result binding (symOutput).
	out *output
	// elems are a parameter's elements; array marks a declared array
	// (which alone takes an index).
	elems []paramElem
	array bool
}

// output is a result binding: the GLSL variable it writes and, for a
// scalar result (fog coordinate, point size, depth), the one component of
// the ARB register that reaches it.
type output struct {
	name   string // for messages: result.color, result.texcoord[1]...
	glsl   string
	scalar int // -1: a vec4 result; else the component written
}

// elemKind is the source of one parameter element.
type elemKind uint8

const (
	elemConst elemKind = iota
	elemEnv
	elemLocal
	elemState
)

// paramElem is one vec4 of a parameter: a constant, program.env[index],
// program.local[index] or a state vector (expr, a GLSL vec4 expression of
// the compatibility built-in uniforms). spec: ARB_vertex_program §2.14.3.4
type paramElem struct {
	kind  elemKind
	value [4]float32
	index int
	expr  string
}

// srcOperand is a source register use: the variable, an array index
// (absolute, or relative to an address register with an offset), the
// swizzle and the negation. scalar marks a single-component suffix.
type srcOperand struct {
	sym    *symbol
	index  int
	rel    *symbol // the address register of a relative index, nil otherwise
	swz    [4]uint8
	scalar bool
	neg    bool
	line   int
	col    int
}

// extComp is one component of SWZ's extended swizzle: a source component
// (0-3) or the constant 0 or 1 (zero, one), optionally negated.
// spec: ARB_vertex_program §2.14.5.26 (SWZ)
type extComp struct {
	comp      uint8
	zero, one bool
	neg       bool
}

// dstOperand is a destination: the variable and its write mask (bit 0 x ...
// bit 3 w).
type dstOperand struct {
	sym  *symbol
	mask uint8
}

// inst is one instruction.
type inst struct {
	op   *opInfo
	sat  bool
	dst  dstOperand
	src  []srcOperand
	ext  [4]extComp // SWZ
	unit int        // texture instructions: texture image unit
	tex  texTarget  // texture instructions: target
	line int
	col  int
}

// program is a parsed and checked program.
type program struct {
	target  Target
	options map[string]bool
	insts   []*inst
	temps   []*symbol
	addrs   []*symbol
	arrays  []*symbol
	// envMax and localMax are one more than the highest program.env and
	// program.local index used (0: none).
	envMax, localMax int
	// units maps each texture image unit a texture instruction reads to
	// its target.
	units map[int]texTarget
}
