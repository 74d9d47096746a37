package lower

import (
	"fmt"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// storage is where a variable lives: a contiguous register range, a range of the
// uniform buffer, or (samplers) a first sampler binding.
type storage struct {
	t       *ast.Type
	base    ir.Reg // registers
	uniform bool
	word    int  // uniform word
	sampler int  // first sampler binding, -1 if none
	isSamp  bool // a sampler or sampler array (no data words)
	// leaves and leafBind give, for a variable holding samplers, each sampler's
	// flattened word offset and the binding it refers to.
	leaves   []int
	leafBind []int
	// mv is set for variables in memory (storage blocks, shared variables).
	mv *memVar
}

// leafBinding returns the binding of the sampler at word offset off of st.
func (st *storage) leafBinding(off int) (int, bool) {
	for i, o := range st.leaves {
		if o == off && i < len(st.leafBind) {
			return st.leafBind[i], true
		}
	}
	return 0, false
}

// breakable is an enclosing loop or switch.
type breakable struct {
	isSwitch bool
	cont     ir.Reg // switch: flag set when a continue leaves the switch
}

// fnState is the per-function lowering state.
type fnState struct {
	ret    []ir.Reg // return value registers
	breaks []breakable
}

type funcKey struct {
	f     *ast.Func
	samps string
}

type lowerer struct {
	lp    *glsl.Program
	sp    *glsl.StageProgram
	stage ast.Stage
	ul    *uniformLayout
	p     *ir.Program
	b     *ir.Builder

	vars    map[*ast.Var]*storage
	inputs  map[*ast.Var]int
	inCount map[*ast.Var]int // words actually provided, when fewer than the variable's
	outputs map[*ast.Var]int
	funcs   map[funcKey]int
	rets    map[*ast.Func][]ir.Reg
	sized   map[*ast.Var]*ast.Type            // initialiser types of unsized array declarations
	shared  map[string]*storage               // plain globals by name: one storage per stage
	paramSt map[funcKey]map[*ast.Var]*storage // sampler-holding parameters per specialisation
	mem     map[*ast.Var]*memVar              // compute: variables in memory
	opaque  map[*ast.Var]*opaqueVar           // compute: image and atomic counter uniforms
	fn      *fnState
	globals []*ast.Var // stageVars
	inVars  []*ast.Var // inputs in layout order
	// geoIn maps a geometry shader input variable's words to input words
	// (-1: no vertex output feeds the word, it stays zero).
	geoIn   map[*ast.Var][]int
	outVars []*ast.Var // outputs in layout order
	// fetchWord is the first fetched input word of each inout fragment
	// output, fetch the fetched words by target (fetch.go).
	fetchWord map[*ast.Var]int
	fetch     []ir.Slot
	// interp holds the screen-space derivative shadows interpolateAt* reads
	// (interp.go); nil when the stage calls none.
	interp *interpState
	errs   ast.ErrorList
}

func newLowerer(lp *glsl.Program, sp *glsl.StageProgram, stage ast.Stage, ul *uniformLayout) *lowerer {
	// Vertex and fragment programs flush denormal float results as llvmpipe
	// does (ir.Program.FlushDenormals); compute keeps IEEE subnormals.
	p := &ir.Program{Stage: ir.Vertex, UniformWords: ul.words, Uniforms: ul.slots, Samplers: ul.samplers,
		FlushDenormals: stage != ast.StageCompute}
	if stage == ast.StageFragment {
		p.Stage = ir.Fragment
	}
	if stage == ast.StageGeometry {
		p.Stage = ir.Geometry
	}
	return &lowerer{lp: lp, sp: sp, stage: stage, ul: ul, p: p, b: ir.NewBuilder(p),
		vars: map[*ast.Var]*storage{}, fetchWord: map[*ast.Var]int{}, inputs: map[*ast.Var]int{}, inCount: map[*ast.Var]int{}, outputs: map[*ast.Var]int{},
		globals: stageVars(sp), funcs: map[funcKey]int{}, rets: map[*ast.Func][]ir.Reg{}, sized: map[*ast.Var]*ast.Type{}, shared: map[string]*storage{}, paramSt: map[funcKey]map[*ast.Var]*storage{}, fn: &fnState{}}
}

// errorf records an error at pos; lowering continues so that several are reported.
func (l *lowerer) errorf(pos ast.Pos, format string, args ...any) {
	l.errs.Add(pos, fmt.Sprintf(format, args...))
}

// bail is the panic value used to abandon lowering after too many errors.
type bail struct{}

// run lowers main and the interface, then verifies and optimises the program.
func (l *lowerer) run() (p *ir.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bail); !ok {
				panic(r)
			}
			err = l.errs
		}
	}()
	if l.sp.Main == nil || l.sp.Main.Body == nil {
		l.errorf(ast.Pos{}, "%s shader has no main()", l.stage)
		return nil, l.errs
	}
	b := l.b
	for _, v := range l.inVars {
		l.storageOf(v)
	}
	l.loadInputs()
	l.loadFetched()
	l.interpolationSetup()
	// Global initialisers in declaration order.
	for _, u := range l.sp.Units {
		for _, d := range u.File.Decls {
			g, ok := d.(*ast.DeclGroup)
			if !ok {
				continue
			}
			for _, vs := range g.Vars {
				if vs.Var == nil {
					continue
				}
				v := vs.Var
				if v.Kind == ast.VarUniform || v.Kind == ast.VarIn {
					continue
				}
				l.noteSize(v, vs.Init)
				st := l.storageOf(v)
				if vs.Init != nil && !st.isSamp && !st.uniform {
					l.store(l.whole(st), l.expr(vs.Init))
				}
			}
		}
	}
	b.Ctl(ir.Scope)
	l.block(l.sp.Main.Body)
	b.Ctl(ir.EndScope)
	if l.stage != ast.StageGeometry {
		// A geometry shader's outputs leave with each EmitVertex instead.
		l.storeOutputs()
	}
	if l.stage == ast.StageFragment {
		b.Ctl(ir.Export)
	}
	if len(l.errs) > 0 {
		l.errs.Sort()
		return nil, l.errs
	}
	if err := ir.Verify(l.p); err != nil {
		return nil, fmt.Errorf("lower: internal error: %w", err)
	}
	q, err := ir.Optimize(l.p)
	if err != nil {
		l.errorf(l.sp.Main.NamePos, "%v", err)
		return nil, l.errs
	}
	if err := ir.Verify(q); err != nil {
		return nil, fmt.Errorf("lower: internal error after optimisation: %w", err)
	}
	return q, nil
}

