package exec

import (
	"math/bits"

	"vortexgfx/shader/ir"
)

// sliceMemory is a host Memory for tests: one word slice per buffer, counter and
// image binding.
type sliceMemory struct {
	buf     map[uint32][]uint32
	counter map[uint32][]uint32
	image   map[uint32][]uint32
	extent  map[uint32][3]uint32
	format  map[uint32]ir.ImageFormat
	calls   int
}

func newSliceMemory() *sliceMemory {
	return &sliceMemory{buf: map[uint32][]uint32{}, counter: map[uint32][]uint32{}, image: map[uint32][]uint32{}, extent: map[uint32][3]uint32{}, format: map[uint32]ir.ImageFormat{}}
}

func (s *sliceMemory) words(space ir.Space, b uint32) []uint32 {
	switch space {
	case ir.SpaceBuffer:
		return s.buf[b]
	case ir.SpaceCounter:
		return s.counter[b]
	case ir.SpaceImage:
		return s.image[b]
	}
	return nil
}

func (s *sliceMemory) Load(space ir.Space, b uint32, addr []uint32, mask uint64, out []uint32) error {
	s.calls++
	w := s.words(space, b)
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		out[l] = w[addr[l]/4]
	}
	return nil
}

func (s *sliceMemory) Store(space ir.Space, b uint32, addr []uint32, mask uint64, val []uint32) error {
	s.calls++
	w := s.words(space, b)
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		w[addr[l]/4] = val[l]
	}
	return nil
}

func (s *sliceMemory) Atomic(op ir.AtomicOp, space ir.Space, b uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error {
	s.calls++
	w := s.words(space, b)
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		old := w[addr[l]/4]
		w[addr[l]/4] = ir.AtomicResult(op, old, val[l], cmp[l])
		out[l] = old
	}
	return nil
}

func (s *sliceMemory) Size(space ir.Space, b uint32) uint32 {
	return uint32(len(s.words(space, b)) * 4)
}

func (s *sliceMemory) ImageExtent(b uint32) [3]uint32 { return s.extent[b] }

func (s *sliceMemory) ImageFormat(b uint32) ir.ImageFormat { return s.format[b] }
