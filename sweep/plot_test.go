package sweep

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// decodePNG fails t unless path is a decodable PNG at least minSize square.
func decodePNG(t *testing.T, path string, minSize int) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < minSize || b.Dy() < minSize {
		t.Errorf("%s: %v", path, b)
	}
}

func TestPlotWritesPNG(t *testing.T) {
	tab := fullRun(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		o    PlotOptions
		note bool
	}{
		{"line by cores", PlotOptions{Y: "cp_cycles", X: "raster.slices", By: "device.cores_per_socket",
			Where: []string{"width=128", "raster.early_z=true"}}, true},
		{"bars of a categorical x", PlotOptions{Y: "perf.om_writes", X: "workload", By: "raster.early_z"}, true},
		{"forced bars, no series", PlotOptions{Y: "wall_ms", X: "raster.slices", Bar: true}, true},
		{"one row per point", PlotOptions{Y: "quads", X: "raster.slices", By: "device.cores_per_socket",
			Where: []string{"width=128", "raster.early_z=true", "workload=" + tab.Rows[0][tab.Col(ColWorkload)]}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".png")
			note, err := Plot(tab, tc.o, out)
			if err != nil {
				t.Fatal(err)
			}
			if (note != "") != tc.note {
				t.Errorf("note %q", note)
			}
			decodePNG(t, out, 100)
		})
	}
	for _, tc := range []struct {
		o    PlotOptions
		want string
	}{
		{PlotOptions{Y: "nope", X: "raster.slices"}, "--y nope: no such column"},
		{PlotOptions{Y: "workload", X: "raster.slices"}, "is not a number"},
		{PlotOptions{Y: "quads", X: "raster.slices", Where: []string{"width=7"}}, "no rows to plot"},
		{PlotOptions{Y: "quads", X: "raster.slices", Where: []string{"width"}}, "want COLUMN=VALUE"},
	} {
		if _, err := Plot(tab, tc.o, filepath.Join(dir, "x.png")); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	if _, err := Plot(tab, PlotOptions{Y: "quads", X: "raster.slices"}, filepath.Join(dir, "x.svg")); err == nil {
		t.Error("a .svg output: no error")
	}
}

func TestGridOfImages(t *testing.T) {
	s := testSweep(t)
	dir := t.TempDir()
	s.Axes = s.Axes[:1]
	s.Workloads = s.Workloads[:2]
	s.ImagesDir = filepath.Join(dir, "images")
	out := filepath.Join(dir, "out.csv")
	if _, err := s.Run(context.Background(), out, false); err != nil {
		t.Fatal(err)
	}
	tab, _, err := ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		decodePNG(t, filepath.Join(s.ImagesDir, ImageName(mustAtoi(t, r[0]))), 32)
	}
	grid := filepath.Join(dir, "grid.png")
	if _, err := Grid(tab, s.ImagesDir, PlotOptions{X: "raster.slices", By: "width"}, grid); err != nil {
		t.Fatal(err)
	}
	decodePNG(t, grid, 100)
	if _, err := Grid(tab, filepath.Join(dir, "none"), PlotOptions{X: "raster.slices"}, grid); err == nil || !strings.Contains(err.Error(), "--images") {
		t.Errorf("grid without images: %v", err)
	}
}

func TestJSONLinesRoundTrip(t *testing.T) {
	tab := &Table{Header: []string{"row", "cp.flavor", "raster.early_z", "workload", "occupancy", "triangles_in", "image_sha256"},
		Rows: [][]string{{"0", "rtl", "true", "trace:a", "0.5", "", "0123"}, {"1", "emu", "false", "mesh:1", "1e-05", "7", "99"}}}
	out := filepath.Join(t.TempDir(), "t.jsonl")
	if err := WriteFile(out, tab); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), `"raster.early_z":true`) || !strings.Contains(string(data), `"triangles_in":null`) ||
		!strings.Contains(string(data), `"image_sha256":"99"`) {
		t.Errorf("JSON lines:\n%s", data)
	}
	back, _, err := ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "round trip", back, tab)
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
