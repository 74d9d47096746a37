package ir

import "fmt"

// Verify checks p once so that an executor can run it without any per-lane check:
// every register operand is in range and of the type its opcode requires, constant
// Bool values are 0 or 1, structured control flow nests properly (Else inside If,
// Continuing once per Loop, Break and Continue inside a loop of the same function,
// Return inside a function or the program), input, output and uniform words and the
// element ranges of indexed ops lie inside their buffers, Tex records name existing
// samplers and registers of the right types, calls name existing functions and do
// not recurse, and fragment-only operations appear only in fragment programs.
//
// spec: software-shader-backend "Structured control flow" (verified IR satisfies the
// nesting invariants, so execution never meets malformed ELSE/ENDIF).
func Verify(p *Program) error {
	if p == nil {
		return &Error{PC: -1, Msg: "nil program"}
	}
	if p.InputWords < 0 || p.OutputWords < 0 || p.UniformWords < 0 {
		return &Error{PC: -1, Msg: "negative buffer size"}
	}
	for i, t := range p.Regs {
		if t == TNone || t > Bool {
			return &Error{PC: -1, Msg: fmt.Sprintf("register r%d has no type", i)}
		}
	}
	for i, s := range p.Samplers {
		if s.Kind > LastSamplerKind || (s.Result != F32 && s.Result != I32 && s.Result != U32) {
			return &Error{PC: -1, Msg: fmt.Sprintf("sampler %d (%s): bad kind or result type", i, s.Name)}
		}
	}
	if p.Stage > Geometry {
		return &Error{PC: -1, Msg: fmt.Sprintf("unknown stage %d", p.Stage)}
	}
	if err := verifyCompute(p); err != nil {
		return err
	}
	if err := verifyGeometry(p); err != nil {
		return err
	}
	v := verifier{p: p}
	if err := v.code("", p.Code); err != nil {
		return err
	}
	for _, fn := range p.Funcs {
		if err := v.code(fn.Name, fn.Code); err != nil {
			return err
		}
	}
	return v.recursion()
}

type verifier struct {
	p *Program
}

type frameKind uint8

const (
	kIf frameKind = iota
	kElse
	kLoop
	kContinuing
	kScope
)

func (v *verifier) code(fn string, code []Inst) error {
	var stack []frameKind
	for pc := range code {
		in := &code[pc]
		fail := func(format string, args ...any) error {
			return &Error{Func: fn, PC: pc, Msg: in.Op.String() + ": " + fmt.Sprintf(format, args...)}
		}
		if in.Op >= numOps {
			return &Error{Func: fn, PC: pc, Msg: fmt.Sprintf("unknown opcode %d", in.Op)}
		}
		info := &opTable[in.Op]
		if info.flags&fFrag != 0 && v.p.Stage != Fragment {
			return fail("only allowed in fragment shaders")
		}
		if info.flags&fGeom != 0 && v.p.Stage != Geometry {
			return fail("only allowed in geometry shaders")
		}
		if err := v.operands(in, info, fail); err != nil {
			return err
		}
		switch in.Op {
		case If:
			stack = append(stack, kIf)
		case Else:
			if len(stack) == 0 || stack[len(stack)-1] != kIf {
				return fail("without a matching if")
			}
			stack[len(stack)-1] = kElse
		case EndIf:
			if len(stack) == 0 || (stack[len(stack)-1] != kIf && stack[len(stack)-1] != kElse) {
				return fail("without a matching if")
			}
			stack = stack[:len(stack)-1]
		case Loop:
			stack = append(stack, kLoop)
		case Continuing:
			if len(stack) == 0 || stack[len(stack)-1] != kLoop {
				return fail("not directly inside a loop, or a second continue block")
			}
			stack[len(stack)-1] = kContinuing
		case EndLoop:
			if len(stack) == 0 || (stack[len(stack)-1] != kLoop && stack[len(stack)-1] != kContinuing) {
				return fail("without a matching loop")
			}
			stack = stack[:len(stack)-1]
		case Scope:
			stack = append(stack, kScope)
		case EndScope:
			if len(stack) == 0 || stack[len(stack)-1] != kScope {
				return fail("without a matching scope")
			}
			stack = stack[:len(stack)-1]
		case Break, Continue:
			loop := kScope
			for i := len(stack) - 1; i >= 0; i-- {
				if k := stack[i]; k == kLoop || k == kContinuing || k == kScope {
					loop = k
					break
				}
			}
			if loop == kScope {
				return fail("outside a loop")
			}
			if in.Op == Continue && loop == kContinuing {
				return fail("inside a continue block")
			}
		}
	}
	if len(stack) != 0 {
		return &Error{Func: fn, PC: len(code), Msg: fmt.Sprintf("%d unclosed control-flow constructs", len(stack))}
	}
	return nil
}

func (v *verifier) reg(r Reg) (Type, bool) {
	if int64(r) >= int64(len(v.p.Regs)) {
		return TNone, false
	}
	return v.p.Regs[r], true
}

