package compute

import (
	"encoding/binary"
	"testing"

	"vortexgfx/config"
	"vortexgfx/shader/ir"
)

func openDevice(t testing.TB, mut func(*config.Config)) *Device {
	t.Helper()
	cfg := config.Default()
	if mut != nil {
		mut(&cfg)
	}
	d, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// reverseIR builds by hand a compute program of n invocations per workgroup:
// each stores its local index to shared word i, waits at a barrier, and writes
// shared word n−1−i plus 1000 × gl_WorkGroupID.x to out[gl_GlobalInvocationID.x]
// (binding 3); each also adds 1 to word 0 of binding 1 atomically.
func reverseIR(n uint32) *ir.Program {
	p := &ir.Program{Stage: ir.Compute, InputWords: ir.ComputeInputWords, LocalSize: [3]uint32{n, 1, 1}, SharedBytes: 4 * n,
		Buffers: []ir.BufferBinding{{Name: "out", Binding: 3, Stride: 4}, {Name: "count", Binding: 1, Fixed: 4}}}
	b := ir.NewBuilder(p)
	idx := b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InLocalIndex)
	four := b.ConstU(4)
	addr := b.Op(ir.UMul, ir.U32, idx, four)
	b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{addr, idx, ir.NoReg, ir.NoReg}, Len: uint32(ir.SpaceShared)})
	b.Ctl(ir.Barrier)
	ridx := b.Op(ir.USub, ir.U32, b.ConstU(n-1), idx)
	v := b.Reg(ir.U32)
	b.Emit(ir.Inst{Op: ir.MemLoad, Dst: v, Src: [4]ir.Reg{b.Op(ir.UMul, ir.U32, ridx, four), ir.NoReg, ir.NoReg, ir.NoReg}, Len: uint32(ir.SpaceShared)})
	wg := b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InWorkGroupID)
	val := b.Op(ir.UAdd, ir.U32, v, b.Op(ir.UMul, ir.U32, wg, b.ConstU(1000)))
	gid := b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InGlobalID)
	b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{b.Op(ir.UMul, ir.U32, gid, four), val, ir.NoReg, ir.NoReg}, Imm: 3, Len: uint32(ir.SpaceBuffer)})
	old := b.Reg(ir.U32)
	b.Emit(ir.Inst{Op: ir.MemAtomic, Dst: old, Src: [4]ir.Reg{b.ConstU(0), b.ConstU(1), b.ConstU(0), ir.NoReg}, Imm: 1, Len: uint32(ir.SpaceBuffer), Stride: uint32(ir.AtomicAdd)})
	return p
}

func u32s(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// TestDispatchIR runs a hand-built program through the whole dispatch path:
// CTA grid, barrier across the CTA's warps, storage buffer stores and atomics.
func TestDispatchIR(t *testing.T) {
	d := openDevice(t, nil)
	const n, groups = 64, 9
	p, err := d.Load("reverse", reverseIR(n))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := d.NewBufferSize(4 * n * groups)
	cnt, _ := d.NewBufferSize(4)
	if err := d.Dispatch(p, [3]uint32{groups, 1, 1}, StorageBuffer(3, out), StorageBuffer(1, cnt)); err != nil {
		t.Fatal(err)
	}
	got := u32s(out.Bytes())
	for g := 0; g < groups; g++ {
		for i := 0; i < n; i++ {
			if want := uint32(n - 1 - i + 1000*g); got[g*n+i] != want {
				t.Fatalf("out[%d] = %d, want %d", g*n+i, got[g*n+i], want)
			}
		}
	}
	if c := u32s(cnt.Bytes())[0]; c != n*groups {
		t.Fatalf("atomic count %d, want %d", c, n*groups)
	}
}
