package shaderdev_test

import (
	"fmt"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// flatVS / flatColFS draw each triangle in its provoking vertex's colour, so
// a sample's value depends only on which primitive covers it (and the depth
// test), not on where the fragment was shaded.
const (
	flatColVS = `#version 330
in vec4 a_pos; in vec4 a_col; flat out vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; }`
	flatColFS = `#version 330
flat in vec4 v_col; out vec4 o;
void main() { o = v_col; }`
)

// TestShaderSamplesMatchRefPasses compares the device's multisample planes
// sample by sample with the reference renderer's sample passes, for every
// standard count: sample k of each pixel on the device (the software walk's
// coverage at gl/msaa's position k, the per-sample depth test against the
// plane depth at that position) must hold what the reference renderer draws
// with its pixel centres moved onto position k. A permuted or misplaced
// table, a mask bit merged into the wrong sample or a per-sample depth taken
// at the wrong place shows up here, where a resolved image would average it
// away. Tolerance: at most 0.5% of the samples may differ (measured: 0 at 2x
// and 4x, 2 of 8192 at 8x, 7 of 16384 at 16x), which covers samples lying
// exactly on, or within the Q15.16 edge quantization of, an edge (the test
// triangles' corners sit on 1/16-px multiples up to float rounding, as do
// the 8x and 16x positions), where the device's fixed-point edges and ref's
// float edges fall to different sides. spec: vortexpipe §3.4.1
func TestShaderSamplesMatchRefPasses(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		t.Run(fmt.Sprintf("%dx", n), func(t *testing.T) {
			c := unitCase{name: fmt.Sprintf("samples %dx", n), vs: flatColVS, fs: flatColFS, colors: []format.Format{format.RGBA8},
				samples: n, clearZ: 1, readSamples: true,
				state: func(d int, s *swom.State) { s.DepthFunc = compare.LessEqual }}
			got, stats := renderDevice(t, &c, config.Default(), 0)
			for k, st := range stats {
				if !st.Route.SWRaster || !st.Route.SWOM {
					t.Errorf("draw %d routed %+v, want the software raster and merger", k, st.Route)
				}
			}
			want := renderRefSamples(t, &c)
			if len(got[0]) != len(want[0]) || len(got[0]) != uW*uH*n*4 {
				t.Fatalf("sample planes of %d and %d bytes, want %d", len(got[0]), len(want[0]), uW*uH*n*4)
			}
			diff, drawn := 0, 0
			for i := 0; i < len(got[0]); i += 4 {
				if string(got[0][i:i+4]) != string(want[0][i:i+4]) {
					diff++
				}
				if want[0][i+3] != 0 {
					drawn++
				}
			}
			total := uW * uH * n
			t.Logf("%d of %d samples drawn, %d differ", drawn, total, diff)
			if drawn < total/3 || diff > total/200 {
				t.Errorf("%d of %d samples differ from the reference passes (%d drawn)", diff, total, drawn)
			}
		})
	}
}
