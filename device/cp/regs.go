package cp

import (
	"errors"
	"fmt"

	"vortexgfx/abi"
)

// Register access errors; callers branch on them with errors.Is.
var (
	// ErrUndecoded is an access to an address no register decodes (the RTL's
	// DECERR). Reads return abi.UndecodedRead with it.
	ErrUndecoded = errors.New("cp: undecoded register")
	// ErrReadOnly is a write to a read-only register; the write has no effect.
	ErrReadOnly = errors.New("cp: register is read-only")
)

// DevCaps returns the CP_DEV_CAPS word of this CP: queues, ring size, TID width,
// bits 24-26 on the emu flavour (24 only with VM) and our bits 27-30 on both.
// spec: command-processor §5, §6
func (c *CP) DevCaps() abi.CPDevCaps {
	emu := c.cfg.Flavor == abi.FlavorEmu
	return abi.CPDevCaps{
		NumQueues:       uint8(c.cfg.NumQueues),
		RingSizeLog2Max: uint8(c.cfg.RingSizeLog2Max),
		AXITIDWidth:     uint8(c.cfg.AXITIDWidth),
		VMEnabled:       emu && c.cfg.VM,
		SupportsDraw:    emu,
		SupportsQMD:     emu,
		FenceOrdering:   c.cfg.Pipeline,
		Profiling:       true,
		Interrupts:      true,
		Mailbox:         true,
	}
}

// ReadReg reads the 32-bit register at CP-internal byte offset off. An undecoded
// offset returns 0xDEADBEEF and ErrUndecoded. spec: command-processor §5
func (c *CP) ReadReg(off uint32) (uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch off {
	case abi.RegCPCtrl:
		return c.ctrl, nil
	case abi.RegCPStatus:
		var s uint32
		if c.busyLocked() {
			s |= abi.CPStatusBusy
		}
		for _, q := range c.queues {
			if q.errWord != 0 {
				s |= abi.CPStatusError
			}
		}
		return s, nil
	case abi.RegCPDevCaps:
		return c.DevCaps().Encode(), nil
	case abi.RegCPCycleLo:
		return uint32(c.now), nil
	case abi.RegCPCycleHi:
		return uint32(c.now >> 32), nil
	case abi.RegGPUDevCapsLo:
		return uint32(c.caps.GPUDev), nil
	case abi.RegGPUDevCapsHi:
		return uint32(c.caps.GPUDev >> 32), nil
	case abi.RegGPUISACapsLo:
		return uint32(c.caps.ISA), nil
	case abi.RegGPUISACapsHi:
		return uint32(c.caps.ISA >> 32), nil
	case abi.RegCPSATPLo, abi.RegCPSATPHi:
		if c.cfg.Flavor != abi.FlavorEmu {
			break
		}
		if off == abi.RegCPSATPLo {
			return uint32(c.satp), nil
		}
		return uint32(c.satp >> 32), nil
	case abi.RegCPCycleFreqHz:
		return uint32(c.cfg.CycleFreqHz), nil
	case abi.RegCPIRQStatus:
		return c.irqStatus, nil
	case abi.RegCPIRQEnable:
		return c.irqEnable, nil
	}
	q, reg, ok := c.queueReg(off)
	if ok {
		switch reg {
		case abi.RegQRingBaseLo:
			return uint32(q.ringBase), nil
		case abi.RegQRingBaseHi:
			return uint32(q.ringBase >> 32), nil
		case abi.RegQHeadAddrLo:
			return uint32(q.headAddr), nil
		case abi.RegQHeadAddrHi:
			return uint32(q.headAddr >> 32), nil
		case abi.RegQCmplAddrLo:
			return uint32(q.cmplAdr), nil
		case abi.RegQCmplAddrHi:
			return uint32(q.cmplAdr >> 32), nil
		case abi.RegQRingSizeLog2:
			return q.sizeLog2, nil
		case abi.RegQControl:
			return q.control, nil
		case abi.RegQTailLo:
			return q.tailLo, nil
		case abi.RegQTailHi:
			return uint32(q.tail >> 32), nil
		case abi.RegQSeqnum:
			return uint32(q.seqnum), nil
		case abi.RegQError:
			return q.errWord, nil
		case abi.RegQLastDCRRsp:
			return q.lastDCR, nil
		case abi.RegQFaultAddrLo:
			return uint32(q.faultAddr), nil
		case abi.RegQFaultAddrHi:
			return uint32(q.faultAddr >> 32), nil
		}
	}
	return abi.UndecodedRead, fmt.Errorf("%w: read of %#x", ErrUndecoded, off)
}

