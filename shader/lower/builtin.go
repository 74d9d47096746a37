package lower

import (
	"math"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// unaryF maps the float built-ins that are one IR opcode per component.
var unaryF = map[ast.Builtin]ir.Op{
	ast.FnSin: ir.Sin, ast.FnCos: ir.Cos, ast.FnTan: ir.Tan, ast.FnAsin: ir.Asin, ast.FnAcos: ir.Acos,
	ast.FnSinh: ir.Sinh, ast.FnCosh: ir.Cosh, ast.FnTanh: ir.Tanh, ast.FnAsinh: ir.Asinh,
	ast.FnAcosh: ir.Acosh, ast.FnAtanh: ir.Atanh, ast.FnExp: ir.Exp, ast.FnLog: ir.Log,
	ast.FnExp2: ir.Exp2, ast.FnLog2: ir.Log2, ast.FnSqrt: ir.Sqrt, ast.FnInversesqrt: ir.InvSqrt,
	ast.FnFloor: ir.Floor, ast.FnTrunc: ir.Trunc, ast.FnRound: ir.Round, ast.FnRoundEven: ir.RoundEven,
	ast.FnCeil: ir.Ceil, ast.FnFract: ir.Fract,
}

// bySign picks the float, int or uint opcode.
func bySign(bs ast.Basic, f, i, u ir.Op) ir.Op {
	switch bs {
	case ast.Float:
		return f
	case ast.Uint:
		return u
	}
	return i
}

// cw applies op component-wise over n components, broadcasting scalar arguments.
func (l *lowerer) cw(op ir.Op, t ir.Type, n int, args ...value) []ir.Reg {
	out := make([]ir.Reg, n)
	for k := 0; k < n; k++ {
		src := make([]ir.Reg, len(args))
		for i, a := range args {
			if len(a.r) == 1 {
				src[i] = a.r[0]
			} else {
				src[i] = a.r[k]
			}
		}
		out[k] = l.b.Op(op, t, src...)
	}
	return out
}

func (l *lowerer) fop(op ir.Op, src ...ir.Reg) ir.Reg { return l.b.Op(op, ir.F32, src...) }

// dot returns the dot product of two float vectors.
func (l *lowerer) dot(a, b []ir.Reg) ir.Reg {
	acc := l.fop(ir.FMul, a[0], b[0])
	for k := 1; k < len(a); k++ {
		acc = l.fop(ir.FAdd, acc, l.fop(ir.FMul, a[k], b[k]))
	}
	return acc
}

// builtin expands a built-in function call into scalar IR. spec: GLSL 4.50 §8.
func (l *lowerer) builtin(x *ast.Call) value {
	fn := x.Builtin
	rt := x.Type()
	if v, ok := l.computeBuiltin(x); ok {
		return v
	}
	if v, ok := l.geometryBuiltin(x); ok {
		return v
	}
	if isTexture(fn) {
		return l.texture(x)
	}
	out := value{t: rt}
	// Functions with out parameters evaluate their l-values themselves.
	switch fn {
	case ast.FnModf:
		v := l.expr(x.Args[0])
		ip := l.place(x.Args[1])
		i := value{t: v.t, r: l.cw(ir.Trunc, ir.F32, len(v.r), v)}
		l.store(ip, i)
		out.r = l.cw(ir.FSub, ir.F32, len(v.r), v, i)
		return out
	case ast.FnFrexp:
		v := l.expr(x.Args[0])
		ep := l.place(x.Args[1])
		l.store(ep, value{t: ep.t, r: l.cw(ir.FrexpExp, ir.I32, len(v.r), v)})
		out.r = l.cw(ir.FrexpMant, ir.F32, len(v.r), v)
		return out
	case ast.FnUaddCarry, ast.FnUsubBorrow:
		a, b := l.expr(x.Args[0]), l.expr(x.Args[1])
		cp := l.place(x.Args[2])
		op, cop := ir.UAdd, ir.UAddCarry
		if fn == ast.FnUsubBorrow {
			op, cop = ir.USub, ir.USubBorrow
		}
		l.store(cp, value{t: cp.t, r: l.cw(cop, ir.U32, len(a.r), a, b)})
		out.r = l.cw(op, ir.U32, len(a.r), a, b)
		return out
	case ast.FnUmulExtended, ast.FnImulExtended:
		a, b := l.expr(x.Args[0]), l.expr(x.Args[1])
		hp, lp := l.place(x.Args[2]), l.place(x.Args[3])
		hi, lo, t := ir.UMulHi, ir.UMul, ir.U32
		if fn == ast.FnImulExtended {
			hi, lo, t = ir.IMulHi, ir.IMul, ir.I32
		}
		hv := value{t: hp.t, r: l.cw(hi, t, len(a.r), a, b)}
		lv := value{t: lp.t, r: l.cw(lo, t, len(a.r), a, b)}
		l.store(hp, hv)
		l.store(lp, lv)
		return out
	case ast.FnFtransform:
		return l.ftransform(x)
	case ast.FnInterpolateAtCentroid, ast.FnInterpolateAtSample, ast.FnInterpolateAtOffset:
		return l.interpolateAt(x, rt)
	case ast.FnNoise1, ast.FnNoise2, ast.FnNoise3, ast.FnNoise4:
		// GLSL allows the noise functions to return 0 (every current implementation does).
		for _, a := range x.Args {
			l.expr(a)
		}
		return l.zero(rt)
	}
	args := make([]value, len(x.Args))
	for i, a := range x.Args {
		args[i] = l.expr(a)
	}
	n := rt.Components()
	rtype := irType(rt.Base)
	if op, ok := unaryF[fn]; ok {
		out.r = l.cw(op, ir.F32, n, args[0])
		return out
	}
	a0 := args[0]
	switch fn {
	case ast.FnRadians:
		out.r = l.cw(ir.FMul, ir.F32, n, a0, value{r: []ir.Reg{l.constF(float32(math.Pi / 180))}})
	case ast.FnDegrees:
		out.r = l.cw(ir.FMul, ir.F32, n, a0, value{r: []ir.Reg{l.constF(float32(180 / math.Pi))}})
	case ast.FnAtan:
		if len(args) == 1 {
			out.r = l.cw(ir.Atan, ir.F32, n, a0)
		} else {
			out.r = l.cw(ir.Atan2, ir.F32, n, a0, args[1])
		}
	case ast.FnPow:
		out.r = l.cw(ir.Pow, ir.F32, n, a0, args[1])
	case ast.FnAbs:
		out.r = l.cw(bySign(rt.Base, ir.FAbs, ir.IAbs, ir.Mov), rtype, n, a0)
	case ast.FnSign:
		out.r = l.cw(bySign(rt.Base, ir.FSign, ir.ISign, ir.Mov), rtype, n, a0)
	case ast.FnMod:
		out.r = l.cw(ir.FMod, ir.F32, n, a0, args[1])
	case ast.FnMin:
		out.r = l.cw(bySign(rt.Base, ir.FMin, ir.IMin, ir.UMin), rtype, n, a0, args[1])
	case ast.FnMax:
		out.r = l.cw(bySign(rt.Base, ir.FMax, ir.IMax, ir.UMax), rtype, n, a0, args[1])
	case ast.FnClamp:
		out.r = l.cw(bySign(rt.Base, ir.FClamp, ir.IClamp, ir.UClamp), rtype, n, a0, args[1], args[2])
	case ast.FnMin3, ast.FnMax3, ast.FnMid3:
		// min3 = min(min(x, y), z), max3 = max(max(x, y), z) and
		// mid3 = max(min(x, y), min(max(x, y), z)), the forms of the extension's
		// definition, so NaN operands give what those min/max give.
		// spec: AMD_shader_trinary_minmax
		mn, mx := bySign(rt.Base, ir.FMin, ir.IMin, ir.UMin), bySign(rt.Base, ir.FMax, ir.IMax, ir.UMax)
		switch fn {
		case ast.FnMin3:
			out.r = l.cw(mn, rtype, n, value{r: l.cw(mn, rtype, n, a0, args[1])}, args[2])
		case ast.FnMax3:
			out.r = l.cw(mx, rtype, n, value{r: l.cw(mx, rtype, n, a0, args[1])}, args[2])
		default:
			lo := value{r: l.cw(mn, rtype, n, a0, args[1])}
			hi := value{r: l.cw(mx, rtype, n, a0, args[1])}
			out.r = l.cw(mx, rtype, n, lo, value{r: l.cw(mn, rtype, n, hi, args[2])})
		}
	case ast.FnMix:
		if args[2].t.Base == ast.Bool {
			out.r = l.cw(ir.Select, rtype, n, args[2], args[1], a0)
			break
		}
		one := value{r: []ir.Reg{l.constF(1)}}
		oneMinus := value{r: l.cw(ir.FSub, ir.F32, len(args[2].r), one, args[2])}
		xa := value{r: l.cw(ir.FMul, ir.F32, n, a0, oneMinus)}
		ya := value{r: l.cw(ir.FMul, ir.F32, n, args[1], args[2])}
		out.r = l.cw(ir.FAdd, ir.F32, n, xa, ya)
	case ast.FnStep:
		lt := value{r: l.cw(ir.FLt, ir.Bool, n, args[1], a0)}
		out.r = l.cw(ir.Select, ir.F32, n, lt, value{r: []ir.Reg{l.constF(0)}}, value{r: []ir.Reg{l.constF(1)}})
	case ast.FnSmoothstep:
		num := value{r: l.cw(ir.FSub, ir.F32, n, args[2], a0)}
		den := value{r: l.cw(ir.FSub, ir.F32, n, args[1], a0)}
		t := value{r: l.cw(ir.FDiv, ir.F32, n, num, den)}
		t = value{r: l.cw(ir.FClamp, ir.F32, n, t, value{r: []ir.Reg{l.constF(0)}}, value{r: []ir.Reg{l.constF(1)}})}
		three := value{r: []ir.Reg{l.constF(3)}}
		two := value{r: []ir.Reg{l.constF(2)}}
		poly := value{r: l.cw(ir.FSub, ir.F32, n, three, value{r: l.cw(ir.FMul, ir.F32, n, two, t)})}
		out.r = l.cw(ir.FMul, ir.F32, n, value{r: l.cw(ir.FMul, ir.F32, n, t, t)}, poly)
	case ast.FnIsnan:
		out.r = l.cw(ir.IsNan, ir.Bool, n, a0)
	case ast.FnIsinf:
		out.r = l.cw(ir.IsInf, ir.Bool, n, a0)
	case ast.FnFloatBitsToInt, ast.FnFloatBitsToUint, ast.FnIntBitsToFloat, ast.FnUintBitsToFloat:
		out.r = l.cw(ir.Cast, rtype, n, a0)
	case ast.FnFma:
		out.r = l.cw(ir.Fma, ir.F32, n, a0, args[1], args[2])
	case ast.FnLdexp:
		out.r = l.cw(ir.Ldexp, ir.F32, n, a0, args[1])
	case ast.FnPackUnorm2x16:
		out.r = []ir.Reg{l.b.Op(ir.PackUnorm2x16, ir.U32, a0.r[0], a0.r[1])}
	case ast.FnPackSnorm2x16:
		out.r = []ir.Reg{l.b.Op(ir.PackSnorm2x16, ir.U32, a0.r[0], a0.r[1])}
	case ast.FnPackHalf2x16:
		out.r = []ir.Reg{l.b.Op(ir.PackHalf2x16, ir.U32, a0.r[0], a0.r[1])}
	case ast.FnPackUnorm4x8:
		out.r = []ir.Reg{l.b.Op(ir.PackUnorm4x8, ir.U32, a0.r...)}
	case ast.FnPackSnorm4x8:
		out.r = []ir.Reg{l.b.Op(ir.PackSnorm4x8, ir.U32, a0.r...)}
	case ast.FnUnpackUnorm2x16, ast.FnUnpackSnorm2x16, ast.FnUnpackHalf2x16, ast.FnUnpackUnorm4x8, ast.FnUnpackSnorm4x8:
		op := map[ast.Builtin]ir.Op{ast.FnUnpackUnorm2x16: ir.UnpackUnorm2x16, ast.FnUnpackSnorm2x16: ir.UnpackSnorm2x16,
			ast.FnUnpackHalf2x16: ir.UnpackHalf2x16, ast.FnUnpackUnorm4x8: ir.UnpackUnorm4x8, ast.FnUnpackSnorm4x8: ir.UnpackSnorm4x8}[fn]
		out.r = make([]ir.Reg, n)
		for k := range out.r {
			out.r[k] = l.b.Imm(op, l.b.Reg(ir.F32), uint32(k), a0.r[0])
		}
	case ast.FnLength:
		out.r = []ir.Reg{l.fop(ir.Sqrt, l.dot(a0.r, a0.r))}
	case ast.FnDistance:
		d := l.cw(ir.FSub, ir.F32, len(a0.r), a0, args[1])
		out.r = []ir.Reg{l.fop(ir.Sqrt, l.dot(d, d))}
	case ast.FnDot:
		out.r = []ir.Reg{l.dot(a0.r, args[1].r)}
	case ast.FnCross:
		a, b := a0.r, args[1].r
		cross := func(i, j int) ir.Reg {
			return l.fop(ir.FSub, l.fop(ir.FMul, a[i], b[j]), l.fop(ir.FMul, b[i], a[j]))
		}
		out.r = []ir.Reg{cross(1, 2), cross(2, 0), cross(0, 1)}
	case ast.FnNormalize:
		inv := l.fop(ir.InvSqrt, l.dot(a0.r, a0.r))
		out.r = l.cw(ir.FMul, ir.F32, n, a0, value{r: []ir.Reg{inv}})
	case ast.FnFaceforward:
		lt := l.b.Op(ir.FLt, ir.Bool, l.dot(args[2].r, args[1].r), l.constF(0))
		neg := value{r: l.cw(ir.FNeg, ir.F32, n, a0)}
		out.r = l.cw(ir.Select, ir.F32, n, value{r: []ir.Reg{lt}}, a0, neg)
	case ast.FnReflect:
		d := l.dot(args[1].r, a0.r)
		k := l.fop(ir.FMul, l.constF(2), d)
		out.r = l.cw(ir.FSub, ir.F32, n, a0, value{r: l.cw(ir.FMul, ir.F32, n, value{r: []ir.Reg{k}}, args[1])})
	case ast.FnRefract:
		out.r = l.refract(a0, args[1], args[2].r[0], n)
	case ast.FnMatrixCompMult:
		out.r = l.cw(ir.FMul, ir.F32, n, a0, args[1])
	case ast.FnOuterProduct:
		c, r := a0.r, args[1].r
		out.r = make([]ir.Reg, 0, n)
		for j := range r {
			for i := range c {
				out.r = append(out.r, l.fop(ir.FMul, c[i], r[j]))
			}
		}
	case ast.FnTranspose:
		m := a0.t
		out.r = make([]ir.Reg, n)
		for c := 0; c < m.Cols; c++ {
			for r := 0; r < m.Rows; r++ {
				out.r[r*m.Cols+c] = a0.r[c*m.Rows+r]
			}
		}
	case ast.FnDeterminant:
		out.r = []ir.Reg{l.det(matOf(a0))}
	case ast.FnInverse:
		out.r = l.inverse(a0)
	case ast.FnLessThan, ast.FnLessThanEqual, ast.FnGreaterThan, ast.FnGreaterThanEqual:
		op := map[ast.Builtin]ast.Op{ast.FnLessThan: ast.OpLt, ast.FnLessThanEqual: ast.OpLe,
			ast.FnGreaterThan: ast.OpGt, ast.FnGreaterThanEqual: ast.OpGe}[fn]
		out.r = l.cw(arith(op, a0.t.Base), ir.Bool, n, a0, args[1])
	case ast.FnEqual, ast.FnNotEqual:
		op := ir.Eq
		if a0.t.Base == ast.Float {
			op = ir.FEq
		}
		if fn == ast.FnNotEqual {
			op = ir.Ne
			if a0.t.Base == ast.Float {
				op = ir.FNe
			}
		}
		out.r = l.cw(op, ir.Bool, n, a0, args[1])
	case ast.FnAny, ast.FnAll:
		op := ir.BOr
		if fn == ast.FnAll {
			op = ir.BAnd
		}
		acc := a0.r[0]
		for _, r := range a0.r[1:] {
			acc = l.b.Op(op, ir.Bool, acc, r)
		}
		out.r = []ir.Reg{acc}
	case ast.FnNot:
		out.r = l.cw(ir.BNot, ir.Bool, n, a0)
	case ast.FnBitfieldExtract:
		out.r = l.cw(bySign(rt.Base, ir.Nop, ir.IBfe, ir.UBfe), rtype, n, a0, l.asInt(args[1]), l.asInt(args[2]))
	case ast.FnBitfieldInsert:
		out.r = l.cw(ir.BitfieldInsert, rtype, n, a0, args[1], l.asInt(args[2]), l.asInt(args[3]))
	case ast.FnBitfieldReverse:
		out.r = l.cw(ir.BitReverse, rtype, n, a0)
	case ast.FnBitCount:
		out.r = l.cw(ir.BitCount, ir.I32, n, a0)
	case ast.FnFindLSB:
		out.r = l.cw(ir.FindLSB, ir.I32, n, a0)
	case ast.FnFindMSB:
		out.r = l.cw(bySign(a0.t.Base, ir.Nop, ir.IFindMSB, ir.UFindMSB), ir.I32, n, a0)
	case ast.FnDFdx, ast.FnDFdy, ast.FnDFdxFine, ast.FnDFdyFine, ast.FnDFdxCoarse, ast.FnDFdyCoarse:
		op := map[ast.Builtin]ir.Op{ast.FnDFdx: ir.DdxFine, ast.FnDFdy: ir.DdyFine, ast.FnDFdxFine: ir.DdxFine,
			ast.FnDFdyFine: ir.DdyFine, ast.FnDFdxCoarse: ir.DdxCoarse, ast.FnDFdyCoarse: ir.DdyCoarse}[fn]
		out.r = l.deriv(op, a0, n)
	case ast.FnFwidth, ast.FnFwidthFine, ast.FnFwidthCoarse:
		dx, dy := ir.DdxFine, ir.DdyFine
		if fn == ast.FnFwidthCoarse {
			dx, dy = ir.DdxCoarse, ir.DdyCoarse
		}
		ax := value{r: l.cw(ir.FAbs, ir.F32, n, value{r: l.deriv(dx, a0, n)})}
		ay := value{r: l.cw(ir.FAbs, ir.F32, n, value{r: l.deriv(dy, a0, n)})}
		out.r = l.cw(ir.FAdd, ir.F32, n, ax, ay)
	case ast.FnAnyInvocationARB, ast.FnAllInvocationsARB, ast.FnAllInvocationsEqualARB:
		// The group is the lanes running the instruction (ir.VoteAny).
		op := map[ast.Builtin]ir.Op{ast.FnAnyInvocationARB: ir.VoteAny, ast.FnAllInvocationsARB: ir.VoteAll,
			ast.FnAllInvocationsEqualARB: ir.VoteEq}[fn]
		out.r = []ir.Reg{l.b.Op(op, ir.Bool, a0.r[0])}
	default:
		l.errorf(x.Pos(), "built-in function %s is not supported", fn)
		return l.zero(rt)
	}
	return out
}

// deriv emits a derivative; outside fragment shaders (where GLSL forbids them) it
// is an error.
func (l *lowerer) deriv(op ir.Op, v value, n int) []ir.Reg {
	if l.stage != ast.StageFragment {
		z := l.constF(0)
		return l.splat(z, n)
	}
	return l.cw(op, ir.F32, n, v)
}

// asInt converts an int or uint scalar/vector argument to int words.
func (l *lowerer) asInt(v value) value {
	if v.t != nil && v.t.Base == ast.Uint {
		return value{t: v.t, r: l.cw(ir.Cast, ir.I32, len(v.r), v)}
	}
	return v
}

// refract follows GLSL 4.50 §8.5 literally.
func (l *lowerer) refract(i, nv value, eta ir.Reg, n int) []ir.Reg {
	d := l.dot(nv.r, i.r)
	one := l.constF(1)
	k := l.fop(ir.FSub, one, l.fop(ir.FMul, l.fop(ir.FMul, eta, eta), l.fop(ir.FSub, one, l.fop(ir.FMul, d, d))))
	neg := l.b.Op(ir.FLt, ir.Bool, k, l.constF(0))
	s := l.fop(ir.FAdd, l.fop(ir.FMul, eta, d), l.fop(ir.Sqrt, k))
	z := l.constF(0)
	out := make([]ir.Reg, n)
	for c := 0; c < n; c++ {
		r := l.fop(ir.FSub, l.fop(ir.FMul, eta, i.r[c]), l.fop(ir.FMul, s, nv.r[c]))
		out[c] = l.b.Op(ir.Select, ir.F32, neg, z, r)
	}
	return out
}

// matOf returns m[row][col] registers of a square matrix value.
func matOf(v value) [][]ir.Reg {
	n := v.t.Rows
	m := make([][]ir.Reg, n)
	for r := range m {
		m[r] = make([]ir.Reg, n)
		for c := 0; c < n; c++ {
			m[r][c] = v.r[c*n+r]
		}
	}
	return m
}

// minor removes row i and column j.
func minor(m [][]ir.Reg, i, j int) [][]ir.Reg {
	var out [][]ir.Reg
	for r := range m {
		if r == i {
			continue
		}
		var row []ir.Reg
		for c := range m[r] {
			if c != j {
				row = append(row, m[r][c])
			}
		}
		out = append(out, row)
	}
	return out
}

// det expands the determinant along the first row.
func (l *lowerer) det(m [][]ir.Reg) ir.Reg {
	switch len(m) {
	case 1:
		return m[0][0]
	case 2:
		return l.fop(ir.FSub, l.fop(ir.FMul, m[0][0], m[1][1]), l.fop(ir.FMul, m[0][1], m[1][0]))
	}
	var acc ir.Reg = ir.NoReg
	for j := range m[0] {
		t := l.fop(ir.FMul, m[0][j], l.det(minor(m, 0, j)))
		switch {
		case acc == ir.NoReg:
			acc = t
		case j%2 == 1:
			acc = l.fop(ir.FSub, acc, t)
		default:
			acc = l.fop(ir.FAdd, acc, t)
		}
	}
	return acc
}

// inverse computes adj(M)/det(M) (GLSL leaves singular matrices undefined; here
// they give infinities or NaNs).
func (l *lowerer) inverse(v value) []ir.Reg {
	m := matOf(v)
	n := len(m)
	inv := l.fop(ir.FDiv, l.constF(1), l.det(m))
	out := make([]ir.Reg, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			c := l.det(minor(m, i, j))
			if (i+j)%2 == 1 {
				c = l.fop(ir.FNeg, c)
			}
			// inverse[j][i] = cofactor(i,j) / det: row j, column i.
			out[i*n+j] = l.fop(ir.FMul, c, inv)
		}
	}
	return out
}

// ftransform is gl_ModelViewProjectionMatrix * gl_Vertex. spec: GLSL 1.20 §8.5.
func (l *lowerer) ftransform(x *ast.Call) value {
	var mvp, vert *ast.Var
	for _, v := range l.globals {
		switch v.Name {
		case "gl_ModelViewProjectionMatrix":
			mvp = v
		case "gl_Vertex":
			vert = v
		}
	}
	if mvp == nil || vert == nil {
		l.errorf(x.Pos(), "ftransform() needs gl_ModelViewProjectionMatrix and gl_Vertex")
		return l.zero(x.Type())
	}
	m := l.read(l.whole(l.storageOf(mvp)), x.Pos())
	p := l.read(l.whole(l.storageOf(vert)), x.Pos())
	return l.linalg(m, p, x.Type())
}
