package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestBenchRenderCPUTime: `vortex bench render --json` reports the timed
// frames' CPU time per frame beside the median wall time, on platforms that
// report CPU time.
func TestBenchRenderCPUTime(t *testing.T) {
	if _, ok := processCPU(); !ok {
		t.Skipf("%s reports no process CPU time", runtime.GOOS)
	}
	data := filepath.Join("..", "..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(data, "lambert.vert")); err != nil {
		t.Skipf("../shared data absent: %v", err)
	}
	for _, path := range []string{"device", "reference"} {
		var so, se bytes.Buffer
		if code := runBenchRender([]string{"--mesh", "bunny", "--shaders", data, "--size", "64x64", "--frames", "3", "--json", "--path", path}, &so, &se); code != 0 {
			t.Fatalf("%s: code %d, stderr %q", path, code, se.String())
		}
		var res benchResult
		if err := json.Unmarshal(so.Bytes(), &res); err != nil {
			t.Fatalf("%s: %v in %q", path, err, so.String())
		}
		if res.Frames != 3 || res.MsPerFrame <= 0 || res.CPUMsPerFrame <= 0 {
			t.Errorf("%s: %+v; want 3 frames with wall and CPU time", path, res)
		}
	}
}
