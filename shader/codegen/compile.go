package codegen

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/image"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// Kernel is a compiled compute program: RV32IMAF + Vortex machine code linked at
// Base (its entry), and the launch contract it was compiled for.
type Kernel struct {
	Base uint32
	// Code is the instructions, then DataWords words of read-only data
	// the code reads pc-relatively (a fragment kernel's level-of-detail
	// thresholds, lod.go).
	Code      []uint32
	DataWords int
	Layout    Layout
}

// Text is the kernel's instructions (Code without the trailing data).
func (k *Kernel) Text() []uint32 { return k.Code[:len(k.Code)-k.DataWords] }

// Layout is what a launcher must provide. The arg block (mscratch) is compute's:
// slot 0 the uniform words, slot 1 the set-0 descriptor blob (abi.EncodeComputeDescs)
// in which the kernel looks up each of Bindings by kind and binding at start (a
// binding the blob lacks has size 0: every access is out of bounds), slots 2/3 the
// dispatch base. spec: vortexpipe-driver §2.5. Warp r of a CTA has CTA_RANK r and
// its first thread's local index r·NUM_THREADS in the CTA THREAD_ID CSRs; the
// CTA's local memory (CTA_LMEM_ADDR, at least LMemBytes) holds the shared
// variables from byte 0 and then one Frame-byte frame per invocation (the
// allocator's spill slots). spec: vortex-hardware-facts.md §6, §9.9.
type Layout struct {
	LocalSize    [3]uint32
	UniformWords int
	Bindings     []Binding
	SharedBytes  uint32 // the program's shared variables, at LMEM offset 0
	FrameBytes   uint32 // per-invocation frame, after the shared variables
	Barrier      bool   // the kernel executes vx_bar (id CTA_ID, count CTA_SIZE)
	// FramesInMemory puts the frames in device memory instead of LMEM: arg slot
	// abi.ArgCSFrames points at FrameMemBytes(NUM_CORES) bytes, and the CTA on
	// CORE_ID c uses the frames from c·Invocations (Options.LMemBytes).
	FramesInMemory bool
}

// FrameMemBytes is the device memory the frames of a FramesInMemory kernel need
// on a device of cores cores (0 otherwise).
func (l Layout) FrameMemBytes(cores int) uint64 {
	if !l.FramesInMemory {
		return 0
	}
	return uint64(l.FrameBytes) * uint64(l.Invocations()) * uint64(cores)
}

// Options are compile-time choices of the launch contract. spec: vortexpipe-driver
// §2.5 (the arg block; frames ride raw shader-buffer slot 5, docs/ABI.md row 36)
type Options struct {
	// LMemBytes is the local memory the target core has (0: unbounded). A kernel
	// whose shared variables and frames would exceed it keeps only the shared
	// variables in LMEM and its frames in device memory (Layout.FramesInMemory).
	LMemBytes uint32
}

// Binding is one descriptor the kernel reads from the set-0 blob.
type Binding struct {
	Kind abi.ComputeDescKind
	Slot uint32
}

// Invocations returns the invocations of one workgroup.
func (l Layout) Invocations() uint32 { return l.LocalSize[0] * l.LocalSize[1] * l.LocalSize[2] }

// LMemBytes returns the CTA local memory the kernel needs (LMEM_SIZE).
func (l Layout) LMemBytes() uint32 {
	if l.FramesInMemory {
		return l.SharedBytes
	}
	return (l.SharedBytes+15)&^15 + l.FrameBytes*l.Invocations()
}

