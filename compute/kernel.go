package compute

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"

	"vortexgfx/abi"
	"vortexgfx/device"
	"vortexgfx/device/swtex"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// groupScratch is one core's workgroup runner for a program and the state its
// kernel reuses from CTA to CTA.
type groupScratch struct {
	wg   *exec.Workgroup
	mem  devMemory
	uni  []uint32
	ub   []byte
	blob []byte // the descriptor blob as read
	tex  *swtex.Sampler
}

func (p *Program) scratch(width int) (*groupScratch, error) {
	select {
	case s := <-p.free:
		return s, nil
	default:
	}
	wg, err := exec.NewWorkgroup(p.prog, exec.Config{Width: width})
	if err != nil {
		return nil, err
	}
	s := &groupScratch{wg: wg, uni: make([]uint32, max(p.prog.UniformWords, 1)), ub: make([]byte, 4*max(p.prog.UniformWords, 1)),
		blob: make([]byte, abi.ComputeDescBlobBytes(abi.ComputeDescMaxEntries))}
	s.mem.res = make([]resource, len(p.bindings))
	s.mem.d = p.d
	if err := wg.SetUniforms(s.uni); err != nil {
		return nil, err
	}
	if len(p.prog.Samplers) > 0 {
		s.tex = swtex.New()
		wg.SetSampler(s.tex)
	}
	return s, nil
}

// kernel is the program's kernel_main, one CTA per workgroup (vortexpipe §2.2):
// it reads the arg block — slot 0 the uniform words, slot 1 the set-0 descriptor
// blob, slots 2/3 the dispatch base, slot 4 the indirect record (0: direct) —
// relocates each descriptor the program declares, and runs the workgroup's warps
// with exec.Workgroup against device memory, the shared variables in the CTA's
// local memory (c.LMem: LMEM_SIZE bytes; a launch whose LMEM_SIZE is smaller
// than the program's shared variables is refused). A direct dispatch runs workgroup
// BlockIdx (the CTA block-id CSRs) of a GridDim grid; an indirect one reads the
// group counts from device memory and walks workgroups BlockIdx.x, +GridDim.x, …
// spec: vortexpipe §2.2, §2.3.2, §2.5
func (p *Program) kernel(c *device.CTA) error {
	if c.Threads != int(p.prog.Invocations()) {
		return fmt.Errorf("%s: CTA of %d threads for a %v workgroup", p.name, c.Threads, p.local)
	}
	s, err := p.scratch(c.WarpWidth)
	if err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	defer func() {
		select {
		case p.free <- s:
		default:
		}
	}()
	push, desc := c.Arg(abi.ArgCSPushConstants), c.Arg(abi.ArgCSDescSet0)
	baseXY, baseZ, ind := c.Arg(abi.ArgCSBaseXY), c.Arg(abi.ArgCSBaseZ), c.Arg(abi.ArgCSIndirect)
	if err := c.Err(); err != nil {
		return err
	}
	if n := p.prog.UniformWords; n > 0 {
		if push == 0 {
			return fmt.Errorf("%s: %d uniform words and no uniform buffer in arg slot %d", p.name, n, abi.ArgCSPushConstants)
		}
		c.Read(push, s.ub[:4*n])
		for i := range n {
			s.uni[i] = binary.LittleEndian.Uint32(s.ub[4*i:])
		}
	}
	if err := s.mem.bind(c, p, desc, s.blob); err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	defer s.mem.unbind()
	if n := len(p.prog.Samplers); n > 0 {
		tt := c.Arg(abi.ArgCSSWSampler)
		if tt == 0 || p.d.view == nil {
			return fmt.Errorf("%s: the program samples %d textures and arg slot %d holds no sampler table (or memory cannot be viewed)", p.name, n, abi.ArgCSSWSampler)
		}
		if err := s.tex.Bind(p.d.view, tt, n); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
	}
	ids := exec.WorkgroupIDs{Base: [3]uint32{uint32(baseXY), uint32(baseXY >> 32), uint32(baseZ)}}
	ctx := context.Background()
	if ind == 0 {
		ids.ID, ids.Num = c.BlockIdx, c.GridDim
		if err := s.wg.RunShared(ctx, ids, &s.mem, c.LMem); err != nil {
			return fmt.Errorf("%s: workgroup %v: %w", p.name, c.BlockIdx, err)
		}
		return c.Err()
	}
	var rec [abi.IndirectDispatchBytes]byte
	c.Read(ind, rec[:])
	if err := c.Err(); err != nil {
		return fmt.Errorf("%s: indirect record at 0x%x: %w", p.name, ind, err)
	}
	for i := range ids.Num {
		ids.Num[i] = binary.LittleEndian.Uint32(rec[4*i:])
		if ids.Num[i] > MaxGroupCount {
			return fmt.Errorf("%s: indirect record at 0x%x: group count %v: dimension %d exceeds %d", p.name, ind, ids.Num, i, MaxGroupCount)
		}
	}
	gx, gy := uint64(ids.Num[0]), uint64(ids.Num[1])
	total := gx * gy * uint64(ids.Num[2])
	stride := uint64(c.GridDim[0]) * uint64(c.GridDim[1]) * uint64(c.GridDim[2])
	first := uint64(c.BlockIdx[0]) + uint64(c.GridDim[0])*(uint64(c.BlockIdx[1])+uint64(c.GridDim[1])*uint64(c.BlockIdx[2]))
	for g := first; g < total && c.Err() == nil; g += stride {
		ids.ID = [3]uint32{uint32(g % gx), uint32(g / gx % gy), uint32(g / (gx * gy))}
		if err := s.wg.RunShared(ctx, ids, &s.mem, c.LMem); err != nil {
			return fmt.Errorf("%s: workgroup %v: %w", p.name, ids.ID, err)
		}
	}
	return c.Err()
}

