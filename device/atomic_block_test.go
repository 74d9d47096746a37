package device

import (
	"context"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/mem"
)

// atomicBlockKernels add thread tid's pattern to a block of counter words,
// word by word (AtomicAddU32) or as one block (AtomicAddU32s); args
// {counters, nwords}. Word k of thread tid adds (tid+k)%3: zeros included,
// which both forms skip.
func atomicBlockKernels(block bool) Kernel {
	return func(c *CTA) error {
		a, n := c.Arg(0), int(c.Arg(1))
		c.ForEachThread(func(tid int) {
			vals := make([]uint32, n)
			for k := range vals {
				vals[k] = uint32((c.GlobalID(tid) + uint64(k)) % 3)
			}
			if block {
				c.AtomicAddU32s(a, vals)
				return
			}
			for k, v := range vals {
				if v != 0 {
					c.AtomicAddU32(a+4*uint64(k), v)
				}
			}
		})
		return nil
	}
}

// AtomicAddU32s is exactly a run of AtomicAddU32 calls on its non-zero
// words: the same totals, the same counted memory operations, for any core
// count (the CTAs of a launch run side by side).
func TestAtomicAddU32sMatchesWordByWord(t *testing.T) {
	const words, ctas, threads = 7, 32, 64
	run := func(cores int, block bool) ([]uint32, LaunchStats) {
		t.Helper()
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = cores, 1
		r := newKernelRig(t, cfg, atomicBlockKernels(block))
		dev := r.dev
		ctr := r.alloc(make([]uint32, words))
		r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("k"), Args: r.args(ctr, words),
			NDim: 1, Grid: [3]uint32{ctas}, Block: [3]uint32{threads}})
		if _, err := dev.Launch(context.Background()); err != nil {
			t.Fatal(err)
		}
		return r.read(ctr, words), dev.LastLaunch()
	}
	want := make([]uint32, words)
	for g := 0; g < ctas*threads; g++ {
		for k := range want {
			want[k] += uint32((g + k) % 3)
		}
	}
	_, ref := run(1, false)
	for _, cores := range []int{1, 4} {
		for _, block := range []bool{false, true} {
			got, s := run(cores, block)
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("%d cores, block %v: word %d = %d, want %d", cores, block, k, got[k], want[k])
				}
			}
			if s.MemOps != ref.MemOps {
				t.Errorf("%d cores, block %v: %d memory operations, word by word on 1 core %d", cores, block, s.MemOps, ref.MemOps)
			}
		}
	}
}

// newKernelRig is a device on cfg whose kernel image has the one entry "k",
// running kernel k.
func newKernelRig(t testing.TB, cfg config.Config, k Kernel) *rig {
	t.Helper()
	lib := NewLibrary()
	if err := lib.Register("k", k); err != nil {
		t.Fatal(err)
	}
	m := mem.NewDevice(0x1000_0000, 1<<24)
	dev, err := New(cfg, m, lib)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	r := &rig{t: t, mem: m, dev: dev}
	img, err := abi.EncodeKernelImage([]abi.KernelImageEntry{abi.LibraryEntry("k", "k")})
	if err != nil {
		t.Fatal(err)
	}
	if r.base, err = m.Alloc(uint64(len(img)), 64); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(r.base, img); err != nil {
		t.Fatal(err)
	}
	if r.ents, err = abi.DecodeKernelImage(img); err != nil {
		t.Fatal(err)
	}
	return r
}
