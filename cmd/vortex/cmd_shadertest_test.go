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
	for name, src := range map[string]string{"a/ok.shader_test": pass, "b/bad.shader_test": fail} {
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
		{[]string{"-j", "2", dir}, 1, "1 passed, 1 failed, 0 skipped", ""},
		{[]string{"--path", "reference", filepath.Join(dir, "b")}, 1, "fail " + filepath.Join(dir, "b", "bad.shader_test") + " line", ""},
		{[]string{"--path", "device", ok}, 2, "", "not available yet"},
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