// resource is one relocated descriptor as the kernel reaches it.
type resource struct {
	space   ir.Space
	binding uint32
	addr    uint64
	size    uint32
	extent  [3]uint32
	format  ir.ImageFormat // the bound image's format (images)
	view    []byte         // device memory aliased (nil: go through the CTA)
}

// devMemory is exec.Memory over device memory for one CTA: the program's
// descriptors relocated to their device buffers. With a memory that hands out
// views (no VM) each access is a slice index; under VM every lane goes through
// the CTA's translated reads and writes. Atomics are serialised device-wide, so
// totals do not depend on how CTAs are spread over the cores. spec: vortexpipe §2.5
type devMemory struct {
	d   *Device
	c   *device.CTA
	res []resource
}

// bind reads the descriptor blob at addr and relocates each binding the program
// declares.
func (m *devMemory) bind(c *device.CTA, p *Program, addr uint64, blob []byte) error {
	m.c = c
	hdr := blob[:abi.ComputeDescHeaderBytes]
	c.Read(addr, hdr)
	if err := c.Err(); err != nil {
		return fmt.Errorf("descriptor blob at 0x%x: %w", addr, err)
	}
	n, err := abi.DecodeComputeDescHeader(hdr)
	if err != nil {
		return fmt.Errorf("descriptor blob at 0x%x: %w", addr, err)
	}
	body := blob[abi.ComputeDescHeaderBytes:abi.ComputeDescBlobBytes(n)]
	c.Read(addr+abi.ComputeDescHeaderBytes, body)
	if err := c.Err(); err != nil {
		return fmt.Errorf("descriptor blob at 0x%x: %w", addr, err)
	}
	for i := range p.bindings {
		decl := &p.bindings[i]
		r := &m.res[i]
		*r = resource{space: decl.space, binding: decl.slot}
		found := false
		for j := 0; j < n; j++ {
			e, err := abi.DecodeComputeDesc(body, j)
			if err != nil {
				return fmt.Errorf("descriptor blob at 0x%x: %w", addr, err)
			}
			if e.Kind != decl.kind || e.Binding != decl.slot {
				continue
			}
			r.addr, r.size, found = e.Addr, e.Size, true
			r.extent = [3]uint32{e.Width, e.Height, e.Depth}
			if decl.kind == abi.DescStorageImage {
				r.format = ir.ImageFormat(e.Format)
				if r.format.String() == "format?" {
					return fmt.Errorf("image binding %d: format %d", decl.slot, e.Format)
				}
				need := uint64(e.Width) * uint64(e.Height) * uint64(e.Depth) * uint64(r.format.TexelBytes())
				if need > uint64(e.Size) {
					return fmt.Errorf("image binding %d: %dx%dx%d texels need %d bytes, the descriptor has %d", decl.slot, e.Width, e.Height, e.Depth, need, e.Size)
				}
			}
			break
		}
		if !found {
			return fmt.Errorf("%v binding %d (%s) has no descriptor", decl.kind, decl.slot, decl.name)
		}
		if m.d.view != nil && r.size > 0 {
			v, err := m.d.view.View(r.addr, int(r.size))
			if err != nil {
				return fmt.Errorf("%v binding %d at 0x%x (+%d): %w", decl.kind, decl.slot, r.addr, r.size, err)
			}
			r.view = v
		}
	}
	return nil
}

