package types

import (
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// call checks a function call, constructor or .length(). spec: GLSL 4.50 §5.4, §6.1.
func (c *checker) call(x *ast.Call) ast.Expr {
	if x.Method != nil {
		return c.lengthMethod(x)
	}
	for i, a := range x.Args {
		x.Args[i] = c.expr(a)
	}
	for _, a := range x.Args {
		if a.Type().IsInvalid() {
			return invalid(x)
		}
		if a.Type().IsVoid() {
			c.errorf(a.Pos(), "void value used as an argument of '%s'", x.Name)
			return invalid(x)
		}
	}
	if x.TypeSpec != nil {
		t := c.resolveType(x.TypeSpec)
		if t.IsInvalid() {
			return invalid(x)
		}
		return c.construct(x, t)
	}
	e := c.cur.lookup(x.Name)
	if e != nil && e.typ != nil {
		return c.construct(x, ast.Struct(e.typ))
	}
	if e != nil && e.v != nil {
		c.errorf(x.NamePos, "'%s' is a variable, not a function", x.Name)
		return invalid(x)
	}
	var user []*ast.Func
	if ge := c.globals.names[x.Name]; ge != nil {
		user = ge.funcs
	}
	var bsigs []sig
	if len(user) == 0 || c.es || c.atLeast(130, 300) {
		bsigs = builtinSigs(x.Name, c)
	}
	if len(user) == 0 && len(bsigs) == 0 {
		if ast.LookupBuiltin(x.Name) != ast.FnNone {
			c.errorf(x.NamePos, "built-in function '%s' is not available in this GLSL version or stage", x.Name)
		} else {
			c.errorf(x.NamePos, "undeclared function '%s'", x.Name)
		}
		return invalid(x)
	}
	// Gather candidates: user functions then built-ins.
	type cand struct {
		f    *ast.Func
		s    sig
		conv uint64 // the arguments that need a conversion (bit i: argument i)
	}
	var exact, conv []cand
	argTypes := make([]*ast.Type, len(x.Args))
	for i, a := range x.Args {
		argTypes[i] = a.Type()
	}
	// try matches arguments to parameters; in-parameters accept an implicit
	// conversion of the argument, out-parameters one of the parameter to the
	// argument on copy-out, inout parameters need identical types.
	// spec: GLSL 4.50 §6.1.1.
	try := func(params []*ast.Type, outs, inouts []bool) (uint64, bool) {
		if len(params) != len(argTypes) {
			return 0, false
		}
		var n uint64
		for i, p := range params {
			if ast.Identical(p, argTypes[i]) {
				continue
			}
			switch {
			case inouts != nil && inouts[i]:
				return 0, false
			case outs != nil && outs[i]:
				if !c.canConvert(p, argTypes[i]) {
					return 0, false
				}
			case !c.canConvert(argTypes[i], p):
				return 0, false
			}
			n |= 1 << min(i, 63)
		}
		return n, true
	}
	for _, f := range user {
		params := make([]*ast.Type, len(f.Params))
		outs := make([]bool, len(f.Params))
		inouts := make([]bool, len(f.Params))
		for i, p := range f.Params {
			params[i] = p.Type
			outs[i] = p.Param != ast.StorageParamIn
			inouts[i] = p.Param == ast.StorageParamInOut
		}
		if n, ok := try(params, outs, inouts); ok {
			if n == 0 {
				exact = append(exact, cand{f: f})
			} else {
				conv = append(conv, cand{f: f, conv: n})
			}
		}
	}
	for _, s := range bsigs {
		if n, ok := try(s.params, s.out, s.out); ok {
			if n == 0 {
				exact = append(exact, cand{s: s})
			} else {
				conv = append(conv, cand{s: s, conv: n})
			}
		}
	}
	var pick cand
	switch {
	case len(exact) >= 1:
		pick = exact[0]
	case len(conv) == 1:
		pick = conv[0]
	case len(conv) > 1 && !c.atLeast(400, 0) && !c.extEnabled(ExtShaderIntegerFunctions) && !c.hasGPUShader5():
		// Before GLSL 4.00 any call matching several overloads only through
		// conversions is ambiguous (MESA_shader_integer_functions brings 4.00's
		// best-match rule). spec: GLSL 1.30 §6.1.
		c.errorf(x.NamePos, "ambiguous call to '%s(%s)'", x.Name, typeList(argTypes))
		return invalid(x)
	case len(conv) > 1:
		// GLSL 4.00's rule: a candidate is better than another when no
		// argument's conversion is worse and at least one is better; the
		// call resolves to the candidate better than every other. Without
		// doubles the only ranks are exact and converted (int to uint and
		// int or uint to float rank alike), so A beats B exactly when A
		// converts a strict subset of the arguments B converts.
		// spec: GLSL 4.00 §6.1, ARB_gpu_shader5 §6.1
		found := -1
		for k, a := range conv {
			beatsAll := true
			for j, b := range conv {
				if j != k && (a.conv&^b.conv != 0 || a.conv == b.conv) {
					beatsAll = false
					break
				}
			}
			if beatsAll {
				found = k
				break
			}
		}
		if found < 0 {
			c.errorf(x.NamePos, "ambiguous call to '%s(%s)'", x.Name, typeList(argTypes))
			return invalid(x)
		}
		pick = conv[found]
	default:
		c.errorf(x.NamePos, "no matching overload for call to '%s(%s)'", x.Name, typeList(argTypes))
		return invalid(x)
	}
	var params []*ast.Type
	var outs []bool
	if pick.f != nil {
		f := pick.f
		x.Kind, x.Func, x.T = ast.CallFunc, f, f.Result
		if c.dead == 0 {
			f.Used = true
		}
		if c.fn != nil {
			c.calls[c.fn] = append(c.calls[c.fn], f)
		}
		for _, p := range f.Params {
			params = append(params, p.Type)
			outs = append(outs, p.Param != ast.StorageParamIn)
		}
	} else {
		x.Kind, x.Builtin, x.T = ast.CallBuiltin, pick.s.fn, pick.s.ret
		params, outs = pick.s.params, pick.s.out
	}
	for i := range x.Args {
		if outs != nil && outs[i] {
			if !c.lvalue(x.Args[i], "out argument "+itoa(i+1)+" of '"+x.Name+"'") {
				return invalid(x)
			}
			continue
		}
		x.Args[i] = c.convertTo(x.Args[i], params[i], x.Args[i].Pos(), "call '"+x.Name+"'")
	}
	if x.Kind == ast.CallBuiltin {
		c.builtinUse(x)
		c.interpolantUse(x)
		c.computeBuiltinUse(x)
		if vals := argValues(x.Args); vals != nil {
			x.Val = foldBuiltin(x.Builtin, vals, x.T)
		}
	}
	return x
}

// builtinUse applies call-site restrictions of built-ins.
func (c *checker) builtinUse(x *ast.Call) {
	c.gatherComp(x)
	switch x.Builtin {
	case ast.FnEmitStreamVertex, ast.FnEndStreamPrimitive:
		c.streamCall(x)
	case ast.FnTextureOffset, ast.FnTexelFetchOffset, ast.FnTextureProjOffset, ast.FnTextureLodOffset,
		ast.FnTextureProjLodOffset, ast.FnTextureGradOffset, ast.FnTextureProjGradOffset,
		ast.FnTextureGatherOffset:
		// ARB_gpu_shader5 (GLSL 4.00) lets textureGatherOffset's offset
		// vary. spec: ARB_gpu_shader5 §8.7, GLSL 4.00 §8.7
		dynGather := x.Builtin == ast.FnTextureGatherOffset && c.hasGPUShader5()
		for _, a := range x.Args {
			if !dynGather && a.Type().IsNumeric() && a.Type().Base == ast.Int && a == x.Args[offsetArg(x)] && a.Value() == nil {
				c.errorf(a.Pos(), "texel offset of '%s' must be a constant expression", x.Name)
			}
		}
	case ast.FnTextureGatherOffsets:
		// spec: ARB_gpu_shader5 §8.7, GLSL 4.00 §8.7: the offsets array
		// must be a constant expression.
		if len(x.Args) > 2 {
			k := 2
			if x.Args[2].Type().Kind != ast.KindArray && len(x.Args) > 3 {
				k = 3 // the shadow forms' reference comes first
			}
			if a := x.Args[k]; a.Type().Kind == ast.KindArray && a.Value() == nil {
				c.errorf(a.Pos(), "texel offsets of '%s' must be a constant expression", x.Name)
			}
		}
	}
}

// gatherComp checks the component select of textureGather,
// textureGatherOffset and textureGatherOffsets on a non-shadow sampler: a
// constant integral expression of value 0..3. spec: ARB_gpu_shader5 §8.7,
// GLSL 4.00 §8.7
func (c *checker) gatherComp(x *ast.Call) {
	base := 3
	switch x.Builtin {
	case ast.FnTextureGather:
		base = 2
	case ast.FnTextureGatherOffset, ast.FnTextureGatherOffsets:
	default:
		return
	}
	if len(x.Args) != base+1 || !x.Args[0].Type().IsSampler() || x.Args[0].Type().Sampler.Shadow {
		return
	}
	a := x.Args[base]
	if !a.Type().IsScalar() || a.Type().Base != ast.Int {
		return
	}
	switch v := a.Value(); {
	case v == nil:
		c.errorf(a.Pos(), "the component of '%s' must be a constant integral expression", x.Name)
	case v.Int(0) < 0 || v.Int(0) > 3:
		c.errorf(a.Pos(), "the component of '%s' must be 0, 1, 2 or 3, not %d", x.Name, v.Int(0))
	}
}

func offsetArg(x *ast.Call) int {
	switch x.Builtin {
	case ast.FnTextureOffset, ast.FnTextureProjOffset:
		return 2
	case ast.FnTexelFetchOffset, ast.FnTextureLodOffset, ast.FnTextureProjLodOffset, ast.FnTextureGatherOffset:
		if x.Builtin == ast.FnTextureGatherOffset {
			if len(x.Args) > 2 && x.Args[2].Type().IsVector() {
				return 2
			}
			return 3
		}
		return 3
	case ast.FnTextureGradOffset, ast.FnTextureProjGradOffset:
		return 4
	}
	return 0
}

func argValues(args []ast.Expr) []*ast.Value {
	vals := make([]*ast.Value, len(args))
	for i, a := range args {
		if a.Value() == nil {
			return nil
		}
		vals[i] = a.Value()
	}
	return vals
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

func typeList(ts []*ast.Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

func (c *checker) lengthMethod(x *ast.Call) ast.Expr {
	x.Method = c.expr(x.Method)
	t := x.Method.Type()
	if t.IsInvalid() {
		return invalid(x)
	}
	if x.Name != "length" {
		c.errorf(x.NamePos, "unknown method '%s'", x.Name)
		return invalid(x)
	}
	if len(x.Args) > 0 {
		c.errorf(x.NamePos, "length() takes no arguments")
		return invalid(x)
	}
	n := 0
	switch {
	case t.IsArray() && c.implicitInClip(x.Method):
		// n = 0: implicitly sized, though lowered at gl_MaxClipDistances
	case t.IsArray() && c.atLeast(120, 300):
		n = t.Len
	case (t.IsVector() || t.IsMatrix()) && (c.atLeast(430, 0) || c.extEnabled(Ext420Pack)):
		n = t.Rows
		if t.IsMatrix() {
			n = t.Cols
		}
	default:
		c.errorf(x.NamePos, "length() cannot be applied to %s", t)
		return invalid(x)
	}
	if n == 0 && runtimeArray(x.Method) {
		// The unsized last member of a storage block: its length depends on the
		// bound buffer. spec: GLSL 4.50 §4.1.9.
		x.Kind, x.T = ast.CallLength, ast.Scalar(ast.Int)
		return x
	}
	if n == 0 && c.hasSSBO() && implicitLength(x.Method) {
		// An implicitly sized array: its length is what the link sizes it to
		// (its largest constant index across the stage's units), not a
		// constant expression. spec: ARB_shader_storage_buffer_object, GLSL
		// 4.30 §4.1.9 ("determined when a program is linked").
		x.Kind, x.T = ast.CallLength, ast.Scalar(ast.Int)
		return x
	}
	if n == 0 {
		c.errorf(x.NamePos, "length() of an unsized array")
		return invalid(x)
	}
	x.Kind = ast.CallLength
	x.T, x.Val = ast.Scalar(ast.Int), ast.IntValue(int32(n))
	return x
}

// construct checks a constructor call of type t. spec: GLSL 4.50 §5.4.
func (c *checker) construct(x *ast.Call, t *ast.Type) ast.Expr {
	x.Kind, x.CtorType = ast.CallConstruct, t
	bad := func(format string, args ...any) ast.Expr {
		c.errorf(x.NamePos, format, args...)
		return invalid(x)
	}
	if len(x.Args) == 0 {
		return bad("constructor '%s' requires arguments", t)
	}
	for _, a := range x.Args {
		at := a.Type()
		if at.ContainsSampler() {
			return bad("cannot use a sampler as a constructor argument")
		}
		if at.IsArray() && !t.IsArray() && !t.IsStruct() {
			return bad("cannot use an array as an argument to constructor '%s'", t)
		}
	}
	switch {
	case t.IsSampler() || t.IsVoid():
		return bad("cannot construct type %s", t)
	case t.IsArray():
		if !c.atLeast(120, 300) {
			return bad("array constructors require GLSL 1.20")
		}
		n := t.Len
		if n == 0 {
			n = len(x.Args)
			t = ast.Array(t.Elem, n)
			x.CtorType = t
			if c.tooLarge(t, x.NamePos) {
				return invalid(x)
			}
		}
		if len(x.Args) != n {
			return bad("array constructor '%s' requires %d arguments, got %d", t, n, len(x.Args))
		}
		for i, a := range x.Args {
			if !c.canConvert(a.Type(), t.Elem) {
				return bad("array constructor argument %d has type %s, expected %s", i+1, a.Type(), t.Elem)
			}
			x.Args[i] = c.conv(a, t.Elem.Base)
		}
	case t.IsStruct():
		fs := t.Struct.Fields
		if len(x.Args) != len(fs) {
			return bad("constructor of struct '%s' requires %d arguments, got %d", t, len(fs), len(x.Args))
		}
		for i, a := range x.Args {
			if !c.canConvert(a.Type(), fs[i].Type) {
				return bad("argument %d of constructor '%s' has type %s, expected %s", i+1, t, a.Type(), fs[i].Type)
			}
			if !ast.Identical(a.Type(), fs[i].Type) {
				x.Args[i] = c.conv(a, fs[i].Type.Base)
			}
		}
	default:
		total := 0
		for i, a := range x.Args {
			at := a.Type()
			if !at.IsNumeric() {
				return bad("cannot use %s as an argument to constructor '%s'", at, t)
			}
			if total >= t.Components() && !(t.IsScalar() && i == 0) {
				return bad("too many arguments to constructor '%s'", t)
			}
			total += at.Components()
		}
		if len(x.Args) == 1 {
			at := x.Args[0].Type()
			if t.IsMatrix() && at.IsMatrix() {
				break
			}
			if at.IsScalar() || t.IsScalar() {
				break
			}
		}
		if t.IsMatrix() {
			for _, a := range x.Args {
				if a.Type().IsMatrix() && len(x.Args) > 1 {
					return bad("a matrix argument to constructor '%s' must be the only argument", t)
				}
			}
		}
		if total < t.Components() {
			return bad("not enough data to construct '%s'", t)
		}
	}
	x.T = t
	if vals := argValues(x.Args); vals != nil {
		x.Val = constructValue(t, vals)
	}
	return x
}

// implicitLength reports whether e names an implicitly sized array variable or
// block member itself (not an element of an array of arrays).
func implicitLength(e ast.Expr) bool {
	v := implicitArray(e)
	return v != nil && v.ImplicitSize && v.Type == e.Type()
}
