package device

import (
	"context"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
)

// A launched CTA's Runner is its core (one CTA runs on a core at a time),
// for every CTA of a launch spread over several cores.
func TestRunnerIsTheCoreOfALaunchedCTA(t *testing.T) {
	const ctas = 16
	cfg := config.Default()
	cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = 4, 1
	r := newKernelRig(t, cfg, func(c *CTA) error {
		out := c.Arg(0) + 8*uint64(c.BlockIdx[0])
		c.WriteU32(out, uint32(c.Runner()))
		c.WriteU32(out+4, uint32(c.Core))
		return nil
	})
	buf := r.alloc(make([]uint32, 2*ctas))
	r.program(abi.LaunchInfo{StartupAddr: r.base, KernelEntry: r.entry("k"), Args: r.args(buf),
		NDim: 1, Grid: [3]uint32{ctas}, Block: [3]uint32{4}})
	if _, err := r.dev.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := r.read(buf, 2*ctas)
	cores := map[uint32]bool{}
	for i := range ctas {
		if got[2*i] != got[2*i+1] {
			t.Errorf("CTA %d: runner %d on core %d", i, got[2*i], got[2*i+1])
		}
		cores[got[2*i+1]] = true
	}
	if len(cores) < 2 {
		t.Errorf("the launch ran on cores %v: want several", cores)
	}
}
