package types

import (
	"math"
	"math/bits"

	"vortexgfx/shader/glsl/ast"
)

// foldBuiltin evaluates a built-in function on constant arguments, or returns nil
// when the function is not a constant expression (textures, derivatives, noise).
// Results are computed in float64 and rounded to float32, well inside GLSL's
// precision bounds. spec: GLSL 4.50 §4.3.3 (built-in calls in constant expressions), §8.
func foldBuiltin(fn ast.Builtin, args []*ast.Value, ret *ast.Type) *ast.Value {
	if ret == nil || ret.IsVoid() {
		return nil
	}
	n := ret.Components()
	f := func(a *ast.Value, i int) float64 { return float64(w2f(at(a, i))) }
	mapF := func(op func(x float64) float64) *ast.Value {
		w := make([]uint32, n)
		for i := range w {
			w[i] = f2w(float32(op(f(args[0], i))))
		}
		return &ast.Value{Type: ret, Words: w}
	}
	mapF2 := func(op func(x, y float64) float64) *ast.Value {
		w := make([]uint32, n)
		for i := range w {
			w[i] = f2w(float32(op(f(args[0], i), f(args[1], i))))
		}
		return &ast.Value{Type: ret, Words: w}
	}
	mapF3 := func(op func(x, y, z float64) float64) *ast.Value {
		w := make([]uint32, n)
		for i := range w {
			w[i] = f2w(float32(op(f(args[0], i), f(args[1], i), f(args[2], i))))
		}
		return &ast.Value{Type: ret, Words: w}
	}
	base := ret.Base
	if len(args) > 0 {
		base = args[0].Type.Base
	}
	switch fn {
	case ast.FnRadians:
		return mapF(func(x float64) float64 { return x * math.Pi / 180 })
	case ast.FnDegrees:
		return mapF(func(x float64) float64 { return x * 180 / math.Pi })
	case ast.FnSin:
		return mapF(math.Sin)
	case ast.FnCos:
		return mapF(math.Cos)
	case ast.FnTan:
		return mapF(math.Tan)
	case ast.FnAsin:
		return mapF(math.Asin)
	case ast.FnAcos:
		return mapF(math.Acos)
	case ast.FnAtan:
		if len(args) == 2 {
			return mapF2(math.Atan2)
		}
		return mapF(math.Atan)
	case ast.FnSinh:
		return mapF(math.Sinh)
	case ast.FnCosh:
		return mapF(math.Cosh)
	case ast.FnTanh:
		return mapF(math.Tanh)
	case ast.FnAsinh:
		return mapF(math.Asinh)
	case ast.FnAcosh:
		return mapF(math.Acosh)
	case ast.FnAtanh:
		return mapF(math.Atanh)
	case ast.FnPow:
		return mapF2(math.Pow)
	case ast.FnExp:
		return mapF(math.Exp)
	case ast.FnLog:
		return mapF(math.Log)
	case ast.FnExp2:
		return mapF(math.Exp2)
	case ast.FnLog2:
		return mapF(math.Log2)
	case ast.FnSqrt:
		return mapF(math.Sqrt)
	case ast.FnInversesqrt:
		return mapF(func(x float64) float64 { return 1 / math.Sqrt(x) })
	case ast.FnAbs, ast.FnSign:
		if base == ast.Int {
			return mapI(args, ret, func(x int32) int32 {
				if fn == ast.FnAbs {
					if x < 0 {
						return -x
					}
					return x
				}
				switch {
				case x > 0:
					return 1
				case x < 0:
					return -1
				}
				return 0
			})
		}
		if fn == ast.FnAbs {
			return mapF(math.Abs)
		}
		return mapF(func(x float64) float64 {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		})
	case ast.FnFloor:
		return mapF(math.Floor)
	case ast.FnCeil:
		return mapF(math.Ceil)
	case ast.FnFract:
		return mapF(func(x float64) float64 { return x - math.Floor(x) })
	case ast.FnTrunc:
		return mapF(math.Trunc)
	case ast.FnRound:
		return mapF(math.Round)
	case ast.FnRoundEven:
		return mapF(math.RoundToEven)
	case ast.FnMod:
		return mapF2(func(x, y float64) float64 { return x - y*math.Floor(x/y) })
	case ast.FnMin, ast.FnMax, ast.FnClamp, ast.FnMin3, ast.FnMax3, ast.FnMid3:
		return minMax(fn, args, ret)
	case ast.FnMix:
		if args[2].Type.Base == ast.Bool {
			w := make([]uint32, n)
			for i := range w {
				if at(args[2], i) != 0 {
					w[i] = at(args[1], i)
				} else {
					w[i] = at(args[0], i)
				}
			}
			return &ast.Value{Type: ret, Words: w}
		}
		return mapF3(func(x, y, a float64) float64 { return x*(1-a) + y*a })
	case ast.FnStep:
		return mapF2(func(e, x float64) float64 {
			if x < e {
				return 0
			}
			return 1
		})
	case ast.FnSmoothstep:
		return mapF3(func(e0, e1, x float64) float64 {
			t := math.Min(math.Max((x-e0)/(e1-e0), 0), 1)
			return t * t * (3 - 2*t)
		})
	case ast.FnIsnan, ast.FnIsinf:
		w := make([]uint32, n)
		for i := range w {
			x := f(args[0], i)
			if fn == ast.FnIsnan {
				w[i] = b2w(math.IsNaN(x))
			} else {
				w[i] = b2w(math.IsInf(x, 0))
			}
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnFloatBitsToInt, ast.FnFloatBitsToUint, ast.FnIntBitsToFloat, ast.FnUintBitsToFloat:
		return &ast.Value{Type: ret, Words: append([]uint32(nil), args[0].Words...)}
	case ast.FnFma:
		return mapF3(func(a, b, c float64) float64 { return a*b + c })
	case ast.FnLdexp:
		// A denormal result flushes to zero of its sign, as the executors' ldexp
		// does (GLSL lets implementations flush). spec: GLSL 4.50 §8.3
		w := make([]uint32, n)
		for i := range w {
			r := float32(math.Ldexp(f(args[0], i), int(int32(at(args[1], i)))))
			if r != 0 && math.Abs(float64(r)) < 0x1p-126 {
				r = float32(math.Copysign(0, float64(r)))
			}
			w[i] = f2w(r)
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnBitfieldExtract, ast.FnBitfieldInsert:
		return bitfield(fn, args, ret)
	case ast.FnLength:
		return ast.FloatValue(float32(math.Sqrt(dot(args[0], args[0]))))
	case ast.FnDistance:
		d := sub(args[0], args[1])
		return ast.FloatValue(float32(math.Sqrt(dot(d, d))))
	case ast.FnDot:
		return ast.FloatValue(float32(dot(args[0], args[1])))
	case ast.FnCross:
		a, b := args[0], args[1]
		x := []float64{f(a, 1)*f(b, 2) - f(b, 1)*f(a, 2), f(a, 2)*f(b, 0) - f(b, 2)*f(a, 0), f(a, 0)*f(b, 1) - f(b, 0)*f(a, 1)}
		return floatVec(ret, x)
	case ast.FnNormalize:
		l := math.Sqrt(dot(args[0], args[0]))
		return mapF(func(x float64) float64 { return x / l })
	case ast.FnFaceforward:
		d := dot(args[2], args[1])
		return mapF(func(x float64) float64 {
			if d < 0 {
				return x
			}
			return -x
		})
	case ast.FnReflect:
		d := dot(args[1], args[0])
		return mapF2(func(i, nn float64) float64 { return i - 2*d*nn })
	case ast.FnRefract:
		d := dot(args[1], args[0])
		eta := f(args[2], 0)
		k := 1 - eta*eta*(1-d*d)
		if k < 0 {
			return floatVec(ret, make([]float64, n))
		}
		return mapF2(func(i, nn float64) float64 { return eta*i - (eta*d+math.Sqrt(k))*nn })
	case ast.FnMatrixCompMult:
		return mapF2(func(x, y float64) float64 { return x * y })
	case ast.FnOuterProduct:
		w := make([]uint32, n)
		for col := 0; col < ret.Cols; col++ {
			for row := 0; row < ret.Rows; row++ {
				w[col*ret.Rows+row] = f2w(float32(f(args[0], row) * f(args[1], col)))
			}
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnTranspose:
		m := args[0]
		w := make([]uint32, n)
		for col := 0; col < ret.Cols; col++ {
			for row := 0; row < ret.Rows; row++ {
				w[col*ret.Rows+row] = m.Words[row*m.Type.Rows+col]
			}
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnDeterminant:
		return ast.FloatValue(float32(det(matrix(args[0]))))
	case ast.FnInverse:
		m := matrix(args[0])
		inv, ok := inverse(m)
		if !ok {
			return nil
		}
		x := make([]float64, 0, n)
		for col := range inv {
			x = append(x, inv[col]...)
		}
		return floatVec(ret, x)
	case ast.FnLessThan, ast.FnLessThanEqual, ast.FnGreaterThan, ast.FnGreaterThanEqual, ast.FnEqual, ast.FnNotEqual:
		w := make([]uint32, n)
		for i := range w {
			w[i] = b2w(compare(fn, base, at(args[0], i), at(args[1], i)))
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnAny, ast.FnAll:
		r := fn == ast.FnAll
		for _, x := range args[0].Words {
			if fn == ast.FnAny && x != 0 {
				r = true
			}
			if fn == ast.FnAll && x == 0 {
				r = false
			}
		}
		return ast.BoolValue(r)
	case ast.FnNot:
		w := make([]uint32, n)
		for i := range w {
			w[i] = b2w(args[0].Words[i] == 0)
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnBitCount, ast.FnFindLSB, ast.FnFindMSB, ast.FnBitfieldReverse:
		w := make([]uint32, n)
		for i := range w {
			x := args[0].Words[i]
			switch fn {
			case ast.FnBitCount:
				w[i] = uint32(bits.OnesCount32(x))
			case ast.FnFindLSB:
				if x == 0 {
					w[i] = math.MaxUint32
				} else {
					w[i] = uint32(bits.TrailingZeros32(x))
				}
			case ast.FnFindMSB:
				if base == ast.Int && int32(x) < 0 {
					x = ^x
				}
				if x == 0 {
					w[i] = math.MaxUint32
				} else {
					w[i] = uint32(31 - bits.LeadingZeros32(x))
				}
			case ast.FnBitfieldReverse:
				w[i] = bits.Reverse32(x)
			}
		}
		return &ast.Value{Type: ret, Words: w}
	case ast.FnDFdx, ast.FnDFdy, ast.FnFwidth, ast.FnDFdxFine, ast.FnDFdyFine, ast.FnDFdxCoarse,
		ast.FnDFdyCoarse, ast.FnFwidthFine, ast.FnFwidthCoarse:
		// The derivative of a constant is zero.
		return &ast.Value{Type: ret, Words: make([]uint32, n)}
	case ast.FnPackUnorm2x16, ast.FnPackSnorm2x16, ast.FnPackUnorm4x8, ast.FnPackSnorm4x8, ast.FnPackHalf2x16:
		return ast.UintValue(pack(fn, args[0]))
	}
	return nil
}

func mapI(args []*ast.Value, ret *ast.Type, op func(int32) int32) *ast.Value {
	w := make([]uint32, ret.Components())
	for i := range w {
		w[i] = uint32(op(int32(at(args[0], i))))
	}
	return &ast.Value{Type: ret, Words: w}
}

func minMax(fn ast.Builtin, args []*ast.Value, ret *ast.Type) *ast.Value {
	w := make([]uint32, ret.Components())
	base := ret.Base
	less := func(a, b uint32) bool {
		switch base {
		case ast.Float:
			return w2f(a) < w2f(b)
		case ast.Int:
			return int32(a) < int32(b)
		}
		return a < b
	}
	mn := func(a, b uint32) uint32 {
		if less(b, a) {
			return b
		}
		return a
	}
	mx := func(a, b uint32) uint32 {
		if less(a, b) {
			return b
		}
		return a
	}
	for i := range w {
		x := at(args[0], i)
		switch fn {
		case ast.FnMin:
			w[i] = mn(x, at(args[1], i))
		case ast.FnMax:
			w[i] = mx(x, at(args[1], i))
		case ast.FnMin3:
			w[i] = mn(mn(x, at(args[1], i)), at(args[2], i))
		case ast.FnMax3:
			w[i] = mx(mx(x, at(args[1], i)), at(args[2], i))
		case ast.FnMid3:
			y, z := at(args[1], i), at(args[2], i)
			w[i] = mx(mn(x, y), mn(mx(x, y), z))
		default:
			w[i] = mn(mx(x, at(args[1], i)), at(args[2], i))
		}
	}
	return &ast.Value{Type: ret, Words: w}
}

func compare(fn ast.Builtin, base ast.Basic, a, b uint32) bool {
	var c int
	switch base {
	case ast.Float:
		x, y := w2f(a), w2f(b)
		if x != x || y != y {
			return fn == ast.FnNotEqual
		}
		c = cmp3(x < y, x > y)
	case ast.Int:
		c = cmp3(int32(a) < int32(b), int32(a) > int32(b))
	default:
		c = cmp3(a < b, a > b)
	}
	switch fn {
	case ast.FnLessThan:
		return c < 0
	case ast.FnLessThanEqual:
		return c <= 0
	case ast.FnGreaterThan:
		return c > 0
	case ast.FnGreaterThanEqual:
		return c >= 0
	case ast.FnEqual:
		return c == 0
	}
	return c != 0
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func dot(a, b *ast.Value) float64 {
	var s float64
	for i := range a.Words {
		s += float64(a.Float(i)) * float64(w2f(at(b, i)))
	}
	return s
}

func sub(a, b *ast.Value) *ast.Value {
	w := make([]uint32, len(a.Words))
	for i := range w {
		w[i] = f2w(a.Float(i) - w2f(at(b, i)))
	}
	return &ast.Value{Type: a.Type, Words: w}
}

func floatVec(t *ast.Type, x []float64) *ast.Value {
	w := make([]uint32, len(x))
	for i, v := range x {
		w[i] = f2w(float32(v))
	}
	return &ast.Value{Type: t, Words: w}
}

// matrix returns a square matrix constant as m[col][row] in float64.
func matrix(v *ast.Value) [][]float64 {
	n := v.Type.Cols
	m := make([][]float64, n)
	for c := range m {
		m[c] = make([]float64, v.Type.Rows)
		for r := range m[c] {
			m[c][r] = float64(v.Float(c*v.Type.Rows + r))
		}
	}
	return m
}

func det(m [][]float64) float64 {
	n := len(m)
	if n == 1 {
		return m[0][0]
	}
	if n == 2 {
		return m[0][0]*m[1][1] - m[1][0]*m[0][1]
	}
	var s float64
	for c := 0; c < n; c++ {
		sign := 1.0
		if c%2 == 1 {
			sign = -1
		}
		s += sign * m[c][0] * det(minor(m, c, 0))
	}
	return s
}

func minor(m [][]float64, col, row int) [][]float64 {
	var out [][]float64
	for c := range m {
		if c == col {
			continue
		}
		var cc []float64
		for r := range m[c] {
			if r != row {
				cc = append(cc, m[c][r])
			}
		}
		out = append(out, cc)
	}
	return out
}

func inverse(m [][]float64) ([][]float64, bool) {
	d := det(m)
	if d == 0 {
		return nil, false
	}
	n := len(m)
	inv := make([][]float64, n)
	for c := range inv {
		inv[c] = make([]float64, n)
		for r := range inv[c] {
			sign := 1.0
			if (r+c)%2 == 1 {
				sign = -1
			}
			// inverse = adjugate / det; adj[c][r] = cofactor(r, c)
			inv[c][r] = sign*det(minor(m, r, c))/d + 0 // + 0 turns -0 into +0
		}
	}
	return inv, true
}

// pack folds the packing built-ins exactly as the executor computes them
// (shader/ir's Eval): the scale is a float32 multiply and the rounding is to
// nearest even, so a constant and a run-time pack of the same value agree.
func pack(fn ast.Builtin, v *ast.Value) uint32 {
	var r uint32
	switch fn {
	case ast.FnPackUnorm2x16:
		for i := 0; i < 2; i++ {
			x := math.RoundToEven(float64(min(max(v.Float(i), 0), 1) * 65535))
			r |= uint32(x) << (16 * i)
		}
	case ast.FnPackSnorm2x16:
		for i := 0; i < 2; i++ {
			x := math.RoundToEven(float64(min(max(v.Float(i), -1), 1) * 32767))
			r |= uint32(uint16(int16(x))) << (16 * i)
		}
	case ast.FnPackUnorm4x8:
		for i := 0; i < 4; i++ {
			x := math.RoundToEven(float64(min(max(v.Float(i), 0), 1) * 255))
			r |= uint32(x) << (8 * i)
		}
	case ast.FnPackSnorm4x8:
		for i := 0; i < 4; i++ {
			x := math.RoundToEven(float64(min(max(v.Float(i), -1), 1) * 127))
			r |= uint32(uint8(int8(x))) << (8 * i)
		}
	case ast.FnPackHalf2x16:
		for i := 0; i < 2; i++ {
			r |= uint32(toHalf(v.Float(i))) << (16 * i)
		}
	}
	return r
}

// toHalf converts to IEEE half precision, rounding to nearest even.
func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff > 0x7f800000:
		return sign | 0x7e00
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++
	}
	return sign | uint16(h)
}

// bitfield folds bitfieldExtract(value, offset, bits) — the bits, sign-extended
// for int — and bitfieldInsert(base, insert, offset, bits). Offsets and widths
// outside [0, 32] are undefined in GLSL; they give 0 here rather than a shift by
// a wild amount. spec: GLSL 4.50 §8.8
func bitfield(fn ast.Builtin, args []*ast.Value, ret *ast.Type) *ast.Value {
	k := len(args) - 2 // offset and bits are the last two arguments
	off, nb := int32(at(args[k], 0)), int32(at(args[k+1], 0))
	w := make([]uint32, ret.Components())
	if off < 0 || nb < 0 || off+nb > 32 {
		return &ast.Value{Type: ret, Words: w}
	}
	mask := uint32(0)
	if nb > 0 {
		mask = (math.MaxUint32 >> (32 - nb)) << off
	}
	for i := range w {
		x := at(args[0], i)
		if fn == ast.FnBitfieldInsert {
			w[i] = x&^mask | at(args[1], i)<<off&mask
			continue
		}
		v := (x & mask) >> off
		if ret.Base == ast.Int && nb > 0 && nb < 32 && v>>(nb-1)&1 != 0 {
			v |= math.MaxUint32 << nb // sign-extend from bit nb-1
		}
		w[i] = v
	}
	return &ast.Value{Type: ret, Words: w}
}
