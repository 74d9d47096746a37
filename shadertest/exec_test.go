package shadertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const progHead = `[require]
GLSL >= 1.10

[vertex shader]
void main() { gl_Position = gl_Vertex; }

[fragment shader]
uniform vec4 color;
void main() { gl_FragColor = color; }

[test]
`

func execText(t *testing.T, b Backend, src string) (Status, string) {
	t.Helper()
	f, err := Parse("t.shader_test", []byte(src))
	return Execute(context.Background(), f, err, b)
}

func TestExecute(t *testing.T) {
	for _, tc := range []struct {
		name   string
		src    string
		status Status
		reason string // substring
	}{
		{"full green", progHead + "clear color 1 0 0 1\nclear\ndraw rect -1 -1 2 2\nprobe all rgba 0 1 0 1\n", Pass, ""},
		{"wrong colour", progHead + "draw rect -1 -1 2 2\nprobe all rgba 1 0 0 1\n", Fail,
			"line 13: probe color at (0,0): expected 255 0 0 255, observed 0 255 0 255"},
		{"rgb ignores alpha", progHead + "uniform vec4 color 0 1 0 0\ndraw rect -1 -1 2 2\nprobe all rgb 0 1 0\nprobe rgb 5 5 0 1 0\n", Pass, ""},
		{"pixel probe reason", progHead + "draw rect -1 -1 2 2\nprobe rgba 3 4 0 0 1 1\n", Fail,
			"probe color at (3,4): expected 0.000000 0.000000 1.000000 1.000000, observed 0.000000 1.000000 0.000000 1.000000"},
		{"ortho rect", progHead + "clear color 0 0 1 1\nclear\ndraw rect ortho 0 0 10 10\n" +
			"probe rect rgba (0, 0, 10, 10) (0, 1, 0, 1)\nprobe rgba 10 10 0 0 1 1\nprobe rgba 9 10 0 0 1 1\n", Pass, ""},
		{"ortho projection", progHead + "ortho\nclear color 0 0 0 1\nclear\ndraw rect 0 0 125 250\n" +
			"probe rect rgb (0, 0, 125, 250) (0, 1, 0)\nprobe rect rgb (125, 0, 125, 250) (0, 0, 0)\n", Pass, ""},
		{"relative probes", progHead + "clear color 0 0 0 1\nclear\ndraw rect -1 -1 1 2\n" +
			"relative probe rgb (0.25, 0.5) (0, 1, 0)\nrelative probe rgba (1.0, 1.0) (0, 0, 0, 1)\n" +
			"relative probe rect rgb (0.0, 0.0, 0.5, 1.0) (0, 1, 0)\n", Pass, ""},
		{"clear needs a clear value", progHead + "clear\nprobe all rgba 0 0 0 0\n", Pass, ""},
		{"tolerance default", progHead + "uniform vec4 color 0.5 0.5 0.5 1\ndraw rect -1 -1 2 2\nprobe rgba 0 0 0.51 0.5 0.5 1\n", Pass, ""},
		{"tolerance exceeded", progHead + "uniform vec4 color 0.5 0.5 0.5 1\ndraw rect -1 -1 2 2\nprobe rgba 0 0 0.52 0.5 0.5 1\n", Fail, "probe color"},
		{"tolerance raised", progHead + "tolerance 0.05 0.05 0.05 0.05\nuniform vec4 color 0.5 0.5 0.5 1\ndraw rect -1 -1 2 2\nprobe rgba 0 0 0.54 0.5 0.5 1\n", Pass, ""},
		{"rect tolerance in bytes", progHead + "uniform vec4 color 0.5 0 0 1\ndraw rect -1 -1 2 2\nprobe all rgba 0.512 0 0 1\n", Pass, ""}, // 128 vs 130
		{"rect probe on GLES is a float probe", "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader]\nuniform vec4 color;\n[test]\n" +
			"uniform vec4 color 0.5 0 0 1\ndraw rect -1 -1 2 2\nprobe all rgba 0.512 0 0 1\n", Fail, "expected 0.512000 0.000000 0.000000 1.000000, observed 0.501961"},
		{"rect tolerance exceeded", progHead + "uniform vec4 color 0.5 0 0 1\ndraw rect -1 -1 2 2\nprobe all rgba 0.52 0 0 1\n", Fail, ""}, // 128 vs 132
		{"warn", progHead + "draw rect -1 -1 2 2\nprobe warn all rgba 1 0 0 1\n", Pass, "warn: line 13"},
		{"glsl too new", "[require]\nGLSL >= 4.50\n[test]\n", Skip, "GLSL 4.50"},
		{"gl too new", "[require]\nGLSL >= 1.10\nGL >= 4.0\n[test]\n", Skip, "GL 4.0"},
		{"extension", "[require]\nGLSL >= 1.10\nGL_ARB_gpu_shader_fp64\n[test]\n", Skip, "GL_ARB_gpu_shader_fp64"},
		{"extension present", progHead[:strings.Index(progHead, "\n\n")] + "\nGL_ARB_texture_rg\n" + progHead[strings.Index(progHead, "\n\n"):] + "draw rect -1 -1 2 2\n", Pass, ""},
		{"absent extension", "[require]\nGLSL >= 1.10\n!GL_ARB_texture_rg\n[test]\n", Skip, "absent"},
		{"limit", "[require]\nGLSL >= 1.10\nGL_MAX_VARYING_COMPONENTS >= 128\n[test]\n", Skip, "GL_MAX_VARYING_COMPONENTS >= 128"},
		{"no require", "[vertex shader]\nx\n[test]\n", Fail, "[require] section missing"},
		{"es without gl line", "[require]\nGLSL ES >= 3.00\n[test]\n", Fail, "no GL requirement"},
		{"geometry shader", "[require]\nGLSL >= 1.10\n[geometry shader]\nx\n[test]\n", Skip, "geometry shaders are not supported"},
		{"arb program malformed", "[require]\nGLSL >= 1.10\n[vertex program]\n!!ARBvp1.0\n[test]\n", Fail, "vertex shader (section at line 3): program: 2:1: error: missing END"},
		{"arb program unsupported binding", "[require]\nGL >= 1.3\n[vertex program]\n!!ARBvp1.0\nMOV result.color, vertex.weight;\nEND\n[test]\n", Skip, "vertex.weight is not supported"},
		{"arb program extension", "[require]\nGLSL >= 1.10\nGL_ARB_fragment_program_shadow\n[vertex shader]\nv\n[test]\n", Pass, ""},
		{"arb parameter before any program", progHead + "parameter env_fp 300 (1, 2, 3, 4)\nparameter local_fp 2 (1, 2, 3, 4)\n", Pass, ""},
		{"requirement before parse error", "[require]\nGLSL >= 4.50\n[test]\nfrobnicate\n", Skip, "GLSL"},
		{"parse error", progHead + "frobnicate\n", Fail, "t.shader_test:12: frobnicate: unknown command"},
		{"unsupported command", progHead + "compute 1 1 1\n", Skip, `command "compute" is not supported`},
		{"storage command without StorageContext", progHead + "ssbo 0 16\n", Skip, `command "ssbo 0 16" is not supported by this back end`},
		{"memory barrier", progHead + "memory barrier GL_SHADER_STORAGE_BARRIER_BIT\n", Pass, ""},
		{"link error expected", "[require]\nGLSL >= 1.10\n[vertex shader]\nlink error\n[test]\nlink error\n", Pass, ""},
		{"link error not met", progHead + "link error\n", Fail, "link error expected, but it was successful"},
		{"link failure", "[require]\nGLSL >= 1.10\n[vertex shader]\nlink error\n[test]\n", Fail, "failed to link: unresolved"},
		{"compile failure beats link error", "[require]\nGLSL >= 1.10\n[vertex shader]\nsyntax error\n[test]\nlink error\n", Fail, "failed to compile vertex shader"},
		{"link success", progHead + "link success\n", Pass, ""},
		{"draw without program", "[require]\nGLSL >= 1.10\n[vertex shader]\nlink error\n[test]\ndraw rect -1 -1 2 2\nlink error\n", Fail, "line 6: failed to link"},
		{"uniform missing", progHead + "uniform float nosuch 1\n", Fail, `cannot get location of uniform "nosuch"`},
		{"uniform missing ignored", "[require]\nGLSL >= 1.10\nignore_missing_uniforms\n[vertex shader]\nv\n[test]\nuniform float nosuch 1\n", Pass, ""},
		{"double uniform needs fp64", progHead + "uniform double color 1\n", Skip, "GL_ARB_gpu_shader_fp64"},
		{"no shaders", "[require]\nGLSL >= 1.10\n[test]\nclear\n", Fail, "no program"},
		{"clip plane range", progHead + "clip plane 8 0 0 0 0\n", Fail, "clip plane id 8 out of range"},
		{"draw arrays beyond data", "[require]\nGLSL >= 1.10\n[vertex shader]\nin vec4 piglit_vertex;\n[vertex data]\npiglit_vertex/float/vec2\n-1 -1\n1 -1\n1 1\n[test]\ndraw arrays GL_TRIANGLES 1 3\n", Fail, "cannot draw beyond 3"},
		{"draw arrays", "[require]\nGLSL >= 1.10\n[vertex shader]\nin vec4 piglit_vertex;\n[vertex data]\npiglit_vertex/float/vec2\n-1 -1\n1 -1\n1 1\n-1 1\n[test]\ndraw arrays GL_TRIANGLE_FAN 0 4\nprobe all rgba 0 1 0 1\n", Pass, ""},
		{"draw arrays count", progHead + "draw arrays GL_TRIANGLES 0 0\n", Fail, "'count' must be > 0"},
		{"depth probe", "[require]\nGLSL >= 1.10\ndepthbuffer\n[vertex shader]\nv\n[test]\nclear depth 1\nclear\nprobe depth 0 0 1\ndraw rect -1 -1 2 2\nprobe depth 0 0 0.5\nprobe depth 1 1 0.7\n", Fail, "line 12: probe depth at (1,1): expected 0.700000, observed 0.500000"},
		{"no test section passes after compiling", "[require]\nGLSL >= 1.10\n[vertex shader]\nlink error\n", Pass, ""},
		{"no test section, compile error", "[require]\nGLSL >= 1.10\n[vertex shader]\nsyntax error\n", Fail, "failed to compile"},
		{"unknown vertex data column", "[require]\nGLSL >= 1.10\n[vertex shader]\nv\n[vertex data]\nnosuch/float/vec2\n0 0\n[test]\n", Fail, "unexpected vbo column name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, reason := execText(t, newFake(), tc.src)
			if st != tc.status || !strings.Contains(reason, tc.reason) {
				t.Errorf("got %v %q, want %v containing %q", st, reason, tc.status, tc.reason)
			}
		})
	}
}

