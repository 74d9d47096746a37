package compute

import (
	"fmt"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/runtime"
)

// Buffer is host bytes with a resident device copy: the residency-table entry of
// vortexpipe §1.3 for one host range. Its device buffer is allocated once, so
// its device address is stable across dispatches; it is uploaded inside the next
// frame only while dirty (a new buffer starts dirty, every host write marks it),
// and only a frame whose dispatches write it reads it back. Device copies are
// whole 64-byte lines, so the RTL CP's rounded DMA never needs a read-modify-write.
// spec: vortexpipe §1.3, §2.5
type Buffer struct {
	d    *Device
	dev  *runtime.Buffer
	size int

	mu        sync.Mutex
	data      []byte // len size, cap the padded device size
	dirty     bool
	gen       uint64 // bumped by every host write
	freed     bool
	uploads   uint64
	readbacks uint64
}

// NewBuffer returns a buffer holding a copy of data.
func (d *Device) NewBuffer(data []byte) (*Buffer, error) {
	b, err := d.NewBufferSize(len(data))
	if err != nil {
		return nil, err
	}
	copy(b.data, data)
	return b, nil
}

// NewBufferSize returns a zeroed buffer of n bytes.
func (d *Device) NewBufferSize(n int) (*Buffer, error) {
	if n <= 0 {
		return nil, fmt.Errorf("compute: buffer of %d bytes (want at least 1)", n)
	}
	padded := (n + abi.LineBytes - 1) &^ (abi.LineBytes - 1)
	rb, err := d.rt.Alloc(uint64(padded))
	if err != nil {
		return nil, fmt.Errorf("compute: buffer of %d bytes: %w", n, err)
	}
	return &Buffer{d: d, dev: rb, size: n, data: make([]byte, n, padded), dirty: true}, nil
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int { return b.size }

// Addr is the buffer's device address; it does not change while the buffer lives.
func (b *Buffer) Addr() uint64 { return b.dev.Addr() }

// Bytes returns a copy of the host bytes: after a frame that wrote the buffer,
// what the device left there.
func (b *Buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.data...)
}

// Read copies the host bytes at off into p.
func (b *Buffer) Read(off int, p []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if off < 0 || off > b.size || len(p) > b.size-off {
		return fmt.Errorf("compute: read [%d, +%d) outside a %d-byte buffer", off, len(p), b.size)
	}
	copy(p, b.data[off:])
	return nil
}

// Write copies p into the host bytes at off and marks the buffer dirty, so the
// next frame that binds it uploads it.
func (b *Buffer) Write(off int, p []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if off < 0 || off > b.size || len(p) > b.size-off {
		return fmt.Errorf("compute: write [%d, +%d) outside a %d-byte buffer", off, len(p), b.size)
	}
	copy(b.data[off:], p)
	b.dirty = true
	b.gen++
	return nil
}

// Uploads counts the host-to-device copies of the buffer so far.
func (b *Buffer) Uploads() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.uploads
}

// Readbacks counts the device-to-host copies of the buffer so far.
func (b *Buffer) Readbacks() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.readbacks
}

// Free releases the device copy. Frames using the buffer must have completed.
func (b *Buffer) Free() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.freed {
		return fmt.Errorf("compute: buffer freed twice")
	}
	b.freed = true
	return b.dev.Free()
}

// stage records the buffer's upload into batch when it is dirty and returns
// whether it did and the write generation it uploaded; the host bytes are copied
// now, so later host writes do not race the submission.
func (b *Buffer) stage(batch *runtime.Batch) (bool, uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.freed {
		return false, 0, fmt.Errorf("compute: buffer was freed")
	}
	if !b.dirty {
		return false, 0, nil
	}
	batch.Write(b.dev, 0, b.data[:cap(b.data)])
	return true, b.gen, nil
}

// landed is called after a frame completed: an uploaded buffer is clean unless
// the host wrote it again meanwhile; a read-back one holds the device's bytes.
func (b *Buffer) landed(uploaded bool, gen uint64, readback []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if uploaded {
		b.uploads++
		if b.gen == gen {
			b.dirty = false
		}
	}
	if readback != nil {
		copy(b.data[:cap(b.data)], readback)
		b.readbacks++
		b.dirty = false
	}
}
