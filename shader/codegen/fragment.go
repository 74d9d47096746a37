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
// Textures: texture(), textureLod and textureGrad of float 2D samplers are
// vx_tex (tex.go), texelFetch and textureSize loads from the software
// sampler's descriptors at FS arg slot abi.ArgFSSWSampler (texfetch.go);
// not compiled (refused with the reason): the other texture ops, storage
// resources, frames beyond FragmentOptions.LMemBytes.

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
	// lodIn are a texture()'s four scaled gradients, lodKey the first
	// vector's key, lod the lod operand (lod.go); lodTab the threshold
	// table's label in the current pass (-1: none yet).
	lodIn  [4]vreg
	lodKey [2]vreg
	lod    vreg
	lodTab int
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
	if err := texRefused(p); err != nil {
		return nil, err
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
	f.lodIn, f.lodKey, f.lod = [4]vreg{X(1), X(1), X(1), X(1)}, [2]vreg{X(1), X(1)}, X(1)
	for range p.OutputWords {
		f.out = append(f.out, X(2))
	}
	top := &node{kind: nScope, body: tree}
	top.body = g.mark(top.body, nil)
	top.state = noVreg
	if hasReturn(top.body) || hasDiscard(top.body) {
		top.state = g.newVreg(false, 8)
	}
	code, err := g.assemble(func() { g.emitFragment(top) }, func() error {
		if need := uint64(g.frame) * uint64(opts.WaveThreads); opts.LMemBytes != 0 && need > uint64(opts.LMemBytes) {
			return fmt.Errorf("codegen: the fragment kernel's frames need %d bytes of local memory (%d per lane), the core has %d", need, g.frame, opts.LMemBytes)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	data := 0
	if f.lodTab >= 0 {
		data = 2 * lodTableLen
	}
	return &Kernel{Base: abi.LinkBaseFS, Code: code, DataWords: data, Layout: Layout{
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
	f.lodTab = -1
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
	if f.lodTab >= 0 {
		lodTableWords(a, f.lodTab)
	}
}

// quadShuffle is the vx_shfl operand's {mask = 0x3c, c = 3}: segments of the
// four lanes of a quad. spec: vortexpipe-driver.md §2.2 (emit_vx_quad_swap)
const quadShuffle = 3<<6 | 0x3c<<12
