package lower

import (
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
)

// stageVars returns the stage's global variables: the declared globals of every
// unit, then the built-in variables its function bodies reference (in order of first
// reference), then, when ftransform() is called, gl_Vertex and
// gl_ModelViewProjectionMatrix (as synthetic variables if the source names neither),
// and when interpolateAt* is called the inputs it reads (interpolationVars).
func stageVars(sp *glsl.StageProgram) []*ast.Var {
	var out []*ast.Var
	seen := map[*ast.Var]bool{}
	names := map[string]bool{}
	add := func(v *ast.Var) {
		if v == nil || seen[v] || (v.Builtin && names[v.Name]) {
			return
		}
		seen[v] = true
		if v.Builtin {
			names[v.Name] = true
		}
		out = append(out, v)
	}
	for _, u := range sp.Units {
		for _, v := range u.File.Globals {
			add(v)
		}
	}
	ftransform, interp := false, false
	var expr func(e ast.Expr)
	var stmt func(s ast.Stmt)
	expr = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.Ident:
			if x.Var != nil && x.Var.Builtin {
				add(x.Var)
			}
		case *ast.Unary:
			expr(x.X)
		case *ast.Binary:
			expr(x.X)
			expr(x.Y)
		case *ast.Assign:
			expr(x.LHS)
			expr(x.RHS)
		case *ast.Cond:
			expr(x.Cond)
			expr(x.Then)
			expr(x.Else)
		case *ast.Index:
			expr(x.X)
			expr(x.Index)
		case *ast.Selector:
			expr(x.X)
		case *ast.Conv:
			expr(x.X)
		case *ast.Call:
			if x.Kind == ast.CallBuiltin && x.Builtin == ast.FnFtransform {
				ftransform = true
			}
			if x.Kind == ast.CallBuiltin && isInterpolateAt(x.Builtin) {
				interp = true
			}
			if x.Method != nil {
				expr(x.Method)
			}
			for _, a := range x.Args {
				expr(a)
			}
		}
	}
	decl := func(d ast.Decl) {
		if g, ok := d.(*ast.DeclGroup); ok {
			for _, vs := range g.Vars {
				if vs.Init != nil {
					expr(vs.Init)
				}
			}
		}
	}
	stmt = func(s ast.Stmt) {
		switch x := s.(type) {
		case *ast.Block:
			for _, t := range x.Stmts {
				stmt(t)
			}
		case *ast.DeclStmt:
			decl(x.Decl)
		case *ast.ExprStmt:
			if x.X != nil {
				expr(x.X)
			}
		case *ast.IfStmt:
			expr(x.Cond)
			stmt(x.Then)
			stmt(x.Else)
		case *ast.ForStmt:
			stmt(x.Init)
			if x.Cond != nil {
				expr(x.Cond)
			}
			if x.Post != nil {
				expr(x.Post)
			}
			stmt(x.Body)
		case *ast.WhileStmt:
			expr(x.Cond)
			stmt(x.Body)
		case *ast.DoStmt:
			stmt(x.Body)
			expr(x.Cond)
		case *ast.SwitchStmt:
			expr(x.Tag)
			stmt(x.Body)
		case *ast.ReturnStmt:
			if x.Result != nil {
				expr(x.Result)
			}
		}
	}
	for _, u := range sp.Units {
		for _, d := range u.File.Decls {
			switch x := d.(type) {
			case *ast.FuncDecl:
				if x.Body != nil {
					stmt(x.Body)
				}
			default:
				decl(d)
			}
		}
	}
	if ftransform {
		if !names["gl_Vertex"] {
			add(&ast.Var{Name: "gl_Vertex", Type: ast.Vector(ast.Float, 4), Kind: ast.VarIn, Builtin: true, Used: true, Location: -1, Binding: -1})
		}
		if !names["gl_ModelViewProjectionMatrix"] {
			add(&ast.Var{Name: "gl_ModelViewProjectionMatrix", Type: ast.Matrix(4, 4), Kind: ast.VarUniform, Builtin: true, Used: true, Location: -1, Binding: -1})
		}
	}
	if interp {
		// The inputs interpolateAt* reads (interp.go).
		for _, v := range interpolationVars() {
			if !names[v.Name] {
				add(v)
			}
		}
	}
	return out
}
