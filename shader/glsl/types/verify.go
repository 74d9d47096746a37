package types

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
)

// Verify checks that a successfully checked file satisfies the contract the IR
// lowering relies on (see shader/glsl/LOWERING.md): every expression is typed,
// every name and call is resolved, conversions are explicit, constant values have
// the size of their type. It returns an ast.ErrorList of violations (a checker bug)
// or nil. Tests and fuzzers use it; compilation does not need it.
func Verify(f *ast.File) error {
	var errs ast.ErrorList
	bad := func(n ast.Node, format string, args ...any) {
		errs.Add(n.Pos(), "contract: "+fmt.Sprintf(format, args...))
	}
	var fn *ast.Func
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fn = n.Func
			if fn == nil {
				bad(n, "function %s unresolved", n.Name)
			}
		case *ast.DeclGroup:
			for _, vs := range n.Vars {
				if vs.Var == nil {
					bad(n, "variable %s unresolved", vs.Name)
					continue
				}
				if vs.Init != nil && vs.Init.Type() != nil && !ast.Identical(vs.Init.Type(), vs.Var.Type) {
					bad(vs.Init, "initializer of %s has type %s, variable %s", vs.Name, vs.Init.Type(), vs.Var.Type)
				}
			}
		case *ast.ReturnStmt:
			if n.Result != nil && fn != nil && !ast.Identical(n.Result.Type(), fn.Result) {
				bad(n, "return of %s from %s function", n.Result.Type(), fn.Result)
			}
		case *ast.IfStmt:
			verifyBool(n.Cond, bad)
		case *ast.WhileStmt:
			verifyBool(n.Cond, bad)
		case *ast.DoStmt:
			verifyBool(n.Cond, bad)
		case *ast.ForStmt:
			if n.Cond != nil {
				verifyBool(n.Cond, bad)
			}
		case ast.Expr:
			verifyExpr(n, bad)
		}
		return true
	})
	errs.Sort()
	return errs.Err()
}

func verifyBool(x ast.Expr, bad func(ast.Node, string, ...any)) {
	if t := x.Type(); !t.IsScalar() || t.Base != ast.Bool {
		bad(x, "condition has type %s", t)
	}
}

func verifyExpr(x ast.Expr, bad func(ast.Node, string, ...any)) {
	t := x.Type()
	if t.IsInvalid() {
		bad(x, "expression %T has no type", x)
		return
	}
	if v := x.Value(); v != nil && len(v.Words) != t.Slots() {
		bad(x, "constant of %s has %d words, want %d", t, len(v.Words), t.Slots())
	}
	switch x := x.(type) {
	case *ast.InitList:
		bad(x, "initializer list left in the checked tree")
	case *ast.Ident:
		if x.Var == nil {
			bad(x, "identifier %s unresolved", x.Name)
		}
	case *ast.Binary:
		a, b := x.X.Type(), x.Y.Type()
		switch x.Op {
		case ast.OpAdd, ast.OpSub, ast.OpMul, ast.OpDiv, ast.OpMod, ast.OpBitAnd, ast.OpBitOr, ast.OpBitXor,
			ast.OpLt, ast.OpGt, ast.OpLe, ast.OpGe:
			if a.Base != b.Base {
				bad(x, "operands of %s have bases %s and %s", x.Op, a.Base, b.Base)
			}
		case ast.OpEq, ast.OpNe:
			if !ast.Identical(a, b) {
				bad(x, "operands of %s have types %s and %s", x.Op, a, b)
			}
		}
	case *ast.Assign:
		if x.Op == ast.OpAssign && !ast.Identical(x.LHS.Type(), x.RHS.Type()) {
			bad(x, "assignment of %s to %s", x.RHS.Type(), x.LHS.Type())
		}
	case *ast.Cond:
		if !ast.Identical(x.Then.Type(), x.Else.Type()) || !ast.Identical(t, x.Then.Type()) {
			bad(x, "?: branches have types %s and %s", x.Then.Type(), x.Else.Type())
		}
		verifyBool(x.Cond, bad)
	case *ast.Conv:
		xt := x.X.Type()
		if xt.Kind != t.Kind || xt.Rows != t.Rows || xt.Cols != t.Cols || xt.Base == t.Base {
			bad(x, "conversion from %s to %s", xt, t)
		}
	case *ast.Index:
		if it := x.Index.Type(); !it.IsScalar() || (it.Base != ast.Int && it.Base != ast.Uint) {
			bad(x, "index of type %s", it)
		}
	case *ast.Selector:
		if (x.Field >= 0) == (x.Swizzle != nil) {
			bad(x, "selector .%s is neither a field nor a swizzle", x.Name)
		}
	case *ast.Call:
		switch x.Kind {
		case ast.CallFunc:
			if x.Func == nil || len(x.Func.Params) != len(x.Args) {
				bad(x, "call of %s unresolved", x.Name)
				return
			}
			for i, p := range x.Func.Params {
				if p.Param == ast.StorageParamIn && !ast.Identical(p.Type, x.Args[i].Type()) {
					bad(x, "argument %d of %s has type %s, parameter %s", i+1, x.Name, x.Args[i].Type(), p.Type)
				}
			}
		case ast.CallBuiltin:
			if x.Builtin == ast.FnNone {
				bad(x, "built-in call %s unresolved", x.Name)
			}
		case ast.CallConstruct:
			if !ast.Identical(x.CtorType, t) {
				bad(x, "constructor of %s typed %s", x.CtorType, t)
			}
		case ast.CallLength:
			if x.Value() == nil && !runtimeArray(x.Method) && !implicitLength(x.Method) {
				bad(x, "length() not constant")
			}
		default:
			bad(x, "call of %s unresolved", x.Name)
		}
	}
}
