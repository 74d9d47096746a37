package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"sync/atomic"

	"vortexgfx/abi"
)

// Module is a kernel image resident in device memory; its address is the launches'
// STARTUP_ADDR. LoadModule places it wherever the allocator says (the image format
// is position-independent); LoadModuleAt places it at a fixed link base, as the
// Vortex toolchain links each stage (vortexpipe §2.4, abi.LinkBase*).
// spec: vortexpipe §2.5 (modules are resident), vortex-hardware-facts §9 item 9
type Module struct {
	d       *Device
	buf     *Buffer
	ents    []abi.KernelImageEntry
	image   []byte // kept for modules at a link base (residency compare)
	base    uint64 // link base, 0 when allocator-placed
	evicted atomic.Bool
}

// Kernel is one entry point of a loaded module.
type Kernel struct {
	m     *Module
	name  string
	entry uint64
}

// Errors of the link-base residency rule.
var (
	// ErrEvicted is a launch of (or a lookup in) a module that a different module
	// bound at its link base has evicted, or that was unloaded.
	ErrEvicted = errors.New("runtime: module evicted from its link base")
	// ErrLinkBase is a link base that is not one of abi.LinkBase*.
	ErrLinkBase = errors.New("runtime: not a module link base")
)

// linkSlot is the module resident at one link base and who holds it.
type linkSlot struct {
	m     *Module
	owner string
}

// linkSlotBytes is each link base's slot: up to the next base (the VS slot, the last,
// is 4 MiB). spec: vortexpipe §2.4
func linkSlotBytes(base uint64) (uint64, error) {
	switch base {
	case abi.LinkBaseFS:
		return abi.LinkBaseFrontEnd - abi.LinkBaseFS, nil
	case abi.LinkBaseFrontEnd:
		return abi.LinkBaseVS - abi.LinkBaseFrontEnd, nil
	case abi.LinkBaseVS:
		return 0x40_0000, nil
	}
	return 0, fmt.Errorf("%w: %#x (want %#x, %#x or %#x)", ErrLinkBase, base, abi.LinkBaseFS, abi.LinkBaseFrontEnd, abi.LinkBaseVS)
}

// fixedAllocator is the optional transport method that places device memory at a
// fixed address (the simulator has it). Without VM, link-base loading needs it.
type fixedAllocator interface {
	DevAllocAt(addr, size uint64) error
}

// LoadModule decodes image, copies it to device memory wherever the allocator places
// it and returns the module.
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

// LoadModuleAt makes image the module resident at link base (abi.LinkBaseFS, shared
// by fragment shaders and compute kernels, abi.LinkBaseFrontEnd or abi.LinkBaseVS)
// on behalf of owner, an ownership token such as "draw" or "compute".
//
// The residency rule of vortexpipe §2.5: each base holds one image. Loading the
// image already resident there reloads nothing and returns the resident module
// (the token passes to owner). Loading a different image evicts the resident
// module — its memory is freed and launching its kernels fails with ErrEvicted —
// and loads the new one. Work still using an evicted module must have completed.
// Under VM the base is a virtual address backed by fresh physical pages; without VM
// it is a fixed physical allocation (the transport must implement DevAllocAt).
// spec: vortexpipe §2.4, §2.5; vortex-hardware-facts §6
func (d *Device) LoadModuleAt(image []byte, base uint64, owner string) (*Module, error) {
	slotBytes, err := linkSlotBytes(base)
	if err != nil {
		return nil, err
	}
	ents, err := abi.DecodeKernelImage(image)
	if err != nil {
		return nil, fmt.Errorf("runtime: load module at %#x: %w", base, err)
	}
	if uint64(len(image)) > slotBytes {
		return nil, fmt.Errorf("runtime: load module at %#x: %d-byte image exceeds the %d-byte slot", base, len(image), slotBytes)
	}
	d.resMu.Lock()
	cur := d.slots[base]
	if cur != nil && bytes.Equal(cur.m.image, image) {
		cur.owner = owner
		d.resMu.Unlock()
		return cur.m, nil
	}
	delete(d.slots, base)
	d.resMu.Unlock()
	if cur != nil {
		if err := cur.m.release(); err != nil {
			return nil, fmt.Errorf("runtime: load module at %#x: evicting %q's module: %w", base, cur.owner, err)
		}
	}
	buf, err := d.allocAt(base, uint64(len(image)))
	if err != nil {
		return nil, fmt.Errorf("runtime: load module at %#x: %w", base, err)
	}
	if err := d.Write(buf, 0, image); err != nil {
		buf.Free()
		return nil, fmt.Errorf("runtime: load module at %#x: %w", base, err)
	}
	m := &Module{d: d, buf: buf, ents: ents, image: append([]byte(nil), image...), base: base}
	d.resMu.Lock()
	d.slots[base] = &linkSlot{m: m, owner: owner}
	d.resMu.Unlock()
	return m, nil
}

