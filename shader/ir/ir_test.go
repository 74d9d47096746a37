package ir

import (
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func nosrc() [4]Reg { return [4]Reg{NoReg, NoReg, NoReg, NoReg} }

// sample builds a program that uses every structural feature of the IR.
func sample() *Program {
	p := &Program{Stage: Fragment, InputWords: 2, OutputWords: 4, UniformWords: 8}
	p.Inputs = []Slot{{Name: "v_uv", Word: 0, Words: 2, Type: F32, Location: 0}}
	p.Outputs = []Slot{{Name: "frag_color", Word: 0, Words: 4, Type: F32, Location: 0}}
	p.Uniforms = []Slot{{Name: "u_weights", Word: 0, Words: 8, Type: F32, Location: -1}}
	p.Samplers = []SamplerBinding{{Name: "u_tex", Unit: 0, Kind: Sampler2D, Result: F32}}
	b := NewBuilder(p)
	u, v := b.Reg(F32), b.Reg(F32)
	b.Imm(LoadInput, u, 0)
	b.Imm(LoadInput, v, 1)
	arg, res := b.Reg(F32), b.Reg(F32)
	p.Funcs = []Func{{Name: "half"}}
	old := b.Into(&p.Funcs[0].Code)
	b.OpTo(FMul, res, arg, b.ConstF(0.5))
	b.Ctl(Return)
	b.Into(old)
	b.OpTo(Mov, arg, u)
	b.Emit(Inst{Op: Call, Dst: NoReg, Src: nosrc()})
	r, g, bl, a := b.Reg(F32), b.Reg(F32), b.Reg(F32), b.Reg(F32)
	p.Tex = []TexInfo{{Op: TexSample, Sampler: 0, Dst: [4]Reg{r, g, bl, a}, Coord: [4]Reg{res, v, NoReg, NoReg}, NCoord: 2, Lod: NoReg, Bias: NoReg, Compare: NoReg, DPdx: [3]Reg{NoReg, NoReg, NoReg}, DPdy: [3]Reg{NoReg, NoReg, NoReg}}}
	b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc()})
	i := b.ConstI(0)
	acc := b.ConstF(0)
	arr := b.Reg(F32)
	b.Reg(F32)
	b.Ctl(Loop)
	b.Ctl(If, b.Op(IGe, Bool, i, b.ConstI(8)))
	b.Ctl(Break)
	b.Ctl(EndIf)
	w := b.Reg(F32)
	b.Emit(Inst{Op: LoadUniformIdx, Dst: w, Src: [4]Reg{i, NoReg, NoReg, NoReg}, Imm: 0, Len: 8, Stride: 1})
	b.OpTo(Fma, acc, w, r, acc)
	b.Emit(Inst{Op: ArrayStore, Dst: NoReg, Src: [4]Reg{i, acc, NoReg, NoReg}, Imm: uint32(arr), Len: 2, Stride: 1})
	b.Ctl(Continuing)
	b.OpTo(IAdd, i, i, b.ConstI(1))
	b.Ctl(EndLoop)
	b.Ctl(If, b.Op(FLt, Bool, acc, b.ConstF(0)))
	b.Ctl(Discard)
	b.Ctl(Else)
	b.OpTo(DdxFine, g, acc)
	b.Ctl(EndIf)
	b.Imm(StoreOutput, NoReg, 0, acc)
	b.Imm(StoreOutput, NoReg, 1, g)
	b.Imm(StoreOutput, NoReg, 2, b.Imm(UnpackHalf2x16, b.Reg(F32), 1, b.ConstU(0x3c00)))
	b.Imm(StoreOutput, NoReg, 3, a)
	b.Ctl(Export)
	return p
}

func TestPrintGolden(t *testing.T) {
	p := sample()
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
	q, err := Optimize(p)
	if err != nil {
		t.Fatal(err)
	}
	got := p.String() + "--- optimised\n" + q.String()
	path := filepath.Join("testdata", "print.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if got != string(want) {
		t.Errorf("printer output differs from %s (run with -update after checking):\n%s", path, got)
	}
}