func match(s sig, t, dst, src0 Type) bool {
	switch s {
	case sF:
		return t == F32
	case sI:
		return t == I32
	case sU:
		return t == U32
	case sB:
		return t == Bool
	case sSame:
		return t == dst
	case sInt:
		return t == I32 || t == U32
	case sAny:
		return t != TNone
	case sSrc0:
		return t == src0
	}
	return false
}

func (v *verifier) operands(in *Inst, info *opInfo, fail func(string, ...any) error) error {
	var dt Type
	if in.Op.HasDst() {
		t, ok := v.reg(in.Dst)
		if !ok {
			return fail("destination r%d out of range (%d registers)", in.Dst, len(v.p.Regs))
		}
		if !match(info.dst, t, t, t) || (info.flags&fIntOp != 0 && t != I32 && t != U32) {
			return fail("destination r%d has type %s", in.Dst, t)
		}
		dt = t
	}
	var st [4]Type
	for i := 0; i < info.n; i++ {
		t, ok := v.reg(in.Src[i])
		if !ok {
			return fail("source %d r%d out of range (%d registers)", i, in.Src[i], len(v.p.Regs))
		}
		st[i] = t
		if !match(info.src[i], t, dt, st[0]) {
			return fail("source %d r%d has type %s", i, in.Src[i], t)
		}
	}
	n := uint64(len(v.p.Regs))
	switch in.Op {
	case Const:
		if dt == Bool && in.Imm > 1 {
			return fail("bool constant %d is not 0 or 1", in.Imm)
		}
	case Cast:
		if dt == Bool || st[0] == Bool {
			return fail("cannot reinterpret a bool")
		}
	case LoadInput:
		if uint64(in.Imm) >= uint64(v.p.InputWords) || dt == Bool {
			return fail("input word %d out of range (%d) or bool destination", in.Imm, v.p.InputWords)
		}
	case StoreOutput:
		if uint64(in.Imm) >= uint64(v.p.OutputWords) {
			return fail("output word %d out of range (%d)", in.Imm, v.p.OutputWords)
		}
	case LoadUniform:
		if uint64(in.Imm) >= uint64(v.p.UniformWords) || dt == Bool {
			return fail("uniform word %d out of range (%d) or bool destination", in.Imm, v.p.UniformWords)
		}
	case LoadUniformIdx:
		if in.Len == 0 || uint64(in.Imm)+uint64(in.Len-1)*uint64(in.Stride) >= uint64(v.p.UniformWords) || dt == Bool {
			return fail("uniform range %d+%dx%d out of range (%d) or bool destination", in.Imm, in.Len, in.Stride, v.p.UniformWords)
		}
	case ArrayLoad, ArrayStore:
		if in.Len == 0 || in.Stride == 0 || uint64(in.Imm)+uint64(in.Len-1)*uint64(in.Stride) >= n {
			return fail("register array r%d+%dx%d out of range (%d registers)", in.Imm, in.Len, in.Stride, n)
		}
		want := dt
		if in.Op == ArrayStore {
			want = st[1]
		}
		for i := uint32(0); i < in.Len; i++ {
			if v.p.Regs[in.Imm+i*in.Stride] != want {
				return fail("array element r%d is not %s", in.Imm+i*in.Stride, want)
			}
		}
	case UnpackSnorm2x16, UnpackUnorm2x16, UnpackHalf2x16:
		if in.Imm > 1 {
			return fail("component %d out of range", in.Imm)
		}
	case UnpackSnorm4x8, UnpackUnorm4x8:
		if in.Imm > 3 {
			return fail("component %d out of range", in.Imm)
		}
	case Tex:
		if uint64(in.Imm) >= uint64(len(v.p.Tex)) {
			return fail("texture record %d out of range (%d)", in.Imm, len(v.p.Tex))
		}
		return v.tex(&v.p.Tex[in.Imm], fail)
	case Call:
		if uint64(in.Imm) >= uint64(len(v.p.Funcs)) {
			return fail("function %d out of range (%d)", in.Imm, len(v.p.Funcs))
		}
	case MemStore:
		if st[1] == Bool {
			return fail("cannot store a bool word")
		}
		return v.verifyMem(in, dt, fail)
	case MemLoad, MemAtomic, MemSize, ImageExtent, ImageFormatOf, Barrier:
		return v.verifyMem(in, dt, fail)
	}
	return nil
}

