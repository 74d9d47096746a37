package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// isProfile reports whether b looks like a pprof CPU profile: a gzip stream
// (runtime/pprof writes gzip-compressed protocol buffers).
func isProfile(b []byte) bool { return len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b }

// TestCPUProfileFlag: `vortex render` and `vortex bench render` write a CPU
// profile with --cpuprofile, and a path that cannot be created is an error
// naming the flag, with nothing rendered.
func TestCPUProfileFlag(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "render.prof")
	var so, se bytes.Buffer
	if code := runRender([]string{"--size", "32x24", "-o", filepath.Join(dir, "x.png"), "--cpuprofile", prof}, &so, &se); code != 0 {
		t.Fatalf("render: code %d, stderr %q", code, se.String())
	}
	if b, err := os.ReadFile(prof); err != nil || !isProfile(b) {
		t.Errorf("render --cpuprofile: %d bytes, %v; want a gzip'd profile", len(b), err)
	}
	se.Reset()
	bad := filepath.Join(dir, "no", "such", "dir", "p.prof")
	if code := runRender([]string{"--size", "32x24", "-o", filepath.Join(dir, "y.png"), "--cpuprofile", bad}, &so, &se); code == 0 || !strings.Contains(se.String(), "--cpuprofile") {
		t.Errorf("render --cpuprofile %s: code %d, stderr %q; want an error naming --cpuprofile", bad, code, se.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "y.png")); err == nil {
		t.Error("render wrote its image although the profile could not be created")
	}

	data := filepath.Join("..", "..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(data, "lambert.vert")); err != nil {
		t.Skipf("bench part: ../shared data absent: %v", err)
	}
	prof = filepath.Join(dir, "bench.prof")
	se.Reset()
	if code := runBenchRender([]string{"--mesh", "bunny", "--shaders", data, "--size", "64x64", "--frames", "2", "--json", "--cpuprofile", prof}, &so, &se); code != 0 {
		t.Fatalf("bench render: code %d, stderr %q", code, se.String())
	}
	if b, err := os.ReadFile(prof); err != nil || !isProfile(b) {
		t.Errorf("bench render --cpuprofile: %d bytes, %v; want a gzip'd profile", len(b), err)
	}
}
