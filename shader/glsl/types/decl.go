package types

import (
	"fmt"
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

func (c *checker) globalDecl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.DeclGroup:
		c.declGroup(d, true)
	case *ast.FuncDecl:
		c.funcDecl(d)
	case *ast.BlockDecl:
		c.blockDecl(d)
	case *ast.PrecisionDecl:
		c.precisionDecl(d)
	case *ast.QualDecl:
		c.qualDecl(d)
	}
}

func (c *checker) precisionDecl(d *ast.PrecisionDecl) {
	if d.Type.Name == "" || len(d.Type.Dims) > 0 {
		c.errorf(d.PrecPos, "precision statement requires a basic type")
		return
	}
	t := builtinType(d.Type.Name)
	switch {
	case t == nil:
		c.errorf(d.Type.Pos(), "precision statement requires int, float or a sampler type, not '%s'", d.Type.Name)
	case t.IsScalar() && (t.Base == ast.Float || t.Base == ast.Int), t.IsSampler():
		if t.IsScalar() && t.Base == ast.Float {
			c.cur.floatPrec = true
		}
		if t.IsScalar() && c.cur == c.globals {
			c.defPrec[t.Base] = d.Precision
		}
	default:
		c.errorf(d.Type.Pos(), "precision statement requires int, float or a sampler type, not '%s'", d.Type.Name)
	}
}

func (c *checker) qualDecl(d *ast.QualDecl) {
	q := d.Qual
	if len(d.Names) == 0 {
		// layout(...) uniform; / in; / out;
		if len(q.Layout) == 0 {
			c.errorf(q.Pos, "declaration does not declare anything")
		}
		// A bare `in;` has no layout to look at: it is only the diagnostic above
		// (a default qualifier declaration needs a layout, GLSL 4.50 §4.4).
		if q.Storage == ast.StorageIn && (c.conf.Stage == ast.StageCompute ||
			len(q.Layout) > 0 && strings.HasPrefix(q.Layout[0].Name, "local_size_")) {
			c.localSizeDecl(&q)
		}
		if q.Storage == ast.StorageOut {
			c.xfbDefault(&q)
		}
		if q.Storage == ast.StorageIn || q.Storage == ast.StorageOut {
			if c.conf.Stage == ast.StageGeometry {
				c.geometryLayoutDecl(&q)
			} else {
				for _, l := range q.Layout {
					if n := strings.ToLower(l.Name); geometryPrimitive(n, true) || geometryPrimitive(n, false) || n == "max_vertices" {
						c.errorf(l.NamePos, "layout qualifier '%s' is only allowed in geometry shaders", l.Name)
					}
				}
			}
		}
		if q.Storage == ast.StorageBuffer && !c.hasSSBO() {
			c.errorf(q.Pos, "buffer blocks require GLSL 4.30 or GL_ARB_shader_storage_buffer_object")
		}
		for _, l := range q.Layout {
			if l.Name == "binding" {
				c.errorf(l.NamePos, "layout(binding) is not allowed in a default qualifier declaration")
			}
		}
		// layout(std140, row_major) uniform; sets the default for the blocks that
		// follow. spec: GLSL 4.50 §4.4.5, GLSL ES 3.00 §4.3.8.3.
		if def, ok := c.blockDefault[q.Storage]; ok {
			c.blockDefault[q.Storage] = blockLayoutOf(q.Layout, def)
		}
		return
	}
	if q.Precise && !q.Invariant && q.Storage == ast.StorageNone {
		c.preciseDecl(d)
		return
	}
	if !q.Invariant || q.Storage != ast.StorageNone {
		c.errorf(q.Pos, "only 'invariant' may qualify an existing variable")
		return
	}
	// Only global declarations get here: a local one is refused by stmt.
	for _, id := range d.Names {
		e := c.cur.lookup(id.Name)
		if e == nil || e.v == nil {
			c.errorf(id.NamePos, "undeclared identifier '%s'", id.Name)
			continue
		}
		v := e.v
		if v.Used && !v.Builtin {
			c.errorf(id.NamePos, "'invariant' must be applied to '%s' before it is used", id.Name)
		}
		if v.Kind != ast.VarOut && !(v.Kind == ast.VarIn && c.invariantInputs()) {
			c.errorf(id.NamePos, "'invariant' can only qualify shader outputs, not '%s'", id.Name)
			continue
		}
		// spec: GLSL ES 1.00 §4.6.4: "It is an error to declare gl_FrontFacing as
		// invariant." (gl_FragCoord and gl_PointCoord are checked at link time.)
		if v.Builtin && v.Name == "gl_FrontFacing" && c.es {
			c.errorf(id.NamePos, "gl_FrontFacing cannot be declared invariant")
			continue
		}
		v.Qual.Invariant = true
		if v.Builtin && v.DeclPos == (ast.Pos{}) {
			v.DeclPos = id.NamePos // the redeclaration is the built-in's declaration
		}
		id.Var = v
	}
}

