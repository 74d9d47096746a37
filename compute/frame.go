package compute

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/runtime"
)

// MaxGroupCount is the largest group count per dimension a dispatch accepts
// (GL's GL_MAX_COMPUTE_WORK_GROUP_COUNT minimum). An indirect dispatch whose
// device-side counts exceed it fails its launch.
const MaxGroupCount = 65535

// Binding attaches a buffer, storage image or sampled texture to one of a
// program's binding points (a texture: Kind 0, Slot the texture unit).
type Binding struct {
	Kind   abi.ComputeDescKind
	Slot   uint32 // the GLSL layout(binding = N)
	Buffer *Buffer
	Image  *Image
	// Texture is a sampled texture (SampledTexture: Kind 0, Slot the unit).
	Texture *Texture
}

// StorageBuffer binds b to shader storage block binding slot.
func StorageBuffer(slot uint32, b *Buffer) Binding {
	return Binding{Kind: abi.DescStorageBuffer, Slot: slot, Buffer: b}
}

// UniformBuffer binds b to uniform block binding slot.
func UniformBuffer(slot uint32, b *Buffer) Binding {
	return Binding{Kind: abi.DescUniformBuffer, Slot: slot, Buffer: b}
}

// AtomicCounters binds b to atomic counter buffer binding slot.
func AtomicCounters(slot uint32, b *Buffer) Binding {
	return Binding{Kind: abi.DescAtomicCounter, Slot: slot, Buffer: b}
}

// StorageImage binds img to image unit slot.
func StorageImage(slot uint32, img *Image) Binding {
	return Binding{Kind: abi.DescStorageImage, Slot: slot, Image: img}
}

func (b Binding) buffer() *Buffer {
	if b.Image != nil {
		return b.Image.buf
	}
	return b.Buffer
}

// dispatch is one recorded dispatch.
type dispatch struct {
	p        *Program
	groups   [3]uint32
	base     [3]uint32
	indirect *Buffer // nil for a direct dispatch
	indOff   uint64
	descs    []abi.ComputeDesc
	bufs     []*Buffer // per descriptor
	uniforms []byte    // the program's uniform words at record time
	texTable []byte    // the software-sampler descriptor table (nil: no samplers)
	texIR    string    // why the machine code cannot read a bound texture ("": it can)
	texBufs  []*Buffer // the sampled textures' storage
}

// Frame records dispatches and submits them to the CP as one batch: the dirty
// buffers' uploads, the descriptor and uniform scratch, one CMD_DRAW bundle of
// launch steps (the OP_DISPATCH direction of command-processor §8.1; streamed
// inside the same batch on a CP without DRAW/QMD) and the read-back of the
// buffers the dispatches write — one doorbell. Dispatches run in order, each
// launch draining before the next (the CP's launch barrier), so a later dispatch
// sees an earlier one's writes. spec: command-processor §8.1, §9; vortexpipe §2.5
type Frame struct {
	d   *Device
	ds  []dispatch
	err error
}

// NewFrame starts an empty frame. spec: command-processor §8.1, §9
func (d *Device) NewFrame() *Frame { return &Frame{d: d} }

// Len is the number of dispatches recorded.
func (f *Frame) Len() int { return len(f.ds) }

// Dispatch records p over groups workgroups with the given bindings: one
// launch of a groups-sized CTA grid. spec: vortexpipe §1.3, §2.5
func (f *Frame) Dispatch(p *Program, groups [3]uint32, bs ...Binding) error {
	return f.DispatchBase(p, [3]uint32{}, groups, bs...)
}

// DispatchBase records p over groups workgroups numbered from base
// (vkCmdDispatchBase): gl_WorkGroupID is base + the CTA's block id, with the base
// riding arg slots 2/3. spec: vortexpipe §2.3.2, §2.5
func (f *Frame) DispatchBase(p *Program, base, groups [3]uint32, bs ...Binding) error {
	idx := len(f.ds)
	for i, g := range groups {
		if g > MaxGroupCount {
			return f.fail(fmt.Errorf("compute: dispatch %d (%s): group count %v: dimension %d exceeds %d", idx, p.name, groups, i, MaxGroupCount))
		}
		if uint64(base[i])+uint64(g) > 1<<32 {
			return f.fail(fmt.Errorf("compute: dispatch %d (%s): base %v + groups %v overflows", idx, p.name, base, groups))
		}
	}
	dp, err := f.prepare(idx, p, bs)
	if err != nil {
		return f.fail(err)
	}
	dp.groups, dp.base = groups, base
	f.ds = append(f.ds, dp)
	return nil
}

