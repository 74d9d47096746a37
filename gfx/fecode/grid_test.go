package fecode

import (
	"fmt"
	"testing"

	"vortexgfx/device/simt"
)

// runGrid runs the code at codeAt in mem over grid CTAs of warps×threads on one
// simulated core, a CTA at a time as the KMU hands them to a core, every warp
// with mscratch = args (the kernel argument). It returns the core for its
// counters; an error names the CTA.
func runGrid(t *testing.T, mem *simt.FlatMemory, codeAt, args uint32, grid, warps, threads int) (*simt.Core, error) {
	t.Helper()
	core, err := simt.New(simt.Config{Warps: warps, Threads: threads, MaxInstructions: 1 << 32}, mem)
	if err != nil {
		t.Fatal(err)
	}
	block := warps * threads
	for b := range grid {
		for w := range warps {
			cta := simt.CTA{ID: uint32(b), Rank: uint32(w), Size: uint32(warps), ThreadIdx: [3]uint32{uint32(w * threads)},
				BlockIdx: [3]uint32{uint32(b)}, BlockDim: [3]uint32{uint32(block), 1, 1}, GridDim: [3]uint32{uint32(grid), 1, 1}, Entry: codeAt}
			if err := core.SetCTA(w, cta); err != nil {
				t.Fatal(err)
			}
			if err := core.SetMScratch(w, args); err != nil {
				t.Fatal(err)
			}
			if err := core.Start(w, codeAt, 1<<threads-1); err != nil {
				t.Fatal(err)
			}
		}
		if err := core.Run(); err != nil {
			return core, fmt.Errorf("CTA %d: %w", b, err)
		}
	}
	return core, nil
}

// RunGrid is runGrid for the package's external tests (binning_test.go).
var RunGrid = runGrid
