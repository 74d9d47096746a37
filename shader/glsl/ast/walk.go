package ast

// Inspect traverses the tree rooted at n in depth-first order, calling f for every
// node (File, Decl, Stmt, Expr, TypeSpec array sizes and initialisers included).
// If f returns false the children of that node are skipped. Like go/ast.Inspect.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	expr := func(x Expr) {
		if x != nil {
			Inspect(x, f)
		}
	}
	stmt := func(s Stmt) {
		if s != nil {
			Inspect(s, f)
		}
	}
	switch n := n.(type) {
	case *File:
		for _, d := range n.Decls {
			Inspect(d, f)
		}
	case *DeclGroup:
		for _, v := range n.Vars {
			for _, d := range v.Dims {
				expr(d.Size)
			}
			expr(v.Init)
		}
	case *FuncDecl:
		if n.Body != nil {
			Inspect(n.Body, f)
		}
	case *BlockDecl, *PrecisionDecl, *QualDecl:
	case *Block:
		for _, s := range n.Stmts {
			stmt(s)
		}
	case *DeclStmt:
		Inspect(n.Decl, f)
	case *ExprStmt:
		expr(n.X)
	case *IfStmt:
		expr(n.Cond)
		stmt(n.Then)
		stmt(n.Else)
	case *ForStmt:
		stmt(n.Init)
		expr(n.Cond)
		expr(n.Post)
		stmt(n.Body)
	case *WhileStmt:
		expr(n.Cond)
		stmt(n.Body)
	case *DoStmt:
		stmt(n.Body)
		expr(n.Cond)
	case *SwitchStmt:
		expr(n.Tag)
		Inspect(n.Body, f)
	case *CaseStmt:
		expr(n.Value)
	case *ReturnStmt:
		expr(n.Result)
	case *Unary:
		expr(n.X)
	case *Binary:
		expr(n.X)
		expr(n.Y)
	case *Assign:
		expr(n.LHS)
		expr(n.RHS)
	case *Cond:
		expr(n.Cond)
		expr(n.Then)
		expr(n.Else)
	case *Index:
		expr(n.X)
		expr(n.Index)
	case *Selector:
		expr(n.X)
	case *Call:
		expr(n.Method)
		for _, a := range n.Args {
			expr(a)
		}
	case *Conv:
		expr(n.X)
	case *InitList:
		for _, e := range n.Elems {
			expr(e)
		}
	}
}
