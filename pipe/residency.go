package pipe

import (
	"errors"
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/runtime"
)

// ErrNoDevice is returned by residency operations of a screen opened without a
// device (a routing-only screen).
var ErrNoDevice = errors.New("pipe: screen has no device")

// Residency is the screen's resource-residency table: one device buffer per
// recorded host range, uploaded only while dirty. The dirty flag starts true and
// only a completed upload clears it; every host write path marks overlapping
// ranges dirty, work on the reference renderer marks everything dirty, and
// destroying a resource evicts its entries, so a reused resource id never serves
// another resource's bytes. Safe for concurrent use. spec: vortexpipe §1.3
type Residency struct {
	dev *runtime.Device

	mu      sync.Mutex
	entries map[ResourceID][]*resident
	tex     map[ResourceID]*resident // TEX-unit layouts (TexUpload), one per texture
	stats   ResidencyStats
}

type resident struct {
	serial    uint64
	off, size uint64
	buf       *runtime.Buffer
	dirty     bool
	mipOff    [abi.TexMaxLevels]uint32 // texture layouts only
}

// ResidencyStats counts the table's device traffic.
type ResidencyStats struct {
	Uploads       uint64 // completed uploads
	UploadedBytes uint64
	Allocs        uint64 // device buffers allocated
	Frees         uint64 // device buffers freed (eviction, merge)
	Hits          uint64 // resolves served without an upload
}

// Resident is a resolved range: its device address and the entry it lies in.
type Resident struct {
	Addr      uint64 // device address of the requested offset
	EntryOff  uint64 // the entry's host range
	EntrySize uint64
	Dirty     bool
}

func newResidency(dev *runtime.Device) *Residency {
	return &Residency{dev: dev, entries: map[ResourceID][]*resident{}, tex: map[ResourceID]*resident{}}
}

// Resolve returns the device address of r's bytes [off, off+size), allocating an
// entry for the range (merging the entries it overlaps) and uploading it if it is
// dirty. Growing a range past its entry reallocates it, and Evict frees, so work
// that used an earlier address must have completed first (runtime.Buffer.Free's
// rule). spec: vortexpipe §1.3, §2.5 (VP_DESC_BUFFER relocation)
func (t *Residency) Resolve(r *Resource, off, size uint64) (uint64, error) {
	buf, at, err := t.ResolveBuffer(r, off, size)
	if err != nil {
		return 0, err
	}
	return buf.Addr() + at, nil
}

// ResolveBuffer is Resolve returning the entry's device buffer and the offset of
// r's byte off inside it, for binding the buffer itself (shaderdev.AttribBinding.Buffer,
// shaderdev.Draw.IndexBuffer). spec: vortexpipe §1.3, §3.2
func (t *Residency) ResolveBuffer(r *Resource, off, size uint64) (*runtime.Buffer, uint64, error) {
	if t.dev == nil {
		return nil, 0, ErrNoDevice
	}
	if size == 0 {
		return nil, 0, fmt.Errorf("pipe: resolve resource %d: empty range at %d", r.id, off)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	r.mu.RLock()
	n, dead := uint64(len(r.data)), r.destroyed
	r.mu.RUnlock()
	if dead {
		return nil, 0, fmt.Errorf("pipe: resolve resource %d: %w", r.id, ErrDestroyed)
	}
	if off > n || size > n-off {
		return nil, 0, fmt.Errorf("pipe: resolve resource %d: [%d, %d) outside %d bytes", r.id, off, off+size, n)
	}
	list := t.entries[r.id]
	var e *resident
	keep := list[:0]
	lo, hi := off, off+size
	for _, x := range list {
		switch {
		case x.serial != r.serial:
			// A stale entry of an earlier resource with this id (defensive: destroy
			// evicts, but a table keyed on a reusable id must never trust one).
			t.free(x)
		case e == nil && x.off <= off && off+size <= x.off+x.size:
			e = x
			keep = append(keep, x)
		case x.off < hi && lo < x.off+x.size && e == nil:
			lo, hi = min(lo, x.off), max(hi, x.off+x.size)
			t.free(x)
		default:
			keep = append(keep, x)
		}
	}
	if e == nil {
		buf, err := t.dev.Alloc(hi - lo)
		if err != nil {
			t.entries[r.id] = keep
			return nil, 0, fmt.Errorf("pipe: resolve resource %d: allocate %d bytes: %w", r.id, hi-lo, err)
		}
		t.stats.Allocs++
		e = &resident{serial: r.serial, off: lo, size: hi - lo, buf: buf, dirty: true}
		keep = append(keep, e)
	}
	t.entries[r.id] = keep
	if !e.dirty {
		t.stats.Hits++
		return e.buf, off - e.off, nil
	}
	snap := make([]byte, e.size)
	r.mu.RLock()
	if r.destroyed {
		r.mu.RUnlock()
		return nil, 0, fmt.Errorf("pipe: upload resource %d: %w", r.id, ErrDestroyed)
	}
	copy(snap, r.data[e.off:e.off+e.size])
	r.mu.RUnlock()
	if err := t.dev.Write(e.buf, 0, snap); err != nil {
		return nil, 0, fmt.Errorf("pipe: upload resource %d [%d, %d): %w", r.id, e.off, e.off+e.size, err)
	}
	e.dirty = false
	t.stats.Uploads++
	t.stats.UploadedBytes += e.size
	return e.buf, off - e.off, nil
}

// rebind moves the table onto dev (the device the draws run on), dropping every
// entry: their buffers belong to the previous device.
func (t *Residency) rebind(dev *runtime.Device) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dev == dev {
		return
	}
	for id, list := range t.entries {
		for _, x := range list {
			t.free(x)
		}
		delete(t.entries, id)
	}
	for id, x := range t.tex {
		t.free(x)
		delete(t.tex, id)
	}
	t.dev = dev
}

