package types

import (
	"strconv"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

func invalid(x ast.Expr) ast.Expr {
	x.Info().T = ast.Invalid()
	x.Info().Val = nil
	return x
}

// implicitBase reports whether GLSL converts base from to base to implicitly.
// spec: GLSL 1.20 §4.1.10, GLSL 4.50 §4.1.10; none in GLSL 1.10 and GLSL ES.
func (c *checker) implicitBase(from, to ast.Basic) bool {
	if from == to {
		return true
	}
	if c.es || c.version < 120 {
		return false
	}
	switch {
	case from == ast.Int && to == ast.Float:
		return true
	case from == ast.Uint && to == ast.Float:
		return c.version >= 130
	case from == ast.Int && to == ast.Uint:
		// MESA_shader_integer_functions and ARB_gpu_shader5 bring GLSL 4.00's
		// int-to-uint conversion.
		return c.version >= 400 || c.extEnabled(ExtShaderIntegerFunctions) || c.hasGPUShader5()
	}
	return false
}

// canConvert reports whether a value of type from may be used where to is needed.
func (c *checker) canConvert(from, to *ast.Type) bool {
	if ast.Identical(from, to) {
		return true
	}
	if !from.IsNumeric() || !to.IsNumeric() || from.Kind != to.Kind || from.Rows != to.Rows || from.Cols != to.Cols {
		return false
	}
	return c.implicitBase(from.Base, to.Base)
}

// convertTo converts x to type to, inserting an ast.Conv, or reports an error.
func (c *checker) convertTo(x ast.Expr, to *ast.Type, pos ast.Pos, ctx string) ast.Expr {
	from := x.Type()
	if from.IsInvalid() || to.IsInvalid() {
		return x
	}
	if ast.Identical(from, to) {
		return x
	}
	if c.canConvert(from, to) {
		return c.conv(x, to.Base)
	}
	c.errorf(pos, "cannot convert from %s to %s to %s", from, to, ctx)
	return invalid(&ast.Conv{X: x})
}

// conv wraps x in a conversion to base b (same shape), folding constants.
func (c *checker) conv(x ast.Expr, b ast.Basic) ast.Expr {
	t := x.Type()
	if t.Base == b {
		return x
	}
	nt := *t
	nt.Base = b
	cv := &ast.Conv{X: x}
	cv.T = &nt
	if v := x.Value(); v != nil {
		cv.Val = convertValue(v, &nt)
	}
	return cv
}

// expr checks an expression and returns it, possibly rewritten.
func (c *checker) expr(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.Ident:
		return c.ident(x)
	case *ast.Literal:
		return c.literal(x)
	case *ast.Unary:
		return c.unary(x)
	case *ast.Binary:
		return c.binary(x)
	case *ast.Assign:
		return c.assign(x)
	case *ast.Cond:
		return c.cond(x)
	case *ast.Index:
		return c.index(x)
	case *ast.Selector:
		return c.selector(x)
	case *ast.Call:
		return c.call(x)
	case *ast.Conv:
		return x
	case *ast.InitList:
		c.errorf(x.Lbrace, "initializer list used outside of a declaration")
		return invalid(x)
	}
	return e
}

func (c *checker) ident(x *ast.Ident) ast.Expr {
	e := c.cur.lookup(x.Name)
	if e == nil || e.v == nil {
		if e != nil && e.funcs != nil {
			c.errorf(x.NamePos, "function '%s' used as a variable", x.Name)
		} else if e != nil && e.typ != nil {
			c.errorf(x.NamePos, "type '%s' used as a variable", x.Name)
		} else {
			c.errorf(x.NamePos, "undeclared identifier '%s'", x.Name)
		}
		return invalid(x)
	}
	v := e.v
	if v.Builtin && v.Kind == ast.VarUniform && strings.HasPrefix(v.Name, "gl_") && v.Type.IsInvalid() {
		return invalid(x)
	}
	x.Var = v
	c.noteWriteOnly(x)
	if v.Builtin && !v.Used && v.Kind != ast.VarConst {
		c.file.Globals = append(c.file.Globals, v)
	}
	v.Used = true
	x.T = v.Type
	if v.Kind == ast.VarConst && v.ConstValue != nil {
		x.Val = v.ConstValue
	}
	return x
}

