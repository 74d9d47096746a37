package shaderdev

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/fecode"
	"vortexgfx/gl/format"
)

// resolveTargets opens a w×h device of the given targets, fills every sample
// plane with the same pseudo-random bytes and reads each target back through
// msaa_resolve_k.
func resolveTargets(t *testing.T, cfg config.Config, tc TargetConfig, strict bool, seed uint64) (*Device, [][]byte, error) {
	t.Helper()
	const w, h = 13, 7
	d, err := OpenTargets(cfg, w, h, tc, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	d.SetStrictISA(strict)
	rng := rand.New(rand.NewPCG(seed, 3))
	var out [][]byte
	for i := range tc.Colors {
		b := make([]byte, d.colors[i].Size())
		for k := range b {
			b[k] = byte(rng.Uint32())
		}
		if err := d.ds.Queue.NewBatch().Write(d.colors[i], 0, b).Submit().Wait(); err != nil {
			t.Fatal(err)
		}
		r, err := d.ReadTarget(i)
		if err != nil {
			return d, out, err
		}
		out = append(out, r)
	}
	return d, out, nil
}

// The differential test of msaa_resolve_k's machine code on the device: at
// every sample count, every format it takes resolves to the Go kernel's
// bytes through the KMU launch, counted as machine code with its
// instructions; the formats it refuses run the Go kernel with the reason
// counted, and fail under SetStrictISA. spec: vortexpipe §3.4.1
func TestResolveISAMatchesGoKernel(t *testing.T) {
	isa := config.Default()
	isa.Device.Cores = config.CoresISA
	sets := [][]format.Format{
		{format.RGBA8, format.BGRA8, format.R8, format.RG8, format.RGBA16, format.RGBA8UI, format.RGBA16I, format.RGBA32UI},
		{format.RGBA8I, format.R32I, format.R32UI, format.RGBA16UI, format.RG32I, format.RG32UI, format.RGBA32I},
		{format.SRGB8A8, format.RGBA16F, format.RGBA32F, format.RGBA8SNorm},
	}
	for _, S := range []int{2, 4, 8, 16} {
		for si, colors := range sets {
			tc := TargetConfig{Colors: colors, Samples: S}
			_, want, err := resolveTargets(t, config.Default(), tc, false, uint64(S*10+si))
			if err != nil {
				t.Fatal(err)
			}
			d, got, err := resolveTargets(t, isa, tc, false, uint64(S*10+si))
			if err != nil {
				t.Fatal(err)
			}
			taken := 0
			for i, f := range colors {
				if string(got[i]) != string(want[i]) {
					t.Errorf("%s ×%d: the cores = isa resolve differs from the Go kernel's", f.Info().Name, S)
				}
				if _, err := fecode.ResolveDesc(f, S); err == nil {
					taken++
				}
			}
			ks := d.Kernels()[kernelResolve]
			if ks.Launches != uint64(len(colors)) || ks.MachineCode != uint64(taken) {
				t.Errorf("×%d set %d: %d launches, %d machine code; want %d, %d", S, si, ks.Launches, ks.MachineCode, len(colors), taken)
			}
			if taken > 0 && (ks.WarpInstructions == 0 || ks.ThreadInstructions < ks.WarpInstructions) {
				t.Errorf("×%d set %d: instruction counts %+v", S, si, ks)
			}
			var fell uint64
			for why, n := range ks.GoKernel {
				if !strings.Contains(why, "msaa_resolve_k: machine code:") {
					t.Errorf("fallback reason %q", why)
				}
				fell += n
			}
			if fell != uint64(len(colors)-taken) {
				t.Errorf("×%d set %d: %d Go-kernel launches counted, want %d", S, si, fell, len(colors)-taken)
			}
		}
	}
	// cores = "ir" counts nothing; strict refuses a fallback.
	d, _, _ := resolveTargets(t, config.Default(), TargetConfig{Colors: []format.Format{format.RGBA8}, Samples: 4}, true, 1)
	if k := d.Kernels(); k != nil {
		t.Errorf("cores = ir counted %v", k)
	}
	_, _, err := resolveTargets(t, isa, TargetConfig{Colors: []format.Format{format.SRGB8A8}, Samples: 4}, true, 1)
	if !errors.Is(err, ErrISARefused) || !strings.Contains(err.Error(), "SRGB8_A8") {
		t.Errorf("strict sRGB resolve: %v, want ErrISARefused naming the format", err)
	}
}