// free releases an entry's device buffer; the caller holds t.mu.
func (t *Residency) free(x *resident) {
	if x.buf != nil {
		// The buffer is unreachable from the table either way; a failed free only
		// leaks device memory, which the device's own accounting reports.
		_ = x.buf.Free()
		t.stats.Frees++
	}
}

// Lookup resolves any offset inside a recorded range of resource id to its entry
// and device address, without uploading. spec: vortexpipe §1.3 (resident_addr)
func (t *Residency) Lookup(id ResourceID, off uint64) (Resident, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, x := range t.entries[id] {
		if x.off <= off && off < x.off+x.size {
			return Resident{Addr: x.buf.Addr() + off - x.off, EntryOff: x.off, EntrySize: x.size, Dirty: x.dirty}, true
		}
	}
	return Resident{}, false
}

// MarkDirty marks every entry of r overlapping [off, off+size) dirty.
// spec: vortexpipe §1.3 (resident_dirty)
func (t *Residency) MarkDirty(r *Resource, off, size uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, x := range t.entries[r.id] {
		if x.serial == r.serial && x.off < off+size && off < x.off+x.size {
			x.dirty = true
		}
	}
	if x := t.tex[r.id]; x != nil && x.serial == r.serial {
		x.dirty = true
	}
}

// MarkAllDirty distrusts every entry; call it after any work ran on the reference
// renderer, which writes host memory without saying where. spec: vortexpipe §1.3
// (resident_dirty_all), §3.5
func (t *Residency) MarkAllDirty() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, list := range t.entries {
		for _, x := range list {
			x.dirty = true
		}
	}
	for _, x := range t.tex {
		x.dirty = true
	}
}

// Evict frees every entry of resource id (resource_destroy).
func (t *Residency) Evict(id ResourceID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, x := range t.entries[id] {
		t.free(x)
	}
	delete(t.entries, id)
	if x := t.tex[id]; x != nil {
		t.free(x)
		delete(t.tex, id)
	}
}

// Stats returns the traffic counters.
func (t *Residency) Stats() ResidencyStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Entries is the number of recorded ranges and texture layouts.
func (t *Residency) Entries() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(t.tex)
	for _, l := range t.entries {
		n += len(l)
	}
	return n
}

// Close frees every device buffer.
func (t *Residency) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, list := range t.entries {
		for _, x := range list {
			t.free(x)
		}
		delete(t.entries, id)
	}
	for id, x := range t.tex {
		t.free(x)
		delete(t.tex, id)
	}
}

// ResolveTexture returns the device address and MIPOFF table of r laid out for the
// TEX unit (TexUpload), uploading the layout only while r is dirty; it follows the
// same dirty/evict rules as the range entries. spec: vortexpipe §3.3 step 3, §3.6
func (t *Residency) ResolveTexture(r *Resource) (TextureAddr, error) {
	if t.dev == nil {
		return TextureAddr{}, ErrNoDevice
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	x := t.tex[r.id]
	if x != nil && x.serial != r.serial {
		t.free(x)
		delete(t.tex, r.id)
		x = nil
	}
	if x != nil && !x.dirty {
		t.stats.Hits++
		return TextureAddr{Addr: x.buf.Addr(), MipOffsets: x.mipOff}, nil
	}
	img, mip, err := TexUpload(r)
	if err != nil {
		return TextureAddr{}, err
	}
	if x == nil || x.size != uint64(len(img)) {
		if x != nil {
			t.free(x)
		}
		buf, err := t.dev.Alloc(uint64(len(img)))
		if err != nil {
			delete(t.tex, r.id)
			return TextureAddr{}, fmt.Errorf("pipe: texture %d: allocate %d bytes: %w", r.id, len(img), err)
		}
		t.stats.Allocs++
		x = &resident{serial: r.serial, size: uint64(len(img)), buf: buf, dirty: true}
		t.tex[r.id] = x
	}
	if err := t.dev.Write(x.buf, 0, img); err != nil {
		return TextureAddr{}, fmt.Errorf("pipe: upload texture %d: %w", r.id, err)
	}
	x.dirty, x.mipOff = false, mip
	t.stats.Uploads++
	t.stats.UploadedBytes += x.size
	return TextureAddr{Addr: x.buf.Addr(), MipOffsets: mip}, nil
}
