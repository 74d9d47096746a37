package types

import "vortexgfx/shader/glsl/ast"

// MemLayout returns the size and base alignment in bytes of t in a shader storage
// block (column-major matrices): the std430 rules, or with std140 the std140 rules
// (arrays and structs rounded up to 16 bytes). A runtime-sized array (Len 0)
// has size 0. spec: OpenGL 4.5 §7.6.2.2 "Standard Uniform Block Layout" (std430:
// rules 4 and 9 without the rounding to vec4).
func MemLayout(t *ast.Type, std140 bool) (size, align int) { return MemLayoutRM(t, std140, false) }

// MemLayoutRM is MemLayout with the matrix layout given: a row_major matCxR is
// stored as Rows row vectors of Cols components, inside arrays and structs too
// (a struct member inherits its block member's qualifier). spec: OpenGL 4.5
// §7.6.2.2 rules 5 and 7, GLSL 4.50 §4.4.5 ("row_major ... applies to the
// matrices" of the member, "recursively" through structures).
func MemLayoutRM(t *ast.Type, std140, rowMajor bool) (size, align int) {
	switch t.Kind {
	case ast.KindScalar:
		return 4, 4
	case ast.KindVector:
		if t.Rows == 2 {
			return 8, 8
		}
		return 4 * t.Rows, 16
	case ast.KindMatrix:
		vec, n := t.Column(), t.Cols
		if rowMajor {
			vec, n = ast.Vector(t.Base, t.Cols), t.Rows
		}
		stride := MemArrayStride(vec, std140)
		_, ca := MemLayout(vec, std140)
		return stride * n, ca
	case ast.KindArray:
		_, ea := MemLayoutRM(t.Elem, std140, rowMajor)
		if std140 {
			ea = roundUp(ea, 16)
		}
		return MemArrayStrideRM(t.Elem, std140, rowMajor) * t.Len, ea
	case ast.KindStruct:
		_, size, al := memStruct(t.Struct.Fields, std140, rowMajor)
		return size, al
	}
	return 0, 4
}

// MatrixRowStride returns the byte stride between the rows of a row_major
// matrix of type t in memory (its components' stride within a column).
func MatrixRowStride(t *ast.Type, std140 bool) int {
	return MemArrayStride(ast.Vector(t.Base, t.Cols), std140)
}

// MemArrayStride returns the byte stride between elements of an array of elem.
// spec: OpenGL 4.5 §7.6.2.2 rule 4 (std140 rounds to a vec4, std430 does not).
func MemArrayStride(elem *ast.Type, std140 bool) int { return MemArrayStrideRM(elem, std140, false) }

// MemArrayStrideRM is MemArrayStride with the matrix layout given (MemLayoutRM).
func MemArrayStrideRM(elem *ast.Type, std140, rowMajor bool) int {
	s, a := MemLayoutRM(elem, std140, rowMajor)
	st := roundUp(s, a)
	if std140 {
		st = roundUp(st, 16)
	}
	return st
}

// MemFieldOffsets returns the byte offset of every field of a struct type.
// spec: OpenGL 4.5 §7.6.2.2 rule 9.
func MemFieldOffsets(st *ast.StructType, std140 bool) []int {
	return MemFieldOffsetsRM(st, std140, false)
}

// MemFieldOffsetsRM is MemFieldOffsets with the matrix layout given (MemLayoutRM).
func MemFieldOffsetsRM(st *ast.StructType, std140, rowMajor bool) []int {
	offs, _, _ := memStruct(st.Fields, std140, rowMajor)
	return offs
}

func memStruct(fields []ast.Field, std140, rowMajor bool) (offs []int, size, align int) {
	off, al := 0, 4
	if std140 {
		al = 16
	}
	for _, f := range fields {
		fs, fa := MemLayoutRM(f.Type, std140, rowMajor)
		al = max(al, fa)
		off = roundUp(off, fa)
		offs = append(offs, off)
		off += fs
	}
	return offs, roundUp(off, al), al
}

// MemOffsets lays out the members of a storage block: each member's byte offset
// (an explicit layout(offset) must be aligned and past the previous member), the
// size of the block without a runtime-sized last member and that member's element
// stride (0 when the last member is sized); Var.RowMajor gives each member's
// matrix layout.
func MemOffsets(members []*ast.Var, std140 bool) (offsets []int, size, runtimeStride int) {
	off := 0
	for i, m := range members {
		s, a := MemLayoutRM(m.Type, std140, m.RowMajor)
		off = roundUp(off, a)
		offsets = append(offsets, off)
		if i == len(members)-1 && m.Type.IsArray() && m.Type.Len == 0 {
			runtimeStride = MemArrayStrideRM(m.Type.Elem, std140, m.RowMajor)
			return offsets, off, runtimeStride
		}
		off += s
	}
	return offsets, off, 0
}