// preciseDecl handles "precise name, ...;", which makes variables already
// declared (built-in outputs, globals, locals, parameters) precise, at global
// or local scope. precise forbids reordering and contraction of the
// computations that feed the variable; the executor evaluates every
// operation as written with one IEEE single rounding (no fused multiply-add,
// no reassociation), so the qualifier only needs checking here.
// spec: ARB_gpu_shader5 §4.7 (precise), GLSL 4.00 §4.7
func (c *checker) preciseDecl(d *ast.QualDecl) {
	for _, id := range d.Names {
		e := c.cur.lookup(id.Name)
		if e == nil || e.v == nil {
			c.errorf(id.NamePos, "undeclared identifier '%s'", id.Name)
			continue
		}
		v := e.v
		if c.cur != c.globals && (c.globals.names[id.Name] == e || c.builtin.names[id.Name] == e) {
			// Inside a function only the function's own variables: a global
			// made precise part-way through one function is refused, as
			// Mesa does (piglit precise-12).
			c.errorf(id.NamePos, "'precise' in a function cannot qualify the global variable '%s'", id.Name)
			continue
		}
		if v.ReadOnly && v.Kind != ast.VarParam {
			c.errorf(id.NamePos, "'precise' cannot qualify the read-only variable '%s'", id.Name)
			continue
		}
		v.Qual.Precise = true
		id.Var = v
	}
}

// varKind maps a storage qualifier to where the variable lives.
func (c *checker) varKind(st ast.Storage, global bool) (ast.VarKind, bool) {
	switch st {
	case ast.StorageConst:
		return ast.VarConst, true
	case ast.StorageIn, ast.StorageAttribute:
		return ast.VarIn, true
	case ast.StorageVarying:
		if c.conf.Stage == ast.StageFragment {
			return ast.VarIn, true
		}
		return ast.VarOut, false
	case ast.StorageOut:
		return ast.VarOut, false
	case ast.StorageUniform:
		return ast.VarUniform, true
	case ast.StorageShared:
		return ast.VarShared, false
	case ast.StorageBuffer:
		return ast.VarBuffer, false
	}
	if global {
		return ast.VarGlobal, false
	}
	return ast.VarLocal, false
}

