package mem

import (
	"fmt"
)

// Perm is the permission set of a mapping: any of PTER, PTEW, PTEX.
type Perm uint64

// Common permission sets.
const (
	PermR   = Perm(PTER)
	PermRW  = Perm(PTER | PTEW)
	PermRX  = Perm(PTER | PTEX)
	PermRWX = Perm(PTER | PTEW | PTEX)
)

// TableMemory is where a PageTable keeps its table pages: physical device memory
// with an allocator. *Device is one; the runtime supplies another that allocates
// through its transport, keeps a host shadow of each table page and uploads the
// pages it changed with physical CMD_MEM_WRITEs (command-processor §8, §9).
type TableMemory interface {
	Alloc(size, align uint64) (uint64, error)
	Free(addr uint64) error
	ReadU32(addr uint64) (uint32, error)
	ReadU64(addr uint64) (uint64, error)
	WriteU32(addr uint64, v uint32) error
	WriteU64(addr uint64, v uint64) error
}

// PageTable builds Sv32 or Sv39 page tables in device memory, for tests and for the
// runtime's VM (map a VA range to a PA range). Table pages are device allocations
// the builder owns; Release frees them. Leaves are written with V, A and D set, so
// the walk's Svade rules never fault on a mapped page. spec: command-processor §8
type PageTable struct {
	dev   TableMemory
	mode  Mode
	root  uint64
	pages []uint64 // every table page, root first
}

// NewPageTable allocates an empty root table. The table memory must hand out zeroed
// pages.
func NewPageTable(dev TableMemory, mode Mode) (*PageTable, error) {
	if mode != ModeSv32 && mode != ModeSv39 {
		return nil, fmt.Errorf("mem: page table for mode %v", mode)
	}
	pt := &PageTable{dev: dev, mode: mode}
	root, err := pt.newTable()
	if err != nil {
		return nil, err
	}
	pt.root = root
	return pt, nil
}

func (pt *PageTable) newTable() (uint64, error) {
	a, err := pt.dev.Alloc(PageSize, PageSize)
	if err != nil {
		return 0, fmt.Errorf("mem: page table page: %w", err)
	}
	pt.pages = append(pt.pages, a)
	return a, nil
}

// Mode returns the table's translation mode.
func (pt *PageTable) Mode() Mode { return pt.mode }

// Root returns the physical address of the root table.
func (pt *PageTable) Root() uint64 { return pt.root }

// SATP returns the value to program into CP_SATP_LO/HI.
func (pt *PageTable) SATP() uint64 { return EncodeSATP(pt.mode, pt.root) }

// Map maps [va, va+size) to [pa, pa+size) with perm, using the largest page each
// step allows (a superpage where both addresses are aligned to it and enough of the
// range remains). va, pa and size must be page aligned; remapping a mapped page, or
// mapping over a superpage, is an error.
func (pt *PageTable) Map(va, pa, size uint64, perm Perm) error {
	if va%PageSize != 0 || pa%PageSize != 0 || size%PageSize != 0 || size == 0 {
		return fmt.Errorf("mem: map %#x->%#x size %#x: not page aligned", va, pa, size)
	}
	if perm&^PermRWX != 0 || perm&PermRWX == 0 || Perm(PTEW)&perm != 0 && perm&PermR == 0 {
		return fmt.Errorf("mem: map %#x: bad permissions %#x", va, uint64(perm))
	}
	g := geom(pt.mode)
	for size > 0 {
		level := 0
		for l := g.levels - 1; l > 0; l-- {
			s := LevelSize(pt.mode, l)
			if va%s == 0 && pa%s == 0 && size >= s {
				level = l
				break
			}
		}
		if err := pt.MapPage(va, pa, level, perm); err != nil {
			return err
		}
		s := LevelSize(pt.mode, level)
		va, pa, size = va+s, pa+s, size-s
	}
	return nil
}

