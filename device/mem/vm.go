package mem

import (
	"errors"
	"fmt"
)

// Mode is a translation mode selected by a SATP value.
// spec: command-processor §8 (cp_translate: Sv32/Sv39, megapage-aware)
type Mode uint8

// The translation modes.
const (
	ModeBare Mode = iota // no translation: VA == PA
	ModeSv32             // two levels, 4-byte PTEs, 4 MiB megapages
	ModeSv39             // three levels, 8-byte PTEs, 2 MiB megapages, 1 GiB gigapages
)

// String returns "bare", "sv32" or "sv39".
func (m Mode) String() string {
	switch m {
	case ModeSv32:
		return "sv32"
	case ModeSv39:
		return "sv39"
	}
	return "bare"
}

// PageSize is the base page size of both modes.
const PageSize = 4096

// PTE bits, as the RISC-V privileged spec defines them (§4.3.1, §4.4.1).
const (
	PTEV uint64 = 1 << 0 // valid
	PTER uint64 = 1 << 1 // readable
	PTEW uint64 = 1 << 2 // writable
	PTEX uint64 = 1 << 3 // executable
	PTEU uint64 = 1 << 4 // user
	PTEG uint64 = 1 << 5 // global
	PTEA uint64 = 1 << 6 // accessed
	PTED uint64 = 1 << 7 // dirty
)

// SATP layout. A 64-bit CP_SATP value whose high word is zero is an RV32 satp:
// MODE in bit 31 (1 = Sv32), PPN in [21:0]. Otherwise it is an RV64 satp: MODE in
// [63:60] (8 = Sv39, 0 = bare), ASID in [59:44] (ignored), PPN in [43:0].
// spec: command-processor §8; RISC-V privileged spec §4.1.11
const (
	satp32ModeBit  = 1 << 31
	satp32PPNMask  = 1<<22 - 1
	satp64ModeSh   = 60
	satp64ModeSv39 = 8
	satp64PPNMask  = 1<<44 - 1
)

// ErrSATP reports a SATP value with an unsupported mode.
var ErrSATP = errors.New("mem: unsupported SATP mode")

// DecodeSATP returns the mode and the root page table's physical address.
func DecodeSATP(satp uint64) (mode Mode, root uint64, err error) {
	if satp>>32 == 0 {
		if satp&satp32ModeBit == 0 {
			return ModeBare, 0, nil
		}
		return ModeSv32, (satp & satp32PPNMask) * PageSize, nil
	}
	switch satp >> satp64ModeSh {
	case 0:
		return ModeBare, 0, nil
	case satp64ModeSv39:
		return ModeSv39, (satp & satp64PPNMask) * PageSize, nil
	}
	return ModeBare, 0, fmt.Errorf("%w: %#x", ErrSATP, satp)
}

// EncodeSATP builds the SATP value for a mode and root page table (ASID 0).
func EncodeSATP(mode Mode, root uint64) uint64 {
	switch mode {
	case ModeSv32:
		return satp32ModeBit | (root/PageSize)&satp32PPNMask
	case ModeSv39:
		return satp64ModeSv39<<satp64ModeSh | (root/PageSize)&satp64PPNMask
	}
	return 0
}

// Access is the kind of access a translation is for.
type Access uint8

// The access kinds.
const (
	AccessRead Access = iota
	AccessWrite
	AccessExec
)

// String returns "read", "write" or "exec".
func (a Access) String() string {
	return [...]string{"read", "write", "exec"}[a%3]
}

// PageFault is a failed translation: why, at which VA and walk level.
type PageFault struct {
	Mode   Mode
	VA     uint64
	Access Access
	Level  int    // page-table level where the walk stopped
	Reason string // e.g. "invalid PTE", "misaligned superpage"
	PTE    uint64 // the offending PTE, when one was read
	Err    error  // the underlying memory fault when a PTE read failed
}

// Error names the VA, access, level and reason.
func (f *PageFault) Error() string {
	s := fmt.Sprintf("mem: %s page fault: %s of VA %#x at level %d: %s (PTE %#x)", f.Mode, f.Access, f.VA, f.Level, f.Reason, f.PTE)
	if f.Err != nil {
		s += ": " + f.Err.Error()
	}
	return s
}

// Unwrap returns the memory fault behind a failed PTE read, if any.
func (f *PageFault) Unwrap() error { return f.Err }

type modeGeom struct {
	levels   int
	pteBytes uint64
	vpnBits  uint
	vaBits   uint
	ppnMask  uint64 // PTE PPN field after the 10-bit shift
	resMask  uint64 // PTE bits that must be zero
}

