package cp

import (
	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// dmaOperand is one side of a transfer: its memory, whether its address is a device
// VA to translate, and the fault code for an access to it.
type dmaOperand struct {
	m         *mem.Memory
	addr      uint64
	translate bool
	write     bool
	code      abi.QErr
}

// dma validates a CMD_MEM_* transfer and schedules its data movement for the end of
// its occupancy. The opcode picks the ports (MEM_WRITE host→device, MEM_READ
// device→host, MEM_COPY device→device); with VM on (emu) the device operands are
// translated through CP_SATP unless F_MEM_PHYSICAL is set or SATP is bare. The rtl
// flavour rounds the size up to whole 64-byte beats — the documented hardware bug,
// which over-writes (or faults) past an unaligned end.
// spec: command-processor §2.3, §3.1, §7, §8, §10 item 1; vortex-hardware-facts §1.3
func (c *CP) dma(o *op) (uint64, *qfault) {
	cmd := o.cmd
	dst, src, size := cmd.Args[0], cmd.Args[1], cmd.Args[2]
	vm := c.cfg.VM && c.cfg.Flavor == abi.FlavorEmu && cmd.Flags&abi.FlagMemPhysical == 0 && c.satp != 0
	hostM, devM := &c.host.Memory, &c.dev.Memory
	d := dmaOperand{m: devM, addr: dst, translate: vm, write: true, code: abi.QErrDMAWrite}
	s := dmaOperand{m: devM, addr: src, translate: vm, code: abi.QErrDMARead}
	switch cmd.Op {
	case abi.OpMemWrite:
		s.m, s.translate = hostM, false
	case abi.OpMemRead:
		d.m, d.translate = hostM, false
	}
	if c.cfg.Flavor == abi.FlavorRTL {
		if size > ^uint64(0)-(abi.LineBytes-1) {
			return c.cfg.Cost.DMASetup, &qfault{abi.QErrDMARead, src}
		}
		size = (size + abi.LineBytes - 1) &^ (abi.LineBytes - 1)
	}
	if size == 0 {
		return c.cfg.Cost.DMASetup, nil
	}
	satp := c.satp
	// Validate both ranges now, so a corrupt size faults at once instead of being
	// charged; the move itself happens when the occupancy ends.
	for _, opd := range []dmaOperand{s, d} {
		if f := c.checkRange(opd, size, satp); f != nil {
			return c.cfg.Cost.DMASetup, f
		}
	}
	o.complete = func() *qfault { return c.move(d, s, size, satp) }
	return c.cfg.Cost.dmaCycles(dst, src, size), nil
}

// resolve translates the piece of opd starting at off and returns its physical
// address and how many bytes (≤ n) stay inside one page.
func (c *CP) resolve(opd dmaOperand, off, n, satp uint64) (uint64, uint64, *qfault) {
	va := opd.addr + off
	if va < opd.addr {
		return 0, 0, &qfault{opd.code, va}
	}
	n = min(n, dmaPage-va%dmaPage)
	if !opd.translate {
		return va, n, nil
	}
	acc := mem.AccessRead
	if opd.write {
		acc = mem.AccessWrite
	}
	pa, err := mem.Translate(c.dev, satp, va, acc)
	if err != nil {
		return 0, 0, memFault(err, opd.code)
	}
	return pa, n, nil
}

// checkRange proves every byte of the operand's range lies in an allocation.
func (c *CP) checkRange(opd dmaOperand, size, satp uint64) *qfault {
	if !opd.translate {
		base, n, ok := opd.m.Lookup(opd.addr)
		if !ok || size > base+n-opd.addr {
			bad := opd.addr
			if ok {
				bad = base + n
			}
			return &qfault{opd.code, bad}
		}
		return nil
	}
	for off := uint64(0); off < size; {
		pa, n, f := c.resolve(opd, off, size-off, satp)
		if f != nil {
			return f
		}
		if _, err := opd.m.View(pa, int(n)); err != nil {
			return &qfault{opd.code, opd.addr + off}
		}
		off += n
	}
	return nil
}

// move copies size bytes through the 64 KiB bounce buffer, each piece inside one
// 4 KB page of its operand. spec: command-processor §8 (staged through a bounce buffer)
func (c *CP) move(d, s dmaOperand, size, satp uint64) *qfault {
	if moveDirect(d, s, size) {
		return nil
	}
	return c.moveStaged(d, s, size, satp)
}

// moveStaged is move through the bounce buffer.
func (c *CP) moveStaged(d, s dmaOperand, size, satp uint64) *qfault {
	for done := uint64(0); done < size; {
		stage := min(size-done, uint64(len(c.bounce)))
		for off := uint64(0); off < stage; {
			pa, n, f := c.resolve(s, done+off, stage-off, satp)
			if f != nil {
				return f
			}
			if err := s.m.Read(pa, c.bounce[off:off+n]); err != nil {
				return &qfault{s.code, s.addr + done + off}
			}
			off += n
		}
		for off := uint64(0); off < stage; {
			pa, n, f := c.resolve(d, done+off, stage-off, satp)
			if f != nil {
				return f
			}
			if err := d.m.Write(pa, c.bounce[off:off+n]); err != nil {
				return &qfault{d.code, d.addr + done + off}
			}
			off += n
		}
		done += stage
	}
	return nil
}

// moveDirect is move's fast path for untranslated operands whose ranges each lie
// inside one allocation and do not overlap: then staging through the bounce
// buffer page by page leaves exactly the bytes one copy does. It reports false
// (having written nothing) when move must take the staged path, which also finds
// the fault of a range freed since dma validated it.
func moveDirect(d, s dmaOperand, size uint64) bool {
	if d.translate || s.translate || size > 1<<40 {
		return false
	}
	if d.m == s.m && d.addr < s.addr+size && s.addr < d.addr+size {
		return false
	}
	src, err := s.m.View(s.addr, int(size))
	if err != nil {
		return false
	}
	dst, err := d.m.View(d.addr, int(size))
	if err != nil {
		return false
	}
	copy(dst, src)
	return true
}
