package lower

import (
	"context"
	"math"
	"strings"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// interpFS calls the three interpolation functions on a smooth, a
// noperspective and a flat input (and on swizzles, GLSL 4.40's); o0 and o1 carry the smooth results, o2 the
// others and o3 what interpolateAtCentroid and a zero offset return.
const interpFS = `#version 440
in vec2 v;
noperspective in float n;
flat in float f;
uniform vec2 off;
uniform int s;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main() {
	o0 = vec4(interpolateAtOffset(v, off), interpolateAtSample(v, s));
	o1 = vec4(interpolateAtOffset(v.y, off), interpolateAtSample(v.yx, s).x, 0.0, 0.0);
	o2 = vec4(interpolateAtOffset(n, off), interpolateAtSample(n, s), interpolateAtOffset(f, off), interpolateAtSample(f, s));
	o3 = vec4(interpolateAtCentroid(v), interpolateAtOffset(v, vec2(0.0)));
}
`

// quadField is a perspective-correct input over window space: v_c(X, Y) =
// N_c(X, Y) / q(X, Y) with N_c and q = gl_FragCoord.w affine, strongly
// non-linear so that a linear extrapolation from the derivatives would miss
// by far more than the tolerance; and an affine noperspective input.
type quadField struct{}

func (quadField) q(x, y float64) float64 { return 0.2 + 0.5*x + 0.3*y }
func (f quadField) v(c int, x, y float64) float64 {
	if c == 0 {
		return (1 + 2*x - 0.5*y) / f.q(x, y)
	}
	return (0.25 - 0.75*x + 1.5*y) / f.q(x, y)
}
func (quadField) n(x, y float64) float64 { return 1 + 2*x - 3*y }

// TestInterpolateAtExact runs interpFS over a 2x2 quad whose inputs are
// quadField at the pixel centres (the point the renderer evaluated them at,
// gl_SamplePosition (0.5, 0.5)) and checks each function against the exact
// field at its point: the pixel centre plus the offset, and sample s of a
// 4-sample table. Smooth results must be within 2e-6 relative (float32
// rounding of the derivative form; a linear extrapolation is off by ~1e-2
// here), noperspective within 1e-6, flat exact; interpolateAtCentroid and a
// zero offset return the input bit for bit. spec: GLSL 4.00 §8.13
func TestInterpolateAtExact(t *testing.T) {
	p, err := compileStage("i.frag", interpFS, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	table := [4][2]int{{2, 6}, {14, 2}, {6, 14}, {11, 9}}
	packed := PackSamplePositions(4, func(k int) (int, int) { return table[k][0], table[k][1] })
	var fld quadField
	for _, tc := range []struct {
		off [2]float32
		s   int32
	}{{[2]float32{0.25, -0.375}, 1}, {[2]float32{-0.5, 0.4375}, 3}, {[2]float32{0, 0}, 0}, {[2]float32{0.125, 0.0625}, 9}, {[2]float32{0.3, 0.1}, -2}} {
		x, err := exec.New(p, exec.Config{Width: 4})
		if err != nil {
			t.Fatal(err)
		}
		uni := make([]uint32, p.UniformWords)
		uo, us := slot(t, p.Uniforms, "off"), slot(t, p.Uniforms, "s")
		uni[uo.Word], uni[uo.Word+1], uni[us.Word] = fbits(tc.off[0]), fbits(tc.off[1]), uint32(tc.s)
		if err := x.SetUniforms(uni); err != nil {
			t.Fatal(err)
		}
		in := func(name string) int { return slot(t, p.Inputs, name).Word }
		for l := range 4 {
			X, Y := float64(l&1)+0.5, float64(l>>1)+0.5
			x.Input(in("v"))[l] = fbits(float32(fld.v(0, X, Y)))
			x.Input(in("v") + 1)[l] = fbits(float32(fld.v(1, X, Y)))
			x.Input(in("n"))[l] = fbits(float32(fld.n(X, Y)))
			x.Input(in("f"))[l] = fbits(0.625)
			x.Input(in("gl_FragCoord"))[l] = fbits(float32(X))
			x.Input(in("gl_FragCoord") + 1)[l] = fbits(float32(Y))
			x.Input(in("gl_FragCoord") + 3)[l] = fbits(float32(fld.q(X, Y)))
			x.Input(in("gl_SamplePosition"))[l] = fbits(0.5)
			x.Input(in("gl_SamplePosition") + 1)[l] = fbits(0.5)
			x.Input(in("gl_NumSamples"))[l] = 4
			for i, w := range packed {
				x.Input(in(SamplePositionTable) + i)[l] = w
			}
		}
		if _, err := x.Run(context.Background(), 0xf, 0xf); err != nil {
			t.Fatal(err)
		}
		out := func(name string, c, l int) float32 { return ff(x.Output(slot(t, p.Outputs, name).Word + c)[l]) }
		sk := min(max(int(tc.s), 0), 3)
		for l := range 4 {
			X, Y := float64(l&1)+0.5, float64(l>>1)+0.5
			ox, oy := X+float64(tc.off[0]), Y+float64(tc.off[1])
			sx, sy := X-0.5+float64(table[sk][0])/16, Y-0.5+float64(table[sk][1])/16
			check := func(what string, got float32, want, rel float64) {
				if d := math.Abs(float64(got) - want); d > rel*math.Max(1, math.Abs(want)) {
					t.Errorf("off %v sample %d lane %d: %s = %v, want %v (error %.3g)", tc.off, tc.s, l, what, got, want, d)
				}
			}
			check("interpolateAtOffset(v).x", out("o0", 0, l), fld.v(0, ox, oy), 2e-6)
			check("interpolateAtOffset(v).y", out("o0", 1, l), fld.v(1, ox, oy), 2e-6)
			check("interpolateAtSample(v).x", out("o0", 2, l), fld.v(0, sx, sy), 2e-6)
			check("interpolateAtSample(v).y", out("o0", 3, l), fld.v(1, sx, sy), 2e-6)
			check("interpolateAtOffset(v.y)", out("o1", 0, l), fld.v(1, ox, oy), 2e-6)
			check("interpolateAtSample(v.yx).x", out("o1", 1, l), fld.v(1, sx, sy), 2e-6)
			check("interpolateAtOffset(n)", out("o2", 0, l), fld.n(ox, oy), 1e-6)
			check("interpolateAtSample(n)", out("o2", 1, l), fld.n(sx, sy), 1e-6)
			if out("o2", 2, l) != 0.625 || out("o2", 3, l) != 0.625 {
				t.Errorf("lane %d: flat input interpolated to %v, %v", l, out("o2", 2, l), out("o2", 3, l))
			}
			for c := range 4 {
				if got, want := x.Output(slot(t, p.Outputs, "o3").Word + c)[l], x.Input(in("v") + c%2)[l]; got != want {
					t.Errorf("lane %d: interpolateAtCentroid / zero offset word %d = %#x, want the input %#x", l, c, got, want)
				}
			}
		}
		if tc.off == [2]float32{0.25, -0.375} {
			// The field is far from linear: the derivative form's linear
			// part alone would miss.
			X, Y := 0.5, 0.5
			q := fld.q(X, Y)
			lin := fld.v(0, X, Y) + ((2-fld.v(0, X, Y)*0.5)/q)*0.25 + ((-0.5-fld.v(0, X, Y)*0.3)/q)*-0.375
			if d := math.Abs(lin - fld.v(0, X+0.25, Y-0.375)); d < 1e-3 {
				t.Fatalf("test field too linear: linear extrapolation misses by only %v", d)
			}
		}
	}
}

// TestInterpolateAtVersions checks where the functions exist: GLSL 4.00 and
// ES 3.20 core, GLSL 1.50 with GL_ARB_gpu_shader5, ES 3.00 with
// GL_OES_shader_multisample_interpolation; and that an interpolant that is
// not a fragment input (or, before GLSL 4.40, selects components) is an
// error.
// spec: GLSL 4.00 §8.13; ARB_gpu_shader5; OES_shader_multisample_interpolation
func TestInterpolateAtVersions(t *testing.T) {
	body := "out vec4 o;\nvoid main() { o = vec4(interpolateAtOffset(v, vec2(0.1)), interpolateAtSample(v, 1)); }\n"
	for _, tc := range []struct {
		head string
		ok   bool
	}{
		{"#version 400\nin vec2 v;\n", true},
		{"#version 150\nin vec2 v;\n", false},
		{"#version 150\n#extension GL_ARB_gpu_shader5 : enable\nin vec2 v;\n", true},
		{"#version 140\n#extension GL_ARB_gpu_shader5 : enable\nin vec2 v;\n", false},
		{"#version 320 es\nprecision highp float;\nin vec2 v;\n", true},
		{"#version 310 es\nprecision highp float;\nin vec2 v;\n", false},
		{"#version 300 es\n#extension GL_OES_shader_multisample_interpolation : require\nprecision highp float;\nsample in vec2 v;\n", true},
		{"#version 440\nin vec3 u;\nvec2 v = u.xy;\n", false}, // a global, not an input
	} {
		_, err := compileStage("v.frag", tc.head+body, glsl.Fragment, glsl.Options{})
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v, want ok %v", tc.head, err, tc.ok)
		}
	}
	// A redeclared, otherwise unread gl_FragCoord still feeds the functions.
	if _, err := compileStage("r.frag", "#version 400\nlayout(origin_upper_left) in vec4 gl_FragCoord;\nin vec2 v; out vec4 o;\n"+
		"void main() { o = vec4(interpolateAtOffset(v, vec2(0.25)), 0.0, 1.0); }\n", glsl.Fragment, glsl.Options{}); err != nil {
		t.Errorf("redeclared gl_FragCoord: %v", err)
	}
	for _, bad := range []string{
		"#version 400\nin vec2 v; out vec4 o;\nvoid main() { vec2 w = v; o = vec4(interpolateAtCentroid(w), 0.0, 1.0); }\n",
		"#version 400\nuniform vec2 u; out vec4 o;\nvoid main() { o = vec4(interpolateAtOffset(u, vec2(0.0)), 0.0, 1.0); }\n",
		"#version 400\nin vec2 v; out vec4 o;\nvoid main() { o = vec4(interpolateAtSample(v * 2.0, 0), 0.0, 1.0); }\n",
		"#version 400\nin vec2 v; out vec4 o;\nvoid main() { o = vec4(interpolateAtSample(v.yx, 0), 0.0, 1.0); }\n",
		"#version 400\nin vec2 v; out vec4 o;\nvoid main() { o = vec4(interpolateAtOffset(v[1], vec2(0.0))); }\n",
		"#version 400\nout vec4 o;\nvoid main() { o = interpolateAtCentroid(gl_FragCoord); }\n",
	} {
		_, err := compileStage("bad.frag", bad, glsl.Fragment, glsl.Options{})
		if err == nil || !strings.Contains(err.Error(), "interpolant") {
			t.Errorf("%q: %v, want an interpolant error", bad, err)
		}
	}
}

// TestSampleShadingExtensions checks the per-sample variables of
// GL_ARB_sample_shading (GLSL 1.30 and later: gl_SampleID,
// gl_SamplePosition, gl_SampleMask[], gl_NumSamples, but not
// gl_SampleMaskIn[]) and GL_OES_sample_variables (GLSL ES 3.00, with
// gl_SampleMaskIn[]), and that gl_NumSamples is an input word.
// spec: ARB_sample_shading; OES_sample_variables; GLSL 4.00 §7.1
func TestSampleShadingExtensions(t *testing.T) {
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{"#version 130\n#extension GL_ARB_sample_shading : enable\nout vec4 o;\nvoid main() { o = vec4(gl_SamplePosition, float(gl_SampleID), float(gl_NumSamples)); gl_SampleMask[0] = 1; }\n", true},
		{"#version 130\nout vec4 o;\nvoid main() { o = vec4(float(gl_NumSamples)); }\n", false},
		{"#version 130\n#extension GL_ARB_sample_shading : enable\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleMaskIn[0])); }\n", false},
		{"#version 150\n#extension GL_ARB_gpu_shader5 : enable\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleMaskIn[0])); }\n", true},
		{"#version 300 es\n#extension GL_OES_sample_variables : require\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleMaskIn[0] + gl_NumSamples), gl_SamplePosition, 1.0); }\n", true},
		{"#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(float(gl_NumSamples)); }\n", false},
	} {
		p, err := compileStage("s.frag", tc.src, glsl.Fragment, glsl.Options{})
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v, want ok %v", tc.src, err, tc.ok)
			continue
		}
		if tc.ok && strings.Contains(tc.src, "gl_NumSamples") {
			if s := slot(t, p.Inputs, "gl_NumSamples"); s.Words != 1 || !s.Flat {
				t.Errorf("gl_NumSamples slot %+v, want one flat word", s)
			}
		}
	}
}
