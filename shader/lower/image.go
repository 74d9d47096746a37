package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// opaqueOf returns the image or counter uniform an argument names, and the
// element of an array (of arrays) of them it selects: its row-major number k
// when every index is constant (dyn NoReg), else the int register dyn holding
// it. Each index is clamped to its dimension, as any array index.
func (l *lowerer) opaqueOf(e ast.Expr) (o *opaqueVar, k int, dyn ir.Reg) {
	o, k, dyn, _ = l.opaqueSel(e)
	return o, k, dyn
}

// opaqueSel is opaqueOf, also listing the elements a run-time index can
// select (opaqueCandidates).
func (l *lowerer) opaqueSel(e ast.Expr) (o *opaqueVar, k int, dyn ir.Reg, cands []int) {
	var idx []ast.Expr // innermost first
	root := e
	for {
		ix, ok := root.(*ast.Index)
		if !ok {
			break
		}
		idx, root = append(idx, ix.Index), ix.X
	}
	if id, ok := root.(*ast.Ident); ok && id.Var != nil {
		if o := l.opaque[id.Var]; o != nil && len(idx) <= len(o.dims) {
			k, dyn := l.opaqueElement(o, idx)
			return o, k, dyn, opaqueCandidates(o, idx)
		}
		if l.stage == ast.StageGeometry {
			l.storageOf(id.Var) // reports the unsupported stage
			return nil, 0, ir.NoReg, nil
		}
	}
	l.errorf(e.Pos(), "images and atomic counters must be named by their uniform (not passed as parameters)")
	return nil, 0, ir.NoReg, nil
}

// opaqueElement folds the indices (innermost first) of an element of o into its
// row-major number (see opaqueOf).
func (l *lowerer) opaqueElement(o *opaqueVar, idx []ast.Expr) (int, ir.Reg) {
	k, dyn, stride := 0, ir.NoReg, 1
	for d := len(o.dims) - 1; d >= 0; d-- {
		if i := len(o.dims) - 1 - d; i < len(idx) {
			n := o.dims[d]
			if cv := idx[i].Value(); cv != nil {
				c := int(cv.Int(0))
				if idx[i].Type().Base == ast.Uint {
					c = int(min(cv.Uint(0), uint32(n-1)))
				}
				k += min(max(c, 0), n-1) * stride
			} else {
				dyn = l.addScaledIndex(dyn, l.clampIndex(l.expr(idx[i]).r[0], n), stride)
			}
		}
		stride *= o.dims[d]
	}
	if dyn != ir.NoReg && k != 0 {
		dyn = l.b.Op(ir.IAdd, ir.I32, dyn, l.b.ConstI(int32(k)))
	}
	return k, dyn
}

// opaqueCandidates lists the elements of o the indices (innermost first) can
// select: every index of a dimension indexed at run time, the one a constant
// names (clamped), all of a dimension left unindexed.
func opaqueCandidates(o *opaqueVar, idx []ast.Expr) []int {
	cands := []int{0}
	for d, n := range o.dims {
		var next []int
		i := len(o.dims) - 1 - d
		for _, c := range cands {
			for e := 0; e < n; e++ {
				if i < len(idx) {
					if cv := idx[i].Value(); cv != nil {
						k := int(cv.Int(0))
						if idx[i].Type().Base == ast.Uint {
							k = int(min(cv.Uint(0), uint32(n-1)))
						}
						if e != min(max(k, 0), n-1) {
							continue
						}
					}
				}
				next = append(next, c*n+e)
			}
		}
		cands = next
	}
	return cands
}

// counterOp lowers atomicCounterIncrement (returns the old value),
// atomicCounterDecrement (returns the new value), atomicCounter and
// ARB_shader_atomic_counter_ops' functions (each returns the old value;
// subtract is an add of the two's complement, min and max are unsigned).
// spec: GLSL 4.50 §8.10, ARB_shader_atomic_counter_ops.
func (l *lowerer) counterOp(x *ast.Call) value {
	o, k, dyn := l.opaqueOf(x.Args[0])
	if o == nil || !o.counter {
		return l.zero(x.Type())
	}
	mv := &memVar{space: ir.SpaceCounter, bind: o.bind}
	// An element of an array of counters: consecutive words.
	addr := l.b.ConstU(o.off + 4*uint32(k))
	if dyn != ir.NoReg {
		i := l.b.Op(ir.Cast, ir.U32, dyn)
		addr = l.b.Op(ir.UAdd, ir.U32, l.b.ConstU(o.off), l.b.Op(ir.UMul, ir.U32, i, l.b.ConstU(4)))
	}
	d := l.b.Reg(ir.U32)
	if op, ok := counterAtomicOp(x.Builtin); ok {
		data := l.expr(x.Args[1]).r[0]
		if x.Builtin == ast.FnAtomicCounterSubtract {
			data = l.b.Op(ir.USub, ir.U32, l.b.ConstU(0), data)
		}
		cmp := data
		if x.Builtin == ast.FnAtomicCounterCompSwap {
			// atomicCounterCompSwapARB(c, compare, data), operands as
			// atomicCompSwap's lowering passes them (value, comparand).
			cmp, data = data, l.expr(x.Args[2]).r[0]
		}
		l.b.Emit(ir.Inst{Op: ir.MemAtomic, Dst: d, Src: [4]ir.Reg{addr, data, cmp, ir.NoReg}, Imm: o.bind, Len: uint32(ir.SpaceCounter), Stride: uint32(op)})
		return value{t: x.Type(), r: []ir.Reg{d}}
	}
	switch x.Builtin {
	case ast.FnAtomicCounter:
		l.memInst(ir.MemLoad, d, mv, addr)
	default:
		one := l.b.ConstU(1)
		if x.Builtin == ast.FnAtomicCounterDecrement {
			one = l.b.ConstU(^uint32(0))
		}
		l.b.Emit(ir.Inst{Op: ir.MemAtomic, Dst: d, Src: [4]ir.Reg{addr, one, one, ir.NoReg}, Imm: o.bind, Len: uint32(ir.SpaceCounter), Stride: uint32(ir.AtomicAdd)})
		if x.Builtin == ast.FnAtomicCounterDecrement {
			d = l.b.Op(ir.USub, ir.U32, d, l.b.ConstU(1))
		}
	}
	return value{t: x.Type(), r: []ir.Reg{d}}
}

