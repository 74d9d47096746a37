package exec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"vortexgfx/shader/ir"
)

// ErrNoMemory is returned when a program executes a storage buffer, atomic counter or
// storage image instruction and no Memory is set.
var ErrNoMemory = errors.New("exec: memory instruction without a Memory")

// Memory is the storage a program's buffers, atomic counters and storage images live
// in: the device's memory behind the residency table, or a host slice in tests.
// spec: vortexpipe-driver §2.5 (storage buffers and images are relocated descriptors
// the kernel dereferences).
//
// The Machine calls it once per memory instruction per warp, never once per lane,
// with whole lane arrays (Width entries; only the lanes in mask are meaningful) that
// belong to the Machine and must not be kept. Every address is the byte address of
// an aligned 32-bit word inside the binding: the Machine has already checked each
// lane against Size and dropped the lanes that fall outside (robust buffer access:
// such a load reads 0, a store or atomic does nothing and an atomic returns 0), so
// an implementation may index its backing store without further checks. Lanes are
// processed in ascending lane order: for two lanes storing to one word the higher
// lane's value stays, and atomics on one word apply in lane order.
//
// Images are plain word storage in SpaceImage: texel (x, y, z) of a W×H×D image
// starts at byte ((z*H+y)*W+x)*Format.TexelBytes() and the compiled program does
// the format conversion (ir.ImageFormat), so an implementation only stores words and
// reports each image's extent. Shared memory (ir.SpaceShared) never reaches a Memory.
type Memory interface {
	// Load reads the word at addr[l] of binding into out[l] for each lane l in mask.
	Load(space ir.Space, binding uint32, addr []uint32, mask uint64, out []uint32) error
	// Store writes val[l] to the word at addr[l] for each lane l in mask.
	Store(space ir.Space, binding uint32, addr []uint32, mask uint64, val []uint32) error
	// Atomic performs, lane by lane in mask, out[l] = word; word =
	// ir.AtomicResult(op, word, val[l], cmp[l]) at addr[l].
	Atomic(op ir.AtomicOp, space ir.Space, binding uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error
	// Size returns the size in bytes of the resource bound at binding in space (0
	// when nothing is bound: every access is then out of bounds).
	Size(space ir.Space, binding uint32) uint32
	// ImageExtent returns the width, height and depth (layers) of the image at
	// binding (zeros when none is bound).
	ImageExtent(binding uint32) [3]uint32
}

// ImageFormatter is implemented by a Memory that can report the format of the image
// bound at a binding. Programs with a formatless image (ir.FormatUnknown: a
// writeonly image declared without a format qualifier) need it: their stores
// convert to the bound image's format. spec: vortexpipe-driver §2.5 (the image
// descriptor describes the bound image).
type ImageFormatter interface {
	ImageFormat(binding uint32) ir.ImageFormat
}

// ErrNoImageFormat is returned when a program with a formatless image runs with a
// Memory that does not implement ImageFormatter.
var ErrNoImageFormat = errors.New("exec: formatless image needs a Memory that implements ImageFormatter")

// inBounds returns the lanes of exec whose addr is an aligned word inside size bytes.
func inBounds(addr []uint32, exec uint64, size uint32) uint64 {
	var ok uint64
	for mm := exec; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		if a := addr[l]; a&3 == 0 && a < size && size-a >= 4 {
			ok |= 1 << l
		}
	}
	return ok
}

// memory runs one MemLoad, MemStore, MemAtomic, MemSize or ImageExtent instruction.
func (m *Machine) memory(in *ir.Inst, exec uint64) error {
	space, binding := ir.Space(in.Len), in.Imm
	if space == ir.SpaceShared && in.Op != ir.ImageExtent && in.Op != ir.ImageFormatOf {
		m.sharedOp(in, exec)
		return nil
	}
	if m.mem == nil {
		return ErrNoMemory
	}
	if in.Op == ir.ImageFormatOf {
		f, ok := m.mem.(ImageFormatter)
		if !ok {
			return ErrNoImageFormat
		}
		v := uint32(f.ImageFormat(binding))
		d := m.reg(in.Dst)
		for mm := exec; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = v
		}
		return nil
	}
	if in.Op == ir.ImageExtent {
		v := m.mem.ImageExtent(binding)[in.Stride]
		d := m.reg(in.Dst)
		for mm := exec; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = v
		}
		return nil
	}
	size := m.mem.Size(space, binding)
	if in.Op == ir.MemSize {
		d := m.reg(in.Dst)
		for mm := exec; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = size
		}
		return nil
	}
	addr := m.reg(in.Src[0])
	ok := inBounds(addr, exec, size)
	var err error
	switch in.Op {
	case ir.MemLoad, ir.MemAtomic:
		d := m.reg(in.Dst)
		for mm := exec &^ ok; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = 0
		}
		if ok == 0 {
			return nil
		}
		// The result may overwrite an operand register: collect it in tmp.
		if in.Op == ir.MemLoad {
			err = m.mem.Load(space, binding, addr, ok, m.tmp)
		} else {
			err = m.mem.Atomic(ir.AtomicOp(in.Stride), space, binding, addr, m.reg(in.Src[1]), m.reg(in.Src[2]), ok, m.tmp)
		}
		for mm := ok; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = m.tmp[l]
		}
	case ir.MemStore:
		if ok != 0 {
			err = m.mem.Store(space, binding, addr, ok, m.reg(in.Src[1]))
		}
	}
	if err != nil {
		return fmt.Errorf("exec: %s %s binding %d: %w", in.Op, space, binding, err)
	}
	return nil
}

// sharedOp runs a memory instruction on the workgroup's shared memory: little-endian
// words in the CTA's local memory (or the machine's own bytes on the host).
// spec: vortexpipe-driver §2.2, §2.3.2 (shared variables live in LMEM)
func (m *Machine) sharedOp(in *ir.Inst, exec uint64) {
	sh := m.shared
	size := uint32(len(sh))
	switch in.Op {
	case ir.MemSize:
		d := m.reg(in.Dst)
		for mm := exec; mm != 0; mm &= mm - 1 {
			d[bits.TrailingZeros64(mm)] = size
		}
		return
	}
	addr := m.reg(in.Src[0])
	ok := inBounds(addr, exec, size)
	switch in.Op {
	case ir.MemLoad:
		d := m.reg(in.Dst)
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			if ok&(1<<l) != 0 {
				d[l] = binary.LittleEndian.Uint32(sh[addr[l]:])
			} else {
				d[l] = 0
			}
		}
	case ir.MemStore:
		v := m.reg(in.Src[1])
		for mm := ok; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			binary.LittleEndian.PutUint32(sh[addr[l]:], v[l])
		}
	case ir.MemAtomic:
		d, v, c := m.reg(in.Dst), m.reg(in.Src[1]), m.reg(in.Src[2])
		op := ir.AtomicOp(in.Stride)
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			if ok&(1<<l) == 0 {
				m.tmp[l] = 0
				continue
			}
			w := sh[addr[l]:]
			old := binary.LittleEndian.Uint32(w)
			binary.LittleEndian.PutUint32(w, ir.AtomicResult(op, old, v[l], c[l]))
			m.tmp[l] = old
		}
		for mm := exec; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			d[l] = m.tmp[l]
		}
	}
}