// TestVerifyRejects checks that each kind of malformed program is rejected with an
// error naming the instruction.
func TestVerifyRejects(t *testing.T) {
	base := func() (*Program, *Builder) {
		p := &Program{Stage: Vertex, InputWords: 1, OutputWords: 1, UniformWords: 2}
		b := NewBuilder(p)
		b.Reg(F32) // r0
		b.Reg(I32) // r1
		b.Reg(Bool)
		return p, b
	}
	tests := []struct {
		name  string
		build func(p *Program, b *Builder)
		want  string
	}{
		{"dst out of range", func(p *Program, b *Builder) { b.OpTo(FAdd, 9, 0, 0) }, "out of range"},
		{"src out of range", func(p *Program, b *Builder) { b.OpTo(FAdd, 0, 0, 7) }, "out of range"},
		{"type mismatch", func(p *Program, b *Builder) { b.OpTo(FAdd, 0, 0, 1) }, "has type i32"},
		{"int op on float", func(p *Program, b *Builder) { b.OpTo(And, 0, 0, 0) }, "destination"},
		{"bool const 2", func(p *Program, b *Builder) { b.Imm(Const, 2, 2) }, "not 0 or 1"},
		{"cast bool", func(p *Program, b *Builder) { b.OpTo(Cast, 1, 2) }, "bool"},
		{"else without if", func(p *Program, b *Builder) { b.Ctl(Else) }, "without a matching if"},
		{"endloop without loop", func(p *Program, b *Builder) { b.Ctl(EndLoop) }, "without a matching loop"},
		{"unclosed if", func(p *Program, b *Builder) { b.Ctl(If, 2) }, "unclosed"},
		{"if on float", func(p *Program, b *Builder) { b.Ctl(If, 0); b.Ctl(EndIf) }, "has type f32"},
		{"break outside loop", func(p *Program, b *Builder) { b.Ctl(Break) }, "outside a loop"},
		{"break through scope", func(p *Program, b *Builder) {
			b.Ctl(Loop)
			b.Ctl(Scope)
			b.Ctl(Break)
			b.Ctl(EndScope)
			b.Ctl(EndLoop)
		}, "outside a loop"},
		{"continue in continuing", func(p *Program, b *Builder) {
			b.Ctl(Loop)
			b.Ctl(Continuing)
			b.Ctl(Continue)
			b.Ctl(EndLoop)
		}, "continue block"},
		{"two continuing", func(p *Program, b *Builder) {
			b.Ctl(Loop)
			b.Ctl(Continuing)
			b.Ctl(Continuing)
			b.Ctl(EndLoop)
		}, "second continue"},
		{"misnested", func(p *Program, b *Builder) { b.Ctl(Loop); b.Ctl(If, 2); b.Ctl(EndLoop); b.Ctl(EndIf) }, "without a matching loop"},
		{"input word", func(p *Program, b *Builder) { b.Imm(LoadInput, 0, 1) }, "input word"},
		{"output word", func(p *Program, b *Builder) { b.Imm(StoreOutput, NoReg, 3, 0) }, "output word"},
		{"uniform word", func(p *Program, b *Builder) { b.Imm(LoadUniform, 0, 2) }, "uniform word"},
		{"uniform range", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: LoadUniformIdx, Dst: 0, Src: [4]Reg{1, NoReg, NoReg, NoReg}, Imm: 1, Len: 2, Stride: 1})
		}, "uniform range"},
		{"array range", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: ArrayLoad, Dst: 0, Src: [4]Reg{1, NoReg, NoReg, NoReg}, Imm: 0, Len: 9, Stride: 1})
		}, "register array"},
		{"array element type", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: ArrayLoad, Dst: 0, Src: [4]Reg{1, NoReg, NoReg, NoReg}, Imm: 0, Len: 2, Stride: 1})
		}, "array element"},
		{"array zero stride", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: ArrayLoad, Dst: 0, Src: [4]Reg{1, NoReg, NoReg, NoReg}, Imm: 0, Len: 1 << 30, Stride: 0})
		}, "register array"},
		{"derivative in vertex", func(p *Program, b *Builder) { b.OpTo(DdxFine, 0, 0) }, "fragment"},
		{"discard in vertex", func(p *Program, b *Builder) { b.Ctl(Discard) }, "fragment"},
		{"tex record", func(p *Program, b *Builder) { b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc()}) }, "texture record"},
		{"tex sampler", func(p *Program, b *Builder) {
			p.Tex = []TexInfo{{Sampler: 3, Lod: NoReg, Bias: NoReg, Compare: NoReg}}
			b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc()})
		}, "sampler 3"},
		{"tex coords", func(p *Program, b *Builder) {
			p.Samplers = []SamplerBinding{{Kind: Sampler3D, Result: F32}}
			p.Tex = []TexInfo{{Sampler: 0, NCoord: 2, Coord: [4]Reg{0, 0, NoReg, NoReg}, Dst: [4]Reg{NoReg, NoReg, NoReg, NoReg}, Lod: NoReg, Bias: NoReg, Compare: NoReg, DPdx: [3]Reg{NoReg, NoReg, NoReg}, DPdy: [3]Reg{NoReg, NoReg, NoReg}}}
			b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc()})
		}, "needs 3 coordinates"},
		{"tex result type", func(p *Program, b *Builder) {
			p.Samplers = []SamplerBinding{{Kind: Sampler2D, Result: F32}}
			p.Tex = []TexInfo{{Sampler: 0, NCoord: 2, Coord: [4]Reg{0, 0, NoReg, NoReg}, Dst: [4]Reg{1, NoReg, NoReg, NoReg}, Lod: NoReg, Bias: NoReg, Compare: NoReg, DPdx: [3]Reg{NoReg, NoReg, NoReg}, DPdy: [3]Reg{NoReg, NoReg, NoReg}}}
			b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc()})
		}, "result"},
		{"call range", func(p *Program, b *Builder) { b.Emit(Inst{Op: Call, Dst: NoReg, Src: nosrc(), Imm: 2}) }, "function 2"},
		{"recursion", func(p *Program, b *Builder) {
			p.Funcs = []Func{{Name: "a", Code: []Inst{{Op: Call, Dst: NoReg, Src: nosrc(), Imm: 1}}}, {Name: "b", Code: []Inst{{Op: Call, Dst: NoReg, Src: nosrc(), Imm: 0}}}}
			b.Emit(Inst{Op: Call, Dst: NoReg, Src: nosrc(), Imm: 0})
		}, "recursion"},
		{"bad opcode", func(p *Program, b *Builder) { b.Emit(Inst{Op: NumOps}) }, "unknown opcode"},
		{"unpack component", func(p *Program, b *Builder) {
			u := b.Reg(U32)
			b.Imm(UnpackHalf2x16, 0, 2, u)
		}, "component"},
	}
	for _, tc := range tests {
		p, b := base()
		tc.build(p, b)
		err := Verify(p)
		if err == nil {
			t.Errorf("%s: verified, want error containing %q", tc.name, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "@") {
			t.Errorf("%s: error %q, want it to contain %q and a position", tc.name, err, tc.want)
		}
	}
}

