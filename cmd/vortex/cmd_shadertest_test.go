package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShaderTestCommand(t *testing.T) {
	dir := t.TempDir()
	pass := "[require]\nGLSL >= 1.10\n\n[vertex shader passthrough]\n\n[fragment shader]\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n\n[test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0\n"
	fail := strings.Replace(pass, "probe all rgba 0.0 1.0 0.0 1.0", "probe all rgba 1.0 0.0 0.0 1.0", 1)
	// A test whose draw runs on the device: a varying reaches the
	// fragment stage.
	dev := "[require]\nGLSL >= 1.10\n\n[vertex shader]\nattribute vec4 piglit_vertex;\nvarying vec4 c;\nvoid main() { gl_Position = piglit_vertex; c = vec4(0.0, 1.0, 0.0, 1.0); }\n\n" +
		"[fragment shader]\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n\n[test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0\n"
	// A test without a vertex shader: the fixed-function vertex stage runs
	// on the device as a program the driver generates.
	ff := "[require]\nGLSL >= 1.10\n\n[fragment shader]\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n\n[test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.0 1.0 0.0 1.0\n"
	// An adjacency draw without a geometry shader: the device's front end has
	// no adjacency assembly, so the draw goes to the reference renderer with
	// its reason.
	lineTest := "[require]\nGLSL >= 1.10\n\n[vertex shader]\nattribute vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }\n\n" +
		"[fragment shader]\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n\n" +
		"[vertex data]\npiglit_vertex/float/2\n-1.0 0.0\n-0.5 0.0\n0.5 0.0\n1.0 0.0\n\n[test]\ndraw arrays GL_LINES_ADJACENCY 0 4\n"
	for name, src := range map[string]string{"a/ok.shader_test": pass, "b/bad.shader_test": fail, "c/dev.shader_test": dev, "d/ff.shader_test": ff, "e/lines.shader_test": lineTest} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok := filepath.Join(dir, "a")
	tests := []struct {
		args       []string
		code       int
		out, errIn string
	}{
		{[]string{ok}, 0, "pass " + filepath.Join(ok, "ok.shader_test") + "\n1 passed, 0 failed, 0 skipped\n", ""},
		{[]string{"-j", "2", dir}, 1, "4 passed, 1 failed, 0 skipped", ""},
		{[]string{"--path", "reference", filepath.Join(dir, "b")}, 1, "fail " + filepath.Join(dir, "b", "bad.shader_test") + " line", ""},
		{[]string{"--path", "device", filepath.Join(dir, "c")}, 0, "1 passed, 0 failed, 0 skipped", "1 of 1 passing tests did"},
		{[]string{"--path", "device", "--compare", filepath.Join(dir, "c")}, 0, "pass", "0 tests differ"},
		{[]string{"--path", "device", "--strict", filepath.Join(dir, "d")}, 0, "pass", "1 of 1 passing tests did"},
		{[]string{"--path", "device", filepath.Join(dir, "e")}, 0, "pass", "routed      1× primitive GL_LINES_ADJACENCY"},
		{[]string{"--path", "device", "--strict", filepath.Join(dir, "e")}, 1, "routed to the reference renderer: primitive GL_LINES_ADJACENCY", ""},
		{[]string{"--strict", ok}, 2, "", "need --path device"},
		{[]string{"--path", "device", "-j", "2", "--json", dir}, 1, `"summary"`, "draws on the device"},
		{[]string{"--path", "gpu", ok}, 2, "", "reference or device"},
		{[]string{filepath.Join(dir, "missing")}, 2, "", "missing"},
		{nil, 2, "", "usage"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := runShaderTest(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errb.String(), tc.errIn) {
			t.Errorf("shadertest %v: code %d, stdout %q, stderr %q; want code %d, stdout containing %q, stderr containing %q",
				tc.args, code, out.String(), errb.String(), tc.code, tc.out, tc.errIn)
		}
	}
	var out, errb bytes.Buffer
	if code := runShaderTest([]string{"--json", ok}, &out, &errb); code != 0 {
		t.Fatalf("--json: code %d, stderr %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("--json line %q: %v", l, err)
		}
	}
}

// TestShaderTestConfigISA: --config with [device] cores = "isa" runs compute
// tests as machine code — a program codegen takes passes under --strict, one it
// refuses (a texture) passes on the IR executor and fails under --strict — and
// --config needs --path device.
func TestShaderTestConfigISA(t *testing.T) {
	dir := t.TempDir()
	head := "[require]\nGL >= 4.3\nGLSL >= 4.30\n\n[compute shader]\n#version 430\nlayout(local_size_x = 4) in;\n"
	ok := head + "layout(std430, binding = 0) buffer B { uint v[4]; };\nvoid main() { v[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 3u + 1u; }\n\n" +
		"[test]\nssbo 0 16\ncompute 1 1 1\nprobe ssbo uint 0 12 == 10\n"
	tex := head + "layout(std430, binding = 0) buffer B { vec4 v[4]; };\nuniform sampler2D s;\nvoid main() { v[gl_LocalInvocationIndex] = textureLod(s, vec2(0.5), 0.0); }\n\n" +
		"[test]\ntexture rgbw 0 (4, 4)\nuniform int s 0\nssbo 0 64\ncompute 1 1 1\nprobe ssbo float 0 0 == 1.0\n"
	cfg := filepath.Join(dir, "isa.toml")
	for p, b := range map[string]string{filepath.Join(dir, "ok.shader_test"): ok, filepath.Join(dir, "tex.shader_test"): tex, cfg: "[device]\ncores = \"isa\"\n"} {
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	okPath, texPath := filepath.Join(dir, "ok.shader_test"), filepath.Join(dir, "tex.shader_test")
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"--path", "device", "--config", cfg, okPath, texPath}, 0, "2 passed, 0 failed"},
		{[]string{"--path", "device", "--strict", "--config", cfg, okPath}, 0, "1 passed, 0 failed"},
		{[]string{"--path", "device", "--strict", "--config", cfg, texPath}, 1, "STRICT: the program does not compile to machine code"},
		{[]string{"--path", "device", "--strict", texPath}, 0, "1 passed"}, // the IR executor: nothing to refuse
	} {
		var o, e bytes.Buffer
		if got := runShaderTest(c.args, &o, &e); got != c.code || !strings.Contains(o.String(), c.out) {
			t.Errorf("shadertest %v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, got, o.String(), e.String(), c.code, c.out)
		}
	}
	var o, e bytes.Buffer
	if got := runShaderTest([]string{"--config", cfg, okPath}, &o, &e); got != 2 || !strings.Contains(e.String(), "need --path device") {
		t.Errorf("--config on the reference path: exit %d, stderr %q", got, e.String())
	}
	if got := runShaderTest([]string{"--path", "device", "--config", filepath.Join(dir, "missing.toml"), okPath}, &o, &e); got != 2 {
		t.Errorf("missing config: exit %d", got)
	}
}
