package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// texForm describes a texture built-in's argument list after the sampler and P.
type texForm struct {
	op     ir.TexOp
	proj   bool
	lod    bool
	grad   bool
	offset bool
	shadow bool // legacy shadow*: the reference is in P
	// offsets: textureGatherOffsets' constant ivec2[4]
	offsets bool
}

var texForms = map[ast.Builtin]texForm{
	ast.FnTexture:               {op: ir.TexSample},
	ast.FnTextureProj:           {op: ir.TexSample, proj: true},
	ast.FnTextureLod:            {op: ir.TexSampleLod, lod: true},
	ast.FnTextureOffset:         {op: ir.TexSample, offset: true},
	ast.FnTexelFetch:            {op: ir.TexFetch, lod: true},
	ast.FnTexelFetchOffset:      {op: ir.TexFetch, lod: true, offset: true},
	ast.FnTextureProjOffset:     {op: ir.TexSample, proj: true, offset: true},
	ast.FnTextureLodOffset:      {op: ir.TexSampleLod, lod: true, offset: true},
	ast.FnTextureProjLod:        {op: ir.TexSampleLod, proj: true, lod: true},
	ast.FnTextureProjLodOffset:  {op: ir.TexSampleLod, proj: true, lod: true, offset: true},
	ast.FnTextureGrad:           {op: ir.TexSampleGrad, grad: true},
	ast.FnTextureGradOffset:     {op: ir.TexSampleGrad, grad: true, offset: true},
	ast.FnTextureProjGrad:       {op: ir.TexSampleGrad, proj: true, grad: true},
	ast.FnTextureProjGradOffset: {op: ir.TexSampleGrad, proj: true, grad: true, offset: true},
	ast.FnTextureGather:         {op: ir.TexGather},
	ast.FnTextureGatherOffset:   {op: ir.TexGather, offset: true},
	ast.FnTextureGatherOffsets:  {op: ir.TexGather, offsets: true},
	ast.FnTextureQueryLod:       {op: ir.TexQueryLod},
	ast.FnTextureQueryLOD:       {op: ir.TexQueryLod},
	ast.FnTextureSize:           {op: ir.TexSize},
	ast.FnTextureQueryLevels:    {op: ir.TexQueryLevels},
	ast.FnTexture1D:             {op: ir.TexSample},
	ast.FnTexture1DProj:         {op: ir.TexSample, proj: true},
	ast.FnTexture1DLod:          {op: ir.TexSampleLod, lod: true},
	ast.FnTexture1DProjLod:      {op: ir.TexSampleLod, proj: true, lod: true},
	ast.FnTexture2D:             {op: ir.TexSample},
	ast.FnTexture2DProj:         {op: ir.TexSample, proj: true},
	ast.FnTexture2DLod:          {op: ir.TexSampleLod, lod: true},
	ast.FnTexture2DProjLod:      {op: ir.TexSampleLod, proj: true, lod: true},
	ast.FnTexture3D:             {op: ir.TexSample},
	ast.FnTexture3DProj:         {op: ir.TexSample, proj: true},
	ast.FnTexture3DLod:          {op: ir.TexSampleLod, lod: true},
	ast.FnTexture3DProjLod:      {op: ir.TexSampleLod, proj: true, lod: true},
	ast.FnTextureCube:           {op: ir.TexSample},
	ast.FnTextureCubeLod:        {op: ir.TexSampleLod, lod: true},
	ast.FnShadow1D:              {op: ir.TexSample, shadow: true},
	ast.FnShadow2D:              {op: ir.TexSample, shadow: true},
	ast.FnShadow1DProj:          {op: ir.TexSample, proj: true, shadow: true},
	ast.FnShadow2DProj:          {op: ir.TexSample, proj: true, shadow: true},
	ast.FnShadow1DLod:           {op: ir.TexSampleLod, lod: true, shadow: true},
	ast.FnShadow2DLod:           {op: ir.TexSampleLod, lod: true, shadow: true},
	ast.FnShadow1DProjLod:       {op: ir.TexSampleLod, proj: true, lod: true, shadow: true},
	ast.FnShadow2DProjLod:       {op: ir.TexSampleLod, proj: true, lod: true, shadow: true},
	ast.FnTexture2DRect:         {op: ir.TexSample},
	ast.FnTexture2DRectProj:     {op: ir.TexSample, proj: true},
	ast.FnShadow2DRect:          {op: ir.TexSample, shadow: true},
	ast.FnShadow2DRectProj:      {op: ir.TexSample, proj: true, shadow: true},
	// GL_EXT_texture_array and GL_ARB_shader_texture_lod.
	ast.FnTexture1DArray:           {op: ir.TexSample},
	ast.FnTexture2DArray:           {op: ir.TexSample},
	ast.FnTexture1DArrayLod:        {op: ir.TexSampleLod, lod: true},
	ast.FnTexture2DArrayLod:        {op: ir.TexSampleLod, lod: true},
	ast.FnShadow1DArray:            {op: ir.TexSample, shadow: true},
	ast.FnShadow2DArray:            {op: ir.TexSample, shadow: true},
	ast.FnShadow1DArrayLod:         {op: ir.TexSampleLod, lod: true, shadow: true},
	ast.FnTexture1DGradARB:         {op: ir.TexSampleGrad, grad: true},
	ast.FnTexture1DProjGradARB:     {op: ir.TexSampleGrad, proj: true, grad: true},
	ast.FnTexture2DGradARB:         {op: ir.TexSampleGrad, grad: true},
	ast.FnTexture2DProjGradARB:     {op: ir.TexSampleGrad, proj: true, grad: true},
	ast.FnTexture3DGradARB:         {op: ir.TexSampleGrad, grad: true},
	ast.FnTexture3DProjGradARB:     {op: ir.TexSampleGrad, proj: true, grad: true},
	ast.FnTextureCubeGradARB:       {op: ir.TexSampleGrad, grad: true},
	ast.FnShadow1DGradARB:          {op: ir.TexSampleGrad, grad: true, shadow: true},
	ast.FnShadow1DProjGradARB:      {op: ir.TexSampleGrad, proj: true, grad: true, shadow: true},
	ast.FnShadow2DGradARB:          {op: ir.TexSampleGrad, grad: true, shadow: true},
	ast.FnShadow2DProjGradARB:      {op: ir.TexSampleGrad, proj: true, grad: true, shadow: true},
	ast.FnTexture2DRectGradARB:     {op: ir.TexSampleGrad, grad: true},
	ast.FnTexture2DRectProjGradARB: {op: ir.TexSampleGrad, proj: true, grad: true},
	ast.FnShadow2DRectGradARB:      {op: ir.TexSampleGrad, grad: true, shadow: true},
	ast.FnShadow2DRectProjGradARB:  {op: ir.TexSampleGrad, proj: true, grad: true, shadow: true},
}

