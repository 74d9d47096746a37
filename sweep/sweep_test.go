package sweep

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"vortexgfx/config"
)

// sharedTraces is ../shared/data/cgltrace beside the repository (skip when absent).
func sharedTraces(t *testing.T) string {
	t.Helper()
	d := filepath.Join("..", "..", "shared", "data", "cgltrace")
	if _, err := os.Stat(filepath.Join(d, "box.cgltrace")); err != nil {
		t.Skipf("../shared/data/cgltrace absent, skipping the sweeps that replay traces: %v", err)
	}
	return d
}

func mustAxes(t *testing.T, args ...string) []Axis {
	t.Helper()
	var out []Axis
	for _, a := range args {
		ax, err := ParseAxis(a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ax)
	}
	return out
}

func TestAxisErrorsNameTheKey(t *testing.T) {
	for _, tc := range []struct {
		axes []string
		want []string // substrings of the error
	}{
		{[]string{"raster.slices=0"}, []string{"raster.slices", "want 1..16"}},
		{[]string{"raster.slices=17"}, []string{"raster.slices"}},
		{[]string{"raster.slices=two"}, []string{"raster.slices", "incompatible types"}},
		{[]string{"raster.early_z=1"}, []string{"raster.early_z", "incompatible types"}},
		{[]string{"raster.early_z=yes"}, []string{"raster.early_z"}},
		{[]string{"device.cores_per_socket=3"}, []string{"device.cores_per_socket", "power of two"}},
		{[]string{"device.threads=6"}, []string{"device.threads"}},
		{[]string{"cp.flavor=xyz"}, []string{"cp.flavor", "xyz"}},
		{[]string{"raster.frobs=1"}, []string{"unknown key", "raster.frobs"}},
		{[]string{"gpu.cores=1"}, []string{"gpu.cores"}},
		{[]string{"raster.slices=1", "raster.slices=2"}, []string{"raster.slices", "twice"}},
		{[]string{"raster.slices=1,2,1"}, []string{"raster.slices", "value 1 given twice"}},
		{[]string{"cp.flavor=emu,rtl", "cp.vm=true"}, []string{"cp.vm", "cp.flavor=rtl"}},
	} {
		t.Run(strings.Join(tc.axes, " "), func(t *testing.T) {
			_, err := Matrix(config.Default(), mustAxes(t, tc.axes...))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
	for _, bad := range []string{"raster.slices", "=1", "slices=1", "raster.slices=1,,2", "a.b.c=1"} {
		if _, err := ParseAxis(bad); err == nil {
			t.Errorf("ParseAxis(%q): no error", bad)
		}
	}
}

func TestMatrixOrderAndValues(t *testing.T) {
	axes := mustAxes(t, "raster.slices=1,2", "device.cores_per_socket=1,2,4", "raster.early_z=true,false", "cp.flavor=rtl,\"emu\"")
	cfgs, err := Matrix(config.Default(), axes)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 24 {
		t.Fatalf("%d configurations, want 24", len(cfgs))
	}
	// The first axis outermost, the last fastest.
	if got := cfgs[1].Values; !slices.Equal(got, []string{"1", "1", "true", "emu"}) {
		t.Errorf("configuration 1: %v", got)
	}
	if got := cfgs[23].Values; !slices.Equal(got, []string{"2", "4", "false", "emu"}) {
		t.Errorf("configuration 23: %v", got)
	}
	c := cfgs[23].Config
	if c.Raster.Slices != 2 || c.Device.CoresPerSocket != 4 || c.Raster.EarlyZ || c.CP.Flavor != "emu" {
		t.Errorf("configuration 23 is %+v", c)
	}
	// The base's other keys are kept.
	base := config.Default()
	base.Device.Warps = 8
	cfgs, err = Matrix(base, mustAxes(t, "raster.slices=4"))
	if err != nil || cfgs[0].Config.Device.Warps != 8 || cfgs[0].Config.Raster.Slices != 4 {
		t.Errorf("over a base: %v %+v", err, cfgs)
	}
}

// testSweep is the sweep the tests share: 3 axes × 2 traces × 2 sizes.
func testSweep(t *testing.T) *Sweep {
	d := sharedTraces(t)
	var ws []Workload
	for _, tr := range []string{"box.cgltrace@128,64", "triangle.cgltrace@32,128"} {
		w, err := ParseTraces(filepath.Join(d, tr))
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w...)
	}
	return &Sweep{Base: config.Default(), Frames: 1, Workloads: ws, Loader: &Loader{},
		Axes: mustAxes(t, "raster.slices=1,2", "device.cores_per_socket=1,2", "raster.early_z=true,false")}
}

var full struct {
	once sync.Once
	t    *Table
	err  error
}

// fullRun is the single-process run of testSweep, made once.
func fullRun(t *testing.T) *Table {
	s := testSweep(t)
	full.once.Do(func() {
		out := filepath.Join(os.TempDir(), "vortex-sweep-full-"+strings.ReplaceAll(t.Name(), "/", "_")+".csv")
		defer os.Remove(out)
		if _, full.err = s.Run(context.Background(), out, false); full.err == nil {
			full.t, _, full.err = ReadFile(out)
		}
	})
	if full.err != nil {
		t.Fatal(full.err)
	}
	return full.t
}

// withoutWall is t's rows with wall_ms blanked: the one column that may
// differ between runs.
func withoutWall(t *Table) [][]string {
	w := t.Col(ColWallMS)
	out := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = slices.Clone(r)
		if w >= 0 {
			out[i][w] = ""
		}
	}
	return out
}

func sameRows(t *testing.T, what string, got, want *Table) {
	t.Helper()
	if !slices.Equal(got.Header, want.Header) {
		t.Fatalf("%s: header %v, want %v", what, got.Header, want.Header)
	}
	g, w := withoutWall(got), withoutWall(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d rows, want %d", what, len(g), len(w))
	}
	for i := range g {
		if !slices.Equal(g[i], w[i]) {
			t.Fatalf("%s: row %d\n got %v\nwant %v", what, i, g[i], w[i])
		}
	}
}

func TestSweepRows(t *testing.T) {
	tab := fullRun(t)
	if len(tab.Rows) != 8*4 {
		t.Fatalf("%d rows, want 32", len(tab.Rows))
	}
	for _, c := range []string{"raster.slices", "device.cores_per_socket", "raster.early_z", "workload", "width", "frame",
		"cp_cycles", "cp_doorbells", "perf.raster_reads", "perf.tex_reads", "perf.om_writes", "fragments_shaded", "wall_ms", "image_sha256"} {
		if tab.Col(c) < 0 {
			t.Errorf("no column %s in %v", c, tab.Header)
		}
	}
	cell := func(r int, c string) string { return tab.Rows[r][tab.Col(c)] }
	// Configurations in axis order, then workloads in order, then frames.
	for _, tc := range []struct {
		row                             int
		slices, cores, earlyZ, workload string
		size                            string
	}{
		{0, "1", "1", "true", "box.cgltrace", "128"},
		{1, "1", "1", "true", "box.cgltrace", "64"},
		{2, "1", "1", "true", "triangle.cgltrace", "32"},
		{3, "1", "1", "true", "triangle.cgltrace", "128"},
		{4, "1", "1", "false", "box.cgltrace", "128"},
		{31, "2", "2", "false", "triangle.cgltrace", "128"},
	} {
		if cell(tc.row, "row") != itoa(tc.row) || cell(tc.row, "raster.slices") != tc.slices || cell(tc.row, "device.cores_per_socket") != tc.cores ||
			cell(tc.row, "raster.early_z") != tc.earlyZ || !strings.HasSuffix(cell(tc.row, "workload"), tc.workload) || cell(tc.row, "width") != tc.size {
			t.Errorf("row %d: %v", tc.row, tab.Rows[tc.row])
		}
	}
	for r := range tab.Rows {
		// One CMD_DRAW and one doorbell per draw call (README "vortex trace replay").
		if cell(r, "draws") == "0" || cell(r, "cp_cmd_draw") != cell(r, "draws") || cell(r, "cp_doorbells") != cell(r, "draws") ||
			cell(r, "cp_cycles") == "0" || cell(r, "perf.om_writes") == "0" || len(cell(r, "image_sha256")) != 64 {
			t.Errorf("row %d counters: %v", r, tab.Rows[r])
		}
	}
	// The image is a function of the trace and size, not of these knobs.
	if cell(0, "image_sha256") != cell(4, "image_sha256") || cell(0, "image_sha256") == cell(1, "image_sha256") {
		t.Errorf("image hashes: %s %s %s", cell(0, "image_sha256"), cell(4, "image_sha256"), cell(1, "image_sha256"))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestShardsMergeToTheFullRun(t *testing.T) {
	want := fullRun(t)
	for _, tc := range []struct {
		shards, workers int
		ext             string
	}{{4, 1, ".csv"}, {3, 2, ".jsonl"}} {
		dir := t.TempDir()
		var paths []string
		for i := 1; i <= tc.shards; i++ {
			s := testSweep(t)
			s.Shard, s.Shards, s.Workers = i, tc.shards, tc.workers
			p := filepath.Join(dir, "shard"+itoa(i)+tc.ext)
			sum, err := s.Run(context.Background(), p, false)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Written != (32-i+tc.shards)/tc.shards {
				t.Errorf("shard %d/%d wrote %d rows", i, tc.shards, sum.Written)
			}
			paths = append(paths, p)
		}
		// Any order of the inputs merges to the same file.
		slices.Reverse(paths)
		got, missing, err := Merge(paths)
		if err != nil || len(missing) != 0 {
			t.Fatalf("merge: %v, missing %v", err, missing)
		}
		out := filepath.Join(dir, "merged.csv")
		if err := WriteFile(out, got); err != nil {
			t.Fatal(err)
		}
		back, _, err := ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, "merged "+itoa(tc.shards)+" shards"+tc.ext, back, want)
	}
}

func TestMergeRefuses(t *testing.T) {
	sharedTraces(t)
	dir := t.TempDir()
	shard := func(name string, i, n int, axes ...string) string {
		s := testSweep(t)
		s.Shard, s.Shards = i, n
		if axes != nil {
			s.Axes = mustAxes(t, axes...)
		}
		p := filepath.Join(dir, name)
		if _, err := s.Run(context.Background(), p, false); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := shard("a.csv", 1, 8), shard("b.csv", 2, 8)
	other := shard("other.csv", 1, 8, "raster.slices=1,2")
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"same shard twice", []string{a, b, a}, "a.csv: row 1 (raster.slices=1"},
		{"other header", []string{a, other}, "other.csv: its columns differ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Merge(tc.paths)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// Shards 1 and 2 of 8 hold rows 0, 1, 8, 9, ..., 24, 25: the 18 rows
	// between them are missing (merge cannot know of rows past the last).
	if _, missing, err := Merge([]string{a, b}); err != nil || len(missing) != 18 {
		t.Errorf("two of eight shards: %v, %d missing", err, len(missing))
	}
}

func TestResumeAfterInterruption(t *testing.T) {
	want := fullRun(t)
	for _, tc := range []struct {
		name    string
		rows    int  // complete rows kept
		partial bool // and half of the next line, as a kill mid-write leaves it
		ext     string
	}{
		{"header only", 0, false, ".csv"},
		{"3 rows", 3, false, ".csv"},
		{"17 rows and a partial line", 17, true, ".csv"},
		{"all rows", 32, false, ".csv"},
		{"5 rows jsonl partial", 5, true, ".jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out"+tc.ext)
			if err := WriteFile(out, want); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(out)
			lines := strings.SplitAfter(string(data), "\n")
			keep := tc.rows
			if tc.ext == ".csv" {
				keep++ // the header line
			}
			cut := strings.Join(lines[:keep], "")
			if tc.partial {
				cut += lines[keep][:len(lines[keep])/2]
			}
			if err := os.WriteFile(out, []byte(cut), 0o644); err != nil {
				t.Fatal(err)
			}
			s := testSweep(t)
			sum, err := s.Run(context.Background(), out, true)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Present != tc.rows || sum.Written != 32-tc.rows {
				t.Errorf("resumed: %+v", sum)
			}
			got, _, err := ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for i, r := range got.Rows {
				k := TableKey(got.Header, r)
				if seen[k] {
					t.Fatalf("row %d written twice: %s", i, KeyLabel(got.Header, r))
				}
				seen[k] = true
			}
			sameRows(t, "resumed", got, want)
		})
	}
}

func TestResumeRefusesAnotherSweep(t *testing.T) {
	sharedTraces(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	s := testSweep(t)
	s.Axes = mustAxes(t, "raster.slices=1,2")
	if _, err := s.Run(context.Background(), out, false); err != nil {
		t.Fatal(err)
	}
	_, err := testSweep(t).Run(context.Background(), out, true)
	if err == nil || !strings.Contains(err.Error(), "out.csv: --resume: its columns differ") {
		t.Errorf("resume over another sweep's file: %v", err)
	}
}

func TestWorkersDoNotChangeTheOutput(t *testing.T) {
	want := fullRun(t)
	s := testSweep(t)
	s.Workers = 3
	out := filepath.Join(t.TempDir(), "out.jsonl")
	if _, err := s.Run(context.Background(), out, false); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "3 workers, JSON lines", got, want)
}

func TestParseTraces(t *testing.T) {
	for _, tc := range []struct {
		arg   string
		sizes []int
		err   string
	}{
		{"a.cgltrace", []int{128}, ""},
		{"a.cgltrace@16", []int{16}, ""},
		{"a.cgltrace@128,256", []int{128, 256}, ""},
		{"a.cgltrace@0", nil, "size \"0\""},
		{"a.cgltrace@x", nil, "size \"x\""},
		{"a.cgltrace@64,64", nil, "64 given twice"},
		{"@64", nil, "want FILE"},
	} {
		ws, err := ParseTraces(tc.arg)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.arg, err, tc.err)
			}
			continue
		}
		var got []int
		for _, w := range ws {
			got = append(got, w.Width)
		}
		if err != nil || !slices.Equal(got, tc.sizes) {
			t.Errorf("%s: %v %v", tc.arg, got, err)
		}
	}
}

