package device

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"

	"vortexgfx/device/mem"
)

// Kernel is a device kernel: a Go function that runs one CTA. It executes the CTA's
// threads phase by phase with CTA.ForEachThread; the return between two phases is the
// barrier (spec: ARCHITECTURE "Kernels": a CTA runs its threads stage by stage, so a
// barrier is a phase boundary). Memory faults are recorded by the CTA and end the
// launch with an error; a kernel may also return an error of its own.
type Kernel func(c *CTA) error

// BlobLoader turns a compiled-shader blob (an image entry of kind abi.KernelBlob) into
// a kernel. Compiled shaders join the launch path through it.
type BlobLoader func(blob []byte) (Kernel, error)

// Library is the set of Go kernels a device can run, by name. Images name library
// kernels in their entry stubs (abi.KernelLibrary). Build it before creating the
// device; the device only reads it.
type Library struct {
	kernels map[string]Kernel
	blob    BlobLoader
}

// NewLibrary returns an empty kernel library.
func NewLibrary() *Library { return &Library{kernels: make(map[string]Kernel)} }

// Register adds kernel k under name. It fails on an empty, over-long or duplicate name.
func (l *Library) Register(name string, k Kernel) error {
	if name == "" || len(name) > 255 {
		return fmt.Errorf("device: kernel name %q: want 1..255 bytes", name)
	}
	if k == nil {
		return fmt.Errorf("device: kernel %q is nil", name)
	}
	if _, dup := l.kernels[name]; dup {
		return fmt.Errorf("device: kernel %q registered twice", name)
	}
	l.kernels[name] = k
	return nil
}

// SetBlobLoader installs the loader for compiled-shader blobs.
func (l *Library) SetBlobLoader(b BlobLoader) { l.blob = b }

// Lookup returns the kernel registered under name.
func (l *Library) Lookup(name string) (Kernel, bool) {
	k, ok := l.kernels[name]
	return k, ok
}

