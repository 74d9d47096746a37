package ast

import (
	"fmt"
	"io"
	"strings"
)

// Fprint writes a deterministic, indented S-expression dump of node n (a *File,
// Decl, Stmt or Expr) including checked types and constant values when present.
// It is meant for golden tests and debugging, not as GLSL output.
func Fprint(w io.Writer, n any) error {
	p := &printer{w: w}
	p.node(n, 0)
	return p.err
}

// Sprint returns the Fprint dump of n.
func Sprint(n any) string {
	var b strings.Builder
	_ = Fprint(&b, n)
	return b.String()
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(depth int, format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, "%s%s\n", strings.Repeat("  ", depth), fmt.Sprintf(format, args...))
}

func typeSuffix(x Expr) string {
	s := ""
	if t := x.Type(); t != nil {
		s += " : " + t.String()
	}
	if v := x.Value(); v != nil {
		s += " = " + v.String()
	}
	return s
}

func specString(t *TypeSpec) string {
	if t == nil {
		return "<nil>"
	}
	s := t.Name
	if t.Struct != nil {
		s = "struct " + t.Struct.Name
	}
	for range t.Dims {
		s += "[]"
	}
	return s
}

func (p *printer) node(n any, d int) {
	switch n := n.(type) {
	case nil:
		p.line(d, "nil")
	case *File:
		p.line(d, "File %s version=%d es=%v", n.Name, n.Version, n.ES)
		for _, x := range n.Decls {
			p.node(x, d+1)
		}
	case *DeclGroup:
		p.line(d, "Decl %s%s", qualString(n.Qual), specString(n.Type))
		if n.Type.Struct != nil {
			for _, m := range n.Type.Struct.Members {
				p.node(m, d+1)
			}
		}
		for _, v := range n.Vars {
			s := v.Name
			for range v.Dims {
				s += "[]"
			}
			if v.Var != nil && v.Var.Type != nil {
				s += " : " + v.Var.Type.String()
			}
			p.line(d+1, "Var %s", s)
			if v.Init != nil {
				p.node(v.Init, d+2)
			}
		}
	case *FuncDecl:
		params := make([]string, len(n.Params))
		for i, pd := range n.Params {
			params[i] = strings.TrimSpace(qualString(pd.Qual) + specString(pd.Type) + " " + pd.Name)
		}
		p.line(d, "Func %s %s(%s)", specString(n.Result), n.Name, strings.Join(params, ", "))
		if n.Body != nil {
			p.node(n.Body, d+1)
		}
	case *BlockDecl:
		p.line(d, "Block %s%s %s", qualString(n.Qual), n.Name, n.InstanceName)
		for _, m := range n.Members {
			p.node(m, d+1)
		}
	case *PrecisionDecl:
		p.line(d, "Precision %d %s", n.Precision, specString(n.Type))
	case *QualDecl:
		names := make([]string, len(n.Names))
		for i, x := range n.Names {
			names[i] = x.Name
		}
		p.line(d, "QualDecl %s%s", qualString(n.Qual), strings.Join(names, ","))
	case *Block:
		p.line(d, "Block")
		for _, s := range n.Stmts {
			p.node(s, d+1)
		}
	case *DeclStmt:
		p.node(n.Decl, d)
	case *ExprStmt:
		p.line(d, "ExprStmt")
		p.node(n.X, d+1)
	case *EmptyStmt:
		p.line(d, "Empty")
	case *IfStmt:
		p.line(d, "If")
		p.node(n.Cond, d+1)
		p.node(n.Then, d+1)
		if n.Else != nil {
			p.line(d, "Else")
			p.node(n.Else, d+1)
		}
	case *ForStmt:
		p.line(d, "For")
		p.node(n.Init, d+1)
		p.node(n.Cond, d+1)
		p.node(n.Post, d+1)
		p.node(n.Body, d+1)
	case *WhileStmt:
		p.line(d, "While")
		p.node(n.Cond, d+1)
		p.node(n.Body, d+1)
	case *DoStmt:
		p.line(d, "Do")
		p.node(n.Body, d+1)
		p.node(n.Cond, d+1)
	case *SwitchStmt:
		p.line(d, "Switch")
		p.node(n.Tag, d+1)
		p.node(n.Body, d+1)
	case *CaseStmt:
		if n.Value == nil {
			p.line(d, "Default")
		} else {
			p.line(d, "Case")
			p.node(n.Value, d+1)
		}
	case *BranchStmt:
		p.line(d, "%s", [...]string{"Break", "Continue", "Discard"}[n.Kind])
	case *ReturnStmt:
		p.line(d, "Return")
		if n.Result != nil {
			p.node(n.Result, d+1)
		}
	case Expr:
		p.expr(n, d)
	default:
		p.line(d, "?%T", n)
	}
}

