package simt

import (
	"errors"
	"fmt"
	"math/bits"

	"vortexgfx/isa/rv32"
)

// Config sizes a core.
type Config struct {
	Warps   int    // warps per core (1..32)
	Threads int    // threads per warp (1..32)
	CoreID  uint32 // this core's id (CORE_ID, MHARTID)
	Cores   uint32 // NUM_CORES; 0 means 1
	// LocalMemBase is LOCAL_MEM_BASE (CSR 0xFC3).
	LocalMemBase uint32
	// MaxInstructions bounds the warp instructions one Run may issue (0: no bound),
	// so a runaway program ends with ErrBudget instead of hanging.
	MaxInstructions uint64
	// IPDOMDepth bounds the split/join stack per warp (0: 32).
	IPDOMDepth int
}

// CTA is the per-warp launch context the KMU lands in the CTA CSRs (0xCD0-0xCE1).
// spec: vortex-hardware-facts.md §6, §9.9
type CTA struct {
	ID, Rank, Size uint32    // CTA_ID, CTA_RANK (warp index in the CTA), CTA_SIZE (warps)
	ThreadIdx      [3]uint32 // the warp's first thread's index in the block
	BlockIdx       [3]uint32
	BlockDim       [3]uint32
	GridDim        [3]uint32
	LMemAddr       uint32
	ClusterSize    uint32
	Entry          uint32 // CTA_ENTRY: the kernel function (KERNEL_ENTRY)
}

// FragSource supplies a fragment warp's FRAG_POS and FRAG_PID launch registers
// (CSRs 0xCE2/0xCE3), per lane. spec: vortexpipe-driver.md §2.2 (emit_vx_frag_payload)
type FragSource interface {
	FragPos(lane int) uint32
	FragPID(lane int) uint32
}

// Graphics serves the Vortex graphics instructions. A core without one refuses
// vx_tex and vx_om_export as illegal instructions.
type Graphics interface {
	// Tex samples TEX stage at fixed-point (u, v) and lod, returning A8R8G8B8.
	Tex(warp, lane, stage int, u, v, lod uint32) (uint32, error)
	// OMExport submits a fragment at aperture address addr; flags is funct2
	// ({has_depth, has_colour}).
	OMExport(warp, lane int, addr, color, depth uint32, flags int) error
}

// Ebreak handles an ebreak (semihosting, for one). It is called once per active lane
// of the warp, in lane order; stop ends Run after the instruction.
type Ebreak interface {
	Ebreak(c *Core, warp, lane int) (stop bool, err error)
}

// ErrBudget is wrapped by the Fault a Run returns when MaxInstructions is reached.
var ErrBudget = errors.New("instruction budget exhausted")

// Fault is an execution error: it names PC, warp, lane and (for memory faults) the
// address.
type Fault struct {
	Kind string // "illegal instruction", "load", "store", "fetch", "budget", ...
	PC   uint32
	Warp int
	Lane int // -1 when not lane-specific
	Addr uint32
	Err  error
}

func (f *Fault) Error() string {
	lane := ""
	if f.Lane >= 0 {
		lane = fmt.Sprintf(", lane %d", f.Lane)
	}
	return fmt.Sprintf("simt: %s at pc 0x%08x (warp %d%s, address 0x%08x): %v", f.Kind, f.PC, f.Warp, lane, f.Addr, f.Err)
}

func (f *Fault) Unwrap() error { return f.Err }

type ipdomEntry struct {
	origMask uint32
	elsePC   uint32
	fallThru bool
}

// group is a suspended lane group of a warp diverged by an ordinary branch or an
// indirect jump: its pc, lanes and call depth.
type group struct {
	pc, mask uint32
	depth    int32
}

// prio orders lane groups for scheduling: the deepest call depth first, then the
// lowest pc. Higher values run first.
func prio(depth int32, pc uint32) uint64 {
	return uint64(uint32(depth)^0x80000000)<<32 | uint64(^pc)
}

func (g group) prio() uint64 { return prio(g.depth, g.pc) }

