package runtime

import (
	"fmt"
	"sync"

	"vortexgfx/abi"
)

// QueueOptions configures a queue's CP ring.
type QueueOptions struct {
	Priority     int // Q_CONTROL[3:2]: 0 (lowest) .. 3 (highest)
	RingSizeLog2 int // 0 = min(16, CP_DEV_CAPS ring log2 max)
	// Profile sets Q_CONTROL.profile_en and marks each batch's first and last
	// command with F_PROFILE, so Event.Profile reports CP timestamps. It needs the
	// CP's profiling capability (CP_DEV_CAPS bit 28).
	Profile bool
}

// stageBytes is each queue's persistent host staging and device scratch size;
// larger batches allocate temporary staging.
const stageBytes = 64 << 10

// Queue is an in-order stream of work on its own CP ring, with its own worker
// goroutine. Work on different queues runs concurrently; events order it.
// spec: command-processor §9, §10 item 8
type Queue struct {
	d    *Device
	hw   int
	ring uint64 // host addresses
	head uint64
	cmpl uint64
	mask uint64
	prio uint32

	hostStage, devStage uint64
	profile             bool
	profSlots           uint64 // host address of two 32-byte profile records

	// Worker-owned.
	tail uint64 // committed tail (bytes)
	seq  uint64 // seqnum expected after the last submission

	mu       sync.Mutex
	closed   bool
	inflight int // batches submitted whose run has not ended (guarded by mu)
	ops      chan *op
	exited   chan struct{}

	// execMu is held while a batch runs: by the worker, or by a DCRRead that
	// found the queue idle and runs on its caller's goroutine (see DCRRead).
	execMu sync.Mutex
}

type op struct {
	b    *Batch
	deps []*Event
	ev   *Event
}

// NewQueue creates a queue on a free CP queue and programs it as command-processor
// §9 says: ring base, head and completion addresses, ring size, Q_CONTROL enable,
// then CP_CTRL enable last; it also enables the queue's interrupt.
func (d *Device) NewQueue(o QueueOptions) (*Queue, error) {
	if o.Profile && !d.caps.CP.Profiling {
		return nil, fmt.Errorf("runtime: queue profiling: the CP has no profiling capability")
	}
	if o.Priority < 0 || o.Priority > 3 {
		return nil, fmt.Errorf("runtime: queue priority %d (want 0..3)", o.Priority)
	}
	log2 := o.RingSizeLog2
	if log2 == 0 {
		log2 = min(abi.DefaultRingSizeLog2, int(d.caps.CP.RingSizeLog2Max))
	}
	if log2 < 12 || log2 > int(d.caps.CP.RingSizeLog2Max) {
		return nil, fmt.Errorf("runtime: ring size log2 %d (want 12..%d)", log2, d.caps.CP.RingSizeLog2Max)
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil, ErrClosed
	}
	hw := -1
	for i, free := range d.hwFree {
		if free {
			hw = i
			break
		}
	}
	if hw < 0 {
		d.mu.Unlock()
		return nil, fmt.Errorf("%w (%d)", ErrNoQueue, len(d.hwFree))
	}
	d.hwFree[hw] = false
	d.mu.Unlock()

	q := &Queue{d: d, hw: hw, mask: 1<<log2 - 1, prio: uint32(o.Priority), profile: o.Profile, ops: make(chan *op, 256), exited: make(chan struct{})}
	if err := q.setup(log2); err != nil {
		q.release()
		return nil, fmt.Errorf("runtime: queue %d: %w", hw, err)
	}
	d.mu.Lock()
	d.queues[q] = true
	d.mu.Unlock()
	go q.worker()
	return q, nil
}

// control is the queue's Q_CONTROL value: enable, priority, profile_en.
func (q *Queue) control() uint32 {
	v := abi.QControlEnable | q.prio<<abi.QControlPrioShift
	if q.profile {
		v |= abi.QControlProfileEn
	}
	return v
}