func TestMeshAndSceneRowsShardLikeOneRun(t *testing.T) {
	bench := filepath.Join("..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(bench, "lambert.vert")); err != nil {
		t.Skipf("../shared/data/bench absent: %v", err)
	}
	mk := func() *Sweep {
		return &Sweep{Base: config.Default(), Frames: 3, Loader: &Loader{BenchDir: bench},
			Axes:      mustAxes(t, "device.cores_per_socket=1,2"),
			Workloads: []Workload{{Kind: KindMesh, Name: "sphere", Width: 64, Height: 64}}}
	}
	dir := t.TempDir()
	one := filepath.Join(dir, "one.csv")
	if _, err := mk().Run(context.Background(), one, false); err != nil {
		t.Fatal(err)
	}
	want, _, err := ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	cell := func(r int, c string) string { return want.Rows[r][want.Col(c)] }
	if len(want.Rows) != 6 || cell(0, "triangles_in") == "" || cell(0, "fragments_shaded") == "0" || cell(0, "path") != "device" ||
		cell(0, "perf.tex_reads") != "0" || cell(0, "image_sha256") == cell(1, "image_sha256") {
		t.Errorf("mesh rows: %v", want.Rows)
	}
	// Frames 1 and 2 drawn without frame 0 before them are the same frames.
	var paths []string
	for i := 1; i <= 2; i++ {
		s := mk()
		s.Shard, s.Shards = i, 2
		p := filepath.Join(dir, "s"+itoa(i)+".csv")
		if _, err := s.Run(context.Background(), p, false); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got, _, err := Merge(paths)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "mesh shards", got, want)
}

