package types

import (
	"math"

	"vortexgfx/shader/convert"
	"vortexgfx/shader/glsl/ast"
)

// Constant folding works on the flattened 32-bit words of ast.Value and computes
// in float32/int32/uint32 exactly as the executor would. spec: GLSL 4.50 §4.3.3.

func f2w(f float32) uint32 { return math.Float32bits(f) }
func w2f(w uint32) float32 { return math.Float32frombits(w) }

func b2w(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// convWord converts one word between scalar bases; float to int and uint convert
// exactly as the executor does (package convert). spec: GLSL 4.50 §5.4.1.
func convWord(w uint32, from, to ast.Basic) uint32 {
	if from == to {
		return w
	}
	switch to {
	case ast.Bool:
		if from == ast.Float {
			return b2w(w2f(w) != 0)
		}
		return b2w(w != 0)
	case ast.Float:
		switch from {
		case ast.Int:
			return f2w(float32(int32(w)))
		case ast.Uint:
			return f2w(float32(w))
		case ast.Bool:
			return f2w(float32(w))
		}
	case ast.Int:
		if from == ast.Float {
			return uint32(convert.FloatToInt(w2f(w)))
		}
		return w
	case ast.Uint:
		if from == ast.Float {
			return convert.FloatToUint(w2f(w))
		}
		return w
	}
	return w
}

func convertValue(v *ast.Value, to *ast.Type) *ast.Value {
	w := make([]uint32, len(v.Words))
	for i, x := range v.Words {
		w[i] = convWord(x, v.Type.Base, to.Base)
	}
	return &ast.Value{Type: to, Words: w}
}

func foldUnary(op ast.Op, v *ast.Value) *ast.Value {
	b := v.Type.Base
	w := make([]uint32, len(v.Words))
	for i, x := range v.Words {
		switch op {
		case ast.OpNeg:
			if b == ast.Float {
				w[i] = x ^ 0x80000000
			} else {
				w[i] = -x
			}
		case ast.OpPlus:
			w[i] = x
		case ast.OpNot:
			w[i] = b2w(x == 0)
		case ast.OpBitNot:
			w[i] = ^x
		}
	}
	return &ast.Value{Type: v.Type, Words: w}
}

// at returns component i of v, broadcasting scalars.
func at(v *ast.Value, i int) uint32 {
	if len(v.Words) == 1 {
		return v.Words[0]
	}
	return v.Words[i]
}

func foldBinary(op ast.Op, a, b *ast.Value, t *ast.Type) (*ast.Value, string) {
	at1, bt := a.Type, b.Type
	switch op {
	case ast.OpEq, ast.OpNe:
		eq := equalWords(a, b)
		return ast.BoolValue(eq == (op == ast.OpEq)), ""
	case ast.OpLogAnd:
		return ast.BoolValue(a.Bool(0) && b.Bool(0)), ""
	case ast.OpLogOr:
		return ast.BoolValue(a.Bool(0) || b.Bool(0)), ""
	case ast.OpLogXor:
		return ast.BoolValue(a.Bool(0) != b.Bool(0)), ""
	case ast.OpLt, ast.OpGt, ast.OpLe, ast.OpGe:
		var r bool
		switch at1.Base {
		case ast.Float:
			x, y := a.Float(0), b.Float(0)
			r = map[ast.Op]bool{ast.OpLt: x < y, ast.OpGt: x > y, ast.OpLe: x <= y, ast.OpGe: x >= y}[op]
		case ast.Int:
			x, y := a.Int(0), b.Int(0)
			r = map[ast.Op]bool{ast.OpLt: x < y, ast.OpGt: x > y, ast.OpLe: x <= y, ast.OpGe: x >= y}[op]
		default:
			x, y := a.Uint(0), b.Uint(0)
			r = map[ast.Op]bool{ast.OpLt: x < y, ast.OpGt: x > y, ast.OpLe: x <= y, ast.OpGe: x >= y}[op]
		}
		return ast.BoolValue(r), ""
	}
	if op == ast.OpMul && (at1.IsMatrix() || bt.IsMatrix()) && !(at1.IsScalar() || bt.IsScalar()) {
		return matMul(a, b, t), ""
	}
	n := t.Components()
	w := make([]uint32, n)
	base := at1.Base
	for i := 0; i < n; i++ {
		x, y := at(a, i), at(b, i)
		switch base {
		case ast.Float:
			fx, fy := w2f(x), w2f(y)
			var r float32
			switch op {
			case ast.OpAdd:
				r = fx + fy
			case ast.OpSub:
				r = fx - fy
			case ast.OpMul:
				r = fx * fy
			case ast.OpDiv:
				r = fx / fy
			}
			w[i] = f2w(r)
		case ast.Int, ast.Uint:
			signed := base == ast.Int
			switch op {
			case ast.OpAdd:
				w[i] = x + y
			case ast.OpSub:
				w[i] = x - y
			case ast.OpMul:
				w[i] = x * y
			case ast.OpDiv, ast.OpMod:
				if y == 0 {
					w[i] = 0
					if op == ast.OpDiv && !signed {
						w[i] = math.MaxUint32
					}
					continue
				}
				if signed {
					sx, sy := int32(x), int32(y)
					if sx == math.MinInt32 && sy == -1 {
						if op == ast.OpDiv {
							w[i] = x
						} else {
							w[i] = 0
						}
						continue
					}
					if op == ast.OpDiv {
						w[i] = uint32(sx / sy)
					} else {
						w[i] = uint32(sx % sy)
					}
				} else if op == ast.OpDiv {
					w[i] = x / y
				} else {
					w[i] = x % y
				}
			case ast.OpBitAnd:
				w[i] = x & y
			case ast.OpBitOr:
				w[i] = x | y
			case ast.OpBitXor:
				w[i] = x ^ y
			case ast.OpShl:
				w[i] = x << (y & 31)
			case ast.OpShr:
				if signed {
					w[i] = uint32(int32(x) >> (y & 31))
				} else {
					w[i] = x >> (y & 31)
				}
			}
		}
	}
	return &ast.Value{Type: t, Words: w}, ""
}

func equalWords(a, b *ast.Value) bool {
	if len(a.Words) != len(b.Words) {
		return false
	}
	bases := ast.WordBases(a.Type)
	for i := range a.Words {
		if i < len(bases) && bases[i] == ast.Float {
			if w2f(a.Words[i]) != w2f(b.Words[i]) {
				return false
			}
		} else if a.Words[i] != b.Words[i] {
			return false
		}
	}
	return true
}

// matMul folds matrix*matrix, matrix*vector and vector*matrix (column-major).
func matMul(a, b *ast.Value, t *ast.Type) *ast.Value {
	ta, tb := a.Type, b.Type
	get := func(v *ast.Value, t *ast.Type, col, row int) float32 {
		return v.Float(col*t.Rows + row)
	}
	var w []uint32
	switch {
	case ta.IsMatrix() && tb.IsMatrix():
		w = make([]uint32, tb.Cols*ta.Rows)
		for c := 0; c < tb.Cols; c++ {
			for r := 0; r < ta.Rows; r++ {
				var s float32
				for k := 0; k < ta.Cols; k++ {
					s += get(a, ta, k, r) * b.Float(c*tb.Rows+k)
				}
				w[c*ta.Rows+r] = f2w(s)
			}
		}
	case ta.IsMatrix():
		w = make([]uint32, ta.Rows)
		for r := 0; r < ta.Rows; r++ {
			var s float32
			for k := 0; k < ta.Cols; k++ {
				s += get(a, ta, k, r) * b.Float(k)
			}
			w[r] = f2w(s)
		}
	default:
		w = make([]uint32, tb.Cols)
		for c := 0; c < tb.Cols; c++ {
			var s float32
			for k := 0; k < tb.Rows; k++ {
				s += a.Float(k) * get(b, tb, c, k)
			}
			w[c] = f2w(s)
		}
	}
	return &ast.Value{Type: t, Words: w}
}

// extract returns element i of an array/vector/matrix constant.
func extract(v *ast.Value, t *ast.Type, i int) *ast.Value {
	var et *ast.Type
	switch {
	case t.IsArray():
		et = t.Elem
	case t.IsVector():
		et = ast.Scalar(t.Base)
	case t.IsMatrix():
		et = t.Column()
	default:
		return nil
	}
	n := et.Slots()
	if (i+1)*n > len(v.Words) {
		return nil
	}
	return &ast.Value{Type: et, Words: append([]uint32(nil), v.Words[i*n:(i+1)*n]...)}
}

func extractField(v *ast.Value, t *ast.Type, field int) *ast.Value {
	off := 0
	for i, f := range t.Struct.Fields {
		n := f.Type.Slots()
		if i == field {
			if off+n > len(v.Words) {
				return nil
			}
			return &ast.Value{Type: f.Type, Words: append([]uint32(nil), v.Words[off:off+n]...)}
		}
		off += n
	}
	return nil
}

// constructValue folds a constructor. spec: GLSL 4.50 §5.4.
func constructValue(t *ast.Type, args []*ast.Value) *ast.Value {
	switch {
	case t.IsArray() || t.IsStruct():
		var w []uint32
		for _, a := range args {
			w = append(w, a.Words...)
		}
		return &ast.Value{Type: t, Words: w}
	case t.IsMatrix():
		n := t.Components()
		w := make([]uint32, n)
		if len(args) == 1 && args[0].Type.IsScalar() {
			d := convWord(args[0].Words[0], args[0].Type.Base, ast.Float)
			for c := 0; c < t.Cols; c++ {
				for r := 0; r < t.Rows; r++ {
					if c == r {
						w[c*t.Rows+r] = d
					}
				}
			}
			return &ast.Value{Type: t, Words: w}
		}
		if len(args) == 1 && args[0].Type.IsMatrix() {
			m := args[0]
			for c := 0; c < t.Cols; c++ {
				for r := 0; r < t.Rows; r++ {
					switch {
					case c < m.Type.Cols && r < m.Type.Rows:
						w[c*t.Rows+r] = m.Words[c*m.Type.Rows+r]
					case c == r:
						w[c*t.Rows+r] = f2w(1)
					}
				}
			}
			return &ast.Value{Type: t, Words: w}
		}
		return &ast.Value{Type: t, Words: flatten(args, t.Base, n)}
	default:
		n := t.Components()
		if len(args) == 1 && args[0].Type.IsScalar() {
			w := make([]uint32, n)
			for i := range w {
				w[i] = convWord(args[0].Words[0], args[0].Type.Base, t.Base)
			}
			return &ast.Value{Type: t, Words: w}
		}
		return &ast.Value{Type: t, Words: flatten(args, t.Base, n)}
	}
}

func flatten(args []*ast.Value, base ast.Basic, n int) []uint32 {
	w := make([]uint32, 0, n)
	for _, a := range args {
		for _, x := range a.Words {
			if len(w) == n {
				return w
			}
			w = append(w, convWord(x, a.Type.Base, base))
		}
	}
	for len(w) < n {
		w = append(w, 0)
	}
	return w
}
