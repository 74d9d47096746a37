package cp

import (
	"errors"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// engineState is the per-queue fetch/engine FSM: Idle → Fetch → Decode → Issue
// (the Bid of the hardware) → Wait (WaitDone) → retire, and LineEnd once the line's
// walk stopped. spec: command-processor §4.1, §4.2
type engineState uint8

const (
	sIdle engineState = iota
	sFetch
	sDecode
	sIssue
	sWait
	sLineEnd
)

// opState is where an issued command is.
type opState uint8

const (
	opBid  opState = iota // waiting for its arbiter
	opRun                 // holds its resource units
	opDone                // done at doneAt; retires in order
)

// op is one issued command.
type op struct {
	q      *queue
	gen    uint64 // the queue's reset generation at issue
	cmd    abi.Command
	line   uint64 // ring offset of its line
	off    int
	units  unitMask
	state  opState
	bidAt  uint64 // when it (re)entered bidding; arbitration age
	poll   uint64 // EVENT_WAIT's current re-poll delay
	doneAt uint64
	// profile timestamps
	queued, submit, start uint64
	// complete, when set, runs when the resource occupancy ends (DMA moves its data
	// then, so a later command that was not fenced can observe the old bytes).
	complete func() *qfault
	// satisfied is the EVENT_WAIT poll's outcome.
	satisfied bool
}

// qfault is a queue-stopping fault.
type qfault struct {
	code abi.QErr
	addr uint64
}

type commit struct{ tail, cycle uint64 }

// queue is one ring and its engine. Host-writable fields are set by WriteReg; the
// rest is engine state owned by the CP goroutine (all under CP.mu).
type queue struct {
	id                          int
	ringBase, headAddr, cmplAdr uint64
	sizeLog2                    uint32
	control                     uint32 // enable, prio, profile_en (reset reads 0)
	tailLo, tailHi              uint32 // staging
	tail, head, seqnum          uint64
	errWord                     uint32
	faultAddr                   uint64
	lastDCR                     uint32
	gen                         uint64
	commits                     []commit

	st      engineState
	readyAt uint64
	line    [abi.LineBytes]byte
	off     int
	lineAt  uint64 // cycle the current line was fetched
	cur     *op
	pending []*op // issued, not yet retired, in order
}

const maxCommits = 1024

func (q *queue) prio() int { return int(q.control&abi.QControlPrioMask) >> abi.QControlPrioShift }

func (q *queue) busy(running bool) bool {
	if q.errWord != 0 {
		return false
	}
	return len(q.pending) > 0 || running && (q.head < q.tail || q.st != sIdle)
}

// reset clears the queue's progress (Q_CONTROL.reset / CP_CTRL.reset_all): head,
// tail, staging, seqnum, error and everything in flight. Ops in flight on a unit
// finish their occupancy and are discarded.
func (q *queue) reset() {
	q.tail, q.head, q.seqnum, q.tailLo, q.tailHi = 0, 0, 0, 0, 0
	q.errWord, q.faultAddr = 0, 0
	q.gen++
	q.commits = q.commits[:0]
	q.st, q.cur, q.pending, q.off, q.readyAt = sIdle, nil, nil, 0, 0
}

func (c *CP) running(q *queue) bool {
	return c.ctrl&abi.CPCtrlEnable != 0 && q.control&abi.QControlEnable != 0
}

func (c *CP) busyLocked() bool {
	for _, q := range c.queues {
		if q.busy(c.running(q)) {
			return true
		}
	}
	return false
}

// fault stops q: Q_ERROR, Q_FAULT_ADDR, CP_STATUS.error, and an interrupt.
func (c *CP) fault(q *queue, code abi.QErr, op abi.Opcode, lineOff int, addr uint64) {
	if q.errWord != 0 {
		return
	}
	q.errWord = abi.QErrorWord(code, op, lineOff)
	q.faultAddr = addr
	c.irqStatus |= 1 << q.id
	c.irqBatch |= 1 << q.id
}

// memFault maps an access error to a queue fault with its address.
func memFault(err error, code abi.QErr) *qfault {
	var pf *mem.PageFault
	if errors.As(err, &pf) {
		return &qfault{abi.QErrPageFault, pf.VA}
	}
	var f *mem.Fault
	if errors.As(err, &f) {
		return &qfault{code, f.Addr}
	}
	return &qfault{code, 0}
}

// settle runs everything that can happen at the current cycle.
func (c *CP) settle() {
	for guard := 0; guard < 1<<20; guard++ {
		changed := c.completeUnits()
		for _, q := range c.queues {
			for c.advance(q) {
				changed = true
			}
		}
		if c.arbitrate() {
			changed = true
		}
		if !changed {
			return
		}
	}
}

// advance makes one step of q's engine at the current cycle.
func (c *CP) advance(q *queue) bool {
	if q.errWord != 0 {
		return false
	}
	if c.retireFront(q) {
		return true
	}
	if !c.running(q) || c.now < q.readyAt {
		return false
	}
	switch q.st {
	case sIdle:
		if q.head >= q.tail {
			return false
		}
		if q.sizeLog2 < 6 || int(q.sizeLog2) > c.cfg.RingSizeLog2Max || q.ringBase%abi.LineBytes != 0 {
			c.fault(q, abi.QErrRingConfig, 0, abi.QErrNoOffset, q.ringBase)
			return true
		}
		q.st, q.readyAt = sFetch, satAdd(c.now, c.cfg.Cost.FetchLine)
		return true
	case sFetch:
		addr := q.ringBase + q.head&(uint64(1)<<q.sizeLog2-1)
		if err := c.host.Read(addr, q.line[:]); err != nil {
			c.fault(q, abi.QErrFetch, 0, abi.QErrNoOffset, addr)
			return true
		}
		q.lineAt, q.off, q.st = c.now, 0, sDecode
		return true
	case sDecode:
		cmd, ok, _ := abi.DecodeAt(q.line[:], q.off, c.cfg.Flavor)
		if !ok {
			q.st = sLineEnd
			return true
		}
		q.cur = &op{q: q, gen: q.gen, cmd: cmd, line: q.head, off: q.off,
			units: unitsFor(cmd.Op), queued: q.queuedAt(q.head), submit: q.lineAt}
		q.off += cmd.Size()
		q.st, q.readyAt = sIssue, satAdd(c.now, c.cfg.Cost.Decode)
		return true
	case sIssue:
		o := q.cur
		if !c.canIssue(q, o) {
			return false
		}
		q.pending = append(q.pending, o)
		q.cur = nil
		if o.units == 0 { // NOP, FENCE: no bid
			o.state, o.start = opDone, c.now
			o.doneAt = satAdd(c.now, c.cfg.Cost.Retire)
		} else {
			o.state, o.bidAt = opBid, c.now
		}
		if c.cfg.Pipeline {
			q.st = sDecode
		} else {
			q.st = sWait
		}
		return true
	case sWait:
		if len(q.pending) > 0 {
			return false
		}
		q.st = sDecode
		return true
	case sLineEnd:
		if len(q.pending) > 0 {
			return false
		}
		q.head += abi.LineBytes
		for len(q.commits) > 0 && q.commits[0].tail <= q.head {
			q.commits = q.commits[1:]
		}
		q.st = sIdle
		if q.headAddr != 0 {
			if err := c.host.StoreU64(q.headAddr, q.head); err != nil {
				c.fault(q, abi.QErrCompletion, 0, abi.QErrNoOffset, q.headAddr)
			}
		}
		return true
	}
	return false
}

// canIssue applies the ordering rules. Serial mode: the engine waits in sWait, so
// nothing earlier is outstanding. Pipeline mode: a command waits for earlier
// commands of its own ordering domain (DMA, or GPU = DCR+KMU), events are full
// barriers both ways, and FENCE waits for everything earlier in its scope.
// spec: command-processor §2.3 (FENCE scope bits), §10 item 3
func (c *CP) canIssue(q *queue, o *op) bool {
	for _, p := range q.pending {
		if p.state == opDone {
			continue
		}
		if o.cmd.Op == abi.OpFence {
			scope := uint32(o.cmd.Args[0])
			if scope&abi.FenceDMA != 0 && p.units&uDMABit != 0 ||
				scope&abi.FenceGPU != 0 && p.units&(uKMUBit|uDCRBit) != 0 ||
				p.units&uEventBit != 0 {
				return false
			}
			continue
		}
		if o.units == 0 {
			continue
		}
		if o.units&uEventBit != 0 || p.units&uEventBit != 0 || domain(o.units) == domain(p.units) {
			return false
		}
	}
	return true
}

func domain(u unitMask) int {
	if u&uDMABit != 0 {
		return 1
	}
	return 2
}

// queuedAt is the cycle of the tail commit that made the line at ring offset line
// visible.
func (q *queue) queuedAt(line uint64) uint64 {
	for _, cm := range q.commits {
		if cm.tail > line {
			return cm.cycle
		}
	}
	return 0
}

// retireFront retires the oldest issued command if it is done: seqnum, completion
// writeback, head mailbox, profile record, trace and interrupt.
// spec: command-processor §4.3; §10 items 12-14
func (c *CP) retireFront(q *queue) bool {
	if len(q.pending) == 0 {
		return false
	}
	o := q.pending[0]
	if o.state != opDone || o.doneAt > c.now {
		return false
	}
	q.pending = q.pending[1:]
	q.seqnum++
	c.irqStatus |= 1 << q.id
	c.irqBatch |= 1 << q.id
	if q.cmplAdr != 0 {
		if err := c.host.StoreU64(q.cmplAdr, q.seqnum); err != nil {
			c.fault(q, abi.QErrCompletion, o.cmd.Op, o.off, q.cmplAdr)
			return true
		}
	}
	if q.headAddr != 0 {
		if err := c.host.StoreU64(q.headAddr, q.head); err != nil {
			c.fault(q, abi.QErrCompletion, o.cmd.Op, o.off, q.headAddr)
			return true
		}
	}
	if o.cmd.Flags&abi.FlagProfile != 0 && q.control&abi.QControlProfileEn != 0 {
		var rec [abi.ProfileRecordBytes]byte
		putU64(rec[abi.ProfileQueued:], o.queued)
		putU64(rec[abi.ProfileSubmit:], o.submit)
		putU64(rec[abi.ProfileStart:], o.start)
		putU64(rec[abi.ProfileEnd:], c.now)
		if err := c.host.Write(o.cmd.ProfileSlot, rec[:]); err != nil {
			c.fault(q, abi.QErrCompletion, o.cmd.Op, o.off, o.cmd.ProfileSlot)
			return true
		}
	}
	if c.cfg.Trace != nil {
		c.traceBuf = append(c.traceBuf, TraceEvent{Queue: q.id, Seqnum: q.seqnum, Line: o.line,
			Offset: o.off, Cmd: o.cmd, Queued: o.queued, Submit: o.submit, Start: o.start, End: c.now})
	}
	return true
}

func putU64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

// nextEvent returns the next cycle at which something can happen. stalled means the
// only future events are EVENT_WAIT re-polls with nothing else in flight: no
// device-side activity can change a counter, so the CP sleeps in wall time instead
// of spinning CP_CYCLE forward.
func (c *CP) nextEvent() (next uint64, ok, stalled bool) {
	var polls bool
	consider := func(t uint64) {
		if t > c.now && (!ok || t < next) {
			next, ok = t, true
		}
	}
	for i := range c.units {
		if c.units[i].op != nil {
			consider(c.units[i].busyUntil)
		}
	}
	for _, q := range c.queues {
		if q.errWord != 0 {
			continue
		}
		if c.running(q) && (q.st == sFetch || q.st == sIssue) {
			consider(q.readyAt)
		}
		for _, o := range q.pending {
			switch o.state {
			case opDone:
				consider(o.doneAt)
			case opBid:
				if o.bidAt > c.now {
					polls = true
				}
			}
		}
	}
	if !ok && polls {
		return 0, false, true
	}
	for _, q := range c.queues {
		for _, o := range q.pending {
			if o.state == opBid && o.bidAt > c.now {
				consider(o.bidAt)
			}
		}
	}
	return next, ok, false
}

// recheckStalledWaits lets every stalled EVENT_WAIT look at its counter without
// spending cycles; one whose compare now passes bids again at the current cycle.
func (c *CP) recheckStalledWaits() {
	for _, q := range c.queues {
		for _, o := range q.pending {
			if o.state != opBid || o.bidAt <= c.now || o.cmd.Op != abi.OpEventWait {
				continue
			}
			v, err := c.dev.LoadU64(o.cmd.Args[0])
			if err != nil || abi.WaitOp(o.cmd.Args[2]&3).Satisfied(v, o.cmd.Args[1]) {
				o.bidAt = c.now
			}
		}
	}
}
