package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"vortexgfx/sweep"
)

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, " ") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// parseShard parses --shard I/N.
func parseShard(s string) (int, int, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: want I/N with 1 <= I <= N, e.g. 2/4", s)
	}
	return i, n, nil
}

// runSweep implements `vortex sweep` (README "vortex sweep").
func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "base configuration `BASE.toml` (default: the built-in configuration)")
	var axes stringList
	fs.Var(&axes, "axis", "swept configuration key `KEY=V1,V2,...` (KEY as the TOML spells it; repeatable)")
	// The workload flags append to one list so the workloads keep their
	// command-line order, which is the rows' order.
	var workloads []sweep.Workload
	var werr error
	addWorkload := func(f func(string) ([]sweep.Workload, error)) func(string) error {
		return func(s string) error {
			ws, err := f(s)
			if err != nil {
				if werr == nil {
					werr = err
				}
				return nil
			}
			workloads = append(workloads, ws...)
			return nil
		}
	}
	var size string
	var sized []int // indices of scene and mesh workloads, sized after parsing
	fs.Func("trace", "CGLTrace workload `FILE.cgltrace[@SIZE,SIZE...]` (default size 128; repeatable)", addWorkload(sweep.ParseTraces))
	fs.Func("scene", "scene workload `FILE` (a vortex render scene .json, or a model; repeatable)", addWorkload(func(s string) ([]sweep.Workload, error) {
		sized = append(sized, len(workloads))
		return []sweep.Workload{{Kind: sweep.KindScene, Name: s}}, nil
	}))
	fs.Func("mesh", "benchmark mesh workload `bunny|sphere|grid|FILE` (the vortex bench render scene; repeatable)", addWorkload(func(s string) ([]sweep.Workload, error) {
		sized = append(sized, len(workloads))
		return []sweep.Workload{{Kind: sweep.KindMesh, Name: s}}, nil
	}))
	fs.StringVar(&size, "size", "128x128", "scene and mesh size `WxH`")
	frames := fs.Int("frames", 1, "frames `N` per workload (a scene's or mesh's frame i as render draws it; a trace is replayed N times)")
	shard := fs.String("shard", "", "run only shard `I/N`: the rows whose index mod N is I-1")
	resume := fs.Bool("resume", false, "keep the rows OUT already holds (by configuration, workload, size and frame) and append the rest")
	out := fs.String("o", "", "output `OUT.csv` (or OUT.jsonl for JSON lines)")
	images := fs.String("images", "", "write each row's image to `DIR`/row-NNNNNN.png (for vortex sweep plot --grid)")
	shaders := fs.String("shaders", "", "`DIR` holding the bench shaders and bunny.obj (default: ../shared/data/bench beside the repository)")
	jobs := fs.Int("j", 1, "render `N` (configuration, workload) groups at once; the output is the same for any N")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex sweep [--config BASE.toml] [--axis KEY=V1,V2,...]... [--trace FILE.cgltrace[@SIZE,SIZE...]]...")
		fmt.Fprintln(stderr, "       [--scene FILE]... [--mesh bunny|sphere|grid|FILE]... [--size WxH] [--frames N] [--shard I/N]")
		fmt.Fprintln(stderr, "       [--resume] [--images DIR] [-j N] -o OUT.csv|OUT.jsonl")
		fmt.Fprintln(stderr, "       vortex sweep merge -o OUT.csv SHARD.csv...")
		fmt.Fprintln(stderr, "       vortex sweep plot OUT.csv --y COLUMN --x AXIS [--by AXIS] [--where COL=VALUE]... [--bar] [--grid --images DIR] -o CHART.png")
		fmt.Fprintln(stderr, "Runs every configuration (BASE × the axes) on every workload on the device model and writes one row")
		fmt.Fprintln(stderr, "per (configuration, workload, frame) with every counter, wall_ms and image_sha256.")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 || *out == "" {
		fs.Usage()
		return 2
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "vortex sweep: %v\n", err)
		return code
	}
	if werr != nil {
		return fail(2, werr)
	}
	w, h, err := parseSize(size)
	if err != nil {
		return fail(2, err)
	}
	for _, i := range sized {
		workloads[i].Width, workloads[i].Height = w, h
	}
	s := &sweep.Sweep{Workloads: workloads, Frames: *frames, Workers: *jobs, ImagesDir: *images, Loader: &sweep.Loader{}}
	if *jobs < 1 {
		return fail(2, fmt.Errorf("-j %d: want at least 1", *jobs))
	}
	if *shard != "" {
		if s.Shard, s.Shards, err = parseShard(*shard); err != nil {
			return fail(2, err)
		}
	}
	for _, a := range axes {
		ax, err := sweep.ParseAxis(a)
		if err != nil {
			return fail(2, err)
		}
		s.Axes = append(s.Axes, ax)
	}
	if s.Base, err = loadConfig(*cfgPath); err != nil {
		return fail(1, err)
	}
	if _, err := sweep.FormatOf(*out); err != nil {
		return fail(2, err)
	}
	plan, err := s.Plan()
	if err != nil {
		return fail(2, err)
	}
	for _, wl := range workloads {
		if wl.Kind == sweep.KindMesh {
			dir := *shaders
			if dir == "" {
				if dir, err = benchDataDir(); err != nil {
					return fail(1, err)
				}
			}
			s.Loader.BenchDir = dir
			break
		}
	}
	t0 := time.Now()
	sum, err := s.Run(context.Background(), *out, *resume)
	if err != nil {
		return fail(1, err)
	}
	shardNote := ""
	if s.Shards > 1 {
		shardNote = fmt.Sprintf(", shard %d/%d: %d", s.Shard, s.Shards, sum.Selected)
	}
	resumeNote := ""
	if *resume {
		resumeNote = fmt.Sprintf(", %d already in %s", sum.Present, *out)
	}
	fmt.Fprintf(stdout, "%d configurations × %d workloads × %d frames = %d rows%s%s; wrote %d rows to %s in %.2f s\n",
		len(plan.Configs), len(workloads), *frames, sum.Planned, shardNote, resumeNote, sum.Written, *out, time.Since(t0).Seconds())
	return 0
}

