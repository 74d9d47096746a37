package cp

import (
	"context"
	"encoding/binary"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"vortexgfx/abi"
)

// TestFaults: every fault stops only its queue with Q_ERROR {code, opcode, line
// offset}, Q_FAULT_ADDR and CP_STATUS.error; the other queue keeps going; a
// Q_CONTROL.reset clears it. spec: command-processor §5 (Q_ERROR, ours)
func TestFaults(t *testing.T) {
	type setup func(r *rig) (cmds []abi.Command, addr uint64)
	tests := []struct {
		name string
		code abi.QErr
		op   abi.Opcode
		off  int
		mk   setup
	}{
		{"DMA read", abi.QErrDMARead, abi.OpMemWrite, 20, func(r *rig) ([]abi.Command, uint64) {
			d := r.dalloc(64)
			return []abi.Command{abi.DCRWrite(1, 1), abi.MemWrite(d, 0x77, 8)}, 0x77
		}},
		{"DMA write straddles", abi.QErrDMAWrite, abi.OpMemWrite, 0, func(r *rig) ([]abi.Command, uint64) {
			d, h := r.dalloc(64), r.halloc(256)
			return []abi.Command{abi.MemWrite(d, h, 65)}, d + 64
		}},
		{"MEM_READ into device space", abi.QErrDMAWrite, abi.OpMemRead, 0, func(r *rig) ([]abi.Command, uint64) {
			d := r.dalloc(64)
			return []abi.Command{abi.MemRead(d, d, 8)}, d
		}},
		{"rtl rounding overruns", abi.QErrDMAWrite, abi.OpMemWrite, 0, func(r *rig) ([]abi.Command, uint64) {
			d, h := r.dalloc(64), r.halloc(256)
			return []abi.Command{abi.MemWrite(d+32, h, 8)}, d + 64
		}},
		{"QMD descriptor", abi.QErrDescriptor, abi.OpLaunchQMD, 0, func(r *rig) ([]abi.Command, uint64) {
			return []abi.Command{abi.LaunchQMD(0x99)}, 0x99
		}},
		{"draw descriptor", abi.QErrDescriptor, abi.OpDraw, 0, func(r *rig) ([]abi.Command, uint64) {
			d := r.dalloc(64)
			_ = r.dev.WriteU32(d, 3)
			return []abi.Command{abi.Draw(d)}, d + 4 + 2*28 // steps at +4, +32, +60
		}},
		{"event signal", abi.QErrEvent, abi.OpEventSignal, 0, func(r *rig) ([]abi.Command, uint64) {
			return []abi.Command{abi.EventSignal(0x88, 1)}, 0x88
		}},
		{"event wait", abi.QErrEvent, abi.OpEventWait, 0, func(r *rig) ([]abi.Command, uint64) {
			return []abi.Command{abi.EventWait(0x88, 1, abi.WaitEQ)}, 0x88
		}},
		{"DCR rejected", abi.QErrDCR, abi.OpDCRWrite, 0, func(r *rig) ([]abi.Command, uint64) {
			r.gpu.badDCR = 0x3FF
			return []abi.Command{abi.DCRWrite(0x3FF, 1)}, 0x3FF
		}},
		{"launch error", abi.QErrLaunch, abi.OpLaunch, 0, func(r *rig) ([]abi.Command, uint64) {
			r.gpu.onLaunch = func() error { return errors.New("boom") }
			return []abi.Command{abi.Launch()}, 0
		}},
		{"profile slot", abi.QErrCompletion, abi.OpDCRWrite, 0, func(r *rig) ([]abi.Command, uint64) {
			r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable|abi.QControlProfileEn)
			c := abi.DCRWrite(1, 1)
			c.Flags, c.ProfileSlot = abi.FlagProfile, 0x10
			return []abi.Command{c}, 0x10
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fl := abi.FlavorEmu
			if tc.name == "rtl rounding overruns" {
				fl = abi.FlavorRTL
			}
			r := newRig(t, Config{Flavor: fl, NumQueues: 2})
			cmds, addr := tc.mk(r)
			cmds = append(cmds, abi.DCRWrite(0x90, 1)) // must not run after the fault
			r.submit(0, cmds...)
			r.submit(1, abi.DCRWrite(0x91, 1))
			r.wait()
			code, op, off := r.qerr(0)
			fa := uint64(r.rd(abi.QueueReg(0, abi.RegQFaultAddrLo))) | uint64(r.rd(abi.QueueReg(0, abi.RegQFaultAddrHi)))<<32
			if code != tc.code || op != tc.op || off != tc.off || fa != addr {
				t.Fatalf("Q_ERROR = %v %v off %d addr %#x; want %v %v off %d addr %#x", code, op, off, fa, tc.code, tc.op, tc.off, addr)
			}
			if r.rd(abi.RegCPStatus)&abi.CPStatusError == 0 {
				t.Fatal("CP_STATUS.error clear")
			}
			if _, ok := r.gpu.dcr[0x90]; ok {
				t.Fatal("a command after the fault ran")
			}
			if r.gpu.dcr[0x91] != 1 || r.seq(1) != 1 {
				t.Fatal("the other queue did not run")
			}
			r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable|abi.QControlReset)
			if r.rd(abi.QueueReg(0, abi.RegQError)) != 0 || r.rd(abi.RegCPStatus) != 0 || r.seq(0) != 0 {
				t.Fatal("reset did not clear the error")
			}
			r.gpu.badDCR, r.gpu.onLaunch = 0, nil
			r.tail[0] = 0
			r.submit(0, abi.DCRWrite(0x92, 1))
			r.wait()
			if r.seq(0) != 1 {
				t.Fatal("queue did not run after reset")
			}
		})
	}
}

