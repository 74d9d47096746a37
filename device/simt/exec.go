package simt

import (
	"fmt"
	"math/bits"

	"vortexgfx/isa/rv32"
)

// aluR applies fn lane-wise to registers rs1 and rs2 (offsets into x) into rd.
func aluR(x []uint32, T int, mask uint32, full bool, rd, rs1, rs2 int, fn func(a, b uint32) uint32) {
	if mask&(mask-1) == 0 { // one lane (a 1-thread warp, or a diverged one)
		l := bits.TrailingZeros32(mask)
		x[rd+l] = fn(x[rs1+l], x[rs2+l])
		return
	}
	if full {
		d, a, b := x[rd:rd+T], x[rs1:rs1+T], x[rs2:rs2+T]
		for l := range d {
			d[l] = fn(a[l], b[l])
		}
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		x[rd+l] = fn(x[rs1+l], x[rs2+l])
	}
}

// aluI applies fn lane-wise to register rs1 and the immediate into rd.
func aluI(x []uint32, T int, mask uint32, full bool, rd, rs1 int, imm uint32, fn func(a, b uint32) uint32) {
	if mask&(mask-1) == 0 {
		l := bits.TrailingZeros32(mask)
		x[rd+l] = fn(x[rs1+l], imm)
		return
	}
	if full {
		d, a := x[rd:rd+T], x[rs1:rs1+T]
		for l := range d {
			d[l] = fn(a[l], imm)
		}
		return
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		x[rd+l] = fn(x[rs1+l], imm)
	}
}

// forLanes calls fn for every lane set in mask, lowest first.
func forLanes(mask uint32, fn func(l int)) {
	for m := mask; m != 0; m &= m - 1 {
		fn(bits.TrailingZeros32(m))
	}
}

func (c *Core) illegal(wi int, w *warp, format string, args ...any) error {
	return &Fault{Kind: "illegal instruction", PC: w.pc, Warp: wi, Lane: -1, Addr: w.pc, Err: fmt.Errorf(format, args...)}
}

func (c *Core) memFault(kind string, wi int, w *warp, lane int, addr uint32, err error) error {
	return &Fault{Kind: kind, PC: w.pc, Warp: wi, Lane: lane, Addr: addr, Err: err}
}

