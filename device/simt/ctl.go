package simt

import (
	"fmt"
	"math/bits"

	"vortexgfx/isa/rv32"
)

// warpControl executes the Vortex warp-control instructions (custom-0, funct7 = 0)
// with SimX's semantics: uniform operands come from the highest active lane.
// Inside an implicitly diverged region they act on the running lane group only.
func (c *Core) warpControl(wi int, w *warp, in *rv32.Inst) error {
	T := c.cfg.Threads
	x := w.x
	last := lastLane(w.mask)
	rs1 := x[int(in.Rs1)*T+last]
	rs2 := x[int(in.Rs2)*T+last]
	next := w.pc + 4
	switch in.Op {
	case rv32.VXTMC:
		// The new mask cannot claim lanes that a suspended group owns.
		m := rs1 & c.laneMask() &^ w.pendingLanes()
		w.pc = next
		if m == 0 {
			c.haltGroup(w)
			return nil
		}
		w.mask = m
		return nil
	case rv32.VXWSPAWN:
		n := int(min(rs1, uint32(len(c.warps))))
		for i := 1; i < n; i++ {
			o := &c.warps[i]
			if o.active {
				continue // SimX would restart it at pc; a running warp is left alone here
			}
			o.pc, o.mask, o.active, o.blocked = rs2, 1, true, false
			o.ipdom, o.pending, o.maxPend, o.depth = o.ipdom[:0], o.pending[:0], 0, 0
			o.start = c.cycle
		}
	case rv32.VXSPLIT, rv32.VXSPLITN:
		neg := uint32(0)
		if in.Op == rv32.VXSPLITN {
			neg = 1
		}
		var then uint32
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if (x[int(in.Rs1)*T+l]&1)^neg != 0 {
				then |= 1 << l
			}
		}
		els := w.mask &^ then
		depth := uint32(len(w.ipdom))
		if then != 0 && els != 0 {
			if len(w.ipdom) >= c.cfg.IPDOMDepth {
				return c.illegal(wi, w, "vx_split: IPDOM stack full (depth %d)", len(w.ipdom))
			}
			w.ipdom = append(w.ipdom, ipdomEntry{origMask: w.mask, elsePC: next})
			// SimX runs the smaller half first (then on a tie).
			if bits.OnesCount32(then) <= bits.OnesCount32(els) {
				w.mask = then
			} else {
				w.mask = els
			}
		}
		if in.Rd != 0 {
			forLanes(w.mask|els|then, func(l int) { x[int(in.Rd)*T+l] = depth })
		}
	case rv32.VXJOIN:
		if rs1 != uint32(len(w.ipdom)) {
			if len(w.ipdom) == 0 {
				return c.illegal(wi, w, "vx_join: IPDOM stack empty")
			}
			top := &w.ipdom[len(w.ipdom)-1]
			if top.fallThru {
				w.mask = top.origMask
				w.ipdom = w.ipdom[:len(w.ipdom)-1]
			} else {
				w.mask = top.origMask &^ w.mask
				next = top.elsePC
				top.fallThru = true
			}
		}
	case rv32.VXBAR:
		// Bit 31 of the id marks a global (cross-core) barrier in SimX; one core is
		// modelled, so it synchronises this core's warps like a local one.
		id, count := rs1&0x7fffffff, rs2
		w.pc = next
		if count <= 1 {
			return nil
		}
		b := c.barriers[id]
		if b == nil {
			b = &barrier{}
			c.barriers[id] = b
		}
		b.count = count
		b.arrived |= 1 << wi
		if uint32(bits.OnesCount32(b.arrived)) >= count {
			for m := b.arrived; m != 0; m &= m - 1 {
				c.warps[bits.TrailingZeros32(m)].blocked = false
			}
			delete(c.barriers, id)
		} else {
			w.blocked = true
		}
		return nil
	case rv32.VXPRED, rv32.VXPREDN:
		neg := uint32(0)
		if in.Op == rv32.VXPREDN {
			neg = 1
		}
		var pred uint32
		for m := w.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if (x[int(in.Rs1)*T+l]&1)^neg != 0 {
				pred |= 1 << l
			}
		}
		if pred != 0 {
			w.mask &= pred
		} else if m := rs2 & c.laneMask() &^ w.pendingLanes(); m != 0 {
			w.mask = m
		} else {
			w.pc = next
			c.haltGroup(w)
			return nil
		}
	}
	w.pc = next
	return nil
}

