// Package ir is the shader intermediate representation: a small, plain, scalar and
// typed IR in which every register is one 32-bit word read as a float, an int, a uint
// or a bool, with structured control flow (if/else, loop with break/continue and a
// continue block, return, discard, demote) so that it maps directly onto SIMT
// execution masks. A Verify pass checks a Program once (register bounds, operand
// types, structured nesting, constant array bounds, sampler ids) so that the executor
// in package shader/exec never bounds-checks per lane. The package also holds the
// scalar semantics of every ALU opcode (Eval), a stable text printer, and the
// optimisation passes: inlining, constant folding, copy propagation and dead-code
// elimination.
//
// spec: vortexpipe-driver §2.2 (one value per 32-bit word, bit-cast to the
// interpretation an operation needs), software-shader-backend "Structured control
// flow" (the semantics kept) and "Reciprocal and square root behavior" (the collapses
// not copied: float maths here is IEEE single precision).
package ir

import "fmt"

// Type is the interpretation of a 32-bit register word.
type Type uint8

// Register types. A Bool word holds 0 (false) or 1 (true).
const (
	TNone Type = iota
	F32
	I32
	U32
	Bool
)

func (t Type) String() string {
	switch t {
	case F32:
		return "f32"
	case I32:
		return "i32"
	case U32:
		return "u32"
	case Bool:
		return "bool"
	}
	return "none"
}

// Reg is a register number: an index into Program.Regs.
type Reg uint32

// NoReg marks an unused register operand.
const NoReg Reg = ^Reg(0)

// Inst is one IR instruction. Which fields are meaningful depends on Op (see the
// opcode comments): Dst and Src are registers, Imm is a constant (raw bits for Const,
// a word offset for inputs, outputs and uniforms, a base register for array ops, an
// index into Program.Tex for Tex, a function index for Call, a component selector
// for the unpack ops); Len and Stride describe the element range of indexed ops.
type Inst struct {
	Op     Op
	Dst    Reg
	Src    [4]Reg
	Imm    uint32
	Len    uint32
	Stride uint32
}

// Stage is the shader stage a program runs in.
type Stage uint8

// Shader stages. spec: vortexpipe-driver §2.3.1.
const (
	Vertex Stage = iota
	Fragment
	Compute // spec: vortexpipe-driver §2.2 (compute: one thread per work-item)
	// Geometry runs one invocation per input primitive per lane and emits
	// vertices (ir.Emit). spec: GL 4.6 §11.3.
	Geometry
)

func (s Stage) String() string {
	switch s {
	case Fragment:
		return "fragment"
	case Compute:
		return "compute"
	case Geometry:
		return "geometry"
	}
	return "vertex"
}

// Slot names a range of words in an input, output or uniform buffer.
type Slot struct {
	Name     string
	Word     int  // first word
	Words    int  // number of words
	Type     Type // type of every word in the slot (scalar components)
	Location int  // GLSL location, -1 when not assigned
	// Index is a fragment output's dual-source index: 1 marks the second colour
	// (blend factors SRC1_*) of the render target at Location, 0 otherwise.
	// The second colours are placed after all index-0 colours (Word >= 4 x the
	// number of colour locations), so a renderer that maps output word 4L to
	// target L never mistakes one for a colour of its own target; it finds
	// them by Index. spec: GLSL 3.30 §4.3.8.2, vortexpipe-driver §3.7
	// (dual-source blending).
	Index int
	Flat  bool // inputs: not interpolated (flat or integer)
	// NoPerspective marks inputs interpolated linearly in screen space.
	NoPerspective bool
	// Sample marks fragment inputs with the sample qualifier: evaluated at
	// each sample's position, which makes the stage run once per covered
	// sample on a multisampled target. spec: GLSL 4.00 §4.3.6, GL 4.6
	// §14.3.1.1
	Sample bool
	// Centroid marks fragment inputs with the centroid qualifier: on a
	// multisampled target evaluated inside the primitive (at a covered
	// sample when the pixel is partly covered). spec: GLSL 4.00 §4.3.6
	Centroid bool
}

// SamplerKind is the dimensionality and class of a sampler binding.
type SamplerKind uint8