func TestFoldConstants(t *testing.T) {
	p := &Program{Stage: Vertex, OutputWords: 2}
	b := NewBuilder(p)
	two := b.ConstF(2)
	x := b.Op(FMul, F32, two, b.ConstF(3))      // 6
	y := b.Op(Sqrt, F32, b.Op(FAdd, F32, x, x)) // sqrt(12)
	c := b.Op(FLt, Bool, y, two)                // false
	s := b.Op(Select, F32, c, two, b.Reg(F32))  // the unknown register
	arr := b.Reg(F32)
	b.Reg(F32)
	b.Emit(Inst{Op: ArrayLoad, Dst: x, Src: [4]Reg{b.ConstI(5), NoReg, NoReg, NoReg}, Imm: uint32(arr), Len: 2, Stride: 1})
	b.Imm(StoreOutput, NoReg, 0, y)
	b.Imm(StoreOutput, NoReg, 1, s)
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
	if !FoldConstants(p) {
		t.Fatal("nothing folded")
	}
	in := p.Code[4]
	if in.Op != Const || math.Float32frombits(in.Imm) != float32(math.Sqrt(12)) {
		t.Errorf("sqrt(2*3+2*3) folded to %v", InstString(p, &in))
	}
	if in := p.Code[6]; in.Op != Mov || in.Src[0] == two {
		t.Errorf("select with constant false condition: %v", InstString(p, &in))
	}
	if in := p.Code[8]; in.Op != Mov || in.Src[0] != arr+1 {
		t.Errorf("array load with constant index 5 (clamped to 1): %v", InstString(p, &in))
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}

func TestFoldKeepsLoopVariables(t *testing.T) {
	p := &Program{Stage: Vertex, OutputWords: 1}
	b := NewBuilder(p)
	i := b.ConstI(0)
	k := b.ConstI(7)
	b.Ctl(Loop)
	j := b.Op(IAdd, I32, i, k) // i changes in the loop: must not fold
	b.OpTo(IAdd, i, i, b.ConstI(1))
	b.Ctl(If, b.Op(IGt, Bool, i, k))
	b.Ctl(Break)
	b.Ctl(EndIf)
	b.Ctl(EndLoop)
	b.Imm(StoreOutput, NoReg, 0, b.Op(IAdd, I32, j, k))
	FoldConstants(p)
	if p.Code[3].Op != IAdd {
		t.Errorf("loop-carried add folded: %v", InstString(p, &p.Code[3]))
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}

func TestCopyPropagationAndDCE(t *testing.T) {
	p := &Program{Stage: Vertex, InputWords: 1, OutputWords: 1}
	b := NewBuilder(p)
	x := b.Imm(LoadInput, b.Reg(F32), 0)
	y := b.Op(Mov, F32, x)
	z := b.Op(Mov, F32, y)
	dead := b.Op(Sin, F32, z)
	_ = dead
	b.Imm(StoreOutput, NoReg, 0, b.Op(FAdd, F32, z, z))
	if !PropagateCopies(p) {
		t.Fatal("no copy propagated")
	}
	if in := p.Code[4]; in.Src[0] != x || in.Src[1] != x {
		t.Errorf("fadd reads %v, want the input register", InstString(p, &in))
	}
	if !EliminateDeadCode(p) {
		t.Fatal("nothing removed")
	}
	if len(p.Code) != 3 {
		t.Errorf("after DCE:\n%s", p)
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}

func TestInline(t *testing.T) {
	p := sample()
	q, err := Inline(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Funcs) != 0 {
		t.Fatal("functions left")
	}
	for _, in := range q.Code {
		if in.Op == Call {
			t.Fatal("call left")
		}
	}
	if err := Verify(q); err != nil {
		t.Fatal(err)
	}
	if q.Code[3].Op != Scope || q.Code[7].Op != EndScope {
		t.Errorf("inlined body not wrapped in a scope:\n%s", q)
	}
}

// TestInlineExplosion checks that a call tree that doubles per level is rejected
// instead of exhausting memory (piglit glsl-fs-inline-explosion).
func TestInlineExplosion(t *testing.T) {
	p := &Program{Stage: Vertex}
	for i := 0; i < 40; i++ {
		var code []Inst
		if i == 0 {
			code = []Inst{{Op: Nop, Dst: NoReg, Src: nosrc()}}
		} else {
			c := Inst{Op: Call, Dst: NoReg, Src: nosrc(), Imm: uint32(i - 1)}
			code = []Inst{c, c}
		}
		p.Funcs = append(p.Funcs, Func{Name: "f", Code: code})
	}
	p.Code = []Inst{{Op: Call, Dst: NoReg, Src: nosrc(), Imm: 39}}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
	if _, err := Inline(p); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	q, err := Optimize(p)
	if err != nil || len(q.Funcs) != 40 {
		t.Fatalf("Optimize: %v, %d functions kept, want them all", err, len(q.Funcs))
	}
	if err := Verify(q); err != nil {
		t.Fatal(err)
	}
}

func TestSimplifyScopes(t *testing.T) {
	p := &Program{Stage: Vertex, OutputWords: 1}
	b := NewBuilder(p)
	x := b.ConstF(1)
	b.Ctl(Scope) // no return: removed
	b.OpTo(FAdd, x, x, x)
	b.Ctl(Return) // trailing return: removed
	b.Ctl(EndScope)
	b.Ctl(Scope) // early return: kept
	b.Ctl(If, b.Op(FLt, Bool, x, x))
	b.Ctl(Return)
	b.Ctl(EndIf)
	b.Ctl(EndScope)
	b.Imm(StoreOutput, NoReg, 0, x)
	if !SimplifyScopes(p) {
		t.Fatal("nothing simplified")
	}
	scopes, returns := 0, 0
	for _, in := range p.Code {
		switch in.Op {
		case Scope:
			scopes++
		case Return:
			returns++
		}
	}
	if scopes != 1 || returns != 1 {
		t.Errorf("%d scopes, %d returns left, want 1 and 1:\n%s", scopes, returns, p)
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}

func TestHoistAndCoalesce(t *testing.T) {
	p := &Program{Stage: Vertex, InputWords: 1, OutputWords: 1}
	b := NewBuilder(p)
	x := b.Imm(LoadInput, b.Reg(I32), 0)
	i := b.ConstI(0)
	arr := b.Reg(I32)
	b.Reg(I32)
	b.Imm(Const, arr, 5)
	b.Imm(Const, arr+1, 5) // equal to arr's value, but an array element: kept apart
	b.Ctl(Loop)
	lim := b.ConstI(4) // single definition, read in its block: hoisted
	b.Ctl(If, b.Op(IGe, Bool, i, lim))
	b.Ctl(Break)
	b.Ctl(EndIf)
	t1 := b.Op(IAdd, I32, i, b.ConstI(1))
	b.OpTo(Mov, i, t1) // coalesced into the add
	b.Ctl(EndLoop)
	e := b.Reg(I32)
	b.Emit(Inst{Op: ArrayLoad, Dst: e, Src: [4]Reg{x, NoReg, NoReg, NoReg}, Imm: uint32(arr), Len: 2, Stride: 1})
	b.Imm(StoreOutput, NoReg, 0, b.Op(IAdd, I32, i, e))
	if !HoistConstants(p) || !CoalesceMoves(p) {
		t.Fatalf("passes did nothing:\n%s", p)
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
	loop := 0
	for pc, in := range p.Code {
		if in.Op == Loop {
			loop = pc
		}
		if in.Op == Mov {
			t.Errorf("move left at %d:\n%s", pc, p)
		}
	}
	for _, in := range p.Code[loop:] {
		if in.Op == Const {
			t.Errorf("constant left in the loop:\n%s", p)
		}
	}
	defs := 0
	for _, in := range p.Code {
		if in.Op == Const && (in.Dst == arr || in.Dst == arr+1) {
			defs++
		}
	}
	if defs != 2 {
		t.Errorf("array element constants merged:\n%s", p)
	}
}

func TestCompactRegisters(t *testing.T) {
	p := &Program{Stage: Vertex, OutputWords: 1}
	b := NewBuilder(p)
	b.Reg(F32) // unused
	x := b.ConstF(2)
	b.Reg(I32) // unused
	y := b.Op(FMul, F32, x, x)
	b.Imm(StoreOutput, NoReg, 0, y)
	if !CompactRegisters(p) {
		t.Fatal("nothing compacted")
	}
	if len(p.Regs) != 2 || p.Code[1].Src[0] != 0 || p.Code[1].Dst != 1 || p.Code[2].Src[0] != 1 {
		t.Errorf("after compaction:\n%s", p)
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}

func TestDeadTextureRemoved(t *testing.T) {
	p := &Program{Stage: Fragment, InputWords: 2, OutputWords: 1}
	p.Samplers = []SamplerBinding{{Name: "s", Kind: Sampler2D, Result: F32}}
	b := NewBuilder(p)
	u := b.Imm(LoadInput, b.Reg(F32), 0)
	v := b.Imm(LoadInput, b.Reg(F32), 1)
	no3 := [3]Reg{NoReg, NoReg, NoReg}
	for i := 0; i < 2; i++ {
		d := b.Reg(F32)
		p.Tex = append(p.Tex, TexInfo{Op: TexSample, Sampler: 0, Dst: [4]Reg{d, NoReg, NoReg, NoReg}, Coord: [4]Reg{u, v, NoReg, NoReg}, NCoord: 2,
			Lod: NoReg, Bias: NoReg, Compare: NoReg, DPdx: no3, DPdy: no3})
		b.Emit(Inst{Op: Tex, Dst: NoReg, Src: nosrc(), Imm: uint32(i)})
		if i == 1 {
			b.Imm(StoreOutput, NoReg, 0, d)
		}
	}
	q, err := Optimize(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Tex) != 1 {
		t.Fatalf("%d texture records left, want 1:\n%s", len(q.Tex), q)
	}
	if err := Verify(q); err != nil {
		t.Fatal(err)
	}
}