// exec executes one instruction for the running lane group and advances the pc.
func (c *Core) exec(wi int, w *warp, in *rv32.Inst) error {
	T := c.cfg.Threads
	x := w.x
	mask := w.mask
	rd, rs1, rs2 := int(in.Rd)*T, int(in.Rs1)*T, int(in.Rs2)*T
	imm := uint32(in.Imm)
	next := w.pc + 4

	full := mask == c.laneMask()
	// Most integer ops are one lane-wise function (aluOps).
	if a := &aluOps[in.Op]; a.fn != nil {
		if in.Rd != 0 {
			if a.imm {
				aluI(x, T, mask, full, rd, rs1, imm, a.fn)
			} else {
				aluR(x, T, mask, full, rd, rs1, rs2, a.fn)
			}
		}
		w.pc = next
		return nil
	}

	switch in.Op {
	case rv32.ADDI:
		if in.Rd != 0 {
			for m := mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				x[rd+l] = x[rs1+l] + imm
			}
		}
	case rv32.ADD:
		if in.Rd != 0 {
			for m := mask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				x[rd+l] = x[rs1+l] + x[rs2+l]
			}
		}
	case rv32.AUIPC:
		if in.Rd != 0 {
			forLanes(mask, func(l int) { x[rd+l] = w.pc + imm })
		}

	case rv32.BEQ, rv32.BNE, rv32.BLT, rv32.BGE, rv32.BLTU, rv32.BGEU:
		var taken uint32
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			a, b := x[rs1+l], x[rs2+l]
			var t bool
			switch in.Op {
			case rv32.BEQ:
				t = a == b
			case rv32.BNE:
				t = a != b
			case rv32.BLT:
				t = int32(a) < int32(b)
			case rv32.BGE:
				t = int32(a) >= int32(b)
			case rv32.BLTU:
				t = a < b
			default:
				t = a >= b
			}
			if t {
				taken |= 1 << l
			}
		}
		target := w.pc + imm
		switch taken {
		case 0:
		case mask:
			next = target
		default:
			// Lanes disagree: serialise the two paths (see the package doc).
			w.diverge(next, target, taken)
			return nil
		}
	case rv32.JAL:
		if in.Rd != 0 {
			forLanes(mask, func(l int) { x[rd+l] = next })
		}
		if isLink(in.Rd) {
			w.depth++ // a call
		}
		next = w.pc + imm
	case rv32.JALR:
		// Targets may differ per lane: the lanes of the first lane's target run on,
		// the others are suspended, one group per distinct target.
		first := bits.TrailingZeros32(mask) // the lowest running lane
		target := (x[rs1+first] + imm) &^ 1
		var others []group
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			t := (x[rs1+l] + imm) &^ 1
			if t == target {
				continue
			}
			found := false
			for i := range others {
				if others[i].pc == t {
					others[i].mask |= 1 << l
					found = true
				}
			}
			if !found {
				others = append(others, group{pc: t, mask: 1 << l})
			}
		}
		if in.Rd != 0 {
			forLanes(mask, func(l int) { x[rd+l] = next })
		}
		// Calls and returns by the RISC-V return-address hints (x1 and x5 are link
		// registers): a call pushes, a return pops, a coroutine swap does both.
		switch rdL, rsL := isLink(in.Rd), isLink(in.Rs1); {
		case rdL && rsL && in.Rd != in.Rs1:
		case rdL:
			w.depth++
		case rsL:
			w.depth--
		}
		if len(others) == 0 {
			next = target
			break
		}
		for _, g := range others {
			w.diverge(target, g.pc, g.mask)
		}
		return nil

	case rv32.LB, rv32.LH, rv32.LW, rv32.LBU, rv32.LHU, rv32.FLW:
		size := 4
		switch in.Op {
		case rv32.LB, rv32.LBU:
			size = 1
		case rv32.LH, rv32.LHU:
			size = 2
		}
		dst := x
		if in.Op == rv32.FLW {
			dst = w.f
		}
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := x[rs1+l] + imm
			if addr&uint32(size-1) != 0 {
				return c.memFault("load", wi, w, l, addr, fmt.Errorf("misaligned %d-byte load", size))
			}
			v, err := c.mem.Load(addr, size)
			if err != nil {
				return c.memFault("load", wi, w, l, addr, err)
			}
			switch in.Op {
			case rv32.LB:
				v = uint32(int32(int8(v)))
			case rv32.LH:
				v = uint32(int32(int16(v)))
			}
			if in.Rd != 0 || in.Op == rv32.FLW {
				dst[rd+l] = v
			}
		}
	case rv32.SB, rv32.SH, rv32.SW, rv32.FSW:
		size := 4
		switch in.Op {
		case rv32.SB:
			size = 1
		case rv32.SH:
			size = 2
		}
		src := x
		if in.Op == rv32.FSW {
			src = w.f
		}
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			addr := x[rs1+l] + imm
			if addr&uint32(size-1) != 0 {
				return c.memFault("store", wi, w, l, addr, fmt.Errorf("misaligned %d-byte store", size))
			}
			if err := c.mem.Store(addr, size, src[rs2+l]); err != nil {
				return c.memFault("store", wi, w, l, addr, err)
			}
			c.code.invalidate(addr)
		}

	case rv32.FENCE:
		// Memory is sequentially consistent in this model: nothing to order.
	case rv32.ECALL:
		return c.illegal(wi, w, "ecall: environment calls are not modelled (use semihosting)")
	case rv32.EBREAK:
		if err := c.ebreak(wi, w); err != nil {
			return err
		}

	case rv32.CSRRW, rv32.CSRRS, rv32.CSRRC, rv32.CSRRWI, rv32.CSRRSI, rv32.CSRRCI:
		if err := c.csrOp(wi, w, in); err != nil {
			return err
		}

	case rv32.LRW, rv32.SCW, rv32.AMOSWAPW, rv32.AMOADDW, rv32.AMOXORW, rv32.AMOANDW,
		rv32.AMOORW, rv32.AMOMINW, rv32.AMOMAXW, rv32.AMOMINUW, rv32.AMOMAXUW:
		if err := c.amo(wi, w, in); err != nil {
			return err
		}

	case rv32.VXTMC, rv32.VXWSPAWN, rv32.VXSPLIT, rv32.VXSPLITN, rv32.VXJOIN, rv32.VXBAR,
		rv32.VXPRED, rv32.VXPREDN:
		return c.warpControl(wi, w, in)
	case rv32.VXVOTEALL, rv32.VXVOTEANY, rv32.VXVOTEUNI, rv32.VXVOTEBALLOT:
		c.vote(w, in)
	case rv32.VXSHFLUP, rv32.VXSHFLDOWN, rv32.VXSHFLBFLY, rv32.VXSHFLIDX:
		c.shuffle(w, in)
	case rv32.VXTEX, rv32.VXOMEXPORT:
		if err := c.graphics(wi, w, in); err != nil {
			return err
		}

	default:
		if err := c.fpOp(wi, w, in); err != nil {
			return err
		}
	}
	w.pc = next
	return nil
}

