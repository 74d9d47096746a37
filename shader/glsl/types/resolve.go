package types

import (
	"vortexgfx/shader/glsl/ast"
)

// builtinType maps a built-in type keyword to its type. spec: GLSL 4.50 §4.1.
func builtinType(name string) *ast.Type {
	switch name {
	case "void":
		return ast.Void()
	case "bool":
		return ast.Scalar(ast.Bool)
	case "int":
		return ast.Scalar(ast.Int)
	case "uint":
		return ast.Scalar(ast.Uint)
	case "float":
		return ast.Scalar(ast.Float)
	}
	if len(name) == 4 && name[:3] == "vec" {
		return ast.Vector(ast.Float, int(name[3]-'0'))
	}
	if len(name) == 5 && name[1:4] == "vec" {
		b := map[byte]ast.Basic{'i': ast.Int, 'u': ast.Uint, 'b': ast.Bool}[name[0]]
		if b != ast.BasicNone {
			return ast.Vector(b, int(name[4]-'0'))
		}
	}
	if len(name) == 4 && name[:3] == "mat" {
		n := int(name[3] - '0')
		return ast.Matrix(n, n)
	}
	if len(name) == 6 && name[:3] == "mat" && name[4] == 'x' {
		return ast.Matrix(int(name[3]-'0'), int(name[5]-'0'))
	}
	if s, ok := samplerType(name); ok {
		return ast.Sampler(s)
	}
	return nil
}

func samplerType(name string) (ast.SamplerType, bool) {
	var s ast.SamplerType
	s.Base = ast.Float
	switch name {
	case "atomic_uint":
		return ast.SamplerType{Atomic: true, Base: ast.Uint}, true
	case "image2D", "iimage2D", "uimage2D", "image3D", "iimage3D", "uimage3D",
		"image2DArray", "iimage2DArray", "uimage2DArray":
		s.Image = true
		switch name[:2] {
		case "ii":
			s.Base, name = ast.Int, name[1:]
		case "ui":
			s.Base, name = ast.Uint, name[1:]
		}
		s.Dim = ast.Dim2D
		if name[5] == '3' {
			s.Dim = ast.Dim3D
		}
		s.Array = len(name) > 7
		return s, true
	}
	switch {
	case len(name) > 8 && name[:8] == "isampler":
		s.Base, name = ast.Int, name[8:]
	case len(name) > 8 && name[:8] == "usampler":
		s.Base, name = ast.Uint, name[8:]
	case len(name) > 7 && name[:7] == "sampler":
		name = name[7:]
	default:
		return s, false
	}
	if n := len(name); n > 6 && name[n-6:] == "Shadow" {
		if s.Base != ast.Float {
			return s, false
		}
		s.Shadow, name = true, name[:n-6]
	}
	if n := len(name); n > 5 && name[n-5:] == "Array" {
		s.Array, name = true, name[:n-5]
	}
	switch name {
	case "1D":
		s.Dim = ast.Dim1D
	case "2D":
		s.Dim = ast.Dim2D
	case "3D":
		s.Dim = ast.Dim3D
	case "Cube":
		s.Dim = ast.DimCube
	case "2DRect":
		s.Dim = ast.DimRect
	case "Buffer":
		s.Dim = ast.DimBuffer
	case "2DMS":
		s.Dim = ast.Dim2DMS
	default:
		return s, false
	}
	return s, true
}

// resolveType resolves a written type, including its array dimensions and any
// inline struct definition (declared in the current scope).
func (c *checker) resolveType(ts *ast.TypeSpec) *ast.Type {
	if ts.Type != nil {
		return ts.Type
	}
	var t *ast.Type
	defer func() {
		if ts.Precision != ast.PrecNone && !t.IsInvalid() {
			b := t
			for b.IsArray() {
				b = b.Elem
			}
			if b.IsStruct() || b.IsVoid() || (b.IsNumeric() && b.Base == ast.Bool) {
				c.errorf(ts.NamePos, "precision qualifiers cannot be applied to %s", b)
			}
		}
	}()
	switch {
	case ts.Struct != nil:
		t = ast.Struct(c.declareStruct(ts.Struct))
	default:
		t = builtinType(ts.Name)
		if t == nil {
			if e := c.cur.lookup(ts.Name); e != nil && e.typ != nil {
				t = ast.Struct(e.typ)
			} else {
				c.errorf(ts.NamePos, "unknown type '%s'", ts.Name)
				t = ast.Invalid()
			}
		}
	}
	if len(ts.Dims) > 0 {
		t = c.arrayOf(t, ts.Dims, ts.NamePos)
	}
	ts.Type = t
	return t
}

