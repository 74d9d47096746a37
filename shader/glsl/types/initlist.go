package types

import (
	"vortexgfx/shader/glsl/ast"
)

// initList checks a brace initializer against the declared type t and returns the
// equivalent constructor call, so that the checked tree holds no InitList.
// spec: GLSL 4.50 §4.1.11 (initializers).
func (c *checker) initList(l *ast.InitList, t *ast.Type) ast.Expr {
	call := &ast.Call{NamePos: l.Lbrace, Name: t.String(), Rparen: l.Lbrace}
	bad := func(format string, args ...any) ast.Expr {
		c.errorf(l.Lbrace, format, args...)
		return invalid(call)
	}
	if t.IsInvalid() {
		return invalid(call)
	}
	var elem func(i int) *ast.Type
	n := len(l.Elems)
	switch {
	case t.IsArray():
		if t.Len == 0 {
			t = ast.Array(t.Elem, n)
			if c.tooLarge(t, l.Lbrace) {
				return invalid(call)
			}
		}
		elem = func(int) *ast.Type { return t.Elem }
		if n != t.Len {
			return bad("initializer list for %s has %d elements", t, n)
		}
	case t.IsStruct():
		if n != len(t.Struct.Fields) {
			return bad("initializer list for %s has %d elements, want %d", t, n, len(t.Struct.Fields))
		}
		elem = func(i int) *ast.Type { return t.Struct.Fields[i].Type }
	case t.IsMatrix():
		if n != t.Cols {
			return bad("initializer list for %s has %d columns, want %d", t, n, t.Cols)
		}
		elem = func(int) *ast.Type { return t.Column() }
	case t.IsVector():
		if n != t.Rows {
			return bad("initializer list for %s has %d elements, want %d", t, n, t.Rows)
		}
		elem = func(int) *ast.Type { return t.ScalarType() }
	case t.IsScalar():
		// Only aggregates (arrays, structs, vectors, matrices) take a list.
		// spec: GLSL 4.50 §4.1.11
		return bad("a scalar %s cannot be initialized with a list", t)
	default:
		return bad("type %s cannot be initialized with a list", t)
	}
	args := make([]ast.Expr, n)
	for i, e := range l.Elems {
		et := elem(i)
		var x ast.Expr
		if sub, ok := e.(*ast.InitList); ok {
			x = c.initList(sub, et)
		} else {
			x = c.expr(e)
		}
		if x.Type().IsInvalid() {
			return invalid(call)
		}
		x = c.convertTo(x, et, e.Pos(), "initialize an element")
		if x.Type().IsInvalid() {
			return invalid(call)
		}
		args[i] = x
	}
	if t.IsScalar() {
		return args[0]
	}
	call.Args = args
	call.Kind, call.CtorType, call.T = ast.CallConstruct, t, t
	if vals := argValues(args); vals != nil {
		call.Val = constructValue(t, vals)
	}
	return call
}
