package device

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"vortexgfx/device/simt"
)

// Machine-code kernels. An image entry of kind abi.KernelCode is RV32IMAF + Vortex
// code: a launch of it runs every CTA on a modelled SIMT core (device/simt) whose
// warps fetch their instructions from device memory at the payload (the KMU's
// KERNEL_ENTRY stub plus its header, abi.KernelCodePC), and whose loads, stores and
// atomics go through the same device memory (and VM) as every other kernel's.
//
// Per CTA, warp r of the CTA's ceil(threads/width) warps starts at the code with the
// lanes of its threads r·width.. active, mscratch holding the arg block
// (STARTUP_ARG) and the KMU's CTA CSRs: CTA_ID the CTA's linear index in the grid,
// CTA_RANK r, CTA_SIZE the warp count, THREAD_ID_X/Y/Z of the warp's first thread,
// BLOCK_ID, BLOCK_DIM, GRID_DIM, CTA_ENTRY the code address, and CTA_LMEM_ADDR
// ISALocalMemBase, where the CTA's local memory (LMEM_SIZE bytes, zeroed) is
// mapped. spec: vortex-hardware-facts.md §6, §9 item 9; command-processor.md §7
//
// A fault (an unmapped or misaligned access, an illegal instruction, a wild jump,
// the budget) ends the CTA with the core's error, which names pc, warp, lane and
// address. The cores run at once on the device's goroutines, so atomics take the
// device's atomic lock (simt.SharedMemory). Cost: a machine-code CTA costs
// CostCTADispatch plus the cycles its core issued (device/simt issues one
// instruction per cycle), in place of the phase model of Go kernels.

// ISALocalMemBase is where a machine-code CTA's local memory is mapped
// (CTA_LMEM_ADDR and LOCAL_MEM_BASE read it): the top 64 KiB of the 32-bit
// address space, above device memory, the link window and the VM heap. The
// address is ours (vortex-hardware-facts.md names the CSR, not the address); a
// kernel must read it from the CSR. spec: vortex-hardware-facts.md §6; docs/ABI.md
// row 35
const ISALocalMemBase uint32 = 0xFFFF_0000

// ISALocalMemMax is the most local memory a machine-code CTA can map.
const ISALocalMemMax = 1<<32 - uint64(ISALocalMemBase)

// ISABudget bounds the warp instructions of one machine-code CTA, so a runaway
// kernel ends with an error naming its pc instead of hanging the launch.
const ISABudget = 1 << 31

// isaCacheEntries bounds the programs whose decoded code a core keeps.
const isaCacheEntries = 64

// isaRunner is one core's SIMT core for one kernel's code: reused from CTA to CTA
// so the decoded instructions stay cached.
type isaRunner struct {
	code []byte // the payload the decoded cache was filled from
	core *simt.Core
	mem  *ctaMemory
	gfx  ctaGraphics
}

// codeKernel returns the kernel that runs the n-byte machine code at pc.
func (d *Device) codeKernel(pc uint64, code []byte) (Kernel, error) {
	if pc+uint64(len(code)) > 1<<32 || pc%4 != 0 {
		return nil, fmt.Errorf("machine code at 0x%x (+%d) is not reachable by 32-bit cores", pc, len(code))
	}
	if d.threads > 32 || d.warps > 32 {
		return nil, fmt.Errorf("machine code at 0x%x: the SIMT core model runs at most 32 threads × 32 warps, the device has %d × %d", pc, d.threads, d.warps)
	}
	if d.lmem > ISALocalMemMax {
		return nil, fmt.Errorf("machine code at 0x%x: %d bytes of local memory exceed the %d the 32-bit map holds at 0x%08x", pc, d.lmem, ISALocalMemMax, ISALocalMemBase)
	}
	return func(c *CTA) error { return c.runCode(uint32(pc), code) }, nil
}

// runner returns the CTA's core's runner for the code at pc, making one when the
// code there is new or has changed since (a module reloaded at the same address).
func (c *CTA) runner(pc uint32, code []byte) (*isaRunner, error) {
	if r := c.isa[pc]; r != nil && bytes.Equal(r.code, code) {
		return r, nil
	}
	if c.isa == nil || len(c.isa) >= isaCacheEntries {
		c.isa = map[uint32]*isaRunner{}
	}
	m := &ctaMemory{c: c, codeLo: pc, codeHi: pc + uint32(len(code))}
	core, err := simt.New(simt.Config{Warps: c.dev.warps, Threads: c.WarpWidth, CoreID: uint32(c.Core),
		Cores: uint32(c.dev.ncores), LocalMemBase: ISALocalMemBase}, m)
	if err != nil {
		return nil, err
	}
	r := &isaRunner{code: append([]byte(nil), code...), core: core, mem: m}
	c.isa[pc] = r
	return r, nil
}