// arrayOf wraps t in the array dimensions dims (outermost first).
func (c *checker) arrayOf(t *ast.Type, dims []*ast.ArrayDim, pos ast.Pos) *ast.Type {
	if t.IsInvalid() {
		return t
	}
	if len(dims) > 1 && !c.hasArraysOfArrays() {
		c.errorf(dims[1].Lbrack, "arrays of arrays require GLSL 4.30, GLSL ES 3.10 or GL_ARB_arrays_of_arrays")
		return ast.Invalid()
	}
	if t.IsVoid() {
		c.errorf(pos, "cannot declare an array of void")
		return ast.Invalid()
	}
	for i := len(dims) - 1; i >= 0; i-- {
		n := 0
		if dims[i].Size != nil {
			n = c.arraySize(dims[i].Size)
			if n < 0 {
				return ast.Invalid()
			}
		}
		t = ast.Array(t, n)
	}
	if c.tooLarge(t, pos) {
		return ast.Invalid()
	}
	return t
}

// maxTypeWords bounds the flattened size of an array or struct type: 4 MiB, the
// largest explicit 1-D array (mat4[65536]) included. GLSL 4.50 §4.1.9 sets no
// maximum, so this is an implementation limit, as the one on a single dimension;
// without it arrays of arrays and arrays of structs multiply to sizes no later
// stage can allocate.
const maxTypeWords = 1 << 20

// maxArraySize is the implementation limit on one dimension of an array.
const maxArraySize = 1 << 16

// tooLarge reports (at pos) whether a value of type t exceeds maxTypeWords.
func (c *checker) tooLarge(t *ast.Type, pos ast.Pos) bool {
	if n := t.Slots(); n > maxTypeWords {
		c.errorf(pos, "type '%s' of %d words exceeds the implementation limit of %d words", t, n, maxTypeWords)
		return true
	}
	return false
}

// arraySize evaluates an array size; it returns -1 after reporting an error.
func (c *checker) arraySize(e ast.Expr) int {
	x := c.expr(e)
	t := x.Type()
	if t.IsInvalid() {
		return -1
	}
	if !t.IsScalar() || (t.Base != ast.Int && t.Base != ast.Uint) {
		c.errorf(e.Pos(), "array size must be an integer constant expression, not %s", t)
		return -1
	}
	v := x.Value()
	if v == nil {
		c.errorf(e.Pos(), "array size must be a constant expression")
		return -1
	}
	n := int64(v.Int(0))
	if t.Base == ast.Uint {
		n = int64(v.Uint(0))
	}
	if n <= 0 {
		c.errorf(e.Pos(), "array size must be greater than zero, got %d", n)
		return -1
	}
	if n > maxArraySize {
		c.errorf(e.Pos(), "array size %d is too large", n)
		return -1
	}
	return int(n)
}

// declareStruct resolves a struct definition and declares its name.
func (c *checker) declareStruct(s *ast.StructSpec) *ast.StructType {
	if s.Type != nil {
		return s.Type
	}
	st := &ast.StructType{Name: s.Name}
	s.Type = st
	seen := map[string]bool{}
	for _, g := range s.Members {
		if g.Qual.Count > 0 && (g.Qual.Storage != ast.StorageNone || g.Qual.Interp != ast.InterpNone ||
			g.Qual.Centroid || g.Qual.Sample || g.Qual.Precise || g.Qual.Invariant || len(g.Qual.Layout) > 0) {
			c.errorf(g.Qual.Pos, "struct members cannot have qualifiers other than precision")
		}
		if g.Type.Struct != nil {
			c.errorf(g.Type.Pos(), "embedded struct definitions are not allowed")
		}
		bt := c.resolveType(g.Type)
		if bt.IsVoid() {
			c.errorf(g.Type.Pos(), "struct member cannot be void")
			continue
		}
		for _, vs := range g.Vars {
			ft := bt
			if len(vs.Dims) > 0 {
				if bt.IsArray() && !c.hasArraysOfArrays() {
					c.errorf(vs.NamePos, "arrays of arrays require GLSL 4.30, GLSL ES 3.10 or GL_ARB_arrays_of_arrays")
					continue
				}
				ft = c.arrayOf(bt, vs.Dims, vs.NamePos)
			}
			if ft.IsArray() && ft.Len == 0 {
				c.errorf(vs.NamePos, "struct member '%s' must have an explicit array size", vs.Name)
			}
			if seen[vs.Name] {
				c.errorf(vs.NamePos, "duplicate struct member '%s'", vs.Name)
			}
			seen[vs.Name] = true
			st.Fields = append(st.Fields, ast.Field{Name: vs.Name, Type: ft, Pos: vs.NamePos})
		}
	}
	c.tooLarge(ast.Struct(st), s.StructPos)
	if s.Name != "" {
		c.checkName(s.Name, s.StructPos)
		if e := c.cur.names[s.Name]; e != nil {
			c.errorf(s.StructPos, "redeclaration of '%s'", s.Name)
		} else {
			c.cur.names[s.Name] = &entity{typ: st, pos: s.StructPos}
		}
	}
	return st
}
