package lower

import (
	"fmt"
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
	"vortexgfx/shader/ir"
)

// memVar is where a storage-block member, block instance or shared variable lives:
// a byte offset in a binding of a memory space, laid out std430 (std140 for a
// layout(std140) block). Shared variables are laid out one after the other in
// declaration order with the same rules.
type memVar struct {
	space  ir.Space
	bind   uint32
	off    int
	std140 bool
	block  *ast.InterfaceBlock // set for a block instance variable
	// rowMajor: a block member variable declared row_major (a member of a
	// block instance gets it from the member the place selects).
	rowMajor bool
}

// computeInputs maps the compute built-in inputs to their input words.
var computeInputs = map[string]int{
	"gl_LocalInvocationID":    ir.InLocalID,
	"gl_WorkGroupID":          ir.InWorkGroupID,
	"gl_NumWorkGroups":        ir.InNumWorkGroups,
	"gl_GlobalInvocationID":   ir.InGlobalID,
	"gl_LocalInvocationIndex": ir.InLocalIndex,
}

// layoutCompute lays out a compute stage: the built-in input words, the storage
// blocks, shared variables, images and atomic counters.
func (l *lowerer) layoutCompute() {
	p := l.p
	p.Stage = ir.Compute
	for k, n := range l.lp.LocalSize {
		p.LocalSize[k] = uint32(n)
	}
	p.InputWords = ir.ComputeInputWords
	for name, w := range computeInputs {
		n := 3
		if w == ir.InLocalIndex {
			n = 1
		}
		p.Inputs = append(p.Inputs, ir.Slot{Name: name, Word: w, Words: n, Type: ir.U32, Location: -1})
	}
	slices.SortFunc(p.Inputs, func(a, b ir.Slot) int { return a.Word - b.Word })
	for _, v := range l.globals {
		if w, ok := computeInputs[v.Name]; ok && v.Builtin && v.Kind == ast.VarIn {
			l.inputs[v] = w
			l.inVars = append(l.inVars, v)
		}
	}
	l.layoutMemory()
}

// layoutMemory lays out the storage blocks, shared variables, images and atomic
// counters of a compute, vertex or fragment stage (only compute declares shared
// variables). Each stage of a draw program has its own lists with the bindings
// the source gives, so two stages naming one binding address one buffer.
// spec: vortexpipe-driver §2.5 (descriptors by binding), GLSL 4.30 §4.3.7.
func (l *lowerer) layoutMemory() {
	p := l.p
	l.mem = map[*ast.Var]*memVar{}
	l.opaque = map[*ast.Var]*opaqueVar{}
	blocks := map[string]uint32{}
	shared := 0
	counterNext := map[uint32]uint32{}
	sharedByName := map[string]*memVar{}
	for _, u := range l.sp.Units {
		for _, b := range u.File.Blocks {
			if b.Storage != ast.StorageBuffer {
				continue
			}
			bind, seen := blocks[b.Name]
			if !seen {
				bind = uint32(max(b.Binding, 0))
				// An array of blocks takes consecutive bindings, one per element.
				n, name := 1, func(int) string { return b.Name }
				if b.Type != nil && b.Type.IsArray() {
					n, name = b.Type.Len, func(i int) string { return fmt.Sprintf("%s[%d]", b.Name, i) }
				}
				for i := 0; i < n; i++ {
					for _, x := range p.Buffers {
						if x.Binding == bind+uint32(i) {
							l.errorf(u.File.Pos(), "buffer blocks '%s' and '%s' share binding %d", x.Name, name(i), bind+uint32(i))
						}
					}
					bb := ir.BufferBinding{Name: name(i), Binding: bind + uint32(i), Fixed: uint32(b.Size), Stride: uint32(b.RuntimeStride), ReadOnly: true, WriteOnly: true}
					for _, m := range b.Members {
						bb.ReadOnly = bb.ReadOnly && m.Qual.ReadOnlyMem
						bb.WriteOnly = bb.WriteOnly && m.Qual.WriteOnlyMem
					}
					bb.Fixed = (bb.Fixed + 3) &^ 3
					p.Buffers = append(p.Buffers, bb)
				}
				blocks[b.Name] = bind
			}
			std140 := b.Layout == "std140"
			for _, m := range b.Members {
				l.mem[m] = &memVar{space: ir.SpaceBuffer, bind: bind, off: m.Offset, std140: std140, rowMajor: m.RowMajor}
			}
			if b.InstanceVar != nil {
				l.mem[b.InstanceVar] = &memVar{space: ir.SpaceBuffer, bind: bind, std140: std140, block: b}
			}
		}
		for _, v := range u.File.Globals {
			switch {
			case v.Kind == ast.VarShared:
				if mv := sharedByName[v.Name]; mv != nil {
					l.mem[v] = mv // one variable across the stage's units
					continue
				}
				size, align := types.MemLayout(v.Type, false)
				shared = (shared + align - 1) / align * align
				mv := &memVar{space: ir.SpaceShared, off: shared}
				l.mem[v], sharedByName[v.Name] = mv, mv
				shared += size
			case v.Kind == ast.VarUniform && isMemOpaque(v.Type):
				l.opaqueUniform(v, counterNext)
			}
		}
	}
	shared = (shared + 3) &^ 3
	if shared > types.MaxComputeSharedMemorySize && len(l.sp.Units) > 0 {
		l.errorf(l.sp.Units[0].File.Pos(), "shared variables take %d bytes, more than gl_MaxComputeSharedMemorySize (%d)", shared, types.MaxComputeSharedMemorySize)
	}
	p.SharedBytes = uint32(shared)
}