// declGroup checks a variable declaration group at global or local scope.
func (c *checker) declGroup(g *ast.DeclGroup, global bool) {
	base := c.resolveType(g.Type)
	if len(g.Vars) == 0 {
		if g.Type.Struct == nil && !base.IsInvalid() {
			c.errorf(g.Type.Pos(), "declaration does not declare anything")
		}
		if g.Qual.Count > 0 && g.Type.Struct != nil && (g.Qual.Storage != ast.StorageNone || g.Qual.Invariant) {
			c.errorf(g.Qual.Pos, "qualifiers on a struct definition without a declarator")
		}
		return
	}
	if c.es && base.IsNumeric() && base.Base == ast.Float && g.Type.Precision == ast.PrecNone &&
		!c.hasFloatPrecision() && g.Qual.Precision == ast.PrecNone {
		c.errorf(g.Type.Pos(), "declaration of type float requires a precision qualifier (no default precision for float in fragment shaders)")
	}
	if g.Type.Struct != nil && (g.Qual.Storage == ast.StorageIn || g.Qual.Storage == ast.StorageOut) && c.es {
		c.errorf(g.Type.Pos(), "struct definitions are not allowed in in/out declarations")
	}
	for _, vs := range g.Vars {
		t := base
		if len(vs.Dims) > 0 {
			if base.IsArray() && !c.hasArraysOfArrays() {
				c.errorf(vs.NamePos, "arrays of arrays require GLSL 4.30, GLSL ES 3.10 or GL_ARB_arrays_of_arrays")
				t = ast.Invalid()
			} else {
				t = c.arrayOf(base, vs.Dims, vs.NamePos)
			}
		}
		// GLSL ES 1.00's grammar has type-specifier arrays (type_specifier_no_prec
		// takes [constant_expression]), as GLSL 1.20's does. spec: GLSL ES 1.00 §9
		if len(g.Type.Dims) > 0 && !c.atLeast(120, 100) {
			c.errorf(g.Type.Pos(), "array types in type specifiers require GLSL 1.20")
		}
		c.varSpec(g, vs, t, global)
	}
}

func (c *checker) varSpec(g *ast.DeclGroup, vs *ast.VarSpec, t *ast.Type, global bool) {
	q, fetch, noncoherent := c.fetchQualifiers(g.Qual, vs, global)
	if t.IsVoid() {
		c.errorf(vs.NamePos, "variable '%s' declared void", vs.Name)
		t = ast.Invalid()
	}
	kind, ro := c.varKind(q.Storage, global)
	v := &ast.Var{Name: vs.Name, DeclPos: vs.NamePos, Type: t, Kind: kind, Qual: q, ReadOnly: ro,
		Location: -1, Binding: -1, Fetch: fetch}
	vs.Var = v
	if vs.Name == "gl_LastFragData" && global && c.redeclareLastFragData(v, vs, noncoherent) {
		return
	}
	c.checkQualifiers(&q, global, t, vs.NamePos)
	if c.es && q.Storage == ast.StorageUniform && v.Qual.Precision == ast.PrecNone {
		v.Qual.Precision = c.defaultPrec(t)
	}
	v.Location = layoutValue(&q, "location")
	v.Component = max(layoutValue(&q, "component"), 0)
	c.checkComponent(&q, t, vs.NamePos)
	if global {
		c.xfbVar(&q, t, vs.Name, vs.NamePos)
	}
	v.Index = max(layoutValue(&q, "index"), 0)
	v.Binding = layoutValue(&q, "binding")
	v.Stream = c.outputStream(&q)
	if q.Storage == ast.StorageUniform && !t.IsInvalid() {
		c.opaqueUniform(v, vs.NamePos)
	}
	if t.IsSampler() || t.ContainsSampler() {
		if q.Storage != ast.StorageUniform && !t.IsInvalid() {
			c.errorf(vs.NamePos, "sampler variables must be uniform")
		}
	}
	if vs.Name != "gl_FragDepth" {
		for _, l := range q.Layout {
			if isDepthLayout(strings.ToLower(l.Name)) {
				c.errorf(l.NamePos, "layout(%s) is only allowed on gl_FragDepth, not '%s'", strings.ToLower(l.Name), vs.Name)
			}
		}
	}
	// Redeclaring built-ins: gl_FragDepth, gl_TexCoord[], gl_ClipDistance[] etc.
	if len(vs.Name) >= 3 && vs.Name[:3] == "gl_" {
		if c.redeclareBuiltin(v, vs, global) {
			return
		}
	}
	c.checkName(vs.Name, vs.NamePos)
	if vs.Init != nil {
		c.initializer(v, vs, global)
	} else {
		if q.Storage == ast.StorageConst {
			c.errorf(vs.NamePos, "const variable '%s' must be initialized", vs.Name)
		}
		if c.conf.Stage == ast.StageGeometry && q.Storage == ast.StorageIn && global {
			// Per-vertex inputs: sized by the input primitive. spec: GLSL 1.50 §4.3.8.1.
			if t.IsArray() {
				nt := *t
				v.Type = &nt
			}
			c.geometryInput(v, vs.NamePos)
		} else if t.IsArray() && t.Len == 0 {
			if c.es || q.Storage == ast.StorageConst {
				c.errorf(vs.NamePos, "array '%s' must have an explicit size", vs.Name)
			} else {
				// Desktop GLSL sizes an implicitly sized array by a later
				// redeclaration or by its largest constant index. spec: GLSL 1.20 §4.1.9.
				nt := *t
				v.Type = &nt
				v.ImplicitSize = true
				c.unsized = append(c.unsized, v)
				c.maxIndex[v] = -1
			}
		}
	}
	if c.resize(v, vs) {
		return
	}
	c.declareVar(v)
}

