package shaderdev_test

import (
	"fmt"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// interpVS gives the triangles a perspective (w from 0.46 to 1.54 across the
// target), so smooth varyings are not affine in window space, and copies the
// colour to a noperspective varying; with ONE set it collapses the second
// triangle (alpha 0.5) behind the far plane, leaving one.
const interpVS = `#version 400
#define ONE %v
in vec4 a_pos; in vec4 a_col; out vec4 v_col; noperspective out vec4 n_col;
void main() {
	float w = 1.0 + 0.6 * a_pos.x;
	gl_Position = vec4(a_pos.xyz * w, w);
	if (ONE && a_col.a < 0.75) gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
	v_col = a_col; n_col = a_col;
}`

// interpFS are fragment programs calling the interpolation functions.
var interpFS = []struct{ name, body string }{
	{"sample next", "o = interpolateAtSample(v_col, (gl_SampleID + 1) % gl_NumSamples);"},
	{"offset", "o = interpolateAtOffset(v_col, vec2(0.25, -0.375));"},
	{"offset noperspective", "o = interpolateAtOffset(n_col, vec2(-0.4375, 0.125));"},
	{"centroid", "o = interpolateAtCentroid(v_col);"},
	{"sample 0", "o = interpolateAtSample(v_col, 0);"},
}

func interpProgram(body string) string {
	return "#version 400\nin vec4 v_col; noperspective in vec4 n_col; out vec4 o;\nvoid main() { " + body + " }"
}

// TestShaderInterpolateAtMatchesRef draws programs calling interpolateAt*
// on 2, 4, 8 and 16 samples and compares the device's sample planes sample
// by sample with the reference renderer's sample passes. Calling one makes
// the stage read gl_SamplePosition, so both shade per sample and evaluate
// each function from the inputs at the sample (lower's interp.go); the two
// must agree within 1/255 per channel on all but 0.5% of the samples (edge
// ties, as TestShaderSamplesMatchRefPasses). spec: GLSL 4.00 §8.13
func TestShaderInterpolateAtMatchesRef(t *testing.T) {
	for _, fs := range interpFS {
		for _, n := range []int{2, 4, 8, 16} {
			t.Run(fmt.Sprintf("%s %dx", fs.name, n), func(t *testing.T) {
				c := unitCase{name: fmt.Sprintf("interp %s %dx", fs.name, n), vs: fmt.Sprintf(interpVS, false), fs: interpProgram(fs.body),
					colors: []format.Format{format.RGBA8}, samples: n, clearZ: 1, state: func(d int, s *swom.State) { s.DepthFunc = compare.LessEqual }}
				diff, drawn, total := samplePlanesDiff(t, &c, 1)
				t.Logf("%d of %d samples drawn, %d differ beyond 1/255", drawn, total, diff)
				if drawn < total/4 || diff > total/200 {
					t.Errorf("%d of %d samples differ from the reference passes (%d drawn)", diff, total, drawn)
				}
			})
		}
	}
}

// TestShaderInterpolateAtSampleZero checks what interpolateAtSample means
// on both renderers: every sample k of a pixel holds the input evaluated at
// sample 0 of that pixel — what a plain program draws in the reference
// renderer's pass 0 — within 1/255 per channel (one perspective triangle;
// pixels whose sample 0 lies outside it are not compared), and that with
// the plain program the samples of a pixel do differ (the gradient moves
// between them), so the check is not vacuous. spec: GLSL 4.00 §8.13
func TestShaderInterpolateAtSampleZero(t *testing.T) {
	const n = 8
	vs := fmt.Sprintf(interpVS, true)
	plain := unitCase{name: "plain", vs: vs, fs: interpProgram("o = v_col;"), colors: []format.Format{format.RGBA8}, samples: n, clearZ: 1}
	pass0 := renderRefPasses(t, &plain)[0].Color[0].Data
	at0 := unitCase{name: "at sample 0", vs: vs, fs: interpProgram("o = interpolateAtSample(v_col, 0);"), colors: []format.Format{format.RGBA8}, samples: n, clearZ: 1, readSamples: true}
	dev, _ := renderDevice(t, &at0, config.Default(), 0)
	for _, r := range []struct {
		name   string
		planes []byte
	}{{"device", dev[0]}, {"reference", renderRefSamples(t, &at0)[0]}, {"plain reference", renderRefSamples(t, &plain)[0]}} {
		checked, bad := 0, 0
		for px := 0; px < uW*uH; px++ {
			want := pass0[4*px : 4*px+4]
			if want[3] == 0 {
				continue
			}
			for k := range n {
				got := r.planes[(px*n+k)*4 : (px*n+k)*4+4]
				if got[3] == 0 {
					continue
				}
				checked++
				for ch := range 4 {
					if d := int(got[ch]) - int(want[ch]); d > 1 || d < -1 {
						bad++
						break
					}
				}
			}
		}
		t.Logf("%s: %d samples checked, %d differ from sample 0's value", r.name, checked, bad)
		switch {
		case checked < uW*uH*n/8:
			t.Errorf("%s: only %d samples checked", r.name, checked)
		case r.name == "plain reference" && bad < checked/4:
			t.Errorf("plain program: only %d of %d samples differ from sample 0's value; the test cannot tell", bad, checked)
		case r.name != "plain reference" && bad != 0:
			t.Errorf("%s: %d of %d samples differ from the input at sample 0", r.name, bad, checked)
		}
	}
}
