package runtime

import (
	"encoding/binary"
	"fmt"
	"sort"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device/mem"
)

// Virtual memory (command-processor §8, §9; vortex-hardware-facts §1.4, §9 item 12).
//
// When the CP advertises VM (CP_DEV_CAPS bit 24) the runtime owns one page table in
// device memory — Sv32 for XLEN 32, Sv39 for XLEN 64 — and programs its root into
// CP_SATP_LO/HI at open. Then:
//
//   - An ordinary buffer gets a virtual address from the VA heap (vaHeap*), backed by
//     physical pages the transport allocates; CMD_MEM_* on it are translated by the CP.
//   - A physical buffer (AllocOptions.Physical), the runtime's own device scratch
//     (argument blocks, QMDs, draw descriptors) and nothing else are identity mapped
//     (VA = PA): the CP reads descriptors physically, fixed-function units bypass the
//     MMU, and kernels still reach them at the same address. Their CMD_MEM_* carry
//     F_MEM_PHYSICAL.
//   - Modules load at their link base (abi.LinkBase*) as virtual addresses.
//   - Kernels see the same address space: the simulator translates every CTA memory
//     access through the table CP_SATP selects (package device/sim).
//   - Free unmaps the range, so a later access to the freed VA takes a page fault
//     (Q_ERROR code QErrPageFault for a DMA, a launch error for a kernel).
//
// Table pages live in device memory; the runtime keeps a host shadow of each and,
// before every submission, uploads the pages changed since the last upload with
// physical CMD_MEM_WRITEs on the submitting queue, holding the VM lock until they
// have retired. So every batch submitted after Alloc (or Free) returned runs with
// the new mapping, whichever queue it is on.
const (
	vaHeapBase32 = 0xA000_0000 // Sv32 VA heap: above the link window, below 4 GiB
	vaHeapEnd32  = 0xF000_0000
	vaHeapBase39 = 0x20_0000_0000 // Sv39 VA heap: high in the positive half
	vaHeapEnd39  = 0x3F_0000_0000
)

// vmState is the runtime's MMU state.
type vmState struct {
	mu    sync.Mutex
	mode  mem.Mode
	pt    *mem.PageTable
	shade *shadowTables
	va    vaSpace
}

// shadowTables is the page table's memory as the runtime sees it: pages allocated
// through the transport, with a host copy that the PageTable builder reads and
// writes, and the set of pages changed since the last upload.
type shadowTables struct {
	t     Transport
	pages map[uint64][]byte
	dirty map[uint64]bool
}

func (s *shadowTables) Alloc(size, align uint64) (uint64, error) {
	if size != mem.PageSize {
		return 0, fmt.Errorf("runtime: page-table page of %d bytes", size)
	}
	a, err := s.t.DevAlloc(size, max(align, mem.PageSize))
	if err != nil {
		return 0, err
	}
	s.pages[a] = make([]byte, size) // the transport zeroes device memory
	return a, nil
}

func (s *shadowTables) Free(a uint64) error {
	delete(s.pages, a)
	delete(s.dirty, a)
	return s.t.DevFree(a)
}

func (s *shadowTables) at(a, n uint64) ([]byte, error) {
	p := s.pages[a&^(mem.PageSize-1)]
	off := a & (mem.PageSize - 1)
	if p == nil || off+n > mem.PageSize {
		return nil, fmt.Errorf("runtime: page-table access at %#x outside the table pages", a)
	}
	return p[off : off+n], nil
}

