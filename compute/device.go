package compute

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/cp"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

// Errors callers branch on.
var (
	// ErrWorkgroupTooLarge is a dispatch whose workgroup does not fit one CTA of
	// the device (threads × warps). It is refused, never re-tiled: the compiled
	// shader multiplies the workgroup id by its own local size, so a smaller
	// launch block would address memory outside the dispatch. spec: vortexpipe §1.3
	ErrWorkgroupTooLarge = errors.New("compute: workgroup larger than the device's maximum block size")
	// ErrBinding is a missing, mistyped or undersized binding.
	ErrBinding = errors.New("compute: bad binding")
	// ErrClosed is a use of a closed device.
	ErrClosed = errors.New("compute: device closed")
)

// Device is a compute device: the simulated GPU behind the runtime and its CP,
// with a kernel library that runs compiled compute programs. Programs compiled
// on it share one resident module at the compute link base; buffers are resident
// (uploaded when dirty, stable device addresses). Methods are safe for
// concurrent use; frames submit one at a time. spec: vortexpipe §1.3, §2.5
type Device struct {
	cfg config.Config
	sim *sim.Sim
	rt  *runtime.Device
	q   *runtime.Queue

	maxBlock int // threads × warps: the largest CTA
	lmem     int // local memory per core

	// view gives kernels direct slices of device memory (nil under VM, where
	// every access is translated through the page table).
	view viewer

	mu       sync.Mutex
	closed   bool
	progs    map[uint64]*Program // blob id → program (the blob loader reads it)
	nextProg uint64
	image    []byte // the resident module image: every program's entry
	module   *runtime.Module
	frameMu  sync.Mutex // one frame submission at a time
	scratch  *runtime.Buffer

	// atomicMu serialises buffer and image atomics across the core goroutines.
	atomicMu sync.Mutex

	stats cpCounters

	opts Options
	// launching maps the KERNEL_ENTRY of each program of the frame in flight to
	// the program, for the launch observer (isa.go).
	launchMu  sync.Mutex
	launching map[uint64]*Program
	isaProgs  atomic.Uint64 // programs loaded as machine code
	isaFalls  atomic.Uint64 // programs of an isa device that fell back to the IR executor
	isaIndir  atomic.Uint64 // indirect dispatches of machine-code programs run on their IR kernel
	isaTexIR  atomic.Uint64 // dispatches of machine-code programs run on their IR kernel for a texture
}

// viewer is device memory that hands out slices aliasing an allocation
// (package mem's Device).
type viewer interface {
	View(addr uint64, n int) ([]byte, error)
}

// cpCounters counts what the CP executed, by opcode (from the simulator's trace).
type cpCounters struct {
	launches atomic.Uint64 // CMD_LAUNCH / CMD_LAUNCH_QMD in the ring (not inside bundles)
	draws    atomic.Uint64 // CMD_DRAW
	commands atomic.Uint64
	memWrite atomic.Uint64 // CMD_MEM_WRITE
	memRead  atomic.Uint64 // CMD_MEM_READ
	cycles   atomic.Uint64
}

func (c *cpCounters) traced(e cp.TraceEvent) {
	c.commands.Add(1)
	c.cycles.Add(e.Cycles())
	switch e.Cmd.Op {
	case abi.OpLaunch, abi.OpLaunchQMD:
		c.launches.Add(1)
	case abi.OpDraw:
		c.draws.Add(1)
	case abi.OpMemWrite:
		c.memWrite.Add(1)
	case abi.OpMemRead:
		c.memRead.Add(1)
	}
}

// Open builds a simulated device of cfg's shape and opens it through the
// runtime. The device's kernel library loads compiled compute programs from
// their module blobs (see Program). spec: vortexpipe §1.3 (the device opened
// once per screen, its caps cached), command-processor §9
func Open(cfg config.Config) (*Device, error) { return OpenWith(cfg, Options{}) }

// OpenWith is Open with run-time options (Options.Strict). With [device] cores =
// "isa" every program loaded runs as machine code on the SIMT core model (isa.go).
func OpenWith(cfg config.Config, opts Options) (*Device, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("compute: %w", err)
	}
	d := &Device{cfg: cfg, progs: make(map[uint64]*Program), opts: opts,
		maxBlock: cfg.Device.Threads * cfg.Device.Warps, lmem: int(cfg.Device.LocalMemBytes)}
	lib := device.NewLibrary()
	lib.SetBlobLoader(d.loadBlob)
	s, err := sim.Open(cfg, lib, sim.Options{Trace: d.stats.traced})
	if err != nil {
		return nil, fmt.Errorf("compute: %w", err)
	}
	rt, err := runtime.Open(s)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("compute: %w", err)
	}
	d.sim, d.rt, d.q = s, rt, rt.DefaultQueue()
	s.GPU.SetLaunchObserver(d.observeLaunch)
	if v, ok := s.GPU.Memory().(viewer); ok {
		d.view = v
	}
	return d, nil
}

// Close releases the device. Buffers and programs of a closed device are dead.
func (d *Device) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	err := d.rt.Close()
	if cerr := d.sim.Close(); err == nil {
		err = cerr
	}
	return err
}

// Config returns the device configuration.
func (d *Device) Config() config.Config { return d.cfg }

// Runtime returns the runtime device (for counters and advanced use).
func (d *Device) Runtime() *runtime.Device { return d.rt }

