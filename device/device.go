// Package device is the GPU behind the command processor: the DCR bus, the KMU that
// dispatches CTA grids onto the SIMT cores, the kernel library the cores run, the
// fragment-wave hook the RASTER engine uses, and the performance counters read through
// MPM_VALUE. It implements the command processor's GPU interface (DCRWrite, DCRRead,
// Launch, NumCores). A kernel image entry is a Go kernel of the library, a compiled-
// shader blob the library's loader resolves, or machine code (abi.KernelCode) that
// each CTA runs on a modelled SIMT core fetching from device memory (isa.go).
// spec: command-processor §7.1 (the CP↔GPU boundary is DCR traffic plus the launch
// handshake), vortex-hardware-facts §1.5, §2, §7
package device

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"vortexgfx/abi"
	"vortexgfx/config"
)

// Memory is the device memory the cores and the KMU reach (package mem's *Device
// satisfies it). Accesses outside an allocation return an error, which becomes a
// launch error. Implementations must allow concurrent access from the core goroutines.
type Memory interface {
	Read(addr uint64, p []byte) error
	Write(addr uint64, p []byte) error
}

// FrameKick is what the KMU hands the RASTER engine on a grid-less launch.
// spec: rasterizer §5, vortex-hardware-facts §1.5
type FrameKick struct {
	KMU KMUState // the launch registers (STARTUP_ADDR is the fragment PC base)
}

// FrameKickFunc runs one raster frame and returns its cycle cost. It may submit
// fragment waves with SubmitFragment and must drain them (WaitFragments) before it
// returns: the drain is the launch barrier.
type FrameKickFunc func(ctx context.Context, d *Device, k FrameKick) (cycles uint64, err error)

// Sentinel errors callers branch on.
var (
	ErrNoFrameKick = errors.New("grid-less launch with no raster frame-kick handler")
	ErrDCRUnmapped = errors.New("unmapped DCR")
	ErrClosed      = errors.New("device closed")
)

// Device is the simulated GPU. Its methods are safe for concurrent use.
type Device struct {
	cfg     config.Config
	mem     Memory
	lib     *Library
	ncores  int
	threads int // threads per warp
	warps   int // warps per core
	lmem    uint64

	mu       sync.Mutex // guards state, kick, listener
	state    UnitState
	kick     FrameKickFunc
	listener func(abi.DCR, uint32)
	observer func(entry uint64, s LaunchStats)

	launchMu sync.Mutex // one launch at a time (the KMU)
	atomicMu sync.Mutex // serialises CTA.AtomicAdd*

	cores    []*core
	perf     []perfBank
	statsMu  sync.Mutex
	last     LaunchStats
	total    LaunchStats
	lastErr  error
	frame    LaunchStats // fragment waves of the frame kick in progress
	fragWG   sync.WaitGroup
	runMu    sync.RWMutex // guards isClosed against sends to the core goroutines
	isClosed bool

	gfx graphicsState // the RASTER/TEX/OM binding of the frame in progress (graphics.go)

	isaBudget uint64 // warp instructions of one machine-code CTA (ISABudget; tests lower it)

	// sharesInline counts the cores' launch shares the launching goroutine
	// ran itself (dispatch); it changes no result, tests read it.
	sharesInline atomic.Uint64
}

// New builds a device of cfg's shape over mem, running the kernels of lib. It starts
// one goroutine per core; Close stops them.
func New(cfg config.Config, mem Memory, lib *Library) (*Device, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("device: %w", err)
	}
	if mem == nil {
		return nil, fmt.Errorf("device: nil memory")
	}
	if lib == nil {
		lib = NewLibrary()
	}
	d := &Device{
		cfg: cfg, mem: mem, lib: lib, ncores: cfg.Device.NumCores(),
		threads: cfg.Device.Threads, warps: cfg.Device.Warps, lmem: cfg.Device.LocalMemBytes,
	}
	d.isaBudget = ISABudget
	d.perf = make([]perfBank, d.ncores)
	d.cores = make([]*core, d.ncores)
	for i := range d.cores {
		d.cores[i] = newCore(d, i)
		go d.cores[i].run()
	}
	return d, nil
}

// Close stops the core goroutines. Launches after Close fail with ErrClosed.
func (d *Device) Close() error {
	d.runMu.Lock()
	defer d.runMu.Unlock()
	if d.isClosed {
		return nil
	}
	d.isClosed = true
	for _, c := range d.cores {
		close(c.jobs)
	}
	return nil
}

// Config returns the device's configuration.
func (d *Device) Config() config.Config { return d.cfg }

// Memory returns the device memory the device was built over.
func (d *Device) Memory() Memory { return d.mem }

// Library returns the kernel library.
func (d *Device) Library() *Library { return d.lib }

// NumCores is the number of SIMT cores (clusters × sockets × cores per socket).
// spec: command-processor §6
func (d *Device) NumCores() int { return d.ncores }