// counterAtomicOp maps ARB_shader_atomic_counter_ops' functions to IR atomic
// operations (counters are unsigned).
func counterAtomicOp(fn ast.Builtin) (ir.AtomicOp, bool) {
	switch fn {
	case ast.FnAtomicCounterAdd, ast.FnAtomicCounterSubtract:
		return ir.AtomicAdd, true
	case ast.FnAtomicCounterMin:
		return ir.AtomicUMin, true
	case ast.FnAtomicCounterMax:
		return ir.AtomicUMax, true
	case ast.FnAtomicCounterAnd:
		return ir.AtomicAnd, true
	case ast.FnAtomicCounterOr:
		return ir.AtomicOr, true
	case ast.FnAtomicCounterXor:
		return ir.AtomicXor, true
	case ast.FnAtomicCounterExchange:
		return ir.AtomicExchange, true
	case ast.FnAtomicCounterCompSwap:
		return ir.AtomicCompSwap, true
	}
	return 0, false
}

// imageOp lowers imageLoad, imageStore, imageSize and imageAtomic*. The texel
// address is computed here from the image's extent: a coordinate outside the image
// gives an address past its end, which the executor treats as out of bounds (loads
// read zero words, stores and atomics are dropped). Formats convert here, so the
// memory holds the texels exactly as the format defines them. spec: GLSL 4.50
// §8.12; vortexpipe-driver §2.5 (VP_DESC_IMAGE: base and row stride).
func (l *lowerer) imageOp(x *ast.Call) value {
	o, k, dyn, cands := l.opaqueSel(x.Args[0])
	if o == nil || o.image < 0 {
		return l.zero(x.Type())
	}
	if dyn == ir.NoReg {
		return l.imageOpOn(x, l.p.Images[o.image+k])
	}
	// An element of an array of images selected at run time: a branch per
	// element the indices can select, each on its own binding.
	out := l.zero(x.Type())
	for _, e := range cands {
		l.b.Ctl(ir.If, l.b.Op(ir.Eq, ir.Bool, dyn, l.b.ConstI(int32(e))))
		v := l.imageOpOn(x, l.p.Images[o.image+e])
		for i, r := range v.r {
			l.b.OpTo(ir.Mov, out.r[i], r)
		}
		l.b.Ctl(ir.EndIf)
	}
	return out
}