// DispatchIndirect records p with its group counts read by the device from buf
// at off (three u32, abi.IndirectDispatchBytes) when the dispatch runs, so an
// earlier dispatch of the same frame may compute them. The kernel is launched
// over a fixed grid of one CTA per core and each CTA walks the workgroups the
// record names; the host never reads the counts. spec: vortexpipe §2.3.2,
// command-processor §8.1 (device-side orchestration)
func (f *Frame) DispatchIndirect(p *Program, buf *Buffer, off uint64, bs ...Binding) error {
	idx := len(f.ds)
	if buf == nil {
		return f.fail(fmt.Errorf("compute: dispatch %d (%s): nil indirect buffer", idx, p.name))
	}
	if off%4 != 0 || off > uint64(buf.size) || uint64(buf.size)-off < abi.IndirectDispatchBytes {
		return f.fail(fmt.Errorf("compute: dispatch %d (%s): indirect record at %d: want a 4-byte aligned %d-byte record inside the %d-byte buffer",
			idx, p.name, off, abi.IndirectDispatchBytes, buf.size))
	}
	if p != nil && p.isa != nil && f.d.opts.Strict {
		return f.fail(fmt.Errorf("%w: dispatch %d (%s): an indirect dispatch runs the program's IR kernel (the machine code reads no indirect record)", ErrISARefused, idx, p.name))
	}
	dp, err := f.prepare(idx, p, bs)
	if err != nil {
		return f.fail(err)
	}
	dp.indirect, dp.indOff = buf, off
	f.ds = append(f.ds, dp)
	return nil
}

func (f *Frame) fail(err error) error {
	if f.err == nil {
		f.err = err
	}
	return err
}

// prepare checks the program against the device and the bindings against the
// program and builds the dispatch's descriptors.
func (f *Frame) prepare(idx int, p *Program, bs []Binding) (dispatch, error) {
	if p == nil {
		return dispatch{}, fmt.Errorf("compute: dispatch %d: nil program", idx)
	}
	if p.d != f.d {
		return dispatch{}, fmt.Errorf("compute: dispatch %d (%s): program compiled on another device", idx, p.name)
	}
	f.d.mu.Lock()
	live := f.d.progs[p.id] == p
	f.d.mu.Unlock()
	if !live {
		return dispatch{}, fmt.Errorf("compute: dispatch %d (%s): the program was released", idx, p.name)
	}
	if err := p.fits(); err != nil {
		return dispatch{}, fmt.Errorf("compute: dispatch %d (%s): %w", idx, p.name, err)
	}
	dp := dispatch{p: p, uniforms: p.uniformSnapshot()}
	for _, need := range p.bindings {
		var got *Binding
		for i := range bs {
			if bs[i].Kind == need.kind && bs[i].Slot == need.slot {
				got = &bs[i]
				break
			}
		}
		where := fmt.Sprintf("compute: dispatch %d (%s): %v binding %d (%s)", idx, p.name, need.kind, need.slot, need.name)
		if got == nil {
			return dispatch{}, fmt.Errorf("%s: %w: nothing bound", where, ErrBinding)
		}
		desc, buf, err := need.describe(got)
		if err != nil {
			return dispatch{}, fmt.Errorf("%s: %w: %v", where, ErrBinding, err)
		}
		if buf.d != f.d {
			return dispatch{}, fmt.Errorf("%s: %w: buffer of another device", where, ErrBinding)
		}
		dp.descs = append(dp.descs, desc)
		dp.bufs = append(dp.bufs, buf)
	}
	if err := f.prepareTextures(idx, p, bs, &dp); err != nil {
		return dispatch{}, err
	}
	return dp, nil
}

// FrameStats describes one submitted frame.
type FrameStats struct {
	Dispatches int
	Uploads    int // buffers uploaded (dirty)
	Readbacks  int // buffers read back (written by a dispatch)
	Doorbells  uint64
}

