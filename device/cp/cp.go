// Package cp is the Vortex command processor in software: the register file the
// host drives, one fetch/decode engine per queue, the four shared resource units
// (KMU launch, DMA, DCR proxy, event unit) behind priority arbiters, completion and
// profiling writeback, interrupts and a deterministic cycle model.
//
// Two flavours share the code: FlavorEmu is the emulation CP (byte-exact DMA,
// CMD_LAUNCH_QMD, CMD_DRAW, the MMU-aware DMA with CP_SATP_LO/HI, CP_DEV_CAPS bits
// 24-26 set) and FlavorRTL is the FPGA CP as documented (0x0B/0x0C end the line, DMA
// rounded up to 64-byte beats, no SATP registers, bits 24-26 clear). Both close the
// gaps the hardware lists (§10): ordering CMD_FENCE, several queues each with its own
// ring, grants held for a resource's whole occupancy, priority arbitration,
// EVENT_WAIT that releases its arbiter between polls, profile records,
// interrupts and the head mailbox (CP_DEV_CAPS bits 27-30).
//
// The CP never panics on what the host gives it: a corrupt ring, a bad address or a
// GPU error stops only the affected queue with a Q_ERROR word and CP_STATUS.error.
//
// Time. The CP is a discrete-event model in CP cycles (see CostModel), run by one
// goroutine: the same register writes and ring contents give the same CP_CYCLE,
// seqnums, profile records and trace however goroutines are scheduled. CP_CYCLE
// advances by modelled costs only; it stands still while every queue is idle, and
// while the only pending work is EVENT_WAITs on counters nothing device-side will
// change (the CP then sleeps in wall time and re-checks, so a wait the host
// satisfies costs the same cycles however long the host took).
//
// Addresses. Ring lines, completion/head slots, profile records and the host side
// of MEM_WRITE/MEM_READ are host-memory addresses; everything else is device memory.
// Only CMD_MEM_* device operands go through the page walk (emu with VM, SATP not
// bare, no F_MEM_PHYSICAL); event counters and QMD/draw descriptors are physical.
//
// Effects. A DCR access, launch, QMD, draw or event signal takes effect when its
// command is granted its unit; a DMA moves its data when its occupancy ends. So in
// Config.Pipeline mode a launch that is not fenced after a MEM_WRITE can run on the
// old bytes, and CMD_FENCE(FENCE_DMA) is what makes it see the new ones.
//
// spec: command-processor (all), vortex-hardware-facts §1
package cp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// GPU is the whole CP↔GPU contract: a DCR request/response bus and the launch
// handshake. Launch pulses start with the KMU DCR state already latched and returns
// once the device has drained (busy fell), with the device-side cycle count the
// cost model charges for the launch. The CP calls these from its own goroutine,
// one at a time. DCRWrite and DCRRead run with the CP's lock held and must not call
// back into the CP; Launch runs without it. spec: command-processor §7.1
type GPU interface {
	DCRWrite(addr abi.DCR, value uint32) error
	DCRRead(addr abi.DCR, tag uint32) (uint32, error)
	Launch(ctx context.Context) (cycles uint64, err error)
	NumCores() int
}

// Caps carries the capability words the CP exposes for the GPU behind it.
// spec: command-processor §6
type Caps struct {
	GPUDev uint64 // GPU_DEV_CAPS_LO/HI (abi.GPUDevCaps.Encode)
	ISA    uint64 // GPU_ISA_CAPS_LO/HI (abi.ISACaps)
}

// TraceEvent describes one retired command, for tools that print what the CP ran.
type TraceEvent struct {
	Queue  int
	Seqnum uint64 // the seqnum the command retired with
	Line   uint64 // ring offset (head) of the line the command came from
	Offset int    // byte offset in the line
	Cmd    abi.Command
	// CP_CYCLE values: tail commit, line fetched, resource granted, retired.
	Queued, Submit, Start, End uint64
}

// Cycles is the command's cost from fetch to retire.
func (e TraceEvent) Cycles() uint64 { return e.End - e.Submit }

