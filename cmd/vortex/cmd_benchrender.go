package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"vortexgfx/render"
	"vortexgfx/scene"
)

// benchDataDir finds ../shared/data/bench beside the repository that holds the
// working directory (the directory with vortexgfx's go.mod).
func benchDataDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(data, []byte("module vortexgfx")) {
			b := filepath.Join(dir, "..", "shared", "data", "bench")
			if _, err := os.Stat(filepath.Join(b, "lambert.vert")); err != nil {
				return "", fmt.Errorf("bench data not found at %s; pass --shaders DIR", b)
			}
			return b, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("not inside the vortexgfx repository, so ../shared/data/bench cannot be located; pass --shaders DIR")
		}
		dir = up
	}
}

// benchResult is the --json line of `vortex bench render`.
type benchResult struct {
	MsPerFrame float64 `json:"ms_per_frame"`
	// CPUMsPerFrame is the process's CPU time (every goroutine, user and
	// system) over the timed frames divided by their number: the work a
	// frame costs, which a loaded machine inflates far less than the wall
	// time. Absent where the platform does not report CPU time.
	CPUMsPerFrame float64 `json:"cpu_ms_per_frame,omitempty"`
	Frames        int     `json:"frames"`
	Width         int     `json:"width"`
	Height        int     `json:"height"`
	Triangles     int     `json:"triangles"`
}

// benchRender renders the bench scene's frames 0..frames-1 and returns the
// median time of clear + draw + finish; loading, compilation and readback are
// not timed. profile starts what should watch the timed frames (a CPU
// profile, or nothing) and returns its stop. spec: bench README "llvmpipe on
// this machine class" (timing).
func benchRender(ctx context.Context, desc *scene.Description, opts render.Options, frames int, profile func() (func(), error)) (*render.Renderer, benchResult, error) {
	r, err := render.New(ctx, desc, opts)
	if err != nil {
		return nil, benchResult{}, err
	}
	stop, err := profile()
	if err != nil {
		return nil, benchResult{}, err
	}
	defer stop()
	times := make([]float64, 0, frames)
	cpu0, cpuOK := processCPU()
	for i := range frames {
		start := time.Now()
		if err := r.Draw(ctx, i); err != nil {
			return nil, benchResult{}, err
		}
		times = append(times, float64(time.Since(start).Nanoseconds())/1e6)
	}
	cpu1, _ := processCPU()
	slices.Sort(times)
	med := times[len(times)/2]
	if len(times)%2 == 0 {
		med = (times[len(times)/2-1] + times[len(times)/2]) / 2
	}
	w, h := r.Size()
	res := benchResult{MsPerFrame: med, Frames: frames, Width: w, Height: h, Triangles: r.Triangles()}
	if cpuOK {
		res.CPUMsPerFrame = float64(cpu1-cpu0) / 1e6 / float64(frames)
	}
	return r, res, nil
}

// runBenchRender implements `vortex bench render`. spec:
// ../shared/data/bench/README.md "The scene".
func runBenchRender(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex bench render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mesh := fs.String("mesh", "", "benchmark mesh: an OBJ `FILE`, bunny (the data's bunny.obj), sphere or grid")
	size := fs.String("size", "512x512", "image size `WxH`")
	frames := fs.Int("frames", 20, "frames `N` to time (frame i is rotated by 3i degrees)")
	path := fs.String("path", "reference", "renderer `device|reference` (device: the whole device model through the CP)")
	out := fs.String("o", "", "write the last frame to `PNG`")
	asJSON := fs.Bool("json", false, `print one line {"ms_per_frame":M,"cpu_ms_per_frame":C,"frames":N,"width":W,"height":H,"triangles":T}`)
	shaders := fs.String("shaders", "", "`DIR` holding lambert.vert and lambert.frag (default: ../shared/data/bench beside the repository)")
	workers := fs.Int("workers", 0, "host workers: the reference renderer's fragment workers, the device's bin walkers (default: the CPU count)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed frames to `FILE` for go tool pprof")
	cfgPath := fs.String("config", "", "device path: device configuration `FILE.toml` (its [device] cores = \"isa\" runs the vertex and fragment stages as machine code)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex bench render --mesh FILE|bunny|sphere|grid [--size WxH] [--frames N]")
		fmt.Fprintln(stderr, "       [--path device|reference] [-o last.png] [--json] [--shaders DIR]")
		fmt.Fprintln(stderr, "       [--workers N] [--cpuprofile FILE] [--config FILE.toml]")
		fmt.Fprintln(stderr, "Renders the benchmark scene of ../shared/data/bench/README.md and prints the median")
		fmt.Fprintln(stderr, "milliseconds per frame (clear + draw + finish; loading and compilation not timed).")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 || *mesh == "" {
		fs.Usage()
		return 2
	}
	w, h, err := parseSize(*size)
	if err != nil {
		fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
		return 2
	}
	if *frames < 1 {
		fmt.Fprintf(stderr, "vortex bench render: --frames %d: want at least 1\n", *frames)
		return 2
	}
	if *path != "reference" && *path != "device" {
		fmt.Fprintf(stderr, "vortex bench render: --path %q: want device or reference\n", *path)
		return 2
	}
	dir := *shaders
	if dir == "" {
		if dir, err = benchDataDir(); err != nil {
			fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
			return 1
		}
	}
	m := *mesh
	if m == "bunny" {
		m = filepath.Join(dir, "bunny.obj")
	}
	desc, err := scene.BenchDescription(m, dir, w, h)
	if err != nil {
		fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
		return 1
	}
	opts := render.Options{Path: render.Path(*path), Workers: *workers}
	if *cfgPath != "" {
		cfg, err := loadConfig(*cfgPath)
		if err != nil {
			fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
			return 2
		}
		opts.Config = &cfg
	}
	profile := func() (func(), error) { return startCPUProfile(*cpuProfile, "vortex bench render", stderr) }
	r, res, err := benchRender(context.Background(), desc, opts, *frames, profile)
	if err != nil {
		fmt.Fprintf(stderr, "vortex bench render: %s: %v\n", *mesh, err)
		return 1
	}
	if *out != "" {
		img, err := r.ReadImage()
		if err != nil {
			fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
			return 1
		}
		if err := writePNG(*out, img); err != nil {
			fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(res); err != nil {
			fmt.Fprintf(stderr, "vortex bench render: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "%s: %d triangles, %dx%d, %d frames on the %s path: median %.2f ms/frame",
		strings.TrimSuffix(filepath.Base(*mesh), ".obj"), res.Triangles, res.Width, res.Height, res.Frames, *path, res.MsPerFrame)
	if res.CPUMsPerFrame > 0 {
		fmt.Fprintf(stdout, " (CPU %.2f ms/frame)", res.CPUMsPerFrame)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "(llvmpipe at 512x512, bench README: bunny 1.5, sphere 23.7, grid 106 ms/frame)")
	return 0
}
