package compute

import (
	"encoding/binary"
	"errors"
	"strings"
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

// doubleIR: out[x + y·X] = 2·in[x] + y, x = gl_GlobalInvocationID.x, y =
// gl_WorkGroupID.y, X = gl_NumWorkGroups.x·n; in (binding 0) readonly, out at
// binding 2; local size n×1×1.
func doubleIR(n uint32) *ir.Program {
	p := &ir.Program{Stage: ir.Compute, InputWords: ir.ComputeInputWords, LocalSize: [3]uint32{n, 1, 1},
		Buffers: []ir.BufferBinding{{Name: "in", Binding: 0, Stride: 4, ReadOnly: true}, {Name: "out", Binding: 2, Stride: 4}}}
	b := ir.NewBuilder(p)
	gid := b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InGlobalID)
	addr := b.Op(ir.UMul, ir.U32, gid, b.ConstU(4))
	v := b.Reg(ir.U32)
	b.Emit(ir.Inst{Op: ir.MemLoad, Dst: v, Src: [4]ir.Reg{addr, ir.NoReg, ir.NoReg, ir.NoReg}, Imm: 0, Len: uint32(ir.SpaceBuffer)})
	wy := b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InWorkGroupID+1)
	r := b.Op(ir.UAdd, ir.U32, b.Op(ir.UMul, ir.U32, v, b.ConstU(2)), wy)
	nx := b.Op(ir.UMul, ir.U32, b.Imm(ir.LoadInput, b.Reg(ir.U32), ir.InNumWorkGroups), b.ConstU(n))
	oi := b.Op(ir.UAdd, ir.U32, gid, b.Op(ir.UMul, ir.U32, wy, nx))
	b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{b.Op(ir.UMul, ir.U32, oi, b.ConstU(4)), r, ir.NoReg, ir.NoReg}, Imm: 2, Len: uint32(ir.SpaceBuffer)})
	return p
}

// groupsIR: every invocation stores {x, 1, 1} (x = its uniform-free constant)
// at words 0..2 of binding 5 — an indirect record computed on the device.
func groupsIR(x uint32) *ir.Program {
	p := &ir.Program{Stage: ir.Compute, InputWords: ir.ComputeInputWords, LocalSize: [3]uint32{1, 1, 1},
		Buffers: []ir.BufferBinding{{Name: "cmd", Binding: 5, Fixed: 12}}}
	b := ir.NewBuilder(p)
	for i, v := range []uint32{x, 1, 1} {
		b.Emit(ir.Inst{Op: ir.MemStore, Dst: ir.NoReg, Src: [4]ir.Reg{b.ConstU(uint32(4 * i)), b.ConstU(v), ir.NoReg, ir.NoReg}, Imm: 5, Len: uint32(ir.SpaceBuffer)})
	}
	return p
}

func words(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func ramp(n int) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		v[i] = uint32(i*7 + 1)
	}
	return v
}