// loadInputs copies input words into the input variables' registers, converting
// gl_FrontFacing's word to a bool.
func (l *lowerer) loadInputs() {
	for _, v := range l.inVars {
		w := l.inputs[v]
		st := l.vars[v]
		bases := ast.WordBases(v.Type)
		if ws, ok := l.geoIn[v]; ok {
			l.loadGeometryInput(st, bases, ws)
			continue
		}
		if n, ok := l.inCount[v]; ok && n < len(bases) {
			bases = bases[:n] // the rest stays zero
		}
		for k, bs := range bases {
			r := st.base + ir.Reg(k)
			if bs == ast.Bool {
				t := l.b.Imm(ir.LoadInput, l.b.Reg(ir.U32), uint32(w+k))
				l.b.OpTo(ir.Ne, r, t, l.b.ConstU(0))
				continue
			}
			l.b.Imm(ir.LoadInput, r, uint32(w+k))
		}
	}
}

// outWord maps word k of an output variable to its output word: colour arrays put
// each element at its own location (4 words).
func (l *lowerer) outWord(v *ast.Var, k int) int {
	base := l.outputs[v]
	if l.stage == ast.StageFragment && v.Type.Kind == ast.KindArray {
		es := v.Type.Elem.Slots()
		return base + 4*((es+3)/4)*(k/es) + k%es
	}
	return base + k
}

func (l *lowerer) storeOutputs() {
	for _, v := range l.outVars {
		st := l.storageOf(v)
		for k, bs := range ast.WordBases(v.Type) {
			r := st.base + ir.Reg(k)
			if bs == ast.Bool {
				r = l.b.Op(ir.BtoU, ir.U32, r)
			}
			l.b.Imm(ir.StoreOutput, ir.NoReg, uint32(l.outWord(v, k)), r)
		}
	}
}

// alloc allocates contiguous registers for a value of type t.
func (l *lowerer) alloc(t *ast.Type) ir.Reg {
	base := ir.Reg(len(l.p.Regs))
	for _, bs := range ast.WordBases(t) {
		l.b.Reg(irType(bs))
	}
	return base
}

