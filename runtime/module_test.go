package runtime_test

import (
	"errors"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

func image(t *testing.T, names ...string) []byte {
	t.Helper()
	var ents []abi.KernelImageEntry
	for _, n := range names {
		ents = append(ents, abi.LibraryEntry(n, n))
	}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// spec: vortexpipe §2.4, §2.5 — modules load at their fixed link bases; binding a
// different module at an occupied base evicts the resident one, the same image
// stays resident, and an ownership token records who holds the FS/compute slot.
func TestLinkBases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		flavor string
		vm     bool
	}{{"emu", "emu", false}, {"emu-vm", "emu", true}, {"rtl", "rtl", false}} {
		t.Run(tc.name, func(t *testing.T) {
			e := openSim(t, tc.flavor, func(c *config.Config) { c.CP.VM = tc.vm }, sim.Options{})
			compute := image(t, "scale", "vecadd")
			fs := image(t, "vecadd", "scale", "geometry")
			m1, err := e.dev.LoadModuleAt(compute, abi.LinkBaseFS, "compute")
			if err != nil {
				t.Fatal(err)
			}
			if m1.Base() != abi.LinkBaseFS {
				t.Fatalf("base %#x, want %#x", m1.Base(), abi.LinkBaseFS)
			}
			if _, _, ok := e.sim.Mem.Lookup(abi.LinkBaseFS); ok == tc.vm {
				t.Fatalf("vm=%v: physical allocation at the link base: %v", tc.vm, ok)
			}
			k1, err := m1.Kernel("scale")
			if err != nil {
				t.Fatal(err)
			}
			buf := e.alloc(4 * 64)
			if err := e.dev.Write(buf, 0, u32s(make([]uint32, 64))); err != nil {
				t.Fatal(err)
			}
			lp := runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{64}, Args: args(buf.Addr(), 2, 64)}
			if err := e.dev.DefaultQueue().EnqueueLaunch(k1, lp).Wait(); err != nil {
				t.Fatal(err)
			}
			// The same image again: resident, nothing reloaded; the token moves.
			again, err := e.dev.LoadModuleAt(compute, abi.LinkBaseFS, "draw")
			if err != nil || again != m1 {
				t.Fatalf("reload of the resident image: %v, same module %v", err, again == m1)
			}
			if m, owner := e.dev.SlotOwner(abi.LinkBaseFS); m != m1 || owner != "draw" {
				t.Fatalf("slot owner %q", owner)
			}
			// The other slots co-reside.
			fe, err := e.dev.LoadModuleAt(image(t, "geometry"), abi.LinkBaseFrontEnd, "frontend")
			if err != nil {
				t.Fatal(err)
			}
			vs, err := e.dev.LoadModuleAt(image(t, "vecadd"), abi.LinkBaseVS, "vs")
			if err != nil {
				t.Fatal(err)
			}
			if fe.Base() != abi.LinkBaseFrontEnd || vs.Base() != abi.LinkBaseVS {
				t.Fatalf("bases %#x %#x", fe.Base(), vs.Base())
			}
			// A different image at the FS base evicts the compute module.
			m2, err := e.dev.LoadModuleAt(fs, abi.LinkBaseFS, "draw")
			if err != nil {
				t.Fatal(err)
			}
			if !m1.Evicted() || m2.Evicted() || m2.Base() != abi.LinkBaseFS {
				t.Fatalf("evicted %v/%v, base %#x", m1.Evicted(), m2.Evicted(), m2.Base())
			}
			if err := e.dev.DefaultQueue().EnqueueLaunch(k1, lp).Wait(); !errors.Is(err, runtime.ErrEvicted) {
				t.Fatalf("launch of an evicted kernel: %v", err)
			}
			if _, err := m1.Kernel("scale"); !errors.Is(err, runtime.ErrEvicted) {
				t.Fatalf("lookup in an evicted module: %v", err)
			}
			k2, err := m2.Kernel("scale")
			if err != nil {
				t.Fatal(err)
			}
			if k2.Entry() == k1.Entry() {
				t.Fatal("the new image's entry should differ (entries reordered)")
			}
			if err := e.dev.DefaultQueue().EnqueueLaunch(k2, lp).Wait(); err != nil {
				t.Fatalf("launch from the new resident module: %v", err)
			}
			out := make([]byte, 4*64)
			if err := e.dev.Read(buf, 0, out); err != nil {
				t.Fatal(err)
			}
			// Bad requests.
			if _, err := e.dev.LoadModuleAt(compute, 0x8010_0000, "x"); !errors.Is(err, runtime.ErrLinkBase) {
				t.Fatalf("bad base: %v", err)
			}
			if _, err := e.dev.LoadModuleAt([]byte{1, 2, 3}, abi.LinkBaseVS, "x"); err == nil {
				t.Fatal("corrupt image loaded")
			}
			if err := m2.Unload(); err != nil {
				t.Fatal(err)
			}
			if m, _ := e.dev.SlotOwner(abi.LinkBaseFS); m != nil {
				t.Fatal("unloaded module still holds its slot")
			}
			m3, err := e.dev.LoadModuleAt(compute, abi.LinkBaseFS, "compute")
			if err != nil || m3.Base() != abi.LinkBaseFS {
				t.Fatalf("reload after unload: %v", err)
			}
		})
	}
}

// spec: vortex-hardware-facts §1.4 — CLUSTER_DIM is honoured (the KMU co-schedules
// each cluster on one hardware cluster) or refused with a clear error.
func TestClusterLaunch(t *testing.T) {
	e := open(t, "emu", nil)
	buf := e.alloc(4 * 256)
	in := make([]uint32, 256)
	for i := range in {
		in[i] = uint32(i)
	}
	if err := e.dev.Write(buf, 0, u32s(in)); err != nil {
		t.Fatal(err)
	}
	q := e.dev.DefaultQueue()
	ok := runtime.LaunchParams{NDim: 1, Grid: [3]uint32{4}, Block: [3]uint32{64}, Cluster: [3]uint32{2}, Args: args(buf.Addr(), 3, 256)}
	if err := q.EnqueueLaunch(e.kern["scale"], ok).Wait(); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 4*256)
	if err := e.dev.Read(buf, 0, out); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if u32(out, i) != 3*in[i] {
			t.Fatalf("out[%d] = %d", i, u32(out, i))
		}
	}
	for _, bad := range []runtime.LaunchParams{
		{NDim: 1, Grid: [3]uint32{16}, Block: [3]uint32{64}, Cluster: [3]uint32{8}},                 // 8 > 4 cores per cluster
		{NDim: 1, Grid: [3]uint32{3}, Block: [3]uint32{64}, Cluster: [3]uint32{2}},                  // not a multiple
		{NDim: 2, Grid: [3]uint32{4, 4}, Block: [3]uint32{64}, Cluster: [3]uint32{2, 2, 2}},         // z past ndim still counts
		{NDim: 3, Grid: [3]uint32{2, 2, 2}, Block: [3]uint32{8, 1, 1}, Cluster: [3]uint32{1, 1, 8}}, // too big
	} {
		if err := q.EnqueueLaunch(e.kern["scale"], bad).Wait(); err == nil {
			t.Errorf("cluster launch %+v accepted", bad)
		}
	}
}