// TestOversizedWorkgroupRefused: a workgroup above threads × warps is refused
// with ErrWorkgroupTooLarge naming the sizes, never re-tiled (vortexpipe §1.3),
// and nothing reaches the CP.
func TestOversizedWorkgroupRefused(t *testing.T) {
	d := openDevice(t, nil)
	if got := d.MaxWorkgroupInvocations(); got != 64 {
		t.Fatalf("MaxWorkgroupInvocations = %d, want 16 threads × 4 warps = 64", got)
	}
	if got := d.MaxWorkgroupSize(); got != [3]int{64, 64, 64} {
		t.Fatalf("MaxWorkgroupSize = %v", got)
	}
	p, err := d.Load("big", reverseIR(128))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := d.NewBufferSize(4 * 128)
	cnt, _ := d.NewBufferSize(4)
	before := d.Stats()
	err = d.Dispatch(p, [3]uint32{1, 1, 1}, StorageBuffer(3, out), StorageBuffer(1, cnt))
	if !errors.Is(err, ErrWorkgroupTooLarge) || !strings.Contains(err.Error(), "128 invocations") || !strings.Contains(err.Error(), "at most 64") {
		t.Fatalf("error %v, want ErrWorkgroupTooLarge naming 128 and 64", err)
	}
	if after := d.Stats(); after.Doorbells != before.Doorbells || after.Launches != before.Launches {
		t.Fatalf("a refused dispatch reached the device: %+v → %+v", before, after)
	}
	// The same program fits a device with larger blocks.
	d2 := openDevice(t, func(c *config.Config) { c.Device.Warps = 8 })
	p2, err := d2.Load("big", reverseIR(128))
	if err != nil {
		t.Fatal(err)
	}
	out2, _ := d2.NewBufferSize(4 * 128)
	cnt2, _ := d2.NewBufferSize(4)
	if err := d2.Dispatch(p2, [3]uint32{1, 1, 1}, StorageBuffer(3, out2), StorageBuffer(1, cnt2)); err != nil {
		t.Fatal(err)
	}
	if got := u32s(out2.Bytes()); got[0] != 127 || got[127] != 0 {
		t.Fatalf("128-wide reverse: %d … %d", got[0], got[127])
	}
}