func isTexture(fn ast.Builtin) bool {
	_, ok := texForms[fn]
	return ok
}

// texture lowers a texture built-in to one Tex instruction. spec: GLSL 4.50 §8.9;
// vortexpipe-driver §2.3.2 (sample, lod, grad, fetch, size, gather).
func (l *lowerer) texture(x *ast.Call) value {
	form := texForms[x.Builtin]
	rt := x.Type()
	n := rt.Components()
	st := x.Args[0].Type().Sampler
	kind, ok := samplerKind(st)
	choices, selIdx, ok2 := l.samplerChoices(x.Args[0])
	sidx := 0
	if ok2 {
		sidx = choices[0]
	}
	if !ok || !ok2 {
		if !ok {
			l.errorf(x.Pos(), "%s samplers are not supported", st)
		}
		return l.zero(rt)
	}
	no := ir.NoReg
	ti := ir.TexInfo{Op: form.op, Sampler: sidx, Lod: no, Bias: no, Compare: no,
		Dst: [4]ir.Reg{no, no, no, no}, Coord: [4]ir.Reg{no, no, no, no},
		DPdx: [3]ir.Reg{no, no, no}, DPdy: [3]ir.Reg{no, no, no}}
	args := x.Args
	i := 1
	var p value
	if form.op != ir.TexSize && form.op != ir.TexQueryLevels {
		p = l.expr(args[1])
		i = 2
	}
	if form.lod && i < len(args) {
		ti.Lod = l.expr(args[i]).r[0]
		i++
	}
	if form.op == ir.TexSize && i < len(args) {
		ti.Lod = l.expr(args[i]).r[0]
		i++
	}
	if form.grad {
		dx, dy := l.expr(args[i]), l.expr(args[i+1])
		for k := 0; k < len(dx.r) && k < 3; k++ {
			ti.DPdx[k], ti.DPdy[k] = dx.r[k], dy.r[k]
		}
		i += 2
	}
	gatherRef := ir.NoReg
	if form.op == ir.TexGather && kind.Shadow() && (form.offset || form.offsets) && i+1 < len(args) {
		// The shadow gathers take the reference before the offsets:
		// textureGatherOffset(s, P, refZ, offset). spec: GLSL 4.00 §8.7
		gatherRef = l.expr(args[i]).r[0]
		i++
	}
	if form.offset {
		cv := args[i].Value()
		if cv == nil && form.op == ir.TexGather {
			// A run-time offset (the checker allows it for gathers under
			// ARB_gpu_shader5 / GLSL 4.00): one per lane.
			// spec: ARB_gpu_shader5 §8.7 (textureGatherOffset)
			off := l.expr(args[i])
			if len(off.r) >= 2 {
				ti.DynOffset = [2]ir.Reg{off.r[0], off.r[1]}
				ti.HasDynOffset = true
			}
		} else if cv == nil {
			l.errorf(args[i].Pos(), "texture offset must be a constant expression")
		} else {
			for k := 0; k < len(cv.Words) && k < 3; k++ {
				ti.Offset[k] = int32(cv.Words[k])
			}
			ti.HasOffset = true
		}
		i++
	}
	if form.offsets {
		// spec: GLSL 4.50 §8.9.4: the offsets must be a constant ivec2[4].
		cv := args[i].Value()
		if cv == nil || len(cv.Words) < 8 {
			l.errorf(args[i].Pos(), "textureGatherOffsets offsets must be a constant expression")
		} else {
			for k := 0; k < 4; k++ {
				ti.Offsets[k] = [2]int32{int32(cv.Words[2*k]), int32(cv.Words[2*k+1])}
			}
			ti.HasOffsets = true
		}
		i++
	}
	var trailing ir.Reg = ir.NoReg
	var trailingConst *ast.Value
	if i < len(args) {
		trailingConst = args[i].Value()
		trailing = l.expr(args[i]).r[0]
	}
	nc := kind.Coords()
	shadow := kind.Shadow() || form.shadow
	switch form.op {
	case ir.TexSize, ir.TexQueryLevels:
		ti.NCoord = 0
	case ir.TexQueryLod:
		ti.NCoord = min(kind.Dims(), len(p.r))
		copy(ti.Coord[:], p.r[:ti.NCoord])
	case ir.TexFetch:
		ti.NCoord = min(nc, len(p.r))
		copy(ti.Coord[:], p.r[:ti.NCoord])
	default:
		pr := p.r
		if form.proj {
			q := pr[len(pr)-1]
			div := make([]ir.Reg, len(pr)-1)
			for k := range div {
				div[k] = l.fop(ir.FDiv, pr[k], q)
			}
			pr = div
		}
		ti.NCoord = min(nc, len(pr))
		copy(ti.Coord[:], pr[:ti.NCoord])
		if shadow && form.op != ir.TexGather && kind != ir.SamplerCubeArrayShadow {
			// The reference follows the coordinates in P: (s, unused, ref) for
			// the legacy 1D forms, (s, layer, ref) for 1D arrays, (s, t, ref)
			// for 2D and rectangles, (s, t, layer, ref) and (x, y, z, ref).
			ref := 2
			if kind == ir.SamplerCubeShadow || kind == ir.Sampler2DArrayShadow {
				ref = 3
			}
			if ref < len(pr) {
				ti.Compare = pr[ref]
			}
		}
	}
	switch {
	case form.op == ir.TexGather && kind.Shadow() && gatherRef != ir.NoReg:
		ti.Compare = gatherRef
	case form.op == ir.TexGather && kind.Shadow():
		ti.Compare = trailing
	case kind == ir.SamplerCubeArrayShadow && form.op != ir.TexSize && form.op != ir.TexQueryLevels && form.op != ir.TexQueryLod:
		// texture(samplerCubeArrayShadow, vec4 P, float compare): the
		// reference is its own argument. spec: GLSL 4.50 §8.9.2.
		ti.Compare = trailing
	case form.op == ir.TexGather && trailingConst != nil:
		ti.Comp = min(max(int(trailingConst.Int(0)), 0), 3)
	case trailing != ir.NoReg && (form.op == ir.TexSample):
		ti.Bias = trailing
	}
	if l.stage != ast.StageFragment && form.op == ir.TexSample && ti.Bias != ir.NoReg {
		// GLSL has no bias in vertex shaders (implicit LOD is the base level).
		ti.Bias = ir.NoReg
	}
	// Result registers.
	res := l.p.Samplers[sidx].Result
	switch {
	case form.op == ir.TexSize || form.op == ir.TexQueryLevels:
		res = ir.I32
	case form.op == ir.TexQueryLod || shadow && form.op != ir.TexFetch:
		res = ir.F32
	}
	out := value{t: rt, r: make([]ir.Reg, n)}
	for k := 0; k < n && k < 4; k++ {
		out.r[k] = l.b.Reg(res)
		ti.Dst[k] = out.r[k]
	}
	if selIdx == ir.NoReg {
		l.p.Tex = append(l.p.Tex, ti)
		l.b.Emit(ir.Inst{Op: ir.Tex, Dst: ir.NoReg, Src: [4]ir.Reg{no, no, no, no}, Imm: uint32(len(l.p.Tex) - 1)})
	} else {
		// A sampler array indexed at run time (GLSL 1.10/1.20 allow it): one
		// texture instruction per element, each under the lanes that chose it.
		for k, b := range choices {
			l.b.Ctl(ir.If, l.b.Op(ir.Eq, ir.Bool, selIdx, l.b.ConstI(int32(k))))
			tk := ti
			tk.Sampler = b
			l.p.Tex = append(l.p.Tex, tk)
			l.b.Emit(ir.Inst{Op: ir.Tex, Dst: ir.NoReg, Src: [4]ir.Reg{no, no, no, no}, Imm: uint32(len(l.p.Tex) - 1)})
			l.b.Ctl(ir.EndIf)
		}
	}
	if rt.Base != ast.Float && rt.Base != ast.BasicNone && irType(rt.Base) != res {
		// The checker's result type wins (e.g. an int texel read as declared).
		for k := range out.r {
			out.r[k] = l.b.Op(ir.Cast, irType(rt.Base), out.r[k])
		}
	}
	return out
}

