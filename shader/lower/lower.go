// Package lower lowers checked GLSL (package shader/glsl) to the scalar shader IR
// (package shader/ir): vectors, matrices, structs and arrays are flattened into
// 32-bit registers, user functions become IR functions (inlined by ir.Optimize) with
// in/out/inout parameters copied in and out, every built-in function is expanded
// into scalar IR operations (geometric and matrix functions included), texture calls
// become texture records, and built-in variables become input and output words.
//
// # Interface layout
//
// All words are 32 bits, scalar components packed in declaration order (matrices
// column-major, arrays and structs element by element); a renderer addresses them
// with the ir.Slot records of each program.
//
//   - Vertex inputs: the user attributes (explicit locations first, in location
//     order, then the rest in declaration order), then the used built-in inputs
//     (gl_VertexID, gl_InstanceID as int words; legacy gl_Vertex, gl_Normal,
//     gl_Color, gl_MultiTexCoordN ... as float words).
//   - Vertex outputs: gl_Position at words 0..3, then every user output in
//     declaration order, then the used legacy outputs (gl_FrontColor,
//     gl_FrontSecondaryColor, gl_TexCoord[], gl_FogFragCoord, ...), then
//     gl_PointSize when written.
//   - Fragment inputs: word w of a linked fragment shader's input buffer is the
//     interpolated word w of the vertex outputs (so varyings keep their vertex-side
//     offsets; gl_Color reads gl_FrontColor's words). After them come gl_FragCoord
//     (4 words, float), gl_FrontFacing (1 word, nonzero = front) and gl_PointCoord
//     (2 words), and the per-sample gl_SampleID (int), gl_SamplePosition (2
//     floats), gl_SampleMaskIn (one int), gl_NumSamples (int) and, when
//     interpolateAt* is called, SamplePositionTable (4 uint words), each where used. Slots of integer or flat inputs have Flat set: the renderer copies
//     the provoking vertex's words instead of interpolating (spec: vortexpipe-driver
//     §3.4, flat varyings ride a side array).
//   - Fragment outputs: colour output at location L occupies words 4L..4L+3
//     (gl_FragColor is location 0, gl_FragData[i] is location i). The second
//     colours of dual-source blending (layout(location = L, index = 1)) follow
//     the highest colour location, four words each in declaration order; their
//     slot has Location L and Index 1, so a renderer finds target L's second
//     colour by Index, never by word. gl_FragDepth comes next, then
//     gl_SampleMask (one int word) last.
//   - Framebuffer fetch: the destination colours an inout output or
//     gl_LastFragData reads are input words after all the others, listed by
//     render target in Program.Fetch (fetch.go).
//   - Denormals: vertex and fragment programs have ir.Program.FlushDenormals set
//     (float arithmetic flushes denormal results to zero, as llvmpipe does);
//     compute programs keep IEEE subnormals.
//   - Uniforms: one word buffer shared by both stages, each uniform (user and used
//     legacy built-in, uniform-block members included) at its own word offset in
//     order of first declaration; blocks are not laid out std140 but packed like
//     plain uniforms. Samplers take no words: each sampler uniform (and each
//     element of a sampler array) is one ir.SamplerBinding whose Unit is its
//     layout(binding) or its index.
//
// # Compute programs
//
// A compute shader (Lower of a link with a compute stage) becomes
// an ir.Compute program. Its LocalSize is the shader's layout(local_size_*), its
// inputs are the ir.ComputeInputWords built-in words per lane (ir.InLocalID,
// ir.InWorkGroupID, ir.InNumWorkGroups, ir.InGlobalID, ir.InLocalIndex — uint
// words the executor's Workgroup fills), and it has no outputs: results go to
// memory. Memory is addressed in bytes, one aligned word per access:
//
//   - Storage blocks (Program.Buffers): each block is one binding (its
//     layout(binding), 0 by default; two blocks may not share one; an array of
//     blocks one per element, a run-time index branching to the element it
//     selects), laid out std430 (std140 with layout(std140)), row_major members by
//     rows; Fixed is the size without the runtime-sized last member and Stride that
//     member's element stride, so .length() is (bound size − offset)/Stride.
//     Sized-array indices clamp like register arrays; out-of-range accesses
//     elsewhere are robust (the executor drops them).
//   - Shared variables: laid out std430 one after the other in declaration order,
//     SharedBytes in all.
//   - Storage images (Program.Images): binding = layout(binding) or the declaration
//     index, an array (of arrays) of images one binding per element in row-major
//     order ("img[1][0]"), a run-time index branching over the elements it can
//     select; the program computes texel addresses from ir.ImageExtent and converts
//     the format (rgba8 unorm, rgba16f halves, 32-bit formats as words) itself.
//   - Atomic counters (Program.Counters): word at layout(offset) (or the next free
//     word) in the counter buffer at layout(binding), an array (of arrays) of them
//     consecutive words.
//
// barrier() becomes ir.Barrier; the memory barriers order nothing in this in-order
// model and emit nothing. Vertex and fragment shaders that use storage blocks,
// images or atomic counters are refused: no renderer backs them with memory.
// spec: vortexpipe-driver §2.2, §2.3.2, §2.5.
package lower

