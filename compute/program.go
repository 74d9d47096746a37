package compute

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/device/swtex"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// Program is a compiled compute program resident on a device: one entry of the
// device's compute module (a blob the device's loader resolves to the program's
// kernel, see Device), its workgroup shape and the descriptors a dispatch must
// bind. spec: vortexpipe §2.2 (compute: kernel_main, one thread per work-item),
// §2.5 (modules are resident; the pre-scanned descriptors with their writable bit)
type Program struct {
	d           *Device
	id          uint64
	name        string
	entry       string // the module symbol
	prog        *ir.Program
	local       [3]uint32
	sharedBytes int
	bindings    []bindingDecl
	isa         *isaProgram // the machine code (cores = "isa"; nil: the IR executor)
	fallback    string      // why an isa device runs the program on the IR executor

	uniMu    sync.Mutex
	uniforms []uint32     // current uniform words (initialised from the defaults)
	uvars    []uniformVar // GL names of the uniforms (programs from a link)

	// Workgroup runners and their scratch, kept across CTAs (a free list the
	// garbage collector does not empty): one per core goroutine running the
	// program at a time.
	free chan *groupScratch
}

// bindingDecl is one descriptor the program reaches.
type bindingDecl struct {
	kind    abi.ComputeDescKind
	space   ir.Space
	slot    uint32
	name    string
	min     uint32 // bytes the binding must hold at least
	stride  uint32 // trailing-array stride (storage buffers)
	written bool   // the program stores to it or does atomics on it
	image   ir.ImageBinding
}

// Load makes an already compiled compute program resident on d.
func (d *Device) Load(name string, p *ir.Program) (*Program, error) {
	if p == nil || p.Stage != ir.Compute {
		return nil, fmt.Errorf("compute: %s: not a compute program", name)
	}
	if len(p.Samplers) > swtex.MaxUnits {
		return nil, fmt.Errorf("compute: %s: %d samplers exceed the %d a descriptor table holds", name, len(p.Samplers), swtex.MaxUnits)
	}
	// Building one workgroup verifies the program at the device's warp width.
	if _, err := exec.NewWorkgroup(p, exec.Config{Width: d.cfg.Device.Threads}); err != nil {
		return nil, fmt.Errorf("compute: %s: %w", name, err)
	}
	cp := &Program{d: d, name: name, prog: p, local: p.LocalSize, sharedBytes: int(p.SharedBytes),
		free: make(chan *groupScratch, scratchSlots)}
	cp.uniforms = make([]uint32, p.UniformWords)
	cp.bindings = scanBindings(p)
	if len(cp.bindings) > abi.ComputeDescMaxEntries {
		return nil, fmt.Errorf("compute: %s: %d descriptors exceed the %d the relocation carries (vortexpipe §2.3.2)", name, len(cp.bindings), abi.ComputeDescMaxEntries)
	}
	if d.cfg.Device.ISA() {
		k, err := d.compileISA(p)
		switch {
		case err == nil:
			cp.isa = k
		case d.opts.Strict:
			return nil, fmt.Errorf("%w: %s: %v", ErrISARefused, name, err)
		default:
			cp.fallback = err.Error()
		}
	}
	if err := d.register(cp); err != nil {
		if cp.isa != nil && cp.isa.frames != nil {
			cp.isa.frames.Free()
		}
		return nil, err
	}
	if cp.isa != nil {
		d.isaProgs.Add(1)
	} else if cp.fallback != "" {
		d.isaFalls.Add(1)
	}
	// Load the grown module now, between frames, so a frame rings only its own
	// doorbell.
	d.frameMu.Lock()
	_, err := d.resident()
	d.frameMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("compute: %s: %w", name, err)
	}
	return cp, nil
}

// scratchSlots bounds the kept workgroup runners per program.
const scratchSlots = 64

// register gives the program an id and adds its entry to the device's module
// image; the grown module is loaded before the next frame.
func (d *Device) register(p *Program) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return ErrClosed
	}
	if len(d.progs) >= abi.KernelImageMaxEntries/2 {
		return fmt.Errorf("compute: %s: %d programs are resident, the module holds at most %d (Release unused ones)", p.name, len(d.progs), abi.KernelImageMaxEntries/2)
	}
	d.nextProg++
	p.id = d.nextProg
	p.entry = fmt.Sprintf("cs%d", p.id)
	d.progs[p.id] = p
	if err := d.rebuildImage(); err != nil {
		delete(d.progs, p.id)
		return fmt.Errorf("compute: %s: %w", p.name, err)
	}
	return nil
}