// warp is one warp's architectural state.
type warp struct {
	pc       uint32
	mask     uint32 // the running lane group
	active   bool
	blocked  bool // waiting at a barrier
	x, f     []uint32
	fcsr     uint32
	ipdom    []ipdomEntry
	pending  []group // suspended lane groups (implicit divergence)
	maxPend  uint64  // the highest prio among pending groups
	depth    int32   // call depth of the running group (calls +1, returns -1)
	mscratch uint32
	cta      CTA
	frag     FragSource
	csrs     map[uint16]uint32 // plain machine CSR storage (mstatus, mtvec, ...)
	resv     []uint32          // LR reservation address per lane
	resvVal  []uint32          // the value each lane's LR read (SharedMemory's SC check)
	resvOK   uint32            // lanes holding a reservation
	instret  uint64
	start    uint64 // core cycle at Start
	end      uint64 // core cycle when it halted
}

// Core is one SIMT core: Warps × Threads lanes executing RV32IMAF plus the Vortex
// extensions over a Memory. It is not safe for concurrent use; run one Core per
// goroutine.
type Core struct {
	cfg      Config
	mem      Memory
	Graphics Graphics
	Ebreak   Ebreak
	// Trace, when set, is called before each instruction issues (a debugging aid).
	Trace    func(warp int, pc uint32)
	warps    []warp
	cycle    uint64 // instructions issued by the core (one per cycle)
	threadIn uint64 // thread-instructions executed
	barriers map[uint32]*barrier
	lanes    uint32 // every lane of a warp
	limit    uint64 // MaxInstructions, or no limit
	code     codeCache
	stopped  bool
}

type barrier struct {
	count   uint32
	arrived uint32 // warp mask
}

// New returns a core with every warp inactive.
func New(cfg Config, mem Memory) (*Core, error) {
	if cfg.Warps < 1 || cfg.Warps > 32 {
		return nil, fmt.Errorf("simt: %d warps per core: want 1..32", cfg.Warps)
	}
	if cfg.Threads < 1 || cfg.Threads > 32 {
		return nil, fmt.Errorf("simt: %d threads per warp: want 1..32", cfg.Threads)
	}
	if mem == nil {
		return nil, errors.New("simt: nil memory")
	}
	if cfg.Cores == 0 {
		cfg.Cores = 1
	}
	if cfg.IPDOMDepth == 0 {
		cfg.IPDOMDepth = 32
	}
	c := &Core{cfg: cfg, mem: mem, warps: make([]warp, cfg.Warps), barriers: map[uint32]*barrier{}}
	c.code.init()
	c.lanes = uint32(1<<cfg.Threads - 1)
	c.limit = cfg.MaxInstructions
	if c.limit == 0 {
		c.limit = ^uint64(0)
	}
	for i := range c.warps {
		w := &c.warps[i]
		w.x = make([]uint32, 32*cfg.Threads)
		w.f = make([]uint32, 32*cfg.Threads)
		w.resv = make([]uint32, cfg.Threads)
		w.resvVal = make([]uint32, cfg.Threads)
		w.csrs = map[uint16]uint32{}
	}
	return c, nil
}

// Config returns the core's configuration.
func (c *Core) Config() Config { return c.cfg }

// Memory returns the core's memory.
func (c *Core) Memory() Memory { return c.mem }

func (c *Core) warpAt(w int) (*warp, error) {
	if w < 0 || w >= len(c.warps) {
		return nil, fmt.Errorf("simt: warp %d out of range (core has %d)", w, len(c.warps))
	}
	return &c.warps[w], nil
}

// Start activates warp w at pc with thread mask mask (bit i = lane i). Registers
// keep their values; the divergence and split/join state is cleared.
func (c *Core) Start(w int, pc, mask uint32) error {
	wp, err := c.warpAt(w)
	if err != nil {
		return err
	}
	mask &= c.laneMask()
	if mask == 0 {
		return fmt.Errorf("simt: start warp %d with an empty thread mask", w)
	}
	wp.pc, wp.mask, wp.active, wp.blocked = pc, mask, true, false
	wp.ipdom, wp.pending, wp.maxPend, wp.depth = wp.ipdom[:0], wp.pending[:0], 0, 0
	wp.start = c.cycle
	c.stopped = false
	return nil
}