// runSweepMerge implements `vortex sweep merge`.
func runSweepMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex sweep merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "merged output `OUT.csv` (or .jsonl)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex sweep merge -o OUT.csv SHARD.csv...")
		fmt.Fprintln(stderr, "Combines shard outputs into the file one process would have written (row order by the row column).")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 || *out == "" {
		fs.Usage()
		return 2
	}
	t, missing, err := sweep.Merge(pos)
	if err == nil {
		err = sweep.WriteFile(*out, t)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vortex sweep merge: %v\n", err)
		return 1
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "vortex sweep merge: warning: %d rows missing (first: row %d); is a shard absent?\n", len(missing), missing[0])
	}
	fmt.Fprintf(stdout, "merged %d rows from %d files into %s\n", len(t.Rows), len(pos), *out)
	return 0
}

// runSweepPlot implements `vortex sweep plot`.
func runSweepPlot(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex sweep plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o sweep.PlotOptions
	var where stringList
	fs.StringVar(&o.Y, "y", "", "charted `COLUMN` (numeric)")
	fs.StringVar(&o.X, "x", "", "x-axis `AXIS` (any column, usually an axis key)")
	fs.StringVar(&o.By, "by", "", "series `AXIS`: one line or bar colour per value")
	fs.Var(&where, "where", "keep only rows with `COL=VALUE` (repeatable)")
	fs.BoolVar(&o.Bar, "bar", false, "grouped bars even for a numeric x")
	grid := fs.Bool("grid", false, "draw a grid of the rows' images (x across, --by down) instead of a chart; needs --images")
	images := fs.String("images", "", "`DIR` the sweep wrote with --images")
	out := fs.String("o", "", "output `CHART.png`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex sweep plot OUT.csv --y COLUMN --x AXIS [--by AXIS] [--where COL=VALUE]... [--bar] -o CHART.png")
		fmt.Fprintln(stderr, "       vortex sweep plot OUT.csv --grid --images DIR --x AXIS [--by AXIS] [--where COL=VALUE]... -o GRID.png")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *out == "" || o.X == "" || (!*grid && o.Y == "") || (*grid && *images == "") {
		fs.Usage()
		return 2
	}
	o.Where = where
	t, _, err := sweep.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "vortex sweep plot: %v\n", err)
		return 1
	}
	var note string
	if *grid {
		note, err = sweep.Grid(t, *images, o, *out)
	} else {
		note, err = sweep.Plot(t, o, *out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vortex sweep plot: %s: %v\n", pos[0], err)
		return 1
	}
	if note != "" {
		fmt.Fprintf(stderr, "vortex sweep plot: note: %s\n", note)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return 0
}
