package main

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sweepArgs is a small sweep over the shared traces: 3 axes × 2 traces × 2
// sizes = 32 rows.
func sweepArgs(t *testing.T) []string {
	d := sharedTraces(t)
	return []string{"sweep", "--axis", "raster.slices=1,2", "--axis", "device.cores_per_socket=1,2", "--axis", "raster.early_z=true,false",
		"--trace", filepath.Join(d, "box.cgltrace") + "@128,64", "--trace", filepath.Join(d, "triangle.cgltrace") + "@32,128"}
}

// readCSVNoWall reads a sweep CSV with its wall_ms column dropped.
func readCSVNoWall(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	w := slices.Index(recs[0], "wall_ms")
	if w < 0 {
		t.Fatalf("%s: no wall_ms column in %v", path, recs[0])
	}
	for i := range recs {
		recs[i] = slices.Delete(recs[i], w, w+1)
	}
	return recs
}

func TestSweepCommand(t *testing.T) {
	dir := t.TempDir()
	args := sweepArgs(t)
	full := filepath.Join(dir, "full.csv")
	code, out, errOut := run(t, append(args, "-o", full)...)
	if code != 0 || !strings.Contains(out, "8 configurations × 4 workloads × 1 frames = 32 rows; wrote 32 rows") {
		t.Fatalf("sweep: %d %q %q", code, out, errOut)
	}
	want := readCSVNoWall(t, full)
	if len(want) != 33 || want[0][0] != "row" || want[0][1] != "raster.slices" {
		t.Fatalf("full run: %d lines, header %v", len(want), want[0])
	}

	// Four shards, one after another, merged.
	var shards []string
	for _, s := range []string{"1/4", "2/4", "3/4", "4/4"} {
		p := filepath.Join(dir, "shard"+s[:1]+".csv")
		if code, out, errOut := run(t, append(args, "--shard", s, "-o", p)...); code != 0 || !strings.Contains(out, "shard "+s+": 8; wrote 8 rows") {
			t.Fatalf("shard %s: %d %q %q", s, code, out, errOut)
		}
		shards = append(shards, p)
	}
	merged := filepath.Join(dir, "merged.csv")
	if code, out, errOut := run(t, append([]string{"sweep", "merge", "-o", merged}, shards...)...); code != 0 || !strings.Contains(out, "merged 32 rows from 4 files") {
		t.Fatalf("merge: %d %q %q", code, out, errOut)
	}
	if got := readCSVNoWall(t, merged); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("merged shards differ from the one-process run")
	}
	if code, _, errOut := run(t, "sweep", "merge", "-o", filepath.Join(dir, "x.csv"), shards[0], shards[1], shards[0]); code != 1 || !strings.Contains(errOut, "shard1.csv: row 1") || !strings.Contains(errOut, "overlaps") {
		t.Errorf("merge of an overlapping shard: %d %q", code, errOut)
	}

	// An interrupted run (its first 10 rows) resumed.
	data, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(data), "\n")
	resumed := filepath.Join(dir, "resumed.csv")
	if err := os.WriteFile(resumed, []byte(strings.Join(lines[:11], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, append(args, "--resume", "-o", resumed)...); code != 0 || !strings.Contains(out, "10 already in") || !strings.Contains(out, "wrote 22 rows") {
		t.Fatalf("resume: %d %q %q", code, out, errOut)
	}
	if got := readCSVNoWall(t, resumed); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("resumed run differs from the full run")
	}
	// Resuming a complete file writes nothing.
	if code, out, _ := run(t, append(args, "--resume", "-o", resumed)...); code != 0 || !strings.Contains(out, "wrote 0 rows") {
		t.Errorf("resume of a complete run: %d %q", code, out)
	}

	// A chart of a counter against an axis, one series per another axis.
	chart := filepath.Join(dir, "chart.png")
	if code, out, errOut := run(t, "sweep", "plot", full, "--y", "cp_cycles", "--x", "raster.slices", "--by", "device.cores_per_socket", "-o", chart); code != 0 || !strings.Contains(out, "wrote") {
		t.Fatalf("plot: %d %q %q", code, out, errOut)
	}
	fh, err := os.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := png.Decode(fh); err != nil {
		t.Errorf("chart: %v", err)
	}
}

func TestSweepCommandErrors(t *testing.T) {
	d := sharedTraces(t)
	box := filepath.Join(d, "box.cgltrace")
	out := filepath.Join(t.TempDir(), "out.csv")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--axis", "raster.slices=0", "--trace", box}, 2, "raster.slices = 0: want 1..16"},
		{[]string{"--axis", "raster.nope=1", "--trace", box}, 2, "unknown key(s): raster.nope"},
		{[]string{"--axis", "raster.early_z=maybe", "--trace", box}, 2, "raster.early_z"},
		{[]string{"--axis", "device.cores_per_socket=3", "--trace", box}, 2, "device.cores_per_socket = 3"},
		{[]string{"--axis", "cp.flavor=emu", "--axis", "cp.flavor=rtl", "--trace", box}, 2, "--axis cp.flavor: given twice"},
		{[]string{"--axis", "slices", "--trace", box}, 2, "want KEY=V1,V2"},
		{[]string{"--trace", box + "@0"}, 2, "size \"0\""},
		{[]string{"--trace", box, "--shard", "5/4"}, 2, "--shard \"5/4\""},
		{[]string{"--trace", box, "--size", "7"}, 2, "--size \"7\""},
		{[]string{"--axis", "raster.slices=1"}, 2, "no workloads"},
		{[]string{"--trace", filepath.Join(d, "missing.cgltrace")}, 1, "missing.cgltrace"},
	} {
		code, _, errOut := run(t, append(append([]string{"sweep"}, tc.args...), "-o", out)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q, want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if code, _, errOut := run(t, "sweep", "--trace", box, "-o", "out.txt"); code != 2 || !strings.Contains(errOut, "out.txt: want a .csv or .jsonl") {
		t.Errorf("bad extension: %d %q", code, errOut)
	}
}

func TestSweepSceneWorkload(t *testing.T) {
	out := filepath.Join(t.TempDir(), "scene.jsonl")
	demo := filepath.Join("..", "..", "scene", "demo", "demo.json")
	code, stdout, errOut := run(t, "sweep", "--scene", demo, "--size", "32x32", "--frames", "2", "--axis", "raster.slices=1,2", "-o", out)
	if code != 0 || !strings.Contains(stdout, "= 4 rows; wrote 4 rows") {
		t.Fatalf("scene sweep: %d %q %q", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], `"workload":"scene:`+demo+`"`) || !strings.Contains(lines[0], `"width":32`) ||
		!strings.Contains(lines[0], `"path":"device"`) || strings.Contains(lines[0], `"fragments_shaded":null`) {
		t.Errorf("scene rows:\n%s", data)
	}
}
