package types

import "vortexgfx/shader/glsl/ast"

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// Std140 returns the size and base alignment in bytes of t under the std140 layout
// rules (column-major matrices). Opaque types have no layout and return 0, 0.
// spec: OpenGL 4.5 §7.6.2.2 (standard uniform block layout), rules 1-9.
func Std140(t *ast.Type) (size, align int) { return Std140Layout(t, false) }

// Std140Layout is Std140 with the matrix layout given: a row_major matCxR is stored
// as Rows vectors of Cols components. spec: OpenGL 4.5 §7.6.2.2 rules 5 and 7.
func Std140Layout(t *ast.Type, rowMajor bool) (size, align int) {
	switch t.Kind {
	case ast.KindScalar:
		return 4, 4
	case ast.KindVector:
		if t.Rows == 2 {
			return 8, 8
		}
		return 4 * t.Rows, 16
	case ast.KindMatrix:
		// An array of Cols column vectors of Rows components (rule 5), or of
		// Rows row vectors when row-major (rule 7).
		if rowMajor {
			return 16 * t.Rows, 16
		}
		return 16 * t.Cols, 16
	case ast.KindArray:
		es, ea := Std140Layout(t.Elem, rowMajor)
		if es == 0 {
			return 0, 0
		}
		stride := roundUp(roundUp(es, ea), 16)
		return stride * t.Len, roundUp(ea, 16)
	case ast.KindStruct:
		off, al := 0, 16
		for _, f := range t.Struct.Fields {
			fs, fa := Std140Layout(f.Type, rowMajor)
			if fs == 0 {
				return 0, 0
			}
			if fa > al {
				al = fa
			}
			off = roundUp(off, fa) + fs
		}
		return roundUp(off, al), al
	}
	return 0, 0
}

// Std140Offsets returns the byte offset of each member of a uniform block and the
// block's total size, laying the members out in declaration order (Var.RowMajor
// selects each member's matrix layout). spec: OpenGL 4.5 §7.6.2.2.
func Std140Offsets(members []*ast.Var) (offsets []int, size int) {
	off := 0
	for _, m := range members {
		s, a := Std140Layout(m.Type, m.RowMajor)
		if a == 0 {
			a = 4
		}
		off = roundUp(off, a)
		offsets = append(offsets, off)
		off += s
	}
	return offsets, roundUp(off, 16)
}