// rebuildImage lays out the module image of the resident programs, in id
// order; the caller holds d.mu.
func (d *Device) rebuildImage() error {
	ids := make([]uint64, 0, len(d.progs))
	for id := range d.progs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ents := make([]abi.KernelImageEntry, 0, len(ids))
	for _, id := range ids {
		ents = append(ents, d.progs[id].moduleEntries()...)
	}
	if len(ents) == 0 {
		d.image, d.module = nil, nil
		return nil
	}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		return fmt.Errorf("module image: %w", err)
	}
	d.image, d.module = img, nil
	return nil
}

// Release removes the program from the device's module (reloaded before the
// next frame); dispatching it afterwards fails. Frames that used it must have
// completed.
func (p *Program) Release() error {
	d := p.d
	d.frameMu.Lock()
	defer d.frameMu.Unlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.progs[p.id] != p {
		return fmt.Errorf("compute: %s: released twice", p.name)
	}
	delete(d.progs, p.id)
	if p.isa != nil && p.isa.frames != nil {
		if err := p.isa.frames.Free(); err != nil {
			return fmt.Errorf("compute: %s: spill frames: %w", p.name, err)
		}
		p.isa.frames = nil
	}
	return d.rebuildImage()
}

// scanBindings lists the program's descriptors in declaration order: storage
// buffers, atomic counter buffers (one per binding, covering every counter in
// it) and storage images, each marked written when an instruction stores to it
// or does an atomic on it. spec: vortexpipe §2.5 (writable descriptors)
func scanBindings(p *ir.Program) []bindingDecl {
	written := map[[2]uint32]bool{}
	mark := func(code []ir.Inst) {
		for i := range code {
			in := &code[i]
			if in.Op == ir.MemStore || in.Op == ir.MemAtomic {
				written[[2]uint32{uint32(in.Len), in.Imm}] = true
			}
		}
	}
	mark(p.Code)
	for i := range p.Funcs {
		mark(p.Funcs[i].Code)
	}
	var out []bindingDecl
	for _, b := range p.Buffers {
		out = append(out, bindingDecl{kind: abi.DescStorageBuffer, space: ir.SpaceBuffer, slot: b.Binding, name: b.Name,
			min: b.Fixed, stride: b.Stride, written: written[[2]uint32{uint32(ir.SpaceBuffer), b.Binding}]})
	}
	for _, c := range p.Counters {
		need := c.Offset + 4*c.Count
		merged := false
		for i := range out {
			if out[i].kind == abi.DescAtomicCounter && out[i].slot == c.Binding {
				out[i].min = max(out[i].min, need)
				merged = true
			}
		}
		if !merged {
			out = append(out, bindingDecl{kind: abi.DescAtomicCounter, space: ir.SpaceCounter, slot: c.Binding, name: c.Name,
				min: need, written: written[[2]uint32{uint32(ir.SpaceCounter), c.Binding}]})
		}
	}
	for _, im := range p.Images {
		out = append(out, bindingDecl{kind: abi.DescStorageImage, space: ir.SpaceImage, slot: im.Binding, name: im.Name,
			image: im, written: written[[2]uint32{uint32(ir.SpaceImage), im.Binding}]})
	}
	return out
}

// describe checks what b binds against the declaration and returns its
// descriptor (the device address filled in) and the buffer behind it.
func (decl *bindingDecl) describe(b *Binding) (abi.ComputeDesc, *Buffer, error) {
	buf := b.buffer()
	if buf == nil {
		return abi.ComputeDesc{}, nil, fmt.Errorf("no buffer")
	}
	desc := abi.ComputeDesc{Kind: decl.kind, Binding: decl.slot, Addr: buf.Addr(), Size: uint32(buf.size)}
	if decl.written {
		desc.Flags |= abi.DescWritable
	}
	if decl.kind == abi.DescStorageImage {
		img := b.Image
		if img == nil {
			return abi.ComputeDesc{}, nil, fmt.Errorf("a buffer where the program declares an image")
		}
		want := decl.image
		if want.Format != ir.FormatUnknown && img.format.TexelBytes() != want.Format.TexelBytes() {
			return abi.ComputeDesc{}, nil, fmt.Errorf("image of format %v (%d-byte texels) where the program declares %v (%d-byte texels)",
				img.format, img.format.TexelBytes(), want.Format, want.Format.TexelBytes())
		}
		if want.Dim == ir.Image2D && img.depth != 1 {
			return abi.ComputeDesc{}, nil, fmt.Errorf("a %d-layer image where the program declares a 2D image", img.depth)
		}
		desc.Format = uint16(img.format)
		desc.Width, desc.Height, desc.Depth = uint32(img.width), uint32(img.height), uint32(img.depth)
		return desc, buf, nil
	}
	if b.Image != nil {
		return abi.ComputeDesc{}, nil, fmt.Errorf("an image where the program declares a %v", decl.kind)
	}
	if uint32(buf.size) < decl.min {
		return abi.ComputeDesc{}, nil, fmt.Errorf("%d-byte buffer, the program needs at least %d", buf.size, decl.min)
	}
	return desc, buf, nil
}

