package shaderdev_test

import (
	"fmt"
	"strings"
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

const (
	sampleVS = `#version 400
in vec4 a_pos; in vec4 a_col; out vec4 v_col; flat out vec4 f_col;
void main() { gl_Position = a_pos; v_col = a_col; f_col = a_col; }`
	// perSampleFS reads gl_SampleID and gl_SamplePosition (sample shading
	// implied) and a smooth varying, which each sample then interpolates
	// at its own position.
	perSampleFS = `#version 400
in vec4 v_col; flat in vec4 f_col; out vec4 o;
void main() { o = vec4(v_col.rg * 0.5 + gl_SamplePosition * 0.5, float(gl_SampleID) / 16.0, v_col.a); }`
	// maskOutFS keeps the even samples of its coverage (gl_SampleMask from
	// gl_SampleMaskIn), shading once per pixel.
	maskOutFS = `#version 400
in vec4 v_col; flat in vec4 f_col; out vec4 o;
void main() { o = f_col; gl_SampleMask[0] = gl_SampleMaskIn[0] & 0x5555; }`
	// maskInFS shows how many samples of its pixel the fragment covers.
	maskInFS = `#version 400
in vec4 v_col; flat in vec4 f_col; out vec4 o;
void main() { o = vec4(float(bitCount(gl_SampleMaskIn[0])) / 16.0, 0.0, 0.0, 1.0); }`
	// halfMaskFS drops its one sample on the left half (single-sample pass).
	halfMaskFS = `#version 400
in vec4 v_col; flat in vec4 f_col; out vec4 o;
void main() { o = v_col; gl_SampleMask[0] = gl_FragCoord.x < 16.0 ? 0 : -1; }`
)

// samplePlanesDiff renders c on the device and as the reference renderer's
// sample passes (each with SetSample) and counts the samples whose RGBA8
// channels differ by more than tol/255, and the samples drawn.
func samplePlanesDiff(t *testing.T, c *unitCase, tol int) (diff, drawn, total int) {
	t.Helper()
	c.readSamples = true
	got, stats := renderDevice(t, c, config.Default(), 0)
	for k, st := range stats {
		if !st.Route.SWRaster || !st.Route.SWOM {
			t.Errorf("draw %d routed %+v, want the software raster and merger", k, st.Route)
		}
	}
	want := renderRefSamples(t, c)
	if len(got[0]) != len(want[0]) {
		t.Fatalf("sample planes of %d and %d bytes", len(got[0]), len(want[0]))
	}
	for i := 0; i < len(got[0]); i += 4 {
		for ch := range 4 {
			if d := int(got[0][i+ch]) - int(want[0][i+ch]); d > tol || d < -tol {
				diff++
				break
			}
		}
		if want[0][i+3] != 0 {
			drawn++
		}
	}
	return diff, drawn, len(got[0]) / 4
}

// TestShaderSampleShadingMatchesRef draws a program reading gl_SampleID and
// gl_SamplePosition (sample shading implied: each covered sample shaded on
// its own, its varyings interpolated at the sample) and one writing
// gl_SampleMask from gl_SampleMaskIn, at every count, and compares the
// device's sample planes sample by sample with the reference renderer's
// passes, whose pass k shades at sample k's position with gl_SampleID = k,
// gl_SampleMaskIn = 1 << k, and drops the fragment when gl_SampleMask lacks
// bit k (program.FragmentShader.SetSample). Tolerance: channels within
// 1/255 (the device interpolates from Q15.16 edges and Q7.24 planes, ref in
// float) on all but 0.5% of the samples (edge ties, as
// TestShaderSamplesMatchRefPasses). spec: GL 4.6 §14.3.1.1; GLSL 4.00 §7.1
func TestShaderSampleShadingMatchesRef(t *testing.T) {
	for _, fs := range []struct{ name, src string }{{"per-sample", perSampleFS}, {"mask out", maskOutFS}} {
		for _, n := range []int{2, 4, 8, 16} {
			t.Run(fmt.Sprintf("%s %dx", fs.name, n), func(t *testing.T) {
				c := unitCase{name: fmt.Sprintf("%s %dx", fs.name, n), vs: sampleVS, fs: fs.src, colors: []format.Format{format.RGBA8},
					samples: n, clearZ: 1, state: func(d int, s *swom.State) { s.DepthFunc = compare.LessEqual }}
				diff, drawn, total := samplePlanesDiff(t, &c, 1)
				t.Logf("%d of %d samples drawn, %d differ beyond 1/255", drawn, total, diff)
				if drawn < total/8 || diff > total/200 {
					t.Errorf("%d of %d samples differ from the reference passes (%d drawn)", diff, total, drawn)
				}
			})
		}
	}
}

// TestShaderSampleShadingCounts checks that a per-sample program shades
// once per covered sample (the shaded-fragment counter equals the samples
// merged) and a per-pixel one once per pixel (fewer), on the 8-sample pass.
func TestShaderSampleShadingCounts(t *testing.T) {
	for _, fs := range []struct {
		src       string
		perSample bool
	}{{perSampleFS, true}, {maskOutFS, false}} {
		c := unitCase{vs: sampleVS, fs: fs.src, colors: []format.Format{format.RGBA8}, samples: 8, clearZ: 1}
		c.name = "counts"
		_, stats := renderDevice(t, &c, config.Default(), 0)
		for k, st := range stats {
			if fs.perSample != (st.Shaded == st.SWMerged) || st.Shaded == 0 {
				t.Errorf("per-sample %v, draw %d: %d fragments shaded, %d samples merged", fs.perSample, k, st.Shaded, st.SWMerged)
			}
		}
	}
}

// TestShaderSampleMaskIn checks gl_SampleMaskIn on a pass shading once per
// pixel: every sample a fragment writes holds the number of samples of its
// pixel the primitive covers, so within a pixel whose samples one primitive
// wrote the value is their count. spec: GLSL 4.00 §7.1
func TestShaderSampleMaskIn(t *testing.T) {
	const n = 16
	c := unitCase{name: "mask in", vs: sampleVS, fs: maskInFS, colors: []format.Format{format.RGBA8}, samples: n, clearZ: 1, readSamples: true,
		state: func(d int, s *swom.State) { s.DepthTest = false }}
	got, _ := renderDevice(t, &c, config.Default(), 0)
	checked, partial := 0, 0
	for px := 0; px < uW*uH; px++ {
		p := got[0][px*n*4 : (px+1)*n*4]
		vals := map[byte]int{}
		for k := range n {
			if p[4*k+3] != 0 {
				vals[p[4*k]]++
			}
		}
		if len(vals) != 1 {
			continue // uncovered, or two primitives' fragments
		}
		for v, cnt := range vals {
			checked++
			if cnt < n {
				partial++
			}
			if want := byte((cnt*255 + 8) / 16); v != want && v != want-1 && v != want+1 {
				t.Errorf("pixel %d: %d samples hold %d, want %d (gl_SampleMaskIn's count)", px, cnt, v, want)
			}
		}
	}
	if checked < 200 || partial < 20 {
		t.Errorf("%d pixels checked, %d partly covered", checked, partial)
	}
}

// TestShaderSampleMaskSingleSample draws a program writing gl_SampleMask on
// a single-sample pass through the FF units (a fragment whose mask drops
// sample 0 is not exported) and compares it with the reference renderer
// (tolerance as TestShaderUnitsMatchRef's unorm8 rows).
func TestShaderSampleMaskSingleSample(t *testing.T) {
	c := unitCase{name: "mask 1x", vs: sampleVS, fs: halfMaskFS, colors: []format.Format{format.RGBA8}, clearZ: 1}
	got, stats := renderDevice(t, &c, config.Default(), 0)
	for k, st := range stats {
		if st.Route.SWOM || st.Route.SWRaster {
			t.Errorf("draw %d routed %+v, want the FF units", k, st.Route)
		}
	}
	want := renderRef(t, &c)
	bad, drawn, maxd := compareTargets(format.RGBA8, got[0], want[0], c.clear, 2.5/255)
	if drawn < 150 || bad > uW*uH*4/100 {
		t.Errorf("%d drawn, %d pixels beyond tolerance (max %.4f)", drawn, bad, maxd)
	}
	for y := range uH {
		for x := range uW / 2 {
			if i := 4 * (y*uW + x); got[0][i+3] != 0 {
				t.Fatalf("pixel (%d, %d) written though gl_SampleMask drops its sample", x, y)
			}
		}
	}
}

// sampleQualFS interpolates a sample-qualified input, which makes the stage
// shade per sample; sampleQualVS is sampleVS with the output qualified alike
// (before GLSL 4.30 the link requires both sides to agree, as Mesa does).
// spec: GLSL 4.00 §4.3.6
const (
	sampleQualFS = `#version 400
sample in vec4 v_col; flat in vec4 f_col; out vec4 o;
void main() { o = v_col; }`
	sampleQualVS = `#version 400
in vec4 a_pos; in vec4 a_col; sample out vec4 v_col; flat out vec4 f_col;
void main() { gl_Position = a_pos; v_col = a_col; f_col = a_col; }`
)

// TestShaderSampleQualifierAndMinSamples checks the two other ways into
// sample shading against the reference renderer's sample passes, sample by
// sample (tolerance as TestShaderSampleShadingMatchesRef): a sample-qualified
// input, and Draw.MinSamples (GL_SAMPLE_SHADING) on a program that has
// neither; and that without MinSamples the same program, shaded once per
// pixel at the centre, differs from the passes on many samples (the
// gradient moves between the centre and the samples).
func TestShaderSampleQualifierAndMinSamples(t *testing.T) {
	const n = 8
	for _, c := range []struct {
		name        string
		vs, fs      string
		minSamples  int
		wantMatches bool
	}{
		{"sample qualifier", sampleQualVS, sampleQualFS, 0, true},
		{"min samples", unitsVS, unitsFS, n, true},
		{"min samples 2 of 8", unitsVS, unitsFS, 2, true},
		{"per pixel", unitsVS, unitsFS, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			uc := unitCase{name: c.name, vs: c.vs, fs: c.fs, colors: []format.Format{format.RGBA8}, samples: n, clearZ: 1, minSamples: c.minSamples}
			diff, drawn, total := samplePlanesDiff(t, &uc, 1)
			t.Logf("%d of %d samples drawn, %d differ beyond 1/255", drawn, total, diff)
			switch {
			case drawn < total/4:
				t.Errorf("only %d of %d samples drawn", drawn, total)
			case c.wantMatches && diff > total/200:
				t.Errorf("%d of %d samples differ from the reference passes", diff, total)
			case !c.wantMatches && diff < total/20:
				t.Errorf("only %d of %d samples differ: shading once per pixel looks per-sample", diff, total)
			}
		})
	}
}

