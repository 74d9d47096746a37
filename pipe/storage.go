package pipe

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// Storage buffers, atomic counter buffers and storage images of draws: the
// vertex and fragment stages' memory (GL_ARB_shader_storage_buffer_object,
// GL_ARB_shader_atomic_counters, GL_ARB_shader_image_load_store). The binding
// model is the compute path's (package compute's Binding): a descriptor kind
// (abi.DescStorageBuffer, abi.DescAtomicCounter, abi.DescStorageImage) and a
// binding point, the program's ir.Program.Buffers, Counters and Images naming
// which it reads, and the executor reaching them through exec.Memory with the
// word layout of ir.Space. spec: vortexpipe-driver §2.5.
//
// Where they run: the reference renderer executes them (ref/program's
// memory.go states GL's rules it keeps: helper and discarded fragments never
// write, no early depth test without early_fragment_tests, and the fixed
// order of side effects that makes a draw's results the same for any worker
// count). The device's vertex and fragment kernels have no descriptor set, so
// a draw whose vertex or fragment program uses any of them is routed to the
// reference renderer with GateStorage (an error under STRICT).

// StorageBinding attaches a resource to a binding point of the draw's vertex
// and fragment stages. Kind is abi.DescStorageBuffer or abi.DescAtomicCounter
// with a buffer Resource (the whole buffer is bound), or abi.DescStorageImage
// with a texture Resource whose level 0 (every layer) is the image, Format its
// layout qualifier's format: the texture format must store texels exactly as
// that image format does (RGBA8 for rgba8, RGBA32F for rgba32f, R32UI for
// r32ui, …; imageFormatOf).
type StorageBinding struct {
	Kind     abi.ComputeDescKind
	Slot     uint32
	Resource *Resource
	Format   ir.ImageFormat
}

// SetStorageBindings replaces the storage bindings of later draws (nil: none).
// A binding of the wrong resource type or of an image format its texture does
// not store is refused with an error naming it.
func (c *Context) SetStorageBindings(bs []StorageBinding) error {
	for _, b := range bs {
		if err := b.check(); err != nil {
			return err
		}
	}
	c.mu.Lock()
	c.storage = append([]StorageBinding(nil), bs...)
	c.mu.Unlock()
	return nil
}

func (b StorageBinding) check() error {
	r := b.Resource
	if r == nil {
		return fmt.Errorf("pipe: storage binding %v %d: no resource", b.Kind, b.Slot)
	}
	switch b.Kind {
	case abi.DescStorageBuffer, abi.DescAtomicCounter:
		if !r.IsBuffer() {
			return fmt.Errorf("pipe: storage binding %v %d: resource %d is a texture, not a buffer", b.Kind, b.Slot, r.ID())
		}
	case abi.DescStorageImage:
		if r.IsBuffer() {
			return fmt.Errorf("pipe: image binding %d: resource %d is a buffer, not a texture", b.Slot, r.ID())
		}
		d := r.Desc()
		if d.samples() > 1 {
			return fmt.Errorf("pipe: image binding %d: multisampled texture", b.Slot)
		}
		if f, ok := imageFormatOf(d.Format); !ok || f != b.Format {
			return fmt.Errorf("pipe: image binding %d: a %v texture does not store %v texels", b.Slot, d.Format, b.Format)
		}
	default:
		return fmt.Errorf("pipe: storage binding %d: kind %v is not a storage buffer, atomic counter buffer or image", b.Slot, b.Kind)
	}
	return nil
}

// imageFormatOf is the image format whose texel layout (ir.SpaceImage) a
// texture format's bytes have, texel for texel.
func imageFormatOf(f format.Format) (ir.ImageFormat, bool) {
	switch f {
	case format.RGBA8:
		return ir.FormatRGBA8, true
	case format.RGBA16F:
		return ir.FormatRGBA16F, true
	case format.R32F:
		return ir.FormatR32F, true
	case format.RGBA32F:
		return ir.FormatRGBA32F, true
	case format.R32I:
		return ir.FormatR32I, true
	case format.R32UI:
		return ir.FormatR32UI, true
	case format.RGBA32I:
		return ir.FormatRGBA32I, true
	case format.RGBA32UI:
		return ir.FormatRGBA32UI, true
	}
	return 0, false
}

// storageInfo reports whether a compiled stage declares storage blocks, atomic
// counters or images (ShaderInfo.Storage).
func storageInfo(p *ir.Program) bool {
	return len(p.Buffers)+len(p.Counters)+len(p.Images) > 0
}

// drawMemory is the exec.Memory of one reference draw: the bound resources'
// host bytes by space and binding. Effects run on one goroutine in the
// renderer's fixed order (ref.FragmentOrdered, ref.VertexCloner), loads of
// effect-free programs may run concurrently, so it needs no lock.
type drawMemory struct {
	res   [3]map[uint32]*storageRes // SpaceBuffer, SpaceCounter, SpaceImage (index spaceIndex)
	wrote []*Resource
}

type storageRes struct {
	r      *Resource
	data   []byte
	format ir.ImageFormat
	extent [3]uint32
}

func spaceIndex(s ir.Space) int {
	switch s {
	case ir.SpaceBuffer:
		return 0
	case ir.SpaceCounter:
		return 1
	case ir.SpaceImage:
		return 2
	}
	return -1
}

