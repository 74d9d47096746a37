// Package runtime is the host API in the spirit of vortex2.h: open a device, query
// its capabilities, allocate device buffers, copy, fill, load modules, launch
// kernels and draws on queues with events, all through the command processor.
//
// The runtime reaches the device only through a Transport (command-processor §9's
// HAL), so the simulator (package device/sim) is one backend among possible others.
// Every queue has its own CP ring and its own worker goroutine; launches are one
// batch and one doorbell (QMD where the CP supports it, the 20 DCR writes otherwise);
// completion is by interrupt, and the worker reads the completion mailbox in host
// memory instead of polling Q_SEQNUM. A transport that lends pinned host memory
// (HostViewer) gets batch data staged in place; a DCRRead on an idle queue runs on
// its caller's goroutine.
//
// On a CP that advertises VM the runtime programs CP_SATP at open and keeps buffers
// behind Sv32/Sv39 page tables in device memory (see AllocOptions and vm.go); modules
// load at their fixed link bases with LoadModuleAt (vortexpipe §2.4, §2.5); a
// CMD_FENCE separates DMA from GPU work only when CP_DEV_CAPS bit 27 says the CP
// overlaps them. spec: command-processor §8, §9, §10 items 3, 8, 9, 13, 14
package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"vortexgfx/abi"
)

// Transport is the device HAL: command-processor §9's six functions (open is the
// backend's constructor; close; CP register read and write; host memory alloc and
// free) plus host-memory read/write, which replace the host pointer host_mem_alloc
// returns in C, the device-memory allocator (package mem keeps allocations
// device-side, so the runtime asks the backend) and the interrupt hook (§10 item 13).
type Transport interface {
	Close() error
	ReadReg(off uint32) (uint32, error)
	WriteReg(off, v uint32) error
	HostAlloc(size, align uint64) (uint64, error)
	HostFree(addr uint64) error
	HostRead(addr uint64, p []byte) error
	HostWrite(addr uint64, p []byte) error
	DevAlloc(size, align uint64) (uint64, error)
	DevFree(addr uint64) error
	SetIRQHandler(h func(queueMask uint32))
}

// Caps are the device's capabilities as read from the CP at open.
// spec: command-processor §6
type Caps struct {
	CP          abi.CPDevCaps
	GPU         abi.GPUDevCaps
	ISA         abi.ISACaps
	CycleFreqHz uint32 // CP_CYCLE_FREQ_HZ (0 without the profiling capability)
}

// NumCores is clusters × cluster size × socket size.
func (c Caps) NumCores() int { return c.GPU.NumCores() }

// Errors callers branch on.
var (
	ErrClosed     = errors.New("runtime: closed")
	ErrNoQueue    = errors.New("runtime: every CP queue is in use")
	ErrDependency = errors.New("runtime: a dependency failed")
)

// Stats counts what the runtime submitted.
type Stats struct {
	Commands  uint64 // commands written to rings
	Lines     uint64 // 64-byte ring lines
	Doorbells uint64 // Q_TAIL_HI commits
	Batches   uint64
}

// Device is an open device.
type Device struct {
	t    Transport
	caps Caps
	// exactDMA: the CP's DMA is byte-exact. The emulation CP (CP_DEV_CAPS bits 24–26)
	// is; a CP without them is the RTL CP, whose DMA rounds sizes up to 64-byte beats
	// (command-processor §6, §10 item 1), so buffers get a line of padding and
	// unaligned writes read-modify-write their last line.
	exactDMA bool

	mu      sync.Mutex
	hwFree  []bool // CP queue ids not yet taken
	queues  map[*Queue]bool
	irqMask uint32
	closed  bool
	def     *Queue

	// kmuMu serialises, across queues, the batches that program the KMU with
	// separate DCR writes (the rtl fallback): KMU state is global, so two such batches
	// on different rings must not interleave (command-processor §4.4, §9).
	kmuMu sync.Mutex

	hwq []hwQueue // per CP queue: what the interrupt handler saw

	statsMu sync.Mutex
	stats   Stats

	// vm is the MMU state when the CP advertises VM (see vm.go); nil otherwise.
	vm *vmState

	resMu  sync.Mutex
	pinned []*Buffer            // physical buffers, sorted by address (FF binding check)
	slots  map[uint64]*linkSlot // link base → resident module
}