// argBytes is one compute arg block (abi.ArgSlots i64 slots).
const argBytes = abi.ArgSlots * abi.ArgSlotBytes

// Submit sends the frame as one batch and waits for it. On success every buffer
// a dispatch wrote holds the device's bytes. The frame is empty afterwards.
// spec: command-processor §8.1, §9; vortexpipe §1.3, §2.5
func (f *Frame) Submit() (FrameStats, error) {
	d := f.d
	ds := f.ds
	f.ds = nil
	if err := f.err; err != nil {
		f.err = nil
		return FrameStats{}, err
	}
	if len(ds) == 0 {
		return FrameStats{}, nil
	}
	d.frameMu.Lock()
	defer d.frameMu.Unlock()
	before := d.rt.Stats().Doorbells
	mod, err := d.resident()
	if err != nil {
		return FrameStats{}, err
	}
	// Every buffer the frame touches, in first-use order, and whether it is written.
	type use struct {
		b       *Buffer
		written bool
	}
	var uses []use
	at := map[*Buffer]int{}
	touch := func(b *Buffer, w bool) {
		i, ok := at[b]
		if !ok {
			i = len(uses)
			at[b] = i
			uses = append(uses, use{b: b})
		}
		uses[i].written = uses[i].written || w
	}
	// Scratch: each dispatch's descriptor blob and uniform words.
	var scratch []byte
	type place struct{ desc, uni, tex uint64 }
	places := make([]place, len(ds))
	for i := range ds {
		dp := &ds[i]
		for j, b := range dp.bufs {
			touch(b, dp.descs[j].Flags&abi.DescWritable != 0)
		}
		for _, b := range dp.texBufs {
			touch(b, false)
		}
		if dp.indirect != nil {
			touch(dp.indirect, false)
		}
		blob, err := abi.EncodeComputeDescs(dp.descs)
		if err != nil {
			return FrameStats{}, fmt.Errorf("compute: dispatch %d (%s): %w", i, dp.p.name, err)
		}
		places[i].desc = uint64(len(scratch))
		scratch = append(scratch, blob...)
		scratch = pad64(scratch)
		places[i].uni = uint64(len(scratch))
		scratch = append(scratch, dp.uniforms...)
		scratch = pad64(scratch)
		places[i].tex = uint64(len(scratch))
		scratch = append(scratch, dp.texTable...)
		scratch = pad64(scratch)
	}
	if err := d.ensureScratch(len(scratch)); err != nil {
		return FrameStats{}, err
	}
	sbase := d.scratch.Addr()
	batch := d.q.NewBatch()
	uploaded := make([]bool, len(uses))
	gens := make([]uint64, len(uses))
	st := FrameStats{Dispatches: len(ds)}
	for i, u := range uses {
		if uploaded[i], gens[i], err = u.b.stage(batch); err != nil {
			return FrameStats{}, err
		}
		if uploaded[i] {
			st.Uploads++
		}
	}
	if len(scratch) > 0 {
		batch.Write(d.scratch, 0, scratch)
	}
	steps := make([]runtime.DrawStep, 0, len(ds))
	launching := map[uint64]*Program{}
	for i := range ds {
		dp := &ds[i]
		entry := dp.p.entry
		switch {
		case dp.p.isa != nil && dp.indirect != nil:
			entry = dp.p.irEntry() // codegen reads no indirect record (isa.go)
			d.isaIndir.Add(1)
		case dp.p.isa != nil && dp.texIR != "":
			entry = dp.p.irEntry() // a texture the machine code's texelFetch does not decode
			d.isaTexIR.Add(1)
		}
		k, err := mod.Kernel(entry)
		if err != nil {
			return FrameStats{}, fmt.Errorf("compute: dispatch %d (%s): %w", i, dp.p.name, err)
		}
		if entry == dp.p.entry && dp.p.isa != nil {
			launching[k.Entry()] = dp.p
		}
		args := make([]byte, argBytes)
		le := binary.LittleEndian
		if len(dp.uniforms) > 0 {
			le.PutUint64(args[abi.ArgCSPushConstants*8:], sbase+places[i].uni)
		}
		le.PutUint64(args[abi.ArgCSDescSet0*8:], sbase+places[i].desc)
		le.PutUint64(args[abi.ArgCSBaseXY*8:], abi.CSBaseXY(dp.base[0], dp.base[1]))
		le.PutUint64(args[abi.ArgCSBaseZ*8:], uint64(dp.base[2]))
		if len(dp.texTable) > 0 {
			le.PutUint64(args[abi.ArgCSSWSampler*8:], sbase+places[i].tex)
		}
		if dp.p.isa != nil && dp.p.isa.frames != nil {
			le.PutUint64(args[abi.ArgCSFrames*8:], dp.p.isa.frames.Addr())
		}
		lp := runtime.LaunchParams{NDim: 3, Block: dp.p.local, LMemSize: dp.p.lmemSize(), Args: args}
		if dp.indirect != nil {
			le.PutUint64(args[abi.ArgCSIndirect*8:], dp.indirect.Addr()+dp.indOff)
			lp.Grid = [3]uint32{uint32(d.sim.GPU.NumCores()), 1, 1}
		} else {
			if dp.groups[0] == 0 || dp.groups[1] == 0 || dp.groups[2] == 0 {
				continue // an empty dispatch launches nothing
			}
			lp.Grid = dp.groups
		}
		steps = append(steps, runtime.LaunchStep(k, lp))
	}
	// A launch step is two bundle commands (the launch and its cache flush), so
	// 128 steps fill one CMD_DRAW descriptor; every bundle rides the same batch.
	for len(steps) > 0 {
		n := min(len(steps), abi.DrawMaxSteps/2)
		batch.Draw(steps[:n])
		steps = steps[n:]
	}
	backs := make([][]byte, len(uses))
	for i, u := range uses {
		if u.written {
			backs[i] = make([]byte, cap(u.b.data))
			batch.Read(u.b.dev, 0, backs[i])
			st.Readbacks++
		}
	}
	d.launchMu.Lock()
	d.launching = launching
	d.launchMu.Unlock()
	err = batch.Submit().Wait()
	d.launchMu.Lock()
	d.launching = nil
	d.launchMu.Unlock()
	if err != nil {
		if lerr := d.sim.GPU.LastLaunchError(); lerr != nil {
			err = fmt.Errorf("%w (device: %v)", err, lerr)
		}
		return FrameStats{}, fmt.Errorf("compute: frame of %d dispatches: %w", len(ds), err)
	}
	for i, u := range uses {
		u.b.landed(uploaded[i], gens[i], backs[i])
	}
	st.Doorbells = d.rt.Stats().Doorbells - before
	return st, nil
}