func geom(m Mode) modeGeom {
	if m == ModeSv32 {
		return modeGeom{levels: 2, pteBytes: 4, vpnBits: 10, vaBits: 32, ppnMask: 1<<22 - 1}
	}
	// Sv39: PPN in PTE[53:10]; [63:54] (N, PBMT, reserved) must be zero: neither
	// Svnapot nor Svpbmt is implemented.
	return modeGeom{levels: 3, pteBytes: 8, vpnBits: 9, vaBits: 39, ppnMask: 1<<44 - 1, resMask: 0x3FF << 54}
}

// Translate walks the page table selected by satp in dev (PTEs are read at their
// physical addresses) and returns the physical address of va. A bare SATP returns
// va unchanged. Invalid PTEs, W-without-R, a pointer at the last level, a
// misaligned superpage, a missing permission, A clear, or D clear on a write all
// return a *PageFault; the walk never writes the table (A/D are not updated by
// hardware, the Svade behaviour the privileged spec allows).
// spec: command-processor §8; RISC-V privileged spec §4.3.2
func Translate(dev *Device, satp, va uint64, acc Access) (uint64, error) {
	mode, root, err := DecodeSATP(satp)
	if err != nil {
		return 0, &PageFault{Mode: mode, VA: va, Access: acc, Reason: "unsupported SATP mode", Err: err}
	}
	if mode == ModeBare {
		return va, nil
	}
	g := geom(mode)
	var pte uint64
	fault := func(level int, reason string, err error) (uint64, error) {
		return 0, &PageFault{Mode: mode, VA: va, Access: acc, Level: level, Reason: reason, PTE: pte, Err: err}
	}
	if mode == ModeSv32 && va>>32 != 0 {
		return fault(g.levels-1, "VA wider than 32 bits", nil)
	}
	if mode == ModeSv39 {
		if top := int64(va) >> 38; top != 0 && top != -1 {
			return fault(g.levels-1, "VA not sign-extended from bit 38", nil)
		}
	}
	vpnMask := uint64(1)<<g.vpnBits - 1
	a := root
	for level := g.levels - 1; level >= 0; level-- {
		vpn := va >> (12 + g.vpnBits*uint(level)) & vpnMask
		pteAddr := a + vpn*g.pteBytes
		if g.pteBytes == 4 {
			v, err := dev.ReadU32(pteAddr)
			if err != nil {
				return fault(level, fmt.Sprintf("PTE read at %#x", pteAddr), err)
			}
			pte = uint64(v)
		} else {
			v, err := dev.ReadU64(pteAddr)
			if err != nil {
				return fault(level, fmt.Sprintf("PTE read at %#x", pteAddr), err)
			}
			pte = v
		}
		if pte&PTEV == 0 || (pte&PTER == 0 && pte&PTEW != 0) || pte&g.resMask != 0 {
			return fault(level, "invalid PTE", nil)
		}
		ppn := pte >> 10 & g.ppnMask
		if pte&(PTER|PTEX) == 0 { // pointer to the next level
			if level == 0 {
				return fault(level, "non-leaf PTE at the last level", nil)
			}
			a = ppn * PageSize
			continue
		}
		// Leaf.
		switch acc {
		case AccessRead:
			if pte&PTER == 0 {
				return fault(level, "page not readable", nil)
			}
		case AccessWrite:
			if pte&PTEW == 0 {
				return fault(level, "page not writable", nil)
			}
		case AccessExec:
			if pte&PTEX == 0 {
				return fault(level, "page not executable", nil)
			}
		}
		if pte&PTEA == 0 {
			return fault(level, "accessed bit clear", nil)
		}
		if acc == AccessWrite && pte&PTED == 0 {
			return fault(level, "dirty bit clear on a write", nil)
		}
		lowBits := g.vpnBits * uint(level) // PPN bits the superpage takes from the VA
		if ppn&(1<<lowBits-1) != 0 {
			return fault(level, "misaligned superpage", nil)
		}
		offMask := uint64(1)<<(12+lowBits) - 1
		return ppn*PageSize | va&offMask, nil
	}
	return fault(0, "walk ended without a leaf", nil)
}

// LevelSize is the bytes one leaf PTE maps at level (0 = 4 KiB page; Sv32 level 1 =
// 4 MiB megapage; Sv39 level 1 = 2 MiB megapage, level 2 = 1 GiB gigapage).
func LevelSize(m Mode, level int) uint64 {
	g := geom(m)
	return PageSize << (g.vpnBits * uint(level))
}