// GPU returns the simulated GPU (for its launch counters).
func (d *Device) GPU() *device.Device { return d.sim.GPU }

// MaxWorkgroupInvocations is the largest workgroup a dispatch accepts: GL's
// minimum maximum of 1024 invocations clamped to the device's maximum block size
// (threads × warps), so a program sized from it fits one CTA. spec: vortexpipe §1.3
func (d *Device) MaxWorkgroupInvocations() int { return min(1024, d.maxBlock) }

// MaxWorkgroupSize is the per-dimension limit (GL's 1024, 1024, 64) clamped to
// MaxWorkgroupInvocations. spec: vortexpipe §1.3
func (d *Device) MaxWorkgroupSize() [3]int {
	n := d.MaxWorkgroupInvocations()
	return [3]int{min(1024, n), min(1024, n), min(64, n)}
}

// MaxSharedBytes is the local memory one workgroup's shared variables may use.
func (d *Device) MaxSharedBytes() int { return d.lmem }

// Stats are the dispatch path's counters.
type Stats struct {
	Doorbells   uint64 // Q_TAIL commits (runtime)
	Batches     uint64 // runtime submissions
	CPCommands  uint64 // ring commands the CP retired (a CMD_DRAW bundle counts once)
	CPLaunches  uint64 // launch commands in the ring (outside bundles)
	CPBundles   uint64 // CMD_DRAW bundles (the dispatch batches)
	Launches    uint64 // KMU launches the device ran (inside bundles too)
	CPMemWrites uint64 // host → device copies
	CPMemReads  uint64 // device → host copies
	CPCycles    uint64
	CTAs        uint64 // CTAs the cores ran (device launch counters)
	Threads     uint64
	// Machine code ([device] cores = "isa", isa.go): the warp and lane
	// instructions the SIMT cores retired, the programs loaded as machine code,
	// those that fell back to the IR executor, and the indirect dispatches of
	// machine-code programs that ran their IR kernel.
	Instructions       uint64
	ThreadInstructions uint64
	ISAPrograms        uint64
	ISAFallbacks       uint64
	ISAIndirectIR      uint64
	// ISATextureIR counts dispatches of machine-code programs that ran their
	// IR kernel because a bound texture is not one the machine code's
	// texelFetch decodes (codegen.FetchDescriptorRefusal).
	ISATextureIR uint64
}

// Stats returns the counters since Open.
func (d *Device) Stats() Stats {
	rs := d.rt.Stats()
	ls := d.sim.GPU.TotalStats()
	return Stats{
		Doorbells: rs.Doorbells, Batches: rs.Batches,
		CPCommands: d.stats.commands.Load(), CPLaunches: d.stats.launches.Load(), CPBundles: d.stats.draws.Load(),
		CPMemWrites: d.stats.memWrite.Load(), CPMemReads: d.stats.memRead.Load(), CPCycles: d.stats.cycles.Load(),
		Launches: ls.Launches, CTAs: ls.CTAs, Threads: ls.Threads,
		Instructions: ls.Instructions, ThreadInstructions: ls.ThreadInstructions,
		ISAPrograms: d.isaProgs.Load(), ISAFallbacks: d.isaFalls.Load(), ISAIndirectIR: d.isaIndir.Load(),
		ISATextureIR: d.isaTexIR.Load(),
	}
}

// Program blob: what a module entry of kind abi.KernelBlob holds for a compute
// program. The format is ours (the hardware loads RISC-V code, which the model
// does not run): a magic word and the id under which the device registered the
// compiled program, which the blob loader resolves to the program's kernel.
//
//	u32 magic "VXCP", u32 0, u64 program id
const progBlobMagic uint32 = 0x50435856 // "VXCP"

const progBlobBytes = 16

func progBlob(id uint64) []byte {
	b := make([]byte, progBlobBytes)
	binary.LittleEndian.PutUint32(b, progBlobMagic)
	binary.LittleEndian.PutUint64(b[8:], id)
	return b
}

// loadBlob is the library's blob loader: it resolves a program blob to the
// program's kernel.
func (d *Device) loadBlob(b []byte) (device.Kernel, error) {
	if len(b) != progBlobBytes || binary.LittleEndian.Uint32(b) != progBlobMagic {
		return nil, fmt.Errorf("compute: blob of %d bytes is not a compute program", len(b))
	}
	id := binary.LittleEndian.Uint64(b[8:])
	d.mu.Lock()
	p := d.progs[id]
	d.mu.Unlock()
	if p == nil {
		return nil, fmt.Errorf("compute: blob names program %d, which this device did not compile", id)
	}
	return p.kernel, nil
}

// resident returns the module holding every program compiled so far, loading
// it at the compute link base when it changed (a new program) or was evicted.
// spec: vortexpipe §2.5 (compile once, upload resident once)
func (d *Device) resident() (*runtime.Module, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, ErrClosed
	}
	if d.module != nil && !d.module.Evicted() {
		return d.module, nil
	}
	if d.image == nil {
		return nil, fmt.Errorf("compute: no program is resident")
	}
	m, err := d.rt.LoadModuleAt(d.image, abi.LinkBaseFS, "compute")
	if err != nil {
		return nil, fmt.Errorf("compute: loading the program module: %w", err)
	}
	d.module = m
	return m, nil
}
