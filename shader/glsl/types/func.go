package types

import (
	"vortexgfx/shader/glsl/ast"
)

// funcDecl checks a function prototype or definition. spec: GLSL 4.50 §6.1.
func (c *checker) funcDecl(d *ast.FuncDecl) {
	if d.Qual.Storage != ast.StorageNone || d.Qual.Interp != ast.InterpNone || d.Qual.Invariant ||
		d.Qual.Centroid || d.Qual.Sample || len(d.Qual.Layout) > 0 {
		if d.Qual.Storage != ast.StorageNone {
			c.errorf(d.Qual.Pos, "function return type cannot be qualified '%s'", d.Qual.Storage)
		} else {
			c.errorf(d.Qual.Pos, "function return type cannot have storage or interpolation qualifiers")
		}
	}
	ret := c.resolveType(d.Result)
	if ret.IsArray() && ret.Len == 0 {
		c.errorf(d.Result.Pos(), "function return type must be an explicitly sized array")
	}
	if ret.IsArray() && !c.atLeast(120, 300) {
		c.errorf(d.Result.Pos(), "functions cannot return arrays in this GLSL version")
	}
	if ret.ContainsSampler() && !ret.IsInvalid() {
		c.errorf(d.Result.Pos(), "functions cannot return samplers")
	}
	if d.Result.Struct != nil {
		c.errorf(d.Result.Pos(), "struct definitions are not allowed in function return types")
	}
	c.checkName(d.Name, d.NamePos)
	if d.Name == "main" {
		if len(d.Params) > 0 {
			c.errorf(d.NamePos, "function 'main' cannot take parameters")
		}
		if !ret.IsVoid() && !ret.IsInvalid() {
			c.errorf(d.Result.Pos(), "function 'main' must return void")
		}
	}
	var params []*ast.Var
	for i, pd := range d.Params {
		t := c.resolveType(pd.Type)
		if len(pd.Dims) > 0 {
			if t.IsArray() && !c.hasArraysOfArrays() {
				c.errorf(pd.NamePos, "arrays of arrays require GLSL 4.30, GLSL ES 3.10 or GL_ARB_arrays_of_arrays")
			}
			t = c.arrayOf(t, pd.Dims, pd.NamePos)
		}
		if t.IsVoid() {
			if len(d.Params) == 1 && pd.Name == "" {
				params = nil
				break
			}
			c.errorf(pd.Type.Pos(), "parameter %d of '%s' cannot be void", i+1, d.Name)
			t = ast.Invalid()
		}
		if t.IsArray() && t.Len == 0 {
			c.errorf(pd.Type.Pos(), "array parameters must have an explicit size")
		}
		if pd.Type.Struct != nil {
			c.errorf(pd.Type.Pos(), "struct definitions are not allowed in parameter lists")
		}
		dir := ast.StorageParamIn
		q := pd.Qual
		switch q.Storage {
		case ast.StorageNone, ast.StorageIn, ast.StorageConst:
		case ast.StorageOut:
			dir = ast.StorageParamOut
		case ast.StorageParamInOut:
			dir = ast.StorageParamInOut
		default:
			c.errorf(q.Pos, "parameter cannot be qualified '%s'", q.Storage)
		}
		if q.Interp != ast.InterpNone || q.Invariant || q.Centroid || q.Sample || len(q.Layout) > 0 {
			c.errorf(q.Pos, "parameters can only have const, in, out, inout and precision qualifiers")
		}
		if t.IsArray() && dir != ast.StorageParamIn && !c.atLeast(120, 100) {
			c.errorf(pd.Type.Pos(), "arrays cannot be out or inout parameters in GLSL 1.10")
		}
		if t.ContainsSampler() && dir != ast.StorageParamIn {
			c.errorf(pd.Type.Pos(), "sampler parameters must be 'in'")
		}
		if pd.Name != "" {
			c.checkName(pd.Name, pd.NamePos)
		}
		v := &ast.Var{Name: pd.Name, DeclPos: pd.NamePos, Type: t, Kind: ast.VarParam, Qual: q,
			Param: dir, ReadOnly: q.Storage == ast.StorageConst, Location: -1, Binding: -1}
		pd.Var = v
		params = append(params, v)
	}
	prec := d.Result.Precision
	if prec == ast.PrecNone && c.es && ret.IsNumeric() && ret.Base == ast.Float {
		if !c.hasFloatPrecision() {
			c.errorf(d.Result.Pos(), "return type of '%s' requires a precision qualifier (no default precision for float)", d.Name)
		}
		prec = c.defaultFloatPrec()
	}
	f := c.declareFunc(d, ret, params)
	if f == nil {
		return
	}
	if c.es {
		if old, ok := c.funcPrec[f]; ok && old != prec && ret.IsNumeric() && ret.Base != ast.Bool {
			c.errorf(d.Result.Pos(), "function '%s' redeclared with a different return precision", d.Name)
		}
		c.funcPrec[f] = prec
	}
	if d.Body == nil {
		return
	}
	d.Func = f
	f.Def = d
	c.fn = f
	c.openScope()
	for _, v := range params {
		if v.Name != "" {
			c.declareVar(v)
		}
	}
	// In GLSL ES 1.00 "a function body has a scope nested inside the function's
	// definition" (GLSL ES 1.00 §4.2.2), so a local may hide a parameter. GLSL ES
	// 3.00 §4.2.2 and desktop GLSL (whose grammar has the body as a
	// compound_statement_no_new_scope, GLSL 4.50 §4.2 and §9) make the
	// parameters and the body one scope, where redeclaring a parameter is an error.
	nested := c.es && c.version < 300
	if nested {
		c.openScope()
	}
	for _, s := range d.Body.Stmts {
		c.safe(func() { c.stmt(s) })
	}
	if nested {
		c.closeScope()
	}
	c.closeScope()
	c.fn = nil
}