// TestRingFaults: fetch outside host memory, bad ring configuration, bad tails.
func TestRingFaults(t *testing.T) {
	tests := []struct {
		name string
		do   func(r *rig)
		code abi.QErr
	}{
		{"fetch", func(r *rig) {
			r.w(abi.QueueReg(0, abi.RegQRingBaseHi), 0x7)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
			r.w(abi.QueueReg(0, abi.RegQTailLo), 64)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
		}, abi.QErrFetch},
		{"ring size", func(r *rig) {
			r.w(abi.QueueReg(0, abi.RegQRingSizeLog2), 40)
			r.w(abi.QueueReg(0, abi.RegQTailLo), 64)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
		}, abi.QErrRingConfig},
		{"misaligned base", func(r *rig) {
			r.w(abi.QueueReg(0, abi.RegQRingBaseLo), uint32(r.ring[0]+8))
			r.w(abi.QueueReg(0, abi.RegQTailLo), 64)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
		}, abi.QErrRingConfig},
		{"tail not a line", func(r *rig) {
			r.w(abi.QueueReg(0, abi.RegQTailLo), 65)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
		}, abi.QErrTailRange},
		{"tail past the ring", func(r *rig) {
			r.w(abi.QueueReg(0, abi.RegQTailLo), 1<<16+64)
			r.w(abi.QueueReg(0, abi.RegQTailHi), 0)
		}, abi.QErrTailRange},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{})
			tc.do(r)
			r.wait()
			if code, _, off := r.qerr(0); code != tc.code || off != 0xFFFF {
				t.Fatalf("Q_ERROR %v off %#x, want %v off 0xFFFF", code, off, tc.code)
			}
		})
	}
}

// TestFenceOrdering: with pipelining a LAUNCH may overtake an earlier MEM_WRITE
// and see stale data; CMD_FENCE(DMA) orders it. spec: command-processor §10 item 3
func TestFenceOrdering(t *testing.T) {
	for _, fenced := range []bool{false, true} {
		r := newRig(t, Config{Pipeline: true})
		h, d := r.halloc(64), r.dalloc(64)
		_ = r.host.WriteU64(h, 42)
		var seen uint64
		r.gpu.onLaunch = func() error {
			v, err := r.dev.ReadU64(d)
			seen = v
			return err
		}
		cmds := []abi.Command{abi.MemWrite(d, h, 64)}
		if fenced {
			cmds = append(cmds, abi.Fence(abi.FenceDMA))
		}
		r.submit(0, append(cmds, abi.Launch())...)
		r.wait()
		if want := map[bool]uint64{false: 0, true: 42}[fenced]; seen != want {
			t.Fatalf("fenced=%v: kernel saw %d, want %d", fenced, seen, want)
		}
	}
}

// TestFenceSerialMode: without Pipeline every command waits for the previous one,
// so the launch always sees the data (the hardware's strictly serial engine).
func TestFenceSerialMode(t *testing.T) {
	r := newRig(t, Config{})
	h, d := r.halloc(64), r.dalloc(64)
	_ = r.host.WriteU64(h, 42)
	var seen uint64
	r.gpu.onLaunch = func() error { seen, _ = r.dev.ReadU64(d); return nil }
	r.submit(0, abi.MemWrite(d, h, 64), abi.Launch())
	r.wait()
	if seen != 42 {
		t.Fatalf("kernel saw %d", seen)
	}
}

