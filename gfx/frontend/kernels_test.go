package frontend

import (
	"context"
	"math"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/mem"
)

// kernelRig is a bare device (no CP) with the front-end image loaded, for
// launching setup_k / binning_k on hand-made argument blocks.
type kernelRig struct {
	m     *mem.Device
	d     *device.Device
	base  uint64
	entry map[string]uint64
}

func newKernelRig(t testing.TB) *kernelRig { return newKernelRigSize(t, 1<<22) }

// newKernelRigSize is newKernelRig with size bytes of device memory.
func newKernelRigSize(t testing.TB, size uint64) *kernelRig {
	t.Helper()
	m := mem.NewDevice(0x1000_0000, size)
	lib := device.NewLibrary()
	if err := RegisterKernels(lib); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Device.Threads, cfg.Device.Warps = 4, 1
	d, err := device.New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	img, err := ModuleImage()
	if err != nil {
		t.Fatal(err)
	}
	ents, err := abi.DecodeKernelImage(img)
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
	r := &kernelRig{m: m, d: d, base: base, entry: map[string]uint64{}}
	for _, e := range ents {
		r.entry[e.Name] = base + uint64(e.EntryOffset)
	}
	return r
}

// launch runs kernel name over a 2-CTA grid of 4 threads with args at addr.
func (r *kernelRig) launch(name string, args uint64) error { return r.launchGrid(name, args, 2) }

// launchGrid runs kernel name over a grid of ctas 4-thread CTAs.
func (r *kernelRig) launchGrid(name string, args uint64, ctas uint32) error {
	pc := r.entry[name]
	for _, w := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRStartupAddr0, uint32(r.base)}, {abi.DCRStartupAddr1, 0},
		{abi.DCRKernelEntry0, uint32(pc)}, {abi.DCRKernelEntry1, 0},
		{abi.DCRStartupArg0, uint32(args)}, {abi.DCRStartupArg1, uint32(args >> 32)},
		{abi.DCRBlockDimX, 4}, {abi.DCRBlockDimY, 1}, {abi.DCRBlockDimZ, 1},
		{abi.DCRGridDimX, ctas}, {abi.DCRGridDimY, 1}, {abi.DCRGridDimZ, 1}, {abi.DCRLMemSize, 0}, {abi.DCRBlockSize, 4},
		{abi.DCRWarpStepX, 0}, {abi.DCRWarpStepY, 0}, {abi.DCRWarpStepZ, 0},
		{abi.DCRClusterDimX, 1}, {abi.DCRClusterDimY, 1}, {abi.DCRClusterDimZ, 1},
	} {
		if err := r.d.DCRWrite(w.a, w.v); err != nil {
			return err
		}
	}
	_, err := r.d.Launch(context.Background())
	return err
}

// FuzzFrontEndArgs: setup_k and binning_k given an arbitrary argument block (and
// whatever memory it points at) fail with an error or finish; they never panic
// the simulator or run unbounded.
func FuzzFrontEndArgs(f *testing.F) {
	good := (&Args{NumTris: 1, NumVerts: 3, Width: 16, Height: 16, Far: 1, Cols: 1, Rows: 1, BinLog: 7}).Pack()
	f.Add(good, uint8(0))
	f.Add(good, uint8(6))
	f.Add(make([]byte, 8*abi.FrontEndArgSlots), uint8(4))
	f.Fuzz(func(t *testing.T, blk []byte, stage uint8) {
		if len(blk) > 8*abi.FrontEndArgSlots {
			blk = blk[:8*abi.FrontEndArgSlots]
		}
		r := newKernelRig(t)
		args, err := r.m.Alloc(8*abi.FrontEndArgSlots, 64)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 8*abi.FrontEndArgSlots)
		copy(b, blk)
		b[0] = stage % 10 // mostly valid stages, and one past them
		if err := r.m.Write(args, b); err != nil {
			t.Fatal(err)
		}
		name := "setup_k"
		if b[0] >= byte(abi.FEStageBCount) {
			name = "binning_k"
		}
		_ = r.launch(name, args)
	})
}

// TestFrontEndKernelsRefuse: corrupt argument blocks name what is wrong.
func TestFrontEndKernelsRefuse(t *testing.T) {
	r := newKernelRig(t)
	args, _ := r.m.Alloc(8*abi.FrontEndArgSlots, 64)
	cases := []struct {
		name   string
		kernel string
		a      Args
		want   string
	}{
		{"empty target", "setup_k", Args{Stage: abi.FEStageSetup}, "target 0x0 out of range"},
		{"huge draw", "setup_k", Args{Stage: abi.FEStageSetup, Width: 8, Height: 8, NumTris: 1 << 30}, "exceed"},
		{"bad stage", "setup_k", Args{Stage: abi.FEStageBCount, Width: 8, Height: 8}, "not SETUP/SCAN/EMIT"},
		{"bad grid", "binning_k", Args{Stage: abi.FEStageBCount, Width: 8, Height: 8}, "bin grid 0x0"},
		{"unmapped buffers", "setup_k", Args{Stage: abi.FEStageSetup, Width: 8, Height: 8, NumTris: 5, Tris: 0x4000_0000}, "device memory fault"},
		{"clip mask on draw3d records", "setup_k", Args{Stage: abi.FEStageSetup, Width: 8, Height: 8, Planes: frontEndPlanes(PlanesGrx, 1)}, "clip-distance mask 0x1"},
		{"plane word high bits", "setup_k", Args{Stage: abi.FEStageSetup, Width: 8, Height: 8, Planes: 1 << 20}, "bits above the clip-distance mask"},
	}
	for _, c := range cases {
		if err := r.m.Write(args, c.a.Pack()); err != nil {
			t.Fatal(err)
		}
		err := r.launch(c.kernel, args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestGuardRHW: values within 1e-8 of zero go to ±1e-8 by their sign (+0 and
// −0 to +1e-8, −0 compares equal to 0), others and NaN pass unchanged.
func TestGuardRHW(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct{ in, want float32 }{
		{0, 1e-8}, {float32(math.Copysign(0, -1)), 1e-8}, {5e-9, 1e-8}, {-5e-9, -1e-8},
		{1e-8, 1e-8}, {-1e-8, -1e-8}, {0.5, 0.5}, {-2, -2},
	} {
		if got := GuardRHW(c.in); got != c.want {
			t.Errorf("GuardRHW(%g) = %g, want %g", c.in, got, c.want)
		}
	}
	if got := GuardRHW(nan); got == got {
		t.Errorf("GuardRHW(NaN) = %g, want NaN", got)
	}
}