// Name is the name the program was compiled under.
func (p *Program) Name() string { return p.name }

// LocalSize is the program's workgroup size (layout(local_size_x/y/z)).
func (p *Program) LocalSize() [3]uint32 { return p.local }

// SharedBytes is the size of the program's shared variables.
func (p *Program) SharedBytes() int { return p.sharedBytes }

// IR returns the compiled program.
func (p *Program) IR() *ir.Program { return p.prog }

// fits checks the program against the device: the workgroup must fit one CTA
// (refused, never re-tiled) and its shared variables the core's local memory.
// spec: vortexpipe §1.3
func (p *Program) fits() error {
	n := uint64(p.local[0]) * uint64(p.local[1]) * uint64(p.local[2])
	if n > uint64(p.d.maxBlock) {
		return fmt.Errorf("%w: %d×%d×%d = %d invocations, the device runs at most %d (%d threads × %d warps) in one CTA",
			ErrWorkgroupTooLarge, p.local[0], p.local[1], p.local[2], n, p.d.maxBlock, p.d.cfg.Device.Threads, p.d.cfg.Device.Warps)
	}
	if p.sharedBytes > p.d.lmem {
		return fmt.Errorf("%d bytes of shared variables exceed the core's %d bytes of local memory", p.sharedBytes, p.d.lmem)
	}
	if need := p.lmemSize(); int64(need) > int64(p.d.lmem) {
		return fmt.Errorf("the machine code needs %d bytes of local memory, the core has %d", need, p.d.lmem)
	}
	return nil
}

// Uniforms returns the program's uniform layout (word offsets of each uniform).
func (p *Program) Uniforms() []ir.Slot { return p.prog.Uniforms }

// SetUniform sets the words of the uniform called name; later dispatches use
// them (a dispatch takes the words current when it is recorded).
func (p *Program) SetUniform(name string, words []uint32) error {
	for _, s := range p.prog.Uniforms {
		if s.Name != name {
			continue
		}
		if len(words) > s.Words {
			return fmt.Errorf("compute: %s: uniform %s has %d words, got %d", p.name, name, s.Words, len(words))
		}
		p.uniMu.Lock()
		copy(p.uniforms[s.Word:], words)
		p.uniMu.Unlock()
		return nil
	}
	return fmt.Errorf("compute: %s: no uniform %q", p.name, name)
}

// uniformSnapshot returns the current uniform words as bytes.
func (p *Program) uniformSnapshot() []byte {
	p.uniMu.Lock()
	defer p.uniMu.Unlock()
	b := make([]byte, 4*len(p.uniforms))
	for i, w := range p.uniforms {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// BindingInfo describes one descriptor a program reaches.
type BindingInfo struct {
	Kind     abi.ComputeDescKind
	Slot     uint32
	Name     string
	MinBytes uint32          // the smallest buffer the binding accepts (the fixed part)
	Stride   uint32          // trailing unsized array stride (storage buffers; 0: none)
	Written  bool            // the program stores to it or does atomics on it (read back)
	Image    ir.ImageBinding // storage images: dimensionality, format, access
}

// Bindings lists the descriptors a dispatch of p must bind, in declaration
// order (storage buffers, atomic counter buffers, storage images).
func (p *Program) Bindings() []BindingInfo {
	out := make([]BindingInfo, len(p.bindings))
	for i, b := range p.bindings {
		out[i] = BindingInfo{Kind: b.kind, Slot: b.slot, Name: b.name, MinBytes: b.min, Stride: b.stride, Written: b.written, Image: b.image}
	}
	return out
}
