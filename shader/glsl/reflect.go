package glsl

import (
	"fmt"
	"strconv"
	"strings"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
)

// ActiveUniform is what glGetActiveUniformsiv reports of one active uniform:
// its GL type name, array size, and for a uniform block member the std140
// offset, array and matrix strides and matrix order (a default-block uniform
// has -1 offset and strides). spec: OpenGL 4.5 §7.3.1.1, §7.6.2.2
type ActiveUniform struct {
	Name         string // as glGetActiveUniform names it: "a", "s.f", "arr[0]", "s[1].m"
	Type         string // e.g. "GL_FLOAT_VEC3", "GL_FLOAT_MAT2x3", "GL_SAMPLER_2D"
	Size         int
	Offset       int
	ArrayStride  int
	MatrixStride int
	RowMajor     bool
}

// ActiveUniforms lists the program's uniforms as GL enumerates them: structs
// flattened to their members, arrays of structs by element, arrays of basic
// types as one "name[0]" entry; members of an instanced block are named
// "Block.member".
func (p *Program) ActiveUniforms() []ActiveUniform {
	var out []ActiveUniform
	seenBlock := map[*ast.InterfaceBlock]bool{}
	for _, u := range p.Uniforms {
		v := u.Vars[0]
		switch b := v.Block; {
		case b == nil:
			flatten(&out, u.Name, u.Type, -1, false)
		case v == b.InstanceVar:
			if seenBlock[b] {
				continue
			}
			seenBlock[b] = true
			for _, m := range b.Members {
				flatten(&out, b.Name+"."+m.Name, m.Type, m.Offset, m.RowMajor)
			}
		default: // a member of an anonymous block
			flatten(&out, u.Name, u.Type, v.Offset, v.RowMajor)
		}
	}
	return out
}

// ActiveUniform looks a uniform up by the name glGetActiveUniform gives it
// (an array's "[0]" may be left off).
func (p *Program) ActiveUniform(name string) (ActiveUniform, bool) {
	for _, a := range p.ActiveUniforms() {
		if a.Name == name || strings.TrimSuffix(a.Name, "[0]") == name {
			return a, true
		}
	}
	return ActiveUniform{}, false
}

// flatten appends the active uniforms of a variable of type t named name at
// std140 byte offset off (-1: the default block).
func flatten(out *[]ActiveUniform, name string, t *ast.Type, off int, rowMajor bool) {
	at := func(o, d int) int {
		if off < 0 {
			return -1
		}
		return o + d
	}
	switch {
	case t.IsStruct():
		o := 0
		for _, f := range t.Struct.Fields {
			s, a := types.Std140Layout(f.Type, rowMajor)
			o = roundUp(o, a)
			flatten(out, name+"."+f.Name, f.Type, at(off, o), rowMajor)
			o += s
		}
	case t.IsArray() && (t.Elem.IsStruct() || t.Elem.IsArray()):
		stride := arrayStride(t.Elem, rowMajor)
		for i := 0; i < t.Len; i++ {
			flatten(out, fmt.Sprintf("%s[%d]", name, i), t.Elem, at(off, i*stride), rowMajor)
		}
	case t.IsArray():
		u := leaf(name+"[0]", t.Elem, off, rowMajor)
		u.Size = t.Len
		if off >= 0 {
			u.ArrayStride = arrayStride(t.Elem, rowMajor)
		}
		*out = append(*out, u)
	default:
		*out = append(*out, leaf(name, t, off, rowMajor))
	}
}

func leaf(name string, t *ast.Type, off int, rowMajor bool) ActiveUniform {
	u := ActiveUniform{Name: name, Type: glTypeName(t), Size: 1, Offset: off, ArrayStride: -1, MatrixStride: -1}
	if off >= 0 {
		u.ArrayStride, u.MatrixStride = 0, 0
		if t.IsMatrix() {
			u.MatrixStride, u.RowMajor = 16, rowMajor
		}
	}
	return u
}

func arrayStride(elem *ast.Type, rowMajor bool) int {
	s, a := types.Std140Layout(elem, rowMajor)
	return roundUp(roundUp(s, a), 16)
}

func roundUp(n, a int) int {
	if a <= 0 {
		return n
	}
	return (n + a - 1) / a * a
}

// glTypeName is the GL enum name of a basic type, as GL_UNIFORM_TYPE gives it.
func glTypeName(t *ast.Type) string {
	base := map[ast.Basic]string{ast.Float: "FLOAT", ast.Int: "INT", ast.Uint: "UNSIGNED_INT", ast.Bool: "BOOL"}
	switch {
	case t.IsScalar():
		return "GL_" + base[t.Base]
	case t.IsVector():
		p := map[ast.Basic]string{ast.Float: "FLOAT_VEC", ast.Int: "INT_VEC", ast.Uint: "UNSIGNED_INT_VEC", ast.Bool: "BOOL_VEC"}[t.Base]
		return fmt.Sprintf("GL_%s%d", p, t.Rows)
	case t.IsMatrix():
		if t.Cols == t.Rows {
			return fmt.Sprintf("GL_FLOAT_MAT%d", t.Cols)
		}
		return fmt.Sprintf("GL_FLOAT_MAT%dx%d", t.Cols, t.Rows)
	}
	return "GL_" + strings.ToUpper(t.String())
}

// StorageBlockDataSize is GL_BUFFER_DATA_SIZE of the shader storage block
// named name (its block name; an element of an array of blocks as
// "name[i]"): the bytes a buffer must have to hold it, counting a
// runtime-sized last member as one element. false when no stage declares it.
// spec: ARB_program_interface_query (GL 4.6 §7.3.1.1: "If the final member of
// an active shader storage block is array with no declared size, the minimum
// buffer size is computed assuming the array was declared as an array with one
// element").
func (p *Program) StorageBlockDataSize(name string) (int, bool) {
	for _, sp := range []*StageProgram{p.Vertex, p.Geometry, p.Fragment, p.Compute} {
		if sp == nil {
			continue
		}
		for _, u := range sp.Units {
			for _, b := range u.File.Blocks {
				if b.Storage != ast.StorageBuffer || !blockNamed(b, name) {
					continue
				}
				return b.Size + b.RuntimeStride, true
			}
		}
	}
	return 0, false
}

// blockNamed reports whether name names block b or an element of an array of
// it ("b[1]", "b[0][2]").
func blockNamed(b *ast.InterfaceBlock, name string) bool {
	if name == b.Name {
		return b.Type == nil || !b.Type.IsArray()
	}
	rest, ok := strings.CutPrefix(name, b.Name)
	if !ok || b.Type == nil {
		return false
	}
	for t := b.Type; t.IsArray(); t = t.Elem {
		var ok bool
		var idx string
		if rest, ok = strings.CutPrefix(rest, "["); !ok {
			return false
		}
		if idx, rest, ok = strings.Cut(rest, "]"); !ok {
			return false
		}
		if i, err := strconv.Atoi(idx); err != nil || i < 0 || i >= t.Len {
			return false
		}
	}
	return rest == ""
}