// TestResidencyAndOneDoorbell: a frame of N dispatches is one batch, one
// doorbell and one CMD_DRAW bundle per 128 launches; an unchanged input buffer
// is uploaded once over many frames, a readonly binding is never read back, a
// written one every frame, and device addresses never move.
func TestResidencyAndOneDoorbell(t *testing.T) {
	for _, flavor := range []string{"emu", "rtl"} {
		t.Run(flavor, func(t *testing.T) {
			d := openDevice(t, func(c *config.Config) { c.CP.Flavor = flavor })
			const n, groups = 16, 4
			p, err := d.Load("double", doubleIR(n))
			if err != nil {
				t.Fatal(err)
			}
			in, _ := d.NewBuffer(words(ramp(n * groups)...))
			out, _ := d.NewBufferSize(4 * n * groups * 10)
			inAddr, outAddr := in.Addr(), out.Addr()
			const frames, perFrame = 5, 10
			for fr := 0; fr < frames; fr++ {
				before := d.Stats()
				f := d.NewFrame()
				for i := 0; i < perFrame; i++ {
					if err := f.Dispatch(p, [3]uint32{groups, uint32(i + 1), 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
						t.Fatal(err)
					}
				}
				st, err := f.Submit()
				if err != nil {
					t.Fatal(err)
				}
				after := d.Stats()
				if st.Doorbells != 1 || after.Doorbells-before.Doorbells != 1 {
					t.Fatalf("frame %d: %d doorbells (runtime %d), want 1", fr, st.Doorbells, after.Doorbells-before.Doorbells)
				}
				if got := after.Launches - before.Launches; got != perFrame {
					t.Fatalf("frame %d: %d launches, want %d", fr, got, perFrame)
				}
				if flavor == "emu" && after.CPBundles-before.CPBundles != 1 {
					t.Fatalf("frame %d: %d CMD_DRAW bundles, want 1", fr, after.CPBundles-before.CPBundles)
				}
				wantUp := 0
				if fr == 0 {
					wantUp = 2 // both buffers start dirty
				}
				if st.Uploads != wantUp || st.Readbacks != 1 {
					t.Fatalf("frame %d: %d uploads, %d read-backs; want %d, 1", fr, st.Uploads, st.Readbacks, wantUp)
				}
			}
			if in.Uploads() != 1 || in.Readbacks() != 0 || out.Readbacks() != frames {
				t.Fatalf("in: %d uploads %d read-backs; out: %d read-backs", in.Uploads(), in.Readbacks(), out.Readbacks())
			}
			if in.Addr() != inAddr || out.Addr() != outAddr {
				t.Fatal("device addresses moved")
			}
			// The last dispatch of each frame ran perFrame rows of groups.
			got := u32s(out.Bytes())
			for y := 0; y < perFrame; y++ {
				for i, v := range ramp(n * groups) {
					if want := 2*v + uint32(y); got[y*n*groups+i] != want {
						t.Fatalf("out[%d] = %d, want %d", y*n*groups+i, got[y*n*groups+i], want)
					}
				}
			}
			// A host write makes the input dirty: uploaded once more, and used.
			if err := in.Write(0, words(100)); err != nil {
				t.Fatal(err)
			}
			if err := d.Dispatch(p, [3]uint32{groups, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
				t.Fatal(err)
			}
			if in.Uploads() != 2 || u32s(out.Bytes())[0] != 200 {
				t.Fatalf("after a host write: %d uploads, out[0] = %d", in.Uploads(), u32s(out.Bytes())[0])
			}
		})
	}
}

// TestIndirectDispatch: the group counts are read by the device — written by an
// earlier dispatch of the same frame, never by the host.
func TestIndirectDispatch(t *testing.T) {
	d := openDevice(t, nil)
	const n = 16
	gp, err := d.Load("groups", groupsIR(7))
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Load("double", doubleIR(n))
	if err != nil {
		t.Fatal(err)
	}
	cmd, _ := d.NewBuffer(words(99, 0, 0, 0)) // the host's counts: 0 groups (overwritten on the device)
	in, _ := d.NewBuffer(words(ramp(n * 8)...))
	out, _ := d.NewBufferSize(4 * n * 8)
	f := d.NewFrame()
	if err := f.Dispatch(gp, [3]uint32{1, 1, 1}, StorageBuffer(5, cmd)); err != nil {
		t.Fatal(err)
	}
	if err := f.DispatchIndirect(p, cmd, 0, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
		t.Fatal(err)
	}
	st, err := f.Submit()
	if err != nil {
		t.Fatal(err)
	}
	if st.Doorbells != 1 {
		t.Fatalf("%d doorbells", st.Doorbells)
	}
	got := u32s(out.Bytes())
	for i, v := range ramp(n * 8) {
		want := 2 * v
		if i >= 7*n {
			want = 0 // group 7 was not dispatched
		}
		if got[i] != want {
			t.Fatalf("out[%d] = %d, want %d", i, got[i], want)
		}
	}
	// Counts straight from a host buffer, at an offset, with y and z.
	rec, _ := d.NewBuffer(words(0, 2, 3, 1))
	out2, _ := d.NewBufferSize(4 * n * 2 * 3)
	if err := d.DispatchIndirect(p, rec, 4, StorageBuffer(0, in), StorageBuffer(2, out2)); err != nil {
		t.Fatal(err)
	}
	for i, v := range u32s(out2.Bytes()) {
		if want := 2*ramp(n * 2)[i%(2*n)] + uint32(i/(2*n)); v != want {
			t.Fatalf("out2[%d] = %d, want %d", i, v, want)
		}
	}
	// A bad record offset is refused at record time, naming the dispatch.
	if err := d.DispatchIndirect(p, rec, 8, StorageBuffer(0, in), StorageBuffer(2, out2)); err == nil || !strings.Contains(err.Error(), "dispatch 0") {
		t.Fatalf("record past the end: %v", err)
	}
	// Counts beyond the limit fail the launch on the device.
	huge, _ := d.NewBuffer(words(MaxGroupCount+1, 1, 1))
	if err := d.DispatchIndirect(p, huge, 0, StorageBuffer(0, in), StorageBuffer(2, out2)); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("oversized indirect counts: %v", err)
	}
}

// TestBindingErrors: errors name the dispatch and the binding.
func TestBindingErrors(t *testing.T) {
	d := openDevice(t, nil)
	p, err := d.Load("double", doubleIR(16))
	if err != nil {
		t.Fatal(err)
	}
	in, _ := d.NewBufferSize(64)
	other := openDevice(t, nil)
	foreign, _ := other.NewBufferSize(64)
	for _, c := range []struct {
		name string
		bs   []Binding
		want string
	}{
		{"missing", []Binding{StorageBuffer(0, in)}, "storage buffer binding 2 (out): compute: bad binding: nothing bound"},
		{"nil", []Binding{StorageBuffer(0, in), StorageBuffer(2, nil)}, "binding 2 (out): compute: bad binding: no buffer"},
		{"foreign", []Binding{StorageBuffer(0, in), StorageBuffer(2, foreign)}, "another device"},
	} {
		f := d.NewFrame()
		f.Dispatch(p, [3]uint32{1, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, in))
		err := f.Dispatch(p, [3]uint32{1, 1, 1}, c.bs...)
		if !errors.Is(err, ErrBinding) || !strings.Contains(err.Error(), "dispatch 1 (double)") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
		if _, err := f.Submit(); err == nil {
			t.Errorf("%s: frame with a failed dispatch submitted", c.name)
		}
	}
	if err := d.Dispatch(p, [3]uint32{MaxGroupCount + 1, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, in)); err == nil {
		t.Error("group count above the limit accepted")
	}
	// An empty dispatch launches nothing and succeeds.
	before := d.Stats().Launches
	if err := d.Dispatch(p, [3]uint32{0, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, in)); err != nil || d.Stats().Launches != before {
		t.Errorf("empty dispatch: %v", err)
	}
}

// TestDeterministicAcrossCores: the same frame gives the same bytes on devices
// of 1 to 8 cores, with and without VM (which takes the translated, per-lane
// memory path instead of device-memory views).
func TestDeterministicAcrossCores(t *testing.T) {
	run := func(mut func(*config.Config)) []byte {
		d := openDevice(t, mut)
		p, err := d.Load("reverse", reverseIR(32))
		if err != nil {
			t.Fatal(err)
		}
		q, err := d.Load("double", doubleIR(32))
		if err != nil {
			t.Fatal(err)
		}
		out, _ := d.NewBufferSize(4 * 32 * 13)
		cnt, _ := d.NewBufferSize(4)
		dbl, _ := d.NewBufferSize(4 * 32 * 13 * 3)
		f := d.NewFrame()
		for i := 0; i < 3; i++ {
			f.Dispatch(p, [3]uint32{13, 1, 1}, StorageBuffer(3, out), StorageBuffer(1, cnt))
			f.Dispatch(q, [3]uint32{13, 3, 1}, StorageBuffer(0, out), StorageBuffer(2, dbl))
		}
		if _, err := f.Submit(); err != nil {
			t.Fatal(err)
		}
		if d.Config().Device.ISA() {
			for _, pr := range []*Program{p, q} {
				if st := pr.ISAStats(); !pr.ISA() || st.Launches != 3 || st.Instructions == 0 {
					t.Errorf("%s did not run as machine code: fallback %q, stats %+v", pr.Name(), pr.Fallback(), st)
				}
			}
		}
		return append(append(out.Bytes(), cnt.Bytes()...), dbl.Bytes()...)
	}
	want := run(func(c *config.Config) { c.Device.CoresPerSocket, c.Device.SocketsPerCluster = 1, 1 })
	if c := u32s(want)[32*13]; c != 3*32*13 {
		t.Fatalf("atomic count %d", c)
	}
	for _, m := range []struct {
		name string
		mut  func(*config.Config)
	}{
		{"4 cores", nil},
		{"8 cores", func(c *config.Config) { c.Device.Clusters = 2 }},
		{"vm", func(c *config.Config) { c.CP.VM = true }},
		{"8-wide warps", func(c *config.Config) { c.Device.Threads, c.Device.Warps = 8, 8 }},
		// Machine code on the SIMT core model: the same bytes (isa.go).
		{"isa", func(c *config.Config) { c.Device.Cores = config.CoresISA }},
		{"isa, 1 core", func(c *config.Config) {
			c.Device.Cores, c.Device.CoresPerSocket, c.Device.SocketsPerCluster = config.CoresISA, 1, 1
		}},
		{"isa, vm", func(c *config.Config) { c.Device.Cores, c.CP.VM = config.CoresISA, true }},
		{"isa, 8-wide warps", func(c *config.Config) { c.Device.Cores, c.Device.Threads, c.Device.Warps = config.CoresISA, 8, 8 }},
	} {
		if got := run(m.mut); string(got) != string(want) {
			t.Errorf("%s: bytes differ from the 1-core run", m.name)
		}
	}
}

// TestLargeFrame: 1000 dispatches are one batch and one doorbell on the
// emulation CP — eight CMD_DRAW bundles of at most 128 launches (two bundle
// steps each) — and every dispatch runs.
func TestLargeFrame(t *testing.T) {
	d := openDevice(t, nil)
	p, err := d.Load("double", doubleIR(16))
	if err != nil {
		t.Fatal(err)
	}
	in, _ := d.NewBuffer(words(ramp(16)...))
	out, _ := d.NewBufferSize(64)
	f := d.NewFrame()
	for i := 0; i < 1000; i++ {
		if err := f.Dispatch(p, [3]uint32{1, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
			t.Fatal(err)
		}
	}
	before := d.Stats()
	st, err := f.Submit()
	if err != nil {
		t.Fatal(err)
	}
	after := d.Stats()
	if st.Doorbells != 1 || after.CPBundles-before.CPBundles != 8 || after.Launches-before.Launches != 1000 {
		t.Fatalf("%d doorbells, %d bundles, %d launches; want 1, 8, 1000", st.Doorbells, after.CPBundles-before.CPBundles, after.Launches-before.Launches)
	}
}

// TestRelease: a released program leaves the module (which reloads without
// it) and cannot be dispatched; the others keep running.
func TestRelease(t *testing.T) {
	d := openDevice(t, nil)
	a, _ := d.Load("a", doubleIR(16))
	b, _ := d.Load("b", doubleIR(16))
	in, _ := d.NewBuffer(words(ramp(16)...))
	out, _ := d.NewBufferSize(64)
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err == nil {
		t.Error("released twice")
	}
	if err := d.Dispatch(a, [3]uint32{1, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err == nil || !strings.Contains(err.Error(), "released") {
		t.Fatalf("dispatch of a released program: %v", err)
	}
	if err := d.Dispatch(b, [3]uint32{1, 1, 1}, StorageBuffer(0, in), StorageBuffer(2, out)); err != nil {
		t.Fatal(err)
	}
	if got := u32s(out.Bytes())[3]; got != 2*ramp(16)[3] {
		t.Fatalf("out[3] = %d", got)
	}
}

// TestSharedNeedsLMem checks that the kernel keeps shared variables in the CTA's
// local memory: a launch whose LMEM_SIZE does not hold them is refused with an
// error naming the shortfall. spec: vortexpipe §2.2, §2.3.2
func TestSharedNeedsLMem(t *testing.T) {
	d := openDevice(t, nil)
	const n = 64
	for _, tc := range []struct {
		name  string
		lmem  int
		valid bool
	}{{"exact", 4 * n, true}, {"one word short", 4*n - 4, false}, {"none", 0, false}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := d.Load("reverse", reverseIR(n))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Release()
			p.sharedBytes = tc.lmem // the LMEM_SIZE the dispatch launches with
			out, _ := d.NewBufferSize(4 * n)
			cnt, _ := d.NewBufferSize(4)
			err = d.Dispatch(p, [3]uint32{1, 1, 1}, StorageBuffer(3, out), StorageBuffer(1, cnt))
			if tc.valid {
				if err != nil {
					t.Fatal(err)
				}
				if got := u32s(out.Bytes()); got[0] != n-1 || got[n-1] != 0 {
					t.Fatalf("reversed words %d…%d, want %d…0", got[0], got[n-1], n-1)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "shared") {
				t.Fatalf("LMEM_SIZE %d for %d bytes of shared variables: err %v, want a refusal", tc.lmem, 4*n, err)
			}
		})
	}
}
