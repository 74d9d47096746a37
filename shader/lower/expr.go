package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// expr lowers an expression to its value.
func (l *lowerer) expr(e ast.Expr) value {
	t := e.Type()
	if cv := e.Value(); cv != nil && t != nil && !t.ContainsSampler() {
		return l.constValue(t, cv)
	}
	switch x := e.(type) {
	case *ast.Ident, *ast.Index, *ast.Selector:
		return l.read(l.place(e), e.Pos())
	case *ast.Unary:
		return l.unary(x)
	case *ast.Binary:
		return l.binary(x)
	case *ast.Assign:
		return l.assign(x)
	case *ast.Cond:
		return l.cond(x)
	case *ast.Call:
		return l.call(x)
	case *ast.Conv:
		return l.convert(l.expr(x.X), t)
	}
	l.errorf(e.Pos(), "cannot lower expression")
	return l.zero(t)
}

// zero returns a zero value of type t.
func (l *lowerer) zero(t *ast.Type) value {
	bases := ast.WordBases(t)
	out := value{t: t, r: make([]ir.Reg, len(bases))}
	for k, bs := range bases {
		out.r[k] = l.b.Const(irType(bs), 0)
	}
	return out
}

// place lowers an addressable expression.
func (l *lowerer) place(e ast.Expr) place {
	switch x := e.(type) {
	case *ast.Ident:
		if x.Var == nil {
			break
		}
		st := l.storageOf(x.Var)
		pl := place{t: st.t, st: st, sel: ir.NoReg}
		if st.mv != nil {
			pl.rowMajor = st.mv.rowMajor
		}
		return pl
	case *ast.Index:
		base := l.place(x.X)
		bt := base.t
		if base.st != nil && base.st.mv != nil && base.st.mv.block != nil && bt.IsArray() && bt.Elem.IsStruct() && len(base.dyn) == 0 && base.off == 0 && base.t == base.st.t {
			return l.blockElement(base, x)
		}
		var elem *ast.Type
		var stride int
		switch {
		case bt.Kind == ast.KindArray:
			elem, stride = bt.Elem, bt.Elem.Slots()
		case bt.Kind == ast.KindMatrix:
			elem, stride = bt.Column(), bt.Rows
		default: // vector
			elem, stride = bt.ScalarType(), 1
		}
		n := bt.Len
		if bt.Kind == ast.KindMatrix {
			n = bt.Cols
		} else if bt.Kind == ast.KindVector {
			n = bt.Rows
		}
		cstride := 0
		if base.st != nil && base.st.mv != nil {
			// In memory: byte strides of the std430/std140 layout; a runtime-sized
			// array (n 0) is not clamped (accesses past the buffer are robust).
			stride, n, cstride = memStride(bt, &base)
		}
		base.cstride = cstride
		if base.swz != nil && bt.Kind == ast.KindVector {
			// Indexing a swizzle (v.zyx[i]): a constant index picks one component of
			// the swizzle; a dynamic one selects among them at run time.
			if cv := x.Index.Value(); cv != nil {
				k := min(max(int(cv.Int(0)), 0), len(base.swz)-1)
				base.swz = []int{base.swz[k]}
				base.t = elem
				return base
			}
			base.sel = l.expr(x.Index).r[0]
			base.selSwz = base.swz
			base.swz = nil
			base.t = elem
			return base
		}
		if cv := x.Index.Value(); cv != nil && n == 0 {
			// A runtime-sized array: limited like a dynamic index (memAddr).
			k := int64(cv.Int(0))
			if x.Index.Type().Base == ast.Uint {
				k = int64(cv.Uint(0))
			}
			base.off += int(min(max(k, 0), int64(1<<31/max(stride, 1)))) * stride
			base.t = elem
			return base
		}
		if cv := x.Index.Value(); cv != nil {
			k := int(cv.Int(0))
			if x.Index.Type().Base == ast.Uint {
				k = int(min(cv.Uint(0), uint32(n-1)))
			}
			k = min(max(k, 0), n-1)
			base.off += k * stride
			base.t = elem
			return base
		}
		idx := l.expr(x.Index).r[0]
		base.dyn = append(append([]dynTerm(nil), base.dyn...), dynTerm{idx: idx, n: n, stride: stride})
		base.t = elem
		return base
	case *ast.Selector:
		base := l.place(x.X)
		if x.Field >= 0 && base.t.Kind == ast.KindStruct && base.st != nil && base.st.mv != nil {
			if b := base.st.mv.block; b != nil && isBlockStruct(b, base.t) {
				base.rowMajor = b.Members[x.Field].RowMajor
			}
			base.off += memFieldOffset(&base, base.t, x.Field)
			base.t = base.t.Struct.Fields[x.Field].Type
			return base
		}
		if x.Field >= 0 && base.t.Kind == ast.KindStruct {
			for i := 0; i < x.Field; i++ {
				base.off += base.t.Struct.Fields[i].Type.Slots()
			}
			base.t = base.t.Struct.Fields[x.Field].Type
			return base
		}
		sw := append([]int(nil), x.Swizzle...)
		if base.swz != nil {
			for i, c := range sw {
				sw[i] = base.swz[c]
			}
		}
		base.swz = sw
		base.t = x.Type()
		return base
	}
	v := l.expr(e)
	return place{t: v.t, val: v.r, sel: ir.NoReg}
}

