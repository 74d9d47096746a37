package ast

// Storage is the storage qualifier of a variable. spec: GLSL 4.50 §4.3.
type Storage uint8

// Storage qualifiers. Attribute and Varying are the legacy spellings; the checker
// records them as In/Out (Varying in a fragment shader is In) and keeps the legacy
// flag in Qualifiers.Legacy.
const (
	StorageNone       Storage = iota // local or global temporary
	StorageConst                     // compile-time constant
	StorageIn                        // stage input (attribute, varying in FS)
	StorageOut                       // stage output
	StorageUniform                   // uniform (plain or block member)
	StorageParamIn                   // function parameter: in (also the default)
	StorageParamOut                  // function parameter: out
	StorageParamInOut                // function parameter: inout
	StorageAttribute                 // as written: attribute (parser only)
	StorageVarying                   // as written: varying (parser only)
	StorageBuffer                    // buffer (rejected in vertex/fragment GLSL < 4.30)
	StorageShared                    // shared (compute only; rejected)
)

var storageNames = [...]string{"", "const", "in", "out", "uniform", "in", "out", "inout",
	"attribute", "varying", "buffer", "shared"}

func (s Storage) String() string {
	if int(s) < len(storageNames) {
		return storageNames[s]
	}
	return "storage?"
}

// Interp is the interpolation qualifier. spec: GLSL 4.50 §4.5.
type Interp uint8

// Interpolation qualifiers.
const (
	InterpNone Interp = iota // default: smooth for floats
	InterpSmooth
	InterpFlat
	InterpNoPerspective
)

func (i Interp) String() string {
	return [...]string{"", "smooth", "flat", "noperspective"}[i]
}

// Precision is a precision qualifier; accepted and recorded, computation is always
// 32-bit. spec: GLSL ES 3.00 §4.5.
type Precision uint8

// Precisions.
const (
	PrecNone Precision = iota
	PrecLow
	PrecMedium
	PrecHigh
)

// LayoutQual is one layout(...) entry, e.g. location = 2 or std140.
type LayoutQual struct {
	NamePos Pos
	Name    string // lower-cased for the case-insensitive GLSL < 4.30 names is NOT done; as written
	Value   Expr   // nil when no "= value"
}

// Qualifiers are the qualifiers written in front of a declaration.
type Qualifiers struct {
	Pos       Pos
	Storage   Storage
	Interp    Interp
	Centroid  bool
	Sample    bool
	Invariant bool
	Precise   bool
	Patch     bool
	Precision Precision
	Layout    []LayoutQual
	Count     int // number of qualifier tokens seen (for "no qualifiers" checks)
	// Memory qualifiers (GLSL 4.30 §4.10): buffer block members and images.
	Coherent, Volatile, Restrict, ReadOnlyMem, WriteOnlyMem bool
}

// VarKind tells where a variable lives.
type VarKind uint8

// Variable kinds.
const (
	VarLocal   VarKind = iota // function-local (including for/while declarations)
	VarGlobal                 // global, non-interface (private per invocation)
	VarParam                  // function parameter
	VarIn                     // shader stage input
	VarOut                    // shader stage output
	VarUniform                // uniform, incl. block members (Block != nil)
	VarConst                  // const-qualified (Value is the folded initialiser when constant)
	VarBuffer                 // shader storage block member or instance (Block != nil)
	VarShared                 // compute-shader shared variable (workgroup memory)
)

// Var is a declared variable, including built-ins (Builtin true, Name "gl_...").
// The lowering keys its storage on the *Var pointer.
type Var struct {
	Name    string
	DeclPos Pos
	Type    *Type
	Kind    VarKind
	Qual    Qualifiers
	// Param is the parameter direction for VarParam (StorageParamIn/Out/InOut).
	Param Storage
	// Builtin marks GLSL's predefined variables (gl_Position, gl_FragColor, ...).
	Builtin bool
	// ConstValue is the value of a const variable with a constant initialiser.
	ConstValue *Value
	// Location is the explicit layout(location) or -1 (for a member of an
	// in/out block, the location the block's layout assigns it).
	Location int
	// Component is the first component of Location the variable takes
	// (layout(component = N), 0 by default). spec: GLSL 4.40 §4.4.1,
	// ARB_enhanced_layouts
	Component int
	// Index is a fragment output's layout(index): 1 for the second colour of
	// dual-source blending, else 0. spec: GLSL 3.30 §4.3.8.2.
	Index int
	// Stream is a geometry shader output's vertex stream (layout(stream = N),
	// or the stream of the last layout(stream = N) out; before it; 0 by
	// default). spec: ARB_gpu_shader5 §4.3.8.2
	Stream int
	// Binding is the explicit layout(binding) or -1.
	Binding int
	// Block is the uniform/in/out block this variable is a member of (nil if none).
	Block *InterfaceBlock
	// Offset is the std140 byte offset of a uniform block member (0 otherwise).
	Offset int
	// RowMajor marks a uniform block member whose matrices are stored row-major
	// (layout(row_major) on the block or the member).
	RowMajor bool
	// Used is set when the variable is read or written anywhere in the shader.
	Used bool
	// Written is set when the variable is assigned or passed as an out argument.
	Written bool
	// ImplicitSize marks an array declared without a size and sized by the
	// checker from a redeclaration or its largest constant index (desktop GLSL).
	ImplicitSize bool
	// ReadOnly marks variables that may not be assigned (uniforms, inputs, const,
	// in-parameters are writable, gl_FragCoord etc. are not).
	ReadOnly bool
	// Fetch marks a variable whose value on entry is the colour already in
	// the framebuffer at the fragment's pixel: a fragment output declared
	// inout, or GLSL ES 1.00's gl_LastFragData. spec:
	// EXT_shader_framebuffer_fetch, EXT_shader_framebuffer_fetch_non_coherent
	Fetch bool
}

