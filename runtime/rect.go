package runtime

import (
	"fmt"
	"math/bits"
)

// Region places a 3-D box in linear memory (vx_copy_rect): the box's first byte is
// at Off, its rows RowPitch bytes apart and its slices SlicePitch bytes apart.
// spec: command-processor §9 (vortex2.h rect-copy helpers)
type Region struct {
	Off, RowPitch, SlicePitch uint64
}

// Extent is a 3-D box's size: Width bytes per row, Height rows per slice, Depth
// slices. A zero in any dimension is an empty box.
type Extent struct {
	Width, Height, Depth uint64
}

// runs calls f(off within r, off within the packed box, n) for each contiguous run
// of the box in r: a whole slice when its rows are packed (RowPitch = Width), the
// whole box when its slices are too; otherwise one row at a time.
func (r Region) runs(e Extent, f func(off, packed, n uint64)) {
	rowsPacked := r.RowPitch == e.Width || e.Height == 1
	slicePacked := rowsPacked && (r.SlicePitch == e.Width*e.Height || e.Depth == 1)
	switch {
	case slicePacked:
		f(r.Off, 0, e.Width*e.Height*e.Depth)
	case rowsPacked:
		for z := uint64(0); z < e.Depth; z++ {
			f(r.Off+z*r.SlicePitch, z*e.Width*e.Height, e.Width*e.Height)
		}
	default:
		for z := uint64(0); z < e.Depth; z++ {
			for y := uint64(0); y < e.Height; y++ {
				f(r.Off+z*r.SlicePitch+y*r.RowPitch, (z*e.Height+y)*e.Width, e.Width)
			}
		}
	}
}

// check validates a box against a buffer of size bytes: pitches at least as wide
// as what they step over, and the last byte inside the buffer, without overflow.
func (r Region) check(e Extent, size uint64) error {
	if e.Width == 0 || e.Height == 0 || e.Depth == 0 {
		return nil
	}
	if e.Height > 1 && r.RowPitch < e.Width {
		return fmt.Errorf("row pitch %d below the width %d", r.RowPitch, e.Width)
	}
	hi, slice := bits.Mul64(r.RowPitch, e.Height-1)
	if hi != 0 || slice > ^uint64(0)-e.Width {
		return fmt.Errorf("box %+v overflows", e)
	}
	slice += e.Width // bytes one slice spans
	if e.Depth > 1 && r.SlicePitch < slice {
		return fmt.Errorf("slice pitch %d below the %d bytes a slice spans", r.SlicePitch, slice)
	}
	hi, last := bits.Mul64(r.SlicePitch, e.Depth-1)
	if hi != 0 || last > ^uint64(0)-slice || last+slice > ^uint64(0)-r.Off {
		return fmt.Errorf("box %+v at %d overflows", e, r.Off)
	}
	if end := r.Off + last + slice; end > size {
		return fmt.Errorf("box %+v at offset %d (pitches %d, %d) ends at %d, past %d bytes", e, r.Off, r.RowPitch, r.SlicePitch, end, size)
	}
	return nil
}

func (e Extent) bytes() (uint64, bool) {
	hi, wh := bits.Mul64(e.Width, e.Height)
	if hi != 0 {
		return 0, false
	}
	hi, n := bits.Mul64(wh, e.Depth)
	return n, hi == 0
}

// CopyRect3 copies the box e from src at s to dst at d, device to device, as part of
// this batch (so one doorbell for the whole box): one MEM_COPY per contiguous run.
// Both regions are checked against their buffers. spec: command-processor §9
// (vx_copy_rect)
func (b *Batch) CopyRect3(dst *Buffer, d Region, src *Buffer, s Region, e Extent) *Batch {
	if _, ok := e.bytes(); !ok {
		b.fail(fmt.Errorf("copy rect: extent %+v overflows", e))
		return b
	}
	if err := dst.check(0, 0); err != nil {
		b.fail(fmt.Errorf("copy rect destination: %w", err))
		return b
	}
	if err := src.check(0, 0); err != nil {
		b.fail(fmt.Errorf("copy rect source: %w", err))
		return b
	}
	if err := d.check(e, dst.size); err != nil {
		b.fail(fmt.Errorf("copy rect destination: %w", err))
		return b
	}
	if err := s.check(e, src.size); err != nil {
		b.fail(fmt.Errorf("copy rect source: %w", err))
		return b
	}
	if e.Width == 0 || e.Height == 0 || e.Depth == 0 {
		return b
	}
	rows := func(r Region) bool { return r.RowPitch == e.Width || e.Height == 1 }
	switch {
	case packedLike(d, s, e): // both sides contiguous: one run
		b.Copy(dst, d.Off, src, s.Off, e.Width*e.Height*e.Depth)
	case rows(d) && rows(s): // contiguous slices: one run per slice
		for z := uint64(0); z < e.Depth; z++ {
			b.Copy(dst, d.Off+z*d.SlicePitch, src, s.Off+z*s.SlicePitch, e.Width*e.Height)
		}
	default:
		for z := uint64(0); z < e.Depth; z++ {
			for y := uint64(0); y < e.Height; y++ {
				b.Copy(dst, d.Off+z*d.SlicePitch+y*d.RowPitch, src, s.Off+z*s.SlicePitch+y*s.RowPitch, e.Width)
			}
		}
	}
	return b
}

