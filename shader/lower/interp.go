package lower

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// The interpolation functions, lowered without renderer support beyond the
// per-sample input words: interpolateAtCentroid, interpolateAtSample and
// interpolateAtOffset re-evaluate an input at another point of the pixel
// from its value and its screen-space derivatives.
//
// A smooth input v is the quotient N/D of two functions affine in window
// space, N = v·q and D = q = gl_FragCoord.w (1/w_clip), so from the fine
// derivatives of N and D taken at the point P where the renderer evaluated
// v, its value at P + d is exactly (in real arithmetic)
//
//	v(P + d) = (N + N'·d) / (D + D'·d) = v + (N'·d − v·D'·d) / (D + D'·d)
//
// — the perspective-correct value, not a linear extrapolation; a
// noperspective input is affine itself, v + v'·d; a flat one is constant.
// The derivatives are taken once at the top of main, in uniform control
// flow, for every input the stage has (unused ones fall to dead-code
// elimination), so an interpolant indexed at run time or read under
// divergent control flow still finds its neighbours' values. With d = 0
// the result is v bit for bit (v + 0), so each function returns the input
// itself wherever it asks for the point the input was evaluated at (no
// multisampling: the pixel centre, sample 0 and a zero offset alike).
//
// P is gl_SamplePosition: calling any of the functions makes the stage read
// it, which makes the renderers shade per sample on a multisampled target
// (GL 4.6 §14.3.1.1, "sample shading" implied), every input then evaluated
// at the sample. So interpolateAtCentroid is the input as read (the sample
// is covered, so it lies inside the primitive and the pixel, which is what
// centroid asks; single-sampled, the centre); interpolateAtSample(v, i)
// moves to sample i of SamplePositionTable (i clamped to
// [0, gl_NumSamples−1]: out-of-range samples are undefined in GLSL);
// interpolateAtOffset(v, o) moves to the pixel centre plus o, at full float
// precision (no quantisation to GL_FRAGMENT_INTERPOLATION_OFFSET_BITS, as
// llvmpipe, and no clamp to [MIN, MAX]_FRAGMENT_INTERPOLATION_OFFSET: GLSL
// leaves offsets outside it undefined).
// spec: GLSL 4.00 §8.13 (GLSL 4.50 §8.13.2), ARB_gpu_shader5 §8.8,
// OES_shader_multisample_interpolation

// SamplePositionTable names the hidden fragment input interpolateAtSample
// reads: 4 uint words, the renderer's sample positions for the draw's
// sample count in 1/16 pixel from the pixel's lower corner, four bits each —
// words 0 and 1 the x of samples 0–7 and 8–15 (sample k at bit 4·(k mod
// 8)), words 2 and 3 their y. Single-sampled: sample 0 at (8, 8), the
// centre (words 8, 0, 8, 0).
const SamplePositionTable = "gl_SamplePositionTable"

// PackSamplePositions packs n sample positions (pos(k) in 1/16 pixel, each
// coordinate in [0, 15], n ≤ 16) into SamplePositionTable's words.
func PackSamplePositions(n int, pos func(k int) (x, y int)) [4]uint32 {
	var t [4]uint32
	for k := 0; k < n && k < 16; k++ {
		x, y := pos(k)
		sh := uint(4 * (k % 8))
		t[k/8] |= uint32(x&15) << sh
		t[2+k/8] |= uint32(y&15) << sh
	}
	return t
}

func isInterpolateAt(fn ast.Builtin) bool {
	return fn == ast.FnInterpolateAtCentroid || fn == ast.FnInterpolateAtSample || fn == ast.FnInterpolateAtOffset
}

