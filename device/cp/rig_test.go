package cp

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// fakeGPU is a tiny GPU for the CP's own tests: a DCR file, a log of every DCR
// access, and a launch that snapshots the KMU registers and runs an optional hook.
type fakeGPU struct {
	mu       sync.Mutex
	cores    int
	dcr      map[abi.DCR]uint32
	log      []string
	launches []map[abi.DCR]uint32
	cycles   uint64
	onLaunch func() error
	badDCR   abi.DCR // DCRWrite/DCRRead of this address fails (0 = none)
	block    bool    // Launch blocks until ctx ends
}

func newFakeGPU(cores int) *fakeGPU {
	return &fakeGPU{cores: cores, dcr: map[abi.DCR]uint32{}, cycles: 100}
}

func (g *fakeGPU) NumCores() int { return g.cores }

func (g *fakeGPU) DCRWrite(a abi.DCR, v uint32) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.badDCR != 0 && a == g.badDCR {
		return errors.New("fake: rejected DCR")
	}
	g.dcr[a] = v
	g.log = append(g.log, "W"+hex(uint64(a))+"="+hex(uint64(v)))
	return nil
}

func (g *fakeGPU) DCRRead(a abi.DCR, tag uint32) (uint32, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.badDCR != 0 && a == g.badDCR {
		return 0, errors.New("fake: rejected DCR")
	}
	g.log = append(g.log, "R"+hex(uint64(a))+"/"+hex(uint64(tag)))
	return uint32(a)<<16 ^ tag ^ 0x5A5A, nil
}

func (g *fakeGPU) Launch(ctx context.Context) (uint64, error) {
	g.mu.Lock()
	snap := map[abi.DCR]uint32{}
	for a, v := range g.dcr {
		if a >= abi.DCRStartupAddr0 && a < abi.DCRKMUEnd {
			snap[a] = v
		}
	}
	g.launches = append(g.launches, snap)
	g.log = append(g.log, "LAUNCH")
	hook, block, cyc := g.onLaunch, g.block, g.cycles
	g.mu.Unlock()
	if block {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	if hook != nil {
		if err := hook(); err != nil {
			return 0, err
		}
	}
	return cyc, nil
}

func (g *fakeGPU) Log() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.log...)
}

func hex(v uint64) string {
	const digits = "0123456789ABCDEF"
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v != 0; v >>= 4 {
		b = append([]byte{digits[v&15]}, b...)
	}
	return string(b)
}

// rig is a CP with programmed queues, each with a 64 KiB ring, a completion slot and
// a head slot in host memory.
type rig struct {
	t     testing.TB
	host  *mem.Host
	dev   *mem.Device
	gpu   *fakeGPU
	cp    *CP
	ring  []uint64
	cmpl  []uint64
	head  []uint64
	tail  []uint64
	trace []TraceEvent
	tmu   sync.Mutex
}

func newRig(t testing.TB, cfg Config) *rig {
	t.Helper()
	r := &rig{t: t, host: mem.NewHost(mem.DefaultHostBase, mem.DefaultHostSize),
		dev: mem.NewDevice(mem.DefaultDeviceBase, mem.DefaultDeviceSize), gpu: newFakeGPU(4)}
	if cfg.Trace == nil {
		cfg.Trace = func(e TraceEvent) { r.tmu.Lock(); r.trace = append(r.trace, e); r.tmu.Unlock() }
	}
	c, err := New(cfg, r.host, r.dev, r.gpu, Caps{GPUDev: 0x1122334455, ISA: 0x40000000_40001100})
	if err != nil {
		t.Fatal(err)
	}
	r.cp = c
	t.Cleanup(c.Close)
	n := max(cfg.NumQueues, 1)
	for q := 0; q < n; q++ {
		ring := r.halloc(1 << 16)
		cm, hd := r.halloc(8), r.halloc(8)
		r.ring, r.cmpl, r.head, r.tail = append(r.ring, ring), append(r.cmpl, cm), append(r.head, hd), append(r.tail, 0)
		r.w(abi.QueueReg(q, abi.RegQRingBaseLo), uint32(ring))
		r.w(abi.QueueReg(q, abi.RegQRingBaseHi), uint32(ring>>32))
		r.w(abi.QueueReg(q, abi.RegQHeadAddrLo), uint32(hd))
		r.w(abi.QueueReg(q, abi.RegQHeadAddrHi), uint32(hd>>32))
		r.w(abi.QueueReg(q, abi.RegQCmplAddrLo), uint32(cm))
		r.w(abi.QueueReg(q, abi.RegQCmplAddrHi), uint32(cm>>32))
		r.w(abi.QueueReg(q, abi.RegQRingSizeLog2), 16)
		r.w(abi.QueueReg(q, abi.RegQControl), abi.QControlEnable)
	}
	r.w(abi.RegCPCtrl, abi.CPCtrlEnable)
	return r
}

func (r *rig) halloc(n uint64) uint64 {
	a, err := r.host.Alloc(n, 64)
	if err != nil {
		r.t.Fatal(err)
	}
	return a
}

func (r *rig) dalloc(n uint64) uint64 {
	a, err := r.dev.Alloc(n, 64)
	if err != nil {
		r.t.Fatal(err)
	}
	return a
}

func (r *rig) w(off, v uint32) {
	r.t.Helper()
	if err := r.cp.WriteReg(off, v); err != nil {
		r.t.Fatalf("WriteReg(%#x, %#x): %v", off, v, err)
	}
}

func (r *rig) rd(off uint32) uint32 {
	r.t.Helper()
	v, err := r.cp.ReadReg(off)
	if err != nil {
		r.t.Fatalf("ReadReg(%#x): %v", off, err)
	}
	return v
}

// put writes packed lines into queue q's ring without committing.
func (r *rig) put(q int, lines []byte) {
	r.t.Helper()
	for i := 0; i < len(lines); i += abi.LineBytes {
		if err := r.host.Write(r.ring[q]+(r.tail[q]&0xFFFF), lines[i:i+abi.LineBytes]); err != nil {
			r.t.Fatal(err)
		}
		r.tail[q] += abi.LineBytes
	}
}

func (r *rig) commit(q int) {
	r.w(abi.QueueReg(q, abi.RegQTailLo), uint32(r.tail[q]))
	r.w(abi.QueueReg(q, abi.RegQTailHi), uint32(r.tail[q]>>32))
}

// submit packs cmds densely, writes them to q's ring and rings the doorbell once.
func (r *rig) submit(q int, cmds ...abi.Command) {
	r.t.Helper()
	b, err := abi.PackLines(cmds)
	if err != nil {
		r.t.Fatal(err)
	}
	r.put(q, b)
	r.commit(q)
}

func (r *rig) wait() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cp.WaitIdle(ctx); err != nil {
		r.t.Fatalf("WaitIdle: %v", err)
	}
}

func (r *rig) seq(q int) uint32 { return r.rd(abi.QueueReg(q, abi.RegQSeqnum)) }

func (r *rig) qerr(q int) (abi.QErr, abi.Opcode, int) {
	return abi.DecodeQError(r.rd(abi.QueueReg(q, abi.RegQError)))
}

func (r *rig) traces() []TraceEvent {
	r.tmu.Lock()
	defer r.tmu.Unlock()
	return append([]TraceEvent(nil), r.trace...)
}

func (r *rig) hostU64(a uint64) uint64 {
	v, err := r.host.ReadU64(a)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}