// Sampler kinds. spec: vortexpipe-driver §2.3.2 (2D, 3D, cube, 2D-array, shadow).
const (
	Sampler2D SamplerKind = iota
	Sampler3D
	SamplerCube
	Sampler2DArray
	Sampler2DShadow
	SamplerCubeShadow
	Sampler2DArrayShadow
	Sampler1D
	Sampler1DShadow
	// spec: vortexpipe-driver §3.6 ("1D arrays, txf_ms, textureQueryLod,
	// query_levels"; cube arrays; rectangle textures with unnormalised
	// coordinates, GLSL 1.40).
	Sampler1DArray
	Sampler1DArrayShadow
	SamplerCubeArray
	SamplerCubeArrayShadow
	Sampler2DRect
	Sampler2DRectShadow
	Sampler2DMS      // texelFetch(…, sample) and textureSize only
	Sampler2DMSArray // texelFetch(…, sample) and textureSize only
	// SamplerBuffer is a buffer texture (GLSL 1.40 samplerBuffer and its
	// integer forms): texelFetch(s, int) and textureSize(s) only.
	SamplerBuffer
)

// LastSamplerKind is the highest SamplerKind.
const LastSamplerKind = SamplerBuffer

var samplerKindNames = [...]string{"2d", "3d", "cube", "2darray", "2dshadow", "cubeshadow", "2darrayshadow", "1d", "1dshadow",
	"1darray", "1darrayshadow", "cubearray", "cubearrayshadow", "2drect", "2drectshadow", "2dms", "2dmsarray", "buffer"}

func (k SamplerKind) String() string {
	if int(k) < len(samplerKindNames) {
		return samplerKindNames[k]
	}
	return "sampler?"
}

// Coords returns the number of coordinate components the kind addresses with
// (including the array layer, excluding a shadow reference).
func (k SamplerKind) Coords() int {
	switch k {
	case Sampler1D, Sampler1DShadow, SamplerBuffer:
		return 1
	case Sampler2D, Sampler2DShadow, Sampler1DArray, Sampler1DArrayShadow, Sampler2DRect, Sampler2DRectShadow, Sampler2DMS:
		return 2
	case SamplerCubeArray, SamplerCubeArrayShadow:
		return 4
	default:
		return 3
	}
}

// Dims returns the number of coordinate components that address texels within
// one layer (Coords without the array layer): the components that have
// derivatives and that textureQueryLod takes.
func (k SamplerKind) Dims() int {
	if k.Array() {
		return k.Coords() - 1
	}
	return k.Coords()
}

// Array reports whether the kind has an array layer coordinate.
func (k SamplerKind) Array() bool {
	switch k {
	case Sampler2DArray, Sampler2DArrayShadow, Sampler1DArray, Sampler1DArrayShadow,
		SamplerCubeArray, SamplerCubeArrayShadow, Sampler2DMSArray:
		return true
	}
	return false
}

// Multisample reports whether the kind is a multisample texture (texelFetch
// with a sample number and textureSize only).
func (k SamplerKind) Multisample() bool { return k == Sampler2DMS || k == Sampler2DMSArray }

// FetchOnly reports whether the kind is read only by texelFetch and
// textureSize (multisample and buffer textures).
func (k SamplerKind) FetchOnly() bool { return k.Multisample() || k == SamplerBuffer }

// Shadow reports whether the kind compares against a reference value.
func (k SamplerKind) Shadow() bool {
	switch k {
	case Sampler2DShadow, SamplerCubeShadow, Sampler2DArrayShadow, Sampler1DShadow,
		Sampler1DArrayShadow, SamplerCubeArrayShadow, Sampler2DRectShadow:
		return true
	}
	return false
}

// SamplerBinding is one sampler uniform: its texture unit and result type.
type SamplerBinding struct {
	Name   string
	Unit   int
	Kind   SamplerKind
	Result Type // F32, I32 or U32 texel words
}

// TexOp is the kind of a texture instruction.
type TexOp uint8

// Texture operations. spec: vortexpipe-driver §2.3.2, §3.6.
const (
	TexSample      TexOp = iota // implicit LOD (fragment: from quad derivatives); Bias optional
	TexSampleLod                // explicit LOD
	TexSampleGrad               // explicit gradients
	TexFetch                    // texelFetch: integer coordinates and level
	TexSize                     // textureSize at level Lod (int)
	TexGather                   // textureGather, component Comp
	TexQueryLevels              // textureQueryLevels
	// TexQueryLod is textureQueryLod: Dst[0] the mip level a sample would
	// access and Dst[1] the level of detail, both relative to the base level
	// (floats). Coordinates are the kind's Dims() components; in a fragment
	// program the executor supplies their quad gradients as for TexSample.
	TexQueryLod
)

