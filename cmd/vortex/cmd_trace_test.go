package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
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
	// The written PNG is the golden, byte for byte in its pixels, and it was
	// made with the default convention, which compare names.
	code, stdout, stderr = run(t, "trace", "compare", filepath.Join(d, "box.cgltrace"), out)
	if code != 0 || !strings.Contains(stdout, "(planes grx): 0 differing pixels") || !strings.Contains(stdout, "planes: grx matches exactly") {
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
		{[]string{filepath.Join(d, "scene.cgltrace"), filepath.Join(d, "scene_ref_128.png"), "--planes", "v1", "--flavor", "rtl"}, 0, "(planes v1): 0 differing pixels"},
		{[]string{filepath.Join(d, "polybump.cgltrace"), filepath.Join(d, "polybump_ref_32.png"), "--planes", "v1", "--host-binning"}, 0, "(planes v1): 0 differing pixels"},
		{[]string{filepath.Join(d, "scene.cgltrace"), filepath.Join(d, "scene_ref_128.png"), "--planes", "grx"}, 1, "(planes grx): 3282 differing pixels, max channel difference 1"},
	}
	for _, c := range cases {
		code, stdout, stderr := run(t, append([]string{"trace", "compare"}, c.args...)...)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("compare %v: %d %q %q", c.args, code, stdout, stderr)
		}
	}
}

// goldenPlanes is which plane convention reproduces each shared golden
// exactly, found by running compare with each --planes: "both" where the scene
// has no perspective-varying colour or texcoords to tell them apart.
var goldenPlanes = map[string]string{
	"box_ref_128.png":      "grx",
	"carnival_ref_128.png": "both",
	"polybump_ref_128.png": "v1",
	"polybump_ref_32.png":  "v1",
	"scene_ref_128.png":    "v1",
	"triangle_ref_128.png": "both",
	"triangle_ref_64.png":  "both",
	"triangle_ref_32.png":  "both",
	"triangle_ref_16.png":  "both",
	"triangle_ref_8.png":   "both",
}

// TestTraceComparePlanes: without --planes, compare tries both conventions on
// every shared golden and names the one that matched; with --planes it
// compares only that one, as before, and prints no verdict.
func TestTraceComparePlanes(t *testing.T) {
	d := sharedTraces(t)
	goldens, err := filepath.Glob(filepath.Join(d, "*_ref_*.png"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range goldens {
		seen[filepath.Base(g)] = true
		if goldenPlanes[filepath.Base(g)] == "" {
			t.Errorf("%s: no expected convention in goldenPlanes", g)
		}
	}
	for name, want := range goldenPlanes {
		t.Run(name, func(t *testing.T) {
			if !seen[name] {
				t.Fatalf("%s absent from %s", name, d)
			}
			tr := filepath.Join(d, name[:strings.Index(name, "_ref_")]+".cgltrace")
			golden := filepath.Join(d, name)
			stats := filepath.Join(t.TempDir(), "stats.json")
			code, stdout, stderr := run(t, "trace", "compare", tr, golden, "--stats", stats)
			verdict := "planes: " + want + " matches exactly; replay with --planes " + want
			statsPlanes := want
			if want == "both" {
				verdict = "planes: grx and v1 both match exactly"
				statsPlanes = "grx" // the default wins a tie
			}
			if code != 0 || !strings.Contains(stdout, verdict) ||
				!strings.Contains(stdout, "(planes grx): ") || !strings.Contains(stdout, "(planes v1): ") {
				t.Errorf("compare without --planes: %d %q %q (want %q)", code, stdout, stderr, verdict)
			}
			var st traceStats
			if b, err := os.ReadFile(stats); err != nil || json.Unmarshal(b, &st) != nil || st.Planes != statsPlanes || len(st.Draws) == 0 {
				t.Errorf("--stats of the matching run: %v, planes %q, %d draws (want planes %q)", err, st.Planes, len(st.Draws), statsPlanes)
			}
			for _, p := range []string{"grx", "v1"} {
				code, stdout, stderr := run(t, "trace", "compare", tr, golden, "--planes", p, "--fill", "top_left")
				match := want == p || want == "both"
				if match != (code == 0) || match != strings.Contains(stdout, "(planes "+p+"): 0 differing pixels") ||
					strings.Contains(stdout, "planes: ") || strings.Count(stdout, "\n") != 1 {
					t.Errorf("compare --planes %s: %d %q %q (match %v)", p, code, stdout, stderr, match)
				}
			}
		})
	}
}

// TestTraceCompareNoMatch: a golden neither convention reproduces (box's with
// one pixel changed) exits 1, names grx as the closer and writes its stats.
func TestTraceCompareNoMatch(t *testing.T) {
	d := sharedTraces(t)
	ref, err := readTracePNG(filepath.Join(d, "box_ref_128.png"))
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(ref.Bounds())
	draw.Draw(img, img.Bounds(), ref, ref.Bounds().Min, draw.Src)
	c := img.NRGBAAt(64, 64)
	c.G ^= 0x10
	img.SetNRGBA(64, 64, c)
	dir := t.TempDir()
	golden, stats := filepath.Join(dir, "box_off.png"), filepath.Join(dir, "stats.json")
	if err := writeTracePNG(golden, img); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, "trace", "compare", filepath.Join(d, "box.cgltrace"), golden, "--stats", stats)
	want := "planes: neither grx nor v1 matches exactly; closer is grx (1 differing pixels, max channel difference 16)"
	if code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("compare: %d %q %q (want %q)", code, stdout, stderr, want)
	}
	var st traceStats
	if b, err := os.ReadFile(stats); err != nil || json.Unmarshal(b, &st) != nil || st.Planes != "grx" {
		t.Errorf("--stats of the closer run: %v, planes %q (want grx)", err, st.Planes)
	}
}

