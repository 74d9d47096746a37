package codegen

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// vreg is a virtual register: an IR register (0..len(Program.Regs)-1) or a value
// the generator adds (split tokens, loop state, the prologue's ids and bindings).
type vreg int32

const noVreg vreg = -1

type homeKind uint8

const (
	hNone  homeKind = iota // never used
	hX                     // an integer register
	hF                     // a float register
	hStack                 // a word of the invocation's frame, at off(sp)
)

// home is where a virtual register lives for the whole kernel: the allocator is
// static (one home per value, no liveness), so it is correct by construction; the
// most used values (weighted by loop nesting) get the registers.
type home struct {
	kind homeKind
	reg  uint8
	off  int32
}

// Registers the allocator hands out. x1 and x5-x7, x28-x31 are the generator's
// scratch, f0-f3 likewise; sp is the frame pointer, gp (x3) forms the address of a
// frame word beyond sp's 12-bit offsets, zero is zero.
var (
	allocX   = []uint8{4, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}
	scratchX = []uint8{rT0, rT1, rT2, rT3, rT4, rT5, rT6, rRA}
	scratchF = []uint8{0, 1, 2, 3}
)

// binding is one descriptor the kernel looks up in the set-0 blob at start.
type binding struct {
	kind  abi.ComputeDescKind
	space ir.Space
	slot  uint32
	base  vreg // device address
	lim   vreg // size-3 when size >= 4, else 0: word address a is inside iff a < lim (and aligned)
	size  vreg
	// storage images: the extent (width, height, depth) and format words, noVreg
	// when the program does not read them
	ext    [3]vreg
	format vreg
}

// gen is one compilation.
type gen struct {
	p      *ir.Program
	a      asm
	float  []bool
	weight []int
	home   []home
	wscale int
	frame  int32 // frame bytes allocated so far
	// framesMem puts the frames in device memory (Layout.FramesInMemory).
	framesMem bool
	// arrayed marks IR registers that array ops index: they live at regArea+4*r.
	arrayed []bool
	regArea int32
	xs, fs  int // scratch registers taken by the current IR instruction
	err     error

	in             [ir.ComputeInputWords]vreg
	idx, uni, lmem vreg
	barID, barCnt  vreg
	binds          []binding
	vs             *vsGen  // the vertex stage's state (CompileVertex; nil: compute)
	fsg            *fsGen  // the fragment stage's state (CompileFragment; nil: another stage)
	ctx            []*node // enclosing loops and scopes, innermost last
	pc             int     // the IR instruction being generated

	// The dry run's record of every reference, for the live intervals (alloc.go).
	rec    bool
	refs   []ref
	blk    int   // the current block
	parent []int // each block's enclosing block (-1: none)
	loops  []loopRange
	zero   []bool // IR registers the prologue zeroes (a read may come first)
}

func (g *gen) newVreg(float bool, w int) vreg {
	g.float = append(g.float, float)
	g.weight = append(g.weight, w*max(g.wscale, 1))
	return vreg(len(g.float) - 1)
}

func (g *gen) bump(v vreg, w int) {
	if v >= 0 {
		g.weight[v] += w
	}
}

// use counts the register operands of in.
func (g *gen) use(in *ir.Inst) {
	if in.Op.HasDst() && in.Dst != ir.NoReg {
		g.bump(vreg(in.Dst), g.wscale)
	}
	for i := 0; i < in.Op.NumSrc(); i++ {
		if in.Src[i] != ir.NoReg {
			g.bump(vreg(in.Src[i]), g.wscale)
		}
	}
	switch in.Op {
	case ir.ArrayLoad, ir.ArrayStore:
		for k := uint32(0); k < in.Len; k++ {
			r := in.Imm + k*in.Stride
			if int(r) < len(g.arrayed) {
				g.arrayed[r] = true
			}
		}
	case ir.Tex:
		if int(in.Imm) < len(g.p.Tex) {
			t := &g.p.Tex[in.Imm]
			for _, r := range append(t.Coord[:t.NCoord:t.NCoord], t.Dst[:]...) {
				if r != ir.NoReg {
					g.bump(vreg(r), g.wscale)
				}
			}
		}
	case ir.LoadInput:
		if g.vs == nil && g.fsg == nil && in.Imm < ir.ComputeInputWords && g.in[in.Imm] == noVreg {
			g.in[in.Imm] = g.newVreg(false, 1)
		}
	}
}

const rGP = 3

