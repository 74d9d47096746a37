package device

import (
	"context"
	"errors"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
)

// TestLaunchSharesRunOnce: whichever goroutine runs a core's share of a
// launch (its core's or the launching one, Device.dispatch), every CTA runs
// exactly once on its statically assigned core (CTA i on core i mod 4), a
// failing CTA ends its core's share only (the core's later CTAs do not run,
// the other cores' do) and names itself in the error, and the launch
// counters are the same for 1, 2 and 4 host threads. With one host thread
// the launching goroutine runs shares itself instead of waiting for the
// cores' goroutines to be scheduled. spec: vortex-hardware-facts §1.4
func TestLaunchSharesRunOnce(t *testing.T) {
	const ctas, fail = 14, 5
	r := newKernelRig(t, config.Default(), func(c *CTA) error {
		id := uint64(c.BlockIdx[0])
		out := c.Arg(0)
		c.AtomicAddU32(out+4*id, 1)
		c.WriteU32(out+4*(ctas+id), uint32(c.Core))
		c.ForEachThread(func(tid int) { c.WriteU32(out+4*(2*ctas+id), c.ReadU32(out+4*(2*ctas+id))+uint32(tid)) })
		if c.Arg(1) != 0 && id == fail {
			c.Fail(errTestCTA)
		}
		return nil
	})
	if n := r.dev.NumCores(); n != 4 {
		t.Fatalf("%d cores, want the default 4", n)
	}
	run := func(procs int, failing bool) ([]uint32, LaunchStats, error) {
		defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(procs))
		buf := r.alloc(make([]uint32, 3*ctas))
		f := uint64(0)
		if failing {
			f = 1
		}
		r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("k"), Args: r.args(buf, f),
			NDim: 1, Grid: [3]uint32{ctas}, Block: [3]uint32{8}})
		_, err := r.dev.Launch(context.Background())
		return r.read(buf, 3*ctas), r.dev.LastLaunch(), err
	}
	var want []uint32
	var wantStats LaunchStats
	for _, procs := range []int{1, 2, 4} {
		got, st, err := run(procs, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ctas {
			if got[i] != 1 || got[ctas+i] != uint32(i%4) || got[2*ctas+i] != 28 {
				t.Errorf("GOMAXPROCS=%d: CTA %d ran %d times on core %d (threads' sum %d), want once on core %d (28)",
					procs, i, got[i], got[ctas+i], got[2*ctas+i], i%4)
			}
		}
		if want == nil {
			want, wantStats = got, st
		} else if !reflect.DeepEqual(got, want) || st != wantStats {
			t.Errorf("GOMAXPROCS=%d: %v %+v, want %v %+v", procs, got, st, want, wantStats)
		}
		got, _, err = run(procs, true)
		if err == nil || !strings.Contains(err.Error(), "CTA 5") {
			t.Errorf("GOMAXPROCS=%d: failing launch: %v, want CTA %d's error", procs, err, fail)
		}
		for i := range ctas {
			ran := uint32(1)
			if i%4 == fail%4 && i > fail {
				ran = 0 // core 1's share ended at CTA 5
			}
			if got[i] != ran {
				t.Errorf("GOMAXPROCS=%d, CTA %d failing: CTA %d ran %d times, want %d", procs, fail, i, got[i], ran)
			}
		}
	}
	before := r.dev.sharesInline.Load()
	for range 20 {
		if _, _, err := run(1, false); err != nil {
			t.Fatal(err)
		}
	}
	if r.dev.sharesInline.Load() == before {
		t.Error("on one host thread the launching goroutine ran no share of 20 launches")
	}
}

var errTestCTA = errors.New("the test's failing CTA")

// BenchmarkLaunch times one launch of four one-warp CTAs that store a word
// each (the KMU's dispatch and drain, the shape of the front end's small
// stages: SCAN, BSCAN, BBASE), per launch.
func BenchmarkLaunch(b *testing.B) {
	r := newKernelRig(b, config.Default(), func(c *CTA) error {
		c.WriteU32(c.Arg(0)+4*uint64(c.BlockIdx[0]), 1)
		return nil
	})
	buf := r.alloc(make([]uint32, 4))
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("k"), Args: r.args(buf),
		NDim: 1, Grid: [3]uint32{4}, Block: [3]uint32{16}})
	for b.Loop() {
		if _, err := r.dev.Launch(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