// blockElement returns the place of element x.Index of an array of buffer blocks:
// the block at binding + index. A constant index names the binding; another
// (dynamically uniform, GLSL 4.00 / ARB_gpu_shader5: the checker's rule) selects
// it at run time (blockDyn, eachBlock).
func (l *lowerer) blockElement(base place, x *ast.Index) place {
	bt, mv := base.t, base.st.mv
	cv := x.Index.Value()
	if cv == nil {
		nm := *mv
		base.st = &storage{t: bt.Elem, sampler: -1, mv: &nm}
		base.t = bt.Elem
		base.blockDyn = &blockSel{idx: l.expr(x.Index).r[0], n: bt.Len}
		return base
	}
	k := min(int(cv.Uint(0)), bt.Len-1)
	if x.Index.Type().Base == ast.Int {
		k = min(max(int(cv.Int(0)), 0), bt.Len-1)
	}
	nm := *mv
	nm.bind += uint32(k)
	base.st = &storage{t: bt.Elem, sampler: -1, mv: &nm}
	base.t = bt.Elem
	return base
}

// memStride returns the byte stride and element count of indexing a value of type
// t that lives in memory at place pl (n 0: a runtime-sized array), and for a
// row-major matrix the byte stride between the components of the column it
// selects (0 otherwise).
func memStride(t *ast.Type, pl *place) (stride, n, cstride int) {
	std140 := pl.st.mv.std140
	switch t.Kind {
	case ast.KindArray:
		return types.MemArrayStrideRM(t.Elem, std140, pl.rowMajor), t.Len, 0
	case ast.KindMatrix:
		if pl.rowMajor {
			// Column c is component c of every row.
			return 4, t.Cols, types.MatrixRowStride(t, std140)
		}
		return types.MemArrayStride(t.Column(), std140), t.Cols, 0
	}
	return vecStride(pl), t.Rows, 0
}

// vecStride is the byte stride between a vector place's components.
func vecStride(pl *place) int {
	if pl.cstride != 0 {
		return pl.cstride
	}
	return 4
}

// memFieldOffset returns the byte offset of field f of struct type t in memory
// at place pl: a block member's own offset when t is the block's struct.
func memFieldOffset(pl *place, t *ast.Type, f int) int {
	mv := pl.st.mv
	if mv.block != nil && isBlockStruct(mv.block, t) {
		return mv.block.Members[f].Offset
	}
	return types.MemFieldOffsetsRM(t.Struct, mv.std140, pl.rowMajor)[f]
}