// convert converts v component-wise to the base of t (same shape).
func (l *lowerer) convert(v value, t *ast.Type) value {
	to := ast.WordBases(t)
	from := ast.WordBases(v.t)
	out := value{t: t, r: make([]ir.Reg, len(to))}
	for k := range to {
		out.r[k] = l.conv1(v.r[k], from[k], to[k])
	}
	return out
}

// conv1 converts one word between scalar bases (GLSL constructor semantics).
func (l *lowerer) conv1(r ir.Reg, from, to ast.Basic) ir.Reg {
	b := l.b
	if from == to {
		return r
	}
	switch to {
	case ast.Float:
		switch from {
		case ast.Int:
			return b.Op(ir.ItoF, ir.F32, r)
		case ast.Uint:
			return b.Op(ir.UtoF, ir.F32, r)
		case ast.Bool:
			return b.Op(ir.BtoF, ir.F32, r)
		}
	case ast.Int:
		switch from {
		case ast.Float:
			return b.Op(ir.FtoI, ir.I32, r)
		case ast.Uint:
			return b.Op(ir.Cast, ir.I32, r)
		case ast.Bool:
			return b.Op(ir.BtoI, ir.I32, r)
		}
	case ast.Uint:
		switch from {
		case ast.Float:
			// Out-of-range values (negative ones included, which GLSL leaves
			// undefined) convert as package convert says, like constants.
			return b.Op(ir.FtoU, ir.U32, r)
		case ast.Int:
			return b.Op(ir.Cast, ir.U32, r)
		case ast.Bool:
			return b.Op(ir.BtoU, ir.U32, r)
		}
	case ast.Bool:
		switch from {
		case ast.Float:
			return b.Op(ir.FNe, ir.Bool, r, b.ConstF(0))
		case ast.Int:
			return b.Op(ir.Ne, ir.Bool, r, b.ConstI(0))
		case ast.Uint:
			return b.Op(ir.Ne, ir.Bool, r, b.ConstU(0))
		}
	}
	return r
}

// one returns the constant 1 of a base.
func (l *lowerer) one(bs ast.Basic) ir.Reg {
	switch bs {
	case ast.Float:
		return l.b.ConstF(1)
	case ast.Uint:
		return l.b.ConstU(1)
	}
	return l.b.ConstI(1)
}