// Config selects the CP's flavour, size and cost model.
type Config struct {
	Flavor          abi.Flavor
	NumQueues       int    // 1..MaxQueues; 0 means 1
	RingSizeLog2Max int    // largest Q_RING_SIZE_LOG2 accepted, 6..32; 0 means 16
	AXITIDWidth     int    // reported in CP_DEV_CAPS; 0 means 6
	CycleFreqHz     uint64 // CP_CYCLE_FREQ_HZ; 0 means DefaultCycleFreqHz
	// VM enables the MMU-aware DMA (CP_SATP_LO/HI, cap bit 24). Emu flavour only.
	VM bool
	// Pipeline lets a queue issue a command before its earlier commands of the other
	// ordering domain finish (DMA vs GPU, where GPU is DCR and KMU traffic); only
	// CMD_FENCE then orders them. Events are always full barriers. Without Pipeline
	// a queue runs its commands strictly one after another, like the hardware.
	// spec: command-processor §10 item 3
	Pipeline bool
	// Cost is the cycle model; the zero value means DefaultCostModel().
	Cost CostModel
	// Trace, when set, receives every retired command (called from the CP's
	// goroutine without its lock held, in retire order).
	Trace func(TraceEvent)
}

// Limits and defaults of Config.
const (
	MaxQueues          = 32 // one CP_IRQ_STATUS bit per queue
	DefaultCycleFreqHz = 200_000_000
)

// CP is a running command processor.
type CP struct {
	cfg   Config
	host  *mem.Host
	dev   *mem.Device
	gpu   GPU
	caps  Caps
	cores int

	ctx    context.Context
	cancel context.CancelFunc
	wake   chan struct{}
	exited chan struct{}

	mu        sync.Mutex
	now       uint64 // CP_CYCLE
	ctrl      uint32
	satp      uint64
	irqStatus uint32
	irqEnable uint32
	irq       func(queueMask uint32)
	queues    []*queue
	units     [numUnits]unit
	rr        [numUnits]int // round-robin pointer per primary unit
	changed   chan struct{} // closed whenever the CP goes idle or stalls; see WaitIdle
	closed    bool
	// delivering is set while trace and interrupt callbacks of a batch run.
	delivering bool
	// stalled is set while only host-satisfiable EVENT_WAITs are pending.
	stalled bool

	// Scratch owned by the CP goroutine.
	bounce    []byte
	irqBatch  uint32
	traceBuf  []TraceEvent
	lastBatch []TraceEvent
}

// New starts a CP over the given memories and GPU.
func New(cfg Config, host *mem.Host, dev *mem.Device, gpu GPU, caps Caps) (*CP, error) {
	if host == nil || dev == nil || gpu == nil {
		return nil, errors.New("cp: New needs host memory, device memory and a GPU")
	}
	if cfg.NumQueues == 0 {
		cfg.NumQueues = 1
	}
	if cfg.NumQueues < 1 || cfg.NumQueues > MaxQueues {
		return nil, fmt.Errorf("cp: %d queues (want 1..%d)", cfg.NumQueues, MaxQueues)
	}
	if cfg.RingSizeLog2Max == 0 {
		cfg.RingSizeLog2Max = abi.DefaultRingSizeLog2
	}
	if cfg.RingSizeLog2Max < 6 || cfg.RingSizeLog2Max > 32 {
		return nil, fmt.Errorf("cp: ring size log2 max %d (want 6..32)", cfg.RingSizeLog2Max)
	}
	if cfg.AXITIDWidth == 0 {
		cfg.AXITIDWidth = 6
	}
	if cfg.AXITIDWidth < 0 || cfg.AXITIDWidth > 255 {
		return nil, fmt.Errorf("cp: AXI TID width %d", cfg.AXITIDWidth)
	}
	if cfg.CycleFreqHz == 0 {
		cfg.CycleFreqHz = DefaultCycleFreqHz
	}
	if cfg.CycleFreqHz > 0xFFFF_FFFF {
		return nil, fmt.Errorf("cp: cycle frequency %d Hz does not fit CP_CYCLE_FREQ_HZ", cfg.CycleFreqHz)
	}
	if cfg.VM && cfg.Flavor == abi.FlavorRTL {
		return nil, errors.New("cp: the rtl flavour has no VM (command-processor §10 item 2)")
	}
	if cfg.Flavor != abi.FlavorEmu && cfg.Flavor != abi.FlavorRTL {
		return nil, fmt.Errorf("cp: unknown flavour %d", cfg.Flavor)
	}
	if cfg.Cost == (CostModel{}) {
		cfg.Cost = DefaultCostModel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &CP{
		cfg: cfg, host: host, dev: dev, gpu: gpu, caps: caps, cores: gpu.NumCores(),
		ctx: ctx, cancel: cancel,
		wake:    make(chan struct{}, 1),
		exited:  make(chan struct{}),
		changed: make(chan struct{}),
		bounce:  make([]byte, bounceBytes),
	}
	defLog2 := uint32(min(abi.DefaultRingSizeLog2, cfg.RingSizeLog2Max))
	for i := 0; i < cfg.NumQueues; i++ {
		c.queues = append(c.queues, &queue{id: i, sizeLog2: defLog2})
	}
	go c.run()
	return c, nil
}

// bounceBytes is the emulation CP's DMA staging buffer. spec: command-processor §8
const bounceBytes = 64 << 10

// Close stops the CP goroutine, ending any wait or launch in progress. Registers
// stay readable afterwards; nothing executes any more.
func (c *CP) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		<-c.exited
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	<-c.exited
}

