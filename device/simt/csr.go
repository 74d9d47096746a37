package simt

import (
	"math/bits"

	"vortexgfx/isa/rv32"
)

// CSR numbers. spec: vortex-hardware-facts.md §6; the rest are the RISC-V privileged
// spec's and Vortex's VX_types.h.
const (
	CSRFflags       = 0x001
	CSRFrm          = 0x002
	CSRFcsr         = 0x003
	CSRMstatus      = 0x300
	CSRMisa         = 0x301
	CSRMie          = 0x304
	CSRMtvec        = 0x305
	CSRMscratch     = 0x340
	CSRMepc         = 0x341
	CSRMcause       = 0x342
	CSRMtval        = 0x343
	CSRMip          = 0x344
	CSRMcycle       = 0xB00
	CSRMinstret     = 0xB02
	CSRMcycleH      = 0xB80
	CSRMinstretH    = 0xB82
	CSRCycle        = 0xC00
	CSRInstret      = 0xC02
	CSRCycleH       = 0xC80
	CSRInstretH     = 0xC82
	CSRMvendorid    = 0xF11
	CSRMarchid      = 0xF12
	CSRMimpid       = 0xF13
	CSRMhartid      = 0xF14
	CSRThreadID     = 0xCC0
	CSRWarpID       = 0xCC1
	CSRCoreID       = 0xCC2
	CSRActiveWarps  = 0xCC3
	CSRActiveThread = 0xCC4
	CSRNumThreads   = 0xFC0
	CSRNumWarps     = 0xFC1
	CSRNumCores     = 0xFC2
	CSRLocalMemBase = 0xFC3
	CSRCTAID        = 0xCD0 // CTA_ID, then RANK, SIZE, THREAD_ID_X..Z, BLOCK_ID_X..Z, BLOCK_DIM_X..Z, GRID_DIM_X..Z
	CSRCTALMemAddr  = 0xCDF
	CSRCTACluster   = 0xCE0
	CSRCTAEntry     = 0xCE1
	CSRFragPos      = 0xCE2
	CSRFragPID      = 0xCE3
	CSROMRTIdx      = 0x7CE // reserved: reads 0, writes ignored
	CSROMSampleIdx  = 0x7CF
)

// misa for RV32IMAF: MXL=1 and the I, M, A, F letters.
const misaRV32IMAF = 1<<30 | 1<<('I'-'A') | 1<<('M'-'A') | 1<<0 | 1<<('F'-'A') // bit 0 is A

// readCSR returns CSR n as lane l of warp wi sees it; ok is false for an unknown CSR.
func (c *Core) readCSR(wi int, w *warp, l int, n uint16) (uint32, bool) {
	switch n {
	case CSRFflags:
		return w.fcsr & 0x1f, true
	case CSRFrm:
		return w.fcsr >> 5 & 7, true
	case CSRFcsr:
		return w.fcsr & 0xff, true
	case CSRMisa:
		return misaRV32IMAF, true
	case CSRMscratch:
		return w.mscratch, true
	case CSRMcycle, CSRCycle:
		return uint32(c.cycle), true
	case CSRMcycleH, CSRCycleH:
		return uint32(c.cycle >> 32), true
	case CSRMinstret, CSRInstret:
		return uint32(w.instret), true
	case CSRMinstretH, CSRInstretH:
		return uint32(w.instret >> 32), true
	case CSRMvendorid, CSRMarchid, CSRMimpid:
		return 0, true
	case CSRMhartid:
		return (c.cfg.CoreID*uint32(c.cfg.Warps)+uint32(wi))*uint32(c.cfg.Threads) + uint32(l), true
	case CSRThreadID:
		return uint32(l), true
	case CSRWarpID:
		return uint32(wi), true
	case CSRCoreID:
		return c.cfg.CoreID, true
	case CSRActiveWarps:
		var m uint32
		for i := range c.warps {
			if c.warps[i].active {
				m |= 1 << i
			}
		}
		return m, true
	case CSRActiveThread:
		return w.mask, true
	case CSRNumThreads:
		return uint32(c.cfg.Threads), true
	case CSRNumWarps:
		return uint32(c.cfg.Warps), true
	case CSRNumCores:
		return c.cfg.Cores, true
	case CSRLocalMemBase:
		return c.cfg.LocalMemBase, true
	case CSRFragPos, CSRFragPID:
		if w.frag == nil {
			return 0, true
		}
		if n == CSRFragPos {
			return w.frag.FragPos(l), true
		}
		return w.frag.FragPID(l), true
	case CSROMRTIdx, CSROMSampleIdx:
		return 0, true
	case CSRMstatus, CSRMie, CSRMtvec, CSRMepc, CSRMcause, CSRMtval, CSRMip:
		return w.csrs[n], true
	}
	if n >= CSRCTAID && n <= CSRCTAEntry {
		return ctaCSR(&w.cta, n, uint32(l)), true
	}
	return 0, false
}