func (c *checker) literal(x *ast.Literal) ast.Expr {
	switch x.Kind {
	case ast.LitBool:
		x.T, x.Val = ast.Scalar(ast.Bool), ast.BoolValue(x.Raw == "true")
	case ast.LitFloat:
		s := strings.TrimRight(x.Raw, "fF")
		f, err := strconv.ParseFloat(s, 32)
		if err != nil && !strings.Contains(err.Error(), "range") {
			c.errorf(x.ValuePos, "invalid floating-point literal %s", x.Raw)
			return invalid(x)
		}
		x.T, x.Val = ast.Scalar(ast.Float), ast.FloatValue(float32(f))
	default:
		s := strings.TrimRight(x.Raw, "uU")
		base := 10
		switch {
		case len(s) > 1 && s[0] == '0' && (s[1]|0x20) == 'x':
			base, s = 16, s[2:]
		case len(s) > 1 && s[0] == '0':
			base, s = 8, s[1:]
		}
		n, err := strconv.ParseUint(s, base, 32)
		if err != nil {
			c.errorf(x.ValuePos, "integer literal %s is too large", x.Raw)
			return invalid(x)
		}
		if x.Kind == ast.LitUint {
			x.T, x.Val = ast.Scalar(ast.Uint), ast.UintValue(uint32(n))
		} else {
			if base == 10 && n > 1<<31 && !c.atLeast(130, 300) {
				c.errorf(x.ValuePos, "integer literal %s is too large", x.Raw)
				return invalid(x)
			}
			x.T, x.Val = ast.Scalar(ast.Int), ast.IntValue(int32(uint32(n)))
		}
	}
	return x
}

func (c *checker) unary(x *ast.Unary) ast.Expr {
	x.X = c.expr(x.X)
	t := x.X.Type()
	if t.IsInvalid() {
		return invalid(x)
	}
	switch x.Op {
	case ast.OpNeg, ast.OpPlus:
		if !t.IsNumeric() || t.Base == ast.Bool {
			c.errorf(x.OpPos, "operator '%s' requires a numeric operand, not %s", x.Op, t)
			return invalid(x)
		}
	case ast.OpNot:
		if !(t.IsScalar() && t.Base == ast.Bool) {
			c.errorf(x.OpPos, "operator '!' requires a scalar bool operand, not %s", t)
			return invalid(x)
		}
	case ast.OpBitNot:
		if !c.atLeast(130, 300) {
			c.errorf(x.OpPos, "operator '~' is reserved in this GLSL version")
			return invalid(x)
		}
		if !isIntegral(t) {
			c.errorf(x.OpPos, "operator '~' requires an integer operand, not %s", t)
			return invalid(x)
		}
	case ast.OpPreInc, ast.OpPreDec, ast.OpPostInc, ast.OpPostDec:
		if !t.IsNumeric() || t.Base == ast.Bool {
			c.errorf(x.OpPos, "operator '%s' requires a numeric operand, not %s", x.Op, t)
			return invalid(x)
		}
		if !c.lvalue(x.X, "operand of '"+x.Op.String()+"'") {
			return invalid(x)
		}
		x.T = t
		return x
	}
	x.T = t
	if v := x.X.Value(); v != nil {
		x.Val = foldUnary(x.Op, v)
	}
	return x
}

func isIntegral(t *ast.Type) bool {
	return (t.IsScalar() || t.IsVector()) && (t.Base == ast.Int || t.Base == ast.Uint)
}

// balance converts the operands of an arithmetic operator to a common base.
func (c *checker) balance(x, y ast.Expr) (ast.Expr, ast.Expr, bool) {
	a, b := x.Type(), y.Type()
	if a.Base == b.Base {
		return x, y, true
	}
	if c.implicitBase(a.Base, b.Base) {
		return c.conv(x, b.Base), y, true
	}
	if c.implicitBase(b.Base, a.Base) {
		return x, c.conv(y, a.Base), true
	}
	return x, y, false
}

