package device

import (
	"fmt"
	"sync/atomic"

	"vortexgfx/abi"
)

// Performance counters: 64-bit per core, per MPM class, per counter index
// (CSR − 0xB00, 0..31), read by the host as a CP DCR_READ of MPM_VALUE with the tag
// (class << 22) | (idx << 16) | core, idx + 32 for the high word.
// spec: vortex-hardware-facts §7
//
// The CORE class (1) carries MCYCLE (0xB00) and MINSTRET (0xB02) plus our own
// counters from 0xB03 (the hardware leaves them to the unit):
//
//	0xB03 CTAs run          0xB04 warps run        0xB05 threads run
//	0xB06 fragment waves    0xB07 cache flushes    0xB08 memory accesses (per lane)
//
// MINSTRET counts thread-phase executions (one per thread per ForEachThread phase):
// Go kernels have no instruction stream. The RASTER (12), TEX (13) and OM (14)
// classes hold whatever those units add with AddPerf, at the CSRs of facts §7.
const (
	perfCycles   = abi.CSRMCycle - abi.CSRMPMBase
	perfInstret  = abi.CSRMInstret - abi.CSRMPMBase
	perfCTAs     = 0x03
	perfWarps    = 0x04
	perfThreads  = 0x05
	perfWaves    = 0x06
	perfFlushes  = 0x07
	perfMemOps   = 0x08
	perfClasses  = int(abi.MPMDXA) + 3 // classes 0..18 (DTCU 17/18)
	perfCounters = 32
)

// CSR numbers of the CORE-class counters beyond MCYCLE/MINSTRET (ours).
const (
	CSRCoreCTAs    = abi.CSRMPMBase + perfCTAs
	CSRCoreWarps   = abi.CSRMPMBase + perfWarps
	CSRCoreThreads = abi.CSRMPMBase + perfThreads
	CSRCoreWaves   = abi.CSRMPMBase + perfWaves
	CSRCoreFlushes = abi.CSRMPMBase + perfFlushes
	CSRCoreMemOps  = abi.CSRMPMBase + perfMemOps
)

type perfBank struct {
	c [perfClasses][perfCounters]atomic.Uint64
}

func (b *perfBank) add(class abi.MPMClass, idx int, v uint64) { b.c[class][idx].Add(v) }

func checkPerf(class abi.MPMClass, csr int) (int, error) {
	if int(class) >= perfClasses {
		return 0, fmt.Errorf("MPM class %d out of range (0..%d)", class, perfClasses-1)
	}
	idx := csr - abi.CSRMPMBase
	if idx < 0 || idx >= perfCounters {
		return 0, fmt.Errorf("counter CSR 0x%X outside 0xB00..0xB1F", csr)
	}
	return idx, nil
}

// AddPerf adds delta to counter csr (0xB00..0xB1F) of class on core. The fixed-function
// units call it; it is safe for concurrent use.
func (d *Device) AddPerf(core int, class abi.MPMClass, csr int, delta uint64) error {
	idx, err := checkPerf(class, csr)
	if err != nil {
		return fmt.Errorf("device: AddPerf: %w", err)
	}
	if core < 0 || core >= d.ncores {
		return fmt.Errorf("device: AddPerf: core %d out of range (%d cores)", core, d.ncores)
	}
	d.perf[core].add(class, idx, delta)
	return nil
}

// Perf returns the 64-bit counter csr of class on core.
func (d *Device) Perf(core int, class abi.MPMClass, csr int) (uint64, error) {
	idx, err := checkPerf(class, csr)
	if err != nil {
		return 0, fmt.Errorf("device: Perf: %w", err)
	}
	if core < 0 || core >= d.ncores {
		return 0, fmt.Errorf("device: Perf: core %d out of range (%d cores)", core, d.ncores)
	}
	return d.perf[core].c[class][idx].Load(), nil
}

func (d *Device) mpmRead(tag uint32) (uint32, error) {
	class, csr, core, high := abi.DecodeMPMTag(tag)
	v, err := d.Perf(core, class, csr)
	if err != nil {
		return 0, err
	}
	if high {
		return uint32(v >> 32), nil
	}
	return uint32(v), nil
}