// TestCrossQueueEvents: q1 waits on a counter that q0 signals later, after a
// launch; the wait releases the event unit between polls, so q0's signal gets it.
// spec: command-processor §9 (device events), §10 items 8, 10
func TestCrossQueueEvents(t *testing.T) {
	for _, op := range []abi.WaitOp{abi.WaitEQ, abi.WaitGE, abi.WaitGT, abi.WaitNE} {
		t.Run(op.String(), func(t *testing.T) {
			r := newRig(t, Config{NumQueues: 2})
			ctr := r.dalloc(8)
			_ = r.dev.WriteU64(ctr, 5)
			target := map[abi.WaitOp]uint64{abi.WaitEQ: 7, abi.WaitGE: 7, abi.WaitGT: 6, abi.WaitNE: 5}[op]
			r.submit(1, abi.EventWait(ctr, target, op), abi.DCRWrite(0x91, 1))
			r.submit(0, abi.DCRWrite(0x90, 1), abi.Launch(), abi.EventSignal(ctr, 7))
			r.wait()
			if r.seq(0) != 3 || r.seq(1) != 2 {
				t.Fatalf("seqnums %d %d", r.seq(0), r.seq(1))
			}
			var sig, wait TraceEvent
			for _, e := range r.traces() {
				switch e.Cmd.Op {
				case abi.OpEventSignal:
					sig = e
				case abi.OpEventWait:
					wait = e
				}
			}
			if wait.End <= sig.Start {
				t.Fatalf("wait retired at %d before the signal at %d", wait.End, sig.Start)
			}
		})
	}
}

// TestWaitSatisfiedByHost: a wait on a counter nothing on the device changes is a
// wait, not a hang: the host can satisfy it, reset ends it, Close ends it.
func TestWaitSatisfiedByHost(t *testing.T) {
	r := newRig(t, Config{NumQueues: 2})
	ctr := r.dalloc(8)
	r.submit(0, abi.EventWait(ctr, 1, abi.WaitEQ))
	r.submit(1, abi.DCRWrite(0x91, 1))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := r.cp.WaitIdle(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitIdle = %v, want a timeout while q0 waits", err)
	}
	if r.seq(1) != 1 {
		t.Fatal("q1 was blocked by q0's wait")
	}
	if st := r.rd(abi.RegCPStatus); st != abi.CPStatusBusy {
		t.Fatalf("CP_STATUS = %#x while q0 waits, want busy", st)
	}
	cyc := r.cp.Cycle()
	time.Sleep(5 * time.Millisecond)
	if r.cp.Cycle() != cyc {
		t.Fatal("CP_CYCLE spins while only a host-satisfiable wait is pending")
	}
	_ = r.dev.StoreU64(ctr, 1) // the host writes the counter while the CP polls it
	r.wait()
	if r.seq(0) != 1 {
		t.Fatal("wait did not complete")
	}
	// Reset ends a wait.
	r.submit(0, abi.EventWait(ctr, 2, abi.WaitEQ))
	r.w(abi.QueueReg(0, abi.RegQControl), abi.QControlEnable|abi.QControlReset)
	r.wait()
	// Close ends a wait and a blocked launch.
	r.tail[0] = 0
	r.submit(0, abi.EventWait(ctr, 2, abi.WaitEQ))
	r.gpu.block = true
	r.submit(1, abi.Launch())
	done := make(chan struct{})
	go func() { r.cp.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung")
	}
}

// TestPriority: queues bidding for the same unit in the same cycle are granted
// highest Q_CONTROL prio first, round robin from the last grant among equals; two
// equal queues streaming DCR traffic alternate. spec: command-processor §4.3,
// §10 item 11
func TestPriority(t *testing.T) {
	order := func(prios ...uint32) []int {
		r := newRig(t, Config{NumQueues: len(prios)})
		r.w(abi.RegCPCtrl, 0)
		for q, p := range prios {
			r.w(abi.QueueReg(q, abi.RegQControl), abi.QControlEnable|p<<abi.QControlPrioShift)
			r.submit(q, abi.CacheFlush(4))
		}
		r.w(abi.RegCPCtrl, abi.CPCtrlEnable)
		r.wait()
		var qs []int
		for _, e := range r.traces() {
			qs = append(qs, e.Queue)
		}
		return qs
	}
	tests := []struct {
		prios []uint32
		want  []int
	}{
		{[]uint32{0, 3, 1}, []int{1, 2, 0}},
		{[]uint32{1, 1, 1}, []int{1, 2, 0}},
		{[]uint32{2, 0, 2}, []int{2, 0, 1}},
		{[]uint32{0, 0, 0, 3}, []int{3, 0, 1, 2}}, // round robin resumes after q3
	}
	for _, tc := range tests {
		if got := order(tc.prios...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("prios %v: grant order %v, want %v", tc.prios, got, tc.want)
		}
	}
	// Two equal queues streaming to one unit alternate.
	r := newRig(t, Config{NumQueues: 2})
	r.w(abi.RegCPCtrl, 0)
	var cmds []abi.Command
	for i := 0; i < 10; i++ {
		cmds = append(cmds, abi.CacheFlush(4))
	}
	r.submit(0, cmds...)
	r.submit(1, cmds...)
	r.w(abi.RegCPCtrl, abi.CPCtrlEnable)
	r.wait()
	tr := r.traces()
	for i := 1; i < len(tr); i++ {
		if tr[i].Queue == tr[i-1].Queue {
			t.Fatalf("equal priorities did not alternate at %d", i)
		}
	}
}