func TestExecuteBackendErrors(t *testing.T) {
	b := newFake()
	b.drawErr = fmt.Errorf("draw: %w", ErrUnsupported)
	if st, reason := execText(t, b, progHead+"draw rect -1 -1 2 2\n"); st != Skip || !strings.Contains(reason, "line 12") {
		t.Errorf("unsupported draw: %v %q", st, reason)
	}
	b.drawErr = fmt.Errorf("out of memory")
	if st, reason := execText(t, b, progHead+"draw rect -1 -1 2 2\n"); st != Fail || !strings.Contains(reason, "out of memory") {
		t.Errorf("failed draw: %v %q", st, reason)
	}
	b = newFake()
	b.panicOn = "gl_FragColor"
	if st, reason := execText(t, b, progHead+"draw rect -1 -1 2 2\n"); st != Fail || !strings.Contains(reason, "panic: fake backend exploded") {
		t.Errorf("panic: %v %q", st, reason)
	}
	b = newFake()
	b.caps.GLES = 0
	if st, reason := execText(t, b, "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[test]\n"); st != Skip || !strings.Contains(reason, "OpenGL ES") {
		t.Errorf("no ES: %v %q", st, reason)
	}
}

func TestContextConfig(t *testing.T) {
	b := newFake()
	execText(t, b, "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\nSIZE 20 10\ndepthbuffer\n[vertex shader]\nv\n[test]\n")
	want := ContextConfig{API: APIGLES, GL: Version{Num: 30, ES: true}, GLSL: Version{Num: 300, ES: true}, Width: 20, Height: 10, DepthBuffer: true}
	if len(b.configs) != 1 || b.configs[0] != want {
		t.Errorf("configs = %+v, want %+v", b.configs, want)
	}
}