func arith(op ast.Op, bs ast.Basic) ir.Op {
	f, i, u := ir.Nop, ir.Nop, ir.Nop
	switch op {
	case ast.OpAdd:
		f, i, u = ir.FAdd, ir.IAdd, ir.UAdd
	case ast.OpSub:
		f, i, u = ir.FSub, ir.ISub, ir.USub
	case ast.OpMul:
		f, i, u = ir.FMul, ir.IMul, ir.UMul
	case ast.OpDiv:
		f, i, u = ir.FDiv, ir.IDiv, ir.UDiv
	case ast.OpMod:
		f, i, u = ir.FMod, ir.IMod, ir.UMod
	case ast.OpBitAnd:
		i, u = ir.And, ir.And
	case ast.OpBitOr:
		i, u = ir.Or, ir.Or
	case ast.OpBitXor:
		i, u = ir.Xor, ir.Xor
	case ast.OpShl:
		i, u = ir.Shl, ir.Shl
	case ast.OpShr:
		i, u = ir.IShr, ir.UShr
	case ast.OpLt:
		f, i, u = ir.FLt, ir.ILt, ir.ULt
	case ast.OpLe:
		f, i, u = ir.FLe, ir.ILe, ir.ULe
	case ast.OpGt:
		f, i, u = ir.FGt, ir.IGt, ir.UGt
	case ast.OpGe:
		f, i, u = ir.FGe, ir.IGe, ir.UGe
	}
	switch bs {
	case ast.Float:
		return f
	case ast.Uint:
		return u
	}
	return i
}

// broadcast returns the registers of v as n words, repeating a scalar.
func broadcast(v value, n int) []ir.Reg {
	if len(v.r) == n {
		return v.r
	}
	out := make([]ir.Reg, n)
	for i := range out {
		out[i] = v.r[0]
	}
	return out
}

// arithmetic applies a component-wise or linear-algebra binary operator.
func (l *lowerer) arithmetic(op ast.Op, x, y value, rt *ast.Type) value {
	if op == ast.OpMul && (x.t.IsMatrix() || y.t.IsMatrix()) && !x.t.IsScalar() && !y.t.IsScalar() {
		return l.linalg(x, y, rt)
	}
	n := rt.Components()
	xs, ys := broadcast(x, n), broadcast(y, n)
	bs := x.t.Base
	out := value{t: rt, r: make([]ir.Reg, n)}
	iop := arith(op, bs)
	rtype := irType(rt.Base)
	for k := 0; k < n; k++ {
		out.r[k] = l.b.Op(iop, rtype, xs[k], ys[k])
	}
	return out
}

// linalg multiplies matrices and vectors (column-major).
func (l *lowerer) linalg(x, y value, rt *ast.Type) value {
	// Treat a vector on the left as a 1-row matrix and on the right as 1 column.
	xr, xc := x.t.Rows, x.t.Cols // rows, cols
	if x.t.IsVector() {
		xr, xc = 1, x.t.Rows
	}
	yc := y.t.Cols
	if y.t.IsVector() {
		yc = 1
	}
	at := func(v value, rows, r, c int) ir.Reg { return v.r[c*rows+r] }
	out := value{t: rt, r: make([]ir.Reg, xr*yc)}
	for c := 0; c < yc; c++ {
		for r := 0; r < xr; r++ {
			var acc ir.Reg = ir.NoReg
			for k := 0; k < xc; k++ {
				a := at(x, xr, r, k)
				b := at(y, xc, k, c)
				if acc == ir.NoReg {
					acc = l.b.Op(ir.FMul, ir.F32, a, b)
				} else {
					acc = l.b.Op(ir.FAdd, ir.F32, acc, l.b.Op(ir.FMul, ir.F32, a, b))
				}
			}
			out.r[c*xr+r] = acc
		}
	}
	return out
}

// equal compares two values of one type word by word (floats as floats) and
// returns one bool.
func (l *lowerer) equal(x, y value) ir.Reg {
	bases := ast.WordBases(x.t)
	var acc ir.Reg = ir.NoReg
	for k, bs := range bases {
		op := ir.Eq
		if bs == ast.Float {
			op = ir.FEq
		}
		e := l.b.Op(op, ir.Bool, x.r[k], y.r[k])
		if acc == ir.NoReg {
			acc = e
		} else {
			acc = l.b.Op(ir.BAnd, ir.Bool, acc, e)
		}
	}
	if acc == ir.NoReg {
		return l.b.ConstB(true)
	}
	return acc
}

