package types

import (
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// Compute limits reported through the gl_MaxCompute* constants and enforced on
// layout(local_size_*). spec: GLSL 4.50 §7.3 (minimum maximums).
const (
	MaxComputeWorkGroupSizeX       = 1024
	MaxComputeWorkGroupSizeY       = 1024
	MaxComputeWorkGroupSizeZ       = 64
	MaxComputeWorkGroupInvocations = 1024
	MaxComputeWorkGroupCount       = 65535
	MaxComputeSharedMemorySize     = 32768
	MaxImageUnits                  = 8
	MaxAtomicCounterBindings       = 1
)

// imageFormats maps the supported format layout qualifiers to the base type of the
// image they may qualify. spec: GLSL 4.50 §4.4.7.
var imageFormats = map[string]ast.Basic{
	"rgba32f": ast.Float, "rgba16f": ast.Float, "r32f": ast.Float, "rgba8": ast.Float,
	"rgba32ui": ast.Uint, "r32ui": ast.Uint, "rgba32i": ast.Int, "r32i": ast.Int,
}

// The extensions that bring compute features to earlier GLSL versions.
const (
	ExtComputeShader  = "GL_ARB_compute_shader"
	ExtStorageBuffer  = "GL_ARB_shader_storage_buffer_object"
	ExtAtomicCounters = "GL_ARB_shader_atomic_counters"
	ExtImageLoadStore = "GL_ARB_shader_image_load_store"
	// ExtAtomicCounterOps adds add, subtract, min, max, and, or, xor,
	// exchange and compare-swap on atomic counters (GLSL 4.60 core without
	// the ARB suffix). spec: ARB_shader_atomic_counter_ops
	ExtAtomicCounterOps = "GL_ARB_shader_atomic_counter_ops"
)

func (c *checker) hasCompute() bool  { return c.atLeast(430, 310) || c.extEnabled(ExtComputeShader) }
func (c *checker) hasSSBO() bool     { return c.atLeast(430, 310) || c.extEnabled(ExtStorageBuffer) }
func (c *checker) hasCounters() bool { return c.atLeast(420, 310) || c.extEnabled(ExtAtomicCounters) }
func (c *checker) hasImages() bool   { return c.atLeast(420, 310) || c.extEnabled(ExtImageLoadStore) }

// ImageFormat returns the format layout qualifier of an image variable ("" if none).
func ImageFormat(v *ast.Var) string {
	for _, l := range v.Qual.Layout {
		if _, ok := imageFormats[l.Name]; ok {
			return l.Name
		}
	}
	return ""
}

// declareComputeVars declares the compute-stage built-in variables and constants.
// spec: GLSL 4.50 §7.1.3 "Compute Shader Special Variables".
func (c *checker) declareComputeVars() {
	u3 := ast.Vector(ast.Uint, 3)
	for _, n := range []string{"gl_NumWorkGroups", "gl_WorkGroupID", "gl_LocalInvocationID", "gl_GlobalInvocationID"} {
		c.addBuiltin(n, u3, ast.VarIn, true)
	}
	c.addBuiltin("gl_LocalInvocationIndex", ast.Scalar(ast.Uint), ast.VarIn, true)
	ws := c.addBuiltin("gl_WorkGroupSize", u3, ast.VarConst, true)
	ws.ConstValue = &ast.Value{Type: u3, Words: []uint32{1, 1, 1}}
	c.file.LocalSize = [3]int{1, 1, 1}
	i3 := ast.Vector(ast.Int, 3)
	mc := c.addBuiltin("gl_MaxComputeWorkGroupCount", i3, ast.VarConst, true)
	mc.ConstValue = &ast.Value{Type: i3, Words: []uint32{MaxComputeWorkGroupCount, MaxComputeWorkGroupCount, MaxComputeWorkGroupCount}}
	ms := c.addBuiltin("gl_MaxComputeWorkGroupSize", i3, ast.VarConst, true)
	ms.ConstValue = &ast.Value{Type: i3, Words: []uint32{MaxComputeWorkGroupSizeX, MaxComputeWorkGroupSizeY, MaxComputeWorkGroupSizeZ}}
	c.addConst("gl_MaxComputeUniformComponents", MaxVertexUniformComps)
	c.addConst("gl_MaxComputeTextureImageUnits", MaxTextureImageUnits)
	c.addConst("gl_MaxComputeImageUniforms", MaxImageUnits)
	c.addConst("gl_MaxComputeAtomicCounters", 8)
	c.addConst("gl_MaxComputeAtomicCounterBuffers", MaxAtomicCounterBindings)
}

// localSizeDecl handles "layout(local_size_x = X, ...) in;". Every declaration in
// a shader must agree on the sizes it gives. spec: GLSL 4.50 §4.4.1.4.
func (c *checker) localSizeDecl(q *ast.Qualifiers) {
	if c.conf.Stage != ast.StageCompute {
		c.errorf(q.Pos, "local_size layout qualifiers are only allowed in compute shaders")
		return
	}
	f := c.file
	for _, l := range q.Layout {
		k := strings.Index("xyz", strings.TrimPrefix(l.Name, "local_size_"))
		if !strings.HasPrefix(l.Name, "local_size_") || len(l.Name) != 12 || k < 0 {
			c.errorf(l.NamePos, "layout qualifier '%s' is not allowed on a compute shader input declaration", l.Name)
			continue
		}
		n := c.layoutInt(l)
		if n < 0 {
			continue
		}
		limit := [3]int{MaxComputeWorkGroupSizeX, MaxComputeWorkGroupSizeY, MaxComputeWorkGroupSizeZ}[k]
		switch {
		case n == 0:
			c.errorf(l.NamePos, "%s must be at least 1", l.Name)
			continue
		case n > limit:
			c.errorf(l.NamePos, "%s = %d exceeds gl_MaxComputeWorkGroupSize (%d)", l.Name, n, limit)
			continue
		case f.LocalSizeSet[k] && f.LocalSize[k] != n:
			c.errorf(l.NamePos, "%s = %d conflicts with an earlier declaration of %d", l.Name, n, f.LocalSize[k])
			continue
		}
		if e := c.builtin.names["gl_WorkGroupSize"]; e != nil && e.v.Used && !f.LocalSizeSet[k] {
			c.errorf(l.NamePos, "local size declared after gl_WorkGroupSize was used")
		}
		f.LocalSize[k], f.LocalSizeSet[k] = n, true
	}
	if f.LocalSize[0]*f.LocalSize[1]*f.LocalSize[2] > MaxComputeWorkGroupInvocations {
		c.errorf(q.Pos, "local size %dx%dx%d exceeds gl_MaxComputeWorkGroupInvocations (%d)",
			f.LocalSize[0], f.LocalSize[1], f.LocalSize[2], MaxComputeWorkGroupInvocations)
	}
	if e := c.builtin.names["gl_WorkGroupSize"]; e != nil {
		e.v.ConstValue = &ast.Value{Type: e.v.Type, Words: []uint32{uint32(f.LocalSize[0]), uint32(f.LocalSize[1]), uint32(f.LocalSize[2])}}
	}
}

// storageQualifiers checks the buffer/shared storage and memory qualifiers of a
// variable declaration (not a block). spec: GLSL 4.50 §4.3.7, §4.3.8, §4.10.
func (c *checker) storageQualifiers(q *ast.Qualifiers, global bool, t *ast.Type) {
	switch q.Storage {
	case ast.StorageIn, ast.StorageOut, ast.StorageAttribute, ast.StorageVarying:
		if c.conf.Stage == ast.StageCompute {
			c.errorf(q.Pos, "compute shaders have no '%s' variables", q.Storage)
		}
	case ast.StorageBuffer:
		c.errorf(q.Pos, "'buffer' variables must be declared inside a shader storage block")
	case ast.StorageShared:
		if c.conf.Stage != ast.StageCompute {
			c.errorf(q.Pos, "'shared' variables are only allowed in compute shaders")
		} else if !global {
			c.errorf(q.Pos, "'shared' variables must be declared at global scope")
		} else if t.ContainsSampler() {
			c.errorf(q.Pos, "'shared' variables cannot have opaque type %s", t)
		}
	}
	et := t
	for et.IsArray() {
		et = et.Elem
	}
	isImage := et.IsSampler() && et.Sampler.Image
	if (q.Coherent || q.Volatile || q.Restrict || q.ReadOnlyMem || q.WriteOnlyMem) && !isImage {
		c.errorf(q.Pos, "memory qualifiers apply only to storage block members and images")
	}
}

// opaqueUniform checks image and atomic counter uniforms: images need a format
// matching their base type and may not be readonly and writeonly at once; atomic
// counters need a word-aligned offset. spec: GLSL 4.50 §4.4.6, §4.4.7.
func (c *checker) opaqueUniform(v *ast.Var, pos ast.Pos) {
	et := v.Type
	for et.IsArray() {
		et = et.Elem
	}
	format := ImageFormat(v)
	if !et.IsSampler() || !et.Sampler.Image {
		if format != "" {
			c.errorf(pos, "format layout qualifier '%s' on non-image '%s'", format, v.Name)
		}
		if et.IsSampler() && et.Sampler.Atomic {
			if off := layoutValue(&v.Qual, "offset"); off >= 0 && off%4 != 0 {
				c.errorf(pos, "atomic counter offset %d is not a multiple of 4", off)
			}
		}
		return
	}
	switch {
	case format == "" && v.Qual.WriteOnlyMem && !c.es:
		// A writeonly image may omit the format: stores convert to the bound
		// image's format. spec: GLSL 4.50 §4.4.7.
	case format == "":
		c.errorf(pos, "image uniform '%s' requires a format layout qualifier (e.g. layout(rgba8))", v.Name)
	case imageFormats[format] != et.Sampler.Base:
		c.errorf(pos, "format '%s' does not match image type %s", format, et)
	}
	if v.Qual.ReadOnlyMem && v.Qual.WriteOnlyMem {
		c.errorf(pos, "image '%s' cannot be both readonly and writeonly", v.Name)
	}
	if c.es && !v.Qual.ReadOnlyMem && !v.Qual.WriteOnlyMem && format != "r32f" && format != "r32i" && format != "r32ui" {
		// spec: GLSL ES 3.10 §4.10 (only r32f, r32i, r32ui images may be both read and written).
		c.errorf(pos, "image '%s' with format %s must be readonly or writeonly in GLSL ES", v.Name, format)
	}
}

// memMember returns the storage block member an access chain reads or writes: the
// member variable itself, or the member selected from a block instance.
func memMember(e ast.Expr) *ast.Var {
	var last *ast.Selector
	for {
		switch x := e.(type) {
		case *ast.Ident:
			v := x.Var
			if v == nil || v.Block == nil {
				return v
			}
			if v.Block.InstanceVar == v && last != nil && last.Field >= 0 && last.Field < len(v.Block.Members) {
				return v.Block.Members[last.Field]
			}
			return v
		case *ast.Index:
			e = x.X
		case *ast.Selector:
			last = x
			e = x.X
		default:
			return nil
		}
	}
}

// computeBuiltinUse checks the call-site rules of the memory built-ins: atomic
// functions need an int/uint in a storage block or shared variable, images and
// storage members must not be written when readonly or read when writeonly.
func (c *checker) computeBuiltinUse(x *ast.Call) {
	switch x.Builtin {
	case ast.FnAtomicAdd, ast.FnAtomicMin, ast.FnAtomicMax, ast.FnAtomicAnd, ast.FnAtomicOr,
		ast.FnAtomicXor, ast.FnAtomicExchange, ast.FnAtomicCompSwap:
		v := ast.RootVar(x.Args[0])
		if v == nil || (v.Kind != ast.VarBuffer && v.Kind != ast.VarShared) {
			c.errorf(x.Args[0].Pos(), "first argument of '%s' must be a buffer or shared variable", x.Name)
			return
		}
		// A readonly member never gets here: the atomic's inout argument
		// failed its l-value check first.
	case ast.FnImageLoad, ast.FnImageStore, ast.FnImageAtomicAdd, ast.FnImageAtomicMin, ast.FnImageAtomicMax,
		ast.FnImageAtomicAnd, ast.FnImageAtomicOr, ast.FnImageAtomicXor, ast.FnImageAtomicExchange,
		ast.FnImageAtomicCompSwap:
		v := ast.RootVar(x.Args[0])
		if v == nil {
			return
		}
		if x.Builtin != ast.FnImageStore && v.Qual.WriteOnlyMem {
			c.errorf(x.Args[0].Pos(), "'%s' reads writeonly image '%s'", x.Name, v.Name)
		}
		if x.Builtin != ast.FnImageLoad && v.Qual.ReadOnlyMem {
			c.errorf(x.Args[0].Pos(), "'%s' writes readonly image '%s'", x.Name, v.Name)
		}
		if x.Builtin != ast.FnImageLoad && x.Builtin != ast.FnImageStore {
			if f := ImageFormat(v); f != "r32ui" && f != "r32i" {
				c.errorf(x.Args[0].Pos(), "'%s' needs an r32ui or r32i image, '%s' is %s", x.Name, v.Name, f)
			}
		}
	}
}

// computeSigs returns the overloads of the compute, atomic and image built-ins.
// spec: GLSL 4.50 §8.11 (atomic counters), §8.12 (image functions), §8.16 (shader
// invocation control), §8.17 (memory control), §8.11 atomic memory functions.
func computeSigs(fn ast.Builtin, c *checker) []sig {
	v := ast.Void()
	u, i := ast.Scalar(ast.Uint), ast.Scalar(ast.Int)
	mk := func(ret *ast.Type, params ...*ast.Type) sig { return sig{fn: fn, ret: ret, params: params} }
	var out []sig
	switch fn {
	case ast.FnBarrier:
		if c.conf.Stage == ast.StageCompute && c.hasCompute() {
			out = append(out, mk(v))
		}
	case ast.FnMemoryBarrier:
		if c.hasImages() || c.hasCompute() {
			out = append(out, mk(v))
		}
	case ast.FnMemoryBarrierAtomicCounter:
		if c.hasCounters() && c.hasCompute() {
			out = append(out, mk(v))
		}
	case ast.FnMemoryBarrierImage:
		if c.hasImages() && c.hasCompute() {
			out = append(out, mk(v))
		}
	case ast.FnMemoryBarrierShared, ast.FnMemoryBarrierBuffer, ast.FnGroupMemoryBarrier:
		if c.hasCompute() {
			out = append(out, mk(v))
		}
	case ast.FnAtomicAdd, ast.FnAtomicMin, ast.FnAtomicMax, ast.FnAtomicAnd, ast.FnAtomicOr,
		ast.FnAtomicXor, ast.FnAtomicExchange:
		if c.hasSSBO() || c.hasCompute() {
			out = append(out, sig{fn: fn, ret: u, params: []*ast.Type{u, u}, out: []bool{true, false}},
				sig{fn: fn, ret: i, params: []*ast.Type{i, i}, out: []bool{true, false}})
		}
	case ast.FnAtomicCompSwap:
		if c.hasSSBO() || c.hasCompute() {
			out = append(out, sig{fn: fn, ret: u, params: []*ast.Type{u, u, u}, out: []bool{true, false, false}},
				sig{fn: fn, ret: i, params: []*ast.Type{i, i, i}, out: []bool{true, false, false}})
		}
	case ast.FnAtomicCounterIncrement, ast.FnAtomicCounterDecrement, ast.FnAtomicCounter:
		if c.hasCounters() {
			out = append(out, mk(u, ast.Sampler(ast.SamplerType{Atomic: true, Base: ast.Uint})))
		}
	case ast.FnAtomicCounterAdd, ast.FnAtomicCounterSubtract, ast.FnAtomicCounterMin, ast.FnAtomicCounterMax,
		ast.FnAtomicCounterAnd, ast.FnAtomicCounterOr, ast.FnAtomicCounterXor, ast.FnAtomicCounterExchange:
		if c.hasCounters() && c.extEnabled(ExtAtomicCounterOps) {
			out = append(out, mk(u, ast.Sampler(ast.SamplerType{Atomic: true, Base: ast.Uint}), u))
		}
	case ast.FnAtomicCounterCompSwap:
		if c.hasCounters() && c.extEnabled(ExtAtomicCounterOps) {
			out = append(out, mk(u, ast.Sampler(ast.SamplerType{Atomic: true, Base: ast.Uint}), u, u))
		}
	case ast.FnImageLoad, ast.FnImageStore, ast.FnImageSize:
		if !c.hasImages() || (fn == ast.FnImageSize && !c.atLeast(430, 310)) {
			break
		}
		for _, img := range imageTypes() {
			coord := ast.Vector(ast.Int, imageCoords(img))
			texel := ast.Vector(img.Sampler.Base, 4)
			switch fn {
			case ast.FnImageLoad:
				out = append(out, mk(texel, img, coord))
			case ast.FnImageStore:
				out = append(out, mk(v, img, coord, texel))
			default:
				out = append(out, mk(coord, img))
			}
		}
	case ast.FnImageAtomicAdd, ast.FnImageAtomicMin, ast.FnImageAtomicMax, ast.FnImageAtomicAnd,
		ast.FnImageAtomicOr, ast.FnImageAtomicXor, ast.FnImageAtomicExchange, ast.FnImageAtomicCompSwap:
		if !c.hasImages() {
			break
		}
		for _, img := range imageTypes() {
			b := img.Sampler.Base
			if b == ast.Float {
				continue
			}
			coord := ast.Vector(ast.Int, imageCoords(img))
			d := ast.Scalar(b)
			if fn == ast.FnImageAtomicCompSwap {
				out = append(out, mk(d, img, coord, d, d))
			} else {
				out = append(out, mk(d, img, coord, d))
			}
		}
	}
	return out
}

// imageTypes lists the supported image types: image2D, image3D and image2DArray
// of each base.
func imageTypes() []*ast.Type {
	var out []*ast.Type
	for _, b := range []ast.Basic{ast.Float, ast.Int, ast.Uint} {
		out = append(out,
			ast.Sampler(ast.SamplerType{Image: true, Dim: ast.Dim2D, Base: b}),
			ast.Sampler(ast.SamplerType{Image: true, Dim: ast.Dim3D, Base: b}),
			ast.Sampler(ast.SamplerType{Image: true, Dim: ast.Dim2D, Array: true, Base: b}))
	}
	return out
}

func imageCoords(t *ast.Type) int {
	if t.Sampler.Dim == ast.Dim2D && !t.Sampler.Array {
		return 2
	}
	return 3
}

// bufferBlock finishes a shader storage block: std430 (or std140) member offsets,
// the fixed size and the runtime array stride; only the last member may be an
// unsized array. spec: GLSL 4.50 §4.3.9, §4.4.5.
func (c *checker) bufferBlock(d *ast.BlockDecl, b *ast.InterfaceBlock) {
	for i, m := range b.Members {
		if m.Type.IsArray() && m.Type.Len == 0 && i != len(b.Members)-1 && !m.ImplicitSize {
			if c.es {
				c.errorf(m.DeclPos, "only the last member of a buffer block may be an unsized array")
			} else {
				// Sized by its largest constant index like any implicitly sized
				// array (sizeArrays, which lays the block out again); without
				// one the link fails. spec: GLSL 4.50 §4.1.9 (only the last
				// member is sized at run time), Mesa's and piglit's reading.
				m.ImplicitSize = true
				c.unsized = append(c.unsized, m)
				c.maxIndex[m] = -1
				c.implicitBuffers[b] = d
			}
		}
		if m.Type.ContainsSampler() {
			c.errorf(m.DeclPos, "opaque types are not allowed in buffer blocks")
		}
	}
	c.explicitLayoutPacking(d, b)
	std140 := b.Layout == "std140"
	off := 0
	for i, m := range b.Members {
		s, a := MemLayoutRM(m.Type, std140, m.RowMajor)
		base := a
		if al := c.memberAlign(d, m); al >= 0 {
			if al == 0 || al&(al-1) != 0 {
				c.errorf(m.DeclPos, "layout(align = %d) is not a power of two", al)
			} else {
				a = max(a, al)
			}
		}
		if o := c.memberLayout(m, "offset"); o >= 0 {
			// spec: GLSL 4.50 §4.4.5 (offset: a multiple of the base alignment, not
			// inside an earlier member; align then rounds it up).
			if o%base != 0 {
				c.errorf(m.DeclPos, "layout(offset = %d) of '%s' is not a multiple of its alignment %d", o, m.Name, base)
			} else if o < off {
				c.errorf(m.DeclPos, "layout(offset = %d) of '%s' overlaps the previous member", o, m.Name)
			} else {
				off = o
			}
		}
		off = roundUp(off, a)
		m.Offset = off
		if i == len(b.Members)-1 && m.Type.IsArray() && m.Type.Len == 0 {
			b.Size, b.RuntimeStride = off, MemArrayStrideRM(m.Type.Elem, std140, m.RowMajor)
			return
		}
		off += s
	}
	b.Size = off
}

// runtimeArray reports whether e names the unsized last member of a storage block.
// Only that member itself is sized at run time, not an unsized inner dimension of
// it (`float a[2][]`: a[1] is no runtime-sized array). spec: GLSL 4.50 §4.1.9.
func runtimeArray(e ast.Expr) bool {
	t := e.Type()
	if t == nil || !t.IsArray() || t.Len != 0 {
		return false
	}
	m := memMember(e)
	return m != nil && m.Kind == ast.VarBuffer && m.Type == t && !m.ImplicitSize
}

// noteWriteOnly records a use of a writeonly storage member (an identifier or a
// member selection); writeOnlyReads reports those that are read.
func (c *checker) noteWriteOnly(e ast.Expr) {
	m := memMember(e)
	if m == nil || m.Kind != ast.VarBuffer || !m.Qual.WriteOnlyMem {
		return
	}
	if id, ok := e.(*ast.Ident); ok && id.Var != nil && id.Var.Block != nil && id.Var.Block.InstanceVar == id.Var {
		return // the instance itself: its selected member decides
	}
	c.woUses = append(c.woUses, e)
}

// storeOnly clears the writeonly uses on the access chain of an assignment target.
func (c *checker) storeOnly(lhs ast.Expr) {
	for e := lhs; e != nil; {
		for i, u := range c.woUses {
			if u == e {
				c.woUses[i] = nil
			}
		}
		switch x := e.(type) {
		case *ast.Index:
			e = x.X
		case *ast.Selector:
			e = x.X
		default:
			e = nil
		}
	}
}

// writeOnlyReads reports reads of writeonly storage members. spec: GLSL 4.50 §4.10
// ("variables qualified writeonly ... cannot be read").
func (c *checker) writeOnlyReads() {
	for _, e := range c.woUses {
		if e != nil {
			c.errorf(e.Pos(), "'%s' is writeonly and cannot be read", memMember(e).Name)
		}
	}
}

// declareMemoryConsts declares the atomic counter and image limits when those
// features exist. spec: GLSL 4.50 §7.3.
func (c *checker) declareMemoryConsts() {
	if c.hasCounters() {
		for _, n := range []string{"gl_MaxVertexAtomicCounters", "gl_MaxTessControlAtomicCounters",
			"gl_MaxTessEvaluationAtomicCounters", "gl_MaxGeometryAtomicCounters", "gl_MaxFragmentAtomicCounters",
			"gl_MaxCombinedAtomicCounters"} {
			c.addConst(n, 8)
		}
		c.addConst("gl_MaxAtomicCounterBindings", MaxAtomicCounterBindings)
		c.addConst("gl_MaxAtomicCounterBufferSize", 32)
	}
	if c.hasImages() {
		c.addConst("gl_MaxImageUnits", MaxImageUnits)
		c.addConst("gl_MaxCombinedImageUnitsAndFragmentOutputs", MaxImageUnits)
		c.addConst("gl_MaxImageSamples", 0)
		for _, n := range []string{"gl_MaxVertexImageUniforms", "gl_MaxFragmentImageUniforms", "gl_MaxCombinedImageUniforms"} {
			c.addConst(n, MaxImageUnits)
		}
	}
}

// workGroupSizeUse reports gl_WorkGroupSize used in a compute shader that declares
// no local size. spec: GLSL 4.50 §7.1.3 ("a compile-time error to use
// gl_WorkGroupSize in a shader that does not declare a fixed local group size").
func (c *checker) workGroupSizeUse() {
	e := c.builtin.names["gl_WorkGroupSize"]
	f := c.file
	if e == nil || !e.v.Used || f.LocalSizeSet[0] || f.LocalSizeSet[1] || f.LocalSizeSet[2] {
		return
	}
	c.errorf(f.Pos(), "gl_WorkGroupSize is used but the shader declares no local size")
}

// memberLayout evaluates a block member's layout(name = N), -1 when absent.
func (c *checker) memberLayout(m *ast.Var, name string) int {
	for _, l := range m.Qual.Layout {
		if l.Name == name {
			return c.layoutInt(l)
		}
	}
	return -1
}