// samplerChoices resolves a texture call's sampler argument: one binding, or, for
// a sampler reached through arrays indexed with run-time values (an array of
// samplers, an array of structs holding samplers, arrays of arrays; GLSL
// 1.10/1.20 and ARB_gpu_shader5 / GLSL 4.00 allow it), every reachable
// element's binding and the register that selects among them: the clamped
// indices combined in mixed radix, first index most significant.
// spec: ARB_gpu_shader5 §4.1.7 (dynamically uniform sampler array indexing)
func (l *lowerer) samplerChoices(e ast.Expr) ([]int, ir.Reg, bool) {
	pl := l.place(e)
	if pl.st == nil || len(pl.dyn) == 0 {
		b, ok := l.samplerOf(e)
		return []int{b}, ir.NoReg, ok
	}
	total := 1
	for _, d := range pl.dyn {
		total *= d.n
		if total > maxSamplerChoices {
			l.errorf(e.Pos(), "sampler indexed at run time selects among more than %d samplers", maxSamplerChoices)
			return nil, ir.NoReg, false
		}
	}
	bs := make([]int, 0, total)
	for k := range total {
		off, rest := pl.off, k
		for i := len(pl.dyn) - 1; i >= 0; i-- {
			d := pl.dyn[i]
			off += (rest % d.n) * d.stride
			rest /= d.n
		}
		b, found := pl.st.leafBinding(off)
		if !found {
			l.errorf(e.Pos(), "cannot resolve the sampler")
			return nil, ir.NoReg, false
		}
		bs = append(bs, b)
	}
	sel, mult := ir.NoReg, 1
	for i := len(pl.dyn) - 1; i >= 0; i-- {
		d := pl.dyn[i]
		sel = l.addScaledIndex(sel, l.clampIndex(d.idx, d.n), mult)
		mult *= d.n
	}
	return bs, sel, true
}

// maxSamplerChoices bounds the samplers one run-time indexed texture call may
// select among (one texture instruction is emitted per choice).
const maxSamplerChoices = 256