func (s *shadowTables) ReadU32(a uint64) (uint32, error) {
	b, err := s.at(a, 4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (s *shadowTables) ReadU64(a uint64) (uint64, error) {
	b, err := s.at(a, 8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

func (s *shadowTables) WriteU32(a uint64, v uint32) error {
	b, err := s.at(a, 4)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(b, v)
	s.dirty[a&^(mem.PageSize-1)] = true
	return nil
}

func (s *shadowTables) WriteU64(a uint64, v uint64) error {
	b, err := s.at(a, 8)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(b, v)
	s.dirty[a&^(mem.PageSize-1)] = true
	return nil
}

// vaSpace is a first-fit allocator of page-aligned virtual ranges.
type vaSpace struct {
	base, end uint64
	used      []vaRange // sorted by base
}

type vaRange struct{ base, size uint64 }

func (v *vaSpace) alloc(size uint64) (uint64, error) {
	cand := v.base
	i := 0
	for ; i < len(v.used); i++ {
		if v.used[i].base-cand >= size {
			break
		}
		cand = v.used[i].base + v.used[i].size
	}
	if cand+size > v.end || cand+size < cand {
		return 0, fmt.Errorf("runtime: VA heap [%#x, %#x) has no room for %d bytes", v.base, v.end, size)
	}
	v.used = append(v.used, vaRange{})
	copy(v.used[i+1:], v.used[i:])
	v.used[i] = vaRange{cand, size}
	return cand, nil
}

func (v *vaSpace) free(base uint64) {
	i := sort.Search(len(v.used), func(i int) bool { return v.used[i].base >= base })
	if i < len(v.used) && v.used[i].base == base {
		v.used = append(v.used[:i], v.used[i+1:]...)
	}
}

func pageRound(n uint64) uint64 { return (n + mem.PageSize - 1) &^ (mem.PageSize - 1) }

// initVM builds the empty page table and programs CP_SATP (only when the CP
// advertises VM: command-processor §9, vortex-hardware-facts §1.4).
func (d *Device) initVM() error {
	v := &vmState{mode: mem.ModeSv32, va: vaSpace{base: vaHeapBase32, end: vaHeapEnd32}}
	if d.caps.ISA.XLen() == 64 {
		v.mode, v.va = mem.ModeSv39, vaSpace{base: vaHeapBase39, end: vaHeapEnd39}
	}
	v.shade = &shadowTables{t: d.t, pages: map[uint64][]byte{}, dirty: map[uint64]bool{}}
	pt, err := mem.NewPageTable(v.shade, v.mode)
	if err != nil {
		return err
	}
	v.pt = pt
	satp := pt.SATP()
	if err := d.t.WriteReg(abi.RegCPSATPLo, uint32(satp)); err != nil {
		return fmt.Errorf("writing CP_SATP_LO: %w", err)
	}
	if err := d.t.WriteReg(abi.RegCPSATPHi, uint32(satp>>32)); err != nil {
		return fmt.Errorf("writing CP_SATP_HI: %w", err)
	}
	d.vm = v
	return nil
}

// VMMode reports the translation mode the runtime programmed (mem.ModeBare when the
// CP has no VM), and the SATP value.
func (d *Device) VMMode() (mode mem.Mode, satp uint64) {
	if d.vm == nil {
		return mem.ModeBare, 0
	}
	return d.vm.mode, d.vm.pt.SATP()
}

// allocPhys allocates pinned physical device memory: page-granular and identity
// mapped under VM, a plain allocation otherwise.
func (d *Device) allocPhys(size uint64) (uint64, error) {
	if d.vm == nil {
		return d.t.DevAlloc(size, abi.LineBytes)
	}
	n := pageRound(size)
	a, err := d.t.DevAlloc(n, mem.PageSize)
	if err != nil {
		return 0, err
	}
	d.vm.mu.Lock()
	err = d.vm.pt.Map(a, a, n, mem.PermRWX)
	d.vm.mu.Unlock()
	if err != nil {
		d.t.DevFree(a)
		return 0, fmt.Errorf("identity-mapping %#x: %w", a, err)
	}
	return a, nil
}

// freePhys undoes allocPhys.
func (d *Device) freePhys(a, size uint64) error {
	if d.vm != nil {
		d.vm.mu.Lock()
		err := d.vm.pt.Unmap(a, pageRound(size))
		d.vm.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return d.t.DevFree(a)
}

// allocVirtual backs [va, va+size) (va from the heap when fixed is false) with fresh
// physical pages and returns va and the physical base.
func (d *Device) allocVirtual(va, size uint64, fixed bool) (uint64, uint64, error) {
	n := pageRound(size)
	pa, err := d.t.DevAlloc(n, mem.PageSize)
	if err != nil {
		return 0, 0, err
	}
	v := d.vm
	v.mu.Lock()
	defer v.mu.Unlock()
	if !fixed {
		if va, err = v.va.alloc(n); err != nil {
			d.t.DevFree(pa)
			return 0, 0, err
		}
	}
	if err := v.pt.Map(va, pa, n, mem.PermRWX); err != nil {
		if !fixed {
			v.va.free(va)
		}
		d.t.DevFree(pa)
		return 0, 0, fmt.Errorf("mapping VA %#x: %w", va, err)
	}
	return va, pa, nil
}

// freeVirtual unmaps [va, va+size), frees its pages and (from the heap) the range.
func (d *Device) freeVirtual(va, pa, size uint64, fromHeap bool) error {
	v := d.vm
	v.mu.Lock()
	err := v.pt.Unmap(va, pageRound(size))
	if fromHeap {
		v.va.free(va)
	}
	v.mu.Unlock()
	if err != nil {
		return err
	}
	return d.t.DevFree(pa)
}

// syncVM uploads the page-table pages changed since the last upload, on q's ring,
// and waits for them; the VM lock is held throughout, so a submission on another
// queue that calls syncVM meanwhile waits until the tables are current.
func (q *Queue) syncVM() error {
	v := q.d.vm
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.shade.dirty) == 0 {
		return nil
	}
	pages := make([]uint64, 0, len(v.shade.dirty))
	for a := range v.shade.dirty {
		pages = append(pages, a)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i] < pages[j] })
	t := q.d.t
	host, err := t.HostAlloc(uint64(len(pages))*mem.PageSize, mem.PageSize)
	if err != nil {
		return fmt.Errorf("runtime: page-table staging: %w", err)
	}
	defer t.HostFree(host)
	cmds := make([]abi.Command, 0, len(pages))
	for i, a := range pages {
		src := host + uint64(i)*mem.PageSize
		if err := t.HostWrite(src, v.shade.pages[a]); err != nil {
			return fmt.Errorf("runtime: page-table staging: %w", err)
		}
		c := abi.MemWrite(a, src, mem.PageSize)
		c.Flags |= abi.FlagMemPhysical
		cmds = append(cmds, c)
	}
	if err := q.submitCommands(cmds); err != nil {
		return fmt.Errorf("runtime: page-table upload: %w", err)
	}
	clear(v.shade.dirty)
	return nil
}