func (c *Core) laneMask() uint32 { return c.lanes }

// SetMScratch sets warp w's mscratch, which holds the kernel argument pointer.
func (c *Core) SetMScratch(w int, v uint32) error {
	wp, err := c.warpAt(w)
	if err == nil {
		wp.mscratch = v
	}
	return err
}

// SetCTA sets warp w's CTA CSRs.
func (c *Core) SetCTA(w int, cta CTA) error {
	wp, err := c.warpAt(w)
	if err == nil {
		wp.cta = cta
	}
	return err
}

// SetFrag sets warp w's FRAG_POS/FRAG_PID source (nil: the CSRs read 0).
func (c *Core) SetFrag(w int, src FragSource) error {
	wp, err := c.warpAt(w)
	if err == nil {
		wp.frag = src
	}
	return err
}

// Reg returns integer register r of (warp, lane); w, lane and r must be in range.
func (c *Core) Reg(w, lane, r int) uint32 { return c.warps[w].x[r*c.cfg.Threads+lane] }

// SetReg sets integer register r of (warp, lane) (a launcher's argument registers,
// a stack pointer); writes to x0 are ignored; w, lane and r must be in range.
func (c *Core) SetReg(w, lane, r int, v uint32) {
	if r != 0 {
		c.warps[w].x[r*c.cfg.Threads+lane] = v
	}
}

// FReg returns the bits of float register r of (warp, lane); all must be in range.
func (c *Core) FReg(w, lane, r int) uint32 { return c.warps[w].f[r*c.cfg.Threads+lane] }

// PC returns warp w's program counter.
func (c *Core) PC(w int) uint32 { return c.warps[w].pc }

// Active reports whether warp w still runs.
func (c *Core) Active(w int) bool { return c.warps[w].active }

// WarpStats are one warp's counters.
type WarpStats struct {
	Instret uint64 // minstret: instructions the warp retired
	Cycles  uint64 // mcycle span: core cycles from Start to halt (or to now)
}

// Stats returns warp w's counters.
func (c *Core) Stats(w int) WarpStats {
	wp := &c.warps[w]
	end := wp.end
	if wp.active {
		end = c.cycle
	}
	return WarpStats{Instret: wp.instret, Cycles: end - wp.start}
}

// SetBudget bounds the instructions the core may issue from now on to n (0: no
// bound), replacing Config.MaxInstructions: a launcher that reuses one core for
// many CTAs (keeping its decoded-instruction cache) gives each its own budget.
func (c *Core) SetBudget(n uint64) {
	c.limit = ^uint64(0)
	if n != 0 && c.cycle+n > c.cycle {
		c.limit = c.cycle + n
	}
}

// Cycles returns the core's cycle count (one instruction issued per cycle).
func (c *Core) Cycles() uint64 { return c.cycle }

// ThreadInstructions returns the lane-instructions executed so far.
func (c *Core) ThreadInstructions() uint64 { return c.threadIn }

// quantum is how many instructions a warp issues before the scheduler moves on
// (round-robin in warp order, so the interleaving is deterministic).
const quantum = 64

// Run executes until every warp has halted, an Ebreak handler stops the core, or a
// fault. A barrier every active warp waits at is a deadlock error.
func (c *Core) Run() error {
	for !c.stopped {
		progressed, anyActive := false, false
		for i := range c.warps {
			w := &c.warps[i]
			if !w.active {
				continue
			}
			anyActive = true
			if w.blocked {
				continue
			}
			progressed = true
			if err := c.runWarp(i, w); err != nil {
				return err
			}
			if c.stopped {
				return nil
			}
		}
		if !anyActive {
			return nil
		}
		if !progressed {
			return &Fault{Kind: "barrier deadlock", PC: c.warps[0].pc, Lane: -1, Err: errors.New("every active warp waits at a barrier")}
		}
	}
	return nil
}