import (
	"fmt"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// Program is a linked vertex + fragment shader pair in IR form with the layouts a
// renderer needs.
type Program struct {
	VS, FS *ir.Program // verified and optimised; nil for a missing stage
	// GS is the geometry program (nil without one). Its input vertices are VS
	// output records and its outputs are what Varyings describes.
	GS *ir.Program
	// CS is the compute program of a compute-only link (VS and FS are then nil).
	CS *ir.Program
	// Attributes is the vertex input layout (VS.Inputs).
	Attributes []ir.Slot
	// Varyings is the layout of the vertices the rasterizer receives: the
	// vertex outputs (VS.Outputs), or with a geometry stage its outputs
	// (GS.Outputs); fragment input word w is interpolated word w of them.
	Varyings []ir.Slot
	// Uniforms is the shared uniform word layout and UniformWords its size.
	Uniforms     []ir.Slot
	UniformWords int
	// UniformDefaults holds the initial uniform words: the values of uniform
	// initialisers (GLSL 1.20+ "uniform float k = 2.0;"), zero elsewhere.
	UniformDefaults []uint32
	// Samplers are the sampler bindings shared by both stages.
	Samplers []ir.SamplerBinding
	// Outputs is the fragment output layout (FS.Outputs).
	Outputs []ir.Slot
	// Fetch lists the fragment input words that hold the colour already in
	// the framebuffer (inout outputs, gl_LastFragData), one slot per render
	// target read: Location the target, Word and Words the input words of
	// its first components, Type their reading; nil when the program reads
	// no destination colour (fetch.go).
	Fetch []ir.Slot
}

// Lower lowers a linked program to verified, optimised IR (ir.Verify runs
// before and after ir.Optimize on every stage). Programs are compiled from
// source through package shader (shader.Compile), which runs the front end, the
// link and Lower in one call.
func Lower(lp *glsl.Program) (*Program, error) {
	out := &Program{}
	ul := layoutUniforms(lp)
	out.Uniforms, out.UniformWords, out.Samplers = ul.slots, ul.words, ul.samplers
	out.UniformDefaults = ul.defaults
	if lp.Compute != nil {
		l := newLowerer(lp, lp.Compute, ast.StageCompute, ul)
		l.layoutCompute()
		p, err := l.run()
		if err != nil {
			return nil, err
		}
		out.CS = p
		return out, nil
	}
	var vsOut map[string]int // output name -> word, for the fragment side
	if lp.Vertex != nil {
		l := newLowerer(lp, lp.Vertex, ast.StageVertex, ul)
		vsOut = l.layoutVertex()
		l.layoutMemory()
		p, err := l.run()
		if err != nil {
			return nil, err
		}
		out.VS = p
		out.Attributes, out.Varyings = p.Inputs, p.Outputs
	}
	last := out.VS // the stage that feeds the rasterizer
	if lp.Geometry != nil {
		vs := out.VS
		if vs == nil {
			// Lowered on its own (a shader object's own compile): no
			// vertex outputs feed it, every per-vertex input reads zero.
			vs = &ir.Program{}
		}
		l := newLowerer(lp, lp.Geometry, ast.StageGeometry, ul)
		vsOut = l.layoutGeometry(vsOut, vs)
		p, err := l.run()
		if err != nil {
			return nil, err
		}
		out.GS, last = p, p
		out.Varyings = p.Outputs
	}
	if lp.Fragment != nil {
		l := newLowerer(lp, lp.Fragment, ast.StageFragment, ul)
		l.layoutFragment(vsOut, last)
		l.layoutMemory()
		p, err := l.run()
		if err != nil {
			return nil, err
		}
		out.FS = p
		out.Outputs = p.Outputs
		out.Fetch = l.fetch
	}
	return out, nil
}

// uniformLayout is the program-wide uniform word and sampler assignment.
type uniformLayout struct {
	slots    []ir.Slot
	words    int
	word     map[string]int // uniform name -> first word
	samplers []ir.SamplerBinding
	sampler  map[string]int // sampler uniform name -> first binding index
	defaults []uint32
	// linked maps each uniform variable of the program to the name of its
	// program-wide uniform (glsl.Uniform.Name): the instance of a uniform
	// block is one uniform across units and stages whatever instance name
	// each unit gives it. spec: GLSL 1.50 §4.3.7 (blocks match by block
	// name; the instance name is each shader's own).
	linked map[*ast.Var]string
}

// name returns the uniform slot name of v: its program-wide uniform's.
func (ul *uniformLayout) name(v *ast.Var) string {
	if n, ok := ul.linked[v]; ok {
		return n
	}
	return v.Name
}

// uniformInits maps uniform variables to their constant initialisers.
func uniformInits(sp *glsl.StageProgram) map[*ast.Var]*ast.Value {
	out := map[*ast.Var]*ast.Value{}
	for _, u := range sp.Units {
		for _, d := range u.File.Decls {
			g, ok := d.(*ast.DeclGroup)
			if !ok {
				continue
			}
			for _, vs := range g.Vars {
				if vs.Var != nil && vs.Var.Kind == ast.VarUniform && vs.Init != nil && vs.Init.Value() != nil {
					out[vs.Var] = vs.Init.Value()
				}
			}
		}
	}
	return out
}

func irType(b ast.Basic) ir.Type {
	switch b {
	case ast.Bool:
		return ir.Bool
	case ast.Int:
		return ir.I32
	case ast.Uint:
		return ir.U32
	}
	return ir.F32
}

// slotType is the word type of a slot (its first scalar's), uniform words of bools
// being read as uint.
func slotType(t *ast.Type) ir.Type {
	bs := ast.WordBases(t)
	if len(bs) == 0 {
		return ir.F32
	}
	if bs[0] == ast.Bool {
		return ir.U32
	}
	return irType(bs[0])
}

func samplerKind(s ast.SamplerType) (ir.SamplerKind, bool) {
	switch {
	case s.Dim == ast.Dim1D && !s.Array:
		if s.Shadow {
			return ir.Sampler1DShadow, true
		}
		return ir.Sampler1D, true
	case s.Dim == ast.Dim2D && !s.Array:
		if s.Shadow {
			return ir.Sampler2DShadow, true
		}
		return ir.Sampler2D, true
	case s.Dim == ast.Dim2D && s.Array:
		if s.Shadow {
			return ir.Sampler2DArrayShadow, true
		}
		return ir.Sampler2DArray, true
	case s.Dim == ast.Dim3D:
		return ir.Sampler3D, true
	case s.Dim == ast.DimCube && !s.Array:
		if s.Shadow {
			return ir.SamplerCubeShadow, true
		}
		return ir.SamplerCube, true
	case s.Dim == ast.Dim1D && s.Array:
		if s.Shadow {
			return ir.Sampler1DArrayShadow, true
		}
		return ir.Sampler1DArray, true
	case s.Dim == ast.DimCube && s.Array:
		if s.Shadow {
			return ir.SamplerCubeArrayShadow, true
		}
		return ir.SamplerCubeArray, true
	case s.Dim == ast.DimRect:
		if s.Shadow {
			return ir.Sampler2DRectShadow, true
		}
		return ir.Sampler2DRect, true
	case s.Dim == ast.Dim2DMS && s.Array:
		return ir.Sampler2DMSArray, true
	case s.Dim == ast.Dim2DMS:
		return ir.Sampler2DMS, true
	case s.Dim == ast.DimBuffer && !s.Image:
		return ir.SamplerBuffer, true
	}
	return 0, false
}

func layoutUniforms(lp *glsl.Program) *uniformLayout {
	ul := &uniformLayout{word: map[string]int{}, sampler: map[string]int{}, linked: map[*ast.Var]string{}}
	for _, u := range lp.Uniforms {
		for _, v := range u.Vars {
			ul.linked[v] = u.Name
		}
	}
	var stages []*glsl.StageProgram
	if lp.Vertex != nil {
		stages = append(stages, lp.Vertex)
	}
	if lp.Fragment != nil {
		stages = append(stages, lp.Fragment)
	}
	if lp.Geometry != nil {
		stages = append(stages, lp.Geometry)
	}
	if lp.Compute != nil {
		stages = append(stages, lp.Compute)
	}
	inits := map[string]*ast.Value{}
	for _, sp := range stages {
		for v, val := range uniformInits(sp) {
			inits[v.Name] = val
		}
	}
	for _, sp := range stages {
		for _, v := range stageVars(sp) {
			if v.Kind != ast.VarUniform || (v.Builtin && !v.Used) || isMemOpaque(v.Type) {
				continue
			}
			if v.Type.ContainsSampler() {
				if _, ok := ul.sampler[v.Name]; ok {
					continue
				}
				ul.sampler[v.Name] = len(ul.samplers)
				for i, lf := range samplerLeaves(v.Name, v.Type) {
					kind, _ := samplerKind(lf.s)
					unit := len(ul.samplers)
					if v.Binding >= 0 {
						unit = v.Binding + i
					}
					ul.samplers = append(ul.samplers, ir.SamplerBinding{Name: lf.name, Unit: unit, Kind: kind, Result: irType(lf.s.Base)})
				}
				if !pureSampler(v.Type) {
					// A struct with samplers also has data words (the sampler
					// members' words are unused).
					n := v.Type.Slots()
					ul.word[v.Name] = ul.words
					ul.slots = append(ul.slots, ir.Slot{Name: v.Name, Word: ul.words, Words: n, Type: slotType(v.Type), Location: v.Location})
					ul.words += n
				}
				continue
			}
			name := ul.name(v)
			if _, ok := ul.word[name]; ok {
				continue
			}
			t := v.Type
			if val := inits[v.Name]; val != nil && t.Kind == ast.KindArray && t.Len == 0 && val.Type != nil {
				t = val.Type // an unsized array sized by its initialiser
			}
			n := t.Slots()
			ul.word[name] = ul.words
			ul.slots = append(ul.slots, ir.Slot{Name: name, Word: ul.words, Words: n, Type: slotType(t), Location: v.Location})
			ul.words += n
		}
	}
	ul.defaults = make([]uint32, ul.words)
	for _, sl := range ul.slots {
		if val := inits[sl.Name]; val != nil {
			copy(ul.defaults[sl.Word:sl.Word+sl.Words], val.Words)
		}
	}
	return ul
}

// samplerLeaf is one sampler inside a (possibly aggregate) variable: its flattened
// word offset, its GLSL path and its type.
type samplerLeaf struct {
	off  int
	name string
	s    ast.SamplerType
}

// samplerLeaves lists the samplers of a value of type t in flattened order.
func samplerLeaves(name string, t *ast.Type) []samplerLeaf {
	var out []samplerLeaf
	var walk func(t *ast.Type, off int, path string)
	walk = func(t *ast.Type, off int, path string) {
		switch t.Kind {
		case ast.KindSampler:
			out = append(out, samplerLeaf{off: off, name: path, s: t.Sampler})
		case ast.KindArray:
			for i := 0; i < t.Len; i++ {
				walk(t.Elem, off+i*t.Elem.Slots(), fmt.Sprintf("%s[%d]", path, i))
			}
		case ast.KindStruct:
			for _, f := range t.Struct.Fields {
				walk(f.Type, off, path+"."+f.Name)
				off += f.Type.Slots()
			}
		}
	}
	walk(t, 0, name)
	return out
}

// pureSampler reports whether t is a sampler or an array of samplers (no data).
func pureSampler(t *ast.Type) bool {
	for t.Kind == ast.KindArray {
		t = t.Elem
	}
	return t.Kind == ast.KindSampler
}
