// Package mem models the two address spaces the command processor reaches: pinned
// host memory (the CP's axi_host port: ring, head and completion slots, DMA sources
// and destinations, profile records) and device memory (axi_dev: DMA, event counters,
// QMD and draw descriptors, everything the GPU touches). It also implements the
// Sv32/Sv39 page-table walk of the emulation CP's MMU-aware DMA.
//
// Memory exists only inside allocations. An access outside any allocation, or one
// that straddles an allocation's end, returns a *Fault naming the space, address and
// size; it never panics and never writes anything.
//
// spec: command-processor §3.1 (dual AXI topology), §8, §9 (host_mem_alloc)
package mem

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
)

// Space names an address space. spec: command-processor §3.1
type Space uint8

// The two address spaces.
const (
	HostSpace   Space = iota // pinned host memory (axi_host)
	DeviceSpace              // device memory (axi_dev)
)

// String returns "host" or "device".
func (s Space) String() string {
	if s == DeviceSpace {
		return "device"
	}
	return "host"
}

// Fault is an access outside any allocation (or straddling an allocation's end).
type Fault struct {
	Space Space
	Addr  uint64
	Size  uint64
	Write bool
}

// Error names the space, direction, address and size.
func (f *Fault) Error() string {
	dir := "read"
	if f.Write {
		dir = "write"
	}
	return fmt.Sprintf("mem: %s %s of %d bytes at %#x outside any allocation", f.Space, dir, f.Size, f.Addr)
}

// Sentinel errors of the allocator; callers branch on them with errors.Is.
var (
	ErrOutOfMemory = errors.New("mem: out of memory")
	ErrBadFree     = errors.New("mem: free of an address that is not an allocation's base")
	ErrBadAlloc    = errors.New("mem: bad allocation request")
	ErrOccupied    = errors.New("mem: fixed-address allocation overlaps an allocation or a reserved window")
)

// DefaultAlign is the alignment Alloc uses when align is 0: one cache line.
const DefaultAlign = 64

// Default address ranges. Host and device addresses never overlap, so a mixed-up
// operand faults instead of silently reading the other space.
const (
	DefaultHostBase   uint64 = 0x1_0000_0000 // 4 GiB
	DefaultHostSize   uint64 = 0x1_0000_0000 // 4 GiB of address space
	DefaultDeviceBase uint64 = 0x0001_0000   // keeps 0 and the first 64 KiB unmapped
	DefaultDeviceSize uint64 = 0xFFFE_0000   // below 4 GiB, so RV32 kernels reach it all
)

type region struct {
	base uint64
	data []byte
}

func (r *region) end() uint64 { return r.base + uint64(len(r.data)) }

// Memory is one address space: a set of allocations inside [base, base+size).
// Allocation bookkeeping is serialised by a mutex and published as an immutable
// snapshot, so data accesses never lock: goroutines touching disjoint ranges run in
// parallel (and -race clean); overlapping concurrent writes are the caller's race,
// exactly as on real memory.
type Memory struct {
	space Space
	base  uint64
	limit uint64 // one past the last usable address

	mu       sync.Mutex               // serialises Alloc/Free
	snap     atomic.Pointer[[]region] // sorted by base; replaced, never mutated
	used     atomic.Uint64
	capacity uint64 // bytes that may be allocated at once; 0 = the whole span
	reserved []span // windows Alloc never places into (AllocAt may); sorted, guarded by mu

	// recycle: freed large allocations keep their backing arrays in spare
	// (guarded by mu) for the next allocation of a similar size, which gets them
	// zeroed. Host memory does this: the runtime stages every large batch in a
	// fresh allocation, so a frame would otherwise allocate megabytes of garbage.
	recycle bool
	spare   [][]byte
}

// Recycling bounds: only allocations of at least recycleMin bytes are kept,
// at most recycleSlots of them, and one is reused only for a request of at
// least half its size.
const (
	recycleMin   = 256 << 10
	recycleSlots = 4
)