// resize handles the redeclaration of an implicitly sized array with a size; it
// reports whether vs was such a redeclaration (vs.Var is then the earlier Var).
func (c *checker) resize(v *ast.Var, vs *ast.VarSpec) bool {
	e := c.cur.names[v.Name]
	if e == nil || e.v == nil || !e.v.Type.IsArray() || e.v.Type.Len != 0 || !v.Type.IsArray() || v.Type.Len == 0 {
		return false
	}
	if e.v.Block != nil {
		// A member of an unnamed block is sized by its indices, never redeclared as a
		// global: that is a redeclaration of the name. spec: GLSL 4.50 §4.3.9.
		return false
	}
	old := e.v
	if !ast.Identical(old.Type.Elem, v.Type.Elem) || old.Qual.Storage != v.Qual.Storage {
		c.errorf(vs.NamePos, "redeclaration of '%s' with a different type", v.Name)
		return true
	}
	if mx := c.maxIndex[old]; mx >= v.Type.Len {
		c.errorf(vs.NamePos, "array '%s' redeclared with size %d but indexed at %d", v.Name, v.Type.Len, mx)
		return true
	}
	old.Type.Len = v.Type.Len
	vs.Var = old
	return true
}

// sizeArrays gives the implicitly sized arrays that were never redeclared the size
// implied by their largest constant index.
func (c *checker) sizeArrays() {
	for _, v := range c.unsized {
		if v.Type.Len == 0 {
			n := c.maxIndex[v] + 1
			if n <= 0 {
				if v.Kind == ast.VarBuffer {
					c.file.LinkErrors.Add(v.DeclPos, fmt.Sprintf("buffer block member '%s' is an unsized array but not the last member, and no constant index sizes it", v.Name))
				}
				n = 1
			}
			v.Type.Len = n
		}
	}
	// A buffer block whose members were just sized is laid out again, as
	// below; its diagnostics were reported the first time.
	for b, d := range c.implicitBuffers {
		n := len(c.errs)
		c.bufferBlock(d, b)
		c.errs = c.errs[:n]
	}
	c.checkClipCullSum()
	// A uniform block whose members were just sized is laid out again: its offsets
	// and size were computed with those members empty. spec: OpenGL 4.5 §7.6.2.2.
	for _, b := range c.file.Blocks {
		if b.Storage != ast.StorageUniform || !slices.ContainsFunc(b.Members, func(m *ast.Var) bool { return m.ImplicitSize }) {
			continue
		}
		offs, size := Std140Offsets(b.Members)
		for i, m := range b.Members {
			m.Offset = offs[i]
		}
		b.Size = size
	}
}

// checkClipCullSum rejects a shader whose gl_ClipDistance and gl_CullDistance
// sizes, once known, add up to more than gl_MaxCombinedClipAndCullDistances.
// Only arrays the shader sized (redeclared or indexed) count.
// spec: ARB_cull_distance ("the sum of the sizes ... shall not exceed")
func (c *checker) checkClipCullSum() {
	clip, cull := c.builtin.names["gl_ClipDistance"], c.builtin.names["gl_CullDistance"]
	if clip == nil || cull == nil || clip.v == nil || cull.v == nil {
		return
	}
	used := func(v *ast.Var) int {
		if !v.Used && !c.redeclaredBuiltins[v.Name] {
			return 0
		}
		return v.Type.Len
	}
	if n := used(clip.v) + used(cull.v); n > MaxCombinedClipAndCull {
		pos := c.clipCullPos
		if !pos.IsValid() {
			pos = c.file.Pos()
		}
		c.errorf(pos, "gl_ClipDistance and gl_CullDistance have %d entries together, more than gl_MaxCombinedClipAndCullDistances (%d)", n, MaxCombinedClipAndCull)
	}
}