func (q *Queue) setup(log2 int) error {
	t := q.d.t
	var err error
	alloc := func(dst *uint64, size, align uint64) {
		if err == nil {
			*dst, err = t.HostAlloc(size, align)
		}
	}
	alloc(&q.ring, 1<<log2, 4096)
	alloc(&q.head, abi.SeqnumBytes, 64)
	alloc(&q.cmpl, abi.SeqnumBytes, 64)
	alloc(&q.hostStage, stageBytes+abi.LineBytes, 64)
	alloc(&q.profSlots, 2*abi.ProfileRecordBytes, 64)
	if err == nil {
		q.devStage, err = q.d.allocPhys(stageBytes + abi.LineBytes)
	}
	if err != nil {
		return err
	}
	qr := func(reg uint32) uint32 { return abi.QueueReg(q.hw, reg) }
	writes := []struct{ off, v uint32 }{
		{qr(abi.RegQControl), abi.QControlReset}, // a reused CP queue starts clean
		{qr(abi.RegQRingBaseLo), uint32(q.ring)}, {qr(abi.RegQRingBaseHi), uint32(q.ring >> 32)},
		{qr(abi.RegQHeadAddrLo), uint32(q.head)}, {qr(abi.RegQHeadAddrHi), uint32(q.head >> 32)},
		{qr(abi.RegQCmplAddrLo), uint32(q.cmpl)}, {qr(abi.RegQCmplAddrHi), uint32(q.cmpl >> 32)},
		{qr(abi.RegQRingSizeLog2), uint32(log2)},
		{qr(abi.RegQControl), q.control()},
	}
	for _, w := range writes {
		if err := t.WriteReg(w.off, w.v); err != nil {
			return err
		}
	}
	h := &q.d.hwq[q.hw]
	h.done.Store(0)
	h.qerr.Store(0)
	h.cmpl.Store(q.cmpl)
	q.d.mu.Lock()
	q.d.irqMask |= 1 << q.hw
	mask := q.d.irqMask
	q.d.mu.Unlock()
	if err := t.WriteReg(abi.RegCPIRQEnable, mask); err != nil {
		return err
	}
	return t.WriteReg(abi.RegCPCtrl, abi.CPCtrlEnable)
}

// release frees the queue's host/device memory and its CP queue id.
func (q *Queue) release() {
	t := q.d.t
	for _, a := range []uint64{q.ring, q.head, q.cmpl, q.hostStage, q.profSlots} {
		if a != 0 {
			t.HostFree(a)
		}
	}
	if q.devStage != 0 {
		q.d.freePhys(q.devStage, stageBytes+abi.LineBytes)
	}
	q.d.hwq[q.hw].cmpl.Store(0)
	q.d.mu.Lock()
	q.d.hwFree[q.hw] = true
	q.d.irqMask &^= 1 << q.hw
	delete(q.d.queues, q)
	q.d.mu.Unlock()
}

// Close drains the queue's pending work, disables its CP queue and frees its ring.
func (q *Queue) Close() error {
	if q == q.d.def {
		return fmt.Errorf("runtime: the default queue closes with the device")
	}
	return q.close()
}

func (q *Queue) close() error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	q.closed = true
	close(q.ops)
	q.mu.Unlock()
	<-q.exited
	q.execMu.Lock() // a DCRRead running on its caller's goroutine ends first
	defer q.execMu.Unlock()
	err := q.d.t.WriteReg(abi.QueueReg(q.hw, abi.RegQControl), 0)
	q.release()
	return err
}

// submit queues a batch behind deps and returns its event.
func (q *Queue) submit(b *Batch, deps []*Event) *Event {
	ev := newEvent()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		ev.finish(ErrClosed)
		return ev
	}
	q.inflight++
	q.ops <- &op{b: b, deps: deps, ev: ev}
	return ev
}

// runNow runs b on the caller's goroutine when the queue is idle (nothing
// submitted is still running or waiting), in order with everything else on
// the queue; ok is false when it is not idle or closed, and b must then be
// submitted. It saves the two goroutine hand-offs of a submission for a batch
// the caller waits for at once anyway.
func (q *Queue) runNow(b *Batch) (ok bool, err error) {
	q.mu.Lock()
	if q.closed || q.inflight != 0 {
		q.mu.Unlock()
		return false, nil
	}
	q.execMu.Lock() // later submissions run after this batch
	q.mu.Unlock()
	defer q.execMu.Unlock()
	var ev Event // never waited on: only run's profile lands in it
	return true, q.run(b, &ev)
}

