package types

import (
	"fmt"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

func (c *checker) index(x *ast.Index) ast.Expr {
	x.X = c.expr(x.X)
	x.Index = c.expr(x.Index)
	t, it := x.X.Type(), x.Index.Type()
	if t.IsInvalid() || it.IsInvalid() {
		return invalid(x)
	}
	if !(it.IsScalar() && (it.Base == ast.Int || it.Base == ast.Uint)) {
		c.errorf(x.Index.Pos(), "array index must be a scalar integer, not %s", it)
		return invalid(x)
	}
	n := 0
	switch {
	case t.IsArray():
		x.T, n = t.Elem, t.Len
		if !c.arrayIndexOK(x) {
			return invalid(x)
		}
	case t.IsVector():
		x.T, n = ast.Scalar(t.Base), t.Rows
	case t.IsMatrix():
		x.T, n = t.Column(), t.Cols
	default:
		c.errorf(x.LbrackPos, "cannot index a value of type %s", t)
		return invalid(x)
	}
	if v := x.Index.Value(); v != nil {
		i := int64(v.Int(0))
		if it.Base == ast.Uint {
			i = int64(v.Uint(0))
		}
		if i < 0 || (n > 0 && i >= int64(n)) {
			c.errorf(x.Index.Pos(), "index %d is out of range [0, %d)", i, n)
			return invalid(x)
		}
		if bv := x.X.Value(); bv != nil {
			x.Val = extract(bv, x.X.Type(), int(i))
		}
	}
	return x
}

// arrayIndexOK applies the indexing rules that depend on what is indexed:
// implicitly sized arrays, sampler arrays and interface block arrays need constant
// indices in older versions. spec: GLSL 1.20 §4.1.9, GLSL 1.30 §4.1.7, ES 3.00 §4.3.7.
func (c *checker) arrayIndexOK(x *ast.Index) bool {
	t := x.X.Type()
	idx := x.Index.Value()
	if idx == nil && c.implicitInClip(x.X) {
		c.errorf(x.Index.Pos(), "implicitly sized array 'gl_in[].gl_ClipDistance' can only be indexed with a constant expression")
		return false
	}
	if t.Len == 0 && runtimeArray(x.X) {
		if idx != nil && x.Index.Type().Base == ast.Int && idx.Int(0) < 0 {
			c.errorf(x.Index.Pos(), "index %d is out of range", idx.Int(0))
			return false
		}
		return true // a storage block's runtime-sized array: any index
	}
	if id, ok := x.X.(*ast.Ident); ok && t.Len == 0 && id.Var != nil && c.geometryInputVar(id.Var) {
		// Sized by the input primitive later in the shader, which must hold
		// the largest constant index. spec: GLSL 1.50 §4.3.8.1.
		if idx != nil {
			i := int(idx.Int(0))
			if i < 0 || i >= maxGeometryInputVertices {
				c.errorf(x.Index.Pos(), "index %d of geometry shader input '%s' is out of range", i, id.Var.Name)
				return false
			}
			if cur, ok := c.maxIndex[id.Var]; !ok || i > cur {
				c.maxIndex[id.Var] = i
			}
		}
		return true
	}
	if t.Len == 0 {
		v := implicitArray(x.X)
		if v == nil {
			c.errorf(x.LbrackPos, "cannot index an unsized array")
			return false
		}
		if idx == nil && v.Kind == ast.VarBuffer {
			// Mesa and piglit report this of a buffer block member at link time.
			c.file.LinkErrors.Add(x.Index.Pos(), fmt.Sprintf("implicitly sized array '%s' can only be indexed with a constant expression", v.Name))
			return true
		}
		if idx == nil {
			c.errorf(x.Index.Pos(), "implicitly sized array '%s' can only be indexed with a constant expression", v.Name)
			return false
		}
		i := int(idx.Int(0))
		if lim, ok := c.limit[v]; ok && i >= lim {
			c.errorf(x.Index.Pos(), "index %d of '%s' exceeds the implementation limit %d", i, v.Name, lim)
			return false
		}
		// GLSL 4.50 §4.1.9: the largest constant index sizes the array, so it is held
		// to the limits of a declared size (arraySize, tooLarge).
		if i >= maxArraySize || int64(i+1)*int64(t.Elem.Slots()) > maxTypeWords {
			c.errorf(x.Index.Pos(), "index %d makes implicitly sized array '%s' exceed the implementation limit", i, v.Name)
			return false
		}
		if i > c.maxIndex[v] {
			c.maxIndex[v] = i
		}
		return true
	}
	// ARB_gpu_shader5 allows dynamically uniform indices from GLSL 1.50 on.
	constOnly := (!c.es && c.version >= 130 && c.version < 400 || c.es && c.version >= 300 && c.version < 320) && !c.hasGPUShader5()
	// Only samplers: arrays of atomic counters take any index, and so do
	// arrays of images on desktop GLSL (ARB_shader_image_load_store sets no
	// rule; GLSL 4.20, which has images, allows dynamically uniform indices),
	// as Mesa reads it. spec: GLSL ES 3.10 §4.1.7.1, §4.1.7.2
	if idx == nil && t.Elem.IsSampler() && !t.Elem.Sampler.Atomic && (!t.Elem.Sampler.Image || c.es) && constOnly {
		c.errorf(x.Index.Pos(), "sampler arrays can only be indexed with constant expressions in this GLSL version")
		return false
	}
	if id, ok := x.X.(*ast.Ident); ok && idx == nil && id.Var != nil && id.Var.Block != nil &&
		id.Var == id.Var.Block.InstanceVar && (id.Var.Block.Storage == ast.StorageUniform || id.Var.Block.Storage == ast.StorageBuffer) &&
		!c.atLeast(400, 320) && !c.hasGPUShader5() {
		c.errorf(x.Index.Pos(), "interface block arrays can only be indexed with constant expressions in this GLSL version")
		return false
	}
	return true
}

// implicitArray returns the variable an unsized array expression names: a variable,
// or a member of a named block instance (GLSL 4.50 §4.1.9 sizes both by their largest
// constant index); nil for anything else, such as an element of an implicitly sized
// array of structs.
func implicitArray(e ast.Expr) *ast.Var {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Var
	case *ast.Selector:
		if m := memMember(x); m != nil && m.Block != nil && m.ImplicitSize && m.Type == x.Type() {
			return m
		}
	}
	return nil
}