// Image returns the kernel as a loadable image (one executable segment at Base).
func (k *Kernel) Image() *image.Image {
	data := make([]byte, 4*len(k.Code))
	for i, w := range k.Code {
		data[4*i], data[4*i+1], data[4*i+2], data[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	seg := image.Segment{Addr: k.Base, Data: data, MemSize: uint32(len(data)), Exec: true}
	return &image.Image{Entry: k.Base, Segments: []image.Segment{seg}, Code: []image.Segment{seg}, Format: "vxbin"}
}

// VXBin returns the kernel as a .vxbin file (16-byte {min_vma, max_vma} header, then
// the image). spec: vortexpipe-driver §2.4.
func (k *Kernel) VXBin() []byte { return image.EncodeVXBin(k.Image()) }

// Compile translates a verified compute program into a Vortex kernel linked at
// abi.LinkBaseFS (compute shares the FS slot, vortexpipe-driver §2.4). An opcode it
// does not implement is refused with an error naming the opcode and the
// instruction, never approximated.
func Compile(p *ir.Program) (*Kernel, error) { return CompileWith(p, Options{}) }

// CompileWith is Compile for a target with the given options.
func CompileWith(p *ir.Program, opts Options) (*Kernel, error) {
	if p == nil || p.Stage != ir.Compute {
		return nil, fmt.Errorf("codegen: only compute programs are compiled to machine code")
	}
	if err := ir.Verify(p); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	if n := p.Invocations(); n == 0 || n > 1024 {
		return nil, fmt.Errorf("codegen: workgroup of %d invocations (1..1024)", n)
	}
	if p.FlushDenormals {
		return nil, fmt.Errorf("codegen: the program flushes denormals; RV32F has no flush-to-zero mode")
	}
	for i := range p.Tex {
		if why := fetchRefusal(p, &p.Tex[i]); why != "" {
			return nil, fmt.Errorf("codegen: compute-stage texture: %s", why)
		}
	}
	g := &gen{p: p, wscale: 1}
	for _, t := range p.Regs {
		g.float = append(g.float, t == ir.F32)
	}
	g.weight = make([]int, len(p.Regs))
	g.arrayed = make([]bool, len(p.Regs))
	for i := range g.in {
		g.in[i] = noVreg
	}
	tree, _, err := parse(p.Code, 0)
	if err != nil {
		return nil, err
	}
	g.scanResources()
	top := &node{kind: nScope, body: tree}
	top.body = g.mark(top.body, nil)
	top.state = noVreg
	if hasReturn(top.body) {
		top.state = g.newVreg(false, 8)
	}
	code, err := g.assemble(func() { g.emit(top) }, func() error {
		// Frames that do not fit beside shared memory spill to device memory.
		if need := uint64((p.SharedBytes+15)&^15) + uint64(g.frame)*uint64(p.Invocations()); opts.LMemBytes != 0 && need > uint64(opts.LMemBytes) {
			g.framesMem = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	k := &Kernel{Base: abi.LinkBaseFS, Code: code, Layout: Layout{
		LocalSize: p.LocalSize, UniformWords: p.UniformWords, SharedBytes: p.SharedBytes,
		FrameBytes: uint32(g.frame), Barrier: g.barID != noVreg, FramesInMemory: g.framesMem}}
	for _, b := range g.binds {
		k.Layout.Bindings = append(k.Layout.Bindings, Binding{Kind: b.kind, Slot: b.slot})
	}
	return k, nil
}

// emit generates the whole kernel: prologue, body, halt.
func (g *gen) emit(top *node) {
	g.prologue()
	g.ctx = []*node{top}
	if top.state != noVreg {
		g.setConst(top.state, 0)
	}
	g.block(top.body)
	g.reset()
	g.a.emit(rv32.Inst{Op: rv32.VXTMC, Rs1: rZero}) // halt the warp
}

// scanResources creates the prologue's values the program needs: bindings, the
// uniform pointer, local memory and the barrier operands.
func (g *gen) scanResources() {
	g.idx, g.uni, g.lmem, g.barID, g.barCnt = noVreg, noVreg, noVreg, noVreg, noVreg
	g.idx = g.newVreg(false, 1)
	for i := range g.p.Code {
		in := &g.p.Code[i]
		switch in.Op {
		case ir.LoadUniform, ir.LoadUniformIdx:
			if g.uni == noVreg {
				g.uni = g.newVreg(false, 0)
			}
			g.bump(g.uni, 2)
		case ir.Barrier:
			if g.barID == noVreg {
				g.barID, g.barCnt = g.newVreg(false, 1), g.newVreg(false, 1)
			}
		case ir.ImageExtent, ir.ImageFormatOf:
			b := g.bindingOf(ir.SpaceImage, in.Imm)
			if in.Op == ir.ImageFormatOf {
				if b.format == noVreg {
					b.format = g.newVreg(false, 1)
				}
			} else if in.Stride < 3 && b.ext[in.Stride] == noVreg {
				b.ext[in.Stride] = g.newVreg(false, 1)
			}
		case ir.MemLoad, ir.MemStore, ir.MemAtomic, ir.MemSize:
			space := ir.Space(in.Len)
			if space == ir.SpaceShared {
				if g.lmem == noVreg {
					g.lmem = g.newVreg(false, 0)
				}
				g.bump(g.lmem, 4)
				continue
			}
			if space > ir.SpaceImage {
				continue
			}
			b := g.bindingOf(space, in.Imm)
			if in.Op == ir.MemSize {
				g.bump(b.size, 2)
			} else {
				g.bump(b.base, 4)
				g.bump(b.lim, 4)
			}
		}
	}
}

// bindingOf returns the prologue's binding for (space, slot), creating it.
func (g *gen) bindingOf(space ir.Space, slot uint32) *binding {
	if b := g.bindingFor(space, slot); b != nil {
		return b
	}
	kind := map[ir.Space]abi.ComputeDescKind{ir.SpaceBuffer: abi.DescStorageBuffer,
		ir.SpaceCounter: abi.DescAtomicCounter, ir.SpaceImage: abi.DescStorageImage}[space]
	g.binds = append(g.binds, binding{kind: kind, space: space, slot: slot,
		base: g.newVreg(false, 0), lim: g.newVreg(false, 0), size: g.newVreg(false, 0),
		ext: [3]vreg{noVreg, noVreg, noVreg}, format: noVreg})
	return &g.binds[len(g.binds)-1]
}

// prologue computes the invocation's frame pointer, ids, uniform pointer and
// bindings from the CSRs and the arg block. spec: vortexpipe-driver §2.3.2 (ids
// from the CTA CSRs, the workgroup id plus the dispatch base of arg slots 2/3), §2.5.
func (g *gen) prologue() {
	a := &g.a
	g.reset()
	lm, i, t := g.tmpX(), g.tmpX(), g.tmpX()
	a.csrr(lm, csrCTALMem)
	a.csrr(i, csrCTARank)
	a.csrr(t, simt.CSRNumThreads)
	a.r(rv32.MUL, i, i, t)
	a.csrr(t, simt.CSRThreadID)
	a.r(rv32.ADD, i, i, t)
	if g.framesMem { // sp = frames + (CORE_ID·invocations + index)·frame
		u := g.tmpX()
		a.csrr(u, simt.CSRCoreID)
		a.li(t, uint32(g.p.Invocations()))
		a.r(rv32.MUL, u, u, t)
		a.r(rv32.ADD, u, u, i)
		a.li(t, uint32(g.frame))
		a.r(rv32.MUL, u, u, t)
		a.csrr(t, simt.CSRMscratch)
		a.lw(t, t, abi.ArgCSFrames*abi.ArgSlotBytes)
		a.r(rv32.ADD, rSP, t, u)
	} else {
		a.li(t, uint32(g.frame))
		a.r(rv32.MUL, t, i, t)
		a.r(rv32.ADD, rSP, lm, t)
		a.addConst(rSP, rSP, int32((g.p.SharedBytes+15)&^15), t)
	}
	// sp is set: homes on the frame can be written from here on
	if g.lmem != noVreg {
		g.finX(g.lmem, lm)
	}
	if v := g.in[ir.InLocalIndex]; v != noVreg {
		g.finX(v, i)
	}
	g.zeroInit()

	g.reset()
	args := g.tmpX()
	a.csrr(args, simt.CSRMscratch)
	if g.uni != noVreg {
		r := g.tmpX()
		a.lw(r, args, abi.ArgCSPushConstants*abi.ArgSlotBytes)
		g.finX(g.uni, r)
		g.xs--
	}
	for c := 0; c < 3; c++ {
		local, wg, num, glob := g.in[ir.InLocalID+c], g.in[ir.InWorkGroupID+c], g.in[ir.InNumWorkGroups+c], g.in[ir.InGlobalID+c]
		save := g.xs
		l := g.tmpX()
		a.csrr(l, uint16(csrCTAThreadID+c))
		if local != noVreg {
			g.finX(local, l)
		}
		if num != noVreg {
			r := g.tmpX()
			a.csrr(r, uint16(csrCTAGridDim+c))
			g.finX(num, r)
		}
		if wg != noVreg || glob != noVreg {
			r, b := g.tmpX(), g.tmpX()
			a.csrr(r, uint16(csrCTABlockID+c))
			off := []int32{abi.ArgCSBaseXY * abi.ArgSlotBytes, abi.ArgCSBaseXY*abi.ArgSlotBytes + 4, abi.ArgCSBaseZ * abi.ArgSlotBytes}[c]
			a.lw(b, args, off)
			a.r(rv32.ADD, r, r, b)
			if wg != noVreg {
				g.finX(wg, r)
			}
			if glob != noVreg {
				a.li(b, g.p.LocalSize[c])
				a.r(rv32.MUL, r, r, b)
				a.r(rv32.ADD, r, r, l)
				g.finX(glob, r)
			}
		}
		g.xs = save
	}
	if g.barID != noVreg {
		r := g.tmpX()
		a.csrr(r, csrCTAID)
		g.finX(g.barID, r)
		a.csrr(r, csrCTASize)
		g.finX(g.barCnt, r)
		g.xs--
	}
	for k := range g.binds {
		g.lookup(args, &g.binds[k])
	}
}

// lookup finds binding b in the set-0 descriptor blob (arg slot 1): a warp-uniform
// walk over the blob's entries, so its branches never diverge. A null pointer or a
// blob without the magic counts as empty. spec: vortexpipe-driver §2.5 (abi's
// compute descriptor blob).
func (g *gen) lookup(args uint8, b *binding) {
	a := &g.a
	save := g.xs
	desc, base, size, cnt, ptr, k, m := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	done, miss, loop, next := a.newLabel(), a.newLabel(), a.newLabel(), a.newLabel()
	a.lw(desc, args, abi.ArgCSDescSet0*abi.ArgSlotBytes)
	a.mv(base, rZero)
	a.mv(size, rZero)
	a.branch(rv32.BEQ, desc, rZero, miss)
	a.lw(m, desc, 0)
	a.li(k, abi.ComputeDescMagic)
	a.branch(rv32.BNE, m, k, miss)
	a.lw(cnt, desc, 4)
	a.i(rv32.ADDI, ptr, desc, abi.ComputeDescHeaderBytes)
	a.place(loop)
	a.branch(rv32.BEQ, cnt, rZero, miss)
	a.i(rv32.LBU, k, ptr, 0)
	a.i(rv32.ADDI, k, k, -int32(b.kind))
	a.branch(rv32.BNE, k, rZero, next)
	a.lw(k, ptr, 4)
	a.li(m, b.slot)
	a.branch(rv32.BNE, k, m, next)
	a.lw(base, ptr, 8)
	a.lw(size, ptr, 16)
	for c, v := range b.ext { // width, height, depth at 20, 24, 28
		if v != noVreg {
			a.lw(k, ptr, int32(20+4*c))
			g.finX(v, k)
		}
	}
	if b.format != noVreg {
		a.i(rv32.LHU, k, ptr, 2)
		g.finX(b.format, k)
	}
	a.jump(done)
	a.place(next)
	a.i(rv32.ADDI, ptr, ptr, abi.ComputeDescEntryBytes)
	a.i(rv32.ADDI, cnt, cnt, -1)
	a.jump(loop)
	a.place(miss) // no such descriptor: size, extent and format 0
	for _, v := range b.ext {
		if v != noVreg {
			g.finX(v, rZero)
		}
	}
	if b.format != noVreg {
		g.finX(b.format, rZero)
	}
	a.place(done)
	g.finX(b.base, base)
	g.finX(b.size, size)
	a.i(rv32.SLTIU, k, size, 4) // lim = size >= 4 ? size-3 : 0
	a.i(rv32.ADDI, k, k, -1)
	a.i(rv32.ADDI, m, size, -3)
	a.r(rv32.AND, m, m, k)
	g.finX(b.lim, m)
	g.xs = save
}

// zeroInit zeroes the register-array area and the IR registers a read may reach
// before any write (the executor's registers start at zero; see intervals). The
// dry run, which decides which those are, zeroes none.
func (g *gen) zeroInit() {
	for r := range g.p.Regs {
		switch {
		case g.arrayed[r]:
			b, o := g.slot(g.regArea + 4*int32(r))
			g.a.sw(rZero, b, o)
		case !g.rec && g.zero[r]:
			g.reset()
			g.setConst(vreg(r), 0)
		}
	}
}
