package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"vortexgfx/config"
	"vortexgfx/shadertest"
	"vortexgfx/shadertest/device"
	"vortexgfx/shadertest/reference"
)

// runShaderTest implements `vortex shadertest [--path reference|device]
// [--strict] [--compare] [--config FILE.toml] [-j N] [--json] [--baseline FILE]
// PATH...`: it runs
// piglit shader_test files (directories are walked for *.shader_test) and
// prints "pass|fail|skip PATH [reason]" per test and the closing "N passed,
// M failed, K skipped" line. On the device path it then prints (on stderr)
// how many draws ran on the device and how many were routed to the reference
// renderer by reason, how many passing tests ran entirely on the device and,
// with --compare, how many tests' windows differed from the reference
// renderer's. It exits 0 when no test failed, 1 when one did and 2 for usage
// errors. spec: README "vortex shadertest".
func runShaderTest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex shadertest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("path", "reference", "execution `path`: reference or device")
	strict := fs.Bool("strict", false, "device path: a draw the device cannot take fails its test, naming the reason (VORTEX_STRICT=1 too)")
	cmp := fs.Bool("compare", false, "device path: also run each test on the reference renderer and compare the windows at every read-back")
	jobs := fs.Int("j", 1, "run `N` tests at once")
	asJSON := fs.Bool("json", false, "write one JSON object per test and a summary object")
	timeout := fs.Duration("timeout", 2*time.Minute, "fail a test that runs longer than `d` (0: no limit)")
	baseline := fs.String("baseline", "", "compare with an llvmpipe baseline `file` (result<TAB>path lines) and print the agreement")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE` for go tool pprof")
	cfgPath := fs.String("config", "", "device path: device configuration `FILE.toml` (its [device] cores = \"isa\" runs compute tests as machine code)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex shadertest [--path reference|device] [--strict] [--compare] [--config FILE.toml] [-j N] [--json] [--baseline FILE] [--cpuprofile FILE] PATH...")
		fmt.Fprintln(stderr, "Runs piglit shader_runner tests (*.shader_test; directories are walked).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if os.Getenv("VORTEX_STRICT") == "1" {
		*strict = true
	}
	if *path != "device" && (*strict || *cmp || *cfgPath != "") {
		fmt.Fprintln(stderr, "vortex shadertest: --strict, --compare and --config need --path device")
		return 2
	}
	var devCfg *config.Config
	if *cfgPath != "" {
		c, err := config.Load(*cfgPath)
		if err != nil {
			fmt.Fprintf(stderr, "vortex shadertest: %v\n", err)
			return 2
		}
		devCfg = &c
	}
	var base shadertest.Baseline
	if *baseline != "" {
		b, err := shadertest.LoadBaseline(*baseline)
		if err != nil {
			fmt.Fprintf(stderr, "vortex shadertest: %v\n", err)
			return 2
		}
		base = b
	}
	stopProfile, err := startCPUProfile(*cpuProfile, "vortex shadertest", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vortex shadertest: %v\n", err)
		return 2
	}
	defer stopProfile()
	opts := shadertest.Options{Jobs: *jobs, JSON: *asJSON, Timeout: *timeout}
	var sum shadertest.Summary
	switch *path {
	case "reference":
		sum, err = shadertest.Run(context.Background(), fs.Args(), reference.New(), opts, stdout)
	case "device":
		be := device.New(device.Options{Strict: *strict, Compare: *cmp, Config: devCfg})
		var recs []device.Record
		sum, recs, err = runDeviceTests(context.Background(), fs.Args(), be, opts, stdout)
		if err == nil {
			writeDeviceSummary(stderr, sum, recs, *cmp)
		}
	default:
		fmt.Fprintf(stderr, "vortex shadertest: --path must be reference or device, not %q\n", *path)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "vortex shadertest: %v\n", err)
		return 2
	}
	if base != nil {
		fmt.Fprintln(stderr, shadertest.CompareBaseline(base, sum.Results).String())
	}
	if sum.Failed > 0 {
		return 1
	}
	return 0
}

// runDeviceTests runs each test as its own shadertest.Run over one file with
// a device back end of its own, so each result comes with what its draws did,
// and writes the result lines in path order (whatever opts.Jobs is) and the
// closing line, as shadertest.Run does.
func runDeviceTests(ctx context.Context, paths []string, be *device.Backend, opts shadertest.Options, out io.Writer) (shadertest.Summary, []device.Record, error) {
	var sum shadertest.Summary
	files, err := shadertest.Collect(paths)
	if err != nil {
		return sum, nil, err
	}
	type done struct {
		line []byte
		res  shadertest.Result
		err  error
	}
	recs := make([]device.Record, len(files))
	results := make([]chan done, len(files))
	for i := range results {
		results[i] = make(chan done, 1)
	}
	work := make(chan int)
	one := opts
	one.Jobs = 1
	for range min(max(opts.Jobs, 1), max(len(files), 1)) {
		go func() {
			for i := range work {
				var buf bytes.Buffer
				s, err := shadertest.Run(ctx, files[i:i+1], be.Test(&recs[i]), one, &buf)
				d := done{err: err}
				if err == nil && len(s.Results) == 1 {
					d.res = s.Results[0]
					// The test's line; the one-test summary after it is dropped.
					d.line, _ = bufio.NewReader(&buf).ReadBytes('\n')
				} else if err == nil {
					d.err = fmt.Errorf("%s: %d results", files[i], len(s.Results))
				}
				results[i] <- d
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range files {
			work <- i
		}
	}()
	for i := range files {
		d := <-results[i]
		if d.err != nil {
			// Drain the workers before returning.
			for j := i + 1; j < len(files); j++ {
				<-results[j]
			}
			return sum, nil, d.err
		}
		switch d.res.Status {
		case shadertest.Pass:
			sum.Passed++
		case shadertest.Fail:
			sum.Failed++
		default:
			sum.Skipped++
		}
		sum.Results = append(sum.Results, d.res)
		if _, err := out.Write(d.line); err != nil {
			return sum, nil, err
		}
	}
	if opts.JSON {
		err = json.NewEncoder(out).Encode(struct {
			Summary shadertest.Summary `json:"summary"`
		}{sum})
	} else {
		_, err = fmt.Fprintln(out, sum.Line())
	}
	return sum, recs, err
}

// writeDeviceSummary prints where the draws ran: device draws and routed
// draws by reason, the passing tests that ran entirely on the device, and
// with compare the tests whose windows differed from the reference
// renderer's.
func writeDeviceSummary(w io.Writer, sum shadertest.Summary, recs []device.Record, cmp bool) {
	var total device.Record
	onDevice, passOnDevice, drew, differing, diffPixels := 0, 0, 0, 0, 0
	for i := range recs {
		r := &recs[i]
		total.DeviceDraws += r.DeviceDraws
		total.SWTex += r.SWTex
		total.SWOM += r.SWOM
		total.SWRaster += r.SWRaster
		total.VSISA += r.VSISA
		total.VSIR += r.VSIR
		for k, v := range r.VSWhy {
			if total.VSWhy == nil {
				total.VSWhy = map[string]int{}
			}
			total.VSWhy[k] += v
		}
		total.FSISA += r.FSISA
		total.FSIR += r.FSIR
		total.ISA = total.ISA.Add(r.ISA)
		for k, v := range r.FSWhy {
			if total.FSWhy == nil {
				total.FSWhy = map[string]int{}
			}
			total.FSWhy[k] += v
		}
		for k, v := range r.Routed {
			if total.Routed == nil {
				total.Routed = map[string]int{}
			}
			total.Routed[k] += v
		}
		if r.DeviceDraws+r.RoutedDraws() > 0 {
			drew++
		}
		if r.OnDevice() {
			onDevice++
			if i < len(sum.Results) && sum.Results[i].Status == shadertest.Pass {
				passOnDevice++
			}
		}
		if r.DiffPixels > 0 {
			differing++
			diffPixels += r.DiffPixels
		}
		total.Compared += r.Compared
		total.MaxDiff = max(total.MaxDiff, r.MaxDiff)
	}
	fmt.Fprintf(w, "device: %s\n", strings.SplitN(total.String(), ":", 2)[0])
	for _, k := range total.Reasons() {
		fmt.Fprintf(w, "device: routed %6d× %s\n", total.Routed[k], k)
	}
	if total.VSISA+total.VSIR+total.FSISA+total.FSIR > 0 { // cores = "isa"
		fmt.Fprintf(w, "device: vertex stage as machine code in %d draws, on the IR executor in %d; fragment stage as machine code in %d draws, on the IR executor in %d\n",
			total.VSISA, total.VSIR, total.FSISA, total.FSIR)
		for _, k := range slices.Sorted(maps.Keys(total.VSWhy)) {
			fmt.Fprintf(w, "device: vs on the IR executor %6d× %s\n", total.VSWhy[k], k)
		}
		for _, k := range slices.Sorted(maps.Keys(total.FSWhy)) {
			fmt.Fprintf(w, "device: fs on the IR executor %6d× %s\n", total.FSWhy[k], k)
		}
		if is := total.ISA; is != nil {
			fmt.Fprintf(w, "device: machine code executed: vs %d warp-instructions (%d thread-instructions), fs %d warp-instructions (%d thread-instructions)\n",
				is.VSWarpInstructions, is.VSThreadInstructions, is.FSWarpInstructions, is.FSThreadInstructions)
		}
	}
	fmt.Fprintf(w, "device: %d of %d tests that drew ran entirely on the device; %d of %d passing tests did\n",
		onDevice, drew, passOnDevice, sum.Passed)
	if cmp {
		fmt.Fprintf(w, "device: compare with the reference renderer: %d tests differ (%d pixels at their worst read-backs, largest channel difference %d) over %d read-backs\n",
			differing, diffPixels, total.MaxDiff, total.Compared)
		for i := range recs {
			if recs[i].DiffPixels > 0 && i < len(sum.Results) {
				fmt.Fprintf(w, "device: differs %s: %d pixels, largest channel difference %d\n", sum.Results[i].Path, recs[i].DiffPixels, recs[i].MaxDiff)
			}
		}
	}
}