// InterfaceBlock is a declared interface block (uniform Name { ... } inst;). spec: GLSL 4.50 §4.3.9.
type InterfaceBlock struct {
	Name     string // block name
	Instance string // instance name, "" when members are global names
	Storage  Storage
	Layout   string // "std140", "shared" or "packed"
	Binding  int    // -1 if none
	Members  []*Var
	// Type is the struct-like type of the instance when Instance != "" (arrays of
	// blocks are Array types of it); members are accessed with Selector.
	Type *Type
	// InstanceVar is the variable for the instance name (nil when anonymous).
	InstanceVar *Var
	// Size is the std140 size in bytes of one block instance (uniform blocks).
	// All layouts (std140, shared, packed) use the std140 rules here. For a
	// storage block (Storage == StorageBuffer) it is the std430 (or, with
	// layout(std140), std140) size without the unsized trailing array, whose
	// element stride is RuntimeStride (0 when the last member is sized); member
	// Var.Offset values use the same rules.
	Size          int
	RuntimeStride int
}

// Func is a user function (one overload). Prototypes and the definition of the same
// signature share one *Func. Def is nil if only a prototype was seen in this
// compilation unit; the linker resolves it in another unit of the same stage.
type Func struct {
	Name    string
	DeclPos Pos
	Result  *Type
	Params  []*Var
	Def     *FuncDecl
	// Used is set when the function is called.
	Used bool
}

// ---------------------------------------------------------------------------
// Declarations

// Decl is an external (global) or local declaration.
type Decl interface {
	Node
	declNode()
}

// VarSpec is one declarator of a DeclGroup: name, optional array dimensions, optional
// initialiser.
type VarSpec struct {
	NamePos Pos
	Name    string
	Dims    []*ArrayDim
	Init    Expr
	Var     *Var // resolved by the checker
}

// DeclGroup is "qualifiers type a, b[2] = ..., c;". Vars may be empty for a bare
// struct definition "struct S {...};". It also describes struct members.
type DeclGroup struct {
	Qual Qualifiers
	Type *TypeSpec
	Vars []*VarSpec
}

// FuncDecl is a function prototype (Body nil) or definition.
type FuncDecl struct {
	Qual    Qualifiers // on the return type (precision only is legal)
	Result  *TypeSpec
	NamePos Pos
	Name    string
	Params  []*ParamDecl
	Body    *Block
	Func    *Func // resolved by the checker
}

// ParamDecl is a function parameter; Name may be empty in prototypes.
type ParamDecl struct {
	Qual    Qualifiers
	Type    *TypeSpec
	NamePos Pos
	Name    string
	Dims    []*ArrayDim
	Var     *Var // resolved by the checker
}

// BlockDecl is an interface block: layout(...) uniform Name { members } inst[N];
type BlockDecl struct {
	Qual         Qualifiers
	NamePos      Pos
	Name         string
	Members      []*DeclGroup
	InstanceName string
	InstancePos  Pos
	InstanceDims []*ArrayDim
	Block        *InterfaceBlock // resolved by the checker
}

// PrecisionDecl is "precision mediump float;".
type PrecisionDecl struct {
	PrecPos   Pos
	Precision Precision
	Type      *TypeSpec
}

// QualDecl is a declaration of qualifiers alone: "invariant gl_Position;",
// "layout(std140) uniform;", "layout(early_fragment_tests) in;".
type QualDecl struct {
	Qual  Qualifiers
	Names []*Ident
}

// Pos implementations.
func (d *DeclGroup) Pos() Pos {
	if d.Qual.Pos.IsValid() {
		return d.Qual.Pos
	}
	return d.Type.Pos()
}
func (d *FuncDecl) Pos() Pos {
	if d.Result != nil {
		return d.Result.Pos()
	}
	return d.NamePos
}
func (d *BlockDecl) Pos() Pos {
	if d.Qual.Pos.IsValid() {
		return d.Qual.Pos
	}
	return d.NamePos
}
func (d *PrecisionDecl) Pos() Pos { return d.PrecPos }
func (d *QualDecl) Pos() Pos      { return d.Qual.Pos }
func (d *ParamDecl) Pos() Pos     { return d.Type.Pos() }