// Open opens the device behind t: it reads the capability registers, installs the
// interrupt handler and creates the default queue.
func Open(t Transport) (*Device, error) {
	d := &Device{t: t, queues: make(map[*Queue]bool), slots: make(map[uint64]*linkSlot)}
	offs := []uint32{abi.RegCPDevCaps, abi.RegGPUDevCapsLo, abi.RegGPUDevCapsHi, abi.RegGPUISACapsLo,
		abi.RegGPUISACapsHi}
	var v [5]uint32
	for i, off := range offs {
		var err error
		if v[i], err = t.ReadReg(off); err != nil {
			return nil, fmt.Errorf("runtime: open: reading caps register %#x: %w", off, err)
		}
	}
	d.caps.CP = abi.DecodeCPDevCaps(v[0])
	d.caps.GPU = abi.DecodeGPUDevCaps(uint64(v[1]) | uint64(v[2])<<32)
	d.caps.ISA = abi.ISACaps(uint64(v[3]) | uint64(v[4])<<32)
	if d.caps.CP.Profiling {
		f, err := t.ReadReg(abi.RegCPCycleFreqHz)
		if err != nil {
			return nil, fmt.Errorf("runtime: open: reading CP_CYCLE_FREQ_HZ: %w", err)
		}
		d.caps.CycleFreqHz = f
	}
	d.exactDMA = d.caps.CP.SupportsQMD || d.caps.CP.SupportsDraw || d.caps.CP.VMEnabled
	n := int(d.caps.CP.NumQueues)
	if n == 0 {
		return nil, fmt.Errorf("runtime: open: CP reports no queues")
	}
	d.hwFree = make([]bool, n)
	d.hwq = make([]hwQueue, n)
	for i := range d.hwFree {
		d.hwFree[i] = true
		d.hwq[i].wake = make(chan struct{}, 1)
	}
	if d.caps.CP.VMEnabled {
		if err := d.initVM(); err != nil {
			return nil, fmt.Errorf("runtime: open: VM: %w", err)
		}
	}
	t.SetIRQHandler(d.irq)
	q, err := d.NewQueue(QueueOptions{})
	if err != nil {
		return nil, fmt.Errorf("runtime: open: %w", err)
	}
	d.def = q
	return d, nil
}

// hwQueue is the interrupt handler's view of one CP queue.
type hwQueue struct {
	mu   sync.Mutex    // orders the handler's reads against a fault reset
	cmpl atomic.Uint64 // completion mailbox address (0 while the queue is unused)
	done atomic.Uint64 // the seqnum last read from the mailbox
	qerr atomic.Uint32 // Q_ERROR as last read
	wake chan struct{}
}

// irq is the interrupt service routine. It runs on the CP's goroutine between
// batches of retires, so the completion mailbox in host memory is stable while it
// reads it; it publishes the seqnum and Q_ERROR and wakes the queue's worker, which
// sleeps until then (no polling). spec: command-processor §10 items 13, 14
func (d *Device) irq(mask uint32) {
	var slot [abi.SeqnumBytes]byte
	for i := range d.hwq {
		h := &d.hwq[i]
		if mask&(1<<i) == 0 {
			continue
		}
		h.mu.Lock()
		if a := h.cmpl.Load(); a != 0 {
			if err := d.t.HostRead(a, slot[:]); err == nil {
				h.done.Store(binary.LittleEndian.Uint64(slot[:]))
			}
			if qe, err := d.t.ReadReg(abi.QueueReg(i, abi.RegQError)); err == nil {
				h.qerr.Store(qe)
			}
		}
		h.mu.Unlock()
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
}

// Caps returns the capabilities read at open.
func (d *Device) Caps() Caps { return d.caps }

// Transport returns the backend.
func (d *Device) Transport() Transport { return d.t }

// DefaultQueue is the queue the synchronous helpers use.
func (d *Device) DefaultQueue() *Queue { return d.def }

// Stats returns the submission counters.
func (d *Device) Stats() Stats {
	d.statsMu.Lock()
	defer d.statsMu.Unlock()
	return d.stats
}

func (d *Device) count(cmds, lines, bells uint64) {
	d.statsMu.Lock()
	d.stats.Commands += cmds
	d.stats.Lines += lines
	d.stats.Doorbells += bells
	d.stats.Batches++
	d.statsMu.Unlock()
}

// CPCycle reads CP_CYCLE (consistently across the two halves).
func (d *Device) CPCycle() (uint64, error) {
	for {
		hi, err := d.t.ReadReg(abi.RegCPCycleHi)
		if err != nil {
			return 0, err
		}
		lo, err := d.t.ReadReg(abi.RegCPCycleLo)
		if err != nil {
			return 0, err
		}
		hi2, err := d.t.ReadReg(abi.RegCPCycleHi)
		if err != nil {
			return 0, err
		}
		if hi == hi2 {
			return uint64(hi)<<32 | uint64(lo), nil
		}
	}
}

// Close closes every queue, then the transport.
func (d *Device) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	qs := make([]*Queue, 0, len(d.queues))
	for q := range d.queues {
		qs = append(qs, q)
	}
	d.mu.Unlock()
	var first error
	for _, q := range qs {
		if err := q.close(); err != nil && first == nil {
			first = err
		}
	}
	d.t.SetIRQHandler(nil)
	if err := d.t.Close(); err != nil && first == nil {
		first = err
	}
	return first
}

// Buffer is a device-memory allocation. Its address is what kernels, launches and
// CMD_MEM_* use: a virtual address when the CP has VM (unless the buffer is
// physical), the physical address otherwise.
type Buffer struct {
	dev  *Device
	addr uint64
	size uint64
	phys bool   // pinned physical buffer (identity mapped under VM)
	pa   uint64 // physical base of a virtual buffer's pages (VM only)
	heap bool   // virtual address from the VA heap (VM only)
	slot bool   // placed at a fixed address (a module at its link base)
}