// storageOf returns (allocating on first use) the storage of v.
func (l *lowerer) storageOf(v *ast.Var) *storage {
	if st := l.vars[v]; st != nil {
		return st
	}
	t := v.Type
	if st, ok := l.sized[v]; ok {
		t = st // an unsized array declaration sized by its initialiser
	}
	st := &storage{t: t, sampler: -1}
	if mv := l.mem[v]; mv != nil {
		st.mv = mv
		l.vars[v] = st
		return st
	}
	if l.opaque[v] != nil {
		st.isSamp = true
		l.vars[v] = st
		return st
	}
	if l.stage == ast.StageGeometry && (v.Kind == ast.VarBuffer || isMemOpaque(v.Type)) {
		// Nothing hands a geometry program a Memory: refuse rather than let
		// storage accesses silently read zeros.
		l.errorf(v.DeclPos, "'%s': storage blocks, images and atomic counters are not supported in geometry shaders", v.Name)
	}
	if v.Type.ContainsSampler() {
		for _, lf := range samplerLeaves(v.Name, t) {
			st.leaves = append(st.leaves, lf.off)
		}
		if i, ok := l.ul.sampler[v.Name]; ok && v.Kind == ast.VarUniform {
			st.sampler = i
			for k := range st.leaves {
				st.leafBind = append(st.leafBind, i+k)
			}
		}
	}
	switch {
	case pureSampler(t):
		st.isSamp = true
	case v.Kind == ast.VarUniform:
		st.uniform = true
		name := l.ul.name(v)
		for _, sl := range l.ul.slots {
			if sl.Name == name && t.Kind == ast.KindArray && t.Len == 0 && t.Elem.Slots() > 0 {
				st.t = ast.Array(t.Elem, sl.Words/t.Elem.Slots())
			}
		}
		w, ok := l.ul.word[name]
		if !ok {
			l.errorf(v.DeclPos, "uniform '%s' has no storage", v.Name)
		}
		st.word = w
	case v.Kind == ast.VarOut && !v.Builtin:
		// An output declared in several units of one stage is one
		// variable, as a global is; its slot is the first declaration's
		// (layoutPreRasterOutputs, layoutFragment).
		key := "out " + outputKey(v)
		if sh := l.shared[key]; sh != nil {
			l.vars[v] = sh
			return sh
		}
		st.base = l.alloc(t)
		l.shared[key] = st
	case v.Kind == ast.VarGlobal && !v.Builtin:
		// A global declared in several units of one stage is one variable
		// (GLSL 4.50 §4.3: shared across the stage's compilation units).
		if sh := l.shared[v.Name]; sh != nil {
			l.vars[v] = sh
			return sh
		}
		st.t = l.sharedGlobalType(v.Name, t)
		st.base = l.alloc(st.t)
		l.shared[v.Name] = st
	default:
		st.base = l.alloc(t)
	}
	l.vars[v] = st
	return st
}

// outputKey names a user output for sharing across a stage's units: a block
// instance by its block name (each unit names its instance), anything else
// by its name. spec: GLSL 1.50 §4.3.7.
func outputKey(v *ast.Var) string {
	if v.Block != nil && v == v.Block.InstanceVar {
		return "block " + v.Block.Name
	}
	return v.Name
}

// sharedGlobalType is the type a global shared by several units takes: the
// declaration's own type, except that an array declared without a size in one unit
// takes the largest size another unit declares (GLSL 1.20 §4.1.9).
func (l *lowerer) sharedGlobalType(name string, t *ast.Type) *ast.Type {
	if t.Kind != ast.KindArray {
		return t
	}
	for _, u := range l.sp.Units {
		for _, g := range u.File.Globals {
			if g.Name != name || g.Kind != ast.VarGlobal || g.Builtin {
				continue
			}
			gt := g.Type
			if st, ok := l.sized[g]; ok {
				gt = st
			}
			if gt.Kind == ast.KindArray && gt.Len > t.Len && ast.Identical(gt.Elem, t.Elem) {
				t = gt
			}
		}
	}
	return t
}

// --- values and places ---

// value is an rvalue: one register per flattened word.
type value struct {
	t *ast.Type
	r []ir.Reg
}

// dynTerm is one dynamic index: idx (int or uint register) selects one of n
// elements stride words apart.
type dynTerm struct {
	idx    ir.Reg
	n      int
	stride int
}

// place is an lvalue or addressable rvalue: words of a storage (or of a value held
// in registers), a static word offset, dynamic index terms and a swizzle.
type place struct {
	t   *ast.Type
	st  *storage // nil for a value root
	val []ir.Reg // value root
	off int
	dyn []dynTerm
	swz []int
	// sel, when not NoReg, selects component sel of the swizzle selSwz at run time
	// (a dynamically indexed swizzle, v.zyx[i]); the place is then one scalar.
	sel    ir.Reg
	selSwz []int
	// In memory: rowMajor lays the place's matrices out by rows (a row_major
	// block member), and cstride, when not 0, is the byte stride between the
	// components of a vector place (a column of a row-major matrix).
	rowMajor bool
	cstride  int
	// blockDyn, when set, selects the element of an array of buffer blocks at
	// run time (st.mv is then element 0's binding).
	blockDyn *blockSel
}

