package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// opaqueOf returns the image or counter uniform an argument names.
func (l *lowerer) opaqueOf(e ast.Expr) *opaqueVar {
	if id, ok := e.(*ast.Ident); ok && id.Var != nil {
		if o := l.opaque[id.Var]; o != nil {
			return o
		}
		if l.stage == ast.StageGeometry {
			l.storageOf(id.Var) // reports the unsupported stage
			return nil
		}
	}
	l.errorf(e.Pos(), "images and atomic counters must be named by their uniform (not passed as parameters)")
	return nil
}

// counterOp lowers atomicCounterIncrement (returns the old value),
// atomicCounterDecrement (returns the new value), atomicCounter and
// ARB_shader_atomic_counter_ops' functions (each returns the old value;
// subtract is an add of the two's complement, min and max are unsigned).
// spec: GLSL 4.50 §8.10, ARB_shader_atomic_counter_ops.
func (l *lowerer) counterOp(x *ast.Call) value {
	arg, idx := x.Args[0], ast.Expr(nil)
	if ix, ok := arg.(*ast.Index); ok {
		arg, idx = ix.X, ix.Index // an element of an array of counters
	}
	o := l.opaqueOf(arg)
	if o == nil || !o.counter {
		return l.zero(x.Type())
	}
	mv := &memVar{space: ir.SpaceCounter, bind: o.bind}
	addr := l.b.ConstU(o.off)
	if idx != nil {
		i := l.b.Op(ir.Cast, ir.U32, l.clampIndex(l.expr(idx).r[0], o.count))
		addr = l.b.Op(ir.UAdd, ir.U32, addr, l.b.Op(ir.UMul, ir.U32, i, l.b.ConstU(4)))
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
	o := l.opaqueOf(x.Args[0])
	if o == nil || o.image < 0 {
		return l.zero(x.Type())
	}
	ib := l.p.Images[o.image]
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