// Names lists the registered kernels in sorted order.
func (l *Library) Names() []string {
	out := make([]string, 0, len(l.kernels))
	for n := range l.kernels {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrFault wraps every device-memory fault a kernel takes.
var ErrFault = errors.New("device memory fault")

// CTA is the context of one cooperative thread array (or of one fragment wave) while
// its kernel runs. It is owned by the goroutine running its core's share (or wave);
// kernels must not keep it.
// spec: vortex-hardware-facts §1.4 (the launch geometry), rasterizer §9.3 (a fragment
// wave is a degenerate 1-warp CTA)
type CTA struct {
	BlockIdx   [3]uint32 // this CTA's index in the grid
	BlockDim   [3]uint32
	GridDim    [3]uint32
	ClusterDim [3]uint32
	Threads    int    // threads in the CTA (BLOCK_SIZE; lanes of a fragment wave)
	WarpWidth  int    // threads per warp
	Core       int    // the core running the CTA
	Args       uint64 // argument block address (STARTUP_ARG, or FRAG_PARAM for fragments)
	// LMem is the CTA's local memory: LMEM_SIZE bytes, zeroed at CTA start.
	LMem []byte
	// Fragment launch registers of each lane (rasterizer §9.3); nil for compute CTAs.
	fragPos, fragPID []uint32

	slot    int // this CTA's gfxFrame.cores entry (its core's, or its walker's for that core)
	mem     Memory
	words   wordMemory  // mem's word accessors when it has them (nil otherwise)
	wins    *mem.Memory // mem's own memory when it lends allocation windows (nil otherwise)
	win     [ctaWindows]mem.Window
	nwin    int // valid entries of win, all taken from one allocation map
	lastWin int // the entry that served the last access
	nextWin int // the entry a new window replaces once all are in use
	dev     *Device
	err     error
	phases  uint64
	barrier uint64
	memOps  uint64
	invoc   uint64
	scratch [8]byte

	// Machine-code CTAs (isa.go): the core's SIMT cores by code address, and what
	// the CTA's core issued.
	isa                                 map[uint32]*isaRunner
	isaRun                              bool
	isaCycles, isaInstr, isaThreadInstr uint64
	fragMem                             []byte // a fragment wave's local memory for machine code (isafrag.go)

	// Cross-wave batching (graphics_batch.go): the raster worker's staged
	// waves (nil where waves cannot stage), and whether the running wave
	// staged, under which index.
	batch      *waveBatch
	staged     bool
	stageIndex int
}

// Warps is the number of warps the CTA occupies.
func (c *CTA) Warps() int { return (c.Threads + c.WarpWidth - 1) / c.WarpWidth }

// ThreadIdx returns the {x, y, z} index of thread tid in the block.
func (c *CTA) ThreadIdx(tid int) [3]uint32 {
	t := uint32(tid)
	bx, by := c.BlockDim[0], c.BlockDim[1]
	return [3]uint32{t % bx, t / bx % by, t / (bx * by)}
}

// GlobalID returns the flat x index blockIdx.x*blockDim.x + threadIdx.x of thread tid,
// the usual index of a 1-D launch.
func (c *CTA) GlobalID(tid int) uint64 {
	return uint64(c.BlockIdx[0])*uint64(c.BlockDim[0]) + uint64(c.ThreadIdx(tid)[0])
}

// ForEachThread runs one phase: fn for every thread in order. The end of the call is
// a barrier. It stops early once a fault has been recorded.
func (c *CTA) ForEachThread(fn func(tid int)) {
	c.phases++
	for tid := 0; tid < c.Threads && c.err == nil; tid++ {
		fn(tid)
		c.invoc++
	}
}

// Barrier marks an explicit barrier between phases (it only counts: phases already
// run one after another).
func (c *CTA) Barrier() { c.barrier++ }

// Err returns the first fault recorded by the CTA.
func (c *CTA) Err() error { return c.err }

// Fail records err as the CTA's failure (the first one wins).
func (c *CTA) Fail(err error) {
	if c.err == nil && err != nil {
		c.err = err
	}
}

func (c *CTA) fault(op string, addr uint64, err error) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: %s at 0x%x: %v", ErrFault, op, addr, err)
	}
}

// FragPos returns lane's FRAG_POS launch register (rasterizer §11); 0 for compute CTAs.
func (c *CTA) FragPos(lane int) uint32 {
	if lane < len(c.fragPos) {
		return c.fragPos[lane]
	}
	return 0
}

// FragPID returns lane's FRAG_PID launch register; 0 for compute CTAs.
func (c *CTA) FragPID(lane int) uint32 {
	if lane < len(c.fragPID) {
		return c.fragPID[lane]
	}
	return 0
}

// IsFragment reports whether the CTA is a fragment wave.
func (c *CTA) IsFragment() bool { return c.fragPos != nil }

// Runner is the index of the host goroutine running the CTA: its core for a
// launched CTA, its raster worker's entry for that core for a fragment wave.
// No two CTAs running at the same time on one device share it, so a kernel
// can shard host-side caches by it (a hint only: a kernel's results must not
// depend on it, and CTAs of different devices may share it).
func (c *CTA) Runner() int { return c.slot }

// Read copies device memory at addr into p.
func (c *CTA) Read(addr uint64, p []byte) {
	c.memOps++
	if c.wins != nil && len(p) > 0 {
		if b := c.direct(addr, len(p)); b != nil {
			copy(p, b)
			return
		}
	}
	if err := c.mem.Read(addr, p); err != nil {
		c.fault("read", addr, err)
	}
}

// Write copies p to device memory at addr.
func (c *CTA) Write(addr uint64, p []byte) {
	c.memOps++
	if c.wins != nil && len(p) > 0 {
		if b := c.direct(addr, len(p)); b != nil {
			copy(b, p)
			return
		}
	}
	if err := c.mem.Write(addr, p); err != nil {
		c.fault("write", addr, err)
	}
}