// Addr is the buffer's device address.
func (b *Buffer) Addr() uint64 { return b.addr }

// Size is the buffer's size in bytes.
func (b *Buffer) Size() uint64 { return b.size }

// AllocOptions selects what kind of device memory Alloc returns.
type AllocOptions struct {
	// Physical allocates a pinned physical buffer: its address is a physical device
	// address, the only kind the fixed-function units (TEX, RASTER, OM) may be bound
	// to when VM is on, because they bypass the MMU (vortex-hardware-facts §9 item
	// 12). Under VM it is identity mapped, so kernels and translated DMA reach it at
	// the same address; its CMD_MEM_* carry F_MEM_PHYSICAL. Without VM every buffer
	// is physical and the option only registers the buffer as pinned.
	Physical bool
}

// Alloc allocates size bytes of device memory (64-byte aligned, zeroed): virtual
// when the CP has VM, physical otherwise. spec: command-processor §8, §9
func (d *Device) Alloc(size uint64) (*Buffer, error) { return d.AllocWith(size, AllocOptions{}) }

// AllocWith allocates size bytes of device memory as o says.
func (d *Device) AllocWith(size uint64, o AllocOptions) (*Buffer, error) {
	if size == 0 {
		return nil, fmt.Errorf("runtime: alloc of 0 bytes")
	}
	padded := size
	if !d.exactDMA {
		padded = align64(size) + abi.LineBytes
	}
	b := &Buffer{dev: d, size: size, phys: o.Physical}
	var err error
	switch {
	case o.Physical:
		b.addr, err = d.allocPhys(padded)
	case d.vm != nil:
		b.addr, b.pa, err = d.allocVirtual(0, padded, false)
		b.heap = true
	default:
		b.addr, err = d.t.DevAlloc(padded, 64)
	}
	if err != nil {
		return nil, fmt.Errorf("runtime: alloc %d bytes: %w", size, err)
	}
	if b.phys {
		d.resMu.Lock()
		i := sort.Search(len(d.pinned), func(i int) bool { return d.pinned[i].addr > b.addr })
		d.pinned = slices.Insert(d.pinned, i, b)
		d.resMu.Unlock()
	}
	return b, nil
}

// Physical reports whether b is a pinned physical buffer.
func (b *Buffer) Physical() bool { return b.phys }

// Free releases the buffer (under VM its range is unmapped, so a later access to
// the old address page-faults). Work still using it must have completed.
func (b *Buffer) Free() error {
	if b.addr == 0 {
		return fmt.Errorf("runtime: buffer freed twice")
	}
	d := b.dev
	var err error
	padded := b.size
	if !d.exactDMA {
		padded = align64(b.size) + abi.LineBytes
	}
	switch {
	case b.phys:
		d.resMu.Lock()
		if i := slices.Index(d.pinned, b); i >= 0 {
			d.pinned = slices.Delete(d.pinned, i, i+1)
		}
		d.resMu.Unlock()
		err = d.freePhys(b.addr, padded)
	case d.vm != nil:
		err = d.freeVirtual(b.addr, b.pa, padded, b.heap)
	default:
		err = d.t.DevFree(b.addr)
	}
	b.addr = 0
	return err
}

// checkBinding refuses, when VM is on, a TEX/RASTER/OM address DCR whose buffer is
// not inside a pinned physical buffer: the fixed-function units bypass the MMU
// (vortex-hardware-facts §9 item 12). A zero address (nothing bound) passes.
func (d *Device) checkBinding(p abi.DCRPair) error {
	if d.vm == nil || p.Value == 0 {
		return nil
	}
	switch p.Addr & abi.DCRAddrMask {
	case abi.DCRTexAddr, abi.DCRRasterTBufAddr, abi.DCRRasterPBufAddr, abi.DCROMCBufAddr, abi.DCROMZBufAddr:
	default:
		return nil
	}
	a := abi.ByteAddr(p.Value)
	d.resMu.Lock()
	defer d.resMu.Unlock()
	i := sort.Search(len(d.pinned), func(i int) bool { return d.pinned[i].addr > a }) - 1
	if i >= 0 && a < d.pinned[i].addr+d.pinned[i].size {
		return nil
	}
	return fmt.Errorf("DCR %#03x = %#x binds address %#x, which is not in a physical buffer: the fixed-function units bypass the MMU (allocate with AllocOptions{Physical: true})",
		uint16(p.Addr), p.Value, a)
}

func (b *Buffer) check(off, n uint64) error {
	if b == nil || b.addr == 0 {
		return fmt.Errorf("runtime: nil or freed buffer")
	}
	if off > b.size || n > b.size-off {
		return fmt.Errorf("runtime: range [%d, +%d) outside a %d-byte buffer", off, n, b.size)
	}
	return nil
}

// Write copies p to the buffer at off and waits (default queue).
func (d *Device) Write(b *Buffer, off uint64, p []byte) error {
	return d.def.EnqueueWrite(b, off, p).Wait()
}

// Read copies the buffer at off into p and waits (default queue).
func (d *Device) Read(b *Buffer, off uint64, p []byte) error {
	return d.def.EnqueueRead(b, off, p).Wait()
}