func pad64(b []byte) []byte {
	for len(b)%abi.LineBytes != 0 {
		b = append(b, 0)
	}
	return b
}

// ensureScratch makes the frame scratch buffer hold at least n bytes; it is
// kept across frames (which run one at a time), so a steady stream of frames
// allocates no device memory.
func (d *Device) ensureScratch(n int) error {
	if n == 0 || (d.scratch != nil && d.scratch.Size() >= uint64(n)) {
		return nil
	}
	size := uint64(max(n, 4096))
	if d.scratch != nil {
		size = max(size, 2*d.scratch.Size())
		if err := d.scratch.Free(); err != nil {
			return fmt.Errorf("compute: frame scratch: %w", err)
		}
		d.scratch = nil
	}
	b, err := d.rt.Alloc(size)
	if err != nil {
		return fmt.Errorf("compute: frame scratch of %d bytes: %w", size, err)
	}
	d.scratch = b
	return nil
}

// Dispatch runs p over groups workgroups as a frame of one dispatch.
// spec: vortexpipe §2.5
func (d *Device) Dispatch(p *Program, groups [3]uint32, bs ...Binding) error {
	f := d.NewFrame()
	if err := f.Dispatch(p, groups, bs...); err != nil {
		return err
	}
	_, err := f.Submit()
	return err
}

// DispatchIndirect runs p with the group counts the device reads from buf at off,
// as a frame of one dispatch. spec: vortexpipe §2.3.2
func (d *Device) DispatchIndirect(p *Program, buf *Buffer, off uint64, bs ...Binding) error {
	f := d.NewFrame()
	if err := f.DispatchIndirect(p, buf, off, bs...); err != nil {
		return err
	}
	_, err := f.Submit()
	return err
}