type span struct{ base, end uint64 }

func newMemory(space Space, base, size uint64) Memory {
	limit := base + size
	if limit < base {
		limit = ^uint64(0)
	}
	return Memory{space: space, base: base, limit: limit}
}

// Host is pinned host memory: what host_mem_alloc returns. Its addresses are the
// CP-visible addresses (the emulation CP's malloc pointer doubles as one).
// spec: command-processor §8, §9
type Host struct{ Memory }

// Device is device memory. Its allocator lives device-side: the runtime reaches it
// through its transport (the simulator backend calls Alloc/Free directly), never
// through CP commands. spec: command-processor §3.1
type Device struct{ Memory }

// NewHost returns an empty host space covering [base, base+size).
func NewHost(base, size uint64) *Host {
	h := &Host{newMemory(HostSpace, base, size)}
	h.recycle = true
	return h
}

// NewDevice returns an empty device space covering [base, base+size).
func NewDevice(base, size uint64) *Device { return &Device{newMemory(DeviceSpace, base, size)} }

// Space reports which address space m is.
func (m *Memory) Space() Space { return m.space }

// Used returns the bytes currently allocated.
func (m *Memory) Used() uint64 { return m.used.Load() }

func (m *Memory) regions() []region {
	if p := m.snap.Load(); p != nil {
		return *p
	}
	return nil
}