// vote: the predicate is bit 0 of rs1 over the running lanes; every running lane
// gets the answer.
func (c *Core) vote(w *warp, in *rv32.Inst) {
	T := c.cfg.Threads
	x := w.x
	var ballot uint32
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if x[int(in.Rs1)*T+l]&1 != 0 {
			ballot |= 1 << l
		}
	}
	var r uint32
	switch in.Op {
	case rv32.VXVOTEALL:
		r = b2u(ballot == w.mask)
	case rv32.VXVOTEANY:
		r = b2u(ballot != 0)
	case rv32.VXVOTEUNI:
		r = b2u(ballot == 0 || ballot == w.mask)
	default:
		r = ballot
	}
	if in.Rd != 0 {
		forLanes(w.mask, func(l int) { x[int(in.Rd)*T+l] = r })
	}
}

// shuffle: rs2 packs {mask[17:12], c[11:6], b[5:0]} (vx_intrinsics.h); a lane reads
// rs1 of the lane the mode names when that lane is inside its segment, else its own.
// A source lane outside the running group returns the reader's own value
// (spec: vortexpipe-driver.md §2.2, emit_vx_quad_swap).
func (c *Core) shuffle(w *warp, in *rv32.Inst) {
	T := c.cfg.Threads
	x := w.x
	var out [32]uint32
	for m := w.mask; m != 0; m &= m - 1 {
		t := bits.TrailingZeros32(m)
		bc := x[int(in.Rs2)*T+t]
		b, cv, mk := int(bc&0x3f), int(bc>>6&0x3f), int(bc>>12&0x3f)
		maxLane := t&mk | cv&^mk
		minLane := t & mk
		lane, ok := 0, false
		switch in.Op {
		case rv32.VXSHFLUP:
			lane = t - b
			ok = lane >= minLane
		case rv32.VXSHFLDOWN:
			lane = t + b
			ok = lane <= maxLane
		case rv32.VXSHFLBFLY:
			lane = t ^ b
			ok = lane <= maxLane
		default:
			lane = minLane | b&^mk
			ok = lane <= maxLane
		}
		if !ok || lane < 0 || lane >= T || w.mask&(1<<lane) == 0 {
			lane = t
		}
		out[t] = x[int(in.Rs1)*T+lane]
	}
	if in.Rd != 0 {
		forLanes(w.mask, func(l int) { x[int(in.Rd)*T+l] = out[l] })
	}
}

func (c *Core) graphics(wi int, w *warp, in *rv32.Inst) error {
	if c.Graphics == nil {
		return c.illegal(wi, w, "%s: this core has no graphics units", in.Op)
	}
	T := c.cfg.Threads
	x := w.x
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a, b, d := x[int(in.Rs1)*T+l], x[int(in.Rs2)*T+l], x[int(in.Rs3)*T+l]
		if in.Op == rv32.VXTEX {
			v, err := c.Graphics.Tex(wi, l, int(in.Imm), a, b, d)
			if err != nil {
				return &Fault{Kind: "tex", PC: w.pc, Warp: wi, Lane: l, Err: err}
			}
			if in.Rd != 0 {
				x[int(in.Rd)*T+l] = v
			}
		} else if err := c.Graphics.OMExport(wi, l, a, b, d, int(in.Imm)); err != nil {
			return &Fault{Kind: "om export", PC: w.pc, Warp: wi, Lane: l, Addr: a, Err: err}
		}
	}
	return nil
}

// The semihosting call sequence: slli x0,x0,0x1f; ebreak; srai x0,x0,7.
const (
	semihostPre  = 0x01f01013
	semihostPost = 0x40705013
)

// IsSemihostCall reports whether the ebreak at pc is a semihosting call.
func (c *Core) IsSemihostCall(pc uint32) bool {
	pre, err1 := c.mem.Load(pc-4, 4)
	post, err2 := c.mem.Load(pc+4, 4)
	return err1 == nil && err2 == nil && pre == semihostPre && post == semihostPost
}

func (c *Core) ebreak(wi int, w *warp) error {
	if c.Ebreak == nil {
		return &Fault{Kind: "breakpoint", PC: w.pc, Warp: wi, Lane: -1, Addr: w.pc, Err: fmt.Errorf("ebreak with no handler")}
	}
	stop := false
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		s, err := c.Ebreak.Ebreak(c, wi, l)
		if err != nil {
			return &Fault{Kind: "ebreak", PC: w.pc, Warp: wi, Lane: l, Addr: w.pc, Err: err}
		}
		stop = stop || s
	}
	if stop {
		c.stopped = true
	}
	return nil
}