// aluOps are the integer ops that are one function of (rs1, rs2 or imm).
var aluOps [rv32.NumOps]struct {
	fn  func(a, b uint32) uint32
	imm bool
}

func init() {
	for op, f := range map[rv32.Op]func(a, b uint32) uint32{
		rv32.LUI:    func(_, b uint32) uint32 { return b },
		rv32.SLTI:   func(a, b uint32) uint32 { return b2u(int32(a) < int32(b)) },
		rv32.SLTIU:  func(a, b uint32) uint32 { return b2u(a < b) },
		rv32.XORI:   func(a, b uint32) uint32 { return a ^ b },
		rv32.ORI:    func(a, b uint32) uint32 { return a | b },
		rv32.ANDI:   func(a, b uint32) uint32 { return a & b },
		rv32.SLLI:   func(a, b uint32) uint32 { return a << b },
		rv32.SRLI:   func(a, b uint32) uint32 { return a >> b },
		rv32.SRAI:   func(a, b uint32) uint32 { return uint32(int32(a) >> b) },
		rv32.SUB:    func(a, b uint32) uint32 { return a - b },
		rv32.SLL:    func(a, b uint32) uint32 { return a << (b & 31) },
		rv32.SLT:    func(a, b uint32) uint32 { return b2u(int32(a) < int32(b)) },
		rv32.SLTU:   func(a, b uint32) uint32 { return b2u(a < b) },
		rv32.XOR:    func(a, b uint32) uint32 { return a ^ b },
		rv32.SRL:    func(a, b uint32) uint32 { return a >> (b & 31) },
		rv32.SRA:    func(a, b uint32) uint32 { return uint32(int32(a) >> (b & 31)) },
		rv32.OR:     func(a, b uint32) uint32 { return a | b },
		rv32.AND:    func(a, b uint32) uint32 { return a & b },
		rv32.MUL:    func(a, b uint32) uint32 { return a * b },
		rv32.MULH:   func(a, b uint32) uint32 { return uint32(uint64(int64(int32(a))*int64(int32(b))) >> 32) },
		rv32.MULHSU: func(a, b uint32) uint32 { return uint32(uint64(int64(int32(a))*int64(b)) >> 32) },
		rv32.MULHU:  func(a, b uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) },
		rv32.DIV:    div,
		rv32.DIVU: func(a, b uint32) uint32 {
			if b == 0 {
				return ^uint32(0)
			}
			return a / b
		},
		rv32.REM: rem,
		rv32.REMU: func(a, b uint32) uint32 {
			if b == 0 {
				return a
			}
			return a % b
		},
	} {
		aluOps[op].fn = f
	}
	for _, op := range []rv32.Op{rv32.LUI, rv32.SLTI, rv32.SLTIU, rv32.XORI, rv32.ORI, rv32.ANDI, rv32.SLLI, rv32.SRLI, rv32.SRAI} {
		aluOps[op].imm = true
	}
}