// SetIRQHandler installs the interrupt callback: after every batch of retires (and
// whenever a queue faults) it receives the queues whose CP_IRQ_ENABLE bit is set
// and that raised CP_IRQ_STATUS in the batch. It runs on the CP's goroutine without
// the CP's lock, so it may read registers, and it must not block for long.
// spec: command-processor §10 item 13
func (c *CP) SetIRQHandler(h func(queueMask uint32)) {
	c.mu.Lock()
	c.irq = h
	c.mu.Unlock()
}

// Flavor returns the CP's flavour.
func (c *CP) Flavor() abi.Flavor { return c.cfg.Flavor }

// Cycle returns CP_CYCLE.
func (c *CP) Cycle() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// WaitIdle blocks until no queue has work it can make progress on (every queue is
// drained, disabled or faulted) or ctx ends. A queue blocked in EVENT_WAIT is busy.
// It is a convenience for tests and tools; the register interface is the ABI.
func (c *CP) WaitIdle(ctx context.Context) error {
	for {
		c.mu.Lock()
		busy := c.busyLocked() || c.delivering
		ch := c.changed
		closed := c.closed
		c.mu.Unlock()
		if !busy {
			return nil
		}
		if closed {
			return errors.New("cp: closed while busy")
		}
		select {
		case <-ch:
		case <-c.exited:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// broadcastIdleLocked wakes WaitIdle callers once nothing can progress any more.
func (c *CP) broadcastIdleLocked() {
	if !c.busyLocked() || c.stalled {
		close(c.changed)
		c.changed = make(chan struct{})
	}
}

func (c *CP) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// run is the CP goroutine: settle everything that can happen at the current cycle,
// then advance to the next event, or sleep until the host writes a register.
func (c *CP) run() {
	defer close(c.exited)
	backoff := stallMin
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return
		}
		c.settle()
		next, ok, stalled := c.nextEvent()
		c.stalled = stalled
		if ok && !stalled {
			c.now = next
		}
		irqMask, h := c.irqBatch&c.irqEnable, c.irq
		c.irqBatch = 0
		trace := c.traceBuf
		c.traceBuf, c.lastBatch = c.lastBatch[:0], trace
		deliver := len(trace) > 0 || irqMask != 0 && h != nil
		if deliver {
			c.delivering = true
		} else {
			c.broadcastIdleLocked()
		}
		c.mu.Unlock()

		if deliver {
			if c.cfg.Trace != nil {
				for _, e := range trace {
					c.cfg.Trace(e)
				}
			}
			if irqMask != 0 && h != nil {
				h(irqMask)
			}
			c.mu.Lock()
			c.delivering = false
			c.broadcastIdleLocked()
			c.mu.Unlock()
		}
		switch {
		case ok && !stalled:
			backoff = stallMin
			continue
		case stalled:
			// Only EVENT_WAITs on counters nothing device-side will change: sleep in
			// wall time, then let them re-check (without advancing CP_CYCLE).
			t := time.NewTimer(backoff)
			select {
			case <-c.wake:
			case <-t.C:
			case <-c.ctx.Done():
			}
			t.Stop()
			backoff = min(backoff*2, stallMax)
			c.mu.Lock()
			c.recheckStalledWaits()
			c.mu.Unlock()
		default:
			backoff = stallMin
			select {
			case <-c.wake:
			case <-c.ctx.Done():
			}
		}
	}
}

// Wall-clock re-check interval of a stalled EVENT_WAIT.
const (
	stallMin = 20 * time.Microsecond
	stallMax = 2 * time.Millisecond
)