// runCode runs the CTA's warps on the machine code at pc.
func (c *CTA) runCode(pc uint32, code []byte) error {
	if c.Args>>32 != 0 {
		return fmt.Errorf("machine code at 0x%08x: arg block at 0x%x is beyond 32-bit addresses", pc, c.Args)
	}
	r, err := c.runner(pc, code)
	if err != nil {
		return err
	}
	core, T := r.core, c.WarpWidth
	nw := c.Warps()
	if nw > c.dev.warps {
		return fmt.Errorf("machine code at 0x%08x: a CTA of %d threads needs %d warps, the core has %d", pc, c.Threads, nw, c.dev.warps)
	}
	r.mem.c = c
	if c.IsFragment() {
		// A fragment wave (RASTER's frame kick) has no LMEM_SIZE of its own:
		// machine code gets the core's local memory for its frames.
		c.fragLMem()
		core.Graphics = &r.gfx
		r.gfx.c = c
	} else {
		core.Graphics = nil
	}
	linear := c.BlockIdx[0] + c.GridDim[0]*(c.BlockIdx[1]+c.GridDim[1]*c.BlockIdx[2])
	for w := range nw {
		first := w * T
		cta := simt.CTA{ID: linear, Rank: uint32(w), Size: uint32(nw), ThreadIdx: c.ThreadIdx(first),
			BlockIdx: c.BlockIdx, BlockDim: c.BlockDim, GridDim: c.GridDim, LMemAddr: ISALocalMemBase,
			ClusterSize: c.ClusterDim[0] * c.ClusterDim[1] * c.ClusterDim[2], Entry: pc}
		mask := uint32(1)<<min(T, c.Threads-first) - 1
		if min(T, c.Threads-first) == 32 {
			mask = ^uint32(0)
		}
		if err := core.SetCTA(w, cta); err != nil {
			return err
		}
		if err := core.SetMScratch(w, uint32(c.Args)); err != nil {
			return err
		}
		var fs simt.FragSource
		if c.IsFragment() {
			fs = fragLanes{c: c, first: first}
		}
		if err := core.SetFrag(w, fs); err != nil {
			return err
		}
		if err := core.Start(w, pc, mask); err != nil {
			return err
		}
	}
	cyc, thr := core.Cycles(), core.ThreadInstructions()
	core.SetBudget(c.dev.isaBudget)
	err = core.Run()
	c.isaCycles += core.Cycles() - cyc
	c.isaThreadInstr += core.ThreadInstructions() - thr
	c.isaInstr += core.Cycles() - cyc // one core: every issued instruction is one warp's
	c.isaRun = true
	if err != nil {
		// A warp left running (a fault) must not resume at the next CTA.
		for w := range nw {
			if core.Active(w) {
				c.isa[pc] = nil
				break
			}
		}
		return err
	}
	return nil
}

// ctaMemory is the simt.Memory of a machine-code CTA: its local memory at
// ISALocalMemBase, device memory (through the CTA's windows, or translated under
// VM) everywhere else. Errors come back to the core, which names the pc.
// Reads of the kernel's own code are not counted in MemOps: they are the
// instruction fetches, which each core decodes once, so counting them would make
// the counter depend on how CTAs spread over the cores.
type ctaMemory struct {
	c              *CTA
	codeLo, codeHi uint32
	buf            [4]byte // the bytes of an access outside the CTA's windows (a field: a local would escape)
}

func (m *ctaMemory) lmem(addr uint32, size int) ([]byte, bool, error) {
	if addr < ISALocalMemBase {
		return nil, false, nil
	}
	off := addr - ISALocalMemBase
	if uint64(off)+uint64(size) > uint64(len(m.c.LMem)) {
		return nil, true, fmt.Errorf("local memory offset 0x%x (+%d) outside LMEM_SIZE %d", off, size, len(m.c.LMem))
	}
	return m.c.LMem[off : off+uint32(size)], true, nil
}

// Load implements simt.Memory.
func (m *ctaMemory) Load(addr uint32, size int) (uint32, error) {
	b, ok, err := m.lmem(addr, size)
	if err != nil {
		return 0, err
	}
	c := m.c
	if !ok {
		if addr < m.codeLo || addr >= m.codeHi {
			c.memOps++
		}
		if c.wins != nil {
			b = c.direct(uint64(addr), size)
		}
		if b == nil {
			b = m.buf[:size]
			if err := c.mem.Read(uint64(addr), b); err != nil {
				return 0, err
			}
		}
	}
	switch size {
	case 1:
		return uint32(b[0]), nil
	case 2:
		return uint32(binary.LittleEndian.Uint16(b)), nil
	}
	return binary.LittleEndian.Uint32(b), nil
}

// Store implements simt.Memory.
func (m *ctaMemory) Store(addr uint32, size int, v uint32) error {
	b, ok, err := m.lmem(addr, size)
	if err != nil {
		return err
	}
	c := m.c
	direct := ok
	if !ok {
		c.memOps++
		if c.wins != nil {
			b = c.direct(uint64(addr), size)
			direct = b != nil
		}
		if b == nil {
			b = m.buf[:size]
		}
	}
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	default:
		binary.LittleEndian.PutUint32(b, v)
	}
	if !direct {
		return c.mem.Write(uint64(addr), b)
	}
	return nil
}

// LockAtomic implements simt.SharedMemory: atomics are serialised device-wide.
func (m *ctaMemory) LockAtomic() { m.c.dev.atomicMu.Lock() }

// UnlockAtomic implements simt.SharedMemory.
func (m *ctaMemory) UnlockAtomic() { m.c.dev.atomicMu.Unlock() }