// LastTexOp is the highest TexOp.
const LastTexOp = TexQueryLod

var texOpNames = [...]string{"sample", "samplelod", "samplegrad", "fetch", "size", "gather", "levels", "querylod"}

func (o TexOp) String() string {
	if int(o) < len(texOpNames) {
		return texOpNames[o]
	}
	return "texop?"
}

// TexInfo is the operand record of one Tex instruction. Unused registers are NoReg.
// Coordinates are float registers except for TexFetch (int). Lod is float except
// for TexFetch and TexSize (int); for a TexFetch on a multisample kind Lod is the
// sample number. Dst receives up to four result words (float for a float sampler,
// a shadow compare or TexQueryLod, int or uint for integer samplers, int for
// TexSize and TexQueryLevels). Offsets, when HasOffsets, gives each texel of a
// TexGather its own (s, t) offset (textureGatherOffsets). DynOffset, when
// HasDynOffset, holds the int registers of a TexGather's run-time (s, t) offset
// (ARB_gpu_shader5's non-constant textureGatherOffset), one per lane.
type TexInfo struct {
	Op        TexOp
	Sampler   int
	Dst       [4]Reg
	Coord     [4]Reg
	NCoord    int
	Lod       Reg
	Bias      Reg
	Compare   Reg
	DPdx      [3]Reg
	DPdy      [3]Reg
	Offset    [3]int32
	HasOffset bool
	Comp      int

	Offsets    [4][2]int32
	HasOffsets bool

	DynOffset    [2]Reg
	HasDynOffset bool
}

// DynRegs returns pointers to the run-time offset registers (none unless
// HasDynOffset), for the passes that read or rename a record's registers.
func (t *TexInfo) DynRegs() []*Reg {
	if !t.HasDynOffset {
		return nil
	}
	return []*Reg{&t.DynOffset[0], &t.DynOffset[1]}
}

// Func is a function body that Call instructions run (before inlining). Parameters
// and results are passed in registers that the caller moves into and out of; GLSL
// has no recursion, so every function owns its registers.
type Func struct {
	Name string
	Code []Inst
}

// Program is a complete shader in IR form.
type Program struct {
	Stage        Stage
	Regs         []Type // type of each register
	Inputs       []Slot
	Outputs      []Slot
	Uniforms     []Slot
	InputWords   int
	OutputWords  int
	UniformWords int
	Samplers     []SamplerBinding
	Tex          []TexInfo
	Funcs        []Func
	Code         []Inst

	// FlushDenormals makes float arithmetic flush denormal (subnormal) results
	// to a zero of the same sign, in the executor and in the constant folder
	// alike (see Op.FlushesDenormals). GLSL permits it (GLSL 4.60 §4.7.1:
	// "denormalized values ... may be flushed to zero"), and llvmpipe, the
	// conformance oracle, does it; the lowering sets it for vertex and fragment
	// programs. Compute programs and hand-built IR keep IEEE subnormals.
	FlushDenormals bool

	// Compute layout (zero for other stages). A compute program's inputs are the
	// ComputeInputWords built-in words (see InLocalID); LocalSize is its
	// layout(local_size_x/y/z) and SharedBytes the size of its shared variables.
	LocalSize   [3]uint32
	SharedBytes uint32
	// Geometry is the geometry layout (zero for other stages).
	Geometry GeometryLayout
	// Storage resources, any stage: shader storage blocks, atomic counters and
	// storage images, each addressed by binding in its Space.
	Buffers  []BufferBinding
	Counters []CounterBinding
	Images   []ImageBinding
}

// Builder appends registers and instructions to a Program.
type Builder struct {
	P    *Program
	code *[]Inst
}

// NewBuilder returns a builder that emits into p.Code.
func NewBuilder(p *Program) *Builder { return &Builder{P: p, code: &p.Code} }

// Into redirects emission to code (for example a function body) and returns the
// previous target so that it can be restored.
func (b *Builder) Into(code *[]Inst) *[]Inst {
	old := b.code
	b.code = code
	return old
}