// centroidVS/FS carry each triangle's barycentric coordinates; the fragment
// shows red where one is negative, which only an evaluation outside the
// triangle gives. CENTROID is "centroid " or "".
const (
	centroidVS = `#version 330
in vec4 a_pos; in vec4 a_col; CENTROIDout vec3 b;
void main() { gl_Position = a_pos; b = vec3(float(gl_VertexID == 0), float(gl_VertexID == 1), float(gl_VertexID == 2)); }`
	centroidFS = `#version 330
CENTROIDin vec3 b; out vec4 o;
void main() { o = vec4(min(min(b.x, b.y), b.z) < -0.002 ? 1.0 : 0.0, 0.5, 0.25, 1.0); }`
)

// TestShaderCentroid checks the centroid qualifier on multisampled passes: a
// partly covered pixel interpolates a centroid input at a covered sample, so
// no sample of the device's planes reads a barycentric coordinate below 0
// (none of the reference renderer's sample passes does either, each shading
// at its sample); without the qualifier the device evaluates at the pixel
// centre, outside the triangle on some edge pixels, and those samples show
// it. spec: GLSL 4.00 §4.3.6; GL 4.6 §14.3.1.1
func TestShaderCentroid(t *testing.T) {
	for _, n := range []int{4, 16} {
		for _, centroid := range []bool{true, false} {
			q := ""
			if centroid {
				q = "centroid "
			}
			c := unitCase{name: fmt.Sprintf("centroid %v %dx", centroid, n), vs: strings.ReplaceAll(centroidVS, "CENTROID", q),
				fs: strings.ReplaceAll(centroidFS, "CENTROID", q), colors: []format.Format{format.RGBA8}, samples: n, clearZ: 1, readSamples: true}
			red := func(planes []byte) (r, drawn int) {
				for i := 0; i < len(planes); i += 4 {
					if planes[i+3] != 0 {
						drawn++
						if planes[i] != 0 {
							r++
						}
					}
				}
				return r, drawn
			}
			got, _ := renderDevice(t, &c, config.Default(), 0)
			dr, dd := red(got[0])
			rr, rd := red(renderRefSamples(t, &c)[0])
			t.Logf("%s: device %d of %d samples outside, reference %d of %d", c.name, dr, dd, rr, rd)
			if rr != 0 || dd < 1000 || rd < 1000 {
				t.Fatalf("%s: the reference's passes show %d samples outside (%d / %d drawn)", c.name, rr, dd, rd)
			}
			if centroid && dr != 0 || !centroid && dr == 0 {
				t.Errorf("%s: %d device samples evaluated outside the triangle", c.name, dr)
			}
		}
	}
}
