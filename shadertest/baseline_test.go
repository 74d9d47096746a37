package shadertest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBaselineKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/x/usr/lib/x86_64-linux-gnu/piglit/tests/spec/glsl-1.10/execution/a.shader_test", "tests/spec/glsl-1.10/execution/a.shader_test"},
		{"/x/piglit/generated_tests/spec/glsl-1.30/b.shader_test", "generated_tests/spec/glsl-1.30/b.shader_test"},
		{"tests/spec/glsl-es-3.00/c.shader_test", "tests/spec/glsl-es-3.00/c.shader_test"},
		{"/tmp/mytests/spec/a.shader_test", ""},
		{"/tmp/other/a.shader_test", ""},
	} {
		if got := BaselineKey(tc.in); got != tc.want {
			t.Errorf("BaselineKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCompareBaseline(t *testing.T) {
	b, err := ReadBaseline(strings.NewReader("pass\ttests/spec/a.shader_test\npass\ttests/spec/b.shader_test\n" +
		"fail\ttests/spec/c.shader_test\npass\tgenerated_tests/spec/d.shader_test\npass\ttests/spec/e.shader_test\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := CompareBaseline(b, []Result{
		{Path: "/p/tests/spec/a.shader_test", Status: Pass},
		{Path: "/p/tests/spec/b.shader_test", Status: Fail, Reason: "x"},
		{Path: "/p/tests/spec/c.shader_test", Status: Pass},
		{Path: "/p/generated_tests/spec/d.shader_test", Status: Skip},
		{Path: "/p/elsewhere.shader_test", Status: Pass},
	})
	if a.LlvmpipePassed != 4 || a.BothPassed != 1 || a.NotRun != 1 || a.Unknown != 1 || len(a.Regressions) != 2 ||
		a.Regressions[0].Path != "/p/generated_tests/spec/d.shader_test" || a.Percent() != 25 {
		t.Errorf("agreement = %+v", a)
	}
	if s := a.String(); s != "agreement with llvmpipe: 1 of 4 llvmpipe passes pass (25.0%), 1 not run" {
		t.Errorf("String = %q", s)
	}
	if _, err := ReadBaseline(strings.NewReader("pass tests/spec/a.shader_test\n")); err == nil {
		t.Error("malformed baseline accepted")
	}
}

// TestSharedBaseline loads ../shared/data/piglit/llvmpipe-glsl.tsv.
func TestSharedBaseline(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	repoRoot := filepath.Dir(filepath.Dir(file))
	path := filepath.Join(repoRoot, "..", "shared", "data", "piglit", "llvmpipe-glsl.tsv")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	b, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range b {
		counts[r]++
	}
	if len(b) != 5028 || counts["pass"] != 5021 {
		t.Errorf("baseline: %d tests, %v", len(b), counts)
	}
	for k := range b {
		if BaselineKey("/root/piglit/"+k) != k {
			t.Errorf("key of %q does not round-trip", k)
			break
		}
	}
}
