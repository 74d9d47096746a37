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
//
// Device memory starts at DeviceBase and holds the configured capacity (banks × bank
// size); its address span also covers the module link window [LinkWindowBase,
// LinkWindowEnd), where modules load at their fixed link bases (vortexpipe §2.4,
// abi.LinkBase*). Ordinary allocations never land in the window; only fixed-address
// allocations (DevAllocAt) do.
const (
	HostBase       = 0x2_0000_0000 // pinned host memory (ring, slots, DMA staging)
	HostBytes      = 1 << 32
	DeviceBase     = 0x1000_0000 // device memory; capacity from config
	LinkWindowBase = abi.LinkBaseFS
	LinkWindowEnd  = abi.LinkBaseVS + 0x40_0000 // the VS slot is the last, 4 MiB
)

// Options tunes a simulator beyond the configuration.
type Options struct {
	// Trace receives every command the CP retires (on the CP goroutine).
	Trace func(cp.TraceEvent)
	// Pipeline lets a queue overlap DMA and GPU commands (ordered by CMD_FENCE only).
	// The configuration's cp.pipeline turns it on too.
	Pipeline bool
}

// Sim is one simulated device. Its methods are safe for concurrent use.
//
// Mem is physical device memory: the CP's F_MEM_PHYSICAL DMA, its descriptors and
// event counters, and the fixed-function units (which bypass the MMU,
// vortex-hardware-facts §9 item 12) use it directly. The cores do not: with cp.vm
// on, every CTA memory access goes through the page table CP_SATP selects, so
// kernels see the same virtual address space as the CP's DMA (a bare SATP means
// VA = PA). A failed walk is a device-memory fault, which ends the launch with
// Q_ERROR "launch error". spec: command-processor §8
type Sim struct {
	Host *mem.Host
	Mem  *mem.Device
	CP   *cp.CP
	GPU  *device.Device
}

// vmMemory is the cores' view of device memory with VM on: each access is
// translated page by page through the page table that CP_SATP selects.
type vmMemory struct {
	dev *mem.Device
	cp  *cp.CP // set once the CP exists, before any launch
}

func (m *vmMemory) satp() (uint64, error) {
	lo, err := m.cp.ReadReg(abi.RegCPSATPLo)
	if err != nil {
		return 0, err
	}
	hi, err := m.cp.ReadReg(abi.RegCPSATPHi)
	return uint64(hi)<<32 | uint64(lo), err
}

func (m *vmMemory) access(va uint64, p []byte, write bool) error {
	satp, err := m.satp()
	if err != nil {
		return err
	}
	if satp == 0 {
		if write {
			return m.dev.Write(va, p)
		}
		return m.dev.Read(va, p)
	}
	acc := mem.AccessRead
	if write {
		acc = mem.AccessWrite
	}
	for len(p) > 0 {
		n := min(uint64(len(p)), mem.PageSize-va%mem.PageSize)
		pa, err := mem.Translate(m.dev, satp, va, acc)
		if err != nil {
			return err
		}
		if write {
			err = m.dev.Write(pa, p[:n])
		} else {
			err = m.dev.Read(pa, p[:n])
		}
		if err != nil {
			return err
		}
		va, p = va+n, p[n:]
	}
	return nil
}

// Read reads len(p) bytes at virtual address va.
func (m *vmMemory) Read(va uint64, p []byte) error { return m.access(va, p, false) }

// Write writes p at virtual address va.
func (m *vmMemory) Write(va uint64, p []byte) error { return m.access(va, p, true) }

// Open builds a simulator of cfg's shape running the kernels of lib.
func Open(cfg config.Config, lib *device.Library, opt Options) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	host := mem.NewHost(HostBase, HostBytes)
	capacity := cfg.Device.DeviceMemBytes()
	span := max(capacity+(LinkWindowEnd-LinkWindowBase), LinkWindowEnd-DeviceBase)
	dmem := mem.NewDevice(DeviceBase, span)
	dmem.SetCapacity(capacity)
	if err := dmem.Reserve(LinkWindowBase, LinkWindowEnd-LinkWindowBase); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	var coreMem device.Memory = dmem
	var vm *vmMemory
	if cfg.CP.VM {
		vm = &vmMemory{dev: dmem}
		coreMem = vm
	}
	gpu, err := device.New(cfg, coreMem, lib)
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
		Pipeline: opt.Pipeline || cfg.CP.Pipeline, Trace: opt.Trace,
	}, host, dmem, gpu, cp.Caps{GPUDev: devCaps, ISA: uint64(cfg.Device.ISACaps())})
	if err != nil {
		gpu.Close()
		return nil, fmt.Errorf("sim: %w", err)
	}
	if vm != nil {
		vm.cp = c
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

// HostView returns a direct view of n bytes of pinned host memory at addr inside
// one allocation (runtime.HostViewer): what host_mem_alloc's host pointer gives a
// C runtime, so staging needs no intermediate copy. spec: command-processor §9
func (s *Sim) HostView(addr uint64, n int) ([]byte, error) { return s.Host.View(addr, n) }

// DevAlloc allocates device memory.
func (s *Sim) DevAlloc(size, align uint64) (uint64, error) { return s.Mem.Alloc(size, align) }

// DevAllocAt allocates size bytes of device memory at the fixed address addr (a
// module link base, vortexpipe §2.4).
func (s *Sim) DevAllocAt(addr, size uint64) error { return s.Mem.AllocAt(addr, size) }

// DevFree frees device memory.
func (s *Sim) DevFree(addr uint64) error { return s.Mem.Free(addr) }

// SetIRQHandler installs the CP's completion interrupt handler.
// spec: command-processor §10 item 13
func (s *Sim) SetIRQHandler(h func(queueMask uint32)) { s.CP.SetIRQHandler(h) }

// Flavor is the CP flavour.
func (s *Sim) Flavor() abi.Flavor { return s.CP.Flavor() }