// unbind drops the CTA and the views (the buffers may be freed after the launch).
func (m *devMemory) unbind() {
	m.c = nil
	for i := range m.res {
		m.res[i].view = nil
	}
}

func (m *devMemory) find(space ir.Space, binding uint32) *resource {
	for i := range m.res {
		if r := &m.res[i]; r.space == space && r.binding == binding {
			return r
		}
	}
	return nil
}

// Size implements exec.Memory.
func (m *devMemory) Size(space ir.Space, binding uint32) uint32 {
	if r := m.find(space, binding); r != nil {
		return r.size
	}
	return 0
}

// ImageExtent implements exec.Memory.
func (m *devMemory) ImageExtent(binding uint32) [3]uint32 {
	if r := m.find(ir.SpaceImage, binding); r != nil {
		return r.extent
	}
	return [3]uint32{}
}

// ImageFormat implements exec.ImageFormatter: the format of the bound image,
// from its descriptor, for programs whose writeonly image has no format
// qualifier. spec: vortexpipe §2.5 (VP_DESC_IMAGE)
func (m *devMemory) ImageFormat(binding uint32) ir.ImageFormat {
	if r := m.find(ir.SpaceImage, binding); r != nil {
		return r.format
	}
	return ir.FormatUnknown
}

func (m *devMemory) lookup(space ir.Space, binding uint32) (*resource, error) {
	r := m.find(space, binding)
	if r == nil {
		return nil, fmt.Errorf("no %v binding %d relocated", space, binding)
	}
	return r, nil
}

// Load implements exec.Memory.
func (m *devMemory) Load(space ir.Space, binding uint32, addr []uint32, mask uint64, out []uint32) error {
	r, err := m.lookup(space, binding)
	if err != nil {
		return err
	}
	if v := r.view; v != nil {
		for mm := mask; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			out[l] = binary.LittleEndian.Uint32(v[addr[l]:])
		}
		return nil
	}
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		out[l] = m.c.ReadU32(r.addr + uint64(addr[l]))
	}
	return m.c.Err()
}

// Store implements exec.Memory.
func (m *devMemory) Store(space ir.Space, binding uint32, addr []uint32, mask uint64, val []uint32) error {
	r, err := m.lookup(space, binding)
	if err != nil {
		return err
	}
	if v := r.view; v != nil {
		for mm := mask; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			binary.LittleEndian.PutUint32(v[addr[l]:], val[l])
		}
		return nil
	}
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		m.c.WriteU32(r.addr+uint64(addr[l]), val[l])
	}
	return m.c.Err()
}

// Atomic implements exec.Memory: the warp's lanes apply in lane order under the
// device's atomic lock.
func (m *devMemory) Atomic(op ir.AtomicOp, space ir.Space, binding uint32, addr, val, cmp []uint32, mask uint64, out []uint32) error {
	r, err := m.lookup(space, binding)
	if err != nil {
		return err
	}
	m.d.atomicMu.Lock()
	defer m.d.atomicMu.Unlock()
	if v := r.view; v != nil {
		for mm := mask; mm != 0; mm &= mm - 1 {
			l := bits.TrailingZeros64(mm)
			w := v[addr[l]:]
			old := binary.LittleEndian.Uint32(w)
			binary.LittleEndian.PutUint32(w, ir.AtomicResult(op, old, val[l], cmp[l]))
			out[l] = old
		}
		return nil
	}
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := bits.TrailingZeros64(mm)
		a := r.addr + uint64(addr[l])
		old := m.c.ReadU32(a)
		m.c.WriteU32(a, ir.AtomicResult(op, old, val[l], cmp[l]))
		out[l] = old
	}
	return m.c.Err()
}
