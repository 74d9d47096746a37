package codegen

import (
	"testing"

	"vortexgfx/abi"
)

// TestDifferentialCorpus compiles every corpus shader to machine code and runs it
// on device/simt against the IR executor at several warp widths (so several warps
// per workgroup, partial warps and one wide warp), requiring identical buffers (any
// NaN equals any NaN, and how many did is logged).
func TestDifferentialCorpus(t *testing.T) {
	for _, c := range corpus {
		t.Run(c.name, func(t *testing.T) {
			p := compileCS(t, c.name, c.src)
			k, err := Compile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, T := range []int{4, 8, 32} {
				if (c.local+T-1)/T > 32 {
					continue
				}
				in := wordsBytes(inputWords(int64(len(c.name)), 64))
				out := make([]byte, 4*2048)
				for i := range out {
					out[i] = 0xa5
				}
				bufs := map[Binding][]byte{
					{Kind: abi.DescStorageBuffer, Slot: 0}: in,
					{Kind: abi.DescStorageBuffer, Slot: 1}: out,
				}
				l := &Launch{Groups: c.groups, Threads: T, Uniforms: c.uniforms, Buffers: cloneBufs(bufs)}
				ref := &Launch{Groups: c.groups, Threads: T, Uniforms: c.uniforms, Buffers: cloneBufs(bufs)}
				if err := runIR(p, ref); err != nil {
					t.Fatalf("executor: %v", err)
				}
				st, err := Run(k, l)
				if err != nil {
					t.Fatalf("%s: %v", describe(l), err)
				}
				nan := compareBufs(t, describe(l), ref.Buffers, l.Buffers)
				t.Logf("%s: %d instructions, %d warp / %d thread instructions; %d NaN words differ in bits only",
					describe(l), len(k.Code), st.WarpInstructions, st.ThreadInstructions, nan)
			}
		})
	}
}
