package compiletest

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readRatchet reads testdata/ratchet.txt: "set agreed total" per line.
func readRatchet(t *testing.T) map[string][2]int {
	t.Helper()
	f, err := os.Open("testdata/ratchet.txt")
	if err != nil {
		t.Fatalf("ratchet: %v", err)
	}
	defer f.Close()
	out := map[string][2]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		a, err1 := strconv.Atoi(fs[1])
		n, err2 := strconv.Atoi(fs[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("ratchet: bad line %q", sc.Text())
		}
		out[fs[0]] = [2]int{a, n}
	}
	return out
}

// TestPiglitAgreement measures agreement with piglit's compiler tests and fails if a
// set drops below the checked-in ratchet. Set VORTEX_PIGLIT_DIR to the directory
// holding tests/ and generated_tests/ (e.g. from Debian's piglit package).
func TestPiglitAgreement(t *testing.T) {
	dir := os.Getenv("VORTEX_PIGLIT_DIR")
	if dir == "" {
		t.Skip("VORTEX_PIGLIT_DIR not set: piglit data absent")
	}
	res, err := Agreement(dir)
	if err != nil {
		t.Fatal(err)
	}
	exec, err := ShaderTests(dir)
	if err != nil {
		t.Fatal(err)
	}
	res = append(res, exec...)
	ratchet := readRatchet(t)
	for _, r := range res {
		t.Logf("%-13s %4d/%4d agree (%.1f%%), %d skipped (extensions)", r.Set, r.Agreed, r.Total, 100*r.Rate(), r.Skipped)
		if testing.Verbose() {
			for _, m := range r.Mismatch {
				t.Log("  " + m)
			}
		}
		if want, ok := ratchet[r.Set]; ok && r.Agreed < want[0] {
			t.Errorf("%s: agreement dropped to %d/%d, ratchet is %d/%d", r.Set, r.Agreed, r.Total, want[0], want[1])
		}
	}
}

// TestPiglitExtensions measures the compiler-test sets of the compute features,
// of the extensions the front end implements and of the later GLSL versions
// (ComputeSets, ExtensionSets, LaterSets)
// when the piglit directory has them, and fails if a set with a line in the
// ratchet drops below it.
func TestPiglitExtensions(t *testing.T) {
	dir := os.Getenv("VORTEX_PIGLIT_DIR")
	if dir == "" {
		t.Skip("VORTEX_PIGLIT_DIR not set: piglit data absent")
	}
	res, err := Agreement(dir, slices.Concat(ComputeSets, ExtensionSets, LaterSets)...)
	if err != nil {
		t.Fatal(err)
	}
	ratchet := readRatchet(t)
	for _, r := range res {
		t.Logf("%-33s %4d/%4d agree (%.1f%%), %d skipped (extensions)", r.Set, r.Agreed, r.Total, 100*r.Rate(), r.Skipped)
		if testing.Verbose() {
			for _, m := range r.Mismatch {
				t.Log("  " + m)
			}
		}
		if r.Total == 0 && r.Skipped == 0 {
			// The set is not in this piglit directory (an extract of it).
			continue
		}
		if want, ok := ratchet["ext-"+r.Set]; ok && r.Agreed < want[0] {
			t.Errorf("%s: agreement dropped to %d/%d, ratchet is %d/%d", r.Set, r.Agreed, r.Total, want[0], want[1])
		}
	}
}

// TestConfig reads a piglit "[config]" header; "!"-negated extensions are not
// requirements.
func TestConfig(t *testing.T) {
	cfg, ok := parseConfig("/* [config]\n * expect_result: fail\n * glsl_version: 1.30\n * require_extensions: GL_ARB_foo !GL_ARB_bar\n * [end config]\n */")
	if !ok || cfg.expect != "fail" || len(cfg.extensions) != 1 || cfg.extensions[0] != "GL_ARB_foo" {
		t.Fatalf("got %+v %v", cfg, ok)
	}
}
