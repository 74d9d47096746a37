package device

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/mem"
)

// rig is a device over a fresh device memory with a module image loaded.
type rig struct {
	t    testing.TB
	mem  *mem.Device
	dev  *Device
	base uint64
	ents []abi.KernelImageEntry
}

// vecAdd: c[i] = a[i] + b[i] for i < n; args {a, b, c, n}.
func vecAdd(c *CTA) error {
	a, b, out, n := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3)
	c.ForEachThread(func(tid int) {
		i := c.GlobalID(tid)
		if i >= n {
			return
		}
		c.WriteU32(out+4*i, c.ReadU32(a+4*i)+c.ReadU32(b+4*i))
	})
	return nil
}

// reverseLMem reverses each CTA's block through local memory with a barrier.
func reverseLMem(c *CTA) error {
	in, out := c.Arg(0), c.Arg(1)
	c.ForEachThread(func(tid int) {
		c.SetLMemU32(4*tid, c.ReadU32(in+4*c.GlobalID(tid)))
	})
	c.Barrier()
	c.ForEachThread(func(tid int) {
		c.WriteU32(out+4*c.GlobalID(tid), c.LMemU32(4*(c.Threads-1-tid)))
	})
	return nil
}

func testLibrary(t *testing.T) *Library {
	lib := NewLibrary()
	for name, k := range map[string]Kernel{"vecadd": vecAdd, "reverse": reverseLMem,
		"fail": func(*CTA) error { return errors.New("kernel says no") }} {
		if err := lib.Register(name, k); err != nil {
			t.Fatal(err)
		}
	}
	return lib
}

func newRig(t *testing.T, cfg config.Config) *rig {
	t.Helper()
	m := mem.NewDevice(0x1000_0000, 1<<30)
	dev, err := New(cfg, m, testLibrary(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	ents := []abi.KernelImageEntry{abi.LibraryEntry("main", "vecadd"), abi.LibraryEntry("rev", "reverse"),
		abi.LibraryEntry("bad", "fail"), abi.LibraryEntry("missing", "nosuchkernel")}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		t.Fatal(err)
	}
	base, err := m.Alloc(uint64(len(img)), 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(base, img); err != nil {
		t.Fatal(err)
	}
	ents, err = abi.DecodeKernelImage(img)
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, mem: m, dev: dev, base: base, ents: ents}
}

func (r *rig) entry(name string) uint64 {
	for _, e := range r.ents {
		if e.Name == name {
			return r.base + uint64(e.EntryOffset)
		}
	}
	r.t.Fatalf("no entry %q", name)
	return 0
}

func (r *rig) alloc(words []uint32) uint64 {
	r.t.Helper()
	a, err := r.mem.Alloc(uint64(4*max(len(words), 1)), 64)
	if err != nil {
		r.t.Fatal(err)
	}
	for i, w := range words {
		if err := r.mem.WriteU32(a+4*uint64(i), w); err != nil {
			r.t.Fatal(err)
		}
	}
	return a
}

func (r *rig) args(slots ...uint64) uint64 {
	r.t.Helper()
	a, err := r.mem.Alloc(uint64(8*len(slots)), 64)
	if err != nil {
		r.t.Fatal(err)
	}
	for i, s := range slots {
		if err := r.mem.WriteU64(a+8*uint64(i), s); err != nil {
			r.t.Fatal(err)
		}
	}
	return a
}

func (r *rig) program(l abi.LaunchInfo) {
	r.t.Helper()
	for _, p := range abi.LaunchDCRs(l, uint32(r.dev.Config().Device.Threads)) {
		if err := r.dev.DCRWrite(p.Addr, p.Value); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *rig) read(addr uint64, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		v, err := r.mem.ReadU32(addr + 4*uint64(i))
		if err != nil {
			r.t.Fatal(err)
		}
		out[i] = v
	}
	return out
}

func TestVecAddAnyCoreCount(t *testing.T) {
	const n = 1000
	var want []uint32
	var ref LaunchStats
	for _, cores := range []int{1, 2, 4, 8} {
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = cores, 1
		r := newRig(t, cfg)
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = uint32(i*3), uint32(1000-i)
		}
		pa, pb, pc := r.alloc(a), r.alloc(b), r.alloc(make([]uint32, n))
		r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("main"),
			Args: r.args(pa, pb, pc, n), NDim: 1, Grid: [3]uint32{(n + 63) / 64}, Block: [3]uint32{64}})
		cyc, err := r.dev.Launch(context.Background())
		if err != nil {
			t.Fatalf("%d cores: %v", cores, err)
		}
		got := r.read(pc, n)
		for i, v := range got {
			if v != a[i]+b[i] {
				t.Fatalf("%d cores: c[%d] = %d, want %d", cores, i, v, a[i]+b[i])
			}
		}
		s := r.dev.LastLaunch()
		if s.CTAs != 16 || s.Warps != 64 || s.Threads != 1024 || s.Cycles != cyc {
			t.Errorf("%d cores: stats %+v (cycles %d)", cores, s, cyc)
		}
		if want == nil {
			want, ref = got, s
		} else if s.MemOps != ref.MemOps || s.Phases != ref.Phases {
			t.Errorf("%d cores: counters %+v differ from 1 core %+v", cores, s, ref)
		}
	}
}