func (p *printer) expr(x Expr, d int) {
	if x == nil {
		p.line(d, "nil")
		return
	}
	ts := typeSuffix(x)
	switch x := x.(type) {
	case *Ident:
		p.line(d, "Ident %s%s", x.Name, ts)
	case *Literal:
		p.line(d, "Lit %s%s", x.Raw, ts)
	case *Unary:
		if x.Postfix {
			p.line(d, "Unary post%s%s", x.Op, ts)
		} else {
			p.line(d, "Unary %s%s", x.Op, ts)
		}
		p.expr(x.X, d+1)
	case *Binary:
		p.line(d, "Binary %s%s", x.Op, ts)
		p.expr(x.X, d+1)
		p.expr(x.Y, d+1)
	case *Assign:
		p.line(d, "Assign %s%s", x.Op, ts)
		p.expr(x.LHS, d+1)
		p.expr(x.RHS, d+1)
	case *Cond:
		p.line(d, "Cond%s", ts)
		p.expr(x.Cond, d+1)
		p.expr(x.Then, d+1)
		p.expr(x.Else, d+1)
	case *Index:
		p.line(d, "Index%s", ts)
		p.expr(x.X, d+1)
		p.expr(x.Index, d+1)
	case *Selector:
		if x.Swizzle != nil {
			p.line(d, "Swizzle .%s %v%s", x.Name, x.Swizzle, ts)
		} else {
			p.line(d, "Field .%s%s", x.Name, ts)
		}
		p.expr(x.X, d+1)
	case *Call:
		kind := [...]string{"Call", "CallFunc", "CallBuiltin", "Construct", "Length"}[x.Kind]
		p.line(d, "%s %s%s", kind, x.Name, ts)
		if x.Method != nil {
			p.expr(x.Method, d+1)
		}
		for _, a := range x.Args {
			p.expr(a, d+1)
		}
	case *Conv:
		p.line(d, "Conv%s", ts)
		p.expr(x.X, d+1)
	case *InitList:
		p.line(d, "InitList%s", ts)
		for _, e := range x.Elems {
			p.expr(e, d+1)
		}
	}
}

func qualString(q Qualifiers) string {
	var s []string
	if q.Invariant {
		s = append(s, "invariant")
	}
	if q.Interp != InterpNone {
		s = append(s, q.Interp.String())
	}
	if q.Centroid {
		s = append(s, "centroid")
	}
	if q.Storage != StorageNone {
		s = append(s, q.Storage.String())
	}
	for _, m := range []struct {
		on   bool
		name string
	}{{q.Coherent, "coherent"}, {q.Volatile, "volatile"}, {q.Restrict, "restrict"}, {q.ReadOnlyMem, "readonly"}, {q.WriteOnlyMem, "writeonly"}} {
		if m.on {
			s = append(s, m.name)
		}
	}
	for _, l := range q.Layout {
		s = append(s, "layout("+l.Name+")")
	}
	if len(s) == 0 {
		return ""
	}
	return strings.Join(s, " ") + " "
}