// declareFunc finds or creates the *Func for a prototype/definition.
func (c *checker) declareFunc(d *ast.FuncDecl, ret *ast.Type, params []*ast.Var) *ast.Func {
	e := c.globals.names[d.Name]
	if e != nil && e.funcs == nil {
		c.errorf(d.NamePos, "'%s' redeclared as a function", d.Name)
		return nil
	}
	if c.es || c.atLeast(130, 300) {
		if bs := builtinSigs(d.Name, c); len(bs) > 0 {
			if c.es {
				c.errorf(d.NamePos, "cannot redeclare or overload built-in function '%s'", d.Name)
				return nil
			}
			for _, s := range bs {
				if sameParams(s.params, params) {
					c.errorf(d.NamePos, "cannot redefine built-in function '%s'", d.Name)
					return nil
				}
			}
		}
	}
	if e == nil {
		e = &entity{pos: d.NamePos}
		c.globals.names[d.Name] = e
	}
	for _, f := range e.funcs {
		if !sameParamVars(f.Params, params) {
			continue
		}
		if !ast.Identical(f.Result, ret) && !ret.IsInvalid() {
			c.errorf(d.NamePos, "function '%s' redeclared with a different return type", d.Name)
			return nil
		}
		for i, p := range f.Params {
			if p.Param != params[i].Param || (p.Qual.Storage == ast.StorageConst) != (params[i].Qual.Storage == ast.StorageConst) {
				c.errorf(d.NamePos, "function '%s' redeclared with different parameter qualifiers", d.Name)
				return nil
			}
		}
		if d.Body != nil && f.Def != nil {
			c.errorf(d.NamePos, "function '%s' redefined", d.Name)
			return nil
		}
		if d.Body == nil && c.es && c.version == 100 {
			// GLSL ES 1.00 §6.1: a function may be declared only once.
			c.errorf(d.NamePos, "function '%s' redeclared", d.Name)
			return nil
		}
		if d.Body != nil {
			f.Params = params
		}
		d.Func = f
		return f
	}
	f := &ast.Func{Name: d.Name, DeclPos: d.NamePos, Result: ret, Params: params}
	e.funcs = append(e.funcs, f)
	c.file.Funcs = append(c.file.Funcs, f)
	d.Func = f
	return f
}

func sameParamVars(a, b []*ast.Var) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !ast.Identical(a[i].Type, b[i].Type) {
			return false
		}
	}
	return true
}

func sameParams(a []*ast.Type, b []*ast.Var) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !ast.Identical(a[i], b[i].Type) {
			return false
		}
	}
	return true
}