func (c *checker) binary(x *ast.Binary) ast.Expr {
	x.X = c.expr(x.X)
	x.Y = c.expr(x.Y)
	a, b := x.X.Type(), x.Y.Type()
	if a.IsInvalid() || b.IsInvalid() {
		return invalid(x)
	}
	t := c.binaryType(x, a, b)
	if t == nil {
		return invalid(x)
	}
	x.T = t
	if x.Op == ast.OpComma {
		// GLSL ES 1.00 treats a sequence of constant expressions as constant.
		if c.es && c.version == 100 && x.X.Value() != nil {
			x.Val = x.Y.Value()
		}
		return x
	}
	if va, vb := x.X.Value(), x.Y.Value(); va != nil && vb != nil {
		v, err := foldBinary(x.Op, va, vb, t)
		if err != "" {
			c.errorf(x.OpPos, "%s", err)
			return invalid(x)
		}
		x.Val = v
	}
	return x
}

// binaryType checks operand types of x (converting them as needed) and returns the
// result type, or nil after reporting an error. spec: GLSL 4.50 §5.9.
func (c *checker) binaryType(x *ast.Binary, a, b *ast.Type) *ast.Type {
	op := x.Op
	bad := func() *ast.Type {
		c.errorf(x.OpPos, "operator '%s' cannot be applied to %s and %s", op, a, b)
		return nil
	}
	switch op {
	case ast.OpComma:
		if c.es && (a.IsArray() || b.IsArray() || a.IsSampler() || b.IsSampler()) {
			return bad()
		}
		return b
	case ast.OpLogAnd, ast.OpLogOr, ast.OpLogXor:
		if !(a.IsScalar() && a.Base == ast.Bool && b.IsScalar() && b.Base == ast.Bool) {
			return bad()
		}
		return a
	case ast.OpEq, ast.OpNe:
		if a.ContainsSampler() || b.ContainsSampler() || a.IsVoid() || b.IsVoid() {
			return bad()
		}
		if (a.ContainsArray() || b.ContainsArray()) && !c.atLeast(120, 300) {
			return bad()
		}
		if a.IsNumeric() && b.IsNumeric() {
			var ok bool
			x.X, x.Y, ok = c.balance(x.X, x.Y)
			if !ok || !ast.Identical(x.X.Type(), x.Y.Type()) {
				return bad()
			}
			return ast.Scalar(ast.Bool)
		}
		if !ast.Identical(a, b) {
			return bad()
		}
		return ast.Scalar(ast.Bool)
	case ast.OpLt, ast.OpGt, ast.OpLe, ast.OpGe:
		if !a.IsScalar() || !b.IsScalar() || a.Base == ast.Bool || b.Base == ast.Bool {
			return bad()
		}
		var ok bool
		if x.X, x.Y, ok = c.balance(x.X, x.Y); !ok {
			return bad()
		}
		return ast.Scalar(ast.Bool)
	case ast.OpShl, ast.OpShr:
		if !c.atLeast(130, 300) {
			c.errorf(x.OpPos, "operator '%s' is reserved in this GLSL version", op)
			return nil
		}
		if !isIntegral(a) || !isIntegral(b) || (a.IsScalar() && b.IsVector()) ||
			(a.IsVector() && b.IsVector() && a.Rows != b.Rows) {
			return bad()
		}
		return a
	case ast.OpMod, ast.OpBitAnd, ast.OpBitOr, ast.OpBitXor:
		if !c.atLeast(130, 300) {
			c.errorf(x.OpPos, "operator '%s' is reserved in this GLSL version", op)
			return nil
		}
		if !isIntegral(a) || !isIntegral(b) {
			return bad()
		}
		var ok bool
		if x.X, x.Y, ok = c.balance(x.X, x.Y); !ok {
			return bad()
		}
		a, b = x.X.Type(), x.Y.Type()
		if a.IsVector() && b.IsVector() && a.Rows != b.Rows {
			return bad()
		}
		if a.IsVector() {
			return a
		}
		return b
	case ast.OpAdd, ast.OpSub, ast.OpMul, ast.OpDiv:
		if !a.IsNumeric() || !b.IsNumeric() || a.Base == ast.Bool || b.Base == ast.Bool {
			return bad()
		}
		var ok bool
		if x.X, x.Y, ok = c.balance(x.X, x.Y); !ok {
			return bad()
		}
		a, b = x.X.Type(), x.Y.Type()
		switch {
		case a.IsScalar():
			return b
		case b.IsScalar():
			return a
		case a.IsVector() && b.IsVector():
			if a.Rows != b.Rows {
				return bad()
			}
			return a
		case op == ast.OpMul && a.IsMatrix() && b.IsVector():
			if a.Cols != b.Rows {
				return bad()
			}
			return ast.Vector(ast.Float, a.Rows)
		case op == ast.OpMul && a.IsVector() && b.IsMatrix():
			if a.Rows != b.Rows {
				return bad()
			}
			return ast.Vector(ast.Float, b.Cols)
		case op == ast.OpMul && a.IsMatrix() && b.IsMatrix():
			if a.Cols != b.Rows {
				return bad()
			}
			return ast.Matrix(b.Cols, a.Rows)
		case a.IsMatrix() && b.IsMatrix():
			if a.Rows != b.Rows || a.Cols != b.Cols {
				return bad()
			}
			return a
		}
		return bad()
	}
	return bad()
}

