package cp

import (
	"sort"

	"vortexgfx/abi"
)

// The four shared resource units. spec: command-processor §4, §7
const (
	uKMU = iota
	uDMA
	uDCR
	uEvent
	numUnits
)

type unitMask uint8

const (
	uKMUBit   unitMask = 1 << uKMU
	uDMABit   unitMask = 1 << uDMA
	uDCRBit   unitMask = 1 << uDCR
	uEventBit unitMask = 1 << uEvent
)

// unit is one resource: the command holding it and when its occupancy ends. The
// grant is held for the whole occupancy, so no second grant can land on a busy unit
// and no command can retire on another's done (§10 items 5, 8).
type unit struct {
	op        *op
	busyUntil uint64
}

// unitsFor is the set of units a command holds. LAUNCH_QMD and DRAW replay DCR
// writes and launch, so they hold the DCR proxy and the KMU together: no other
// queue's DCR traffic can interleave with their KMU state.
func unitsFor(op abi.Opcode) unitMask {
	switch op {
	case abi.OpLaunchQMD, abi.OpDraw:
		return uKMUBit | uDCRBit
	}
	switch op.Resource() {
	case abi.ResKMU:
		return uKMUBit
	case abi.ResDMA:
		return uDMABit
	case abi.ResDCR:
		return uDCRBit
	case abi.ResEvent:
		return uEventBit
	}
	return 0
}

func primary(m unitMask) int {
	switch {
	case m&uKMUBit != 0:
		return uKMU
	case m&uDMABit != 0:
		return uDMA
	case m&uDCRBit != 0:
		return uDCR
	}
	return uEvent
}

// arbitrate grants free units to bidding commands: highest Q_CONTROL prio first,
// then the oldest bid, then round robin from the unit's last grant. A bidder that
// cannot get all its units reserves them for this pass, so a multi-unit command is
// never starved by a stream of single-unit ones.
// spec: command-processor §4.3; §10 items 5, 8, 11
func (c *CP) arbitrate() bool {
	var bids []*op
	for _, q := range c.queues {
		if q.errWord != 0 {
			continue
		}
		for _, o := range q.pending {
			if o.state == opBid && o.bidAt <= c.now {
				bids = append(bids, o)
			}
		}
	}
	if len(bids) == 0 {
		return false
	}
	n := len(c.queues)
	sort.SliceStable(bids, func(i, j int) bool {
		a, b := bids[i], bids[j]
		if pa, pb := a.q.prio(), b.q.prio(); pa != pb {
			return pa > pb
		}
		if a.bidAt != b.bidAt {
			return a.bidAt < b.bidAt
		}
		r := c.rr[primary(a.units)]
		return (a.q.id-r-1+n)%n < (b.q.id-r-1+n)%n
	})
	var reserved unitMask
	granted := false
	for _, o := range bids {
		if o.gen != o.q.gen || o.state != opBid || c.closed {
			continue // its queue was reset while a launch ran unlocked
		}
		var busy unitMask
		for u := 0; u < numUnits; u++ {
			if c.units[u].op != nil {
				busy |= 1 << u
			}
		}
		if o.units&(busy|reserved) != 0 {
			reserved |= o.units
			continue
		}
		c.start(o)
		granted = true
	}
	return granted
}

// start grants o its units and runs the command's action; the units stay held
// until busyUntil.
func (c *CP) start(o *op) {
	q := o.q
	c.rr[primary(o.units)] = q.id
	if o.start == 0 || o.cmd.Op != abi.OpEventWait {
		o.start = c.now
	}
	o.state = opRun
	for u := 0; u < numUnits; u++ {
		if o.units&(1<<u) != 0 {
			c.units[u].op = o
		}
	}
	dur, f := c.execute(o)
	end := satAdd(c.now, dur)
	for u := 0; u < numUnits; u++ {
		if o.units&(1<<u) != 0 {
			c.units[u].busyUntil = end
		}
	}
	if f != nil && o.gen == q.gen && !c.closed {
		c.fault(q, f.code, o.cmd.Op, o.off, f.addr)
	}
}