// interpolationVars are the inputs the functions read, as synthetic
// built-ins for stageVars to add when the source names them not.
func interpolationVars() []*ast.Var {
	mk := func(name string, t *ast.Type) *ast.Var {
		return &ast.Var{Name: name, Type: t, Kind: ast.VarIn, Builtin: true, Used: true, ReadOnly: true, Location: -1, Binding: -1}
	}
	return []*ast.Var{mk("gl_FragCoord", ast.Vector(ast.Float, 4)), mk("gl_SamplePosition", ast.Vector(ast.Float, 2)),
		mk("gl_NumSamples", ast.Scalar(ast.Int)), mk(SamplePositionTable, ast.Array(ast.Scalar(ast.Uint), 4))}
}

// interpState is a stage's derivative shadows: for each interpolated input
// variable, registers laid out as the variable's holding the fine x and y
// derivatives of N (smooth) or v (noperspective) word by word.
type interpState struct {
	dx, dy         map[*ast.Var]*storage
	q, qx, qy      ir.Reg // gl_FragCoord.w and its derivatives
	pos, n, table  ir.Reg // gl_SamplePosition.x (y at +1), gl_NumSamples, the table's first word
	inputVariables map[*ast.Var]bool
}

// systemInputs are the fragment inputs the renderer fills per lane or per
// draw rather than interpolating: no interpolant.
var systemInputs = map[string]bool{"gl_FragCoord": true, "gl_FrontFacing": true, "gl_PointCoord": true,
	"gl_HelperInvocation": true, "gl_SampleID": true, "gl_SamplePosition": true, "gl_SampleMaskIn": true,
	"gl_NumSamples": true, SamplePositionTable: true, "gl_PrimitiveID": true}

// interpolationSetup takes the derivatives at the top of main when the
// fragment stage calls an interpolation function (its SamplePositionTable
// input exists).
func (l *lowerer) interpolationSetup() {
	if l.stage != ast.StageFragment {
		return
	}
	sys := map[string]*storage{}
	for _, v := range l.inVars {
		if v.Builtin && systemInputs[v.Name] {
			sys[v.Name] = l.vars[v]
		}
	}
	fc, sp, ns, tb := sys["gl_FragCoord"], sys["gl_SamplePosition"], sys["gl_NumSamples"], sys[SamplePositionTable]
	if tb == nil || fc == nil || sp == nil || ns == nil {
		return
	}
	b := l.b
	is := &interpState{dx: map[*ast.Var]*storage{}, dy: map[*ast.Var]*storage{}, inputVariables: map[*ast.Var]bool{},
		q: fc.base + 3, pos: sp.base, n: ns.base, table: tb.base}
	is.qx = b.Op(ir.DdxFine, ir.F32, is.q)
	is.qy = b.Op(ir.DdyFine, ir.F32, is.q)
	for _, v := range l.inVars {
		if v.Builtin && systemInputs[v.Name] {
			continue
		}
		is.inputVariables[v] = true
		if flat(v) {
			continue // constant over the primitive
		}
		st := l.vars[v]
		dx := &storage{t: st.t, base: l.alloc(st.t), sampler: -1}
		dy := &storage{t: st.t, base: l.alloc(st.t), sampler: -1}
		for k := range ast.WordBases(st.t) {
			w := st.base + ir.Reg(k)
			if !noPersp(v) {
				w = b.Op(ir.FMul, ir.F32, w, is.q)
			}
			b.OpTo(ir.DdxFine, dx.base+ir.Reg(k), w)
			b.OpTo(ir.DdyFine, dy.base+ir.Reg(k), w)
		}
		is.dx[v], is.dy[v] = dx, dy
	}
	l.interp = is
}

