package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedTraces is ../shared/data/cgltrace from the repository root (skip when absent).
func sharedTraces(t *testing.T) string {
	t.Helper()
	d := filepath.Join("..", "..", "..", "shared", "data", "cgltrace")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("../shared/data absent: %v", err)
	}
	return d
}

func TestTraceReplayAndCompare(t *testing.T) {
	d := sharedTraces(t)
	dir := t.TempDir()
	out, stats := filepath.Join(dir, "box.png"), filepath.Join(dir, "box.json")
	code, stdout, stderr := run(t, "trace", "replay", filepath.Join(d, "box.cgltrace"), "--size", "128", "-o", out, "--stats", stats)
	if code != 0 {
		t.Fatalf("replay: %d %s", code, stderr)
	}
	if !strings.Contains(stdout, "2 draws at 128x128") {
		t.Errorf("replay output %q", stdout)
	}
	// The written PNG is the golden, byte for byte in its pixels.
	code, stdout, stderr = run(t, "trace", "compare", filepath.Join(d, "box.cgltrace"), out)
	if code != 0 || !strings.Contains(stdout, "0 differing pixels") {
		t.Errorf("compare against our own PNG: %d %q %q", code, stdout, stderr)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(fh)
	fh.Close()
	if err != nil || img.Bounds().Dx() != 128 {
		t.Fatalf("PNG: %v", err)
	}
	var st traceStats
	b, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Draws) != 2 || st.Draws[0].CmdDraw != 1 || st.Draws[0].Doorbells != 1 || st.Draws[0].Quads == 0 ||
		st.Draws[0].Perf.OMReads == 0 || st.Draws[0].Perf.TexReads == 0 || st.Draws[0].Perf.RasterReads == 0 {
		t.Errorf("stats %s", b)
	}
	toml := filepath.Join(dir, "dev.toml")
	cfgText := "[device]\nthreads = 8\nclusters = 2\n[cp]\nflavor = \"rtl\"\n[raster]\nengines_per_cluster = 2\nslices = 2\nearly_z = true\nworkers = 3\n"
	if err := os.WriteFile(toml, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{filepath.Join(d, "carnival.cgltrace"), filepath.Join(d, "carnival_ref_128.png"), "--config", toml}, 0, "0 differing pixels"},
		{[]string{filepath.Join(d, "triangle.cgltrace"), filepath.Join(d, "triangle_ref_8.png"), "--config", toml, "--flavor", "emu"}, 0, "0 differing pixels"},
		{[]string{filepath.Join(d, "box.cgltrace"), filepath.Join(d, "box_ref_128.png")}, 0, "0 differing pixels"},
		{[]string{filepath.Join(d, "scene.cgltrace"), filepath.Join(d, "scene_ref_128.png"), "--planes", "v1", "--flavor", "rtl"}, 0, "0 differing pixels"},
		{[]string{filepath.Join(d, "polybump.cgltrace"), filepath.Join(d, "polybump_ref_32.png"), "--planes", "v1", "--host-binning"}, 0, "0 differing pixels"},
		{[]string{filepath.Join(d, "scene.cgltrace"), filepath.Join(d, "scene_ref_128.png"), "--planes", "grx"}, 1, "max channel difference 1"},
	}
	for _, c := range cases {
		code, stdout, stderr := run(t, append([]string{"trace", "compare"}, c.args...)...)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("compare %v: %d %q %q", c.args, code, stdout, stderr)
		}
	}
}

// TestTraceBadInput: malformed traces and flags exit non-zero with a message
// naming the file and the element.
func TestTraceBadInput(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "trace", "testdata", "small.cgltrace"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(good)
	dir := t.TempDir()
	cases := []struct {
		name, from, to, want string
	}{
		{"truncated", "", "", "unexpected EOF"},
		{"base64", "<pixels>\n", "<pixels>\n!!!!", "pixels: bad base64"},
		{"index", "<i2>5</i2>", "<i2>9</i2>", "i2: vertex index 9 out of range"},
		{"nan", "<x>0.5</x>", "<x>nan</x>", "pos/x: non-finite"},
	}
	for _, c := range cases {
		in := s[:len(s)/2]
		if c.name != "truncated" {
			if !strings.Contains(s, c.from) {
				t.Fatalf("%s: seed lacks %q", c.name, c.from)
			}
			in = strings.Replace(s, c.from, c.to, 1)
		}
		path := filepath.Join(dir, c.name+".cgltrace")
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run(t, "trace", "replay", path, "--size", "16")
		if code != 1 || !strings.Contains(stderr, path) || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q (want the file and %q)", c.name, code, stderr, c.want)
		}
	}
	for _, args := range [][]string{
		{"trace", "replay"},
		{"trace", "replay", "x.cgltrace", "--size", "0"},
		{"trace", "compare", "x.cgltrace"},
	} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := run(t, "trace", "replay", filepath.Join(dir, "nan.cgltrace"), "--planes", "v2"); code != 1 || !strings.Contains(stderr, "--planes") {
		t.Errorf("bad --planes: %d %q", code, stderr)
	}
}
