package types

import (
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// checkQualifiers validates the qualifiers of a variable declaration for its scope.
func (c *checker) checkQualifiers(q *ast.Qualifiers, global bool, t *ast.Type, pos ast.Pos) {
	st := q.Storage
	if st == ast.StorageParamInOut {
		c.errorf(q.Pos, "'inout' is only allowed on function parameters")
	}
	c.storageQualifiers(q, global, t)
	if !global && st != ast.StorageNone && st != ast.StorageConst && st != ast.StorageShared {
		c.errorf(q.Pos, "local variables cannot be declared '%s'", st)
	}
	if q.Sample && q.Centroid {
		// spec: ARB_gpu_shader5 §4.3.6 (at most one auxiliary storage qualifier)
		c.errorf(q.Pos, "'sample' and 'centroid' cannot qualify the same variable")
	}
	if q.Interp != ast.InterpNone || q.Centroid || q.Sample {
		if st != ast.StorageIn && st != ast.StorageOut && st != ast.StorageVarying {
			c.errorf(q.Pos, "interpolation qualifiers require 'in', 'out' or 'varying'")
		} else if st == ast.StorageVarying && q.Interp != ast.InterpNone {
			c.errorf(q.Pos, "interpolation qualifiers cannot be used with 'varying'")
		}
		if st == ast.StorageIn && c.conf.Stage == ast.StageVertex && q.Interp != ast.InterpNone {
			c.errorf(q.Pos, "interpolation qualifiers cannot be used on vertex shader inputs")
		}
		if st == ast.StorageOut && c.conf.Stage == ast.StageFragment {
			c.errorf(q.Pos, "interpolation qualifiers cannot be used on fragment shader outputs")
		}
	}
	if q.Invariant {
		ok := st == ast.StorageOut || st == ast.StorageVarying || st == ast.StorageIn && c.invariantInputs()
		if !ok {
			c.errorf(q.Pos, "'invariant' can only qualify shader outputs")
		}
		if !global {
			c.errorf(q.Pos, "'invariant' is only allowed at global scope")
		}
	}
	switch st {
	case ast.StorageAttribute:
		if c.conf.Stage != ast.StageVertex {
			c.errorf(q.Pos, "'attribute' is only allowed in vertex shaders")
		}
		if c.es && c.version >= 300 {
			c.errorf(q.Pos, "'attribute' is removed in this GLSL version; use 'in'")
		}
		if !t.IsInvalid() && !isFloaty(t) && !(c.version >= 130 && t.IsNumeric() && t.Base != ast.Bool) {
			c.errorf(pos, "attribute cannot have type %s", t)
		}
	case ast.StorageVarying:
		if c.es && c.version >= 300 {
			c.errorf(q.Pos, "'varying' is removed in this GLSL version; use 'in' or 'out'")
		}
		et := t
		for et.IsArray() {
			et = et.Elem
		}
		if !et.IsInvalid() && !isFloaty(et) {
			c.errorf(pos, "varying cannot have type %s", t)
		}
	case ast.StorageIn, ast.StorageOut:
		// GL_ARB_separate_shader_objects brings global in and out (with
		// their layout(location)) to GLSL 1.10 and 1.20, as Mesa reads it.
		if !c.atLeast(130, 300) && global && !c.hasSSOLocations() {
			c.errorf(q.Pos, "'%s' at global scope requires GLSL 1.30", st)
			return
		}
		c.checkInterface(q, t, pos)
	}
	if len(q.Layout) > 0 {
		c.checkLayout(q, global)
	}
}

// allDepthLayouts reports whether every layout qualifier of q is a
// conservative-depth one.
func allDepthLayouts(q *ast.Qualifiers) bool {
	for _, l := range q.Layout {
		if !isDepthLayout(strings.ToLower(l.Name)) {
			return false
		}
	}
	return len(q.Layout) > 0
}

// containsInteger reports whether t is or holds an int/uint value.
func containsInteger(t *ast.Type) bool {
	switch {
	case t.IsNumeric():
		return t.Base == ast.Int || t.Base == ast.Uint
	case t.IsArray():
		return containsInteger(t.Elem)
	case t.IsStruct():
		for _, f := range t.Struct.Fields {
			if containsInteger(f.Type) {
				return true
			}
		}
	}
	return false
}

// isFloaty reports float scalars, vectors and matrices (legacy attribute/varying types).
func isFloaty(t *ast.Type) bool {
	return t.IsNumeric() && t.Base == ast.Float
}

// checkInterface applies the type rules for in/out variables. spec: GLSL 4.50 §4.3.4-§4.3.6.
func (c *checker) checkInterface(q *ast.Qualifiers, t *ast.Type, pos ast.Pos) {
	if t.IsInvalid() {
		return
	}
	et := t
	for et.IsArray() {
		et = et.Elem
	}
	vsIn := q.Storage == ast.StorageIn && c.conf.Stage == ast.StageVertex
	fsOut := q.Storage == ast.StorageOut && c.conf.Stage == ast.StageFragment
	if et.IsSampler() || (et.IsNumeric() && et.Base == ast.Bool) || (et.IsStruct() && et.ContainsSampler()) {
		c.errorf(pos, "%s variables cannot have type %s", q.Storage, t)
		return
	}
	if et.IsVoid() {
		c.errorf(pos, "%s variables cannot be void", q.Storage)
		return
	}
	if et.IsStruct() && !c.atLeast(150, 300) {
		c.errorf(pos, "%s variables cannot be structs in this GLSL version", q.Storage)
		return
	}
	if vsIn && q.Centroid {
		c.errorf(pos, "vertex shader inputs cannot be 'centroid'")
		return
	}
	if vsIn && q.Sample {
		c.errorf(pos, "vertex shader inputs cannot be 'sample'")
		return
	}
	if vsIn && (t.IsArray() && c.es || et.IsStruct()) {
		c.errorf(pos, "vertex shader inputs cannot have type %s", t)
		return
	}
	if fsOut && (et.IsMatrix() || et.IsStruct()) {
		c.errorf(pos, "fragment shader outputs cannot have type %s", t)
		return
	}
	if et.IsStruct() && c.es && et.ContainsArray() {
		c.errorf(pos, "interface variables cannot be structs containing arrays")
	}
	integer := containsInteger(et)
	if integer && q.Interp != ast.InterpFlat {
		needFlat := (q.Storage == ast.StorageIn && c.conf.Stage == ast.StageFragment) ||
			(q.Storage == ast.StorageOut && c.conf.Stage == ast.StageVertex && c.es)
		if needFlat {
			c.errorf(pos, "integer %s variables must be qualified 'flat'", q.Storage)
		}
	}
}

func (c *checker) checkLayout(q *ast.Qualifiers, global bool) {
	explicitLoc := !c.es && (c.extEnabled(ExtExplicitAttribLocation) || c.extEnabled(ExtBlendFuncExtended) || c.hasSSOLocations())
	// The extensions that qualify uniforms and buffers before GLSL 1.40:
	// block layouts, uniform locations, bindings.
	// GL_ARB_shader_storage_buffer_object's buffer blocks take their layout
	// qualifiers wherever the blocks exist (any desktop version, hasSSBO).
	// spec: ARB_shader_storage_buffer_object (layout qualifiers on buffer blocks)
	uniformLayout := !c.es && (q.Storage == ast.StorageUniform &&
		(c.extEnabled(ExtUniformBufferObject) || c.extEnabled(ExtExplicitUniformLoc) || c.extEnabled(Ext420Pack)) ||
		q.Storage == ast.StorageBuffer && c.extEnabled(ExtStorageBuffer))
	// A conservative-depth layout is an output layout of GLSL 1.30 fragment
	// shaders with its extension.
	depthLayout := q.Storage == ast.StorageOut && c.hasConservativeDepth() && allDepthLayouts(q)
	if !c.atLeast(140, 300) && !explicitLoc && !uniformLayout && !depthLayout {
		c.errorf(q.Pos, "layout qualifiers require GLSL 1.40 or GLSL ES 3.00")
		return
	}
	vsIn := (q.Storage == ast.StorageIn || q.Storage == ast.StorageAttribute) && c.conf.Stage == ast.StageVertex
	fsOut := q.Storage == ast.StorageOut && c.conf.Stage == ast.StageFragment
	if !c.atLeast(140, 300) && !vsIn && !fsOut && !uniformLayout && !depthLayout && !c.hasSSOLocations() {
		c.errorf(q.Pos, "layout qualifiers before GLSL 1.40 are only allowed on vertex shader inputs and fragment shader outputs (%s)", ExtExplicitAttribLocation)
		return
	}
	if !global {
		c.errorf(q.Pos, "layout qualifiers are not allowed on local variables")
		return
	}
	for _, l := range q.Layout {
		name := l.Name
		if !c.es {
			// Layout qualifier names are case-insensitive in desktop GLSL.
			// spec: GLSL 1.50 §4.3.8.
			name = strings.ToLower(name)
		}
		switch name {
		case "location":
			if q.Storage == ast.StorageUniform && !c.atLeast(430, 310) && !c.extEnabled(ExtExplicitUniformLoc) {
				c.errorf(l.NamePos, "layout(location) on uniforms requires GLSL 4.30 or GL_ARB_explicit_uniform_location")
			} else if q.Storage == ast.StorageUniform {
				// a uniform location: the rules below are for inputs and outputs
			} else if q.Storage != ast.StorageIn && q.Storage != ast.StorageOut && q.Storage != ast.StorageUniform && !vsIn {
				c.errorf(l.NamePos, "layout(location) requires 'in' or 'out'")
			} else if c.es && q.Storage == ast.StorageOut && c.conf.Stage == ast.StageVertex && c.version < 310 {
				c.errorf(l.NamePos, "layout(location) is not allowed on vertex shader outputs in GLSL ES 3.00")
			} else if c.es && q.Storage == ast.StorageIn && c.conf.Stage == ast.StageFragment && c.version < 310 {
				c.errorf(l.NamePos, "layout(location) is not allowed on fragment shader inputs in GLSL ES 3.00")
			} else if !c.es && c.version < 410 && !vsIn && !fsOut && !c.hasSSOLocations() {
				// "Vertex shaders cannot have output layout qualifiers",
				// nor do the geometry shader's variables or the fragment
				// shader's inputs take a location, until GLSL 4.10
				// (GL_ARB_separate_shader_objects, which the front end
				// does not implement). spec: GLSL 3.30 §4.3.8.1, §4.3.8.2
				c.errorf(l.NamePos, "layout(location) on a %s shader %s requires GLSL 4.10", c.conf.Stage, q.Storage)
			} else if !c.es && c.version < 330 && !explicitLoc && !c.hasSSOLocations() {
				c.errorf(l.NamePos, "layout(location) requires GLSL 3.30 or %s", ExtExplicitAttribLocation)
			}
			c.layoutInt(l)
		case "binding":
			if !c.atLeast(420, 310) && !c.extEnabled(Ext420Pack) &&
				!(q.Storage == ast.StorageBuffer && c.hasSSBO()) && !(q.Storage == ast.StorageUniform && (c.hasCounters() || c.hasImages())) {
				c.errorf(l.NamePos, "layout(binding) requires GLSL 4.20")
			}
			c.layoutInt(l)
		case "std140", "shared", "packed", "row_major", "column_major", "std430":
			if l.Value != nil {
				c.errorf(l.NamePos, "layout qualifier '%s' takes no value", l.Name)
			}
			if name == "std430" && q.Storage != ast.StorageBuffer {
				c.errorf(l.NamePos, "layout(std430) is only allowed on buffer blocks")
			}
		case "origin_upper_left", "pixel_center_integer", "early_fragment_tests":
			if l.Value != nil {
				c.errorf(l.NamePos, "layout qualifier '%s' takes no value", l.Name)
			}
		case "depth_any", "depth_greater", "depth_less", "depth_unchanged":
			// Only on gl_FragDepth; the declaration checks the name
			// (redeclareBuiltin). spec: GLSL 4.20 §4.4.2.3
			switch {
			case l.Value != nil:
				c.errorf(l.NamePos, "layout qualifier '%s' takes no value", l.Name)
			case !c.hasConservativeDepth():
				c.errorf(l.NamePos, "layout(%s) requires GLSL 4.20 or %s", name, ExtConservativeDepth)
			case !fsOut:
				c.errorf(l.NamePos, "layout(%s) is only allowed on the fragment shader output gl_FragDepth", name)
			}
		case "index":
			// Dual-source blending: index 1 is the second colour of its location.
			// Below GLSL 3.30 it belongs to the fragment output layout that
			// GL_ARB_explicit_attrib_location brings (ARB_blend_func_extended
			// is written against it; Mesa, whose results piglit records,
			// takes index with either directive).
			// spec: GLSL 3.30 §4.3.8.2, GL_ARB_explicit_attrib_location,
			// GL_ARB_blend_func_extended, GL_EXT_blend_func_extended (GLSL ES 3.00).
			switch {
			case !fsOut:
				c.errorf(l.NamePos, "layout(index) is only allowed on fragment shader outputs")
			case c.es && !c.extEnabled(ExtBlendFuncExtendedES):
				c.errorf(l.NamePos, "layout(index) requires %s", ExtBlendFuncExtendedES)
			case !c.es && c.version < 330 && !c.extEnabled(ExtBlendFuncExtended) && !c.extEnabled(ExtExplicitAttribLocation):
				c.errorf(l.NamePos, "layout(index) requires GLSL 3.30, %s or %s", ExtExplicitAttribLocation, ExtBlendFuncExtended)
			case !hasLayout(q, "location"):
				c.errorf(l.NamePos, "layout(index) requires an explicit location")
			}
			if n := c.layoutInt(l); n > 1 {
				c.errorf(l.Value.Pos(), "layout(index) must be 0 or 1, not %d", n)
			}
		case "stream":
			// spec: ARB_gpu_shader5 §4.3.8.2 (geometry shader outputs only)
			if c.conf.Stage != ast.StageGeometry || q.Storage != ast.StorageOut || !c.hasGPUShader5() {
				c.errorf(l.NamePos, "layout(stream) is only allowed on geometry shader outputs (%s)", ExtGPUShader5)
			} else if n := c.layoutInt(l); n >= MaxVertexStreams {
				c.errorf(l.NamePos, "stream = %d is outside 0..%d (GL_MAX_VERTEX_STREAMS)", n, MaxVertexStreams-1)
			}
		case "component":
			if !c.hasEnhancedLayouts() {
				c.errorf(l.NamePos, "layout(component) requires GLSL 4.40 or %s", ExtEnhancedLayouts)
			} else if q.Storage != ast.StorageIn && q.Storage != ast.StorageOut && !vsIn {
				c.errorf(l.NamePos, "layout(component) is only allowed on inputs and outputs")
			}
			c.layoutInt(l)
		case "offset", "align":
			// spec: GLSL 4.40 §4.4.5 (offset on uniform and buffer block
			// members; align on those blocks and their members)
			if !c.hasEnhancedLayouts() && !c.atLeast(440, 0) && !(q.Storage == ast.StorageUniform && c.hasCounters() && name == "offset") {
				c.errorf(l.NamePos, "layout(%s) requires GLSL 4.40 or %s", name, ExtEnhancedLayouts)
			}
			c.layoutInt(l)
		case "xfb_buffer", "xfb_offset", "xfb_stride":
			// checked with the declaration (xfb.go)
		case "local_size_x", "local_size_y", "local_size_z":
			c.errorf(l.NamePos, "layout qualifier '%s' is only allowed in a compute shader's 'layout(...) in;' declaration", l.Name)
		case "rgba32f", "rgba16f", "r32f", "rgba8", "rgba32ui", "r32ui", "rgba32i", "r32i":
			if l.Value != nil {
				c.errorf(l.NamePos, "layout qualifier '%s' takes no value", l.Name)
			}
		default:
			c.errorf(l.NamePos, "unknown layout qualifier '%s'", l.Name)
		}
	}
}

func (c *checker) layoutInt(l ast.LayoutQual) int {
	if l.Value == nil {
		c.errorf(l.NamePos, "layout qualifier '%s' requires a value", l.Name)
		return -1
	}
	x := c.expr(l.Value)
	if x.Type().IsInvalid() {
		return -1
	}
	if x.Value() == nil || !x.Type().IsScalar() || (x.Type().Base != ast.Int && x.Type().Base != ast.Uint) {
		c.errorf(l.Value.Pos(), "layout qualifier '%s' requires an integer constant", l.Name)
		return -1
	}
	n := int(x.Value().Int(0))
	if n < 0 {
		c.errorf(l.Value.Pos(), "layout qualifier '%s' cannot be negative", l.Name)
		return -1
	}
	if lit, ok := l.Value.(*ast.Literal); !c.hasEnhancedLayouts() && (!ok || lit.Kind != ast.LitInt && lit.Kind != ast.LitUint) {
		// Before GLSL 4.40 the value is an integer-constant, a literal.
		// spec: GLSL 4.40 §4.4 (layout-qualifier-id), ARB_enhanced_layouts
		c.errorf(l.Value.Pos(), "layout qualifier '%s' requires an integer literal (constant expressions need GLSL 4.40 or %s)", l.Name, ExtEnhancedLayouts)
		return -1
	}
	return n
}

// hasLayout reports whether q names the layout qualifier name.
func hasLayout(q *ast.Qualifiers, name string) bool {
	for _, l := range q.Layout {
		if strings.EqualFold(l.Name, name) {
			return true
		}
	}
	return false
}

func layoutValue(q *ast.Qualifiers, name string) int {
	for _, l := range q.Layout {
		if l.Name == name && l.Value != nil && l.Value.Value() != nil {
			return int(l.Value.Value().Int(0))
		}
	}
	return -1
}

// blockDecl checks an interface block. spec: GLSL 4.50 §4.3.9.
func (c *checker) blockDecl(d *ast.BlockDecl) {
	q := d.Qual
	switch q.Storage {
	case ast.StorageUniform:
		if !c.atLeast(140, 300) && !c.extEnabled(ExtUniformBufferObject) {
			c.errorf(d.NamePos, "uniform blocks require GLSL 1.40, GLSL ES 3.00 or GL_ARB_uniform_buffer_object")
			return
		}
	case ast.StorageIn, ast.StorageOut:
		if !c.atLeast(150, 320) || (q.Storage == ast.StorageIn && c.conf.Stage == ast.StageVertex) ||
			(q.Storage == ast.StorageOut && c.conf.Stage == ast.StageFragment) {
			c.errorf(d.NamePos, "%s blocks are not allowed here", q.Storage)
			return
		}
	case ast.StorageBuffer:
		if !c.hasSSBO() {
			c.errorf(d.NamePos, "buffer blocks require GLSL 4.30 or GLSL ES 3.10")
			return
		}
	default:
		c.errorf(d.NamePos, "interface block '%s' requires 'uniform', 'in' or 'out'", d.Name)
		return
	}
	if d.Name == "gl_PerVertex" && c.atLeast(150, 320) {
		// Redeclaring the built-in gl_PerVertex block only restricts which of
		// gl_Position, gl_PointSize and gl_ClipDistance are used; nothing to
		// declare, but the redeclaration itself has rules.
		c.perVertexRedecl(d)
		return
	}
	c.checkName(d.Name, d.NamePos)
	if d.InstanceName != "" {
		c.checkName(d.InstanceName, d.InstancePos)
	}
	// A block starts from the default layout(...) uniform; / buffer; in effect.
	lay := blockLayoutOf(q.Layout, blockLayout{packing: "shared"})
	if def, ok := c.blockDefault[q.Storage]; ok {
		lay = blockLayoutOf(q.Layout, def)
	}
	b := &ast.InterfaceBlock{Name: d.Name, Instance: d.InstanceName, Storage: q.Storage, Layout: lay.packing, Binding: -1}
	rowMajor := lay.rowMajor
	if len(q.Layout) > 0 {
		c.checkLayout(&q, true)
		b.Binding = layoutValue(&q, "binding")
	}
	stream := c.outputStream(&q)
	d.Block = b
	kind, _ := c.varKind(q.Storage, true)
	st := &ast.StructType{Name: d.Name}
	for _, g := range d.Members {
		if g.Type.Struct != nil {
			c.errorf(g.Type.Pos(), "struct definitions are not allowed inside blocks")
		}
		if g.Qual.Storage != ast.StorageNone && g.Qual.Storage != q.Storage {
			c.errorf(g.Qual.Pos, "block member storage must match the block")
		}
		bt := c.resolveType(g.Type)
		for _, vs := range g.Vars {
			t := bt
			if len(vs.Dims) > 0 {
				t = c.arrayOf(bt, vs.Dims, vs.NamePos)
			}
			if t.ContainsSampler() {
				c.errorf(vs.NamePos, "samplers are not allowed in blocks")
			}
			v := &ast.Var{Name: vs.Name, DeclPos: vs.NamePos, Type: t, Kind: kind, Qual: g.Qual,
				ReadOnly: kind != ast.VarOut, Location: -1, Binding: -1, Block: b, RowMajor: rowMajor, Stream: stream}
			if n := c.memberStream(g.Qual); n >= 0 && n != stream {
				// spec: ARB_gpu_shader5 §4.3.8.2 ("the stream of a member must
				// match the stream of its block")
				c.errorf(vs.NamePos, "block member '%s' is on stream %d but its block '%s' is on stream %d", vs.Name, n, d.Name, stream)
			}
			if t.IsArray() && t.Len == 0 && q.Storage != ast.StorageBuffer {
				// GLSL 4.50 §4.1.9: outside the last member of a storage block an
				// unsized array is sized at compile time, a block member as any other
				// array: by its largest constant index (sizeArrays, which then lays the
				// block out again). GLSL ES 3.00 §4.1.9 has no implicitly sized arrays.
				if c.es {
					c.errorf(vs.NamePos, "array '%s' must have an explicit size", vs.Name)
				} else {
					v.ImplicitSize = true
					c.unsized = append(c.unsized, v)
					c.maxIndex[v] = -1
				}
			}
			for _, l := range g.Qual.Layout {
				// Packing is the block's: "Layout qualifiers on member
				// declarations cannot use the shared, packed, or std140
				// qualifiers." spec: GLSL 4.50 §4.4.5
				switch strings.ToLower(l.Name) {
				case "std140", "std430", "shared", "packed":
					c.errorf(l.NamePos, "layout qualifier '%s' is not allowed on a block member", l.Name)
					continue
				}
				if _, isFormat := imageFormats[l.Name]; isFormat || l.Name == "binding" {
					c.errorf(l.NamePos, "layout qualifier '%s' is not allowed on a block member", l.Name)
				}
			}
			if (q.Storage == ast.StorageUniform || q.Storage == ast.StorageBuffer) &&
				(g.Qual.Interp != ast.InterpNone || g.Qual.Centroid || g.Qual.Sample) {
				c.errorf(g.Qual.Pos, "interpolation qualifiers are not allowed on %s block members", q.Storage)
			}
			if kind == ast.VarBuffer {
				v.Qual.ReadOnlyMem = g.Qual.ReadOnlyMem || q.ReadOnlyMem
				v.Qual.WriteOnlyMem = g.Qual.WriteOnlyMem || q.WriteOnlyMem
				v.ReadOnly = v.Qual.ReadOnlyMem
			} else if g.Qual.ReadOnlyMem || g.Qual.WriteOnlyMem || g.Qual.Coherent || g.Qual.Volatile || g.Qual.Restrict {
				c.errorf(g.Qual.Pos, "memory qualifiers apply only to storage block members and images")
			}
			for _, l := range g.Qual.Layout {
				switch strings.ToLower(l.Name) {
				case "row_major":
					v.RowMajor = true
				case "column_major":
					v.RowMajor = false
				}
			}
			if c.es && (q.Storage == ast.StorageUniform || q.Storage == ast.StorageBuffer) && v.Qual.Precision == ast.PrecNone {
				// A member without a precision qualifier takes the default
				// precision, as a uniform does (GLSL ES 3.00 §4.5.4), so that the
				// linker can match precisions across stages (GLSL ES 3.00 §4.3.7).
				v.Qual.Precision = c.defaultPrec(t)
			}
			vs.Var = v
			b.Members = append(b.Members, v)
			st.Fields = append(st.Fields, ast.Field{Name: vs.Name, Type: t, Pos: vs.NamePos})
			c.checkName(vs.Name, vs.NamePos)
			if q.Storage == ast.StorageIn || q.Storage == ast.StorageOut {
				mq := g.Qual
				mq.Storage = q.Storage
				if mq.Interp == ast.InterpNone {
					mq.Interp = q.Interp
				}
				c.checkInterface(&mq, t, vs.NamePos)
			}
			if d.InstanceName == "" {
				c.declareVar(v)
			}
		}
	}
	if q.Storage == ast.StorageBuffer {
		c.bufferBlock(d, b)
	}
	if q.Storage == ast.StorageUniform {
		c.uniformBlock(d, b)
	}
	if key := q.Storage.String() + " " + d.Name; c.blockNames[key] {
		c.errorf(d.NamePos, "redeclaration of block '%s'", d.Name)
	} else {
		c.blockNames[key] = true
	}
	// A block name may not also name a global variable, function or type; blocks of
	// different storage may share it. spec: GLSL 1.50 §4.3.7.
	if e := c.globals.names[d.Name]; e != nil && !e.block {
		c.errorf(d.NamePos, "block name '%s' is already used by another global", d.Name)
	} else if e == nil && d.InstanceName != d.Name {
		c.globals.names[d.Name] = &entity{block: true, pos: d.NamePos}
	}
	if d.InstanceName == "" && c.conf.Stage == ast.StageGeometry && q.Storage == ast.StorageIn {
		c.errorf(d.NamePos, "geometry shader input block '%s' must be an array with an instance name", d.Name)
	}
	if d.InstanceName != "" {
		t := ast.Struct(st)
		if len(d.InstanceDims) > 0 {
			t = c.arrayOf(t, d.InstanceDims, d.InstancePos)
		}
		gsIn := c.conf.Stage == ast.StageGeometry && q.Storage == ast.StorageIn
		if gsIn && t.IsArray() {
			nt := *t
			t = &nt
		}
		if t.IsArray() && t.Len == 0 && !gsIn {
			c.errorf(d.InstancePos, "interface block array '%s' must have an explicit size", d.InstanceName)
		}
		b.Type = t
		v := &ast.Var{Name: d.InstanceName, DeclPos: d.InstancePos, Type: t, Kind: kind, Qual: q,
			ReadOnly: kind != ast.VarOut && kind != ast.VarBuffer, Location: -1, Binding: b.Binding, Block: b}
		b.InstanceVar = v
		if gsIn {
			c.geometryInput(v, d.InstancePos)
		}
		c.declareVar(v)
	}
	if q.Storage == ast.StorageIn || q.Storage == ast.StorageOut {
		c.assignMemberLocations(d, b)
	}
	if q.Storage == ast.StorageOut {
		c.xfbBlock(d, b)
	}
	c.file.Blocks = append(c.file.Blocks, b)
}

// blockLayoutOf applies a block's layout qualifiers to the default def.
func blockLayoutOf(layout []ast.LayoutQual, def blockLayout) blockLayout {
	for _, l := range layout {
		switch strings.ToLower(l.Name) {
		case "std140", "shared", "packed", "std430":
			def.packing = strings.ToLower(l.Name)
		case "row_major":
			def.rowMajor = true
		case "column_major":
			def.rowMajor = false
		}
	}
	return def
}

// perVertexMembers are the members gl_PerVertex may be redeclared with in the
// vertex stage, by their element type (gl_ClipDistance is an array).
var perVertexMembers = map[string]*ast.Type{"gl_Position": ast.Vector(ast.Float, 4), "gl_PointSize": ast.Scalar(ast.Float),
	"gl_ClipDistance": ast.Scalar(ast.Float)}

// invariant: GLSL 1.10-1.20 fragment inputs (varyings), and from GLSL 1.50 the
// inputs of the geometry and fragment stages, which are a previous stage's
// outputs: "Only variables output from a shader (including those that are then
// input to a subsequent shader) can be candidates for invariance."
// spec: GLSL 1.50 §4.6.1
func (c *checker) invariantInputs() bool {
	switch c.conf.Stage {
	case ast.StageFragment:
		return !c.atLeast(130, 300) || !c.es && c.version >= 150
	case ast.StageGeometry:
		return true
	}
	return false
}

// memberStream returns a block member's own layout(stream = N), -1 when it
// gives none. spec: ARB_gpu_shader5 §4.3.8.2
func (c *checker) memberStream(q ast.Qualifiers) int {
	for _, l := range q.Layout {
		if strings.EqualFold(l.Name, "stream") {
			return c.layoutInt(l)
		}
	}
	return -1
}
