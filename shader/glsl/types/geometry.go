package types

import (
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// Geometry shader limits reported through the gl_MaxGeometry* constants (the
// GL 3.2 minimums). spec: GLSL 1.50 §7.4.
const (
	MaxGeometryOutputVertices        = 256
	MaxGeometryInputComponents       = 64
	MaxGeometryOutputComponents      = 128
	MaxGeometryTotalOutputComponents = 1024
	MaxGeometryUniformComponents     = 1024
	MaxGeometryVaryingComponents     = 64
	MaxGeometryTextureImageUnits     = 16
	// MaxGeometryShaderInvocations is GL_MAX_GEOMETRY_SHADER_INVOCATIONS
	// (the GL 4.0 minimum). spec: ARB_gpu_shader5 "New State" (32)
	MaxGeometryShaderInvocations = 32
	// MaxVertexStreams is GL_MAX_VERTEX_STREAMS. spec: ARB_gpu_shader5
	// "New State" (4)
	MaxVertexStreams = 4
	// maxGeometryInputVertices is the most vertices an input primitive has
	// (triangles_adjacency).
	maxGeometryInputVertices = 6
)

// geomState is what the checker tracks of a geometry shader's per-vertex
// inputs while their size may still be unknown. spec: GLSL 1.50 §4.3.8.1.
type geomState struct {
	// inputs are the per-vertex input arrays declared so far (gl_in, user
	// arrays and input block instance arrays).
	inputs []*ast.Var
	// size is the size the sized input arrays declared before any input
	// layout gave (0 when none was); sizeVar names the first of them.
	size    int
	sizeVar string
	// inRedeclared is set by a redeclaration of the input gl_PerVertex.
	inRedeclared bool
	// perVertexIn is the element type of the built-in gl_in[] (nil outside
	// geometry shaders), for implicitInClip.
	perVertexIn *ast.StructType
}

// implicitInClip reports whether e is gl_ClipDistance of an element of the
// built-in gl_in[]: an implicitly sized array ("float gl_ClipDistance[];" in
// the input gl_PerVertex), so only constant indices and no length(). Its
// type carries gl_MaxClipDistances, the size the lowering reads it at.
// spec: GLSL 1.50 §7.1, §4.1.9
func (c *checker) implicitInClip(e ast.Expr) bool {
	s, ok := e.(*ast.Selector)
	if !ok || s.Name != "gl_ClipDistance" || c.geom.perVertexIn == nil {
		return false
	}
	t := s.X.Type()
	return t.IsStruct() && t.Struct == c.geom.perVertexIn
}

// declareGeometryConsts declares the gl_MaxGeometry* constants, which exist in
// every stage of GLSL 1.50 and later. spec: GLSL 1.50 §7.4.
func (c *checker) declareGeometryConsts() {
	c.addConst("gl_MaxGeometryInputComponents", MaxGeometryInputComponents)
	c.addConst("gl_MaxGeometryOutputComponents", MaxGeometryOutputComponents)
	c.addConst("gl_MaxGeometryTextureImageUnits", MaxGeometryTextureImageUnits)
	c.addConst("gl_MaxGeometryOutputVertices", MaxGeometryOutputVertices)
	c.addConst("gl_MaxGeometryTotalOutputComponents", MaxGeometryTotalOutputComponents)
	c.addConst("gl_MaxGeometryUniformComponents", MaxGeometryUniformComponents)
	c.addConst("gl_MaxGeometryVaryingComponents", MaxGeometryVaryingComponents)
}

// declareGeometryVars declares the geometry stage's built-in variables: the
// gl_in[] array of gl_PerVertex (sized by the input primitive), gl_PrimitiveIDIn,
// and the outputs gl_Position, gl_PointSize, gl_ClipDistance[], gl_PrimitiveID
// and gl_Layer (with the compatibility profile's colours, texture coordinates
// and fog coordinate on both sides). spec: GLSL 1.50 §7.1, GLSL 1.50
// compatibility §7.1.
func (c *checker) declareGeometryVars(compat bool) {
	f := ast.Scalar(ast.Float)
	v4 := ast.Vector(ast.Float, 4)
	i := ast.Scalar(ast.Int)
	pv := &ast.StructType{Name: "gl_PerVertex", Fields: []ast.Field{
		{Name: "gl_Position", Type: v4},
		{Name: "gl_PointSize", Type: f},
		{Name: "gl_ClipDistance", Type: ast.Array(f, MaxClipDistances)},
	}}
	if c.hasCullDistance() {
		// spec: ARB_cull_distance §7.1 (gl_PerVertex gains gl_CullDistance[];
		// gl_in[] reads the vertex stage's, zero where it wrote none)
		pv.Fields = append(pv.Fields, ast.Field{Name: "gl_CullDistance", Type: ast.Array(f, MaxCullDistances)})
	}
	if compat {
		for _, n := range []string{"gl_ClipVertex", "gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"} {
			pv.Fields = append(pv.Fields, ast.Field{Name: n, Type: v4})
		}
		pv.Fields = append(pv.Fields, ast.Field{Name: "gl_TexCoord", Type: ast.Array(v4, MaxTextureCoords)},
			ast.Field{Name: "gl_FogFragCoord", Type: f})
	}
	in := c.addBuiltin("gl_in", ast.Array(ast.Struct(pv), 0), ast.VarIn, true)
	c.geom.perVertexIn = pv
	c.geom.inputs = append(c.geom.inputs, in)
	c.addBuiltin("gl_PrimitiveIDIn", i, ast.VarIn, true)
	if c.hasGPUShader5() {
		// spec: ARB_gpu_shader5 §7.1 (the invocation number of an
		// instanced geometry shader, 0 without layout(invocations))
		c.addBuiltin("gl_InvocationID", i, ast.VarIn, true)
	}
	c.addBuiltin("gl_Position", v4, ast.VarOut, false)
	c.addBuiltin("gl_PointSize", f, ast.VarOut, false)
	c.implicitBuiltin(c.addBuiltin("gl_ClipDistance", ast.Array(f, 0), ast.VarOut, false), MaxClipDistances)
	c.addBuiltin("gl_PrimitiveID", i, ast.VarOut, false)
	c.addBuiltin("gl_Layer", i, ast.VarOut, false)
	if compat {
		c.addBuiltin("gl_ClipVertex", v4, ast.VarOut, false)
		for _, n := range []string{"gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"} {
			c.addBuiltin(n, v4, ast.VarOut, false)
		}
		c.addBuiltin("gl_TexCoord", ast.Array(v4, MaxTextureCoords), ast.VarOut, false)
		c.addBuiltin("gl_FogFragCoord", f, ast.VarOut, false)
	}
}

// geometrySigs returns the overloads of EmitVertex and EndPrimitive, which
// exist only in geometry shaders. spec: GLSL 1.50 §8.10.
func geometrySigs(fn ast.Builtin, c *checker) []sig {
	if c.conf.Stage != ast.StageGeometry || c.es || c.version < 150 {
		return nil
	}
	switch fn {
	case ast.FnEmitVertex, ast.FnEndPrimitive:
		return []sig{{fn: fn, ret: ast.Void()}}
	case ast.FnEmitStreamVertex, ast.FnEndStreamPrimitive:
		if c.hasGPUShader5() {
			return []sig{{fn: fn, ret: ast.Void(), params: []*ast.Type{ast.Scalar(ast.Int)}}}
		}
	}
	return nil
}

// streamCall checks the stream argument of EmitStreamVertex and
// EndStreamPrimitive, which must be a constant integral expression, and
// records it for the link (which refuses a stream outside
// 0..MaxVertexStreams-1, as Mesa does, and a non-zero one unless the output
// primitive is points). spec: ARB_gpu_shader5 §8.10
func (c *checker) streamCall(x *ast.Call) {
	if len(x.Args) != 1 {
		return
	}
	v := x.Args[0].Value()
	if v == nil {
		c.errorf(x.Args[0].Pos(), "the stream of '%s' must be a constant integral expression", x.Name)
		return
	}
	g := &c.file.Geometry
	if n := int(v.Int(0)); !slices.Contains(g.Streams, n) {
		g.Streams = append(g.Streams, n)
	}
}

// outputStream is the vertex stream of a geometry shader output (or output
// block) declared with qualifiers q: its layout(stream = N), else the
// default of the last layout(stream = N) out;. spec: ARB_gpu_shader5 §4.3.8.2
func (c *checker) outputStream(q *ast.Qualifiers) int {
	if c.conf.Stage != ast.StageGeometry || q.Storage != ast.StorageOut {
		return 0
	}
	if n := layoutValue(q, "stream"); n >= 0 {
		return n
	}
	return c.file.Geometry.OutStream
}

// geometryPrimitive reports whether name (lower case) is a geometry shader
// layout primitive qualifier: an input one for in, an output one otherwise.
func geometryPrimitive(name string, in bool) bool {
	if in {
		return ast.InputVertices(name) > 0
	}
	return name == "points" || name == "line_strip" || name == "triangle_strip"
}

// geometryLayoutDecl handles "layout(<input primitive>) in;" and
// "layout(<output primitive>, max_vertices = N) out;". Every declaration must
// agree with the earlier ones; the input primitive sizes the per-vertex input
// arrays declared without a size and must match those declared with one.
// spec: GLSL 1.50 §4.3.8.1, §4.3.8.2.
func (c *checker) geometryLayoutDecl(q *ast.Qualifiers) {
	in := q.Storage == ast.StorageIn
	g := &c.file.Geometry
	prims := 0
	for _, l := range q.Layout {
		name := strings.ToLower(l.Name)
		switch {
		case geometryPrimitive(name, in):
			if l.Value != nil {
				c.errorf(l.NamePos, "layout qualifier '%s' takes no value", l.Name)
			}
			if prims++; prims > 1 {
				c.errorf(l.NamePos, "a layout declaration names at most one primitive")
				continue
			}
			cur := &g.Output
			if in {
				cur = &g.Input
			}
			if *cur != "" && *cur != name {
				c.errorf(l.NamePos, "layout(%s) %s conflicts with the earlier layout(%s)", name, q.Storage, *cur)
				continue
			}
			first := *cur == ""
			*cur = name
			if in && first {
				c.sizeGeometryInputs(l.NamePos)
			}
		case !in && name == "max_vertices":
			n := c.layoutInt(l)
			switch {
			case n < 0:
			case n > MaxGeometryOutputVertices:
				c.errorf(l.NamePos, "max_vertices = %d exceeds gl_MaxGeometryOutputVertices (%d)", n, MaxGeometryOutputVertices)
			case g.MaxVertices >= 0 && g.MaxVertices != n:
				c.errorf(l.NamePos, "max_vertices = %d conflicts with the earlier max_vertices = %d", n, g.MaxVertices)
			default:
				g.MaxVertices = n
			}
		case !in && name == "stream" && c.hasGPUShader5():
			if n := c.layoutInt(l); n >= MaxVertexStreams {
				c.errorf(l.NamePos, "stream = %d is outside 0..%d (GL_MAX_VERTEX_STREAMS)", n, MaxVertexStreams-1)
			} else if n >= 0 {
				g.OutStream = n
			}
		case in && name == "invocations" && c.hasGPUShader5():
			// spec: ARB_gpu_shader5 §4.3.8.1
			n := c.layoutInt(l)
			switch {
			case n < 0:
			case n == 0 || n > MaxGeometryShaderInvocations:
				c.errorf(l.NamePos, "invocations = %d is outside 1..%d (GL_MAX_GEOMETRY_SHADER_INVOCATIONS)", n, MaxGeometryShaderInvocations)
			case g.Invocations > 0 && g.Invocations != n:
				c.errorf(l.NamePos, "invocations = %d conflicts with the earlier invocations = %d", n, g.Invocations)
			default:
				g.Invocations = n
			}
		case !in && isXfb(name):
			// xfbDefault
		default:
			c.errorf(l.NamePos, "layout qualifier '%s' is not allowed on a geometry shader '%s' declaration", l.Name, q.Storage)
		}
	}
}

// sizeGeometryInputs applies the input primitive just declared to the
// per-vertex inputs declared before it.
func (c *checker) sizeGeometryInputs(pos ast.Pos) {
	prim := c.file.Geometry.Input
	n := ast.InputVertices(prim)
	for _, v := range c.geom.inputs {
		switch {
		case v.Type.Len == 0 && c.maxIndex[v] >= n:
			c.errorf(pos, "input primitive %s has %d vertices but input array '%s' is indexed at %d", prim, n, v.Name, c.maxIndex[v])
		case v.Type.Len == 0:
			v.Type.Len = n
		case v.Type.Len != n:
			c.errorf(pos, "input primitive %s has %d vertices but input array '%s' has size %d", prim, n, v.Name, v.Type.Len)
		}
	}
}

// geometryInput checks a geometry shader's user input variable or input block
// instance v (whose type the caller has made its own copy of): it must be an
// array; an unsized one takes the input primitive's vertex count, now or when
// the primitive is declared, and a sized one must match it and the other sized
// inputs. spec: GLSL 1.50 §4.3.4 ("geometry shader inputs ... must be declared
// as arrays"), §4.3.8.1.
func (c *checker) geometryInput(v *ast.Var, pos ast.Pos) {
	if v.Type.IsInvalid() {
		return
	}
	if !v.Type.IsArray() {
		c.errorf(pos, "geometry shader input '%s' must be an array", v.Name)
		return
	}
	n := ast.InputVertices(c.file.Geometry.Input)
	switch {
	case v.Type.Len == 0 && n > 0:
		v.Type.Len = n
	case v.Type.Len == 0:
	case n > 0 && v.Type.Len != n:
		c.errorf(pos, "input array '%s' has size %d but input primitive %s has %d vertices", v.Name, v.Type.Len, c.file.Geometry.Input, n)
		return
	case n == 0 && c.geom.size > 0 && v.Type.Len != c.geom.size:
		c.errorf(pos, "input array '%s' has size %d but input array '%s' has size %d", v.Name, v.Type.Len, c.geom.sizeVar, c.geom.size)
		return
	case n == 0 && c.geom.size == 0:
		c.geom.size, c.geom.sizeVar = v.Type.Len, v.Name
	}
	c.geom.inputs = append(c.geom.inputs, v)
}

// geometryInputVar reports whether v is a per-vertex input of a geometry
// shader, whose unsized arrays take any index (they are sized by the input
// primitive, not by their largest index).
func (c *checker) geometryInputVar(v *ast.Var) bool {
	for _, in := range c.geom.inputs {
		if in == v {
			return true
		}
	}
	return false
}

// perVertexInRedecl checks a geometry shader's redeclaration of its input
// block, "in gl_PerVertex { ... } gl_in[];": once, before gl_in is used, as
// an array named gl_in, with built-in members of their own types; gl_in then
// has only those members. spec: GLSL 1.50 §7.1 (and GLSL 4.10 §7.1, which
// spells the rules out).
func (c *checker) perVertexInRedecl(d *ast.BlockDecl) {
	e := c.builtin.names["gl_in"]
	switch {
	case e == nil || e.v == nil:
		return
	case d.InstanceName != "gl_in" || len(d.InstanceDims) != 1:
		c.errorf(d.NamePos, "the input gl_PerVertex block must be redeclared as gl_in[]")
		return
	case c.geom.inRedeclared:
		c.errorf(d.NamePos, "gl_PerVertex (gl_in) is redeclared more than once")
		return
	case e.v.Used:
		c.errorf(d.NamePos, "gl_PerVertex must be redeclared before gl_in is used")
		return
	}
	c.geom.inRedeclared = true
	if dim := d.InstanceDims[0]; dim != nil && dim.Size != nil {
		x := c.expr(dim.Size)
		if v := x.Value(); v != nil && x.Type().IsScalar() {
			if n := int(v.Int(0)); e.v.Type.Len > 0 && n != e.v.Type.Len {
				c.errorf(d.InstancePos, "gl_in redeclared with size %d but the input primitive %s has %d vertices", n, c.file.Geometry.Input, e.v.Type.Len)
			} else if e.v.Type.Len == 0 {
				e.v.Type.Len = n
			}
		}
	}
	old := e.v.Type.Elem.Struct
	st := &ast.StructType{Name: old.Name}
	for _, g := range d.Members {
		t := c.resolveType(g.Type)
		for _, vs := range g.Vars {
			mt := t
			if len(vs.Dims) > 0 {
				mt = c.arrayOf(t, vs.Dims, vs.NamePos)
			}
			var want *ast.Type
			for _, f := range old.Fields {
				if f.Name == vs.Name {
					want = f.Type
				}
			}
			switch {
			case want == nil:
				c.errorf(vs.NamePos, "'%s' is not a member of gl_PerVertex", vs.Name)
				continue
			case want.IsArray() && mt.IsArray() && ast.Identical(want.Elem, mt.Elem):
				if mt.Len > want.Len {
					c.errorf(vs.NamePos, "%s redeclared with size %d exceeds the implementation limit %d", vs.Name, mt.Len, want.Len)
					continue
				}
				if mt.Len == 0 {
					mt = want
				}
			case !ast.Identical(want, mt):
				c.errorf(vs.NamePos, "gl_PerVertex member '%s' is redeclared with another type", vs.Name)
				continue
			}
			st.Fields = append(st.Fields, ast.Field{Name: vs.Name, Type: mt, Pos: vs.NamePos})
		}
	}
	e.v.Type.Elem = ast.Struct(st)
	names := []string{}
	for _, f := range st.Fields {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	c.file.PerVertexIn = names
}

// recordUnsizedIndices keeps, for the link, the largest constant index of
// each per-vertex input still unsized at the end of the shader.
func (c *checker) recordUnsizedIndices() {
	for _, v := range c.geom.inputs {
		if i, ok := c.maxIndex[v]; ok && v.Type.Len == 0 && i >= 0 {
			if c.file.Geometry.MaxIndex == nil {
				c.file.Geometry.MaxIndex = map[*ast.Var]int{}
			}
			c.file.Geometry.MaxIndex[v] = i
		}
	}
}