// MapPage writes one leaf at level (0 = 4 KiB page) mapping va to pa. It does not
// check pa's alignment, so tests can build the misaligned superpages the walk must
// reject.
func (pt *PageTable) MapPage(va, pa uint64, level int, perm Perm) error {
	g := geom(pt.mode)
	if level < 0 || level >= g.levels {
		return fmt.Errorf("mem: map %#x: level %d out of range", va, level)
	}
	if pt.mode == ModeSv32 && va>>32 != 0 {
		return fmt.Errorf("mem: map %#x: VA wider than 32 bits", va)
	}
	vpnMask := uint64(1)<<g.vpnBits - 1
	table := pt.root
	for l := g.levels - 1; ; l-- {
		slot := table + (va>>(12+g.vpnBits*uint(l))&vpnMask)*g.pteBytes
		pte, err := pt.readPTE(slot)
		if err != nil {
			return err
		}
		if l == level {
			if pte&PTEV != 0 {
				return fmt.Errorf("mem: map %#x: already mapped (PTE %#x)", va, pte)
			}
			return pt.writePTE(slot, (pa/PageSize)<<10|uint64(perm)|PTEV|PTEA|PTED)
		}
		if pte&PTEV == 0 {
			next, err := pt.newTable()
			if err != nil {
				return err
			}
			if err := pt.writePTE(slot, (next/PageSize)<<10|PTEV); err != nil {
				return err
			}
			table = next
			continue
		}
		if pte&(PTER|PTEX) != 0 {
			return fmt.Errorf("mem: map %#x: inside a level-%d superpage", va, l)
		}
		table = (pte >> 10 & g.ppnMask) * PageSize
	}
}

// Unmap clears the leaves that map [va, va+size). Each leaf met must lie wholly
// inside the range (a range Map built is unmapped by the same range); an unmapped
// page or a superpage that sticks out of the range is an error. Table pages are
// kept for reuse. After Unmap a walk of any VA in the range faults.
func (pt *PageTable) Unmap(va, size uint64) error {
	if va%PageSize != 0 || size%PageSize != 0 || size == 0 || va+size < va {
		return fmt.Errorf("mem: unmap %#x size %#x: not page aligned", va, size)
	}
	g := geom(pt.mode)
	vpnMask := uint64(1)<<g.vpnBits - 1
	for end := va + size; va < end; {
		table := pt.root
		cleared := false
		for l := g.levels - 1; l >= 0; l-- {
			slot := table + (va>>(12+g.vpnBits*uint(l))&vpnMask)*g.pteBytes
			pte, err := pt.readPTE(slot)
			if err != nil {
				return err
			}
			if pte&PTEV == 0 {
				return fmt.Errorf("mem: unmap %#x: not mapped (level %d)", va, l)
			}
			if pte&(PTER|PTEX) == 0 {
				table = (pte >> 10 & g.ppnMask) * PageSize
				continue
			}
			s := LevelSize(pt.mode, l)
			if va%s != 0 || end-va < s {
				return fmt.Errorf("mem: unmap %#x: a level-%d leaf sticks out of the range", va, l)
			}
			if err := pt.writePTE(slot, 0); err != nil {
				return err
			}
			va += s
			cleared = true
			break
		}
		if !cleared {
			return fmt.Errorf("mem: unmap %#x: walk ended without a leaf", va)
		}
	}
	return nil
}

// SetPTE overwrites the raw PTE that maps va at level, creating intermediate tables
// as needed. Tests use it to plant invalid or malformed entries.
func (pt *PageTable) SetPTE(va uint64, level int, pte uint64) error {
	g := geom(pt.mode)
	if level < 0 || level >= g.levels {
		return fmt.Errorf("mem: set PTE %#x: level %d out of range", va, level)
	}
	vpnMask := uint64(1)<<g.vpnBits - 1
	table := pt.root
	for l := g.levels - 1; ; l-- {
		slot := table + (va>>(12+g.vpnBits*uint(l))&vpnMask)*g.pteBytes
		if l == level {
			return pt.writePTE(slot, pte)
		}
		cur, err := pt.readPTE(slot)
		if err != nil {
			return err
		}
		if cur&PTEV == 0 || cur&(PTER|PTEX) != 0 {
			next, err := pt.newTable()
			if err != nil {
				return err
			}
			if err := pt.writePTE(slot, (next/PageSize)<<10|PTEV); err != nil {
				return err
			}
			table = next
			continue
		}
		table = (cur >> 10 & g.ppnMask) * PageSize
	}
}

func (pt *PageTable) readPTE(addr uint64) (uint64, error) {
	if pt.mode == ModeSv32 {
		v, err := pt.dev.ReadU32(addr)
		return uint64(v), err
	}
	return pt.dev.ReadU64(addr)
}

func (pt *PageTable) writePTE(addr, pte uint64) error {
	if pt.mode == ModeSv32 {
		return pt.dev.WriteU32(addr, uint32(pte))
	}
	return pt.dev.WriteU64(addr, pte)
}

// Release frees every table page. The PageTable must not be used afterwards.
func (pt *PageTable) Release() error {
	for _, p := range pt.pages {
		if err := pt.dev.Free(p); err != nil {
			return err
		}
	}
	pt.pages = nil
	return nil
}