// bindStorage gives l's stages the draw's storage (nil when the program uses
// none) and returns the function to call once the draw is done: it marks every
// bound resource written (its version and the residency table's dirty range),
// since the draw wrote its host bytes. A binding the program declares with
// nothing bound is an error naming it, as the compute path's is.
func (c *Context) bindStorage(st *BoundState, l *linked) (func(), error) {
	if !l.prog.UsesMemory() {
		l.prog.SetMemory(nil)
		return func() {}, nil
	}
	m := &drawMemory{}
	for i := range m.res {
		m.res[i] = map[uint32]*storageRes{}
	}
	for _, b := range st.Storage {
		r := b.Resource
		if err := r.screen.syncHost(r); err != nil {
			return nil, fmt.Errorf("pipe: storage binding %d: %w", b.Slot, err)
		}
		r.mu.RLock()
		data, destroyed := r.data, r.destroyed
		r.mu.RUnlock()
		if destroyed {
			return nil, fmt.Errorf("pipe: storage binding %d: resource %d: %w", b.Slot, r.ID(), ErrDestroyed)
		}
		sr := &storageRes{r: r, data: data}
		sp := 0
		switch b.Kind {
		case abi.DescAtomicCounter:
			sp = 1
		case abi.DescStorageImage:
			sp = 2
			d := r.Desc()
			w, h, _ := d.LevelSize(0)
			n := max(d.ArraySize, d.Depth, 1)
			size := w * h * n * int(b.Format.TexelBytes())
			if size > len(data) {
				return nil, fmt.Errorf("pipe: image binding %d: %dx%dx%d %v texels do not fit resource %d", b.Slot, w, h, n, b.Format, r.ID())
			}
			sr.data, sr.format, sr.extent = data[:size], b.Format, [3]uint32{uint32(w), uint32(h), uint32(n)}
		}
		m.res[sp][b.Slot] = sr
		m.wrote = append(m.wrote, r)
	}
	if err := m.check(l); err != nil {
		return nil, err
	}
	l.prog.SetMemory(m)
	return func() {
		for _, r := range m.wrote {
			r.mu.Lock()
			r.version++
			n := len(r.data)
			r.mu.Unlock()
			r.screen.res.MarkDirty(r, 0, uint64(n))
		}
	}, nil
}

// check reports the first binding the program's vertex or fragment stage
// declares that nothing is bound to.
func (m *drawMemory) check(l *linked) error {
	for _, p := range []*ir.Program{l.prog.IR.VS, l.prog.IR.FS} {
		if p == nil {
			continue
		}
		for _, b := range p.Buffers {
			if m.res[0][b.Binding] == nil {
				return fmt.Errorf("pipe: draw: no storage buffer bound at binding %d (%s)", b.Binding, b.Name)
			}
		}
		for _, b := range p.Counters {
			if m.res[1][b.Binding] == nil {
				return fmt.Errorf("pipe: draw: no atomic counter buffer bound at binding %d (%s)", b.Binding, b.Name)
			}
		}
		for _, b := range p.Images {
			if m.res[2][b.Binding] == nil && p.UsesImage(b.Binding) {
				return fmt.Errorf("pipe: draw: no image bound at image unit %d (%s)", b.Binding, b.Name)
			}
		}
	}
	return nil
}

func (m *drawMemory) get(space ir.Space, binding uint32) *storageRes {
	i := spaceIndex(space)
	if i < 0 {
		return nil
	}
	return m.res[i][binding]
}

// Load implements exec.Memory.
func (m *drawMemory) Load(space ir.Space, binding uint32, addr []uint32, mask uint64, out []uint32) error {
	sr := m.get(space, binding)
	if sr == nil {
		return fmt.Errorf("nothing bound")
	}
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		out[l] = binary.LittleEndian.Uint32(sr.data[addr[l]:])
	}
	return nil
}

// Store implements exec.Memory: lanes in ascending order.
func (m *drawMemory) Store(space ir.Space, binding uint32, addr []uint32, mask uint64, val []uint32) error {
	sr := m.get(space, binding)
	if sr == nil {
		return fmt.Errorf("nothing bound")
	}
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		binary.LittleEndian.PutUint32(sr.data[addr[l]:], val[l])
	}
	return nil
}

// Atomic implements exec.Memory: lanes in ascending order.
func (m *drawMemory) Atomic(op ir.AtomicOp, space ir.Space, binding uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error {
	sr := m.get(space, binding)
	if sr == nil {
		return fmt.Errorf("nothing bound")
	}
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		w := sr.data[addr[l]:]
		old := binary.LittleEndian.Uint32(w)
		binary.LittleEndian.PutUint32(w, ir.AtomicResult(op, old, val[l], cmp[l]))
		out[l] = old
	}
	return nil
}

// Size implements exec.Memory.
func (m *drawMemory) Size(space ir.Space, binding uint32) uint32 {
	if sr := m.get(space, binding); sr != nil {
		return uint32(len(sr.data))
	}
	return 0
}

// ImageExtent implements exec.Memory.
func (m *drawMemory) ImageExtent(binding uint32) [3]uint32 {
	if sr := m.res[2][binding]; sr != nil {
		return sr.extent
	}
	return [3]uint32{}
}

// ImageFormat implements exec.ImageFormatter (formatless writeonly images).
func (m *drawMemory) ImageFormat(binding uint32) ir.ImageFormat {
	if sr := m.res[2][binding]; sr != nil {
		return sr.format
	}
	return ir.FormatUnknown
}

var _ exec.ImageFormatter = (*drawMemory)(nil)