// packedLike reports whether both regions store the box contiguously.
func packedLike(d, s Region, e Extent) bool {
	packed := func(r Region) bool {
		return (r.RowPitch == e.Width || e.Height == 1) && (r.SlicePitch == e.Width*e.Height || e.Depth == 1)
	}
	return packed(d) && packed(s)
}

// WriteRect3 writes the box e of host memory src (laid out as s) to dst at d, as
// part of this batch. The bytes are copied now.
func (b *Batch) WriteRect3(dst *Buffer, d Region, src []byte, s Region, e Extent) *Batch {
	if _, ok := e.bytes(); !ok {
		b.fail(fmt.Errorf("write rect: extent %+v overflows", e))
		return b
	}
	if err := s.check(e, uint64(len(src))); err != nil {
		b.fail(fmt.Errorf("write rect source: %w", err))
		return b
	}
	if err := dst.check(0, 0); err != nil {
		b.fail(fmt.Errorf("write rect: %w", err))
		return b
	}
	if err := d.check(e, dst.size); err != nil {
		b.fail(fmt.Errorf("write rect destination: %w", err))
		return b
	}
	if e.Width == 0 || e.Height == 0 || e.Depth == 0 {
		return b
	}
	n, _ := e.bytes()
	packed := make([]byte, n)
	s.runs(e, func(off, p, n uint64) { copy(packed[p:p+n], src[off:off+n]) })
	d.runs(e, func(off, p, n uint64) { b.Write(dst, off, packed[p:p+n]) })
	return b
}

// ReadRect3 reads the box e of src at s into host memory dst (laid out as d) when
// the batch completes.
func (b *Batch) ReadRect3(src *Buffer, s Region, dst []byte, d Region, e Extent) *Batch {
	if _, ok := e.bytes(); !ok {
		b.fail(fmt.Errorf("read rect: extent %+v overflows", e))
		return b
	}
	if err := d.check(e, uint64(len(dst))); err != nil {
		b.fail(fmt.Errorf("read rect destination: %w", err))
		return b
	}
	if err := src.check(0, 0); err != nil {
		b.fail(fmt.Errorf("read rect: %w", err))
		return b
	}
	if err := s.check(e, src.size); err != nil {
		b.fail(fmt.Errorf("read rect source: %w", err))
		return b
	}
	if e.Width == 0 || e.Height == 0 || e.Depth == 0 {
		return b
	}
	// Each device run lands in a slice of dst when dst is packed; otherwise rows
	// land one by one at their host positions.
	if d.RowPitch == e.Width && (d.SlicePitch == e.Width*e.Height || e.Depth == 1) {
		s.runs(e, func(off, p, n uint64) { b.Read(src, off, dst[d.Off+p:d.Off+p+n]) })
		return b
	}
	for z := uint64(0); z < e.Depth; z++ {
		for y := uint64(0); y < e.Height; y++ {
			ho := d.Off + z*d.SlicePitch + y*d.RowPitch
			b.Read(src, s.Off+z*s.SlicePitch+y*s.RowPitch, dst[ho:ho+e.Width])
		}
	}
	return b
}

// EnqueueCopyRect3 copies a 3-D box device to device (see Batch.CopyRect3).
func (q *Queue) EnqueueCopyRect3(dst *Buffer, d Region, src *Buffer, s Region, e Extent, deps ...*Event) *Event {
	return q.NewBatch().CopyRect3(dst, d, src, s, e).Submit(deps...)
}

// EnqueueWriteRect3 writes a 3-D box host to device (see Batch.WriteRect3).
func (q *Queue) EnqueueWriteRect3(dst *Buffer, d Region, src []byte, s Region, e Extent, deps ...*Event) *Event {
	return q.NewBatch().WriteRect3(dst, d, src, s, e).Submit(deps...)
}

// EnqueueReadRect3 reads a 3-D box device to host (see Batch.ReadRect3).
func (q *Queue) EnqueueReadRect3(src *Buffer, s Region, dst []byte, d Region, e Extent, deps ...*Event) *Event {
	return q.NewBatch().ReadRect3(src, s, dst, d, e).Submit(deps...)
}