// SlotOwner returns the module resident at link base and the token of who holds it
// (m is nil when the slot is empty). vortexpipe's startup_fs_owner is SlotOwner
// (abi.LinkBaseFS). spec: vortexpipe §2.5
func (d *Device) SlotOwner(base uint64) (m *Module, owner string) {
	d.resMu.Lock()
	defer d.resMu.Unlock()
	if s := d.slots[base]; s != nil {
		return s.m, s.owner
	}
	return nil, ""
}

// allocAt allocates size bytes at the fixed address base.
func (d *Device) allocAt(base, size uint64) (*Buffer, error) {
	padded := size
	if !d.exactDMA {
		padded = align64(size) + abi.LineBytes
	}
	if d.vm != nil {
		va, pa, err := d.allocVirtual(base, padded, true)
		if err != nil {
			return nil, err
		}
		return &Buffer{dev: d, addr: va, size: size, pa: pa, slot: true}, nil
	}
	fa, ok := d.t.(fixedAllocator)
	if !ok {
		return nil, fmt.Errorf("the transport cannot place memory at a fixed address")
	}
	if err := fa.DevAllocAt(base, padded); err != nil {
		return nil, err
	}
	return &Buffer{dev: d, addr: base, size: size, slot: true}, nil
}

// release marks the module gone and frees its memory.
func (m *Module) release() error {
	if m.evicted.Swap(true) {
		return nil
	}
	return m.buf.Free()
}

// Base is the module's device address (STARTUP_ADDR).
func (m *Module) Base() uint64 {
	if m.base != 0 {
		return m.base
	}
	return m.buf.Addr()
}

// Evicted reports whether the module was evicted from its link base or unloaded.
func (m *Module) Evicted() bool { return m.evicted.Load() }

// Kernel returns the entry point called name.
func (m *Module) Kernel(name string) (*Kernel, error) {
	if m.Evicted() {
		return nil, ErrEvicted
	}
	for _, e := range m.ents {
		if e.Name == name {
			return &Kernel{m: m, name: name, entry: m.Base() + uint64(e.EntryOffset)}, nil
		}
	}
	return nil, fmt.Errorf("runtime: module has no kernel %q", name)
}

// Unload frees the module's device memory (and its link base, if it holds one);
// launches must have completed.
func (m *Module) Unload() error {
	if m.base != 0 {
		m.d.resMu.Lock()
		if s := m.d.slots[m.base]; s != nil && s.m == m {
			delete(m.d.slots, m.base)
		}
		m.d.resMu.Unlock()
	}
	if m.Evicted() {
		return fmt.Errorf("runtime: unload: %w", ErrEvicted)
	}
	return m.release()
}

// Name is the kernel's symbol.
func (k *Kernel) Name() string { return k.name }

// Entry is the kernel's PC (KERNEL_ENTRY).
func (k *Kernel) Entry() uint64 { return k.entry }

// Module is the module the kernel belongs to.
func (k *Kernel) Module() *Module { return k.m }