// Reg allocates a register of type t.
func (b *Builder) Reg(t Type) Reg {
	b.P.Regs = append(b.P.Regs, t)
	return Reg(len(b.P.Regs) - 1)
}

// Emit appends an instruction.
func (b *Builder) Emit(in Inst) { *b.code = append(*b.code, in) }

// Op emits an ALU op into a fresh register of type t and returns it.
func (b *Builder) Op(op Op, t Type, src ...Reg) Reg {
	d := b.Reg(t)
	b.OpTo(op, d, src...)
	return d
}

// OpTo emits an ALU op writing dst.
func (b *Builder) OpTo(op Op, dst Reg, src ...Reg) {
	in := Inst{Op: op, Dst: dst, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}}
	copy(in.Src[:], src)
	b.Emit(in)
}

// Ctl emits a control-flow or no-destination instruction.
func (b *Builder) Ctl(op Op, src ...Reg) {
	in := Inst{Op: op, Dst: NoReg, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}}
	copy(in.Src[:], src)
	b.Emit(in)
}

// ConstF returns a fresh float register holding v.
func (b *Builder) ConstF(v float32) Reg { return b.Const(F32, F32Bits(v)) }

// ConstI returns a fresh int register holding v.
func (b *Builder) ConstI(v int32) Reg { return b.Const(I32, uint32(v)) }

// ConstU returns a fresh uint register holding v.
func (b *Builder) ConstU(v uint32) Reg { return b.Const(U32, v) }

// ConstB returns a fresh bool register holding v.
func (b *Builder) ConstB(v bool) Reg {
	if v {
		return b.Const(Bool, 1)
	}
	return b.Const(Bool, 0)
}

// Const returns a fresh register of type t holding the raw bits.
func (b *Builder) Const(t Type, bits uint32) Reg {
	d := b.Reg(t)
	b.Emit(Inst{Op: Const, Dst: d, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}, Imm: bits})
	return d
}

// Imm emits an instruction with an immediate operand (inputs, outputs, uniforms,
// unpack component) and returns dst.
func (b *Builder) Imm(op Op, dst Reg, imm uint32, src ...Reg) Reg {
	in := Inst{Op: op, Dst: dst, Src: [4]Reg{NoReg, NoReg, NoReg, NoReg}, Imm: imm}
	copy(in.Src[:], src)
	b.Emit(in)
	return dst
}

// AnyInst reports whether f holds for some instruction of p: its main code
// or any function's (for the analyses the renderers make of a program, e.g.
// "does it discard", "does it store to memory").
func (p *Program) AnyInst(f func(in *Inst) bool) bool {
	for i := range p.Code {
		if f(&p.Code[i]) {
			return true
		}
	}
	for _, fn := range p.Funcs {
		for i := range fn.Code {
			if f(&fn.Code[i]) {
				return true
			}
		}
	}
	return false
}

// Clone returns a deep copy of p.
func (p *Program) Clone() *Program {
	q := *p
	q.Regs = append([]Type(nil), p.Regs...)
	q.Inputs = append([]Slot(nil), p.Inputs...)
	q.Outputs = append([]Slot(nil), p.Outputs...)
	q.Uniforms = append([]Slot(nil), p.Uniforms...)
	q.Samplers = append([]SamplerBinding(nil), p.Samplers...)
	q.Tex = append([]TexInfo(nil), p.Tex...)
	q.Buffers = append([]BufferBinding(nil), p.Buffers...)
	q.Counters = append([]CounterBinding(nil), p.Counters...)
	q.Images = append([]ImageBinding(nil), p.Images...)
	q.Code = append([]Inst(nil), p.Code...)
	q.Funcs = make([]Func, len(p.Funcs))
	for i, f := range p.Funcs {
		q.Funcs[i] = Func{Name: f.Name, Code: append([]Inst(nil), f.Code...)}
	}
	if len(p.Funcs) == 0 {
		q.Funcs = nil
	}
	return &q
}

// Error is a verification or pass error naming the function and instruction.
type Error struct {
	Func string // "" for the main body
	PC   int
	Msg  string
}

func (e *Error) Error() string {
	where := "main"
	if e.Func != "" {
		where = e.Func
	}
	return fmt.Sprintf("ir: %s@%d: %s", where, e.PC, e.Msg)
}