// interpolateAt lowers a call of one of the three functions (see above).
func (l *lowerer) interpolateAt(x *ast.Call, rt *ast.Type) value {
	arg := x.Args[0]
	root := ast.RootVar(arg)
	is := l.interp
	if is == nil || root == nil || !is.inputVariables[root] {
		l.errorf(arg.Pos(), "%s: the interpolant must be a fragment shader input variable, or an element, member or swizzle of one", x.Builtin)
		return l.zero(rt)
	}
	pl := l.place(arg)
	if pl.st != l.vars[root] {
		l.errorf(arg.Pos(), "%s: the interpolant must be a fragment shader input variable", x.Builtin)
		return l.zero(rt)
	}
	v := l.read(pl, arg.Pos())
	var d [2]ir.Reg
	switch x.Builtin {
	case ast.FnInterpolateAtCentroid:
		return v
	case ast.FnInterpolateAtSample:
		d = l.sampleDelta(l.expr(x.Args[1]).r[0])
	default:
		d = l.offsetDelta(l.expr(x.Args[1]).r)
	}
	sx := is.dx[root]
	if sx == nil {
		return v // flat: the same value everywhere in the primitive
	}
	b := l.b
	px, py := pl, pl
	px.st, py.st = sx, is.dy[root]
	ax, ay := l.read(px, arg.Pos()).r, l.read(py, arg.Pos()).r
	persp := !noPersp(root)
	var dq, den ir.Reg
	if persp {
		dq = b.Op(ir.FAdd, ir.F32, b.Op(ir.FMul, ir.F32, is.qx, d[0]), b.Op(ir.FMul, ir.F32, is.qy, d[1]))
		den = b.Op(ir.FAdd, ir.F32, is.q, dq)
	}
	out := value{t: v.t, r: make([]ir.Reg, len(v.r))}
	for c, vc := range v.r {
		num := b.Op(ir.FAdd, ir.F32, b.Op(ir.FMul, ir.F32, ax[c], d[0]), b.Op(ir.FMul, ir.F32, ay[c], d[1]))
		if persp {
			num = b.Op(ir.FDiv, ir.F32, b.Op(ir.FSub, ir.F32, num, b.Op(ir.FMul, ir.F32, vc, dq)), den)
		}
		out.r[c] = b.Op(ir.FAdd, ir.F32, vc, num)
	}
	return out
}

// sampleDelta is the move from gl_SamplePosition to sample j of the table
// (j clamped to [0, gl_NumSamples−1]).
func (l *lowerer) sampleDelta(j ir.Reg) [2]ir.Reg {
	b, is := l.b, l.interp
	if l.p.Regs[j] == ir.U32 {
		j = b.Op(ir.Cast, ir.I32, j)
	}
	last := b.Op(ir.ISub, ir.I32, is.n, b.ConstI(1))
	j = b.Op(ir.IMax, ir.I32, b.Op(ir.IMin, ir.I32, j, last), b.ConstI(0))
	ju := b.Op(ir.Cast, ir.U32, j)
	hi := b.Op(ir.UGe, ir.Bool, ju, b.ConstU(8))
	sh := b.Op(ir.Shl, ir.U32, b.Op(ir.And, ir.U32, ju, b.ConstU(7)), b.ConstU(2))
	var d [2]ir.Reg
	for c := range 2 {
		w := b.Op(ir.Select, ir.U32, hi, is.table+ir.Reg(2*c+1), is.table+ir.Reg(2*c))
		nib := b.Op(ir.And, ir.U32, b.Op(ir.UShr, ir.U32, w, sh), b.ConstU(15))
		p := b.Op(ir.FMul, ir.F32, b.Op(ir.UtoF, ir.F32, nib), b.ConstF(1.0/16))
		d[c] = b.Op(ir.FSub, ir.F32, p, is.pos+ir.Reg(c))
	}
	return d
}

// offsetDelta is the move from gl_SamplePosition to the pixel centre plus o.
func (l *lowerer) offsetDelta(o []ir.Reg) [2]ir.Reg {
	b, is := l.b, l.interp
	var d [2]ir.Reg
	for c := range 2 {
		p := b.Op(ir.FAdd, ir.F32, b.ConstF(0.5), o[c])
		d[c] = b.Op(ir.FSub, ir.F32, p, is.pos+ir.Reg(c))
	}
	return d
}