// Alloc reserves size zeroed bytes aligned to align (a power of two; 0 means
// DefaultAlign) and returns their address. It places the block first-fit.
func (m *Memory) Alloc(size, align uint64) (uint64, error) {
	if align == 0 {
		align = DefaultAlign
	}
	if size == 0 || bits.OnesCount64(align) != 1 {
		return 0, fmt.Errorf("%w: %s alloc of %d bytes aligned to %d", ErrBadAlloc, m.space, size, align)
	}
	if size > 1<<40 {
		return 0, fmt.Errorf("%w: %s alloc of %d bytes", ErrOutOfMemory, m.space, size)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkCapacity(size); err != nil {
		return 0, err
	}
	old := m.regions()
	// First fit over the gaps between allocations and reserved windows.
	blocked := make([]span, 0, len(old)+len(m.reserved))
	for _, r := range old {
		blocked = append(blocked, span{r.base, r.end()})
	}
	blocked = append(blocked, m.reserved...)
	sort.Slice(blocked, func(i, j int) bool { return blocked[i].base < blocked[j].base })
	cand := alignUp(m.base, align)
	found := false
	for i := 0; i <= len(blocked); i++ {
		if cand < m.base { // wrapped
			break
		}
		next := m.limit
		if i < len(blocked) {
			next = blocked[i].base
		}
		if cand <= next && next-cand >= size {
			found = true
			break
		}
		if i < len(blocked) && blocked[i].end > cand {
			cand = alignUp(blocked[i].end, align)
		}
	}
	if !found || cand < m.base || cand+size > m.limit || cand+size < cand {
		return 0, fmt.Errorf("%w: %s alloc of %d bytes aligned to %d (%d in use)", ErrOutOfMemory, m.space, size, align, m.used.Load())
	}
	m.insert(cand, size)
	return cand, nil
}

// insert publishes a new allocation; the caller holds mu and checked the range.
func (m *Memory) insert(base, size uint64) {
	old := m.regions()
	idx := sort.Search(len(old), func(i int) bool { return old[i].base > base })
	nw := make([]region, 0, len(old)+1)
	nw = append(nw, old[:idx]...)
	nw = append(nw, region{base: base, data: m.backing(size)})
	nw = append(nw, old[idx:]...)
	m.snap.Store(&nw)
	m.used.Add(size)
}

// backing returns size zeroed bytes for a new allocation: a recycled array when
// one fits, else a fresh one. The caller holds mu.
func (m *Memory) backing(size uint64) []byte {
	if m.recycle && size >= recycleMin {
		best := -1
		for i, b := range m.spare {
			if c := uint64(cap(b)); c >= size && c/2 <= size && (best < 0 || c < uint64(cap(m.spare[best]))) {
				best = i
			}
		}
		if best >= 0 {
			b := m.spare[best][:size]
			m.spare = append(m.spare[:best], m.spare[best+1:]...)
			clear(b)
			return b
		}
	}
	return make([]byte, size)
}

// keep offers a freed allocation's bytes for recycling; the caller holds mu.
func (m *Memory) keep(b []byte) {
	if !m.recycle || len(b) < recycleMin {
		return
	}
	if len(m.spare) == recycleSlots {
		copy(m.spare, m.spare[1:]) // drop the oldest
		m.spare = m.spare[:recycleSlots-1]
	}
	m.spare = append(m.spare, b)
}

func (m *Memory) checkCapacity(size uint64) error {
	if m.capacity != 0 && (size > m.capacity || m.used.Load() > m.capacity-size) {
		return fmt.Errorf("%w: %s alloc of %d bytes with %d of %d in use", ErrOutOfMemory, m.space, size, m.used.Load(), m.capacity)
	}
	return nil
}

// AllocAt reserves size zeroed bytes at the fixed address addr, for images linked at
// a fixed base (vortexpipe §2.4: the FS/compute, front-end and VS link bases). It may
// place into a reserved window but fails with ErrOccupied when the range overlaps an
// allocation, and with ErrBadAlloc when it leaves the space.
// spec: vortexpipe §2.4, vortex-hardware-facts §6
func (m *Memory) AllocAt(addr, size uint64) error {
	if size == 0 || size > 1<<40 || addr < m.base || addr+size > m.limit || addr+size < addr {
		return fmt.Errorf("%w: %s fixed alloc of %d bytes at %#x outside [%#x, %#x)", ErrBadAlloc, m.space, size, addr, m.base, m.limit)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkCapacity(size); err != nil {
		return err
	}
	for _, r := range m.regions() {
		if r.base < addr+size && addr < r.end() {
			return fmt.Errorf("%w: %s [%#x, %#x) overlaps the allocation at %#x", ErrOccupied, m.space, addr, addr+size, r.base)
		}
	}
	m.insert(addr, size)
	return nil
}

// Reserve keeps Alloc out of [base, base+size): only AllocAt places there. The
// simulator reserves the module link window this way, so ordinary buffers never sit
// where a module must load. Reserving over existing allocations is allowed.
func (m *Memory) Reserve(base, size uint64) error {
	if size == 0 || base+size < base {
		return fmt.Errorf("%w: %s reserve of %d bytes at %#x", ErrBadAlloc, m.space, size, base)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved = append(m.reserved, span{base, base + size})
	sort.Slice(m.reserved, func(i, j int) bool { return m.reserved[i].base < m.reserved[j].base })
	return nil
}

// SetCapacity limits the bytes allocated at once to n (0 = no limit beyond the
// address span), so a space can span more addresses than it has memory: the
// simulator's device space covers the module link window above its configured size.
func (m *Memory) SetCapacity(n uint64) {
	m.mu.Lock()
	m.capacity = n
	m.mu.Unlock()
}

// Free releases the allocation whose base is addr.
func (m *Memory) Free(addr uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.regions()
	i := sort.Search(len(old), func(i int) bool { return old[i].base >= addr })
	if i == len(old) || old[i].base != addr {
		return fmt.Errorf("%w: %s address %#x", ErrBadFree, m.space, addr)
	}
	nw := make([]region, 0, len(old)-1)
	nw = append(nw, old[:i]...)
	nw = append(nw, old[i+1:]...)
	m.snap.Store(&nw)
	m.used.Add(^uint64(len(old[i].data) - 1))
	m.keep(old[i].data)
	return nil
}

// Lookup returns the allocation containing addr.
func (m *Memory) Lookup(addr uint64) (base, size uint64, ok bool) {
	r := m.find(addr)
	if r == nil {
		return 0, 0, false
	}
	return r.base, uint64(len(r.data)), true
}

func (m *Memory) find(addr uint64) *region { return find(m.regions(), addr) }

// find returns the region of rs (sorted by base) containing addr, or nil.
func find(rs []region, addr uint64) *region {
	// The last region whose base is <= addr (a hand-rolled sort.Search: this
	// runs on every access).
	lo, hi := 0, len(rs)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if rs[h].base <= addr {
			lo = h + 1
		} else {
			hi = h
		}
	}
	i := lo - 1
	if i < 0 || addr >= rs[i].end() {
		return nil
	}
	return &rs[i]
}

// slice returns the n bytes at addr, which must lie inside one allocation.
func (m *Memory) slice(addr, n uint64, write bool) ([]byte, error) {
	r := m.find(addr)
	if r == nil || n > r.end()-addr {
		return nil, &Fault{Space: m.space, Addr: addr, Size: n, Write: write}
	}
	off := addr - r.base
	return r.data[off : off+n : off+n], nil
}

// Window is a direct view of one whole allocation, tied to the allocation map
// it was taken from: while Current reports true, the allocation is still there
// and every access inside [Base, Base+len(Data)) may use Data instead of a
// lookup. A core keeps one for the buffer it is working through.
type Window struct {
	snap *[]region
	Base uint64
	Data []byte
}

// Window returns the window of the allocation containing addr.
func (m *Memory) Window(addr uint64) (Window, bool) {
	p := m.snap.Load()
	if p == nil {
		return Window{}, false
	}
	r := find(*p, addr)
	if r == nil {
		return Window{}, false
	}
	return Window{snap: p, Base: r.base, Data: r.data}, true
}

// SameMap reports whether w and o were taken from one allocation map.
func (w *Window) SameMap(o *Window) bool { return w.snap == o.snap }

// Current reports whether w was taken from m's current allocation map (no
// Alloc or Free since), so that its allocation still exists as viewed.
func (m *Memory) Current(w *Window) bool { return w.snap != nil && m.snap.Load() == w.snap }

// View returns a direct slice of the n bytes at addr inside one allocation, for the
// fixed-function units' hot paths (take a view once per buffer, not per pixel).
func (m *Memory) View(addr uint64, n int) ([]byte, error) {
	if n < 0 {
		return nil, &Fault{Space: m.space, Addr: addr, Size: uint64(n)}
	}
	return m.slice(addr, uint64(n), false)
}

// Read copies len(p) bytes at addr into p.
func (m *Memory) Read(addr uint64, p []byte) error {
	if len(p) == 0 {
		return nil
	}
	b, err := m.slice(addr, uint64(len(p)), false)
	if err != nil {
		return err
	}
	copy(p, b)
	return nil
}

// Write copies p to addr.
func (m *Memory) Write(addr uint64, p []byte) error {
	if len(p) == 0 {
		return nil
	}
	b, err := m.slice(addr, uint64(len(p)), true)
	if err != nil {
		return err
	}
	copy(b, p)
	return nil
}

// ReadU32 reads a little-endian uint32.
func (m *Memory) ReadU32(addr uint64) (uint32, error) {
	b, err := m.slice(addr, 4, false)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// ReadU64 reads a little-endian uint64.
func (m *Memory) ReadU64(addr uint64) (uint64, error) {
	b, err := m.slice(addr, 8, false)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// WriteU32 writes a little-endian uint32.
func (m *Memory) WriteU32(addr uint64, v uint32) error {
	b, err := m.slice(addr, 4, true)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(b, v)
	return nil
}

// WriteU64 writes a little-endian uint64.
func (m *Memory) WriteU64(addr uint64, v uint64) error {
	b, err := m.slice(addr, 8, true)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(b, v)
	return nil
}

func alignUp(v, align uint64) uint64 {
	r := (v + align - 1) &^ (align - 1)
	if r < v {
		return 0 // wrapped; callers treat a result below base as failure
	}
	return r
}