// completeUnits ends every occupancy due by now: deferred DMA data movement, the
// done (or, for a failed EVENT_WAIT poll, the release and re-bid after a backoff).
func (c *CP) completeUnits() bool {
	changed := false
	for u := 0; u < numUnits; u++ {
		o := c.units[u].op
		if o == nil || c.units[u].busyUntil > c.now {
			continue
		}
		for v := 0; v < numUnits; v++ {
			if c.units[v].op == o {
				c.units[v].op = nil
			}
		}
		changed = true
		q := o.q
		if o.gen != q.gen || q.errWord != 0 || o.state != opRun {
			continue // the queue was reset or faulted meanwhile
		}
		if o.complete != nil {
			f := o.complete()
			o.complete = nil
			if f != nil {
				c.fault(q, f.code, o.cmd.Op, o.off, f.addr)
				continue
			}
		}
		if o.cmd.Op == abi.OpEventWait && !o.satisfied {
			// Release the arbiter between polls and back off. spec: §10 item 10
			if o.poll == 0 {
				o.poll = max(c.cfg.Cost.PollInterval, 1)
			} else {
				o.poll = min(o.poll*2, max(c.cfg.Cost.PollIntervalMax, 1))
			}
			o.state, o.bidAt = opBid, satAdd(c.now, o.poll)
			continue
		}
		o.state, o.doneAt = opDone, satAdd(c.now, c.cfg.Cost.Retire)
	}
	return changed
}

// execute performs o's action and returns its occupancy in cycles. Errors become a
// queue fault.
func (c *CP) execute(o *op) (uint64, *qfault) {
	cost := &c.cfg.Cost
	cmd := o.cmd
	switch cmd.Op {
	case abi.OpMemWrite, abi.OpMemRead, abi.OpMemCopy:
		return c.dma(o)
	case abi.OpDCRWrite, abi.OpDCRRead, abi.OpCacheFlush:
		return c.dcrStep(o.q, cmd)
	case abi.OpLaunch:
		cyc, f := c.launch(o)
		return satAdd(cost.LaunchOverhead, cyc), f
	case abi.OpLaunchQMD:
		return c.launchQMD(o, cmd.Args[0])
	case abi.OpDraw:
		return c.draw(o)
	case abi.OpEventSignal:
		if err := c.dev.StoreU64(cmd.Args[0], cmd.Args[1]); err != nil {
			return cost.EventAccess, memFault(err, abi.QErrEvent)
		}
		return cost.EventAccess, nil
	case abi.OpEventWait:
		v, err := c.dev.LoadU64(cmd.Args[0])
		if err != nil {
			return cost.EventAccess, memFault(err, abi.QErrEvent)
		}
		o.satisfied = abi.WaitOp(cmd.Args[2]&3).Satisfied(v, cmd.Args[1])
		return cost.EventAccess, nil
	}
	return 0, &qfault{abi.QErrSequence, 0}
}

// dcrStep runs a DCR_WRITE, DCR_READ or CACHE_FLUSH through the DCR proxy.
// spec: command-processor §7 (VX_cp_dcr_proxy), vortex-hardware-facts §1.3
func (c *CP) dcrStep(q *queue, cmd abi.Command) (uint64, *qfault) {
	cost := c.cfg.Cost.DCR
	switch cmd.Op {
	case abi.OpDCRWrite:
		if err := c.gpu.DCRWrite(abi.DCR(cmd.Args[0]&abi.DCRAddrMask), uint32(cmd.Args[1])); err != nil {
			return cost, &qfault{abi.QErrDCR, cmd.Args[0] & abi.DCRAddrMask}
		}
		return cost, nil
	case abi.OpDCRRead:
		v, err := c.gpu.DCRRead(abi.DCR(cmd.Args[0]&abi.DCRAddrMask), uint32(cmd.Args[1]))
		if err != nil {
			return cost, &qfault{abi.QErrDCR, cmd.Args[0] & abi.DCRAddrMask}
		}
		q.lastDCR = v
		return cost, nil
	case abi.OpCacheFlush:
		// One DCR read of CACHE_FLUSH per core, tag = core id. arg0 beyond the
		// device's cores is clamped: those cores do not exist.
		n := min(cmd.Args[0], uint64(max(c.cores, 0)))
		for core := uint64(0); core < n; core++ {
			if _, err := c.gpu.DCRRead(abi.DCRCacheFlush, uint32(core)); err != nil {
				return cost * (core + 1), &qfault{abi.QErrDCR, uint64(abi.DCRCacheFlush)}
			}
		}
		return cost * max(n, 1), nil
	}
	return 0, nil
}