// ctaCSR reads a CTA CSR; the thread index of a lane is the warp's base index plus
// the lane, carried through the block dimensions (SimX's formula).
func ctaCSR(cta *CTA, n uint16, lane uint32) uint32 {
	switch n - CSRCTAID {
	case 0:
		return cta.ID
	case 1:
		return cta.Rank
	case 2:
		return cta.Size
	case 3, 4, 5:
		bx, by := max(cta.BlockDim[0], 1), max(cta.BlockDim[1], 1)
		x := cta.ThreadIdx[0] + lane
		y := cta.ThreadIdx[1] + x/bx
		z := cta.ThreadIdx[2] + y/by
		return [3]uint32{x % bx, y % by, z}[n-CSRCTAID-3]
	case 6, 7, 8:
		return cta.BlockIdx[n-CSRCTAID-6]
	case 9, 10, 11:
		return cta.BlockDim[n-CSRCTAID-9]
	case 12, 13, 14:
		return cta.GridDim[n-CSRCTAID-12]
	case 15:
		return cta.LMemAddr
	case 16:
		return cta.ClusterSize
	default:
		return cta.Entry
	}
}

// writeCSR writes CSR n; ok is false for a read-only or unknown CSR.
func (c *Core) writeCSR(w *warp, n uint16, v uint32) bool {
	switch n {
	case CSRFflags:
		w.fcsr = w.fcsr&^0x1f | v&0x1f
	case CSRFrm:
		w.fcsr = w.fcsr&^0xe0 | (v&7)<<5
	case CSRFcsr:
		w.fcsr = v & 0xff
	case CSRMscratch:
		w.mscratch = v
	case CSRMcycle:
		c.cycle = c.cycle&^0xffffffff | uint64(v)
	case CSRMcycleH:
		c.cycle = c.cycle&0xffffffff | uint64(v)<<32
	case CSRMinstret:
		w.instret = w.instret&^0xffffffff | uint64(v)
	case CSRMinstretH:
		w.instret = w.instret&0xffffffff | uint64(v)<<32
	case CSRMisa, CSROMRTIdx, CSROMSampleIdx:
		// WARL / reserved: writes are ignored.
	case CSRMstatus, CSRMie, CSRMtvec, CSRMepc, CSRMcause, CSRMtval, CSRMip:
		w.csrs[n] = v
	default:
		return false
	}
	return true
}

func (c *Core) csrOp(wi int, w *warp, in *rv32.Inst) error {
	T := c.cfg.Threads
	x := w.x
	imm := in.Op == rv32.CSRRWI || in.Op == rv32.CSRRSI || in.Op == rv32.CSRRCI
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		old, ok := c.readCSR(wi, w, l, in.CSR)
		if !ok {
			return c.illegal(wi, w, "CSR 0x%03x is not implemented", in.CSR)
		}
		src := uint32(in.Imm)
		if !imm {
			src = x[int(in.Rs1)*T+l]
		}
		var v uint32
		write := true
		switch in.Op {
		case rv32.CSRRW, rv32.CSRRWI:
			v = src
		case rv32.CSRRS, rv32.CSRRSI:
			v, write = old|src, (imm && in.Imm != 0) || (!imm && in.Rs1 != 0)
		default:
			v, write = old&^src, (imm && in.Imm != 0) || (!imm && in.Rs1 != 0)
		}
		if write && !c.writeCSR(w, in.CSR, v) {
			return c.illegal(wi, w, "CSR 0x%03x is read-only", in.CSR)
		}
		if in.Rd != 0 {
			x[int(in.Rd)*T+l] = old
		}
	}
	return nil
}