// TestProfiling: the 32-byte {queued, submit, start, end} record for F_PROFILE
// commands when Q_CONTROL.profile_en is set. spec: command-processor §10 item 12
func TestProfiling(t *testing.T) {
	for _, en := range []bool{false, true} {
		r := newRig(t, Config{})
		ctl := abi.QControlEnable
		if en {
			ctl |= abi.QControlProfileEn
		}
		r.w(abi.QueueReg(0, abi.RegQControl), ctl)
		slot := r.halloc(32)
		c := abi.Launch()
		c.Flags, c.ProfileSlot = abi.FlagProfile, slot
		r.submit(0, abi.DCRWrite(1, 1), c)
		r.wait()
		rec := make([]byte, 32)
		_ = r.host.Read(slot, rec)
		q, s, st, e := binary.LittleEndian.Uint64(rec), binary.LittleEndian.Uint64(rec[8:]),
			binary.LittleEndian.Uint64(rec[16:]), binary.LittleEndian.Uint64(rec[24:])
		if !en {
			if e != 0 {
				t.Fatal("record written without profile_en")
			}
			continue
		}
		if !(q <= s && s < st && st < e) || e-st < r.gpu.cycles {
			t.Fatalf("record %d %d %d %d", q, s, st, e)
		}
	}
}

// TestIRQ: one callback per retire batch with the enabled queues; CP_IRQ_STATUS is
// write-one-to-clear. spec: command-processor §10 item 13
func TestIRQ(t *testing.T) {
	r := newRig(t, Config{NumQueues: 2})
	var mu sync.Mutex
	var masks []uint32
	r.cp.SetIRQHandler(func(m uint32) { mu.Lock(); masks = append(masks, m); mu.Unlock() })
	r.w(abi.RegCPIRQEnable, 0b10)
	r.submit(0, abi.DCRWrite(1, 1))
	r.wait()
	mu.Lock()
	if len(masks) != 0 {
		t.Fatalf("irq for a disabled queue: %v", masks)
	}
	mu.Unlock()
	r.submit(1, abi.DCRWrite(1, 1))
	r.wait()
	mu.Lock()
	if len(masks) != 1 || masks[0] != 0b10 {
		t.Fatalf("masks %v", masks)
	}
	mu.Unlock()
	if st := r.rd(abi.RegCPIRQStatus); st != 0b11 {
		t.Fatalf("IRQ status %#b", st)
	}
	r.w(abi.RegCPIRQStatus, 0b01)
	if st := r.rd(abi.RegCPIRQStatus); st != 0b10 {
		t.Fatalf("IRQ status after W1C %#b", st)
	}
	// A fault interrupts too, so a runtime sleeping on the IRQ wakes up.
	r.submit(1, abi.EventSignal(0x8, 1))
	r.wait()
	mu.Lock()
	defer mu.Unlock()
	if len(masks) != 2 || masks[1] != 0b10 {
		t.Fatalf("no interrupt for a fault: %v", masks)
	}
}

// TestResetAll: CP_CTRL.reset_all clears every queue (head, tail, seqnum, error).
func TestResetAll(t *testing.T) {
	r := newRig(t, Config{NumQueues: 2})
	r.submit(0, abi.DCRWrite(1, 1))
	r.submit(1, abi.EventSignal(0x8, 1))
	r.wait()
	r.w(abi.RegCPCtrl, abi.CPCtrlEnable|abi.CPCtrlResetAll)
	for q := 0; q < 2; q++ {
		if r.seq(q) != 0 || r.rd(abi.QueueReg(q, abi.RegQError)) != 0 || r.rd(abi.QueueReg(q, abi.RegQTailHi)) != 0 {
			t.Fatalf("queue %d not reset", q)
		}
	}
	if r.rd(abi.RegCPCtrl) != abi.CPCtrlEnable {
		t.Fatal("reset_all is not a pulse")
	}
}