func TestLocalMemoryAndBarrier(t *testing.T) {
	r := newRig(t, config.Default())
	in := make([]uint32, 128)
	for i := range in {
		in[i] = uint32(i)
	}
	pi, po := r.alloc(in), r.alloc(make([]uint32, 128))
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("rev"), Args: r.args(pi, po),
		NDim: 1, Grid: [3]uint32{2}, Block: [3]uint32{64}, LMemSize: 256})
	if _, err := r.dev.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := r.read(po, 128)
	for i, v := range got {
		if want := uint32(i/64*64 + 63 - i%64); v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
	if s := r.dev.LastLaunch(); s.Barriers != 2 || s.Phases != 4 {
		t.Errorf("stats %+v: want 2 barriers and 4 phases", s)
	}
}

func TestLaunchErrors(t *testing.T) {
	r := newRig(t, config.Default())
	good := abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("main"), Args: r.args(0, 0, 0, 0),
		NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{16}}
	cases := []struct {
		name   string
		mutate func(l *abi.LaunchInfo)
		after  func()
		want   string
	}{
		{"pc past the image", func(l *abi.LaunchInfo) { l.KernelEntry = r.base + 1<<20 }, nil, "outside the stubs"},
		{"pc not a stub", func(l *abi.LaunchInfo) { l.KernelEntry += 4 }, nil, "not an entry point"},
		{"bad image base", func(l *abi.LaunchInfo) { l.StartupAddr = r.base + 64 }, nil, "bad magic"},
		{"unmapped image", func(l *abi.LaunchInfo) { l.StartupAddr = 0x10 }, nil, "module image"},
		{"unknown library kernel", func(l *abi.LaunchInfo) { l.KernelEntry = r.entry("missing") }, nil, "not in the device's library"},
		{"kernel error", func(l *abi.LaunchInfo) { l.KernelEntry = r.entry("bad") }, nil, "kernel says no"},
		{"fault", func(l *abi.LaunchInfo) { l.Args = r.args(8, 8, 8, 16) }, nil, "device memory fault"},
		{"block too big", func(l *abi.LaunchInfo) { l.Block = [3]uint32{65} }, nil, "exceeds a core"},
		{"lmem too big", func(l *abi.LaunchInfo) { l.LMemSize = 1 << 20 }, nil, "LMEM_SIZE"},
		{"cluster", func(l *abi.LaunchInfo) { l.Grid[0], l.Cluster[0] = 3, 2 }, nil, "CLUSTER_DIM"},
		{"block size mismatch", nil, func() { r.dev.DCRWrite(abi.DCRBlockSize, 3) }, "BLOCK_SIZE"},
		{"warp step mismatch", nil, func() { r.dev.DCRWrite(abi.DCRWarpStepX, 5) }, "WARP_STEP"},
		{"grid-less without handler", func(l *abi.LaunchInfo) { l.Grid[0] = 0 }, nil, "frame-kick"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := good
			if tc.mutate != nil {
				tc.mutate(&l)
			}
			r.program(l)
			if tc.after != nil {
				tc.after()
			}
			_, err := r.dev.Launch(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if r.dev.LastLaunchError() != err {
				t.Errorf("LastLaunchError = %v", r.dev.LastLaunchError())
			}
		})
	}
	r.program(good)
	if _, err := r.dev.Launch(context.Background()); err != nil {
		t.Fatalf("good launch after errors: %v", err)
	}
}

