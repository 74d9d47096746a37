package lower

import (
	"context"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// TestFragmentQuad runs a legacy fragment shader over one 2x2 quad: derivatives of
// gl_FragCoord, gl_FrontFacing, discard on one pixel, a helper lane, gl_FragData
// and a texture2D sample. Lanes 0..3 are the pixels (0,0) (1,0) (0,1) (1,1).
func TestFragmentQuad(t *testing.T) {
	vs := "#version 110\nvarying vec2 uv;\nvoid main() { uv = gl_Vertex.xy; gl_Position = ftransform(); }\n"
	fs := `#version 110
varying vec2 uv;
uniform sampler2D tex;
void main() {
	float v = gl_FragCoord.x * gl_FragCoord.x + 3.0 * gl_FragCoord.y;
	if (gl_FragCoord.x > 1.0 && gl_FragCoord.y > 1.0) discard;
	gl_FragData[0] = vec4(dFdx(v), dFdy(v), fwidth(v), gl_FrontFacing ? 1.0 : 0.0);
	gl_FragData[1] = texture2D(tex, uv) + vec4(uv, 0.0, 0.0);
}
`
	p, err := compilePair("q.vert", vs, "q.frag", fs, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The vertex side: ftransform with an identity matrix.
	vm, err := exec.New(p.VS, exec.Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	uni := make([]uint32, p.UniformWords)
	mvp := slot(t, p.Uniforms, "gl_ModelViewProjectionMatrix")
	for i := 0; i < 4; i++ {
		uni[mvp.Word+5*i] = fbits(1)
	}
	if err := vm.SetUniforms(uni); err != nil {
		t.Fatal(err)
	}
	gv := slot(t, p.Attributes, "gl_Vertex")
	vm.Input(gv.Word + 0)[0] = fbits(0.25)
	vm.Input(gv.Word + 3)[0] = fbits(1)
	if _, err := vm.Run(context.Background(), 1, 1); err != nil {
		t.Fatal(err)
	}
	if got := ff(vm.Output(0)[0]); got != 0.25 {
		t.Errorf("ftransform x = %v, want 0.25", got)
	}

	fm, err := exec.New(p.FS, exec.Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := fm.SetUniforms(uni); err != nil {
		t.Fatal(err)
	}
	fm.SetSampler(constSampler{[4]float32{0.5, 0.25, 0, 1}})
	fc := slot(t, p.FS.Inputs, "gl_FragCoord")
	face := slot(t, p.FS.Inputs, "gl_FrontFacing")
	uv := slot(t, p.FS.Inputs, "uv")
	for l := 0; l < 4; l++ {
		fm.Input(fc.Word + 0)[l] = fbits(float32(l&1) + 0.5)
		fm.Input(fc.Word + 1)[l] = fbits(float32(l>>1) + 0.5)
		fm.Input(face.Word)[l] = 1
		fm.Input(uv.Word)[l] = fbits(0.125)
	}
	// Lane 2 is a helper (not covered); lane 3 is (1.5,1.5) and discards.
	live, err := fm.Run(context.Background(), 0xf, 0b1011)
	if err != nil {
		t.Fatal(err)
	}
	if live != 0b0011 {
		t.Fatalf("live = %04b, want 0011", live)
	}
	out0 := slot(t, p.Outputs, "gl_FragData")
	// v = x^2 + 3y at pixel centres: TL 0.25+1.5, TR 2.25+1.5, BL 0.25+4.5.
	// Lane 0: ddx = TR-TL = 2; ddy = BL-TL = 3 (the helper BL still runs).
	// Lane 1 (TR): ddx = 2; ddy reads BR, which discarded: own value, 0.
	want := map[int][4]float32{0: {2, 3, 5, 1}, 1: {2, 0, 2, 1}}
	for l, w := range want {
		for k := 0; k < 4; k++ {
			if got := ff(fm.Output(out0.Word + k)[l]); got != w[k] {
				t.Errorf("lane %d gl_FragData[0][%d] = %v, want %v", l, k, got, w[k])
			}
		}
		if got := ff(fm.Output(out0.Word + 4)[l]); got != 0.625 {
			t.Errorf("lane %d gl_FragData[1].r = %v, want 0.625", l, got)
		}
	}
}

func TestUniformDefaults(t *testing.T) {
	vs := "#version 120\nuniform vec2 k = vec2(2.0, 3.0);\nuniform float z;\nvoid main() { gl_Position = vec4(k, z, 1.0); }\n"
	fs := "#version 120\nuniform int n = 7;\nvoid main() { gl_FragColor = vec4(float(n)); }\n"
	p, err := compilePair("d.vert", vs, "d.frag", fs, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, z, n := slot(t, p.Uniforms, "k"), slot(t, p.Uniforms, "z"), slot(t, p.Uniforms, "n")
	d := p.UniformDefaults
	if ff(d[k.Word]) != 2 || ff(d[k.Word+1]) != 3 || d[z.Word] != 0 || int32(d[n.Word]) != 7 {
		t.Errorf("defaults %v (k@%d z@%d n@%d)", d, k.Word, z.Word, n.Word)
	}
}

// TestSamplersInStructs checks that sampler members of uniform structs, and struct
// parameters holding samplers, resolve to their own bindings ("s.tex").
func TestSamplersInStructs(t *testing.T) {
	fs := `#version 120
struct S { float f; sampler2D tex; };
uniform S s;
uniform S arr[2];
vec4 foo(in S p, vec2 uv) { return texture2D(p.tex, uv) * p.f; }
void main() { gl_FragColor = foo(s, vec2(0.5)) + foo(arr[1], vec2(0.25)) + texture2D(arr[0].tex, vec2(0.0)); }
`
	p, err := compileStage("s.frag", fs, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"s.tex", "arr[0].tex", "arr[1].tex"}
	if len(p.Samplers) != len(want) {
		t.Fatalf("samplers %v, want %v", p.Samplers, want)
	}
	for i, w := range want {
		if p.Samplers[i].Name != w {
			t.Errorf("sampler %d is %q, want %q", i, p.Samplers[i].Name, w)
		}
	}
	used := map[int]bool{}
	for _, tx := range p.Tex {
		used[tx.Sampler] = true
	}
	if len(used) != 3 {
		t.Errorf("texture records use samplers %v, want all three:\n%s", used, p)
	}
}

// bindingSampler returns the sampler binding index in every component.
type bindingSampler struct{}

func (bindingSampler) Texture(r *exec.TexRequest) error {
	for i := 0; i < 4; i++ {
		for l := range r.Out[i] {
			if r.Mask>>l&1 != 0 {
				r.Out[i][l] = fbits(float32(r.Sampler))
			}
		}
	}
	return nil
}

// TestDynamicSamplerIndex checks a sampler array indexed per lane (GLSL 1.10).
func TestDynamicSamplerIndex(t *testing.T) {
	fs := "#version 110\nuniform sampler2D s[3];\nvarying float k;\nvoid main() { gl_FragColor = texture2D(s[int(k)], vec2(0.5)); }\n"
	p, err := compileStage("d.frag", fs, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := exec.New(p, exec.Config{Width: 4})
	if err != nil {
		t.Fatal(err)
	}
	m.SetSampler(bindingSampler{})
	ks := slot(t, p.Inputs, "k")
	for l, k := range []float32{2, 0, 1, 7} { // 7 clamps to the last element
		m.Input(ks.Word)[l] = fbits(k)
	}
	if _, err := m.Run(context.Background(), 0xf, 0xf); err != nil {
		t.Fatal(err)
	}
	for l, want := range []float32{2, 0, 1, 2} {
		if got := ff(m.Output(0)[l]); got != want {
			t.Errorf("lane %d sampled binding %v, want %v", l, got, want)
		}
	}
}
