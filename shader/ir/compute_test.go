package ir

import (
	"strings"
	"testing"
)

// TestAtomicResult checks every atomic operation's stored word. spec: GLSL 4.50
// §8.11 (atomic memory functions).
func TestAtomicResult(t *testing.T) {
	neg := func(v int32) uint32 { return uint32(v) }
	tests := []struct {
		op            AtomicOp
		old, val, cmp uint32
		want          uint32
	}{
		{AtomicAdd, 0xffffffff, 2, 0, 1},
		{AtomicIMin, neg(-5), 3, 0, neg(-5)},
		{AtomicUMin, neg(-5), 3, 0, 3},
		{AtomicIMax, neg(-5), 3, 0, 3},
		{AtomicUMax, neg(-5), 3, 0, neg(-5)},
		{AtomicAnd, 0b1100, 0b1010, 0, 0b1000},
		{AtomicOr, 0b1100, 0b1010, 0, 0b1110},
		{AtomicXor, 0b1100, 0b1010, 0, 0b0110},
		{AtomicExchange, 7, 9, 0, 9},
		{AtomicCompSwap, 7, 9, 7, 9},
		{AtomicCompSwap, 7, 9, 8, 7},
	}
	for _, tc := range tests {
		if got := AtomicResult(tc.op, tc.old, tc.val, tc.cmp); got != tc.want {
			t.Errorf("%v(%#x, %#x, %#x) = %#x, want %#x", tc.op, tc.old, tc.val, tc.cmp, got, tc.want)
		}
	}
}

func TestImageFormats(t *testing.T) {
	for f := ImageFormat(0); f < numFormats; f++ {
		g, ok := FormatByName(f.String())
		if !ok || g != f {
			t.Errorf("%v does not round-trip through its name", f)
		}
		if b := f.TexelBytes(); b != 4 && b != 8 && b != 16 {
			t.Errorf("%v: %d bytes per texel", f, b)
		}
	}
	if _, ok := FormatByName("rgb10_a2"); ok {
		t.Error("unsupported format accepted")
	}
}

