package session

import (
	"sync"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/cp"
	"vortexgfx/device/sim"
	"vortexgfx/gfx/fecode"
	"vortexgfx/gfx/frontend"
	"vortexgfx/runtime"
)

// Device is an open device model — simulator, runtime and its default queue —
// with the front-end module (setup_k, binning_k, msaa_resolve_k) loaded at
// abi.LinkBaseFrontEnd, and a tally of the commands the CP retires, from which
// a draw's counters are read. spec: vortexpipe §2.4, §3.2
type Device struct {
	Sim     *sim.Sim
	Runtime *runtime.Device
	Queue   *runtime.Queue
	// The front-end module's kernels. Under cores = "isa" Binning and
	// Resolve are binning_k's and msaa_resolve_k's machine code (gfx/fecode)
	// and BinningGo and ResolveGo their Go kernels, the fallbacks; otherwise
	// each pair is the Go kernel twice. A binning launch takes its kernel from
	// BinningKernel.
	Setup, Binning, BinningGo, Resolve, ResolveGo *runtime.Kernel
	// Expand is expand_k's machine code under cores = "isa" (one kernel for
	// every program; their Go expand_k are in their vertex modules), else nil.
	Expand *runtime.Kernel
	// ISA says the front-end module holds machine code (cores = "isa").
	ISA bool
	// Threads is the warp width; Block (threads × warps) and Grid (one CTA
	// per core) are the launch shape of a front-end stage.
	Threads, Block, Grid uint32

	mu   sync.Mutex // guards the retired-command tally (written on the CP goroutine)
	ops  map[abi.Opcode]uint64
	span [2]uint64 // first Queued, last End of the commands since the last Take

	kernels kernelTally // the front-end kernels' launches (kernels.go)
}

func (ds *Device) traced(ev cp.TraceEvent) {
	ds.mu.Lock()
	ds.ops[ev.Cmd.Op]++
	if ds.span[0] == 0 || ev.Queued < ds.span[0] {
		ds.span[0] = ev.Queued
	}
	ds.span[1] = max(ds.span[1], ev.End)
	ds.mu.Unlock()
}

// Take returns and resets the tally: retired commands by opcode and the CP
// cycles from the first command's tail commit to the last one's retire.
func (ds *Device) Take() (map[abi.Opcode]uint64, uint64) {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ops, cyc := ds.ops, ds.span[1]-ds.span[0]
	ds.ops, ds.span = make(map[abi.Opcode]uint64), [2]uint64{}
	return ops, cyc
}

// Open opens the device with the front-end kernels and whatever register adds
// to the library (the draw3d fragment kernel, a compiled program's stages, the
// MSAA resolve kernel), and loads the front-end module image.
func Open(cfg config.Config, register func(*device.Library) error) (*Device, error) {
	lib := device.NewLibrary()
	if err := frontend.RegisterKernels(lib); err != nil {
		return nil, err
	}
	if register != nil {
		if err := register(lib); err != nil {
			return nil, err
		}
	}
	ds := &Device{Threads: uint32(cfg.Device.Threads), ops: make(map[abi.Opcode]uint64)}
	s, err := sim.Open(cfg, lib, sim.Options{Trace: ds.traced})
	if err != nil {
		return nil, err
	}
	s.GPU.EnableGraphics(s.Mem, nil)
	dev, err := runtime.Open(s)
	if err != nil {
		s.Close()
		return nil, err
	}
	ds.Sim, ds.Runtime, ds.Queue = s, dev, dev.DefaultQueue()
	ds.Block = uint32(cfg.Device.Threads * cfg.Device.Warps)
	ds.Grid = uint32(cfg.Device.NumCores())
	ds.ISA = cfg.Device.ISA()
	fe, err := frontend.ModuleImageFor(ds.ISA)
	if err != nil {
		ds.Close()
		return nil, err
	}
	fem, err := dev.LoadModuleAt(fe, abi.LinkBaseFrontEnd, "gfx front end")
	if err != nil {
		ds.Close()
		return nil, err
	}
	if ds.Setup, err = fem.Kernel("setup_k"); err == nil {
		if ds.Binning, err = fem.Kernel("binning_k"); err == nil {
			ds.Resolve, err = fem.Kernel("msaa_resolve_k")
		}
	}
	ds.ResolveGo, ds.BinningGo = ds.Resolve, ds.Binning
	if err == nil && ds.ISA {
		if ds.ResolveGo, err = fem.Kernel(fecode.GoEntry("msaa_resolve_k")); err == nil {
			if ds.BinningGo, err = fem.Kernel(fecode.GoEntry("binning_k")); err == nil {
				ds.Expand, err = fem.Kernel("expand_k")
			}
		}
		// Binning launches ride draw bundles: their counts come from the
		// KMU's per-launch stats.
		s.GPU.SetLaunchObserver(ds.observe)
	}
	if err != nil {
		ds.Close()
		return nil, err
	}
	return ds, nil
}

// BinningKernel is the kernel a launch of binning_k stage stage runs: the
// machine code when it has the stage (cores = "isa"; fecode.BinningStage),
// else the Go kernel. spec: rasterizer.md §3.1
func (ds *Device) BinningKernel(stage uint64) *runtime.Kernel {
	if ds.ISA && fecode.BinningStage(stage) != nil {
		return ds.BinningGo
	}
	return ds.Binning
}

// observe is a cores = "isa" device's launch observer: it counts binning_k's
// launches (machine code with its instructions, or the Go kernel for a
// block whose stage the code has not) and expand_k's machine-code launches
// in the kernel stats (its Go launches are counted where they are queued). msaa_resolve_k is counted where it is launched (its fallback
// reason is the host's).
func (ds *Device) observe(entry uint64, s device.LaunchStats) {
	switch entry {
	case ds.Binning.Entry():
		ds.CountKernel("binning_k", "", s.Instructions, s.ThreadInstructions)
	case ds.Expand.Entry():
		ds.CountKernel("expand_k", "", s.Instructions, s.ThreadInstructions)
	case ds.BinningGo.Entry():
		ds.CountKernel("binning_k", "binning_k: machine code: not a binning stage (the Go kernel names it)", 0, 0)
	}
}

// Close releases the device.
func (ds *Device) Close() error { return ds.Runtime.Close() }

// Alloc allocates an n-byte (at least 4) physically backed buffer and appends
// it to keep, so the caller frees a draw's buffers together.
func (ds *Device) Alloc(n int, keep *[]*runtime.Buffer) (*runtime.Buffer, error) {
	b, err := ds.Runtime.AllocWith(uint64(max(n, 4)), runtime.AllocOptions{Physical: true})
	if err != nil {
		return nil, err
	}
	*keep = append(*keep, b)
	return b, nil
}

// Perf reads the unit counters as the host does.
func (ds *Device) Perf() (PerfCounters, error) {
	var p PerfCounters
	for _, c := range p.fields() {
		v, err := ds.Runtime.PerfCounter(c.class, c.csr, -1)
		if err != nil {
			return p, err
		}
		*c.v = v
	}
	return p, nil
}