func (q *Queue) worker() {
	defer close(q.exited)
	for o := range q.ops {
		var err error
		for _, dep := range o.deps {
			if dep == nil {
				continue
			}
			if derr := dep.Wait(); derr != nil {
				err = fmt.Errorf("%w: %v", ErrDependency, derr)
				break
			}
		}
		if err == nil {
			q.execMu.Lock()
			err = q.run(o.b, o.ev)
			q.execMu.Unlock()
		}
		q.mu.Lock()
		q.inflight--
		q.mu.Unlock()
		o.ev.finish(err)
	}
}

// ring writes the packed lines, rings the doorbell once and sleeps until the CP has
// retired ncmds more commands (woken by the queue's interrupt; the seqnum is read
// from the completion mailbox in host memory). spec: command-processor §5, §9,
// §10 items 13, 14
func (q *Queue) ringAndWait(lines []byte, ncmds int) error {
	t := q.d.t
	n := uint64(len(lines))
	if n == 0 {
		return nil
	}
	if n > q.mask+1 {
		return fmt.Errorf("runtime: batch of %d lines exceeds the %d-byte ring", n/abi.LineBytes, q.mask+1)
	}
	for off := uint64(0); off < n; off += abi.LineBytes {
		if err := t.HostWrite(q.ring+(q.tail+off)&q.mask, lines[off:off+abi.LineBytes]); err != nil {
			return fmt.Errorf("runtime: writing ring: %w", err)
		}
	}
	q.tail += n
	q.seq += uint64(ncmds)
	if err := t.WriteReg(abi.QueueReg(q.hw, abi.RegQTailLo), uint32(q.tail)); err != nil {
		return err
	}
	if err := t.WriteReg(abi.QueueReg(q.hw, abi.RegQTailHi), uint32(q.tail>>32)); err != nil {
		return err
	}
	q.d.count(uint64(ncmds), n/abi.LineBytes, 1)
	h := &q.d.hwq[q.hw]
	for {
		if h.done.Load() >= q.seq {
			return nil
		}
		if qe := h.qerr.Load(); qe != 0 {
			return q.fault(qe)
		}
		<-h.wake
	}
}

// fault turns a Q_ERROR word into an error and resets the CP queue so later work
// on it can run.
func (q *Queue) fault(word uint32) error {
	t := q.d.t
	code, opc, off := abi.DecodeQError(word)
	lo, _ := t.ReadReg(abi.QueueReg(q.hw, abi.RegQFaultAddrLo))
	hi, _ := t.ReadReg(abi.QueueReg(q.hw, abi.RegQFaultAddrHi))
	err := fmt.Errorf("runtime: queue %d: CP error: %v in %v at line offset %d (address 0x%x)",
		q.hw, code, opc, off, uint64(hi)<<32|uint64(lo))
	// The reset clears head, tail, seqnum and the error (Q_CONTROL.reset); the
	// mailbox still holds the old seqnum, so it is zeroed before the queue runs again.
	// The handler lock keeps an interrupt that read the pre-reset state from
	// publishing it afterwards.
	h := &q.d.hwq[q.hw]
	h.mu.Lock()
	defer h.mu.Unlock()
	ctl := abi.QueueReg(q.hw, abi.RegQControl)
	if rerr := t.WriteReg(ctl, abi.QControlReset); rerr != nil {
		return fmt.Errorf("%w; reset failed: %v", err, rerr)
	}
	var zero [abi.SeqnumBytes]byte
	if werr := t.HostWrite(q.cmpl, zero[:]); werr != nil {
		return fmt.Errorf("%w; clearing the mailbox failed: %v", err, werr)
	}
	q.tail, q.seq = 0, 0
	h.done.Store(0)
	h.qerr.Store(0)
	if rerr := t.WriteReg(ctl, q.control()); rerr != nil {
		return fmt.Errorf("%w; re-enable failed: %v", err, rerr)
	}
	return err
}