func (c *checker) assign(x *ast.Assign) ast.Expr {
	x.LHS = c.expr(x.LHS)
	x.RHS = c.expr(x.RHS)
	lt, rt := x.LHS.Type(), x.RHS.Type()
	if lt.IsInvalid() || rt.IsInvalid() {
		return invalid(x)
	}
	if !c.lvalue(x.LHS, "left-hand side of assignment") {
		return invalid(x)
	}
	if x.Op == ast.OpAssign {
		c.storeOnly(x.LHS)
		if lt.ContainsSampler() {
			c.errorf(x.OpPos, "cannot assign to a sampler")
			return invalid(x)
		}
		if lt.IsArray() && !c.atLeast(120, 300) {
			c.errorf(x.OpPos, "arrays cannot be assigned in this GLSL version")
			return invalid(x)
		}
		if lt.IsArray() && lt.Len == 0 {
			// GLSL 1.20 §4.1.9: "implicitly sized arrays cannot be assigned to"; the
			// size is only known at the end of the unit, so neither side's can be
			// matched. A storage block's runtime-sized array has no size to match
			// either (GLSL 4.50 §4.1.9).
			c.errorf(x.OpPos, "implicitly sized arrays cannot be assigned to")
			return invalid(x)
		}
		x.RHS = c.convertTo(x.RHS, lt, x.OpPos, "assign")
		x.T = lt
		if x.RHS.Type().IsInvalid() {
			return invalid(x)
		}
		return x
	}
	b := &ast.Binary{OpPos: x.OpPos, Op: x.Op, X: x.LHS, Y: x.RHS}
	t := c.binaryType(b, lt, rt)
	if t == nil {
		return invalid(x)
	}
	if !ast.Identical(b.X.Type(), lt) || !ast.Identical(t, lt) {
		c.errorf(x.OpPos, "operator '%s=' cannot be applied to %s and %s", x.Op, lt, rt)
		return invalid(x)
	}
	x.RHS = b.Y
	x.T = lt
	return x
}

func (c *checker) cond(x *ast.Cond) ast.Expr {
	x.Cond = c.expr(x.Cond)
	x.Then = c.expr(x.Then)
	x.Else = c.expr(x.Else)
	ct, a, b := x.Cond.Type(), x.Then.Type(), x.Else.Type()
	if ct.IsInvalid() || a.IsInvalid() || b.IsInvalid() {
		return invalid(x)
	}
	if !(ct.IsScalar() && ct.Base == ast.Bool) {
		c.errorf(x.Cond.Pos(), "condition of '?:' must be a scalar bool, not %s", ct)
		return invalid(x)
	}
	if a.IsNumeric() && b.IsNumeric() {
		x.Then, x.Else, _ = c.balance(x.Then, x.Else)
	}
	if !ast.Identical(x.Then.Type(), x.Else.Type()) {
		c.errorf(x.QPos, "operands of '?:' have different types %s and %s", a, b)
		return invalid(x)
	}
	if c.es && x.Then.Type().ContainsArray() {
		c.errorf(x.QPos, "operands of '?:' cannot be arrays in GLSL ES")
		return invalid(x)
	}
	x.T = x.Then.Type()
	if v := x.Cond.Value(); v != nil && x.Then.Value() != nil && x.Else.Value() != nil {
		if v.Bool(0) {
			x.Val = x.Then.Value()
		} else {
			x.Val = x.Else.Value()
		}
	}
	return x
}