func storageOf(v *ast.Var) string {
	if v.Kind == ast.VarOut {
		return "out"
	}
	return "in"
}

// sameRedeclLayout records the sorted layout set of a redeclaration of the
// built-in vs (in *seen and, the first time, *file) and reports an error when
// it differs from an earlier redeclaration's; it reports whether there was
// an earlier one.
func (c *checker) sameRedeclLayout(v *ast.Var, vs *ast.VarSpec, seen, file *[]string) bool {
	set := []string{}
	for _, l := range v.Qual.Layout {
		set = append(set, strings.ToLower(l.Name))
	}
	slices.Sort(set)
	set = slices.Compact(set)
	if *seen != nil && !slices.Equal(*seen, set) {
		c.errorf(vs.NamePos, "all redeclarations of %s must have the same layout qualifiers", vs.Name)
	}
	if *seen != nil {
		return true
	}
	*seen, *file = set, set
	return false
}

// redeclareBuiltin handles legal redeclarations of built-in variables; it reports
// whether vs was such a redeclaration.
func (c *checker) redeclareBuiltin(v *ast.Var, vs *ast.VarSpec, global bool) bool {
	e := c.builtin.names[vs.Name]
	if e == nil || e.v == nil || !global {
		return false
	}
	b := e.v
	switch vs.Name {
	case "gl_TexCoord", "gl_ClipDistance", "gl_CullDistance", "gl_FragDepth", "gl_FragData", "gl_Color",
		"gl_SecondaryColor", "gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor",
		"gl_BackSecondaryColor", "gl_FragCoord":
	default:
		return false
	}
	// "All redeclarations of gl_FragCoord within a shader must have the same
	// set of qualifiers", and only the first must precede every use; the
	// same holds for gl_FragDepth's depth layouts.
	// spec: GLSL 1.50 §4.3.8.1, GLSL 4.20 §4.4.2.3
	redeclared := false
	switch vs.Name {
	case "gl_FragCoord":
		redeclared = c.sameRedeclLayout(v, vs, &c.fragCoordLayout, &c.file.FragCoordLayout)
	case "gl_FragDepth":
		redeclared = c.sameRedeclLayout(v, vs, &c.fragDepthLayout, &c.file.FragDepthLayout)
	}
	if b.Used && !redeclared {
		c.errorf(vs.NamePos, "built-in '%s' must be redeclared before it is used", vs.Name)
	}
	if _, _, member := c.perVertexMember(vs.Name); member && c.perVertexRedeclared {
		c.errorf(vs.NamePos, "'%s' cannot be redeclared after gl_PerVertex", vs.Name)
	}
	if c.redeclaredBuiltins == nil {
		c.redeclaredBuiltins = map[string]bool{}
	}
	c.redeclaredBuiltins[vs.Name] = true
	if vs.Name == "gl_ClipDistance" || vs.Name == "gl_CullDistance" {
		c.clipCullPos = vs.NamePos
	}
	st := v.Qual.Storage
	okStorage := false
	switch b.Kind {
	case ast.VarOut:
		okStorage = st == ast.StorageOut || (st == ast.StorageVarying && c.conf.Stage == ast.StageVertex)
	case ast.VarIn:
		okStorage = st == ast.StorageIn || (st == ast.StorageVarying && c.conf.Stage == ast.StageFragment)
	}
	if !okStorage {
		c.errorf(vs.NamePos, "redeclaration of built-in '%s' must keep its storage qualifier '%s'", vs.Name, storageOf(b))
		return true
	}
	if b.Type.IsArray() && !v.Type.IsArray() || !b.Type.IsArray() && v.Type.IsArray() ||
		b.Type.IsArray() && !ast.Identical(b.Type.Elem, v.Type.Elem) {
		c.errorf(vs.NamePos, "redeclaration of built-in '%s' changes its type", vs.Name)
		return true
	}
	if b.Type.IsArray() && v.Type.IsArray() {
		lim := b.Type.Len
		if l, ok := c.limit[b]; ok {
			lim = l
		}
		if v.Type.Len > lim {
			c.errorf(vs.NamePos, "redeclared size of '%s' exceeds the implementation limit %d", vs.Name, lim)
			return true
		}
		if mx, ok := c.maxIndex[b]; ok && mx >= v.Type.Len && v.Type.Len > 0 {
			c.errorf(vs.NamePos, "redeclared size of '%s' is smaller than an index already used", vs.Name)
			return true
		}
		if v.Type.Len == 0 {
			v.Type = b.Type
		}
	} else if !ast.Identical(b.Type, v.Type) {
		c.errorf(vs.NamePos, "redeclaration of built-in '%s' changes its type", vs.Name)
		return true
	}
	if vs.Init != nil {
		c.errorf(vs.NamePos, "built-in '%s' cannot be initialized", vs.Name)
	}
	b.Type = v.Type
	b.Qual.Interp = v.Qual.Interp
	b.Qual.Invariant = b.Qual.Invariant || v.Qual.Invariant
	b.Qual.Layout = v.Qual.Layout
	vs.Var = b
	return true
}

