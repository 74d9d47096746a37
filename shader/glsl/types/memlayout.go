package types

import "vortexgfx/shader/glsl/ast"

// MemLayout returns the size and base alignment in bytes of t in a shader storage
// block (column-major matrices): the std430 rules, or with std140 the std140 rules
// (arrays and structs rounded up to 16 bytes). A runtime-sized array (Len 0)
// has size 0. spec: OpenGL 4.5 §7.6.2.2 "Standard Uniform Block Layout" (std430:
// rules 4 and 9 without the rounding to vec4).
func MemLayout(t *ast.Type, std140 bool) (size, align int) {
	switch t.Kind {
	case ast.KindScalar:
		return 4, 4
	case ast.KindVector:
		if t.Rows == 2 {
			return 8, 8
		}
		return 4 * t.Rows, 16
	case ast.KindMatrix:
		stride := MemArrayStride(t.Column(), std140)
		_, ca := MemLayout(t.Column(), std140)
		return stride * t.Cols, ca
	case ast.KindArray:
		_, ea := MemLayout(t.Elem, std140)
		if std140 {
			ea = roundUp(ea, 16)
		}
		return MemArrayStride(t.Elem, std140) * t.Len, ea
	case ast.KindStruct:
		offs, size, al := memStruct(t.Struct.Fields, std140)
		_ = offs
		return size, al
	}
	return 0, 4
}

// MemArrayStride returns the byte stride between elements of an array of elem.
// spec: OpenGL 4.5 §7.6.2.2 rule 4 (std140 rounds to a vec4, std430 does not).
func MemArrayStride(elem *ast.Type, std140 bool) int {
	s, a := MemLayout(elem, std140)
	st := roundUp(s, a)
	if std140 {
		st = roundUp(st, 16)
	}
	return st
}

// MemFieldOffsets returns the byte offset of every field of a struct type.
// spec: OpenGL 4.5 §7.6.2.2 rule 9.
func MemFieldOffsets(st *ast.StructType, std140 bool) []int {
	offs, _, _ := memStruct(st.Fields, std140)
	return offs
}

func memStruct(fields []ast.Field, std140 bool) (offs []int, size, align int) {
	off, al := 0, 4
	if std140 {
		al = 16
	}
	for _, f := range fields {
		fs, fa := MemLayout(f.Type, std140)
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
// stride (0 when the last member is sized).
func MemOffsets(members []*ast.Var, std140 bool) (offsets []int, size, runtimeStride int) {
	off := 0
	for i, m := range members {
		s, a := MemLayout(m.Type, std140)
		off = roundUp(off, a)
		offsets = append(offsets, off)
		if i == len(members)-1 && m.Type.IsArray() && m.Type.Len == 0 {
			runtimeStride = MemArrayStride(m.Type.Elem, std140)
			return offsets, off, runtimeStride
		}
		off += s
	}
	return offsets, off, 0
}
