package exec

import (
	"context"
	"errors"
	"testing"

	"vortexgfx/shader/ir"
)

// reverseProgram builds, by hand, a compute program in which every invocation
// stores its local index into shared word i, waits at a barrier, and copies shared
// word N-1-i to buffer word i: correct only if the barrier orders the warps.
func reverseProgram(n uint32, withBarrier bool) *ir.Program {
	p := &ir.Program{Stage: ir.Compute, InputWords: ir.ComputeInputWords, LocalSize: [3]uint32{n, 1, 1}, SharedBytes: 4 * n,
		Buffers: []ir.BufferBinding{{Name: "out", Binding: 3, Stride: 4}}}
	b := ir.NewBuilder(p)
	idx := b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InLocalIndex)
	four := b.ConstU(4)
	addr := b.Op(ir.UMul, ir.U32, idx, four)
	b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{addr, idx, ir.NoReg, ir.NoReg}, Len: uint32(ir.SpaceShared)})
	if withBarrier {
		b.Ctl(ir.Barrier)
	}
	last := b.ConstU(n - 1)
	ridx := b.Op(ir.USub, ir.U32, last, idx)
	raddr := b.Op(ir.UMul, ir.U32, ridx, four)
	v := b.Reg(ir.U32)
	b.Emit(ir.Inst{Op: ir.MemLoad, Dst: v, Src: [4]ir.Reg{raddr, ir.NoReg, ir.NoReg, ir.NoReg}, Len: uint32(ir.SpaceShared)})
	b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{addr, v, ir.NoReg, ir.NoReg}, Imm: 3, Len: uint32(ir.SpaceBuffer)})
	return p
}

func TestWorkgroupBarrier(t *testing.T) {
	for _, tc := range []struct {
		n, width int
	}{{1, 1}, {7, 4}, {64, 8}, {100, 16}, {256, 32}, {1024, 64}} {
		p := reverseProgram(uint32(tc.n), true)
		wg, err := NewWorkgroup(p, Config{Width: tc.width})
		if err != nil {
			t.Fatal(err)
		}
		mem := newSliceMemory()
		mem.buf[3] = make([]uint32, tc.n)
		if err := wg.Run(context.Background(), WorkgroupIDs{Num: [3]uint32{1, 1, 1}}, mem); err != nil {
			t.Fatal(err)
		}
		for i, v := range mem.buf[3] {
			if v != uint32(tc.n-1-i) {
				t.Fatalf("n=%d width=%d: word %d = %d, want %d", tc.n, tc.width, i, v, tc.n-1-i)
			}
		}
		if tc.n > tc.width {
			// Without the barrier the first warp reads shared words not yet written.
			wg2, err := NewWorkgroup(reverseProgram(uint32(tc.n), false), Config{Width: tc.width})
			if err != nil {
				t.Fatal(err)
			}
			if err := wg2.Run(context.Background(), WorkgroupIDs{Num: [3]uint32{1, 1, 1}}, mem); err != nil {
				t.Fatal(err)
			}
			if mem.buf[3][0] != 0 {
				t.Fatalf("n=%d: barrier-free run read %d, want the unwritten 0", tc.n, mem.buf[3][0])
			}
		}
	}
}

func TestWorkgroupErrors(t *testing.T) {
	p := reverseProgram(8, true)
	if _, err := NewWorkgroup(p, Config{Width: 0}); err == nil {
		t.Error("width 0 accepted")
	}
	big := reverseProgram(8, true)
	big.LocalSize = [3]uint32{1024, 2, 1}
	if _, err := NewWorkgroup(big, Config{Width: 4}); err == nil {
		t.Error("2048 invocations accepted")
	}
	vs := &ir.Program{Stage: ir.Vertex}
	if _, err := NewWorkgroup(vs, Config{Width: 4}); err == nil {
		t.Error("vertex program accepted")
	}
	wg, err := NewWorkgroup(p, Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := wg.Run(context.Background(), WorkgroupIDs{}, nil); !errors.Is(err, ErrNoMemory) {
		t.Errorf("nil memory: %v, want ErrNoMemory", err)
	}
	// No buffer bound: every store is out of bounds and dropped.
	mem := newSliceMemory()
	if err := wg.Run(context.Background(), WorkgroupIDs{}, mem); err != nil {
		t.Errorf("unbound buffer: %v", err)
	}
}

// TestWorkgroupNoAlloc checks that a warm Run allocates nothing.
func TestWorkgroupNoAlloc(t *testing.T) {
	wg, err := NewWorkgroup(reverseProgram(64, true), Config{Width: 16})
	if err != nil {
		t.Fatal(err)
	}
	mem := newSliceMemory()
	mem.buf[3] = make([]uint32, 64)
	ids := WorkgroupIDs{Num: [3]uint32{1, 1, 1}}
	ctx := context.Background()
	if a := testing.AllocsPerRun(20, func() { _ = wg.Run(ctx, ids, mem) }); a != 0 {
		t.Errorf("Run allocates %v times per call", a)
	}
}

// TestWorkgroupBarrierInCall runs the reverse program's body as the leaf of a call
// tree too large to inline (each level calls the next twice, the second call under
// a false condition), so the barrier suspends a warp inside nested Calls.
func TestWorkgroupBarrierInCall(t *testing.T) {
	const n, levels = 16, 22
	flat := reverseProgram(n, true)
	p := &ir.Program{Stage: ir.Compute, InputWords: ir.ComputeInputWords, LocalSize: flat.LocalSize,
		SharedBytes: flat.SharedBytes, Buffers: flat.Buffers, Regs: flat.Regs}
	b := ir.NewBuilder(p)
	no := b.ConstB(false)
	mainCode := p.Code
	p.Code = nil
	for i := 0; i < levels; i++ {
		var code []ir.Inst
		b.Into(&code)
		b.Emit(ir.Inst{Op: ir.Call, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(i + 1)})
		b.Ctl(ir.If, no)
		b.Emit(ir.Inst{Op: ir.Call, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: uint32(i + 1)})
		b.Ctl(ir.EndIf)
		p.Funcs = append(p.Funcs, ir.Func{Name: "level", Code: code})
	}
	p.Funcs = append(p.Funcs, ir.Func{Name: "leaf", Code: flat.Code})
	b.Into(&p.Code)
	p.Code = append(p.Code, mainCode...)
	b.Emit(ir.Inst{Op: ir.Call, Dst: ir.NoReg, Src: [4]ir.Reg{ir.NoReg, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: 0})
	if ir.InlinedSize(p) <= ir.MaxInlinedCode {
		t.Fatalf("call tree of %d instructions would be inlined", ir.InlinedSize(p))
	}
	wg, err := NewWorkgroup(p, Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	mem := newSliceMemory()
	mem.buf[3] = make([]uint32, n)
	if err := wg.Run(context.Background(), WorkgroupIDs{Num: [3]uint32{1, 1, 1}}, mem); err != nil {
		t.Fatal(err)
	}
	for i, v := range mem.buf[3] {
		if v != uint32(n-1-i) {
			t.Fatalf("word %d = %d, want %d", i, v, n-1-i)
		}
	}
}