// TestVerifyCompute checks the verifier's rules for memory instructions and the
// compute layout.
func TestVerifyCompute(t *testing.T) {
	nosrc := [4]Reg{NoReg, NoReg, NoReg, NoReg}
	base := func() (*Program, *Builder) {
		p := &Program{Stage: Compute, InputWords: ComputeInputWords, LocalSize: [3]uint32{4, 1, 1}, SharedBytes: 16,
			Buffers: []BufferBinding{{Name: "b", Binding: 2, Stride: 4}}, Images: []ImageBinding{{Name: "i", Binding: 1, Format: FormatR32UI}}}
		b := NewBuilder(p)
		b.Reg(U32) // r0
		b.Reg(Bool)
		return p, b
	}
	ok := func(p *Program, b *Builder) {
		b.Emit(Inst{Op: MemLoad, Dst: 0, Src: [4]Reg{0, NoReg, NoReg, NoReg}, Imm: 2, Len: uint32(SpaceBuffer)})
		b.Emit(Inst{Op: MemStore, Dst: NoReg, Src: [4]Reg{0, 0, NoReg, NoReg}, Len: uint32(SpaceShared)})
		b.Emit(Inst{Op: MemAtomic, Dst: 0, Src: [4]Reg{0, 0, 0, NoReg}, Imm: 1, Len: uint32(SpaceImage), Stride: uint32(AtomicCompSwap)})
		b.Emit(Inst{Op: MemSize, Dst: 0, Src: nosrc, Imm: 2, Len: uint32(SpaceBuffer)})
		b.Ctl(Barrier)
	}
	p, b := base()
	ok(p, b)
	if err := Verify(p); err != nil {
		t.Fatalf("valid compute program rejected: %v", err)
	}
	if s := p.String(); !strings.Contains(s, "mload buffer2, r0") || !strings.Contains(s, "matomic image1 compswap") {
		t.Errorf("printer:\n%s", s)
	}
	tests := []struct {
		name  string
		build func(p *Program, b *Builder)
		want  string
	}{
		{"no binding", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: MemLoad, Dst: 0, Src: [4]Reg{0, NoReg, NoReg, NoReg}, Imm: 3, Len: uint32(SpaceBuffer)})
		}, "no buffer binding 3"},
		{"bad space", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: MemLoad, Dst: 0, Src: [4]Reg{0, NoReg, NoReg, NoReg}, Len: 9})
		}, "memory space"},
		{"bool load", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: MemLoad, Dst: 1, Src: [4]Reg{0, NoReg, NoReg, NoReg}, Imm: 2})
		}, "bool"},
		{"bool store", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: MemStore, Dst: NoReg, Src: [4]Reg{0, 1, NoReg, NoReg}, Imm: 2})
		}, "bool"},
		{"float address", func(p *Program, b *Builder) {
			f := b.Reg(F32)
			b.Emit(Inst{Op: MemLoad, Dst: 0, Src: [4]Reg{f, NoReg, NoReg, NoReg}, Imm: 2})
		}, "source 0"},
		{"atomic op", func(p *Program, b *Builder) {
			b.Emit(Inst{Op: MemAtomic, Dst: 0, Src: [4]Reg{0, 0, 0, NoReg}, Imm: 2, Stride: 99})
		}, "atomic op"},
		{"extent component", func(p *Program, b *Builder) {
			i := b.Reg(I32)
			b.Emit(Inst{Op: ImageExtent, Dst: i, Src: nosrc, Imm: 1, Stride: 3})
		}, "component"},
		{"barrier outside compute", func(p *Program, b *Builder) {
			p.Stage, p.LocalSize, p.SharedBytes, p.InputWords = Vertex, [3]uint32{}, 0, 0
			b.Ctl(Barrier)
		}, "compute"},
		{"zero local size", func(p *Program, b *Builder) { p.LocalSize[1] = 0 }, "local size y"},
		{"input words", func(p *Program, b *Builder) { p.InputWords = 3 }, "input words"},
		{"shared size", func(p *Program, b *Builder) { p.SharedBytes = 6 }, "shared memory"},
		{"duplicate buffer", func(p *Program, b *Builder) {
			p.Buffers = append(p.Buffers, BufferBinding{Name: "c", Binding: 2})
		}, "share binding"},
		{"bad format", func(p *Program, b *Builder) { p.Images[0].Format = 99 }, "format"},
	}
	for _, tc := range tests {
		p, b := base()
		tc.build(p, b)
		if err := Verify(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestLocalValueNumbering checks that repeated pure computations in one block
// become moves, and that redefinitions and block ends stop the reuse.
func TestLocalValueNumbering(t *testing.T) {
	p := &Program{Stage: Compute, InputWords: ComputeInputWords, LocalSize: [3]uint32{1, 1, 1}}
	b := NewBuilder(p)
	x := b.Imm(LoadInput, b.Reg(U32), 0)
	y := b.Imm(LoadInput, b.Reg(U32), 1)
	a := b.Op(UMul, U32, x, y)
	c := b.Op(UMul, U32, x, y) // same: becomes a move from a
	b.Imm(LoadInput, x, 2)     // x redefined
	d := b.Op(UMul, U32, x, y) // differs now
	b.Ctl(If, b.ConstB(true))
	e := b.Op(UMul, U32, x, y) // new block: recomputed
	b.Ctl(EndIf)
	if !LocalValueNumbering(p) {
		t.Fatal("no change")
	}
	want := map[Reg]Op{a: UMul, c: Mov, d: UMul, e: UMul}
	for _, in := range p.Code {
		if op, ok := want[in.Dst]; ok && in.Op.HasDst() && in.Op != op {
			t.Errorf("r%d: %v, want %v", in.Dst, in.Op, op)
		}
	}
	if err := Verify(p); err != nil {
		t.Fatal(err)
	}
}