// blockSel is a dynamic index into an array of n buffer blocks.
type blockSel struct {
	idx ir.Reg
	n   int
}

func (l *lowerer) whole(st *storage) place { return place{t: st.t, st: st, sel: ir.NoReg} }

// word returns the static word of component k of the place (before dynamic terms).
func (pl *place) word(k int) int {
	if pl.swz != nil {
		return pl.off + pl.swz[k]
	}
	return pl.off + k
}

// combine folds the dynamic terms into one (index register, count, stride), or
// reports false when they do not reduce to one stride.
func (l *lowerer) combine(pl *place) (ir.Reg, int, int, bool) {
	if len(pl.dyn) == 1 {
		d := pl.dyn[0]
		return d.idx, d.n, d.stride, true
	}
	last := pl.dyn[len(pl.dyn)-1]
	s := last.stride
	var acc ir.Reg = ir.NoReg
	total := 1
	for _, d := range pl.dyn {
		if d.stride%s != 0 {
			return 0, 0, 0, false
		}
		acc = l.addScaledIndex(acc, l.clampIndex(d.idx, d.n), d.stride/s)
		total += (d.n - 1) * (d.stride / s)
	}
	return acc, total, s, true
}

// addScaledIndex returns acc + idx*scale, an int (idx*scale when acc is
// ir.NoReg, no multiply when scale is 1): one term of a flat element number
// built from the clamped subscripts of several array dimensions.
func (l *lowerer) addScaledIndex(acc, idx ir.Reg, scale int) ir.Reg {
	if scale != 1 {
		idx = l.b.Op(ir.IMul, ir.I32, idx, l.b.ConstI(int32(scale)))
	}
	if acc == ir.NoReg {
		return idx
	}
	return l.b.Op(ir.IAdd, ir.I32, acc, idx)
}

// clampIndex returns idx as an int clamped to [0, n-1].
func (l *lowerer) clampIndex(idx ir.Reg, n int) ir.Reg {
	if l.p.Regs[idx] == ir.U32 {
		idx = l.b.Op(ir.Cast, ir.I32, l.b.Op(ir.UMin, ir.U32, idx, l.b.ConstU(uint32(n-1))))
	}
	return l.b.Op(ir.IClamp, ir.I32, idx, l.b.ConstI(0), l.b.ConstI(int32(n-1)))
}

// rootVal copies a value root into contiguous registers so that it can be indexed
// dynamically.
func (l *lowerer) rootStorage(pl *place) *storage {
	if pl.st != nil {
		return pl.st
	}
	base := ir.Reg(len(l.p.Regs))
	for _, r := range pl.val {
		d := l.b.Reg(l.p.Regs[r])
		l.b.OpTo(ir.Mov, d, r)
	}
	st := &storage{base: base, sampler: -1}
	pl.st, pl.val = st, nil
	return st
}

