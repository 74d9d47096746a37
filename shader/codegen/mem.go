package codegen

import (
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// bindingFor returns the descriptor the prologue looked up for (space, slot).
func (g *gen) bindingFor(space ir.Space, slot uint32) *binding {
	for i := range g.binds {
		if b := &g.binds[i]; b.space == space && b.slot == slot {
			return b
		}
	}
	return nil
}

// clampIdx returns a scratch register holding the executor's index clamp (package
// exec's clampIndex: a negative int is 0, anything else at most n-1) times stride.
func (g *gen) clampIdx(idx vreg, n, stride uint32) uint8 {
	a := &g.a
	v := g.x(idx)
	t, k := g.tmpX(), g.tmpX()
	if g.p.Regs[idx] == ir.I32 {
		a.i(rv32.SRAI, t, v, 31)
		a.i(rv32.XORI, t, t, -1)
		a.r(rv32.AND, t, v, t)
	} else {
		a.mv(t, v)
	}
	a.li(k, n-1)
	c := g.tmpX()
	a.r(rv32.SLTU, c, k, t)
	g.sel(k, c, k, t)
	if stride != 1 {
		a.li(t, stride)
		a.r(rv32.MUL, k, k, t)
	}
	return k
}

// mem generates the memory, uniform, input and array opcodes; ok is false for one
// it does not implement.
func (g *gen) mem(in *ir.Inst) bool {
	a := &g.a
	dst := vreg(in.Dst)
	switch in.Op {
	case ir.LoadInput:
		if g.vs != nil {
			g.vertexInput(in)
			return true
		}
		if in.Imm >= ir.ComputeInputWords {
			return false
		}
		g.copyBits(dst, g.in[in.Imm])
	case ir.LoadUniform, ir.LoadUniformIdx:
		u := g.x(g.uni)
		addr := g.tmpX()
		off := int32(4 * in.Imm)
		if in.Op == ir.LoadUniformIdx {
			k := g.clampIdx(g.src(in, 0), in.Len, in.Stride)
			a.i(rv32.SLLI, k, k, 2)
			a.r(rv32.ADD, addr, u, k)
			a.addConst(addr, addr, off, k)
		} else {
			a.addConst(addr, u, off, addr)
		}
		g.loadTo(dst, addr)
	case ir.ArrayLoad, ir.ArrayStore:
		k := g.clampIdx(g.src(in, 0), in.Len, in.Stride)
		a.i(rv32.SLLI, k, k, 2)
		a.r(rv32.ADD, k, k, rSP)
		a.addConst(k, k, g.regArea+4*int32(in.Imm), g.tmpX())
		if in.Op == ir.ArrayLoad {
			g.loadTo(dst, k)
		} else {
			a.sw(g.x(g.src(in, 1)), k, 0)
		}
	case ir.MemSize:
		if ir.Space(in.Len) == ir.SpaceShared {
			g.setConst(dst, g.p.SharedBytes)
			return true
		}
		b := g.bindingFor(ir.Space(in.Len), in.Imm)
		if b == nil {
			return false
		}
		g.copyBits(dst, b.size)
	case ir.MemLoad, ir.MemStore, ir.MemAtomic:
		return g.access(in)
	case ir.ImageExtent, ir.ImageFormatOf:
		b := g.bindingFor(ir.SpaceImage, in.Imm)
		if b == nil {
			return false
		}
		v := b.format
		if in.Op == ir.ImageExtent {
			v = b.ext[in.Stride]
		}
		g.copyBits(dst, v)
	case ir.StoreOutput:
		if g.vs == nil {
			return false
		}
		g.vertexOutput(in)
	case ir.Barrier:
		// spec: vortexpipe-driver §2.2 (emit_vx_barrier: the CTA id as barrier id,
		// the CTA's warp count as the count).
		a.emit(rv32.Inst{Op: rv32.VXBAR, Rs1: g.x(g.barID), Rs2: g.x(g.barCnt)})
	default:
		return false
	}
	return true
}

// loadTo loads the word at 0(addr) into dst.
func (g *gen) loadTo(dst vreg, addr uint8) {
	if g.float[dst] {
		d := g.df(dst)
		g.a.flw(d, addr, 0)
		g.finF(dst, d)
		return
	}
	d := g.dx(dst)
	g.a.lw(d, addr, 0)
	g.finX(dst, d)
}

var amoOps = [...]rv32.Op{
	ir.AtomicAdd: rv32.AMOADDW, ir.AtomicIMin: rv32.AMOMINW, ir.AtomicUMin: rv32.AMOMINUW,
	ir.AtomicIMax: rv32.AMOMAXW, ir.AtomicUMax: rv32.AMOMAXUW, ir.AtomicAnd: rv32.AMOANDW,
	ir.AtomicOr: rv32.AMOORW, ir.AtomicXor: rv32.AMOXORW, ir.AtomicExchange: rv32.AMOSWAPW,
}

// access emits a storage-buffer, atomic-counter or shared-memory word access with
// the executor's robust buffer access, branch-free: a lane whose byte address is
// misaligned or not wholly inside the binding is sent to its frame's dummy word
// (0(sp)), its load or atomic result masked to 0, so the store or atomic is dropped.
// spec: vortexpipe-driver §2.5 (descriptors the kernel dereferences).
func (g *gen) access(in *ir.Inst) bool {
	a := &g.a
	space := ir.Space(in.Len)
	var base, lim uint8
	switch space {
	case ir.SpaceShared:
		base = g.x(g.lmem)
		lim = g.tmpX()
		l := uint32(0)
		if g.p.SharedBytes >= 4 {
			l = g.p.SharedBytes - 3
		}
		a.li(lim, l)
	case ir.SpaceBuffer, ir.SpaceCounter, ir.SpaceImage:
		b := g.bindingFor(space, in.Imm)
		if b == nil {
			return false
		}
		base, lim = g.x(b.base), g.x(b.lim)
	default:
		return false
	}
	if in.Op == ir.MemAtomic && ir.AtomicOp(in.Stride) != ir.AtomicCompSwap {
		if int(in.Stride) >= len(amoOps) || amoOps[in.Stride] == 0 {
			return false
		}
	}
	addr := g.x(g.src(in, 0))
	m, p := g.tmpX(), g.tmpX()
	a.i(rv32.ANDI, m, addr, 3)
	a.i(rv32.SLTIU, m, m, 1)
	a.r(rv32.SLTU, p, addr, lim)
	a.r(rv32.AND, m, m, p)
	a.r(rv32.SUB, m, rZero, m) // all ones in bounds, else 0
	a.r(rv32.ADD, p, base, addr)
	a.r(rv32.SUB, p, p, rSP)
	a.r(rv32.AND, p, p, m)
	a.r(rv32.ADD, p, p, rSP)
	switch in.Op {
	case ir.MemLoad:
		d := g.tmpX()
		a.lw(d, p, 0)
		a.r(rv32.AND, d, d, m)
		g.finX(vreg(in.Dst), d)
	case ir.MemStore:
		a.sw(g.x(g.src(in, 1)), p, 0)
	case ir.MemAtomic:
		v := g.x(g.src(in, 1))
		if ir.AtomicOp(in.Stride) == ir.AtomicCompSwap {
			g.compSwap(vreg(in.Dst), p, m, v, g.x(g.src(in, 2)))
			return true
		}
		d := g.tmpX()
		a.emit(rv32.Inst{Op: amoOps[in.Stride], Rd: d, Rs1: p, Rs2: v})
		a.r(rv32.AND, d, d, m)
		g.finX(vreg(in.Dst), d)
	}
	return true
}

// compSwap emits atomicCompSwap as an lr.w/sc.w loop that is uniform for the warp:
// every lane still trying runs lr, the compare and sc; vx_pred keeps the lanes whose
// sc failed (another lane's sc to the word broke their reservation) and, when none
// did, restores the entry mask and falls through. Lanes on one word succeed in lane
// order, one per round, so the words and results are the executor's lane-ordered
// ones. gp holds the entry mask (no frame access happens inside the loop).
func (g *gen) compSwap(dst vreg, p, m, val, cmpv uint8) {
	a := &g.a
	old, eq, nw := g.tmpX(), g.tmpX(), g.tmpX()
	a.csrr(rGP, simt.CSRActiveThread)
	retry := a.newLabel()
	a.place(retry)
	a.emit(rv32.Inst{Op: rv32.LRW, Rd: old, Rs1: p})
	a.r(rv32.XOR, eq, old, cmpv)
	a.i(rv32.SLTIU, eq, eq, 1)
	a.mv(nw, val)
	g.sel(nw, eq, nw, old)
	a.emit(rv32.Inst{Op: rv32.SCW, Rd: eq, Rs1: p, Rs2: nw})
	a.emit(rv32.Inst{Op: rv32.VXPRED, Rs1: eq, Rs2: rGP})
	a.branch(rv32.BNE, eq, rZero, retry)
	a.r(rv32.AND, old, old, m)
	g.finX(dst, old)
}