// memWords appends the byte offset of every flattened word of a value of type t
// stored at base (matrices by rows when rowMajor; a vector's components cstride
// apart).
func memWords(t *ast.Type, std140, rowMajor bool, cstride, base int, out []int) []int {
	switch t.Kind {
	case ast.KindScalar:
		return append(out, base)
	case ast.KindVector:
		for i := 0; i < t.Rows; i++ {
			out = append(out, base+cstride*i)
		}
	case ast.KindMatrix:
		cs, rs := types.MemArrayStride(t.Column(), std140), 4
		if rowMajor {
			cs, rs = 4, types.MatrixRowStride(t, std140)
		}
		for c := 0; c < t.Cols; c++ {
			for r := 0; r < t.Rows; r++ {
				out = append(out, base+c*cs+r*rs)
			}
		}
	case ast.KindArray:
		st := types.MemArrayStrideRM(t.Elem, std140, rowMajor)
		for i := 0; i < t.Len; i++ {
			out = memWords(t.Elem, std140, rowMajor, 4, base+i*st, out)
		}
	case ast.KindStruct:
		offs := types.MemFieldOffsetsRM(t.Struct, std140, rowMajor)
		for i, f := range t.Struct.Fields {
			out = memWords(f.Type, std140, rowMajor, 4, base+offs[i], out)
		}
	}
	return out
}

// memAddr returns a uint register holding the byte address of the place's word at
// static byte offset off (the variable's offset, the place's offset and the
// dynamic index terms summed). Indices of sized arrays are clamped like register
// arrays; an index into a runtime-sized array is limited to 2^31 bytes so that the
// address cannot wrap around into the buffer: a huge or negative index addresses
// past the end of any buffer under 2 GiB, and the access is out of bounds.
func (l *lowerer) memAddr(pl *place, off int) ir.Reg {
	static := uint32(pl.st.mv.off + pl.off + off)
	addr := ir.NoReg
	for _, d := range pl.dyn {
		idx := d.idx
		if d.n > 0 {
			idx = l.clampIndex(idx, d.n)
		}
		if l.p.Regs[idx] != ir.U32 {
			idx = l.b.Op(ir.Cast, ir.U32, idx)
		}
		if d.n == 0 {
			idx = l.b.Op(ir.UMin, ir.U32, idx, l.b.ConstU(uint32(1<<31/max(d.stride, 1))))
		}
		if d.stride != 1 {
			idx = l.b.Op(ir.UMul, ir.U32, idx, l.b.ConstU(uint32(d.stride)))
		}
		if addr == ir.NoReg {
			addr = idx
		} else {
			addr = l.b.Op(ir.UAdd, ir.U32, addr, idx)
		}
	}
	switch {
	case addr == ir.NoReg:
		return l.b.ConstU(static)
	case static != 0:
		return l.b.Op(ir.UAdd, ir.U32, addr, l.b.ConstU(static))
	}
	return addr
}

// memOffsets returns the byte offsets of the words a memory place covers.
func (pl *place) memOffsets() []int {
	if pl.swz != nil {
		out := make([]int, len(pl.swz))
		for i, c := range pl.swz {
			out[i] = vecStride(pl) * c
		}
		return out
	}
	return memWords(pl.t, pl.st.mv.std140, pl.rowMajor, vecStride(pl), 0, nil)
}

func (l *lowerer) memInst(op ir.Op, dst ir.Reg, mv *memVar, src ...ir.Reg) {
	in := ir.Inst{Op: op, Dst: dst, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: mv.bind, Len: uint32(mv.space)}
	copy(in.Src[:], src)
	l.b.Emit(in)
}

// eachBlock emits fn for the element of an array of buffer blocks that pl's
// dynamic index selects: one If per element on the index (clamped to the array
// like any array index), so only the selected binding is accessed.
func (l *lowerer) eachBlock(pl place, fn func(place)) {
	sel := pl.blockDyn
	idx := l.clampIndex(sel.idx, sel.n)
	for k := 0; k < sel.n; k++ {
		l.b.Ctl(ir.If, l.b.Op(ir.Eq, ir.Bool, idx, l.b.ConstI(int32(k))))
		q := pl
		nm := *pl.st.mv
		nm.bind += uint32(k)
		st := *pl.st
		st.mv = &nm
		q.st, q.blockDyn = &st, nil
		fn(q)
		l.b.Ctl(ir.EndIf)
	}
}