// read loads the words of a place into fresh registers.
func (l *lowerer) read(pl place, pos ast.Pos) value {
	if pl.selSwz != nil {
		return l.readSel(pl, pos)
	}
	if pl.st != nil && pl.st.mv != nil {
		return l.memRead(pl)
	}
	bases := ast.WordBases(pl.t)
	out := value{t: pl.t, r: make([]ir.Reg, len(bases))}
	if len(pl.dyn) == 0 {
		for k, bs := range bases {
			w := pl.word(k)
			switch {
			case pl.st == nil:
				out.r[k] = pl.val[w]
			case pl.st.uniform:
				out.r[k] = l.loadUniform(w+pl.st.word, bs)
			default:
				out.r[k] = l.b.Op(ir.Mov, irType(bs), pl.st.base+ir.Reg(w))
			}
		}
		return out
	}
	st := l.rootStorage(&pl)
	idx, n, stride, ok := l.combine(&pl)
	if !ok {
		l.errorf(pos, "unsupported dynamic indexing of a nested aggregate")
		idx, n, stride = pl.dyn[0].idx, 1, 1
	}
	for k, bs := range bases {
		w := pl.word(k)
		t := irType(bs)
		if st.uniform {
			if bs == ast.Bool {
				t = ir.U32
			}
			d := l.b.Reg(t)
			l.b.Emit(ir.Inst{Op: ir.LoadUniformIdx, Dst: d, Src: [4]ir.Reg{idx, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(st.word + w), Len: uint32(n), Stride: uint32(stride)})
			if bs == ast.Bool {
				d = l.b.Op(ir.Ne, ir.Bool, d, l.b.ConstU(0))
			}
			out.r[k] = d
			continue
		}
		d := l.b.Reg(t)
		l.b.Emit(ir.Inst{Op: ir.ArrayLoad, Dst: d, Src: [4]ir.Reg{idx, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(st.base) + uint32(w), Len: uint32(n), Stride: uint32(stride)})
		out.r[k] = d
	}
	return out
}

// loadUniform reads one uniform word; bool uniforms are nonzero words.
func (l *lowerer) loadUniform(word int, bs ast.Basic) ir.Reg {
	if bs == ast.Bool {
		u := l.b.Imm(ir.LoadUniform, l.b.Reg(ir.U32), uint32(word))
		return l.b.Op(ir.Ne, ir.Bool, u, l.b.ConstU(0))
	}
	return l.b.Imm(ir.LoadUniform, l.b.Reg(irType(bs)), uint32(word))
}

// selComponents returns, for a dynamically selected swizzle component, the
// places of every candidate component and the condition that selects each.
func (l *lowerer) selComponents(pl place) ([]place, []ir.Reg) {
	idx := pl.sel
	if l.p.Regs[idx] == ir.U32 {
		idx = l.b.Op(ir.Cast, ir.I32, idx)
	}
	idx = l.clampIndex(idx, len(pl.selSwz))
	var ps []place
	var conds []ir.Reg
	for k, c := range pl.selSwz {
		q := pl
		q.selSwz, q.sel = nil, ir.NoReg
		q.swz = []int{c}
		ps = append(ps, q)
		conds = append(conds, l.b.Op(ir.Eq, ir.Bool, idx, l.b.ConstI(int32(k))))
	}
	return ps, conds
}

func (l *lowerer) readSel(pl place, pos ast.Pos) value {
	ps, conds := l.selComponents(pl)
	acc := l.read(ps[0], pos).r[0]
	for k := 1; k < len(ps); k++ {
		v := l.read(ps[k], pos).r[0]
		acc = l.b.Op(ir.Select, l.p.Regs[v], conds[k], v, acc)
	}
	return value{t: pl.t, r: []ir.Reg{acc}}
}

// store writes v into the place.
func (l *lowerer) store(pl place, v value) {
	if pl.selSwz != nil {
		ps, conds := l.selComponents(pl)
		for k, q := range ps {
			old := l.read(q, ast.Pos{}).r[0]
			l.store(q, value{t: pl.t, r: []ir.Reg{l.b.Op(ir.Select, l.p.Regs[old], conds[k], v.r[0], old)}})
		}
		return
	}
	if pl.st != nil && pl.st.mv != nil {
		l.memStore(pl, v)
		return
	}
	if pl.st == nil || pl.st.uniform {
		return // the checker rejects assignments to non-lvalues and uniforms
	}
	if len(pl.dyn) == 0 {
		for k := range v.r {
			l.b.OpTo(ir.Mov, pl.st.base+ir.Reg(pl.word(k)), v.r[k])
		}
		return
	}
	idx, n, stride, ok := l.combine(&pl)
	if !ok {
		l.errorf(ast.Pos{}, "unsupported dynamic indexing of a nested aggregate")
		return
	}
	for k := range v.r {
		l.b.Emit(ir.Inst{Op: ir.ArrayStore, Dst: ir.NoReg, Src: [4]ir.Reg{idx, v.r[k], ir.NoReg, ir.NoReg}, Imm: uint32(pl.st.base) + uint32(pl.word(k)), Len: uint32(n), Stride: uint32(stride)})
	}
}

// constValue materialises a folded constant.
func (l *lowerer) constValue(t *ast.Type, cv *ast.Value) value {
	bases := ast.WordBases(t)
	out := value{t: t, r: make([]ir.Reg, len(bases))}
	for k, bs := range bases {
		w := uint32(0)
		if k < len(cv.Words) {
			w = cv.Words[k]
		}
		if bs == ast.Bool && w != 0 {
			w = 1
		}
		out.r[k] = l.b.Const(irType(bs), w)
	}
	return out
}

func (l *lowerer) constF(v float32) ir.Reg { return l.b.ConstF(v) }

func (l *lowerer) splat(r ir.Reg, n int) []ir.Reg {
	out := make([]ir.Reg, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// noteSize records the initialiser's type for a declaration of an unsized array
// (const vec4 c[] = vec4[](...)), before the variable's storage is allocated.
func (l *lowerer) noteSize(v *ast.Var, init ast.Expr) {
	if init == nil || v.Type == nil || v.Type.Kind != ast.KindArray || v.Type.Len != 0 {
		return
	}
	if it := init.Type(); it != nil && it.Kind == ast.KindArray && it.Len > 0 {
		l.sized[v] = it
	}
}