// isLink reports whether r is a link register (ra or t0) for call/return hints.
func isLink(r uint8) bool { return r == 1 || r == 5 }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// div and rem follow RV32M: division by zero gives -1 (rem: the dividend);
// INT_MIN / -1 overflows to INT_MIN (rem: 0).
func div(a, b uint32) uint32 {
	if b == 0 {
		return ^uint32(0)
	}
	if a == 0x80000000 && b == ^uint32(0) {
		return a
	}
	return uint32(int32(a) / int32(b))
}

func rem(a, b uint32) uint32 {
	if b == 0 {
		return a
	}
	if a == 0x80000000 && b == ^uint32(0) {
		return 0
	}
	return uint32(int32(a) % int32(b))
}

// amo executes LR/SC and the AMOs lane by lane in lane order. Memory is sequentially
// consistent, so aq/rl order nothing further. An SC or AMO that writes a word breaks
// every other lane's reservation on it; plain stores do not (not modelled).
func (c *Core) amo(wi int, w *warp, in *rv32.Inst) error {
	if sm, ok := c.mem.(SharedMemory); ok {
		sm.LockAtomic()
		defer sm.UnlockAtomic()
		return c.amoLanes(wi, w, in, true)
	}
	return c.amoLanes(wi, w, in, false)
}

// amoLanes is amo's lane loop; shared adds the SC value check of SharedMemory.
func (c *Core) amoLanes(wi int, w *warp, in *rv32.Inst, shared bool) error {
	T := c.cfg.Threads
	x := w.x
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		addr := x[int(in.Rs1)*T+l]
		if addr&3 != 0 {
			return c.memFault("atomic", wi, w, l, addr, fmt.Errorf("misaligned atomic access"))
		}
		src := x[int(in.Rs2)*T+l]
		var result uint32
		switch in.Op {
		case rv32.LRW:
			v, err := c.mem.Load(addr, 4)
			if err != nil {
				return c.memFault("load", wi, w, l, addr, err)
			}
			w.resv[l], w.resvOK = addr, w.resvOK|1<<l
			w.resvVal[l] = v
			result = v
		case rv32.SCW:
			result = 1
			ok := w.resvOK&(1<<l) != 0 && w.resv[l] == addr
			if ok && shared {
				v, err := c.mem.Load(addr, 4)
				if err != nil {
					return c.memFault("load", wi, w, l, addr, err)
				}
				ok = v == w.resvVal[l]
			}
			if ok {
				if err := c.mem.Store(addr, 4, src); err != nil {
					return c.memFault("store", wi, w, l, addr, err)
				}
				c.code.invalidate(addr)
				c.breakReservations(addr)
				result = 0
			}
			w.resvOK &^= 1 << l
		default:
			old, err := c.mem.Load(addr, 4)
			if err != nil {
				return c.memFault("load", wi, w, l, addr, err)
			}
			var v uint32
			switch in.Op {
			case rv32.AMOSWAPW:
				v = src
			case rv32.AMOADDW:
				v = old + src
			case rv32.AMOXORW:
				v = old ^ src
			case rv32.AMOANDW:
				v = old & src
			case rv32.AMOORW:
				v = old | src
			case rv32.AMOMINW:
				v = old
				if int32(src) < int32(old) {
					v = src
				}
			case rv32.AMOMAXW:
				v = old
				if int32(src) > int32(old) {
					v = src
				}
			case rv32.AMOMINUW:
				v = min(old, src)
			case rv32.AMOMAXUW:
				v = max(old, src)
			}
			if err := c.mem.Store(addr, 4, v); err != nil {
				return c.memFault("store", wi, w, l, addr, err)
			}
			c.code.invalidate(addr)
			c.breakReservations(addr)
			result = old
		}
		if in.Rd != 0 {
			x[int(in.Rd)*T+l] = result
		}
	}
	return nil
}

func (c *Core) breakReservations(addr uint32) {
	for i := range c.warps {
		w := &c.warps[i]
		for m := w.resvOK; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if w.resv[l] == addr {
				w.resvOK &^= 1 << l
			}
		}
	}
}