func TestDrawState(t *testing.T) {
	b := newFake()
	src := progHead + "color 0.25 0.75 0.5 0.25\nenable GL_CLIP_PLANE2\nclip plane 2 0 1 0 -0.5\nenable GL_DEPTH_TEST\n" +
		"depthfunc GL_GEQUAL\nshade model flat\nenable GL_VERTEX_PROGRAM_TWO_SIDE\nfrustum -1 1 -1 1 1 10\n" +
		"texcoord 1 (0.5, 0.25, 0, 1)\nlight 0 GL_POSITION float 0.2 0.5 0.8 0.1\nlight 1 GL_SPOT_CUTOFF float 45\n" +
		"hint GL_FRAGMENT_SHADER_DERIVATIVE_HINT GL_NICEST\ndraw rect tex -1 -1 2 2 0 0 1 1\ndisable GL_DEPTH_TEST\ndraw instanced rect 2 -1 -1 2 2\n"
	if st, reason := execText(t, b, src); st != Pass {
		t.Fatalf("%v %q", st, reason)
	}
	if len(b.draws) != 2 {
		t.Fatalf("%d draws", len(b.draws))
	}
	d := b.draws[0]
	s := d.State
	if s.Color != [4]float32{0.25, 0.75, 0.5, 0.25} || !s.ClipPlaneEnabled[2] || s.ClipPlanes[2] != [4]float64{0, 1, 0, -0.5} ||
		!s.DepthTest || s.DepthFunc != "GL_GEQUAL" || !s.Flat || !s.TwoSide || s.Projection != FrustumMatrix(-1, 1, -1, 1, 1, 10) ||
		s.TexCoord[1] != [4]float32{0.5, 0.25, 0, 1} || s.Lights[0].Position != [4]float32{0.2, 0.5, 0.8, 0.1} ||
		s.Lights[1].SpotCutoff != 45 || s.DerivativeHint != "GL_NICEST" || s.Width != 250 {
		t.Errorf("state = %+v", s)
	}
	if d.Mode != TriangleStrip || d.Count != 4 || d.Rect == nil || d.Rect.TexCoord == nil || d.Rect.TexCoord[3] != [2]float32{1, 1} {
		t.Errorf("draw rect tex = %+v", d)
	}
	if d2 := b.draws[1]; d2.State.DepthTest || d2.Instances != 2 || !d2.Rect.FixedFunction {
		t.Errorf("second draw = %+v", d2)
	}
	if !b.draws[0].State.DepthTest {
		t.Error("the first draw's state changed after the draw")
	}
}

