package shaderdev_test

import (
	"bytes"
	"fmt"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// TestShaderSampleMaskState checks GL_SAMPLE_MASK (Draw.SampleMaskEnable,
// SampleMask) on multisampled passes: a sample the mask clears keeps its
// clear value, every other sample holds what the reference renderer's pass
// for it draws (tolerance as TestShaderSampleShadingMatchesRef), for a
// program shading once per pixel and one shading per sample.
// spec: GL 4.6 §14.9.3
func TestShaderSampleMaskState(t *testing.T) {
	for _, tc := range []struct {
		n    int
		mask uint32
		fs   string
	}{{4, 0b0110, flatColFS}, {8, 0x5A, flatColFS}, {16, 0xF0F3, flatColFS}, {8, 0xFFFFFF3C, perSampleFS}} {
		t.Run(fmt.Sprintf("%dx %#x", tc.n, tc.mask), func(t *testing.T) {
			vs := flatColVS
			if tc.fs == perSampleFS {
				vs = sampleVS
			}
			c := unitCase{name: "sample mask", vs: vs, fs: tc.fs, colors: []format.Format{format.RGBA8}, samples: tc.n, clearZ: 1,
				readSamples: true, maskOn: true, mask: tc.mask, state: func(d int, s *swom.State) { s.DepthFunc = compare.LessEqual }}
			got, _ := renderDevice(t, &c, config.Default(), 0)
			want := renderRefSamples(t, &c)
			diff, drawn, kept := 0, 0, 0
			for i := 0; i < len(got[0]); i += 4 {
				k := (i / 4) % tc.n
				g, w := got[0][i:i+4], want[0][i:i+4]
				if tc.mask>>k&1 == 0 {
					if g[3] != 0 {
						t.Fatalf("sample %d of pixel %d written though the mask clears it", k, i/4/tc.n)
					}
					continue
				}
				kept++
				if w[3] != 0 {
					drawn++
				}
				for ch := range 4 {
					if d := int(g[ch]) - int(w[ch]); d > 1 || d < -1 {
						diff++
						break
					}
				}
			}
			t.Logf("%d of %d kept samples drawn, %d differ", drawn, kept, diff)
			if drawn < kept/4 || diff > kept/200 {
				t.Errorf("%d of %d kept samples differ from the reference passes (%d drawn)", diff, kept, drawn)
			}
		})
	}
}

// TestShaderSampleMaskSinglePass checks GL_SAMPLE_MASK on a single-sample
// pass through the FF units: a mask without bit 0 writes nothing, one with
// it (any other bits) draws exactly what a draw without the mask does.
func TestShaderSampleMaskSinglePass(t *testing.T) {
	base := unitCase{name: "mask 1x", fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1}
	plain, stats := renderDevice(t, &base, config.Default(), 0)
	for k, st := range stats {
		if st.Route.SWOM || st.Route.SWRaster {
			t.Errorf("draw %d routed %+v, want the FF units", k, st.Route)
		}
	}
	on := base
	on.maskOn, on.mask = true, 0xFFFFFFF1
	if got, _ := renderDevice(t, &on, config.Default(), 0); !bytes.Equal(got[0], plain[0]) {
		t.Error("a sample mask keeping sample 0 changed the image")
	}
	on.mask = 0xFFFFFFFE
	got, _ := renderDevice(t, &on, config.Default(), 0)
	if !bytes.Equal(got[0], make([]byte, len(got[0]))) {
		t.Error("a sample mask clearing sample 0 let fragments through")
	}
	if bytes.Equal(plain[0], make([]byte, len(plain[0]))) {
		t.Fatal("the plain draw wrote nothing")
	}
}