func (c *CP) queueReg(off uint32) (*queue, uint32, bool) {
	if off < abi.QueueBase {
		return nil, 0, false
	}
	i := int((off - abi.QueueBase) / abi.QueueStride)
	if i >= len(c.queues) || off%4 != 0 {
		return nil, 0, false
	}
	return c.queues[i], (off - abi.QueueBase) % abi.QueueStride, true
}

// WriteReg writes the 32-bit register at off. Every write is a full 32 bits (wstrb is
// ignored). Q_TAIL_LO only stages; Q_TAIL_HI stages the high half and commits the
// 64-bit tail atomically. A queue runs only while CP_CTRL.enable and
// Q_CONTROL.enable are both set; Q_CONTROL.reset and CP_CTRL.reset_all are pulses.
// spec: command-processor §5
func (c *CP) WriteReg(off uint32, v uint32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.signal()
	switch off {
	case abi.RegCPCtrl:
		c.ctrl = v & abi.CPCtrlEnable
		if v&abi.CPCtrlResetAll != 0 {
			for _, q := range c.queues {
				q.reset()
			}
		}
		return nil
	case abi.RegCPStatus, abi.RegCPDevCaps, abi.RegCPCycleLo, abi.RegCPCycleHi,
		abi.RegGPUDevCapsLo, abi.RegGPUDevCapsHi, abi.RegGPUISACapsLo, abi.RegGPUISACapsHi,
		abi.RegCPCycleFreqHz:
		return fmt.Errorf("%w: write of %#x to %#x", ErrReadOnly, v, off)
	case abi.RegCPSATPLo, abi.RegCPSATPHi:
		if c.cfg.Flavor != abi.FlavorEmu {
			break
		}
		if off == abi.RegCPSATPLo {
			c.satp = c.satp&^0xFFFF_FFFF | uint64(v)
		} else {
			c.satp = c.satp&0xFFFF_FFFF | uint64(v)<<32
		}
		return nil
	case abi.RegCPIRQStatus:
		c.irqStatus &^= v // write one to clear
		return nil
	case abi.RegCPIRQEnable:
		c.irqEnable = v
		return nil
	}
	q, reg, ok := c.queueReg(off)
	if ok {
		switch reg {
		case abi.RegQRingBaseLo:
			q.ringBase = q.ringBase&^0xFFFF_FFFF | uint64(v)
		case abi.RegQRingBaseHi:
			q.ringBase = q.ringBase&0xFFFF_FFFF | uint64(v)<<32
		case abi.RegQHeadAddrLo:
			q.headAddr = q.headAddr&^0xFFFF_FFFF | uint64(v)
		case abi.RegQHeadAddrHi:
			q.headAddr = q.headAddr&0xFFFF_FFFF | uint64(v)<<32
		case abi.RegQCmplAddrLo:
			q.cmplAdr = q.cmplAdr&^0xFFFF_FFFF | uint64(v)
		case abi.RegQCmplAddrHi:
			q.cmplAdr = q.cmplAdr&0xFFFF_FFFF | uint64(v)<<32
		case abi.RegQRingSizeLog2:
			q.sizeLog2 = v
		case abi.RegQControl:
			q.control = v & (abi.QControlEnable | abi.QControlPrioMask | abi.QControlProfileEn)
			if v&abi.QControlReset != 0 {
				q.reset()
			}
		case abi.RegQTailLo:
			q.tailLo = v
		case abi.RegQTailHi:
			q.tailHi = v
			c.commitTail(q, uint64(v)<<32|uint64(q.tailLo))
		case abi.RegQSeqnum, abi.RegQError, abi.RegQLastDCRRsp, abi.RegQFaultAddrLo, abi.RegQFaultAddrHi:
			return fmt.Errorf("%w: write of %#x to queue %d register %#x", ErrReadOnly, v, q.id, reg)
		default:
			return fmt.Errorf("%w: write of %#x to %#x", ErrUndecoded, v, off)
		}
		return nil
	}
	return fmt.Errorf("%w: write of %#x to %#x", ErrUndecoded, v, off)
}

// commitTail makes [head, tail) visible. A tail that is not a whole number of lines,
// moves backwards, or is more than a ring ahead of head stops the queue.
func (c *CP) commitTail(q *queue, tail uint64) {
	if q.errWord != 0 {
		return
	}
	ringBytes := uint64(1) << min(q.sizeLog2, 63)
	if tail%abi.LineBytes != 0 || tail < q.tail || tail-q.head > ringBytes {
		c.fault(q, abi.QErrTailRange, 0, 0xFFFF, tail)
		return
	}
	q.tail = tail
	if n := len(q.commits); n > 0 && (q.commits[n-1].cycle == c.now || n >= maxCommits) {
		q.commits[n-1].tail = tail
	} else {
		q.commits = append(q.commits, commit{tail, c.now})
	}
}