func (v *verifier) tex(t *TexInfo, fail func(string, ...any) error) error {
	if t.Sampler < 0 || t.Sampler >= len(v.p.Samplers) {
		return fail("sampler %d out of range (%d)", t.Sampler, len(v.p.Samplers))
	}
	if t.Op > LastTexOp {
		return fail("unknown texture op %d", t.Op)
	}
	s := v.p.Samplers[t.Sampler]
	if s.Kind.FetchOnly() && t.Op != TexFetch && t.Op != TexSize {
		return fail("%s on %s sampler (only fetch and size)", t.Op, s.Kind)
	}
	if s.Kind.Multisample() && t.Op == TexFetch && t.Lod == NoReg {
		return fail("multisample fetch without a sample number")
	}
	want := func(r Reg, ty Type, what string) error {
		if r == NoReg {
			return nil
		}
		rt, ok := v.reg(r)
		if !ok || rt != ty {
			return fail("%s r%d must be a %s register", what, r, ty)
		}
		return nil
	}
	result := s.Result
	coord, lod := F32, F32
	switch t.Op {
	case TexFetch:
		coord, lod = I32, I32
	case TexSize, TexQueryLevels:
		result, lod = I32, I32
	}
	if t.Op != TexFetch && t.Op != TexSize && t.Op != TexQueryLevels && s.Kind.Shadow() || t.Op == TexQueryLod {
		result = F32
	}
	if t.NCoord < 0 || t.NCoord > 4 {
		return fail("%d coordinates", t.NCoord)
	}
	need := s.Kind.Coords()
	switch t.Op {
	case TexSize, TexQueryLevels:
		need = 0
	case TexQueryLod:
		need = s.Kind.Dims()
	}
	if t.NCoord < need {
		return fail("sampler %s needs %d coordinates, got %d", s.Kind, need, t.NCoord)
	}
	if t.HasOffsets && t.Op != TexGather {
		return fail("per-texel offsets on a %s (only gather)", t.Op)
	}
	if t.HasDynOffset {
		if t.Op != TexGather || t.HasOffset || t.HasOffsets {
			return fail("run-time offset on a %s (only a gather without constant offsets)", t.Op)
		}
		for _, r := range t.DynOffset {
			if r == NoReg {
				return fail("run-time offset without its registers")
			}
			if err := want(r, I32, "offset"); err != nil {
				return err
			}
		}
	}
	for i := 0; i < 4; i++ {
		if err := want(t.Dst[i], result, "result"); err != nil {
			return err
		}
		if i < t.NCoord {
			if t.Coord[i] == NoReg {
				return fail("missing coordinate %d", i)
			}
			if err := want(t.Coord[i], coord, "coordinate"); err != nil {
				return err
			}
		} else if _, ok := v.reg(t.Coord[i]); !ok && t.Coord[i] != NoReg {
			// An unused slot is not read, but the passes rename every
			// register a record names: it must be one of the program's.
			return fail("unused coordinate slot %d names r%d, not a register", i, t.Coord[i])
		}
	}
	for i := 0; i < 3; i++ {
		if err := want(t.DPdx[i], F32, "gradient"); err != nil {
			return err
		}
		if err := want(t.DPdy[i], F32, "gradient"); err != nil {
			return err
		}
	}
	if t.Op == TexSampleLod && t.Lod == NoReg {
		return fail("explicit-lod sample without a lod")
	}
	if t.Op == TexSampleGrad && (t.DPdx[0] == NoReg || t.DPdy[0] == NoReg) {
		return fail("gradient sample without gradients")
	}
	if t.Comp < 0 || t.Comp > 3 {
		return fail("gather component %d", t.Comp)
	}
	if err := want(t.Lod, lod, "lod"); err != nil {
		return err
	}
	if err := want(t.Bias, F32, "bias"); err != nil {
		return err
	}
	return want(t.Compare, F32, "compare")
}

// recursion rejects call cycles (GLSL forbids recursion; the inliner relies on it).
func (v *verifier) recursion() error {
	state := make([]uint8, len(v.p.Funcs)) // 0 new, 1 on stack, 2 done
	var visit func(code []Inst, fn string) error
	visit = func(code []Inst, fn string) error {
		for pc, in := range code {
			if in.Op != Call {
				continue
			}
			switch state[in.Imm] {
			case 1:
				return &Error{Func: fn, PC: pc, Msg: "call: recursion into " + v.p.Funcs[in.Imm].Name}
			case 0:
				state[in.Imm] = 1
				if err := visit(v.p.Funcs[in.Imm].Code, v.p.Funcs[in.Imm].Name); err != nil {
					return err
				}
				state[in.Imm] = 2
			}
		}
		return nil
	}
	if err := visit(v.p.Code, ""); err != nil {
		return err
	}
	for i := range v.p.Funcs {
		if state[i] == 0 {
			state[i] = 1
			if err := visit(v.p.Funcs[i].Code, v.p.Funcs[i].Name); err != nil {
				return err
			}
			state[i] = 2
		}
	}
	return nil
}

// MaxDepth returns the deepest nesting of structured constructs in code (each If,
// Loop and Scope counts one level). Code must have been verified.
func MaxDepth(code []Inst) int {
	depth, best := 0, 0
	for _, in := range code {
		switch in.Op {
		case If, Loop, Scope:
			depth++
			best = max(best, depth)
		case EndIf, EndLoop, EndScope:
			depth--
		}
	}
	return best
}