// TestTraceReplayPlanes: replay says which convention it used and whether it
// was the default, and its stats record it.
func TestTraceReplayPlanes(t *testing.T) {
	d := sharedTraces(t)
	tr := filepath.Join(d, "triangle.cgltrace")
	stats := filepath.Join(t.TempDir(), "stats.json")
	cases := []struct {
		args []string
		want string
	}{
		{nil, "\nplanes: grx (default; use --planes v1 for "},
		{[]string{"--planes", "grx"}, "\nplanes: grx (given by --planes)\n"},
		{[]string{"--planes", "v1"}, "\nplanes: v1 (given by --planes)\n"},
	}
	for _, c := range cases {
		code, stdout, stderr := run(t, append([]string{"trace", "replay", tr, "--size", "8", "--stats", stats}, c.args...)...)
		if code != 0 || !strings.Contains(stdout, c.want) || strings.Count(stdout, "planes: ") != 1 {
			t.Errorf("replay %v: %d %q %q (want %q)", c.args, code, stdout, stderr, c.want)
		}
		var st traceStats
		b, err := os.ReadFile(stats)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &st); err != nil || !strings.Contains(c.want, "planes: "+st.Planes+" ") {
			t.Errorf("replay %v: stats planes %q (%v)", c.args, st.Planes, err)
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
	if code, _, stderr := run(t, "trace", "replay", filepath.Join(dir, "nan.cgltrace"), "--fill", "top-left-ish"); code != 1 || !strings.Contains(stderr, `--fill "top-left-ish": want top_left or inclusive`) {
		t.Errorf("bad --fill: %d %q", code, stderr)
	}
}

// wquad is trace/testdata/wquad.cgltrace: the two triangles of a quad whose w
// is 1 + x/2, untextured white on the black clear, no depth. At 128² the
// shared diagonal's copy in triangle 0 evaluates to exactly 0 on a row of
// pixel centres and its copy in triangle 1 is a few LSB negative there
// (setup's per-triangle normalisation, raster.FillRule).
var wquad = filepath.Join("..", "..", "trace", "testdata", "wquad.cgltrace")

// TestTraceCompareFill: a golden whose diagonal pixels are drawn (the RTL's
// inclusive rule) is matched by --fill inclusive only; without --fill compare
// tries both rules, names the one that matched and writes its stats; with
// --fill it compares only that rule and prints no verdict. The top-left
// replay differs by the 112 crack pixels, each a full 255 off.
func TestTraceCompareFill(t *testing.T) {
	dir := t.TempDir()
	golden, stats := filepath.Join(dir, "wquad_incl.png"), filepath.Join(dir, "stats.json")
	if code, stdout, stderr := run(t, "trace", "replay", wquad, "--size", "128", "--fill", "inclusive", "-o", golden); code != 0 {
		t.Fatalf("replay: %d %q %q", code, stdout, stderr)
	}
	code, stdout, stderr := run(t, "trace", "compare", wquad, golden, "--stats", stats)
	for _, want := range []string{
		"(planes grx): 112 differing pixels, max channel difference 255\n",
		"(planes grx, fill inclusive): 0 differing pixels, max channel difference 0\n",
		"\nplanes: grx matches exactly; replay with --planes grx\n",
		"\nfill: inclusive matches exactly; replay with --fill inclusive\n",
	} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("compare: %d %q %q (want %q)", code, stdout, stderr, want)
		}
	}
	var st traceStats
	if b, err := os.ReadFile(stats); err != nil || json.Unmarshal(b, &st) != nil || st.Fill != "inclusive" || st.Planes != "grx" {
		t.Errorf("--stats of the matching run: %v, planes %q fill %q (want grx, inclusive)", err, st.Planes, st.Fill)
	}
	code, stdout, _ = run(t, "trace", "compare", wquad, golden, "--fill", "top_left", "--planes", "grx")
	if code != 1 || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, "(planes grx): 112 differing pixels") {
		t.Errorf("compare --fill top_left: %d %q", code, stdout)
	}
	code, stdout, _ = run(t, "trace", "compare", wquad, golden, "--fill", "top_left")
	want := "\nfill: top_left matches"
	if code != 1 || strings.Contains(stdout, want) || strings.Contains(stdout, "\nfill: ") {
		t.Errorf("compare --fill top_left (both planes): %d %q", code, stdout)
	}
}