func (c *checker) initializer(v *ast.Var, vs *ast.VarSpec, global bool) {
	q := v.Qual
	switch q.Storage {
	case ast.StorageIn, ast.StorageOut, ast.StorageAttribute, ast.StorageVarying, ast.StorageShared:
		c.errorf(vs.NamePos, "%s variable '%s' cannot be initialized", q.Storage, vs.Name)
		return
	case ast.StorageUniform:
		if !c.atLeast(120, 0) {
			c.errorf(vs.NamePos, "uniform '%s' cannot be initialized in this GLSL version", vs.Name)
			return
		}
	}
	if v.Type.ContainsSampler() {
		c.errorf(vs.NamePos, "sampler '%s' cannot be initialized", vs.Name)
		return
	}
	var x ast.Expr
	if l, ok := vs.Init.(*ast.InitList); ok {
		x = c.initList(l, v.Type)
	} else {
		x = c.expr(vs.Init)
	}
	if x.Type().IsInvalid() || v.Type.IsInvalid() {
		vs.Init = x
		return
	}
	if v.Type.IsArray() && v.Type.Len == 0 && x.Type().IsArray() && ast.Identical(v.Type.Elem, x.Type().Elem) {
		v.Type = x.Type()
	}
	x = c.convertTo(x, v.Type, vs.Init.Pos(), "initialize '"+vs.Name+"'")
	vs.Init = x
	// From GLSL 4.20 a local const may take any initializer: it is then a
	// read-only variable, not a constant. spec: GLSL 4.20 §4.3.3
	localConst := q.Storage == ast.StorageConst && !global && c.has420pack()
	if (q.Storage == ast.StorageConst && !localConst) || q.Storage == ast.StorageUniform || (global && c.es) {
		if x.Value() == nil && !x.Type().IsInvalid() {
			c.errorf(vs.Init.Pos(), "initializer of '%s' must be a constant expression", vs.Name)
			return
		}
	}
	if q.Storage == ast.StorageConst {
		v.ConstValue = x.Value()
	}
}

// defaultPrec is the global default precision of t's numeric base (ES), or
// PrecNone for bool, struct and opaque types.
func (c *checker) defaultPrec(t *ast.Type) ast.Precision {
	for t.IsArray() {
		t = t.Elem
	}
	if !t.IsNumeric() || t.Base == ast.Bool {
		return ast.PrecNone
	}
	b := t.Base
	if b == ast.Uint {
		b = ast.Int
	}
	return c.defPrec[b]
}