// slot returns base and offset addressing frame word off: sp-relative when off fits
// 12 bits, else through gp.
func (g *gen) slot(off int32) (uint8, int32) {
	if off < 2048 {
		return rSP, off
	}
	g.a.li(rGP, uint32(off))
	g.a.r(rv32.ADD, rGP, rGP, rSP)
	return rGP, 0
}

func (g *gen) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("codegen: main@%d: "+format, append([]any{g.pc}, args...)...)
	}
}

// tmpX returns a free integer scratch register for the current IR instruction.
func (g *gen) tmpX() uint8 {
	if g.xs >= len(scratchX) {
		g.fail("internal error: out of integer scratch registers")
		return rT0
	}
	g.xs++
	return scratchX[g.xs-1]
}

func (g *gen) tmpF() uint8 {
	if g.fs >= len(scratchF) {
		g.fail("internal error: out of float scratch registers")
		return 0
	}
	g.fs++
	return scratchF[g.fs-1]
}

func (g *gen) reset() { g.xs, g.fs = 0, 0 }

// x returns an integer register holding v's bits.
func (g *gen) x(v vreg) uint8 {
	g.ref(v, false)
	h := g.home[v]
	switch h.kind {
	case hX:
		return h.reg
	case hF:
		r := g.tmpX()
		g.a.r(rv32.FMVXW, r, h.reg, 0)
		return r
	case hStack:
		r := g.tmpX()
		b, o := g.slot(h.off)
		g.a.lw(r, b, o)
		return r
	}
	return rZero // never written: reads as zero, as the executor's registers start
}

// f returns a float register holding v's bits.
func (g *gen) f(v vreg) uint8 {
	g.ref(v, false)
	h := g.home[v]
	switch h.kind {
	case hF:
		return h.reg
	case hX:
		r := g.tmpF()
		g.a.r(rv32.FMVWX, r, h.reg, 0)
		return r
	case hStack:
		r := g.tmpF()
		b, o := g.slot(h.off)
		g.a.flw(r, b, o)
		return r
	}
	r := g.tmpF()
	g.a.r(rv32.FMVWX, r, rZero, 0)
	return r
}

// dx returns the register a one-instruction result for v is computed into; finX
// stores it home.
func (g *gen) dx(v vreg) uint8 {
	if h := g.home[v]; h.kind == hX {
		return h.reg
	}
	return g.tmpX()
}

func (g *gen) finX(v vreg, r uint8) {
	g.ref(v, true)
	h := g.home[v]
	switch h.kind {
	case hX:
		g.a.mv(h.reg, r)
	case hF:
		g.a.r(rv32.FMVWX, h.reg, r, 0)
	case hStack:
		b, o := g.slot(h.off)
		g.a.sw(r, b, o)
	}
}

func (g *gen) df(v vreg) uint8 {
	if h := g.home[v]; h.kind == hF {
		return h.reg
	}
	return g.tmpF()
}

func (g *gen) finF(v vreg, r uint8) {
	g.ref(v, true)
	h := g.home[v]
	switch h.kind {
	case hF:
		if h.reg != r {
			g.a.fr(rv32.FSGNJS, h.reg, r, r, 0)
		}
	case hX:
		g.a.r(rv32.FMVXW, h.reg, r, 0)
	case hStack:
		b, o := g.slot(h.off)
		g.a.fsw(r, b, o)
	}
}

// setConst stores the constant c into v.
func (g *gen) setConst(v vreg, c uint32) {
	if g.float[v] && g.home[v].kind == hF && c == 0 {
		g.ref(v, true)
		g.a.r(rv32.FMVWX, g.home[v].reg, rZero, 0)
		return
	}
	r := g.dx(v)
	if g.home[v].kind == hStack && c == 0 {
		g.ref(v, true)
		b, o := g.slot(g.home[v].off)
		g.a.sw(rZero, b, o)
		return
	}
	g.a.li(r, c)
	g.finX(v, r)
}

// CTA CSRs. spec: vortex-hardware-facts.md §6 (0xCD0-0xCE1), device/simt's table.
const (
	csrCTAID       = simt.CSRCTAID
	csrCTARank     = simt.CSRCTAID + 1
	csrCTASize     = simt.CSRCTAID + 2
	csrCTAThreadID = simt.CSRCTAID + 3 // x, y, z
	csrCTABlockID  = simt.CSRCTAID + 6
	csrCTAGridDim  = simt.CSRCTAID + 12
	csrCTALMem     = simt.CSRCTALMemAddr
)