func TestTextures(t *testing.T) {
	b := newFake()
	src := progHead + "texture rgbw 0 (4, 2)\ntexture checkerboard 1 0 (4, 4) (0, 0, 0, 1) (1, 1, 1, 1)\n" +
		"texparameter 2D min linear\ntexture miptree 2\ntexture shadow2D 3 (3, 1)\ntexparameter 2D compare_func less\n" +
		"texture checkerboard 4 2 (4, 4) (0, 0, 0, 1) (1, 1, 1, 1)\n"
	if st, reason := execText(t, b, src); st != Fail || !strings.Contains(reason, "failed to link") && reason != "" {
		// no draw: passes only if linked; the fake links, so expect pass
		if st != Pass {
			t.Fatalf("%v %q", st, reason)
		}
	}
	tx := b.textures
	if len(tx) != 7 {
		t.Fatalf("%d SetTexture calls", len(tx))
	}
	rgbw := tx[0].Levels[0]
	// 4x2: bottom row red red green green, top row blue blue white white.
	want := []float32{1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	if fmt.Sprint(rgbw.Data) != fmt.Sprint(want) || tx[0].Sampler.MinFilter != "nearest" || tx[0].Sampler.WrapS != "clamp_to_edge" {
		t.Errorf("rgbw = %+v %+v", rgbw, tx[0].Sampler)
	}
	cb := tx[1]
	// squares of 2: texel (0,0) black, (2,0) white, (0,2) white, (2,2) black.
	at := func(x, y int) float32 { return cb.Levels[0].Data[(y*4+x)*4] }
	if at(0, 0) != 0 || at(2, 0) != 1 || at(0, 2) != 1 || at(2, 2) != 0 || cb.Sampler.BorderColor != [4]float32{1, 0, 0, 1} || cb.Sampler.WrapS != "clamp_to_border" {
		t.Errorf("checkerboard = %+v", cb)
	}
	if tx[2].Sampler.MinFilter != "linear" {
		t.Errorf("texparameter did not reach unit 1's texture: %+v", tx[2].Sampler)
	}
	mt := tx[3]
	if len(mt.Levels) != 4 || mt.Levels[3].W != 1 || mt.Levels[2].Data[2] != 1 || mt.Sampler.MinFilter != "nearest_mipmap_nearest" {
		t.Errorf("miptree = %+v", mt)
	}
	sh := tx[4]
	if !sh.Depth || fmt.Sprint(sh.Levels[0].Data) != "[0 0.5 1]" || !sh.Sampler.CompareMode || sh.Sampler.CompareFunc != "greater" {
		t.Errorf("shadow = %+v", sh)
	}
	if tx[5].Sampler.CompareFunc != "less" {
		t.Errorf("texparameter compare_func = %+v", tx[5].Sampler)
	}
	if lv := tx[6].Levels; len(lv) != 3 || lv[0] != nil || lv[2] == nil {
		t.Errorf("checkerboard level 2 = %+v", lv)
	}
}

func writeTests(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"b/pass.shader_test":        progHead + "draw rect -1 -1 2 2\nprobe all rgba 0 1 0 1\n",
		"a/fail.shader_test":        progHead + "draw rect -1 -1 2 2\nprobe all rgba 1 0 0 1\n",
		"a/skip.shader_test":        "[require]\nGLSL >= 4.60\n[test]\n",
		"c/d/boom.shader_test":      "[require]\nGLSL >= 1.10\n[vertex shader]\nBOOM\n[test]\ndraw rect -1 -1 2 2\n",
		"notatest.txt":              "ignored",
		"c/d/e/pass2.shader_test":   progHead + "draw rect -1 -1 2 2\n",
		"c/d/e/pass3.shader_test":   progHead + "draw rect ortho 0 0 250 250\nprobe all rgb 0 1 0\n",
		"c/d/e/z/pass4.shader_test": progHead + "link success\n",
	}
	writeTests(t, dir, files)
	b := newFake()
	b.panicOn = "BOOM"
	want := ""
	for _, jobs := range []int{1, 4} {
		var out bytes.Buffer
		sum, err := Run(context.Background(), []string{dir}, b, Options{Jobs: jobs}, &out)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Passed != 4 || sum.Failed != 2 || sum.Skipped != 1 || len(sum.Results) != 7 {
			t.Errorf("jobs %d: summary %+v", jobs, sum)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 8 || lines[7] != "4 passed, 2 failed, 1 skipped" {
			t.Fatalf("jobs %d: output\n%s", jobs, out.String())
		}
		wantPrefix := []string{"fail " + filepath.Join(dir, "a/fail.shader_test") + " line 13: probe color",
			"skip " + filepath.Join(dir, "a/skip.shader_test") + " test requires >= GLSL 4.60",
			"pass " + filepath.Join(dir, "b/pass.shader_test"),
			"fail " + filepath.Join(dir, "c/d/boom.shader_test") + " panic: fake backend exploded",
			"pass " + filepath.Join(dir, "c/d/e/pass2.shader_test"),
			"pass " + filepath.Join(dir, "c/d/e/pass3.shader_test"),
			"pass " + filepath.Join(dir, "c/d/e/z/pass4.shader_test")}
		for i, w := range wantPrefix {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("jobs %d: line %d = %q, want prefix %q", jobs, i, lines[i], w)
			}
		}
		if jobs == 1 {
			want = out.String()
		} else if out.String() != want {
			t.Errorf("output with -j 4 differs from -j 1:\n%s\nvs\n%s", out.String(), want)
		}
	}
	// A file given directly keeps its path as given.
	var out bytes.Buffer
	p := filepath.Join(dir, "b", "..", "b", "pass.shader_test")
	if _, err := Run(context.Background(), []string{p}, b, Options{}, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(out.String(), "\n")[0]; got != "pass "+p {
		t.Errorf("direct path line = %q", got)
	}
	if _, err := Run(context.Background(), []string{filepath.Join(dir, "missing")}, b, Options{}, &out); err == nil {
		t.Error("missing path: no error")
	}
}

func TestRunJSON(t *testing.T) {
	dir := t.TempDir()
	writeTests(t, dir, map[string]string{
		"x.shader_test": progHead + "draw rect -1 -1 2 2\n",
		"y.shader_test": "[require]\nGLSL >= 4.60\n[test]\n",
	})
	var out bytes.Buffer
	if _, err := Run(context.Background(), []string{dir}, newFake(), Options{JSON: true, Jobs: 2}, &out); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&out)
	var r1, r2 Result
	var sum struct {
		Summary Summary `json:"summary"`
	}
	var raw1 map[string]any
	if err := dec.Decode(&raw1); err != nil {
		t.Fatal(err)
	}
	if raw1["result"] != "pass" || raw1["path"] != filepath.Join(dir, "x.shader_test") {
		t.Errorf("first object = %v", raw1)
	}
	_ = r1
	if err := dec.Decode(&r2); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&sum); err != nil {
		t.Fatal(err)
	}
	if sum.Summary.Passed != 1 || sum.Summary.Skipped != 1 {
		t.Errorf("summary = %+v", sum)
	}
}