func (l *lowerer) binary(x *ast.Binary) value {
	rt := x.Type()
	switch x.Op {
	case ast.OpComma:
		l.expr(x.X)
		return l.expr(x.Y)
	case ast.OpLogAnd, ast.OpLogOr:
		a := l.expr(x.X).r[0]
		if !hasSideEffects(x.Y) {
			op := ir.BAnd
			if x.Op == ast.OpLogOr {
				op = ir.BOr
			}
			return value{t: rt, r: []ir.Reg{l.b.Op(op, ir.Bool, a, l.expr(x.Y).r[0])}}
		}
		res := l.b.Op(ir.Mov, ir.Bool, a)
		c := res
		if x.Op == ast.OpLogOr {
			c = l.b.Op(ir.BNot, ir.Bool, res)
		}
		l.b.Ctl(ir.If, c)
		l.b.OpTo(ir.Mov, res, l.expr(x.Y).r[0])
		l.b.Ctl(ir.EndIf)
		return value{t: rt, r: []ir.Reg{res}}
	case ast.OpLogXor:
		a, b := l.expr(x.X).r[0], l.expr(x.Y).r[0]
		return value{t: rt, r: []ir.Reg{l.b.Op(ir.BXor, ir.Bool, a, b)}}
	case ast.OpEq, ast.OpNe:
		a, b := l.expr(x.X), l.expr(x.Y)
		e := l.equal(a, b)
		if x.Op == ast.OpNe {
			e = l.b.Op(ir.BNot, ir.Bool, e)
		}
		return value{t: rt, r: []ir.Reg{e}}
	case ast.OpLt, ast.OpLe, ast.OpGt, ast.OpGe:
		a, b := l.expr(x.X), l.expr(x.Y)
		return value{t: rt, r: []ir.Reg{l.b.Op(arith(x.Op, a.t.Base), ir.Bool, a.r[0], b.r[0])}}
	}
	a, b := l.expr(x.X), l.expr(x.Y)
	return l.arithmetic(x.Op, a, b, rt)
}

func (l *lowerer) unary(x *ast.Unary) value {
	t := x.Type()
	switch x.Op {
	case ast.OpPlus:
		return l.expr(x.X)
	case ast.OpNeg:
		v := l.expr(x.X)
		if t.Base == ast.Uint {
			// -x on uint wraps (GLSL: 2^32 − x); the IR's ineg is typed i32, so
			// negate as 0 − x in u32.
			return l.map1(v, t, func(r ir.Reg) ir.Reg { return l.b.Op(ir.USub, ir.U32, l.b.ConstU(0), r) })
		}
		op := ir.INeg
		if t.Base == ast.Float {
			op = ir.FNeg
		}
		return l.map1(v, t, func(r ir.Reg) ir.Reg { return l.b.Op(op, irType(t.Base), r) })
	case ast.OpNot:
		v := l.expr(x.X)
		return l.map1(v, t, func(r ir.Reg) ir.Reg { return l.b.Op(ir.BNot, ir.Bool, r) })
	case ast.OpBitNot:
		v := l.expr(x.X)
		return l.map1(v, t, func(r ir.Reg) ir.Reg { return l.b.Op(ir.Not, irType(t.Base), r) })
	case ast.OpPreInc, ast.OpPreDec, ast.OpPostInc, ast.OpPostDec:
		pl := l.place(x.X)
		cur := l.read(pl, x.Pos())
		op := ast.OpAdd
		if x.Op == ast.OpPreDec || x.Op == ast.OpPostDec {
			op = ast.OpSub
		}
		one := value{t: pl.t.ScalarType(), r: []ir.Reg{l.one(pl.t.Base)}}
		nv := l.arithmetic(op, cur, one, pl.t)
		l.store(pl, nv)
		if x.Op == ast.OpPreInc || x.Op == ast.OpPreDec {
			return nv
		}
		return cur
	}
	l.errorf(x.Pos(), "cannot lower unary %s", x.Op)
	return l.zero(t)
}