// TestDeterministicCycles: the same workload gives the same CP_CYCLE and trace
// however the goroutines are scheduled.
func TestDeterministicCycles(t *testing.T) {
	run := func() ([]TraceEvent, uint64) {
		r := newRig(t, Config{NumQueues: 3, Pipeline: true})
		r.w(abi.RegCPCtrl, 0)
		h, d := r.halloc(1<<16), r.dalloc(1<<16)
		ctr := r.dalloc(8)
		for q := 0; q < 3; q++ {
			r.submit(q, abi.MemWrite(d, h, 5000), abi.DCRWrite(0x10, 1), abi.Launch(), abi.CacheFlush(4),
				abi.EventWait(ctr, uint64(q), abi.WaitGE), abi.EventSignal(ctr, uint64(q+1)), abi.MemRead(h, d, 300))
		}
		r.w(abi.RegCPCtrl, abi.CPCtrlEnable)
		r.wait()
		return r.traces(), r.cp.Cycle()
	}
	t1, c1 := run()
	for i := 0; i < 3; i++ {
		t2, c2 := run()
		if c1 != c2 || !reflect.DeepEqual(t1, t2) {
			t.Fatalf("run %d: %d cycles vs %d", i, c2, c1)
		}
	}
	if len(t1) != 21 {
		t.Fatalf("%d retires, want 21", len(t1))
	}
}

// TestConcurrentHosts drives two queues from two goroutines while reading
// registers; run with -race.
func TestConcurrentHosts(t *testing.T) {
	r := newRig(t, Config{NumQueues: 2})
	var wg sync.WaitGroup
	for q := 0; q < 2; q++ {
		wg.Add(1)
		go func(q int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				b, _ := abi.PackLines([]abi.Command{abi.DCRWrite(abi.DCR(0x90+q), uint32(i)), abi.Launch()})
				_ = r.host.Write(r.ring[q]+uint64(i*64), b)
				_ = r.cp.WriteReg(abi.QueueReg(q, abi.RegQTailLo), uint32((i+1)*64))
				_ = r.cp.WriteReg(abi.QueueReg(q, abi.RegQTailHi), 0)
				_, _ = r.cp.ReadReg(abi.RegCPStatus)
			}
		}(q)
	}
	wg.Wait()
	r.wait()
	if r.seq(0) != 100 || r.seq(1) != 100 {
		t.Fatalf("seqnums %d %d", r.seq(0), r.seq(1))
	}
}

// TestConcurrentQMDLaunches: two queues launching through LAUNCH_QMD never mix
// each other's KMU state, and no grant is lost: every command executes once.
// spec: command-processor §4.4 items 1-2, §10 items 5, 6, 8
func TestConcurrentQMDLaunches(t *testing.T) {
	r := newRig(t, Config{NumQueues: 2, Pipeline: true})
	r.w(abi.RegCPCtrl, 0)
	for q := 0; q < 2; q++ {
		var cmds []abi.Command
		for i := 0; i < 20; i++ {
			marker := uint32(q*1000 + i + 1)
			qmd, _ := abi.EncodeQMD(abi.LaunchDCRs(abi.LaunchInfo{StartupAddr: uint64(marker),
				NDim: 3, Grid: [3]uint32{marker, marker, marker}, Block: [3]uint32{1, 1, 1}}, 4))
			a := r.dalloc(uint64(len(qmd)))
			_ = r.dev.Write(a, qmd)
			cmds = append(cmds, abi.LaunchQMD(a), abi.DCRWrite(abi.DCRGridDimX, 0xBAD), abi.CacheFlush(4))
		}
		r.submit(q, cmds...)
	}
	r.w(abi.RegCPCtrl, abi.CPCtrlEnable)
	r.wait()
	if r.seq(0) != 60 || r.seq(1) != 60 || len(r.gpu.launches) != 40 {
		t.Fatalf("seqnums %d %d, launches %d", r.seq(0), r.seq(1), len(r.gpu.launches))
	}
	for i, l := range r.gpu.launches {
		m := l[abi.DCRStartupAddr0]
		if l[abi.DCRGridDimX] != m || l[abi.DCRGridDimY] != m || l[abi.DCRGridDimZ] != m {
			t.Fatalf("launch %d mixed KMU state: %v", i, l)
		}
	}
}