func TestDCRBus(t *testing.T) {
	d := newRig(t, config.Default()).dev
	type w struct {
		a abi.DCR
		v uint32
	}
	writes := []w{{abi.DCRTexStage, 1}, {abi.DCRTexAddr, 0x111}, {abi.DCRTexStage, 0}, {abi.DCRTexAddr, 0x222},
		{abi.DCROMRTSelect, 2}, {abi.DCROMCBufAddr, 0x333}, {abi.DCROMZBufAddr, 0x444}, {abi.DCROMRTSelect, 0},
		{abi.DCRRasterFragEntryLo, 0x80000010}, {abi.DCRRasterFragEntryHi, 1}, {abi.DCRRTUFirst, 7}, {abi.DCRDXAFirst + 5, 9}}
	var seen int
	d.SetDCRListener(func(abi.DCR, uint32) { seen++ })
	for _, x := range writes {
		if err := d.DCRWrite(x.a, x.v); err != nil {
			t.Fatal(err)
		}
	}
	s := d.State()
	checks := []struct {
		name      string
		got, want uint64
	}{
		{"tex stage 1 addr", uint64(s.Tex.Reg(1, abi.DCRTexAddr)), 0x111},
		{"tex stage 0 addr", uint64(s.Tex.Reg(0, abi.DCRTexAddr)), 0x222},
		{"om rt2 cbuf", uint64(s.OM.Reg(abi.DCROMCBufAddr, 2)), 0x333},
		{"om rt0 cbuf", uint64(s.OM.Reg(abi.DCROMCBufAddr, 0)), 0},
		{"om shared zbuf", uint64(s.OM.Reg(abi.DCROMZBufAddr, 3)), 0x444},
		{"frag entry", s.Raster.FragEntry(), 0x1_80000010},
		{"rtu", uint64(s.RTU.Regs[0]), 7},
		{"dxa", uint64(s.DXA.Regs[5]), 9},
		{"listener calls", uint64(seen), uint64(len(writes))},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = 0x%x, want 0x%x", c.name, c.got, c.want)
		}
	}
	if v, err := d.DCRRead(abi.DCRTexAddr, 0); err != nil || v != 0x222 {
		t.Errorf("read TEX_ADDR = 0x%x, %v", v, err)
	}
	for _, bad := range []w{{0x002, 1}, {0x030, 1}, {0xFFF, 1}, {abi.DCRCacheFlush, 0}, {abi.DCRTexStage, 2}, {abi.DCROMRTSelect, 4}} {
		if err := d.DCRWrite(bad.a, bad.v); err == nil {
			t.Errorf("DCR write 0x%03X = %d: want an error", bad.a, bad.v)
		}
	}
	if _, err := d.DCRRead(0x030, 0); !errors.Is(err, ErrDCRUnmapped) {
		t.Errorf("unmapped read: %v", err)
	}
	if _, err := d.DCRRead(abi.DCRCacheFlush, uint32(d.NumCores())); err == nil {
		t.Error("CACHE_FLUSH of a core past the end: want an error")
	}
}

func TestMPMValue(t *testing.T) {
	r := newRig(t, config.Default())
	d := r.dev
	if err := d.AddPerf(2, abi.MPMRaster, abi.CSRRasterReads, 0x1_0000_0005); err != nil {
		t.Fatal(err)
	}
	for core := 0; core < d.NumCores(); core++ {
		if _, err := d.DCRRead(abi.DCRCacheFlush, uint32(core)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		tag  uint32
		want uint32
	}{
		{abi.MPMTag(abi.MPMRaster, abi.CSRRasterReads, 2, false), 5},
		{abi.MPMTag(abi.MPMRaster, abi.CSRRasterReads, 2, true), 1},
		{abi.MPMTag(abi.MPMRaster, abi.CSRRasterReads, 1, false), 0},
		{abi.MPMTag(abi.MPMCore, CSRCoreFlushes, 3, false), 1},
	}
	for _, c := range cases {
		if v, err := d.DCRRead(abi.DCRMPMValue, c.tag); err != nil || v != c.want {
			t.Errorf("tag 0x%08X = %d, %v; want %d", c.tag, v, err, c.want)
		}
	}
	if _, err := d.DCRRead(abi.DCRMPMValue, abi.MPMTag(abi.MPMCore, abi.CSRMCycle, 99, false)); err == nil {
		t.Error("MPM read of core 99: want an error")
	}
	// MCYCLE summed over cores covers the launch's work.
	pa := r.alloc(make([]uint32, 64))
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("main"), Args: r.args(pa, pa, pa, 64),
		NDim: 1, Grid: [3]uint32{4}, Block: [3]uint32{16}})
	if _, err := d.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ctas uint64
	for core := 0; core < d.NumCores(); core++ {
		lo, _ := d.DCRRead(abi.DCRMPMValue, abi.MPMTag(abi.MPMCore, CSRCoreCTAs, core, false))
		ctas += uint64(lo)
	}
	if ctas != 4 {
		t.Errorf("CTAs over all cores = %d, want 4", ctas)
	}
}