func (c *Core) runWarp(wi int, w *warp) error {
	for n := 0; n < quantum; n++ {
		if c.cycle >= c.limit {
			return &Fault{Kind: "budget", PC: w.pc, Warp: wi, Lane: -1, Addr: w.pc, Err: fmt.Errorf("%w after %d instructions", ErrBudget, c.cycle)}
		}
		if len(w.pending) != 0 && w.maxPend >= prio(w.depth, w.pc) {
			c.reconverge(w)
		}
		// The decoded-instruction cache's hit path, inline; fetch does the rest.
		var in *rv32.Inst
		if cc := &c.code; w.pc>>pageShift == cc.lastKey && cc.last.valid[w.pc>>2&(1<<(pageShift-2)-1)] {
			in = &cc.last.insts[w.pc>>2&(1<<(pageShift-2)-1)]
		} else {
			var err error
			if in, err = c.fetch(wi, w.pc); err != nil {
				return err
			}
		}
		if c.Trace != nil {
			c.Trace(wi, w.pc)
		}
		c.threadIn += uint64(bits.OnesCount32(w.mask))
		op := in.Op
		if err := c.exec(wi, w, in); err != nil {
			return err
		}
		// Counted after execution: a CSR read of minstret/mcycle sees the
		// instructions before it.
		c.cycle++
		w.instret++
		// Only warp control and ebreak halt, block or stop a warp.
		if op.IsWarpControl() || op == rv32.EBREAK {
			if !w.active {
				w.end = c.cycle
			}
			if !w.active || w.blocked || c.stopped {
				return nil
			}
		}
	}
	return nil
}

// reconverge runs when a suspended lane group has at least the running group's
// priority: a group at the same pc and call depth merges into the running one;
// a higher-priority group runs instead (the running one is suspended).
func (c *Core) reconverge(w *warp) {
	for len(w.pending) > 0 {
		k := w.bestPending()
		g := w.pending[k]
		cur := prio(w.depth, w.pc)
		switch {
		case g.prio() == cur:
			w.mask |= g.mask
			w.pending = append(w.pending[:k], w.pending[k+1:]...)
		case g.prio() > cur:
			w.pending[k] = group{w.pc, w.mask, w.depth}
			w.pc, w.mask, w.depth = g.pc, g.mask, g.depth
		default:
			return
		}
		w.maxPend = w.maxPrio()
	}
}

func (w *warp) bestPending() int {
	k := 0
	for i := range w.pending {
		if w.pending[i].prio() > w.pending[k].prio() {
			k = i
		}
	}
	return k
}

func (w *warp) maxPrio() uint64 {
	var m uint64
	for _, g := range w.pending {
		m = max(m, g.prio())
	}
	return m
}

// diverge suspends the lanes of other at otherPC and keeps the rest of the running
// group at runPC; the next step's reconverge check switches to whichever group has
// the higher priority.
func (w *warp) diverge(runPC, otherPC, other uint32) {
	w.pc, w.mask = runPC, w.mask&^other
	g := group{otherPC, other, w.depth}
	w.pending = append(w.pending, g)
	w.maxPend = max(w.maxPend, g.prio())
}

// haltGroup ends the running lane group; the highest-priority suspended group
// takes over, or the warp halts.
func (c *Core) haltGroup(w *warp) {
	if len(w.pending) == 0 {
		w.active = false
		w.mask = 0
		return
	}
	k := w.bestPending()
	g := w.pending[k]
	w.pc, w.mask, w.depth = g.pc, g.mask, g.depth
	w.pending = append(w.pending[:k], w.pending[k+1:]...)
	w.maxPend = w.maxPrio()
}

func (w *warp) pendingLanes() uint32 {
	var m uint32
	for _, g := range w.pending {
		m |= g.mask
	}
	return m
}

// Stop makes Run return after the current instruction (an Ebreak handler's exit).
func (c *Core) Stop() { c.stopped = true }

// lastLane is the highest active lane: warp-uniform operands (tmc, wspawn, bar,
// join) come from it, as in SimX.
func lastLane(mask uint32) int { return 31 - bits.LeadingZeros32(mask) }
