package codegen

// The fragment wrapper's per-lane prologue and its input words (CompileFragment;
// the contract is fragment.go's). spec: vortexpipe-driver.md §3.4

import (
	"math"

	"vortexgfx/abi"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

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
