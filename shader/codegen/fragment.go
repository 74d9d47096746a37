package codegen

import (
	"fmt"
	"math"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// The fragment stage as machine code (CompileFragment): the FS wrapper of
// vortexpipe-driver §3.4 as straight-line code round the fragment program, run
// by RASTER's fragment waves (one warp per wave, lanes 4k..4k+3 one 2×2 quad).
// spec: vortexpipe-driver.md §3.4 (the run-once wrapper), §2.2 (FRAG_POS /
// FRAG_PID, the quad shuffle); vortex-hardware-facts.md §5 (the OM aperture),
// §6 (vx_om_export, CSRs 0xCE2/0xCE3).
//
// Per lane it does exactly what gfx/shaderdev's Go wrapper does (fs.go,
// fsinterp.go), with the same integer and float32 operations in the same
// order, so every input word is that wrapper's bits:
//
//   - FRAG_POS gives x = pos[15:0], y = pos[30:16] and covered = pos[31], FRAG_PID
//     the primitive; a quad none of whose lanes is covered does not run (the
//     other lanes of a covered quad run as helpers, for the derivatives).
//   - The primitive is the rast_prim_t at arg slot abi.ArgFSPrimBuffer +
//     pid·abi.PrimBytes: its three Q15.16 edge values at (x, y) (int32
//     arithmetic, wrapping) as floats /65536, recip = 1/((E0+E1)+E2), the
//     barycentrics dx, dy = FixDev(recip·Ei) in Q7.24 (fcvt.w.s rtz of the
//     product ×2^24: truncation, saturation and NaN → INT32_MAX as FixDev),
//     rhw = MulA(B, dy) + (MulA(A, dx) + C) on the 1/w plane (mulh/mul for the
//     64-bit product >> 24) /2^24, guarded to ±1e-8 (GuardRHW), invW = 1/rhw,
//     fw = ((E0+E1)+E2)·rhw_scale, fdx, fdy = dx, dy /2^24; the depth the Z
//     plane at (x, y) clamped to [0, 0xFFFFFF]; the facing word.
//   - An interpolated input word is ((fdx·a + fdy·b) + c)·invW on its plane for
//     the lane's face ({a, b, c} the plane's float words, or for a varying past
//     the planes (a0−a2, a1−a2, a2) from the side array), times fw for a
//     noperspective one; a flat word is read verbatim from the side array at
//     arg slot abi.ArgFSFlat + pid·SideStride; gl_FragCoord is (x + 0.5,
//     y + 0.5, depth/2^24, fw), gl_FrontFacing facing == 0, gl_HelperInvocation
//     !covered (or demoted), gl_SampleID 0, gl_SamplePosition (0.5, 0.5),
//     gl_SampleMaskIn covered. Other input words read 0.
//   - Export: each covered, live lane whose gl_SampleMask (when written) keeps
//     sample 0 packs, per target rt < max(min(colour outputs, the targets of
//     abi.ArgFSFlags), 1), its four colour words to unorm8 (format.UNorm8's
//     floor(v·255 + 0.5) in double, computed exactly in integers) in the
//     target's byte order (the flags' BGRA bit: A8R8G8B8, else R first), with
//     the plane depth or gl_FragDepth as swom.FloatDepth's Z24, and issues
//     vx_om_export (funct7 3: colour and depth) at the aperture address of (rt,
//     face, x, y) with the geometry of arg slot abi.ArgFSAperture; then adds 1
//     to the FS counter abi.FSCounterFragments (amoadd.w) when arg slot
//     abi.ArgFSCounters is not 0.
//
// Discard ends the lane (it leaves every loop and scope), demote only clears
// its live flag; derivatives are vx_shfl_idx within the quad (a neighbour that
// is not running gives the reader's own value, the executor's rule).
// Not compiled (refused with the reason): textures, storage resources,
// frames beyond FragmentOptions.LMemBytes.

// FragmentInputs says where each fragment input word comes from and where the
// colour outputs are (the wrapper's contract above). Word fields are -1 when
// unused.
type FragmentInputs struct {
	Interp []FragmentInterp
	Flat   []FragmentFlat
	// Coord is gl_FragCoord's first word (four words), Facing gl_FrontFacing,
	// Helper gl_HelperInvocation, SampleID, SamplePos (two words) and
	// SampleMaskIn the per-sample built-ins of a single-sample wave.
	Coord, Facing, Helper, SampleID, SamplePos, SampleMaskIn int
	// FlatWords is the side array's flat words before the varyings past the
	// planes (abi.SideFlatWords), SideStride its bytes per primitive.
	FlatWords  int
	SideStride uint32
	// Colors[loc] is the first output word of colour location loc (-1: not
	// written); FragDepth the gl_FragDepth output word, SampleMask
	// gl_SampleMask's.
	Colors                []int
	FragDepth, SampleMask int
}

// FragmentInterp is one interpolated input word: its plane on front- and on
// back-facing primitives (planes ≥ abi.NumVaryingPlanes are side-array
// varyings) and whether each is noperspective.
type FragmentInterp struct {
	Word, Front, Back int
	FrontNP, BackNP   bool
}

// FragmentFlat is one flat input word: its side-array word on front and back
// faces.
type FragmentFlat struct{ Word, Front, Back int }

// FragmentOptions are the launch a fragment kernel is compiled for.
type FragmentOptions struct {
	// WaveThreads is the lanes of a wave (the warp width): the frames need
	// WaveThreads × Layout.FrameBytes of local memory.
	WaveThreads uint32
	// LMemBytes is the local memory of the target core (0: unbounded).
	LMemBytes uint32
}

// fsSrcKind is where an input word comes from.
type fsSrcKind uint8

const (
	fsNone fsSrcKind = iota
	fsInterp
	fsFlat
	fsCoord
	fsFacing
	fsHelper
	fsSampleID
	fsSamplePos
	fsSampleIn
)

type fsSrc struct {
	kind fsSrcKind
	i    int // Interp / Flat index, or the component
}

// fsGen is the fragment kernel's own state beside the generator's.
type fsGen struct {
	in                                  FragmentInputs
	src                                 []fsSrc
	args, x, y, cov, pid, prim, side    vreg
	face, facingW, depth, demoted       vreg
	e                                   [3]vreg // the edge values (float)
	sum, recip, bx, by, rhw             vreg
	fdx, fdy, invW, fw                  vreg
	out                                 []vreg // the output words
	tokPresent, tokExp, col, addr, zexp vreg
	needSide                            bool
}

// CompileFragment translates a verified fragment program into a fragment
// kernel (the wrapper above) linked at abi.LinkBaseFS. What it does not
// implement is refused with an error naming it.
func CompileFragment(p *ir.Program, in FragmentInputs, opts FragmentOptions) (*Kernel, error) {
	if p == nil || p.Stage != ir.Fragment {
		return nil, fmt.Errorf("codegen: CompileFragment takes a fragment program")
	}
	if err := ir.Verify(p); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	if opts.WaveThreads == 0 || opts.WaveThreads > 32 {
		return nil, fmt.Errorf("codegen: fragment wave of %d lanes (1..32)", opts.WaveThreads)
	}
	if len(p.Tex) > 0 {
		return nil, fmt.Errorf("codegen: fragment-stage textures are not compiled to machine code yet")
	}
	if len(p.Buffers)+len(p.Counters)+len(p.Images) > 0 {
		return nil, fmt.Errorf("codegen: fragment-stage storage buffers, counters and images are not compiled to machine code")
	}
	f := &fsGen{in: in, src: make([]fsSrc, p.InputWords)}
	set := func(name string, w, n int, k fsSrcKind) error {
		if w < 0 {
			return nil
		}
		if w+n > p.InputWords {
			return fmt.Errorf("codegen: %s at input word %d of %d", name, w, p.InputWords)
		}
		for c := range n {
			if f.src[w+c].kind != fsNone {
				return fmt.Errorf("codegen: %s overlaps input word %d", name, w+c)
			}
			f.src[w+c] = fsSrc{kind: k, i: c}
		}
		return nil
	}
	for _, s := range []struct {
		name string
		w, n int
		k    fsSrcKind
	}{{"gl_FragCoord", in.Coord, 4, fsCoord}, {"gl_FrontFacing", in.Facing, 1, fsFacing},
		{"gl_HelperInvocation", in.Helper, 1, fsHelper}, {"gl_SampleID", in.SampleID, 1, fsSampleID},
		{"gl_SamplePosition", in.SamplePos, 2, fsSamplePos}, {"gl_SampleMaskIn", in.SampleMaskIn, 1, fsSampleIn}} {
		if err := set(s.name, s.w, s.n, s.k); err != nil {
			return nil, err
		}
	}
	for i, v := range in.Interp {
		if v.Front < 0 || v.Back < 0 {
			return nil, fmt.Errorf("codegen: input word %d is interpolated on one face only", v.Word)
		}
		if v.FrontNP != v.BackNP || (v.Front < abi.NumVaryingPlanes) != (v.Back < abi.NumVaryingPlanes) {
			return nil, fmt.Errorf("codegen: input word %d takes planes of different kinds on its two faces", v.Word)
		}
		if err := set(fmt.Sprintf("interpolated input %d", i), v.Word, 1, fsInterp); err != nil {
			return nil, err
		}
		f.src[v.Word].i = i
		f.needSide = f.needSide || v.Front >= abi.NumVaryingPlanes
	}
	for i, v := range in.Flat {
		if v.Front < 0 || v.Back < 0 {
			return nil, fmt.Errorf("codegen: flat input word %d is read on one face only", v.Word)
		}
		if err := set(fmt.Sprintf("flat input %d", i), v.Word, 1, fsFlat); err != nil {
			return nil, err
		}
		f.src[v.Word].i = i
		f.needSide = true
	}
	for i, w := range in.Colors {
		if w >= 0 && w+4 > p.OutputWords {
			return nil, fmt.Errorf("codegen: colour output %d at output word %d of %d", i, w, p.OutputWords)
		}
	}
	for _, w := range []int{in.FragDepth, in.SampleMask} {
		if w >= p.OutputWords {
			return nil, fmt.Errorf("codegen: output word %d of %d", w, p.OutputWords)
		}
	}
	g := &gen{p: p, wscale: 1, fsg: f}
	for _, t := range p.Regs {
		g.float = append(g.float, t == ir.F32)
	}
	g.weight = make([]int, len(p.Regs))
	g.arrayed = make([]bool, len(p.Regs))
	for i := range g.in {
		g.in[i] = noVreg
	}
	tree, _, err := parse(p.Code, 0)
	if err != nil {
		return nil, err
	}
	g.scanResources()
	if g.barID != noVreg {
		return nil, fmt.Errorf("codegen: barrier() in a fragment program")
	}
	X := func(w int) vreg { return g.newVreg(false, w) }
	F := func(w int) vreg { return g.newVreg(true, w) }
	f.args, f.x, f.y, f.cov, f.pid, f.prim = X(8), X(4), X(4), X(4), X(2), X(4)
	f.side, f.face, f.facingW, f.depth, f.demoted = X(2), X(2), X(1), X(2), X(2)
	f.e = [3]vreg{F(1), F(1), F(1)}
	f.sum, f.recip, f.bx, f.by, f.rhw = F(1), F(1), X(1), X(1), F(1)
	f.fdx, f.fdy, f.invW, f.fw = F(4), F(4), F(4), F(2)
	f.tokPresent, f.tokExp, f.col, f.addr, f.zexp = X(1), X(1), X(2), X(1), X(1)
	for range p.OutputWords {
		f.out = append(f.out, X(2))
	}
	top := &node{kind: nScope, body: tree}
	top.body = g.mark(top.body, nil)
	top.state = noVreg
	if hasReturn(top.body) || hasDiscard(top.body) {
		top.state = g.newVreg(false, 8)
	}
	g.dryHomes()
	if g.emitFragment(top); g.err != nil {
		return nil, g.err
	}
	g.allocate()
	if need := uint64(g.frame) * uint64(opts.WaveThreads); opts.LMemBytes != 0 && need > uint64(opts.LMemBytes) {
		return nil, fmt.Errorf("codegen: the fragment kernel's frames need %d bytes of local memory (%d per lane), the core has %d", need, g.frame, opts.LMemBytes)
	}
	g.a = asm{}
	if g.emitFragment(top); g.err != nil {
		return nil, g.err
	}
	code, err := g.a.words()
	if err != nil {
		return nil, err
	}
	return &Kernel{Base: abi.LinkBaseFS, Code: code, Layout: Layout{
		LocalSize: [3]uint32{opts.WaveThreads, 1, 1}, UniformWords: p.UniformWords, FrameBytes: uint32(g.frame)}}, nil
}

// fget returns a float register holding v, loading it into scratch r when its
// home is not a float register.
func (g *gen) fget(v vreg, r uint8) uint8 {
	g.ref(v, false)
	h := g.home[v]
	switch h.kind {
	case hF:
		return h.reg
	case hX:
		g.a.r(rv32.FMVWX, r, h.reg, 0)
	case hStack:
		b, o := g.slot(h.off)
		g.a.flw(r, b, o)
	default:
		g.a.r(rv32.FMVWX, r, rZero, 0)
	}
	return r
}

// fliInto loads the float constant v into float register r (through integer
// scratch t).
func (g *gen) fliInto(r, t uint8, v float32) {
	g.a.li(t, math.Float32bits(v))
	g.a.r(rv32.FMVWX, r, t, 0)
}

// fsArg loads the low word of FS arg slot s into integer register r.
func (g *gen) fsArg(r uint8, s int) {
	g.a.lw(r, g.x(g.fsg.args), int32(s*abi.ArgSlotBytes))
}

// emitFragment generates the fragment kernel: frame pointer, launch registers,
// the quad's presence split, the wrapper, the program, the halt.
func (g *gen) emitFragment(top *node) {
	a, f := &g.a, g.fsg
	g.reset()
	lm, i, t := g.tmpX(), g.tmpX(), g.tmpX()
	a.csrr(lm, csrCTALMem)
	a.csrr(i, csrCTARank)
	a.csrr(t, simt.CSRNumThreads)
	a.r(rv32.MUL, i, i, t)
	a.csrr(t, simt.CSRThreadID)
	a.r(rv32.ADD, i, i, t)
	a.li(t, uint32(g.frame))
	a.r(rv32.MUL, t, i, t)
	a.r(rv32.ADD, rSP, lm, t)
	g.reset()
	r := g.tmpX()
	a.csrr(r, simt.CSRMscratch)
	g.finX(f.args, r)
	if g.uni != noVreg {
		g.reset()
		r := g.tmpX()
		g.fsArg(r, abi.ArgFSDesc)
		a.lw(r, r, 0)
		g.finX(g.uni, r)
	}
	g.reset()
	pos, v := g.tmpX(), g.tmpX()
	a.csrr(pos, simt.CSRFragPos)
	a.i(rv32.SRLI, v, pos, 31)
	g.finX(f.cov, v)
	a.li(v, 0xFFFF)
	a.r(rv32.AND, v, pos, v)
	g.finX(f.x, v)
	a.i(rv32.SRLI, v, pos, 16)
	a.li(pos, 0x7FFF)
	a.r(rv32.AND, v, v, pos)
	g.finX(f.y, v)
	a.csrr(v, simt.CSRFragPID)
	g.finX(f.pid, v)
	// present = any lane of the quad covered: two butterflies within the quad.
	g.reset()
	c, o, k := g.tmpX(), g.tmpX(), g.tmpX()
	a.mv(c, g.x(f.cov))
	a.li(k, 1|quadShuffle)
	a.emit(rv32.Inst{Op: rv32.VXSHFLBFLY, Rd: o, Rs1: c, Rs2: k})
	a.r(rv32.OR, c, c, o)
	a.li(k, 2|quadShuffle)
	a.emit(rv32.Inst{Op: rv32.VXSHFLBFLY, Rd: o, Rs1: c, Rs2: k})
	a.r(rv32.OR, c, c, o)
	skip := a.newLabel()
	g.split(f.tokPresent, c, skip)
	ob := g.enter()
	g.fsWrapper()
	for _, w := range f.out {
		g.reset()
		g.setConst(w, 0)
	}
	g.reset()
	g.setConst(f.demoted, 0)
	g.zeroInit()
	if top.state != noVreg {
		g.reset()
		g.setConst(top.state, 0)
	}
	g.ctx = []*node{top}
	g.block(top.body)
	g.leave(ob)
	a.place(skip)
	g.join(f.tokPresent)
	g.reset()
	a.emit(rv32.Inst{Op: rv32.VXTMC, Rs1: rZero}) // halt the warp
}

// quadShuffle is the vx_shfl operand's {mask = 0x3c, c = 3}: segments of the
// four lanes of a quad. spec: vortexpipe-driver.md §2.2 (emit_vx_quad_swap)
const quadShuffle = 3<<6 | 0x3c<<12

// fsWrapper is the per-lane body of the §3.4 wrapper before the program: the
// primitive, the edge values, barycentrics, 1/w, depth and facing.
func (g *gen) fsWrapper() {
	a, f := &g.a, g.fsg
	g.reset()
	p, t := g.tmpX(), g.tmpX()
	g.fsArg(p, abi.ArgFSPrimBuffer)
	a.li(t, abi.PrimBytes)
	a.r(rv32.MUL, t, t, g.x(f.pid))
	a.r(rv32.ADD, p, p, t)
	g.finX(f.prim, p)
	if f.needSide {
		g.reset()
		s, t := g.tmpX(), g.tmpX()
		g.fsArg(s, abi.ArgFSFlat)
		a.li(t, f.in.SideStride)
		a.r(rv32.MUL, t, t, g.x(f.pid))
		a.r(rv32.ADD, s, s, t)
		g.finX(f.side, s)
	}
	for e := range 3 {
		g.reset()
		p := g.x(f.prim)
		A, B, C := g.tmpX(), g.tmpX(), g.tmpX()
		a.lw(A, p, int32(12*e))
		a.lw(B, p, int32(12*e+4))
		a.lw(C, p, int32(12*e+8))
		a.r(rv32.MUL, A, A, g.x(f.x))
		a.r(rv32.MUL, B, B, g.x(f.y))
		a.r(rv32.ADD, A, A, B)
		a.r(rv32.ADD, A, A, C)
		d := g.df(f.e[e])
		a.fr(rv32.FCVTSW, d, A, 0, rv32.RNE)
		k := g.fconst(1.0 / 65536)
		a.fr(rv32.FMULS, d, d, k, rv32.RNE)
		g.finF(f.e[e], d)
	}
	g.reset()
	d := g.tmpF()
	a.fr(rv32.FADDS, d, g.fget(f.e[0], 1), g.fget(f.e[1], 2), rv32.RNE)
	a.fr(rv32.FADDS, d, d, g.fget(f.e[2], 1), rv32.RNE)
	g.finF(f.sum, d)
	g.reset()
	d = g.tmpF()
	g.fliInto(1, rT0, 1)
	a.fr(rv32.FDIVS, d, 1, g.fget(f.sum, 2), rv32.RNE)
	g.finF(f.recip, d)
	for k, b := range []vreg{f.bx, f.by} {
		g.reset()
		d := g.tmpF()
		a.fr(rv32.FMULS, d, g.fget(f.recip, 1), g.fget(f.e[k], 2), rv32.RNE)
		g.fliInto(1, rT0, 1<<abi.FracA)
		a.fr(rv32.FMULS, d, d, 1, rv32.RNE) // exact: FixDev's float64(f)·2^24
		r := g.dx(b)
		a.fr(rv32.FCVTWS, r, d, 0, rv32.RTZ)
		g.finX(b, r)
	}
	// rhw = MulA(B, dy) + (MulA(A, dx) + C) on the 1/w plane, /2^24, guarded.
	g.reset()
	w := int32(4 * abi.PlaneRHW.Word())
	pp := g.x(f.prim)
	pa, pb, pc := g.tmpX(), g.tmpX(), g.tmpX()
	a.lw(pa, pp, w)
	a.lw(pb, pp, w+4)
	a.lw(pc, pp, w+8)
	lo := g.tmpX()
	mulA := func(dst uint8, v uint8) {
		a.r(rv32.MUL, lo, dst, v)
		a.r(rv32.MULH, dst, dst, v)
		a.i(rv32.SRLI, lo, lo, abi.FracA)
		a.i(rv32.SLLI, dst, dst, 32-abi.FracA)
		a.r(rv32.OR, dst, dst, lo)
	}
	mulA(pa, g.x(f.bx))
	a.r(rv32.ADD, pa, pa, pc)
	mulA(pb, g.x(f.by))
	a.r(rv32.ADD, pa, pb, pa)
	d = g.df(f.rhw)
	a.fr(rv32.FCVTSW, d, pa, 0, rv32.RNE)
	g.fliInto(3, lo, 1.0/(1<<abi.FracA))
	a.fr(rv32.FMULS, d, d, 3, rv32.RNE)
	g.finF(f.rhw, d)
	// GuardRHW: |rhw| < 1e-8 becomes ±1e-8 (+1e-8 for +0).
	g.reset()
	v := g.fget(f.rhw, 0)
	rb, kb, c1, c2 := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	const kMin = float32(1e-8)
	g.fliInto(1, kb, kMin)
	g.fliInto(2, kb, -kMin)
	a.r(rv32.FLTS, c1, v, 1)
	a.r(rv32.FLTS, c2, 2, v)
	a.r(rv32.AND, c1, c1, c2)
	a.r(rv32.FMVXW, rb, v, 0)
	a.i(rv32.SRLI, c2, rb, 31)
	a.i(rv32.SLLI, c2, c2, 31)
	a.li(kb, math.Float32bits(kMin))
	a.r(rv32.OR, kb, kb, c2)
	g.sel(kb, c1, kb, rb)
	a.r(rv32.FMVWX, 2, kb, 0)
	g.fliInto(1, kb, 1)
	d = g.df(f.invW)
	a.fr(rv32.FDIVS, d, 1, 2, rv32.RNE)
	g.finF(f.invW, d)
	g.reset()
	d = g.df(f.fw)
	pp = g.x(f.prim)
	a.flw(1, pp, int32(4*abi.PrimRHWScaleW))
	a.fr(rv32.FMULS, d, g.fget(f.sum, 2), 1, rv32.RNE)
	g.finF(f.fw, d)
	for k, b := range []vreg{f.bx, f.by} {
		g.reset()
		dst := []vreg{f.fdx, f.fdy}[k]
		d := g.df(dst)
		a.fr(rv32.FCVTSW, d, g.x(b), 0, rv32.RNE)
		g.fliInto(1, rT0+1, 1.0/(1<<abi.FracA))
		a.fr(rv32.FMULS, d, d, 1, rv32.RNE)
		g.finF(dst, d)
	}
	g.reset()
	pp = g.x(f.prim)
	fw := g.tmpX()
	a.lw(fw, pp, int32(4*abi.PrimFacingWord))
	g.finX(f.facingW, fw)
	a.i(rv32.ANDI, fw, fw, 1)
	g.finX(f.face, fw)
	// The Q7.24 depth plane at (x, y), clamped to [0, DepthMask] (planeZ).
	g.reset()
	pp = g.x(f.prim)
	zw := int32(4 * abi.PlaneZ.Word())
	A, B, C := g.tmpX(), g.tmpX(), g.tmpX()
	a.lw(A, pp, zw)
	a.lw(B, pp, zw+4)
	a.lw(C, pp, zw+8)
	a.r(rv32.MUL, A, A, g.x(f.x))
	a.r(rv32.MUL, B, B, g.x(f.y))
	a.r(rv32.ADD, A, A, B)
	a.r(rv32.ADD, A, A, C)
	a.i(rv32.SRAI, B, A, 31)
	a.i(rv32.XORI, B, B, -1)
	a.r(rv32.AND, A, A, B)
	a.li(C, abi.DepthMask)
	a.r(rv32.SLTU, B, C, A)
	g.sel(C, B, C, A)
	g.finX(f.depth, C)
}

// fragmentInput generates LoadInput in a fragment kernel.
func (g *gen) fragmentInput(in *ir.Inst) {
	a, f := &g.a, g.fsg
	dst := vreg(in.Dst)
	w := int(in.Imm)
	if w >= len(f.src) {
		g.setConst(dst, 0)
		return
	}
	putF := func(r uint8) {
		if g.float[dst] {
			g.finF(dst, r)
			return
		}
		d := g.dx(dst)
		a.r(rv32.FMVXW, d, r, 0)
		g.finX(dst, d)
	}
	s := f.src[w]
	switch s.kind {
	case fsInterp:
		iw := f.in.Interp[s.i]
		side := iw.Front >= abi.NumVaryingPlanes
		off := func(pl int) uint32 {
			if pl < abi.NumVaryingPlanes {
				return uint32(4 * abi.VaryingPlane(pl).Word())
			}
			return uint32(4 * (f.in.FlatWords + 3*(pl-abi.NumVaryingPlanes)))
		}
		base := f.prim
		if side {
			base = f.side
		}
		addr := g.tmpX()
		if iw.Front == iw.Back {
			a.addConst(addr, g.x(base), int32(off(iw.Front)), addr)
		} else {
			u := g.tmpX()
			a.li(addr, off(iw.Front))
			a.li(u, off(iw.Front)^off(iw.Back))
			m := g.tmpX()
			a.r(rv32.SUB, m, rZero, g.x(f.face))
			a.r(rv32.AND, u, u, m)
			a.r(rv32.XOR, addr, addr, u)
			a.r(rv32.ADD, addr, addr, g.x(base))
		}
		a.flw(0, addr, 0)
		a.flw(1, addr, 4)
		a.flw(2, addr, 8)
		if side {
			a.fr(rv32.FSUBS, 0, 0, 2, rv32.RNE)
			a.fr(rv32.FSUBS, 1, 1, 2, rv32.RNE)
		}
		a.fr(rv32.FMULS, 0, g.fget(f.fdx, 3), 0, rv32.RNE)
		a.fr(rv32.FMULS, 1, g.fget(f.fdy, 3), 1, rv32.RNE)
		a.fr(rv32.FADDS, 0, 0, 1, rv32.RNE)
		a.fr(rv32.FADDS, 0, 0, 2, rv32.RNE)
		a.fr(rv32.FMULS, 0, 0, g.fget(f.invW, 3), rv32.RNE)
		if iw.FrontNP {
			a.fr(rv32.FMULS, 0, 0, g.fget(f.fw, 3), rv32.RNE)
		}
		g.fs = 4 // f0-f3 are in use
		putF(0)
	case fsFlat:
		fl := f.in.Flat[s.i]
		addr := g.tmpX()
		if fl.Front == fl.Back {
			a.addConst(addr, g.x(f.side), int32(4*fl.Front), addr)
		} else {
			u, m := g.tmpX(), g.tmpX()
			a.li(addr, uint32(4*fl.Front))
			a.li(u, uint32(4*(fl.Front^fl.Back)))
			a.r(rv32.SUB, m, rZero, g.x(f.face))
			a.r(rv32.AND, u, u, m)
			a.r(rv32.XOR, addr, addr, u)
			a.r(rv32.ADD, addr, addr, g.x(f.side))
		}
		g.loadTo(dst, addr)
	case fsCoord:
		t := g.tmpX()
		switch s.i {
		case 0, 1:
			src := f.x
			if s.i == 1 {
				src = f.y
			}
			a.fr(rv32.FCVTSW, 0, g.x(src), 0, rv32.RNE)
			g.fliInto(1, t, 0.5)
			a.fr(rv32.FADDS, 0, 0, 1, rv32.RNE)
		case 2:
			a.fr(rv32.FCVTSWU, 0, g.x(f.depth), 0, rv32.RNE)
			g.fliInto(1, t, 1.0/(1<<abi.FracA))
			a.fr(rv32.FMULS, 0, 0, 1, rv32.RNE)
		default:
			a.fr(rv32.FSGNJS, 0, g.fget(f.fw, 0), g.fget(f.fw, 0), 0)
		}
		g.fs = 2
		putF(0)
	case fsFacing, fsHelper:
		src := f.facingW
		if s.kind == fsHelper {
			src = f.cov
		}
		d := g.dx(dst)
		a.i(rv32.SLTIU, d, g.x(src), 1)
		if s.kind == fsHelper {
			a.r(rv32.OR, d, d, g.x(f.demoted))
		}
		g.finX(dst, d)
	case fsSamplePos:
		g.setConst(dst, math.Float32bits(0.5))
	case fsSampleIn:
		g.copyBits(dst, f.cov)
	default: // fsNone, fsSampleID
		g.setConst(dst, 0)
	}
}

// fragmentOp generates the fragment-only ops and StoreOutput; ok is false for
// an op it does not implement.
func (g *gen) fragmentOp(in *ir.Inst) bool {
	a, f := &g.a, g.fsg
	switch in.Op {
	case ir.LoadInput:
		g.fragmentInput(in)
	case ir.StoreOutput:
		if int(in.Imm) >= len(f.out) {
			return false
		}
		g.finX(f.out[in.Imm], g.x(g.src(in, 0)))
	case ir.Demote:
		g.setConst(f.demoted, 1)
	case ir.IsHelper:
		d := g.dx(vreg(in.Dst))
		a.i(rv32.SLTIU, d, g.x(f.cov), 1)
		a.r(rv32.OR, d, d, g.x(f.demoted))
		g.finX(vreg(in.Dst), d)
	case ir.DdxFine, ir.DdyFine, ir.DdxCoarse, ir.DdyCoarse:
		g.deriv(in)
	case ir.Export:
		g.fsExport()
	default:
		return false
	}
	return true
}

// deriv is a screen-space derivative: the quad's hi lane minus its lo lane
// (package exec's deriv), each read with vx_shfl_idx inside the quad.
func (g *gen) deriv(in *ir.Inst) {
	a := &g.a
	s := g.x(g.src(in, 0))
	lo, hi, k := g.tmpX(), g.tmpX(), g.tmpX()
	switch in.Op {
	case ir.DdxFine: // lo = q + l&2, hi = lo + 1
		a.csrr(lo, simt.CSRThreadID)
		a.i(rv32.ANDI, lo, lo, 2)
		a.i(rv32.ORI, hi, lo, 1)
	case ir.DdyFine: // lo = q + l&1, hi = lo + 2
		a.csrr(lo, simt.CSRThreadID)
		a.i(rv32.ANDI, lo, lo, 1)
		a.i(rv32.ORI, hi, lo, 2)
	case ir.DdxCoarse:
		a.mv(lo, rZero)
		a.i(rv32.ADDI, hi, rZero, 1)
	default:
		a.mv(lo, rZero)
		a.i(rv32.ADDI, hi, rZero, 2)
	}
	a.li(k, quadShuffle)
	a.r(rv32.OR, lo, lo, k)
	a.r(rv32.OR, hi, hi, k)
	a.emit(rv32.Inst{Op: rv32.VXSHFLIDX, Rd: lo, Rs1: s, Rs2: lo})
	a.emit(rv32.Inst{Op: rv32.VXSHFLIDX, Rd: hi, Rs1: s, Rs2: hi})
	a.r(rv32.FMVWX, 0, lo, 0)
	a.r(rv32.FMVWX, 1, hi, 0)
	g.fs = 2
	d := g.df(vreg(in.Dst))
	a.fr(rv32.FSUBS, d, 1, 0, rv32.RNE)
	g.finF(vreg(in.Dst), d)
	g.flushDst(in)
}

// unorm8 leaves in r format.UNorm8 of the float bits in r: 0 for v ≤ 0 or NaN,
// 255 for v ≥ 1, else floor(v·255 + 0.5) exactly, as
// ((M·255 >> (s−1)) + 1) >> 1 for v = M·2^−s (M the 24-bit significand).
// t1..t4 are scratch.
func (g *gen) unorm8(r, t1, t2, t3, t4 uint8) {
	a := &g.a
	a.i(rv32.SRLI, t1, r, 23)
	a.i(rv32.ANDI, t1, t1, 0xff) // E
	a.li(t2, 149)
	a.r(rv32.SUB, t1, t2, t1) // s−1 = 149 − E
	a.li(t2, 0x7fffff)
	a.r(rv32.AND, t2, r, t2)
	a.li(t3, 0x800000)
	a.r(rv32.OR, t2, t2, t3)
	a.li(t3, 255)
	a.r(rv32.MUL, t2, t2, t3)   // M·255 < 2^32
	a.r(rv32.SRL, t2, t2, t1)   // (shift amounts past 31 are masked below)
	a.i(rv32.ADDI, t2, t2, 1)   //
	a.i(rv32.SRLI, t2, t2, 1)   // the rounded value when 23 ≤ s−1 ≤ 31
	a.i(rv32.SLTIU, t3, t1, 32) // s−1 ≤ 31
	a.r(rv32.SUB, t3, rZero, t3)
	a.r(rv32.AND, t2, t2, t3)
	// v ≥ 1 (as unsigned bits, negatives too): 255 for 1 ≤ v ≤ inf, else 0.
	a.li(t3, 0x7f800000)
	a.r(rv32.SLTU, t4, t3, r) // NaN or negative
	a.i(rv32.XORI, t4, t4, 1)
	a.r(rv32.SUB, t4, rZero, t4)
	a.i(rv32.ANDI, t4, t4, 255) // 255 or 0
	a.li(t3, 0x3f800000)
	a.r(rv32.SLTU, t3, r, t3) // 0 ≤ v < 1 (positive, below 1.0)
	g.sel(r, t3, t2, t4)
}

// fsExport is the Export op: the wrapper's tail for the covered, live lanes.
func (g *gen) fsExport() {
	a, f := &g.a, g.fsg
	c := g.tmpX()
	a.i(rv32.SLTIU, c, g.x(f.demoted), 1)
	a.r(rv32.AND, c, c, g.x(f.cov))
	if f.in.SampleMask >= 0 {
		m := g.x(f.out[f.in.SampleMask])
		t := g.tmpX()
		a.i(rv32.ANDI, t, m, 1)
		a.r(rv32.AND, c, c, t)
	}
	skip := a.newLabel()
	g.split(f.tokExp, c, skip)
	ob := g.enter()
	// The depth exported: gl_FragDepth as swom.FloatDepth's Z24, else the plane's.
	g.reset()
	if fd := f.in.FragDepth; fd >= 0 {
		z, cz, t := g.tmpX(), g.tmpX(), g.tmpX()
		a.r(rv32.FMVWX, 0, g.x(f.out[fd]), 0)
		a.r(rv32.FMVWX, 1, rZero, 0)
		a.r(rv32.FLTS, cz, 1, 0) // z > 0 (false for NaN)
		g.fliInto(1, t, 1)
		a.fr(rv32.FMINS, 0, 0, 1, 0)
		g.fliInto(1, t, 1<<24)
		a.fr(rv32.FMULS, 0, 0, 1, rv32.RNE)
		a.fr(rv32.FCVTWUS, z, 0, 0, rv32.RTZ)
		a.li(t, abi.DepthMask)
		g.minmax(t, z, t, rv32.SLTU, false) // t = min(z, mask) (sel: t is its b)
		a.r(rv32.SUB, cz, rZero, cz)
		a.r(rv32.AND, t, t, cz)
		g.finX(f.zexp, t)
	} else {
		g.copyBits(f.zexp, f.depth)
	}
	rts := max(len(f.in.Colors), 1)
	done := a.newLabel()
	for rt := range rts {
		if rt > 0 { // rt < the draw's targets (warp-uniform)
			g.reset()
			n, k := g.tmpX(), g.tmpX()
			g.fsArg(n, abi.ArgFSFlags)
			a.i(rv32.SRLI, n, n, abi.FSFlagTargetsShift)
			a.i(rv32.ANDI, n, n, int32(abi.FSFlagTargetsMask))
			a.i(rv32.ADDI, k, rZero, int32(rt))
			a.branch(rv32.BGEU, k, n, done)
		}
		g.reset()
		g.setConst(f.col, 0)
		cw := -1
		if rt < len(f.in.Colors) {
			cw = f.in.Colors[rt]
		}
		if cw >= 0 {
			for k := range 4 {
				g.reset()
				r := g.tmpX()
				a.mv(r, g.x(f.out[cw+k]))
				t1, t2, t3, t4 := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
				g.unorm8(r, t1, t2, t3, t4)
				if k > 0 {
					a.i(rv32.SLLI, r, r, int32(8*k))
				}
				a.r(rv32.OR, r, r, g.x(f.col))
				g.finX(f.col, r)
			}
		}
		// R first (RGBA8), or A8R8G8B8 when the flags' BGRA bit of rt is set.
		g.reset()
		col, s, t, b := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
		a.mv(col, g.x(f.col))
		a.li(t, 0xFF00FF00)
		a.r(rv32.AND, s, col, t)
		a.i(rv32.SRLI, t, col, 16)
		a.i(rv32.ANDI, t, t, 0xff)
		a.r(rv32.OR, s, s, t)
		a.i(rv32.ANDI, t, col, 0xff)
		a.i(rv32.SLLI, t, t, 16)
		a.r(rv32.OR, s, s, t)
		g.fsArg(b, abi.ArgFSFlags)
		a.i(rv32.SRLI, b, b, int32(abi.FSFlagBGRAShift+rt))
		a.i(rv32.ANDI, b, b, 1)
		g.sel(s, b, s, col)
		g.finX(f.col, s)
		// The aperture address of (rt, face, x, y). spec: vortex-hardware-facts §5
		g.reset()
		geo, xb, yb, ad := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
		g.fsArg(geo, abi.ArgFSAperture)
		a.i(rv32.ANDI, xb, geo, 0xff)
		a.i(rv32.SRLI, yb, geo, 8)
		a.i(rv32.ANDI, yb, yb, 0xff)
		a.r(rv32.ADD, yb, yb, xb)
		a.i(rv32.ADDI, ad, g.x(f.face), int32(2*rt))
		a.r(rv32.SLL, ad, ad, yb)
		a.r(rv32.SLL, yb, g.x(f.y), xb)
		a.r(rv32.OR, ad, ad, yb)
		a.r(rv32.OR, ad, ad, g.x(f.x))
		a.i(rv32.SRLI, geo, geo, 16)
		a.i(rv32.ANDI, geo, geo, 0xff)
		a.r(rv32.SLL, ad, ad, geo)
		a.li(xb, abi.ApertureBase)
		a.r(rv32.ADD, ad, ad, xb)
		g.finX(f.addr, ad)
		g.reset()
		a.emit(rv32.Inst{Op: rv32.VXOMEXPORT, Rs1: g.x(f.addr), Rs2: g.x(f.col), Rs3: g.x(f.zexp), Imm: 3})
	}
	a.place(done)
	g.reset()
	ca, one := g.tmpX(), g.tmpX()
	g.fsArg(ca, abi.ArgFSCounters)
	noCtr := a.newLabel()
	a.branch(rv32.BEQ, ca, rZero, noCtr) // warp-uniform
	a.i(rv32.ADDI, ca, ca, 4*abi.FSCounterFragments)
	a.i(rv32.ADDI, one, rZero, 1)
	a.emit(rv32.Inst{Op: rv32.AMOADDW, Rs1: ca, Rs2: one})
	a.place(noCtr)
	g.leave(ob)
	a.place(skip)
	g.join(f.tokExp)
}