func (c *checker) selector(x *ast.Selector) ast.Expr {
	x.X = c.expr(x.X)
	t := x.X.Type()
	if t.IsInvalid() {
		return invalid(x)
	}
	if t.IsStruct() {
		for i, f := range t.Struct.Fields {
			if f.Name == x.Name {
				x.Field = i
				x.T = f.Type
				if v := x.X.Value(); v != nil {
					x.Val = extractField(v, t, i)
				}
				c.noteWriteOnly(x)
				return x
			}
		}
		c.errorf(x.DotPos, "'%s' has no field named '%s'", t, x.Name)
		return invalid(x)
	}
	if t.IsVector() || (t.IsScalar() && c.has420pack()) {
		if len(x.Name) > 4 {
			c.errorf(x.DotPos, "swizzle '%s' has more than four components", x.Name)
			return invalid(x)
		}
		set := -1
		comps := make([]int, 0, 4)
		for i := 0; i < len(x.Name); i++ {
			found := false
			for s, letters := range [3]string{"xyzw", "rgba", "stpq"} {
				if k := strings.IndexByte(letters, x.Name[i]); k >= 0 {
					if set >= 0 && s != set {
						c.errorf(x.DotPos, "swizzle '%s' mixes component sets", x.Name)
						return invalid(x)
					}
					set = s
					if k >= t.Rows {
						c.errorf(x.DotPos, "swizzle component '%c' is out of range for %s", x.Name[i], t)
						return invalid(x)
					}
					comps = append(comps, k)
					found = true
				}
			}
			if !found {
				c.errorf(x.DotPos, "invalid swizzle or field '%s' on %s", x.Name, t)
				return invalid(x)
			}
		}
		x.Swizzle = comps
		x.T = ast.Vector(t.Base, len(comps))
		if v := x.X.Value(); v != nil {
			w := make([]uint32, len(comps))
			for i, k := range comps {
				w[i] = v.Words[k]
			}
			x.Val = &ast.Value{Type: x.T, Words: w}
		}
		return x
	}
	c.errorf(x.DotPos, "cannot select '%s' from a value of type %s", x.Name, t)
	return invalid(x)
}

// lvalue reports whether e may be written, reporting why not.
// spec: GLSL 4.50 §5.8.
func (c *checker) lvalue(e ast.Expr, what string) bool {
	switch x := e.(type) {
	case *ast.Ident:
		v := x.Var
		if v == nil {
			return false
		}
		// const parameters are ReadOnly too (funcDecl).
		if v.ReadOnly || v.Kind == ast.VarConst || v.Kind == ast.VarUniform || v.Kind == ast.VarIn {
			c.errorf(x.NamePos, "%s: '%s' is read-only", what, v.Name)
			return false
		}
		c.noteWrite(v, x.NamePos)
		return true
	case *ast.Index:
		return c.lvalue(x.X, what)
	case *ast.Selector:
		if m := memMember(x); m != nil && m.Kind == ast.VarBuffer && m.Qual.ReadOnlyMem {
			c.errorf(x.DotPos, "%s: '%s' is readonly", what, m.Name)
			return false
		}
		if x.Swizzle != nil {
			seen := 0
			for _, k := range x.Swizzle {
				if seen&(1<<k) != 0 {
					c.errorf(x.DotPos, "%s: swizzle '%s' repeats a component", what, x.Name)
					return false
				}
				seen |= 1 << k
			}
		}
		return c.lvalue(x.X, what)
	}
	c.errorf(e.Pos(), "%s is not an l-value", what)
	return false
}

func (c *checker) noteWrite(v *ast.Var, pos ast.Pos) {
	v.Written = true
	if !v.Builtin {
		if v.Kind == ast.VarOut && c.conf.Stage == ast.StageFragment {
			if !c.userOutWritten.IsValid() {
				c.userOutWritten = pos
			}
			if c.wroteFragColor.IsValid() || c.wroteFragData.IsValid() {
				c.errorf(pos, "cannot write both user-defined outputs and gl_FragColor/gl_FragData")
			}
		}
		return
	}
	switch v.Name {
	case "gl_FragColor":
		c.wroteFragColor = pos
		if c.wroteFragData.IsValid() {
			c.errorf(pos, "cannot write both gl_FragColor and gl_FragData")
		}
	case "gl_FragData":
		c.wroteFragData = pos
		if c.wroteFragColor.IsValid() {
			c.errorf(pos, "cannot write both gl_FragColor and gl_FragData")
		}
	}
	if c.userOutWritten.IsValid() && (v.Name == "gl_FragColor" || v.Name == "gl_FragData") {
		c.errorf(pos, "cannot write both user-defined outputs and '%s'", v.Name)
	}
}