// SetFrameKick registers the RASTER engine's frame-kick handler (nil removes it).
func (d *Device) SetFrameKick(f FrameKickFunc) {
	d.mu.Lock()
	d.kick = f
	d.mu.Unlock()
}

// SetDCRListener registers a function called (on the CP's goroutine, after the value
// is latched) for every accepted DCR write; the RASTER engine uses it to reset its
// producer on a RASTER DCR write (vortex-hardware-facts §9 item 7).
func (d *Device) SetDCRListener(f func(addr abi.DCR, value uint32)) {
	d.mu.Lock()
	d.listener = f
	d.mu.Unlock()
}

// SetLaunchObserver registers a function called (on the CP's goroutine, once the
// launch has drained) with the KERNEL_ENTRY and the counters of every grid
// launch, failed ones included, so a runtime can attribute instruction counts to
// the kernels it launched (nil removes it).
func (d *Device) SetLaunchObserver(f func(entry uint64, s LaunchStats)) {
	d.mu.Lock()
	d.observer = f
	d.mu.Unlock()
}

// State returns a copy of every unit's latched DCR state.
func (d *Device) State() UnitState {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state
}

// DCRWrite writes a DCR: the KMU range to the KMU, every other mapped address to its
// unit's state. An unmapped address, a write to a read-only base DCR or an
// out-of-range bank select is an error. spec: vortex-hardware-facts §1.5, §2
func (d *Device) DCRWrite(addr abi.DCR, value uint32) error {
	addr &= abi.DCRAddrMask
	d.mu.Lock()
	err := d.latch(addr, value)
	l := d.listener
	d.mu.Unlock()
	if err != nil {
		return fmt.Errorf("device: DCR write 0x%03X = 0x%08X: %w", uint16(addr), value, err)
	}
	if l != nil {
		l(addr, value)
	}
	return nil
}

func (d *Device) latch(addr abi.DCR, v uint32) error {
	s := &d.state
	switch abi.UnitOf(addr) {
	case abi.UnitBase:
		return fmt.Errorf("base DCRs are read-only")
	case abi.UnitKMU:
		s.KMU.Regs[addr-abi.DCRStartupAddr0] = v
		s.Raster.Write(addr, v) // RASTER snoops STARTUP_ADDR0/1 (rasterizer §4)
	case abi.UnitTEX:
		if addr == abi.DCRTexStage && v >= abi.TexNumStages {
			return fmt.Errorf("TEX stage %d out of range (%d stages)", v, abi.TexNumStages)
		}
		s.Tex.Write(addr, v)
	case abi.UnitRASTER:
		s.Raster.Write(addr, v)
	case abi.UnitOM:
		if addr == abi.DCROMRTSelect && v >= abi.OMMaxRT {
			return fmt.Errorf("OM RT_SELECT %d out of range (%d targets)", v, abi.OMMaxRT)
		}
		s.OM.Write(addr, v)
		s.Raster.Write(addr, v) // and the OM depth DCRs for early-Z
	case abi.UnitRTU:
		s.RTU.Regs[addr-abi.DCRRTUFirst] = v
	case abi.UnitDXA:
		s.DXA.Regs[addr-abi.DCRDXAFirst] = v
	default:
		return ErrDCRUnmapped
	}
	return nil
}

// DCRRead reads a DCR with tag on the data bus. CACHE_FLUSH (0x000) flushes core
// tag; MPM_VALUE (0x001) answers the perf-counter protocol; other mapped addresses
// return their latched value; an unmapped address is an error.
// spec: command-processor §7 (DCR proxy), vortex-hardware-facts §1.3, §7
func (d *Device) DCRRead(addr abi.DCR, tag uint32) (uint32, error) {
	addr &= abi.DCRAddrMask
	switch addr {
	case abi.DCRCacheFlush:
		core := int(tag & 0xFFFF)
		if core >= d.ncores {
			return 0, fmt.Errorf("device: CACHE_FLUSH of core %d (device has %d)", core, d.ncores)
		}
		d.perf[core].add(abi.MPMCore, perfFlushes, 1)
		return 0, nil
	case abi.DCRMPMValue:
		v, err := d.mpmRead(tag)
		if err != nil {
			return 0, fmt.Errorf("device: MPM_VALUE tag 0x%08X: %w", tag, err)
		}
		return v, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	s := &d.state
	switch abi.UnitOf(addr) {
	case abi.UnitKMU:
		return s.KMU.Regs[addr-abi.DCRStartupAddr0], nil
	case abi.UnitTEX:
		return s.Tex.Reg(int(s.Tex.Select), addr), nil
	case abi.UnitRASTER:
		return s.Raster.Reg(addr), nil
	case abi.UnitOM:
		return s.OM.Reg(addr, int(s.OM.RTSelect)), nil
	case abi.UnitRTU:
		return s.RTU.Regs[addr-abi.DCRRTUFirst], nil
	case abi.UnitDXA:
		return s.DXA.Regs[addr-abi.DCRDXAFirst], nil
	}
	return 0, fmt.Errorf("device: DCR read 0x%03X: %w", uint16(addr), ErrDCRUnmapped)
}