func TestFrameKickAndFragments(t *testing.T) {
	r := newRig(t, config.Default())
	d := r.dev
	out := r.alloc(make([]uint32, 64))
	frag := func(c *CTA) error {
		c.ForEachThread(func(tid int) {
			x, _, cov := abi.UnpackFragPos(c.FragPos(tid))
			if cov {
				// Blend-order witness: out[x] = out[x]*10 + pid.
				a := c.Args + 4*uint64(x)
				c.WriteU32(a, c.ReadU32(a)*10+c.FragPID(tid))
			}
		})
		return nil
	}
	d.SetFrameKick(func(ctx context.Context, d *Device, k FrameKick) (uint64, error) {
		for pid := uint32(1); pid <= 5; pid++ {
			var w FragmentWave
			w.Kernel, w.Param, w.Lanes = frag, out, 8
			for l := 0; l < 8; l++ {
				w.FragPos[l], _ = abi.PackFragPos(l, 0, true)
				w.FragPID[l] = pid
			}
			if err := d.SubmitFragment(int(pid)%d.NumCores(), &w); err != nil {
				return 0, err
			}
			if _, _, err := d.WaitFragments(); err != nil { // same pixels: drain between primitives
				return 0, err
			}
		}
		return 100, nil
	})
	r.program(abi.LaunchInfo{StartupAddr: r.base, NDim: 1, Grid: [3]uint32{0}, Block: [3]uint32{64}})
	cyc, err := d.Launch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s := d.LastLaunch(); cyc != CostKMULaunch+100 || s.FrameKicks != 1 || s.Threads != 40 || s.Warps != 5 {
		t.Errorf("cycles %d, stats %+v", cyc, d.LastLaunch())
	}
	if got := r.read(out, 1)[0]; got != 12345 {
		t.Errorf("out[0] = %d, want 12345 (waves in order)", got)
	}
	// Per-core in-order delivery without intermediate drains.
	var w FragmentWave
	w.Kernel, w.Param, w.Lanes = frag, out+32*4, 4
	for pid := uint32(1); pid <= 4; pid++ {
		for l := 0; l < 4; l++ {
			w.FragPos[l], _ = abi.PackFragPos(l, 0, true)
			w.FragPID[l] = pid
		}
		if err := d.SubmitFragment(1, &w); err != nil {
			t.Fatal(err)
		}
	}
	if _, s, err := d.WaitFragments(); err != nil || s.Threads != 16 {
		t.Fatalf("wait: %+v, %v", s, err)
	}
	if got := r.read(out+32*4, 1)[0]; got != 1234 {
		t.Errorf("in-order waves: %d, want 1234", got)
	}
	// A faulting wave reports an error.
	w.Param = 8
	if err := d.SubmitFragment(0, &w); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.WaitFragments(); !errors.Is(err, ErrFault) {
		t.Errorf("faulting wave: %v", err)
	}
	for _, bad := range []struct {
		core, lanes int
	}{{-1, 4}, {99, 4}, {0, 0}, {0, 65}} {
		w.Lanes = bad.lanes
		if err := d.SubmitFragment(bad.core, &w); err == nil {
			t.Errorf("SubmitFragment(%d, %d lanes): want an error", bad.core, bad.lanes)
		}
	}
}

func TestClosedDevice(t *testing.T) {
	r := newRig(t, config.Default())
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("main"), Args: r.args(0, 0, 0, 0),
		NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{16}})
	r.dev.Close()
	if _, err := r.dev.Launch(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("launch after close: %v", err)
	}
}

func TestKernelImageRoundTrip(t *testing.T) {
	ents := []abi.KernelImageEntry{abi.LibraryEntry("a", "vecadd"), {Name: "s", Kind: abi.KernelBlob, Payload: []byte{1, 2, 3}}}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		t.Fatal(err)
	}
	got, err := abi.DecodeKernelImage(img)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ents {
		if got[i].Name != ents[i].Name || got[i].Kind != ents[i].Kind || string(got[i].Payload) != string(ents[i].Payload) ||
			got[i].EntryOffset%abi.KernelStubAlign != 0 {
			t.Errorf("entry %d: %+v", i, got[i])
		}
	}
	for _, bad := range [][]abi.KernelImageEntry{nil, {abi.LibraryEntry("", "x")}, {abi.LibraryEntry("a", "")},
		{abi.LibraryEntry("a", "x"), abi.LibraryEntry("a", "y")}, {{Name: "k", Kind: 9}}} {
		if _, err := abi.EncodeKernelImage(bad); err == nil {
			t.Errorf("EncodeKernelImage(%v): want an error", bad)
		}
	}
	trunc := append([]byte(nil), img[:len(img)-1]...)
	binary.LittleEndian.PutUint32(trunc[8:], uint32(len(img)))
	if _, err := abi.DecodeKernelImage(trunc); err == nil {
		t.Error("truncated image: want an error")
	}
}

// FuzzKernelImage: any bytes decode to entries or an error, never a panic; a decoded
// image re-encodes to entries that decode the same.
func FuzzKernelImage(f *testing.F) {
	img, _ := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("main", "vecadd")})
	f.Add(img)
	f.Add([]byte("VXKM"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ents, err := abi.DecodeKernelImage(b)
		if err != nil {
			return
		}
		re, err := abi.EncodeKernelImage(ents)
		if err != nil {
			return // duplicate names are decodable but not encodable
		}
		again, err := abi.DecodeKernelImage(re)
		if err != nil || len(again) != len(ents) {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
