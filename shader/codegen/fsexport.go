package codegen

// The fragment-only ops and the export of the machine-code wrapper
// (CompileFragment). spec: vortexpipe-driver.md §2.2, §3.4

import (
	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

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
	case ir.Tex:
		if int(in.Imm) >= len(g.p.Tex) {
			return false
		}
		switch t := &g.p.Tex[in.Imm]; t.Op {
		case ir.TexFetch:
			g.texFetch(t, abi.ArgFSSWSampler)
		case ir.TexSize:
			g.texSize(t, abi.ArgFSSWSampler)
		default:
			g.texSample(t)
		}
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
