package lower

import (
	"strconv"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

func (l *lowerer) call(x *ast.Call) value {
	switch x.Kind {
	case ast.CallConstruct:
		return l.construct(x)
	case ast.CallFunc:
		return l.userCall(x)
	case ast.CallBuiltin:
		return l.builtin(x)
	case ast.CallLength:
		if cv := x.Value(); cv != nil {
			return l.constValue(x.Type(), cv)
		}
		if pl := l.place(x.Method); pl.t.IsArray() && pl.t.Len > 0 {
			// An implicitly sized array, sized now: by its largest constant
			// index, across the stage's units for a global (sharedGlobalType).
			return value{t: x.Type(), r: []ir.Reg{l.b.ConstI(int32(pl.t.Len))}}
		}
		return l.runtimeLength(x)
	}
	l.errorf(x.Pos(), "cannot lower call to %s", x.Name)
	return l.zero(x.Type())
}

// flatten concatenates the words of the arguments with their scalar bases.
func (l *lowerer) flatten(args []ast.Expr) ([]ir.Reg, []ast.Basic) {
	var regs []ir.Reg
	var bases []ast.Basic
	for _, a := range args {
		v := l.expr(a)
		regs = append(regs, v.r...)
		bases = append(bases, ast.WordBases(v.t)...)
	}
	return regs, bases
}

// construct lowers a constructor. spec: GLSL 4.50 §5.4.
func (l *lowerer) construct(x *ast.Call) value {
	t := x.CtorType
	if t == nil {
		t = x.Type()
	}
	switch t.Kind {
	case ast.KindStruct, ast.KindArray:
		regs, _ := l.flatten(x.Args)
		return value{t: t, r: regs}
	case ast.KindMatrix:
		if len(x.Args) == 1 {
			a := l.expr(x.Args[0])
			switch {
			case a.t.IsScalar():
				d := l.conv1(a.r[0], a.t.Base, ast.Float)
				z := l.b.ConstF(0)
				out := value{t: t, r: make([]ir.Reg, t.Rows*t.Cols)}
				for c := 0; c < t.Cols; c++ {
					for r := 0; r < t.Rows; r++ {
						if r == c {
							out.r[c*t.Rows+r] = d
						} else {
							out.r[c*t.Rows+r] = z
						}
					}
				}
				return out
			case a.t.IsMatrix():
				z, o := l.b.ConstF(0), l.b.ConstF(1)
				out := value{t: t, r: make([]ir.Reg, t.Rows*t.Cols)}
				for c := 0; c < t.Cols; c++ {
					for r := 0; r < t.Rows; r++ {
						switch {
						case c < a.t.Cols && r < a.t.Rows:
							out.r[c*t.Rows+r] = a.r[c*a.t.Rows+r]
						case r == c:
							out.r[c*t.Rows+r] = o
						default:
							out.r[c*t.Rows+r] = z
						}
					}
				}
				return out
			}
		}
	}
	// Scalars and vectors (and matrices from components): consume words in order,
	// converting each; a single scalar fills a vector.
	regs, bases := l.flatten(x.Args)
	n := t.Components()
	out := value{t: t, r: make([]ir.Reg, n)}
	if len(regs) == 1 && n > 1 {
		c := l.conv1(regs[0], bases[0], t.Base)
		for i := range out.r {
			out.r[i] = c
		}
		return out
	}
	for i := 0; i < n && i < len(regs); i++ {
		out.r[i] = l.conv1(regs[i], bases[i], t.Base)
	}
	for i := len(regs); i < n; i++ {
		out.r[i] = l.b.Const(irType(t.Base), 0)
	}
	return out
}

// samplerOf resolves a sampler-typed expression (a sampler variable, an element of
// a sampler array, a sampler member of a struct, or a sampler parameter) to its
// binding index. Indices must be constant.
func (l *lowerer) samplerOf(e ast.Expr) (int, bool) {
	pl := l.place(e)
	if pl.st == nil || len(pl.dyn) > 0 {
		l.errorf(e.Pos(), "sampler arrays may only be indexed with constant expressions here")
		return 0, false
	}
	if b, ok := pl.st.leafBinding(pl.off); ok {
		return b, true
	}
	l.errorf(e.Pos(), "cannot resolve the sampler")
	return 0, false
}

// userCall calls a user function: in and inout arguments are copied into the
// callee's parameter registers, out and inout parameters are copied back to the
// argument l-values after the call (GLSL's copy-in/copy-out).
func (l *lowerer) userCall(x *ast.Call) value {
	// A prototype's definition may live in another compilation unit, with its own
	// *ast.Func and parameter variables: work with the defining Func.
	f := x.Func
	if d := l.sp.Def(f); d != nil && d.Func != nil {
		f = d.Func
	}
	key := funcKey{f: f}
	var samps []int
	type outArg struct {
		pl    place
		param *ast.Var
	}
	var outs []outArg
	var ins []value
	for i, pv := range f.Params {
		if i >= len(x.Args) {
			break
		}
		a := x.Args[i]
		if pv.Type.ContainsSampler() {
			// Every sampler of the argument, by flattened offset, picks the
			// function's specialisation; a struct's data words are copied in.
			pl := l.place(a)
			for _, lf := range samplerLeaves(pv.Name, pv.Type) {
				b := 0
				if pl.st != nil && len(pl.dyn) == 0 {
					if bb, ok := pl.st.leafBinding(pl.off + lf.off); ok {
						b = bb
					} else {
						l.errorf(a.Pos(), "cannot resolve the sampler")
					}
				} else {
					l.errorf(a.Pos(), "sampler arguments must be indexed with constant expressions")
				}
				samps = append(samps, b)
				key.samps += strconv.Itoa(b) + ","
			}
			if pureSampler(pv.Type) {
				ins = append(ins, value{})
			} else {
				ins = append(ins, l.read(pl, a.Pos()))
			}
			continue
		}
		switch pv.Param {
		case ast.StorageParamOut:
			outs = append(outs, outArg{pl: l.place(a), param: pv})
			ins = append(ins, value{})
		case ast.StorageParamInOut:
			pl := l.place(a)
			outs = append(outs, outArg{pl: pl, param: pv})
			ins = append(ins, l.convertTo(l.read(pl, a.Pos()), pv.Type))
		default:
			ins = append(ins, l.convertTo(l.expr(a), pv.Type))
		}
	}
	idx, ret := l.funcInstance(f, key, samps)
	for i, pv := range f.Params {
		if i >= len(ins) || ins[i].r == nil {
			continue
		}
		st := l.storageOf(pv)
		if ps := l.paramSt[key][pv]; ps != nil {
			st = ps
		}
		for k, r := range ins[i].r {
			l.b.OpTo(ir.Mov, st.base+ir.Reg(k), r)
		}
	}
	l.b.Emit(ir.Inst{Op: ir.Call, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(idx)})
	for _, o := range outs {
		st := l.storageOf(o.param)
		l.store(o.pl, l.convertTo(l.read(l.whole(st), x.Pos()), o.pl.t))
	}
	out := value{t: x.Type(), r: make([]ir.Reg, len(ret))}
	for k, r := range ret {
		out.r[k] = l.b.Op(ir.Mov, l.p.Regs[r], r)
	}
	return out
}

// funcInstance returns the IR function for f specialised to the given sampler
// arguments, lowering it on first use, and its return registers.
func (l *lowerer) funcInstance(f *ast.Func, key funcKey, samps []int) (int, []ir.Reg) {
	def := l.sp.Def(f)
	if idx, ok := l.funcs[key]; ok {
		return idx, l.retRegs(f)
	}
	idx := len(l.p.Funcs)
	l.funcs[key] = idx
	l.p.Funcs = append(l.p.Funcs, ir.Func{Name: f.Name})
	ret := l.retRegs(f)
	if def == nil || def.Body == nil {
		l.errorf(f.DeclPos, "function '%s' is used but not defined", f.Name)
		return idx, ret
	}
	// Sampler parameters (and samplers inside struct parameters) resolve to the
	// caller's bindings.
	si := 0
	for _, pv := range f.Params {
		if !pv.Type.ContainsSampler() {
			continue
		}
		st := &storage{t: pv.Type, sampler: -1}
		if pureSampler(pv.Type) {
			st.isSamp = true
		} else {
			st.base = l.alloc(pv.Type)
		}
		for _, lf := range samplerLeaves(pv.Name, pv.Type) {
			st.leaves = append(st.leaves, lf.off)
			if si < len(samps) {
				st.leafBind = append(st.leafBind, samps[si])
			}
			si++
		}
		l.vars[pv] = st
		if l.paramSt[key] == nil {
			l.paramSt[key] = map[*ast.Var]*storage{}
		}
		l.paramSt[key][pv] = st
	}
	saved := l.fn
	l.fn = &fnState{ret: ret}
	var code []ir.Inst
	old := l.b.Into(&code)
	l.block(def.Body)
	l.b.Into(old)
	l.fn = saved
	l.p.Funcs[idx].Code = code
	// Another specialisation must not reuse these sampler bindings.
	for _, pv := range f.Params {
		if pv.Type.ContainsSampler() {
			delete(l.vars, pv)
		}
	}
	return idx, ret
}

// retRegs returns (allocating once per function) the return-value registers of f.
func (l *lowerer) retRegs(f *ast.Func) []ir.Reg {
	if f.Result == nil || f.Result.IsVoid() {
		return nil
	}
	if r, ok := l.rets[f]; ok {
		return r
	}
	r := regsOf(&storage{t: f.Result, base: l.alloc(f.Result)})
	l.rets[f] = r
	return r
}

func regsOf(st *storage) []ir.Reg {
	n := len(ast.WordBases(st.t))
	out := make([]ir.Reg, n)
	for k := range out {
		out[k] = st.base + ir.Reg(k)
	}
	return out
}

// convertTo converts v to t when their scalar bases differ (GLSL's implicit
// conversions of out and inout arguments, applied on copy-out).
func (l *lowerer) convertTo(v value, t *ast.Type) value {
	if v.t == nil || t == nil || !v.t.IsNumeric() || !t.IsNumeric() || v.t.Base == t.Base {
		return v
	}
	return l.convert(v, t)
}