// TestSceneAndMeshRowsHaveTheTraceCounters sweeps a trace, a mesh and a
// scene (a bare model, so render's PBR shader) and checks that the device
// rows of render fill every counter column a trace row fills, with the same
// meaning: the device's primitives are render's triangles after clip/cull
// and at most the triangles in, OM writes every written fragment, one
// doorbell per draw, CP cycles counted. Only the host triangle counts stay
// empty in the trace row.
func TestSceneAndMeshRowsHaveTheTraceCounters(t *testing.T) {
	traces := sharedTraces(t)
	bench := filepath.Join("..", "..", "shared", "data", "bench")
	if _, err := os.Stat(filepath.Join(bench, "bunny.obj")); err != nil {
		t.Skipf("../shared/data/bench absent: %v", err)
	}
	s := &Sweep{Base: config.Default(), Frames: 1, Loader: &Loader{BenchDir: bench},
		Axes: mustAxes(t, "raster.early_z=true,false"),
		Workloads: []Workload{
			{Kind: KindTrace, Name: filepath.Join(traces, "box.cgltrace"), Width: 64, Height: 64},
			{Kind: KindMesh, Name: "sphere", Width: 64, Height: 64},
			{Kind: KindScene, Name: filepath.Join(bench, "bunny.obj"), Width: 64, Height: 64},
		}}
	out := filepath.Join(t.TempDir(), "rows.csv")
	if _, err := s.Run(context.Background(), out, false); err != nil {
		t.Fatal(err)
	}
	tab, _, err := ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 6 {
		t.Fatalf("%d rows, want 6", len(tab.Rows))
	}
	cell := func(r int, c string) string { return tab.Rows[r][tab.Col(c)] }
	num := func(r int, c string) float64 {
		v, err := strconv.ParseFloat(cell(r, c), 64)
		if err != nil {
			t.Fatalf("row %d (%s) column %s: %v", r, cell(r, "workload"), c, err)
		}
		return v
	}
	for r := range tab.Rows {
		kind, _, _ := strings.Cut(cell(r, "workload"), ":")
		for _, c := range CounterColumns() {
			empty := cell(r, c) == ""
			if want := kind == "trace" && slices.Contains(renderColumns, c); empty != want {
				t.Errorf("row %d (%s): column %s = %q", r, kind, c, cell(r, c))
			}
		}
		if cell(r, "path") != "device" || num(r, "fragments_written") <= 0 || num(r, "cp_cycles") <= 0 ||
			num(r, "cp_doorbells") != num(r, "draws") || num(r, "cp_cmd_draw") < num(r, "draws") ||
			num(r, "perf.om_writes") != num(r, "fragments_written") || num(r, "fragments_shaded") < num(r, "fragments_written") ||
			num(r, "primitives") <= 0 || num(r, "perf.raster_reads") <= 0 {
			t.Errorf("row %d (%s) counters: %v", r, kind, tab.Rows[r])
		}
		// The RASTER walk's quads and waves are summed over a draw's kicks
		// (a draw split over several front-end passes, like the sphere's,
		// kicks once per pass), so every row shows them.
		if num(r, "quads") <= 0 || num(r, "waves") <= 0 || num(r, "fragments_shaded") > 4*num(r, "quads") {
			t.Errorf("row %d (%s): quads %s, waves %s", r, kind, cell(r, "quads"), cell(r, "waves"))
		}
		if kind != "trace" && (num(r, "primitives") > num(r, "triangles_in") || num(r, "primitives") != num(r, "triangles_visible") ||
			num(r, "front_end.triangles") != num(r, "triangles_in")) {
			t.Errorf("row %d (%s): primitives %s, front_end.triangles %s, triangles in %s, visible %s", r, kind,
				cell(r, "primitives"), cell(r, "front_end.triangles"), cell(r, "triangles_in"), cell(r, "triangles_visible"))
		}
	}
}