// wordMemory is a Memory with little-endian word accessors (package mem's
// *Device has them): the CTA's word loads and stores use them instead of a byte
// copy. They fail exactly as Read and Write of the same 4 or 8 bytes do.
type wordMemory interface {
	ReadU32(addr uint64) (uint32, error)
	ReadU64(addr uint64) (uint64, error)
	WriteU32(addr uint64, v uint32) error
	WriteU64(addr uint64, v uint64) error
}

// ctaWindows is how many allocations a CTA keeps direct windows on: a kernel
// typically streams several buffers at once (indices, vertices, slots, outputs).
const ctaWindows = 8

// setMemory points the CTA at m (and at its windows and word accessors when it
// has them: package mem's *Device).
func (c *CTA) setMemory(m Memory) {
	c.mem = m
	c.words, _ = m.(wordMemory)
	c.wins, c.nwin, c.lastWin, c.nextWin = nil, 0, 0, 0
	if d, ok := m.(*mem.Device); ok {
		c.wins = &d.Memory
	}
}

// inWindow returns the n bytes at addr when window i holds addr, and whether
// it does (nil with true: the bytes run past its allocation's end).
func (c *CTA) inWindow(i int, addr uint64, n int) ([]byte, bool) {
	w := &c.win[i]
	off := addr - w.Base
	if addr < w.Base || off >= uint64(len(w.Data)) {
		return nil, false
	}
	if uint64(n) > uint64(len(w.Data))-off {
		return nil, true
	}
	return w.Data[off : off+uint64(n) : off+uint64(n)], true
}

// direct returns the n bytes at addr through the CTA's windows (all taken from
// the current allocation map; a new one replaces the oldest), or nil when the
// bytes do not lie inside one allocation: the memory's own access then
// reports the fault exactly.
func (c *CTA) direct(addr uint64, n int) []byte {
	if c.nwin > 0 && !c.wins.Current(&c.win[0]) {
		c.nwin, c.lastWin, c.nextWin = 0, 0, 0 // the allocation map changed
	}
	if c.lastWin < c.nwin {
		if b, ok := c.inWindow(c.lastWin, addr, n); ok {
			return b
		}
	}
	for i := 0; i < c.nwin; i++ {
		if b, ok := c.inWindow(i, addr, n); ok {
			c.lastWin = i
			return b
		}
	}
	nw, ok := c.wins.Window(addr)
	if !ok {
		return nil
	}
	if c.nwin > 0 && !nw.SameMap(&c.win[0]) {
		c.nwin, c.nextWin = 0, 0
	}
	i := c.nwin
	if i < ctaWindows {
		c.nwin++
	} else {
		i, c.nextWin = c.nextWin, (c.nextWin+1)%ctaWindows
	}
	c.win[i], c.lastWin = nw, i
	b, _ := c.inWindow(i, addr, n)
	return b
}