func (*DeclGroup) declNode()     {}
func (*FuncDecl) declNode()      {}
func (*BlockDecl) declNode()     {}
func (*PrecisionDecl) declNode() {}
func (*QualDecl) declNode()      {}

// File is one parsed and (after types.Check) checked shader source.
type File struct {
	Name      string
	Version   int  // 110, 120, 130, ..., 450; 100 and 300 with ES
	ES        bool // #version ... es, or #version 100
	Decls     []Decl
	Funcs     []*Func // all user functions, in declaration order (after checking)
	Globals   []*Var  // all global variables incl. used built-ins (after checking)
	Blocks    []*InterfaceBlock
	Versioned bool   // a #version directive was present
	Profile   string // "core", "compatibility", "es" or "" as written in #version
	// InvariantAll is the position of "#pragma STDGL invariant(all)" (invalid if absent).
	InvariantAll Pos
	// Warnings are the preprocessor's and the checker's diagnostics that do
	// not fail the compile, formatted "file:line:col: warning: message".
	Warnings []string
	// LocalSize is a compute shader's layout(local_size_x/y/z) in; (1 where not
	// given) and LocalSizeSet marks the components some declaration gave.
	LocalSize    [3]int
	LocalSizeSet [3]bool
	// FragCoordLayout is the sorted set of layout qualifiers a redeclaration
	// of gl_FragCoord gives (empty for one without); nil when the shader does
	// not redeclare it. spec: GLSL 1.50 §4.3.8.1
	FragCoordLayout []string
	// FragDepthLayout is the same for gl_FragDepth (its conservative-depth
	// layout, GLSL 4.20 §4.4.2.3).
	FragDepthLayout []string
	// PerVertexOut and PerVertexIn are the sorted member names of the
	// shader's redeclaration of the output gl_PerVertex block and (geometry
	// shaders) of the input one, gl_in[]; nil when not redeclared. The link
	// matches them across units and stages. spec: GLSL 1.50 §7.1
	PerVertexOut, PerVertexIn []string
	// Geometry is a geometry shader's layout(...) in; and layout(...) out;
	// declarations (zero values where a shader gives none).
	Geometry GeometryLayout
	// Extensions maps each #extension name to its final behavior (enable, require, ...).
	Extensions map[string]string
	// LinkErrors are the checker's diagnostics that GLSL implementations
	// (Mesa, and piglit with it) report when the program is linked rather than
	// when the shader compiles: the link of a program with this unit fails
	// with them. An unsized buffer block member that is not the last and has
	// no constant index to size it is one.
	LinkErrors ErrorList
}

// Stage is the shader stage a File is compiled for.
type Stage uint8

// Shader stages. spec: GLSL 4.50 §2.1 (vertex), §2.5 (fragment), §2.6
// (compute), §2.4 (geometry).
const (
	StageVertex Stage = iota
	StageFragment
	StageCompute
	StageGeometry
)

func (s Stage) String() string {
	switch s {
	case StageFragment:
		return "fragment"
	case StageCompute:
		return "compute"
	case StageGeometry:
		return "geometry"
	}
	return "vertex"
}

// Pos returns the start of the file.
func (f *File) Pos() Pos { return Pos{File: f.Name, Line: 1, Col: 1} }

// GeometryLayout is what a geometry shader's layout declarations give: the
// input primitive, the output primitive and max_vertices. spec: GLSL 1.50
// §4.3.8.1, §4.3.8.2.
type GeometryLayout struct {
	// Input is "points", "lines", "lines_adjacency", "triangles" or
	// "triangles_adjacency"; "" when not declared.
	Input string
	// Output is "points", "line_strip" or "triangle_strip"; "" when not declared.
	Output string
	// MaxVertices is layout(max_vertices = N); -1 when not declared.
	MaxVertices int
	// Invocations is layout(invocations = N) in (ARB_gpu_shader5 geometry
	// shader instancing); 0 when not declared (one invocation).
	// spec: ARB_gpu_shader5 §4.3.8.1
	Invocations int
	// Streams are the distinct constant streams the shader passes to
	// EmitStreamVertex and EndStreamPrimitive, in order of first use; the
	// link checks them (0..MaxVertexStreams-1, and a non-zero stream only
	// with points output). spec: ARB_gpu_shader5 §8.10
	Streams []int
	// OutStream is the default output stream of layout(stream = N) out;
	// (the checker's state while declarations follow).
	OutStream int
	// MaxIndex is the largest constant index of each per-vertex input the
	// shader leaves unsized (no input primitive declared in it), for the
	// link to hold against the program's primitive.
	MaxIndex map[*Var]int
}

// InputVertices returns the number of vertices of a geometry shader input
// primitive (the size of its input arrays), 0 for an unknown one.
// spec: GLSL 1.50 §4.3.8.1 (the table of input primitive sizes).
func InputVertices(prim string) int {
	switch prim {
	case "points":
		return 1
	case "lines":
		return 2
	case "lines_adjacency":
		return 4
	case "triangles":
		return 3
	case "triangles_adjacency":
		return 6
	}
	return 0
}