// map1 applies f to every word.
func (l *lowerer) map1(v value, t *ast.Type, f func(ir.Reg) ir.Reg) value {
	out := value{t: t, r: make([]ir.Reg, len(v.r))}
	for k, r := range v.r {
		out.r[k] = f(r)
	}
	return out
}

func (l *lowerer) assign(x *ast.Assign) value {
	pl := l.place(x.LHS)
	var v value
	if x.Op == ast.OpAssign {
		v = l.expr(x.RHS)
	} else {
		rhs := l.expr(x.RHS)
		cur := l.read(pl, x.Pos())
		v = l.arithmetic(x.Op, cur, rhs, pl.t)
	}
	// Copy first: the stored value must not alias registers the store overwrites.
	v = l.copyValue(v)
	l.store(pl, v)
	return v
}

func (l *lowerer) copyValue(v value) value {
	out := value{t: v.t, r: make([]ir.Reg, len(v.r))}
	for k, r := range v.r {
		out.r[k] = l.b.Op(ir.Mov, l.p.Regs[r], r)
	}
	return out
}

func (l *lowerer) cond(x *ast.Cond) value {
	if cv := x.Cond.Value(); cv != nil {
		if cv.Bool(0) {
			return l.expr(x.Then)
		}
		return l.expr(x.Else)
	}
	c := l.expr(x.Cond).r[0]
	t := x.Type()
	if !hasSideEffects(x.Then) && !hasSideEffects(x.Else) {
		a, b := l.expr(x.Then), l.expr(x.Else)
		out := value{t: t, r: make([]ir.Reg, len(a.r))}
		for k := range a.r {
			out.r[k] = l.b.Op(ir.Select, l.p.Regs[a.r[k]], c, a.r[k], b.r[k])
		}
		return out
	}
	res := l.alloc(t)
	n := len(ast.WordBases(t))
	l.b.Ctl(ir.If, c)
	a := l.expr(x.Then)
	for k := 0; k < n; k++ {
		l.b.OpTo(ir.Mov, res+ir.Reg(k), a.r[k])
	}
	l.b.Ctl(ir.Else)
	b := l.expr(x.Else)
	for k := 0; k < n; k++ {
		l.b.OpTo(ir.Mov, res+ir.Reg(k), b.r[k])
	}
	l.b.Ctl(ir.EndIf)
	out := value{t: t, r: make([]ir.Reg, n)}
	for k := range out.r {
		out.r[k] = res + ir.Reg(k)
	}
	return out
}

// hasSideEffects reports whether evaluating e may assign, call a user function or
// discard (so it must not be evaluated speculatively).
func hasSideEffects(e ast.Expr) bool {
	if e == nil || e.Value() != nil {
		return false
	}
	switch x := e.(type) {
	case *ast.Ident, *ast.Literal:
		return false
	case *ast.Assign:
		return true
	case *ast.Unary:
		switch x.Op {
		case ast.OpPreInc, ast.OpPreDec, ast.OpPostInc, ast.OpPostDec:
			return true
		}
		return hasSideEffects(x.X)
	case *ast.Binary:
		return hasSideEffects(x.X) || hasSideEffects(x.Y)
	case *ast.Cond:
		return hasSideEffects(x.Cond) || hasSideEffects(x.Then) || hasSideEffects(x.Else)
	case *ast.Index:
		return hasSideEffects(x.X) || hasSideEffects(x.Index)
	case *ast.Selector:
		return hasSideEffects(x.X)
	case *ast.Conv:
		return hasSideEffects(x.X)
	case *ast.Call:
		if x.Kind == ast.CallFunc {
			return true
		}
		if x.Kind == ast.CallBuiltin {
			switch x.Builtin {
			case ast.FnModf, ast.FnFrexp, ast.FnUaddCarry, ast.FnUsubBorrow, ast.FnUmulExtended, ast.FnImulExtended:
				return true
			}
		}
		for _, a := range x.Args {
			if hasSideEffects(a) {
				return true
			}
		}
		return false
	}
	return true
}
