// Package sim is the simulator backend: it assembles pinned host memory, device
// memory, the command processor and the GPU from one configuration and exposes them
// as the runtime's transport — the six-function HAL of command-processor §9
// (open/close, CP register read/write, host memory alloc/free) plus host-memory
// read/write (Go has no shared pointer to hand back from host_mem_alloc) and the
// device-memory allocator, which package mem keeps device-side.
package sim

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/cp"
	"vortexgfx/device/mem"
)

// Address-space layout of the simulator. Host and device addresses never overlap,
// so a pointer handed to the wrong space faults instead of aliasing.
const (
	HostBase   = 0x2_0000_0000 // pinned host memory (ring, slots, DMA staging)
	HostBytes  = 1 << 32
	DeviceBase = 0x1000_0000 // device memory; size from config (banks × bank size)
)

// Options tunes a simulator beyond the configuration.
type Options struct {
	// Trace receives every command the CP retires (on the CP goroutine).
	Trace func(cp.TraceEvent)
	// Pipeline lets a queue overlap DMA and GPU commands (ordered by CMD_FENCE only).
	Pipeline bool
}

// Sim is one simulated device. Its methods are safe for concurrent use.
type Sim struct {
	Host *mem.Host
	Mem  *mem.Device
	CP   *cp.CP
	GPU  *device.Device
}

// Open builds a simulator of cfg's shape running the kernels of lib.
func Open(cfg config.Config, lib *device.Library, opt Options) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	host := mem.NewHost(HostBase, HostBytes)
	dmem := mem.NewDevice(DeviceBase, cfg.Device.DeviceMemBytes())
	gpu, err := device.New(cfg, dmem, lib)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	devCaps, err := cfg.Device.DevCaps().Encode()
	if err != nil {
		gpu.Close()
		return nil, fmt.Errorf("sim: %w", err)
	}
	c, err := cp.New(cp.Config{
		Flavor: cfg.CP.FlavorValue(), NumQueues: cfg.CP.Queues, RingSizeLog2Max: cfg.CP.RingSizeLog2Max,
		AXITIDWidth: cfg.CP.AXITIDWidth, CycleFreqHz: cfg.CP.CycleFreqHz, VM: cfg.CP.VM,
		Pipeline: opt.Pipeline, Trace: opt.Trace,
	}, host, dmem, gpu, cp.Caps{GPUDev: devCaps, ISA: uint64(cfg.Device.ISACaps())})
	if err != nil {
		gpu.Close()
		return nil, fmt.Errorf("sim: %w", err)
	}
	return &Sim{Host: host, Mem: dmem, CP: c, GPU: gpu}, nil
}

// Close stops the CP and the cores.
func (s *Sim) Close() error {
	s.CP.Close()
	return s.GPU.Close()
}

// ReadReg reads a CP register (CP-internal offset). spec: command-processor §5
func (s *Sim) ReadReg(off uint32) (uint32, error) { return s.CP.ReadReg(off) }

// WriteReg writes a CP register.
func (s *Sim) WriteReg(off, v uint32) error { return s.CP.WriteReg(off, v) }

// HostAlloc allocates zeroed pinned host memory and returns its CP-visible address.
func (s *Sim) HostAlloc(size, align uint64) (uint64, error) { return s.Host.Alloc(size, align) }

// HostFree frees host memory by its CP-visible address (command-processor §9).
func (s *Sim) HostFree(addr uint64) error { return s.Host.Free(addr) }

// HostRead copies pinned host memory into p.
func (s *Sim) HostRead(addr uint64, p []byte) error { return s.Host.Read(addr, p) }

// HostWrite copies p into pinned host memory.
func (s *Sim) HostWrite(addr uint64, p []byte) error { return s.Host.Write(addr, p) }

// DevAlloc allocates device memory.
func (s *Sim) DevAlloc(size, align uint64) (uint64, error) { return s.Mem.Alloc(size, align) }

// DevFree frees device memory.
func (s *Sim) DevFree(addr uint64) error { return s.Mem.Free(addr) }

// SetIRQHandler installs the CP's completion interrupt handler.
// spec: command-processor §10 item 13
func (s *Sim) SetIRQHandler(h func(queueMask uint32)) { s.CP.SetIRQHandler(h) }

// Flavor is the CP flavour.
func (s *Sim) Flavor() abi.Flavor { return s.CP.Flavor() }