// selectedBlock runs read on the selected element of a dynamically indexed
// array of buffer blocks and returns its words (fresh registers assigned in
// each element's branch).
func (l *lowerer) selectedBlock(pl place, t *ast.Type, read func(place) value) value {
	out := l.zero(t)
	l.eachBlock(pl, func(q place) {
		v := read(q)
		for i, r := range v.r {
			l.b.OpTo(ir.Mov, out.r[i], r)
		}
	})
	return out
}

// memRead loads the words of a memory place.
func (l *lowerer) memRead(pl place) value {
	if pl.blockDyn != nil {
		return l.selectedBlock(pl, pl.t, l.memRead)
	}
	bases := ast.WordBases(pl.t)
	offs := pl.memOffsets()
	out := value{t: pl.t, r: make([]ir.Reg, len(bases))}
	for k, bs := range bases {
		addr := l.memAddr(&pl, offs[k])
		if bs == ast.Bool {
			w := l.b.Reg(ir.U32)
			l.memInst(ir.MemLoad, w, pl.st.mv, addr)
			out.r[k] = l.b.Op(ir.Ne, ir.Bool, w, l.b.ConstU(0))
			continue
		}
		d := l.b.Reg(irType(bs))
		l.memInst(ir.MemLoad, d, pl.st.mv, addr)
		out.r[k] = d
	}
	return out
}

// memStore stores v into a memory place (bools as 0/1 words).
func (l *lowerer) memStore(pl place, v value) {
	if pl.blockDyn != nil {
		l.eachBlock(pl, func(q place) { l.memStore(q, v) })
		return
	}
	offs := pl.memOffsets()
	for k, r := range v.r {
		if k >= len(offs) {
			break
		}
		addr := l.memAddr(&pl, offs[k])
		if l.p.Regs[r] == ir.Bool {
			r = l.b.Op(ir.BtoU, ir.U32, r)
		}
		l.memInst(ir.MemStore, ir.NoReg, pl.st.mv, addr, r)
	}
}

// runtimeLength lowers x.length() of a storage block's runtime-sized array:
// (buffer size − array offset) / stride, 0 when the buffer ends before it.
func (l *lowerer) runtimeLength(x *ast.Call) value {
	pl := l.place(x.Method)
	if pl.st == nil || pl.st.mv == nil || pl.st.mv.space != ir.SpaceBuffer {
		l.errorf(x.Pos(), "length() of an unsized array outside a buffer block")
		return l.zero(x.Type())
	}
	if pl.blockDyn != nil {
		return l.selectedBlock(pl, x.Type(), func(q place) value { return l.memLength(q, x.Type()) })
	}
	return l.memLength(pl, x.Type())
}

// memLength is the run-time length of the runtime-sized array at place pl.
func (l *lowerer) memLength(pl place, t *ast.Type) value {
	stride, _, _ := memStride(pl.t, &pl)
	size := l.b.Reg(ir.U32)
	l.memInst(ir.MemSize, size, pl.st.mv)
	off := l.memAddr(&pl, 0)
	rest := l.b.Op(ir.USub, ir.U32, size, off)
	n := l.b.Op(ir.UDiv, ir.U32, rest, l.b.ConstU(uint32(stride)))
	n = l.b.Op(ir.Select, ir.U32, l.b.Op(ir.UGe, ir.Bool, size, off), n, l.b.ConstU(0))
	return value{t: t, r: []ir.Reg{l.b.Op(ir.Cast, ir.I32, n)}}
}

