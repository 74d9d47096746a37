package program

import (
	"context"
	"strings"
	"testing"

	"vortexgfx/gl/msaa"
	"vortexgfx/ref"
	"vortexgfx/shader/lower"
)

const sampleVS = "#version 400\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n"

// TestSampleBuiltins draws with the per-sample built-ins through both of the
// fragment stage's paths (packed lanes, and whole quads when the program
// takes derivatives): without SetSample the stage draws sample 0 of a
// single-sample pixel at (0.5, 0.5) with mask 1; after SetSample(k, ...) it
// reads k, the position and 1 << k, and gl_SampleMask without bit k
// discards; a clone draws the same sample. spec: GLSL 4.00 §7.1
func TestSampleBuiltins(t *testing.T) {
	for _, deriv := range []string{"", " + dFdx(gl_FragCoord.x) * 0.0"} {
		fsSrc := "#version 400\nout vec4 o;\nvoid main() { o = vec4(float(gl_SampleID) / 8.0" + deriv +
			", gl_SamplePosition, float(gl_SampleMaskIn[0]) / 255.0); gl_SampleMask[0] = 5; }\n"
		p := link(t, sampleVS, fsSrc)
		in := vertexData(t, p, map[string][][4]float32{"pos": fullRect}, 4)
		for _, c := range []struct {
			k, sx, sy int
			want      [4]byte
			drawn     bool
		}{
			{-1, 8, 8, [4]byte{0, 128, 128, 1}, true},
			{0, 6, 2, [4]byte{0, 96, 32, 1}, true},
			{1, 14, 6, [4]byte{32, 223, 96, 2}, false},
			{2, 2, 10, [4]byte{64, 32, 159, 4}, true},
		} {
			var fs *FragmentShader
			tg := draw(t, p, in, ref.TriangleStrip, 4, func(st *ref.State) {
				fs = st.Fragment.(*FragmentShader)
				if c.k >= 0 {
					if err := fs.SetSample(c.k, 4, c.sx, c.sy); err != nil {
						t.Fatal(err)
					}
				}
			})
			got := pixel(tg, 3, 5)
			if !c.drawn {
				if got != ([4]byte{}) {
					t.Errorf("%q sample %d: pixel %v, want discarded (gl_SampleMask 5)", deriv, c.k, got)
				}
				continue
			}
			for i := range got {
				if d := int(got[i]) - int(c.want[i]); d < -1 || d > 1 {
					t.Errorf("%q sample %d: pixel %v, want %v", deriv, c.k, got, c.want)
					break
				}
			}
			if cl := fs.CloneFragment().(*FragmentShader); c.k >= 0 && cl.sample != c.k {
				t.Errorf("clone draws sample %d, want %d", cl.sample, c.k)
			}
		}
	}
	p := link(t, sampleVS, "#version 400\nout vec4 o;\nvoid main() { o = vec4(gl_SamplePosition, 0.0, 1.0); }\n")
	fs, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !p.PerSample() {
		t.Error("a program reading gl_SamplePosition is not per-sample")
	}
	for _, bad := range [][4]int{{4, 4, 8, 8}, {-1, 4, 8, 8}, {0, 0, 8, 8}, {0, 4, 16, 8}, {0, 4, 8, -1}} {
		if err := fs.SetSample(bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("SetSample%v accepted", bad)
		}
	}
}

// TestSampleTableAndCount checks what SetSample gives a program calling
// interpolateAtSample: gl_NumSamples and every sample's position of gl/msaa's
// table for the count, packed as lower.SamplePositionTable (a clone the same),
// single-sampled by default; and that a count gl/msaa has no table for is an
// error naming it, rather than positions made up. spec: GLSL 4.00 §8.13
func TestSampleTableAndCount(t *testing.T) {
	fsSrc := "#version 400\nin vec4 v; out vec4 o;\nvoid main() { o = interpolateAtSample(v, gl_NumSamples - 1); }\n"
	vs := "#version 400\nin vec4 pos; out vec4 v;\nvoid main() { gl_Position = pos; v = pos; }\n"
	p := link(t, vs, fsSrc)
	fs, err := p.NewFragmentShader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tw, nw := p.fsSample[4], p.fsSample[3]
	if tw < 0 || nw < 0 {
		t.Fatalf("table word %d, gl_NumSamples word %d", tw, nw)
	}
	check := func(f *FragmentShader, n int) {
		t.Helper()
		want := lower.PackSamplePositions(n, func(k int) (int, int) { return msaa.Position(n, k) })
		if got := f.m.Input(nw)[0]; got != uint32(n) {
			t.Errorf("%d samples: gl_NumSamples %d", n, got)
		}
		for i, w := range want {
			if got := f.m.Input(tw + i)[0]; got != w {
				t.Errorf("%d samples: table word %d = %#x, want %#x", n, i, got, w)
			}
		}
	}
	check(fs, 1)
	for _, n := range []int{2, 4, 8, 16} {
		sx, sy := msaa.Position(n, n-1)
		if err := fs.SetSample(n-1, n, sx, sy); err != nil {
			t.Fatal(err)
		}
		check(fs, n)
		check(fs.CloneFragment().(*FragmentShader), n)
	}
	if err := fs.SetSample(0, 3, 8, 8); err == nil || !strings.Contains(err.Error(), "3 samples") {
		t.Errorf("3 samples: %v, want an error naming the count", err)
	}
}