// launch pulses start and waits for the drain. The CP's lock is released while the
// device runs, so the host can read registers meanwhile.
// spec: command-processor §7 (VX_cp_launch)
func (c *CP) launch(o *op) (uint64, *qfault) {
	c.mu.Unlock()
	cyc, err := c.gpu.Launch(c.ctx)
	c.mu.Lock()
	if err != nil {
		return 0, &qfault{abi.QErrLaunch, 0}
	}
	return cyc, nil
}

// launchQMD replays a QMD descriptor's DCR pairs, then launches.
// spec: command-processor §2.3; vortex-hardware-facts §1.3
func (c *CP) launchQMD(o *op, addr uint64) (uint64, *qfault) {
	cost := &c.cfg.Cost
	raw, err := c.dev.ReadU32(addr)
	if err != nil {
		return cost.DescriptorLine, memFault(err, abi.QErrDescriptor)
	}
	n := abi.QMDCount(raw)
	body := make([]byte, n*abi.QMDPairBytes)
	cyc := cost.DescriptorLine * uint64((4+len(body)+abi.LineBytes-1)/abi.LineBytes)
	if err := c.dev.Read(addr+4, body); err != nil {
		return cyc, memFault(err, abi.QErrDescriptor)
	}
	for i := 0; i < n; i++ {
		p := abi.DecodeQMDPair(body, i)
		cyc += cost.DCR
		if err := c.gpu.DCRWrite(p.Addr, p.Value); err != nil {
			return cyc, &qfault{abi.QErrDCR, uint64(p.Addr)}
		}
	}
	lc, f := c.launch(o)
	return satAdd(cyc+cost.LaunchOverhead, lc), f
}

// draw walks a draw descriptor: launches drain as the inter-stage barrier, DCR
// steps execute inline, other steps are ignored. num_steps is clamped to 256.
// spec: command-processor §8.1; vortex-hardware-facts §1.3
func (c *CP) draw(o *op) (uint64, *qfault) {
	cost := &c.cfg.Cost
	addr := o.cmd.Args[0]
	raw, err := c.dev.ReadU32(addr)
	if err != nil {
		return cost.DescriptorLine, memFault(err, abi.QErrDescriptor)
	}
	n := abi.DrawStepCount(raw)
	cyc := cost.DescriptorLine
	var step [abi.DrawStepBytes]byte
	for i := 0; i < n; i++ {
		sa := addr + 4 + uint64(abi.DrawStepBytes*i)
		if err := c.dev.Read(sa, step[:]); err != nil {
			return cyc, memFault(err, abi.QErrDescriptor)
		}
		// Descriptor bytes stream in at DescriptorLine per 64 bytes.
		if (4+abi.DrawStepBytes*(i+1)-1)/abi.LineBytes != (4+abi.DrawStepBytes*i-1)/abi.LineBytes {
			cyc += cost.DescriptorLine
		}
		s := abi.CommandFromStep28(step[:])
		if !abi.DrawStepExecutes(s.Op) {
			continue
		}
		var sc uint64
		var f *qfault
		switch s.Op {
		case abi.OpLaunch:
			sc, f = c.launch(o)
			sc = satAdd(sc, cost.LaunchOverhead)
		case abi.OpLaunchQMD:
			sc, f = c.launchQMD(o, s.Args[0])
		default:
			sc, f = c.dcrStep(o.q, s)
		}
		cyc = satAdd(cyc, sc)
		if f != nil {
			return cyc, f
		}
		if o.gen != o.q.gen || c.closed {
			return cyc, nil // reset or closed while a launch ran: stop the walk
		}
	}
	return cyc, nil
}