func TestRunTimeout(t *testing.T) {
	dir := t.TempDir()
	writeTests(t, dir, map[string]string{"slow.shader_test": progHead + "draw rect -1 -1 2 2\n"})
	b := newFake()
	b.sleep = 5 * time.Second
	var out bytes.Buffer
	sum, err := Run(context.Background(), []string{dir}, b, Options{Timeout: 50 * time.Millisecond}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 1 || !strings.Contains(out.String(), "timeout after 50ms") {
		t.Errorf("timeout run: %+v\n%s", sum, out.String())
	}
}

func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	writeTests(t, dir, map[string]string{"a.shader_test": progHead, "b.shader_test": progHead})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	sum, err := Run(ctx, []string{dir}, newFake(), Options{Jobs: 2}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed+sum.Passed != 2 || len(sum.Results) != 2 {
		t.Errorf("cancelled run: %+v", sum)
	}
}

func TestGLESDifferences(t *testing.T) {
	const head = "[require]\nGL ES >= 3.0\nGLSL ES >= 3.00\n[vertex shader]\nv\n[test]\n"
	b := newFake()
	if st, reason := execText(t, b, head+"texture checkerboard 0 0 (2, 2) (0.5, 0, 0, 1) (1, 1, 1, 1)\n"); st != Pass {
		t.Fatalf("%v %q", st, reason)
	}
	cb := b.textures[0]
	if cb.Levels[0].Data[0] != float32(127)/255 || cb.Sampler.WrapS != "clamp_to_edge" {
		t.Errorf("GLES checkerboard = %v %+v", cb.Levels[0].Data[:4], cb.Sampler)
	}
	if st, reason := execText(t, newFake(), head+"color 1 0 0 1\n"); st != Fail || !strings.Contains(reason, "unknown command") {
		t.Errorf("color on GLES: %v %q", st, reason)
	}
	if st, reason := execText(t, newFake(), head+"texture rgbw 0 (2, 2)\ntexparameter 2D lod_bias 1\n"); st != Skip {
		t.Errorf("lod_bias on GLES: %v %q", st, reason)
	}
}

// TestUBOArrayIndex: "ubo array index N" makes the uniform commands after it
// set element N of a uniform block array (Uniform.BlockIndex), as
// shader_runner's ubo_array_index does, until the next such command; and
// "texture junk 2DArray" binds a 2D array texture of the given size with the
// default sampler state.
func TestUBOArrayIndex(t *testing.T) {
	b := newFake()
	src := progHead + "uniform vec4 color 1 0 0 1\nubo array index 2\nuniform vec4 color 0 1 0 1\nubo array index 0\nuniform vec4 color 0 0 1 1\n" +
		"texture junk 2DArray 1 (4, 2, 3)\n"
	if st, reason := execText(t, b, src); st != Pass {
		t.Fatalf("%v %q", st, reason)
	}
	var got []int
	for _, u := range b.uniforms {
		got = append(got, u.BlockIndex)
	}
	if fmt.Sprint(got) != "[0 2 0]" {
		t.Errorf("block indices %v, want [0 2 0]", got)
	}
	if len(b.textures) != 1 {
		t.Fatalf("%d textures", len(b.textures))
	}
	tx := b.textures[0]
	if tx.Target != Tex2DArray || len(tx.Levels) != 1 || tx.Levels[0].W != 4 || tx.Levels[0].H != 2 || tx.Levels[0].D != 3 ||
		len(tx.Levels[0].Data) != 4*2*3*4 || tx.Sampler != DefaultSampler() {
		t.Errorf("junk texture %+v (level %+v)", tx, tx.Levels[0])
	}
}