// atomicOps maps the atomic built-ins to IR atomic operations (signed variants
// for min/max on int).
func atomicOp(fn ast.Builtin, signed bool) (ir.AtomicOp, bool) {
	switch fn {
	case ast.FnAtomicAdd, ast.FnImageAtomicAdd:
		return ir.AtomicAdd, true
	case ast.FnAtomicMin, ast.FnImageAtomicMin:
		if signed {
			return ir.AtomicIMin, true
		}
		return ir.AtomicUMin, true
	case ast.FnAtomicMax, ast.FnImageAtomicMax:
		if signed {
			return ir.AtomicIMax, true
		}
		return ir.AtomicUMax, true
	case ast.FnAtomicAnd, ast.FnImageAtomicAnd:
		return ir.AtomicAnd, true
	case ast.FnAtomicOr, ast.FnImageAtomicOr:
		return ir.AtomicOr, true
	case ast.FnAtomicXor, ast.FnImageAtomicXor:
		return ir.AtomicXor, true
	case ast.FnAtomicExchange, ast.FnImageAtomicExchange:
		return ir.AtomicExchange, true
	case ast.FnAtomicCompSwap, ast.FnImageAtomicCompSwap:
		return ir.AtomicCompSwap, true
	}
	return 0, false
}

// computeBuiltin lowers barriers, atomics, atomic counters and image functions; ok
// is false for every other built-in.
func (l *lowerer) computeBuiltin(x *ast.Call) (value, bool) {
	fn := x.Builtin
	switch fn {
	case ast.FnBarrier:
		l.b.Ctl(ir.Barrier)
		return value{t: x.Type()}, true
	case ast.FnMemoryBarrier, ast.FnMemoryBarrierShared, ast.FnMemoryBarrierBuffer, ast.FnMemoryBarrierImage,
		ast.FnMemoryBarrierAtomicCounter, ast.FnGroupMemoryBarrier:
		// Memory operations complete in program order in this in-order model: the
		// memory barriers order nothing further. spec: vortexpipe-driver §2.3.2
		// ("pure memory barriers in this per-thread model are no-ops").
		return value{t: x.Type()}, true
	case ast.FnAtomicCounterIncrement, ast.FnAtomicCounterDecrement, ast.FnAtomicCounter,
		ast.FnAtomicCounterAdd, ast.FnAtomicCounterSubtract, ast.FnAtomicCounterMin, ast.FnAtomicCounterMax,
		ast.FnAtomicCounterAnd, ast.FnAtomicCounterOr, ast.FnAtomicCounterXor, ast.FnAtomicCounterExchange,
		ast.FnAtomicCounterCompSwap:
		return l.counterOp(x), true
	case ast.FnImageLoad, ast.FnImageStore, ast.FnImageSize:
		return l.imageOp(x), true
	}
	if strings.HasPrefix(fn.String(), "imageAtomic") {
		return l.imageOp(x), true
	}
	op, ok := atomicOp(fn, x.Type().Base == ast.Int)
	if !ok {
		return value{}, false
	}
	pl := l.place(x.Args[0])
	if pl.st == nil || pl.st.mv == nil || pl.selSwz != nil {
		l.errorf(x.Pos(), "'%s' needs a buffer or shared variable", fn)
		return l.zero(x.Type()), true
	}
	// The address does not depend on which block of an array the place selects.
	addr := l.memAddr(&pl, pl.memOffsets()[0])
	val := l.expr(x.Args[1]).r[0]
	cmp := val
	if op == ir.AtomicCompSwap {
		cmp, val = val, l.expr(x.Args[2]).r[0]
	}
	atomic := func(pl place) value {
		d := l.b.Reg(irType(x.Type().Base))
		in := ir.Inst{Op: ir.MemAtomic, Dst: d, Src: [4]ir.Reg{addr, val, cmp, ir.NoReg}, Imm: pl.st.mv.bind, Len: uint32(pl.st.mv.space), Stride: uint32(op)}
		l.b.Emit(in)
		return value{t: x.Type(), r: []ir.Reg{d}}
	}
	if pl.blockDyn != nil {
		return l.selectedBlock(pl, x.Type(), atomic), true
	}
	return atomic(pl), true
}

// isBlockStruct reports whether t is the struct type of block b's instance (of
// an element of an array of instances).
func isBlockStruct(b *ast.InterfaceBlock, t *ast.Type) bool {
	bt := b.Type
	if bt == nil {
		return false
	}
	for bt.IsArray() {
		bt = bt.Elem
	}
	return t.Struct == bt.Struct
}