// TestTraceReplayFill: replay says which tie rule it used and whether it was
// the default; its stats carry "fill" only for a rule other than the default,
// so default replays' stats are as before.
func TestTraceReplayFill(t *testing.T) {
	stats := filepath.Join(t.TempDir(), "stats.json")
	for _, c := range []struct {
		args      []string
		want      string
		statsFill string
	}{
		{nil, "\nfill: top_left (default; use --fill inclusive for ", ""},
		{[]string{"--fill", "top_left"}, "\nfill: top_left (given by --fill)\n", ""},
		{[]string{"--fill", "inclusive"}, "\nfill: inclusive (given by --fill)\n", "inclusive"},
	} {
		code, stdout, stderr := run(t, append([]string{"trace", "replay", wquad, "--size", "16", "--stats", stats}, c.args...)...)
		if code != 0 || !strings.Contains(stdout, c.want) || strings.Count(stdout, "fill: ") != 1 {
			t.Errorf("replay %v: %d %q %q (want %q)", c.args, code, stdout, stderr, c.want)
		}
		b, err := os.ReadFile(stats)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		if got, _ := raw["fill"].(string); got != c.statsFill {
			t.Errorf("replay %v: stats fill %q, want %q", c.args, got, c.statsFill)
		}
	}
}

// TestTraceEqualDepth: trace/testdata/eqdepth.cgltrace draws the w-varying
// quad twice with the same vertices (a sloped depth plane), red then green,
// depth-tested. Both draws set up the same Q7.24 plane, so every pixel's two
// depths are equal: LEQUAL shows only green, LESS only red, and early-Z
// (which culls only strictly-behind fragments) changes nothing. spec:
// rasterizer §7.5; vortex-hardware-facts §3.3 (early-Z), §5 (compare functions)
func TestTraceEqualDepth(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "trace", "testdata", "eqdepth.cgltrace"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ez := filepath.Join(dir, "ez.toml")
	if err := os.WriteFile(ez, []byte("[raster]\nearly_z = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, fn   string
		want, lose uint8 // the winning and the hidden draw's dominant channel (R 0, G 1)
	}{{"LEQUAL", "3", 1, 0}, {"LESS", "1", 0, 1}} {
		tr := filepath.Join(dir, tc.name+".cgltrace")
		if err := os.WriteFile(tr, []byte(strings.ReplaceAll(string(src), "<depth_func>3</depth_func>", "<depth_func>"+tc.fn+"</depth_func>")), 0o644); err != nil {
			t.Fatal(err)
		}
		var imgs [2][]byte
		for i, extra := range [][]string{nil, {"--config", ez}} {
			out := filepath.Join(dir, fmt.Sprintf("%s%d.png", tc.name, i))
			if code, stdout, stderr := run(t, append([]string{"trace", "replay", tr, "--size", "128", "-o", out}, extra...)...); code != 0 {
				t.Fatalf("%s %v: %d %q %q", tc.name, extra, code, stdout, stderr)
			}
			img, err := readTracePNG(out)
			if err != nil {
				t.Fatal(err)
			}
			nrgba, ok := img.(*image.NRGBA)
			if !ok {
				rgba := image.NewNRGBA(img.Bounds())
				draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
				nrgba = rgba
			}
			imgs[i] = nrgba.Pix
			covered := 0
			for p := 0; p < len(nrgba.Pix); p += 4 {
				px := nrgba.Pix[p : p+3]
				if px[tc.lose] != 0 {
					t.Fatalf("%s %v: pixel %d shows the hidden draw (%v)", tc.name, extra, p/4, px)
				}
				if px[tc.want] != 0 {
					covered++
				}
			}
			if covered < 12000 {
				t.Errorf("%s %v: only %d pixels drawn", tc.name, extra, covered)
			}
		}
		if !bytes.Equal(imgs[0], imgs[1]) {
			t.Errorf("%s: early-Z changed the image", tc.name)
		}
	}
}
