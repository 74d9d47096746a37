package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	slurmTasks := fs.Int("slurm", 0, "instead of running, write a Slurm job array of `N` shard tasks and a merge job into --slurm-dir (see submit.sh there)")
	slurmDir := fs.String("slurm-dir", "", "`DIR` for the Slurm scripts, shard outputs and logs (default OUT.slurm)")
	partition := fs.String("partition", "", "Slurm `PARTITION` for the jobs (default: the cluster's)")
	timeLimit := fs.String("time", "", "Slurm time limit `HH:MM:SS` per task (default: the partition's)")
	mem := fs.String("mem", "", "Slurm memory `M` per task, e.g. 4G (default: the partition's)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex sweep [--config BASE.toml] [--axis KEY=V1,V2,...]... [--trace FILE.cgltrace[@SIZE,SIZE...]]...")
		fmt.Fprintln(stderr, "       [--scene FILE]... [--mesh bunny|sphere|grid|FILE]... [--size WxH] [--frames N] [--shard I/N]")
		fmt.Fprintln(stderr, "       [--resume] [--images DIR] [-j N] -o OUT.csv|OUT.jsonl")
		fmt.Fprintln(stderr, "       vortex sweep --slurm N [--slurm-dir DIR] [--partition P] [--time HH:MM:SS] [--mem M] [sweep flags...] -o OUT.csv")
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
	slurmSet := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "slurm", "slurm-dir", "partition", "time", "mem":
			slurmSet = true
		}
	})
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
	// After the bench data lookup, so a sweep the tasks could not run fails
	// here rather than on the cluster.
	if slurmSet {
		return writeSlurm(fs, args, plan, *slurmTasks, *slurmDir, *out, *partition, *timeLimit, *mem, *jobs, stdout, stderr)
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

// writeSlurm implements --slurm: it checks the sweep here (plan already
// made, so a bad axis fails now rather than in every array task) and writes
// the job scripts. plan is the whole sweep's.
func writeSlurm(fs *flag.FlagSet, args []string, plan *sweep.Plan, tasks int, dir, out, partition, timeLimit, mem string, jobs int, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "vortex sweep: %v\n", err)
		return code
	}
	if tasks < 1 {
		return fail(2, fmt.Errorf("--slurm %d: want the number of array tasks, at least 1 (the Slurm flags need --slurm N)", tasks))
	}
	if fs.Lookup("shard").Value.String() != "" {
		return fail(2, fmt.Errorf("--shard with --slurm: each array task picks its own shard"))
	}
	if rows := len(plan.Rows); tasks > rows {
		return fail(2, fmt.Errorf("--slurm %d: the sweep has only %d rows, so some tasks would have none", tasks, rows))
	}
	bin, err := vortexBinary()
	if err != nil {
		return fail(1, err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fail(1, err)
	}
	if dir == "" {
		dir = strings.TrimSuffix(out, filepath.Ext(out)) + ".slurm"
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	j := &sweep.Slurm{Tasks: tasks, Binary: bin, Args: slurmTaskArgs(fs, args), WorkDir: wd, Dir: abs(dir), Out: abs(out),
		Partition: partition, Time: timeLimit, Mem: mem, CPUs: jobs}
	stale := j.StaleShards()
	paths, err := j.Write()
	if err != nil {
		return fail(2, err)
	}
	fmt.Fprintf(stdout, "%d rows in %d array tasks (%d to %d rows each); wrote %s\n", len(plan.Rows), tasks,
		len(plan.Rows)/tasks, (len(plan.Rows)+tasks-1)/tasks, strings.Join(paths, ", "))
	if len(stale) > 0 {
		fmt.Fprintf(stdout, "note: %s already holds %d shard outputs; the tasks resume them (delete them for a fresh run)\n", j.Dir, len(stale))
	}
	fmt.Fprintf(stdout, "submit: sh %s\n", sweep.ShellQuote(filepath.Join(j.Dir, sweep.SlurmSubmit)))
	fmt.Fprintf(stdout, "the merge job writes %s when every task has succeeded\n", j.Out)
	return 0
}

// slurmTaskArgs is args without -o, --shard and the Slurm flags (and their
// values), in their order: the workload flags' order is the rows' order, so
// the tasks must see the same sequence. fs has parsed args, so every flag is
// known and a value-taking flag's value is the next argument unless it came
// as -flag=value.
func slurmTaskArgs(fs *flag.FlagSet, args []string) []string {
	drop := map[string]bool{"o": true, "shard": true, "resume": true, "slurm": true, "slurm-dir": true, "partition": true, "time": true, "mem": true}
	var keep []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			// No positional arguments reach here (runSweep refuses them).
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		n := 1
		if f := fs.Lookup(name); f != nil && !hasValue {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				n = 2
			}
		}
		n = min(n, len(args)-i)
		if !drop[name] {
			keep = append(keep, args[i:i+n]...)
		}
		i += n - 1
	}
	return keep
}

// vortexExecutable is the running binary's absolute path, symlinks resolved
// so the tasks run this build even if a link is repointed. A `go run` build
// is refused: its temporary binary is deleted when it exits, long before the
// jobs start.
func vortexExecutable() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot locate the vortex executable for the job scripts: %v", err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if strings.Contains(p, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("%s is a temporary `go run` build, deleted when it exits; build vortex (go build -o vortex ./cmd/vortex) and run that", p)
	}
	return p, nil
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

// vortexBinary locates the binary the job scripts run; a variable so the
// tests, whose binary is a go-build temporary, can name one.
var vortexBinary = vortexExecutable