// ReadU32 loads a little-endian word (0 after a fault).
func (c *CTA) ReadU32(addr uint64) uint32 {
	if c.wins != nil {
		if b := c.direct(addr, 4); b != nil {
			c.memOps++
			if c.err != nil {
				return 0
			}
			return binary.LittleEndian.Uint32(b)
		}
	}
	if c.words != nil {
		c.memOps++
		v, err := c.words.ReadU32(addr)
		if err != nil {
			c.fault("read", addr, err)
		}
		if c.err != nil {
			return 0
		}
		return v
	}
	b := c.scratch[:4]
	c.Read(addr, b)
	if c.err != nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// WriteU32 stores a little-endian word.
func (c *CTA) WriteU32(addr uint64, v uint32) {
	if c.wins != nil {
		if b := c.direct(addr, 4); b != nil {
			c.memOps++
			binary.LittleEndian.PutUint32(b, v)
			return
		}
	}
	if c.words != nil {
		c.memOps++
		if err := c.words.WriteU32(addr, v); err != nil {
			c.fault("write", addr, err)
		}
		return
	}
	b := c.scratch[:4]
	binary.LittleEndian.PutUint32(b, v)
	c.Write(addr, b)
}

// ReadU64 loads a little-endian doubleword.
func (c *CTA) ReadU64(addr uint64) uint64 {
	if c.wins != nil {
		if b := c.direct(addr, 8); b != nil {
			c.memOps++
			if c.err != nil {
				return 0
			}
			return binary.LittleEndian.Uint64(b)
		}
	}
	if c.words != nil {
		c.memOps++
		v, err := c.words.ReadU64(addr)
		if err != nil {
			c.fault("read", addr, err)
		}
		if c.err != nil {
			return 0
		}
		return v
	}
	b := c.scratch[:8]
	c.Read(addr, b)
	if c.err != nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// WriteU64 stores a little-endian doubleword.
func (c *CTA) WriteU64(addr uint64, v uint64) {
	if c.wins != nil {
		if b := c.direct(addr, 8); b != nil {
			c.memOps++
			binary.LittleEndian.PutUint64(b, v)
			return
		}
	}
	if c.words != nil {
		c.memOps++
		if err := c.words.WriteU64(addr, v); err != nil {
			c.fault("write", addr, err)
		}
		return
	}
	b := c.scratch[:8]
	binary.LittleEndian.PutUint64(b, v)
	c.Write(addr, b)
}

// ReadF32 loads an IEEE single.
func (c *CTA) ReadF32(addr uint64) float32 { return math.Float32frombits(c.ReadU32(addr)) }

// WriteF32 stores an IEEE single.
func (c *CTA) WriteF32(addr uint64, v float32) { c.WriteU32(addr, math.Float32bits(v)) }

// Arg returns the i-th 64-bit slot of the argument block.
func (c *CTA) Arg(i int) uint64 { return c.ReadU64(c.Args + uint64(i)*8) }

// AtomicAddU32 adds v to the word at addr and returns the old value. It is atomic
// across cores (the device serialises it), so totals do not depend on scheduling.
func (c *CTA) AtomicAddU32(addr uint64, v uint32) uint32 {
	c.dev.atomicMu.Lock()
	defer c.dev.atomicMu.Unlock()
	old := c.ReadU32(addr)
	if c.err == nil {
		c.WriteU32(addr, old+v)
	}
	return old
}

// AtomicAddU32s adds vals[k] to word k at addr for every non-zero vals[k],
// each as one AtomicAddU32 (same bytes, same counted reads and writes, the
// same faults), under one hold of the device's atomic
// lock: a CTA flushing a block of counters (the FS wrapper's, setup_k's)
// takes the lock once, not once per word, so cores running side by side do
// not queue on it word by word. Totals do not depend on scheduling.
func (c *CTA) AtomicAddU32s(addr uint64, vals []uint32) {
	c.dev.atomicMu.Lock()
	defer c.dev.atomicMu.Unlock()
	for k, v := range vals {
		if v == 0 {
			continue
		}
		a := addr + 4*uint64(k)
		if old := c.ReadU32(a); c.err == nil {
			c.WriteU32(a, old+v)
		}
	}
}

// LMemU32 loads a word of local memory (0 and a fault when out of range).
func (c *CTA) LMemU32(off int) uint32 {
	if off < 0 || off+4 > len(c.LMem) {
		c.fault("local read", uint64(off), fmt.Errorf("outside LMEM_SIZE %d", len(c.LMem)))
		return 0
	}
	return binary.LittleEndian.Uint32(c.LMem[off:])
}

// SetLMemU32 stores a word of local memory.
func (c *CTA) SetLMemU32(off int, v uint32) {
	if off < 0 || off+4 > len(c.LMem) {
		c.fault("local write", uint64(off), fmt.Errorf("outside LMEM_SIZE %d", len(c.LMem)))
		return
	}
	binary.LittleEndian.PutUint32(c.LMem[off:], v)
}
