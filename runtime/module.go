package runtime

import (
	"fmt"

	"vortexgfx/abi"
)

// Module is a kernel image resident in device memory. The image (package abi's
// kernel-image format) is position-independent, so it loads at whatever address the
// device allocator returns; that address is the launches' STARTUP_ADDR.
// spec: vortexpipe §2.5 (modules are resident), vortex-hardware-facts §9 item 9
type Module struct {
	d    *Device
	buf  *Buffer
	ents []abi.KernelImageEntry
}

// Kernel is one entry point of a loaded module.
type Kernel struct {
	m     *Module
	name  string
	entry uint64
}

// LoadModule decodes image, copies it to device memory and returns the module.
func (d *Device) LoadModule(image []byte) (*Module, error) {
	ents, err := abi.DecodeKernelImage(image)
	if err != nil {
		return nil, fmt.Errorf("runtime: load module: %w", err)
	}
	buf, err := d.Alloc(uint64(len(image)))
	if err != nil {
		return nil, fmt.Errorf("runtime: load module: %w", err)
	}
	if err := d.Write(buf, 0, image); err != nil {
		buf.Free()
		return nil, fmt.Errorf("runtime: load module: %w", err)
	}
	return &Module{d: d, buf: buf, ents: ents}, nil
}

// Base is the module's device address (STARTUP_ADDR).
func (m *Module) Base() uint64 { return m.buf.Addr() }

// Kernel returns the entry point called name.
func (m *Module) Kernel(name string) (*Kernel, error) {
	for _, e := range m.ents {
		if e.Name == name {
			return &Kernel{m: m, name: name, entry: m.Base() + uint64(e.EntryOffset)}, nil
		}
	}
	return nil, fmt.Errorf("runtime: module has no kernel %q", name)
}

// Unload frees the module's device memory; launches must have completed.
func (m *Module) Unload() error { return m.buf.Free() }

// Name is the kernel's symbol.
func (k *Kernel) Name() string { return k.name }

// Entry is the kernel's PC (KERNEL_ENTRY).
func (k *Kernel) Entry() uint64 { return k.entry }

// Module is the module the kernel belongs to.
func (k *Kernel) Module() *Module { return k.m }
