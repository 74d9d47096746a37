package codegen

import (
	"fmt"

	"vortexgfx/abi"
	"vortexgfx/device/simt"
	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// The vertex stage as machine code (CompileVertex). spec: vortexpipe-driver §2.3.2
// (the VS is the front end's stage 0, one thread per vertex), §2.5 (the vertex
// arg block); docs/ABI.md row 39 (the record layout and the launch this kernel
// implements, the contract of gfx/shaderdev's Go vertex kernel).
//
// Launch: a 1-D grid of CTAs of VertexOptions.CTAThreads threads; mscratch holds
// the vertex arg block (abi.ArgVS*). Thread gid = BLOCK_ID_X·BLOCK_DIM_X +
// THREAD_ID_X walks the raw vertex ids vraw = gid, gid + GRID_DIM_X·BLOCK_DIM_X,
// … below arg slot abi.ArgVSCount (a vx_pred loop round the program). Per vraw:
// with VertsPerInst v ≠ 0 the instance is vraw / v and the vertex vraw % v (else 0
// and vraw); the index is the vertex itself, or the u32 at IndexBuffer + 4·vertex
// when the index buffer is not 0; gl_VertexID = index + BaseVertex (32-bit wrap);
// attribute i's words are read from its {base, stride, divisor} entry of the
// attribute table (abi.VSAttribEntryBytes each) at base + element·stride, the
// element gl_VertexID or, for a divisor d ≠ 0, BaseInstance + instance / d; the
// uniform words are at the address in the first u64 of the descriptor table
// (arg slot abi.ArgVSDescTable). The program runs with its registers and outputs
// zeroed, as the executor starts every run, and its OutputWords words are stored
// as the record at Output + vraw·OutputWords·4. Only the low 32 bits of every
// arg-block and table word are read: the cores address 32 bits.

// VertexInputs says where a vertex program's input words come from: the words of
// gl_VertexID and gl_InstanceID (-1: not read) and, in attribute-table order, the
// attributes (attribute i feeds words Attribs[i].Word … +Words). A word none of
// them covers reads 0, as the executor's inputs start.
type VertexInputs struct {
	VertexID, InstanceID int
	Attribs              []ir.Slot
}

// VertexOptions are the launch a vertex kernel is compiled for.
type VertexOptions struct {
	// CTAThreads is the threads of a CTA (BLOCK_DIM_X): the frames in LMEM are
	// CTAThreads × Layout.FrameBytes (Layout.LMemBytes).
	CTAThreads uint32
	// LMemBytes is the local memory of the target core (0: unbounded). A kernel
	// whose frames exceed it is refused: the vertex arg block has no free slot
	// for frames in device memory.
	LMemBytes uint32
}

// vsGen is the vertex kernel's own state beside the generator's.
type vsGen struct {
	in      VertexInputs
	attrOf  []int  // input word → attribute index (-1: a system value or none)
	used    []bool // attributes whose words the program reads
	always  []bool // output words every iteration stores (no zeroing needed)
	vraw    vreg
	stride  vreg
	count   vreg
	args    vreg
	rec     vreg   // this iteration's output record address
	vid     vreg   // gl_VertexID
	iid     vreg   // gl_InstanceID
	attr    []vreg // attribute element addresses (noVreg: unused)
	tokIf   vreg
	tokLoop vreg
}

// CompileVertex translates a verified vertex program into a vertex-stage kernel
// (the contract above) linked at abi.LinkBaseVS. What it does not implement —
// textures, storage resources, an op the backend lacks — is refused with an error
// naming it. Float results follow ir.Program.FlushDenormals: every result of an op
// ir.Op.FlushesDenormals lists is flushed to a signed zero by explicit integer code
// (RV32F has no flush mode), so results are the executor's bits under the same
// exactness rules as compute (package doc).
func CompileVertex(p *ir.Program, in VertexInputs, opts VertexOptions) (*Kernel, error) {
	if p == nil || p.Stage != ir.Vertex {
		return nil, fmt.Errorf("codegen: CompileVertex takes a vertex program")
	}
	if err := ir.Verify(p); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	if opts.CTAThreads == 0 || opts.CTAThreads > 1024 {
		return nil, fmt.Errorf("codegen: vertex CTA of %d threads (1..1024)", opts.CTAThreads)
	}
	if len(p.Tex) > 0 { // declared samplers the stage never samples cost nothing
		return nil, fmt.Errorf("codegen: vertex-stage textures are not compiled to machine code yet")
	}
	if len(p.Buffers)+len(p.Counters)+len(p.Images) > 0 {
		return nil, fmt.Errorf("codegen: vertex-stage storage buffers, counters and images are not compiled to machine code")
	}
	if len(in.Attribs) > abi.VSMaxAttribs {
		return nil, fmt.Errorf("codegen: %d vertex attributes exceed the %d-entry attribute table", len(in.Attribs), abi.VSMaxAttribs)
	}
	v := &vsGen{in: in, attrOf: make([]int, p.InputWords), used: make([]bool, len(in.Attribs)),
		always: make([]bool, p.OutputWords)}
	for w := range v.attrOf {
		v.attrOf[w] = -1
	}
	for _, s := range []struct {
		name string
		w    int
	}{{"gl_VertexID", in.VertexID}, {"gl_InstanceID", in.InstanceID}} {
		if s.w >= p.InputWords {
			return nil, fmt.Errorf("codegen: %s at input word %d of %d", s.name, s.w, p.InputWords)
		}
	}
	for i, s := range in.Attribs {
		if s.Word < 0 || s.Words < 0 || s.Word+s.Words > p.InputWords {
			return nil, fmt.Errorf("codegen: attribute %d (%s) at input words %d+%d of %d", i, s.Name, s.Word, s.Words, p.InputWords)
		}
		for w := s.Word; w < s.Word+s.Words; w++ {
			if v.attrOf[w] >= 0 || w == in.VertexID || w == in.InstanceID {
				return nil, fmt.Errorf("codegen: attribute %d (%s) overlaps input word %d", i, s.Name, w)
			}
			v.attrOf[w] = i
		}
	}
	g := &gen{p: p, wscale: 1, vs: v}
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
	if g.barID != noVreg {
		return nil, fmt.Errorf("codegen: barrier() in a vertex program")
	}
	for k := range p.Code {
		if i := &p.Code[k]; i.Op == ir.LoadInput && int(i.Imm) < len(v.attrOf) && v.attrOf[i.Imm] >= 0 {
			v.used[v.attrOf[i.Imm]] = true
		}
	}
	v.vraw, v.stride, v.count, v.args = g.newVreg(false, 8), g.newVreg(false, 4), g.newVreg(false, 4), g.newVreg(false, 4)
	v.rec, v.vid, v.iid = g.newVreg(false, 4), g.newVreg(false, 2), g.newVreg(false, 2)
	v.tokIf, v.tokLoop = g.newVreg(false, 1), g.newVreg(false, 2)
	for i := range in.Attribs {
		r := noVreg
		if v.used[i] {
			r = g.newVreg(false, 4)
		}
		v.attr = append(v.attr, r)
	}
	top := &node{kind: nScope, body: tree}
	top.body = g.mark(top.body, nil)
	top.state = noVreg
	if hasReturn(top.body) {
		top.state = g.newVreg(false, 8)
	}
	for _, n := range top.body { // top-level stores run in every lane of an iteration
		if n.kind == nInst && n.in.Op == ir.StoreOutput {
			v.always[n.in.Imm] = true
		}
	}
	code, err := g.assemble(func() { g.emitVertex(top) }, func() error {
		if need := uint64(g.frame) * uint64(opts.CTAThreads); opts.LMemBytes != 0 && need > uint64(opts.LMemBytes) {
			return fmt.Errorf("codegen: the vertex kernel's frames need %d bytes of local memory (%d per thread), the core has %d", need, g.frame, opts.LMemBytes)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Kernel{Base: abi.LinkBaseVS, Code: code, Layout: Layout{
		LocalSize: [3]uint32{opts.CTAThreads, 1, 1}, UniformWords: p.UniformWords, FrameBytes: uint32(g.frame)}}, nil
}

// argWord loads the low word of vertex arg slot s into v.
func (g *gen) argWord(v vreg, s int) {
	r := g.tmpX()
	g.a.lw(r, g.x(g.vs.args), int32(s*abi.ArgSlotBytes))
	g.finX(v, r)
}

// emitVertex generates the vertex kernel: the frame and arg-block prologue, then
// the grid-stride loop whose body fetches the inputs, runs the program and stores
// the record.
func (g *gen) emitVertex(top *node) {
	a, v := &g.a, g.vs
	g.reset()
	lm, i, t := g.tmpX(), g.tmpX(), g.tmpX()
	a.csrr(lm, csrCTALMem)
	a.csrr(i, csrCTARank)
	a.csrr(t, simt.CSRNumThreads)
	a.r(rv32.MUL, i, i, t)
	a.csrr(t, simt.CSRThreadID)
	a.r(rv32.ADD, i, i, t)
	a.li(t, uint32(g.frame))
	a.r(rv32.MUL, t, i, t)
	a.r(rv32.ADD, rSP, lm, t)
	g.reset()
	r := g.tmpX()
	a.csrr(r, simt.CSRMscratch)
	g.finX(v.args, r)
	g.reset()
	g.argWord(v.count, abi.ArgVSCount)
	if g.uni != noVreg {
		r := g.tmpX()
		a.lw(r, g.x(v.args), abi.ArgVSDescTable*abi.ArgSlotBytes)
		a.lw(r, r, 0)
		g.finX(g.uni, r)
	}
	g.reset()
	x, bd, s := g.tmpX(), g.tmpX(), g.tmpX()
	a.csrr(x, csrCTABlockID)
	a.csrr(bd, csrCTAID+9) // BLOCK_DIM_X
	a.r(rv32.MUL, x, x, bd)
	a.csrr(s, csrCTAThreadID)
	a.r(rv32.ADD, x, x, s)
	g.finX(v.vraw, x)
	a.csrr(s, csrCTAGridDim)
	a.r(rv32.MUL, s, s, bd)
	g.finX(v.stride, s)

	// if vraw < count { loop { … } while vraw += stride < count }
	g.reset()
	c := g.tmpX()
	a.r(rv32.SLTU, c, g.x(v.vraw), g.x(v.count))
	skip := a.newLabel()
	g.split(v.tokIf, c, skip)
	ob := g.enter()
	g.reset()
	m := g.dx(v.tokLoop)
	a.csrr(m, simt.CSRActiveThread)
	g.finX(v.tokLoop, m)
	head := a.newLabel()
	a.place(head)
	lb := g.enter()
	lr := loopRange{start: len(g.refs), blk: g.blk}
	bb := g.enter()
	g.zeroInit()
	g.vertexFetch()
	if top.state != noVreg {
		g.reset()
		g.setConst(top.state, 0)
	}
	g.ctx = []*node{top}
	g.block(top.body)
	g.leave(bb)
	g.reset()
	d := g.dx(v.vraw)
	a.r(rv32.ADD, d, g.x(v.vraw), g.x(v.stride))
	g.finX(v.vraw, d)
	g.reset()
	c = g.tmpX()
	a.r(rv32.SLTU, c, g.x(v.vraw), g.x(v.count))
	a.emit(rv32.Inst{Op: rv32.VXPRED, Rs1: c, Rs2: g.x(v.tokLoop)})
	a.branch(rv32.BNE, c, rZero, head)
	g.leave(lb)
	lr.end = len(g.refs) - 1
	if g.rec {
		g.loops = append(g.loops, lr)
	}
	g.leave(ob)
	a.place(skip)
	g.join(v.tokIf)
	g.reset()
	a.emit(rv32.Inst{Op: rv32.VXTMC, Rs1: rZero}) // halt the warp
}

// vertexFetch is one iteration's prologue: instance, vertex, index and
// gl_VertexID of vraw, each read attribute's element address, the record
// address, and zeros in the output words not every iteration stores.
func (g *gen) vertexFetch() {
	a, v := &g.a, g.vs
	g.reset()
	raw := g.x(v.vraw)
	vpi, inst, vtx, t := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	args := g.x(v.args)
	a.lw(vpi, args, abi.ArgVSVertsPerInst*abi.ArgSlotBytes)
	// RISC-V M: divu by 0 is all ones, remu by 0 the dividend — vertex = vraw and,
	// masked by vpi ≠ 0, instance = 0 for a plain draw, without a branch.
	a.r(rv32.DIVU, inst, raw, vpi)
	a.r(rv32.REMU, vtx, raw, vpi)
	a.r(rv32.SLTU, t, rZero, vpi)
	a.r(rv32.SUB, t, rZero, t)
	a.r(rv32.AND, inst, inst, t)
	idx := g.tmpX()
	a.lw(t, args, abi.ArgVSIndexBuffer*abi.ArgSlotBytes)
	a.mv(idx, vtx)
	noIdx := a.newLabel()
	a.branch(rv32.BEQ, t, rZero, noIdx) // warp-uniform
	a.i(rv32.SLLI, idx, vtx, 2)
	a.r(rv32.ADD, idx, idx, t)
	a.lw(idx, idx, 0)
	a.place(noIdx)
	a.lw(t, args, abi.ArgVSBaseVertex*abi.ArgSlotBytes)
	a.r(rv32.ADD, idx, idx, t) // gl_VertexID
	g.finX(v.vid, idx)
	g.finX(v.iid, inst)
	// the record: Output + vraw·OutputWords·4
	a.lw(t, args, abi.ArgVSOutput*abi.ArgSlotBytes)
	a.li(vpi, uint32(4*g.p.OutputWords))
	a.r(rv32.MUL, vpi, raw, vpi)
	a.r(rv32.ADD, t, t, vpi)
	g.finX(v.rec, t)
	for w, ok := range v.always {
		if !ok {
			g.reset()
			rec, tmp := g.x(v.rec), g.tmpX()
			a.addConst(tmp, rec, int32(4*w), tmp)
			a.sw(rZero, tmp, 0)
		}
	}
	for i, av := range v.attr {
		if av == noVreg {
			continue
		}
		g.reset()
		args, inst, vid := g.x(v.args), g.x(v.iid), g.x(v.vid)
		e, base, st, div, el := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
		a.lw(e, args, abi.ArgVSAttribTable*abi.ArgSlotBytes)
		a.addConst(e, e, int32(i*abi.VSAttribEntryBytes), st)
		a.lw(base, e, 0)
		a.lw(st, e, 8)
		a.lw(div, e, 16)
		a.mv(el, vid)
		perVertex := a.newLabel()
		a.branch(rv32.BEQ, div, rZero, perVertex) // warp-uniform
		a.r(rv32.DIVU, el, inst, div)
		a.lw(div, args, abi.ArgVSBaseInstance*abi.ArgSlotBytes)
		a.r(rv32.ADD, el, el, div)
		a.place(perVertex)
		a.r(rv32.MUL, el, el, st)
		a.r(rv32.ADD, el, el, base)
		g.finX(av, el)
	}
}

// vertexInput generates LoadInput in a vertex kernel.
func (g *gen) vertexInput(in *ir.Inst) {
	v, dst := g.vs, vreg(in.Dst)
	w := int(in.Imm)
	switch {
	case w == v.in.VertexID:
		g.copyBits(dst, v.vid)
	case w == v.in.InstanceID:
		g.copyBits(dst, v.iid)
	case w < len(v.attrOf) && v.attrOf[w] >= 0:
		k := v.attrOf[w]
		addr := g.tmpX()
		a := &g.a
		a.addConst(addr, g.x(v.attr[k]), int32(4*(w-v.in.Attribs[k].Word)), addr)
		g.loadTo(dst, addr)
	default:
		g.setConst(dst, 0)
	}
}

// vertexOutput generates StoreOutput in a vertex kernel: the word goes straight to
// the record.
func (g *gen) vertexOutput(in *ir.Inst) {
	a := &g.a
	src := g.src(in, 0)
	addr := g.tmpX()
	a.addConst(addr, g.x(g.vs.rec), int32(4*in.Imm), addr)
	if g.home[src].kind == hF {
		a.fsw(g.f(src), addr, 0)
		return
	}
	a.sw(g.x(src), addr, 0)
}

// flushDst flushes a denormal result of in to the zero of its sign when the
// program flushes denormals (ir.FlushDenormal on the destination's bits, exactly
// as the executor applies it), since RV32F has no flush-to-zero mode: seven
// integer instructions on the bits, or — for a result in a float register
// that a single RV32F arithmetic instruction computed (canonicalNaNResult) —
// five without leaving the float register file: fclass.s's subnormal bits
// (0x24) pick a factor of 1.0 or 0.0 (fcvt.s.w of sltiu), and fmul.s by it.
// That is the same word for every value: x·1 is x for a normal, zero or
// infinite x and keeps RV32F's canonical NaN (the only NaN such an
// instruction returns), and a subnormal x·(+0) is the zero of x's sign.
// spec: GLSL 4.60 §4.7.1; RISC-V unprivileged ISA §11.3 (canonical NaN)
func (g *gen) flushDst(in *ir.Inst) {
	if !g.p.FlushDenormals || !in.Op.FlushesDenormals() || !in.Op.HasDst() || in.Dst == ir.NoReg {
		return
	}
	a := &g.a
	g.reset()
	d := vreg(in.Dst)
	if h := g.home[d]; h.kind == hF && canonicalNaNResult(in.Op) {
		g.ref(d, false)
		t, f := g.tmpX(), g.tmpF()
		a.r(rv32.FCLASSS, t, h.reg, 0)
		a.i(rv32.ANDI, t, t, 0x24) // -subnormal (bit 2), +subnormal (bit 5)
		a.i(rv32.SLTIU, t, t, 1)
		a.fr(rv32.FCVTSW, f, t, 0, rv32.RTZ) // exact: 0 or 1
		a.fr(rv32.FMULS, h.reg, h.reg, f, rv32.RNE)
		g.ref(d, true)
		return
	}
	r := g.x(d)
	t := g.tmpX()
	a.i(rv32.SRLI, t, r, 23)
	a.i(rv32.ANDI, t, t, 0xff)
	a.i(rv32.SLTIU, t, t, 1) // exponent 0: zero or denormal
	a.r(rv32.SUB, t, rZero, t)
	a.i(rv32.SRLI, t, t, 1)
	a.i(rv32.XORI, t, t, -1) // 0x80000000 when flushed, else all ones
	w := g.dx(d)
	a.r(rv32.AND, w, r, t)
	g.finX(d, w)
}

// canonicalNaNResult reports whether codegen computes op's result with one
// RV32F arithmetic instruction as its last (fadd.s, fsub.s, fmul.s, fdiv.s,
// fmadd.s; mod's closing fsub.s; the derivatives' fsub.s), whose NaN is always
// the canonical NaN: the ops flushDst may flush by a multiply.
func canonicalNaNResult(op ir.Op) bool {
	switch op {
	case ir.FAdd, ir.FSub, ir.FMul, ir.FDiv, ir.FMod, ir.Fma, ir.DdxFine, ir.DdyFine, ir.DdxCoarse, ir.DdyCoarse:
		return true
	}
	return false
}