// imageOpOn lowers the image function x on image ib.
func (l *lowerer) imageOpOn(x *ast.Call, ib ir.ImageBinding) value {
	mv := &memVar{space: ir.SpaceImage, bind: ib.Binding}
	ext := func(k uint32) ir.Reg {
		d := l.b.Reg(ir.I32)
		l.b.Emit(ir.Inst{Op: ir.ImageExtent, Dst: d, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: ib.Binding, Stride: k})
		return d
	}
	nc := ib.Dim.Coords()
	if x.Builtin == ast.FnImageSize {
		out := value{t: x.Type()}
		for k := 0; k < nc; k++ {
			out.r = append(out.r, ext(uint32(k)))
		}
		return out
	}
	coord := l.expr(x.Args[1]).r
	var inb, idx ir.Reg
	for k := nc - 1; k >= 0; k-- {
		e := l.b.Op(ir.Cast, ir.U32, ext(uint32(k)))
		c := l.b.Op(ir.Cast, ir.U32, coord[k])
		ok := l.b.Op(ir.ULt, ir.Bool, c, e)
		if k == nc-1 {
			inb, idx = ok, c
		} else {
			inb = l.b.Op(ir.BAnd, ir.Bool, inb, ok)
			idx = l.b.Op(ir.UAdd, ir.U32, l.b.Op(ir.UMul, ir.U32, idx, e), c)
		}
	}
	var base ir.Reg
	texel := func(f ir.ImageFormat) {
		base = l.b.Op(ir.UMul, ir.U32, idx, l.b.ConstU(f.TexelBytes()))
		// Out of the image: an address no image reaches, even plus 12.
		base = l.b.Op(ir.Select, ir.U32, inb, base, l.b.ConstU(^uint32(15)))
	}
	word := func(w uint32) ir.Reg {
		if w == 0 {
			return base
		}
		return l.b.Op(ir.UAdd, ir.U32, base, l.b.ConstU(4*w))
	}
	if ib.Format == ir.FormatUnknown {
		if x.Builtin != ast.FnImageStore {
			l.errorf(x.Pos(), "'%s' needs an image with a format qualifier", x.Name)
			return l.zero(x.Type())
		}
		// Formatless store: branch on the bound image's format.
		v := l.expr(x.Args[2]).r
		fr := l.b.Reg(ir.U32)
		l.b.Emit(ir.Inst{Op: ir.ImageFormatOf, Dst: fr, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: ib.Binding})
		want := irType(x.Args[0].Type().Sampler.Base)
		for _, f := range ir.Formats() {
			if f.Result() != want {
				continue
			}
			l.b.Ctl(ir.If, l.b.Op(ir.Eq, ir.Bool, fr, l.b.ConstU(uint32(f))))
			texel(f)
			l.imageStore(f, mv, word, v)
			l.b.Ctl(ir.EndIf)
		}
		return value{t: x.Type()}
	}
	texel(ib.Format)
	rt := ib.Format.Result()
	switch x.Builtin {
	case ast.FnImageLoad:
		out := value{t: x.Type(), r: make([]ir.Reg, 4)}
		load := func(w uint32, t ir.Type) ir.Reg {
			d := l.b.Reg(t)
			l.memInst(ir.MemLoad, d, mv, word(w))
			return d
		}
		switch ib.Format {
		case ir.FormatRGBA32F, ir.FormatRGBA32UI, ir.FormatRGBA32I:
			for k := range out.r {
				out.r[k] = load(uint32(k), rt)
			}
		case ir.FormatR32F, ir.FormatR32UI, ir.FormatR32I:
			out.r[0] = load(0, rt)
			out.r[1], out.r[2] = l.b.Const(rt, 0), l.b.Const(rt, 0)
			out.r[3] = l.b.Const(rt, 1)
			if rt == ir.F32 {
				out.r[3] = l.b.ConstF(1)
			}
		case ir.FormatRGBA8:
			w := load(0, ir.U32)
			for k := range out.r {
				out.r[k] = l.b.Imm(ir.UnpackUnorm4x8, l.b.Reg(ir.F32), uint32(k), w)
			}
		case ir.FormatRGBA16F:
			w0, w1 := load(0, ir.U32), load(1, ir.U32)
			for k := range out.r {
				out.r[k] = l.b.Imm(ir.UnpackHalf2x16, l.b.Reg(ir.F32), uint32(k%2), [2]ir.Reg{w0, w1}[k/2])
			}
		}
		return out
	case ast.FnImageStore:
		l.imageStore(ib.Format, mv, word, l.expr(x.Args[2]).r)
		return value{t: x.Type()}
	}
	op, _ := atomicOp(x.Builtin, rt == ir.I32)
	val := l.expr(x.Args[2]).r[0]
	cmp := val
	if op == ir.AtomicCompSwap {
		cmp, val = val, l.expr(x.Args[3]).r[0]
	}
	d := l.b.Reg(rt)
	l.b.Emit(ir.Inst{Op: ir.MemAtomic, Dst: d, Src: [4]ir.Reg{base, val, cmp, ir.NoReg}, Imm: ib.Binding, Len: uint32(ir.SpaceImage), Stride: uint32(op)})
	return value{t: x.Type(), r: []ir.Reg{d}}
}

// imageStore converts the texel v to format f and stores its words (word(w) is
// the address of texel word w).
func (l *lowerer) imageStore(f ir.ImageFormat, mv *memVar, word func(uint32) ir.Reg, v []ir.Reg) {
	store := func(w uint32, r ir.Reg) { l.memInst(ir.MemStore, ir.NoReg, mv, word(w), r) }
	switch f {
	case ir.FormatRGBA32F, ir.FormatRGBA32UI, ir.FormatRGBA32I:
		for k, r := range v {
			store(uint32(k), r)
		}
	case ir.FormatR32F, ir.FormatR32UI, ir.FormatR32I:
		store(0, v[0])
	case ir.FormatRGBA8:
		store(0, l.b.Op(ir.PackUnorm4x8, ir.U32, v[0], v[1], v[2], v[3]))
	case ir.FormatRGBA16F:
		store(0, l.b.Op(ir.PackHalf2x16, ir.U32, v[0], v[1]))
		store(1, l.b.Op(ir.PackHalf2x16, ir.U32, v[2], v[3]))
	}
}
