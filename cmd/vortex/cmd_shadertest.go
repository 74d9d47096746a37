package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// runShaderTest implements `vortex shadertest [--path reference|device] [-j N]
// [--json] PATH...`: it runs piglit shader_test files (directories are walked
// for *.shader_test) and prints "pass|fail|skip PATH [reason]" per test and
// the closing "N passed, M failed, K skipped" line. It exits 0 when no test
// failed, 1 when one did and 2 for usage errors. The device path does not
// exist yet: asking for it is a usage error that says so. spec: issue 5
// "The shader test runner".
func runShaderTest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex shadertest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("path", "reference", "execution `path`: reference (device is not available yet)")
	jobs := fs.Int("j", 1, "run `N` tests at once")
	asJSON := fs.Bool("json", false, "write one JSON object per test and a summary object")
	timeout := fs.Duration("timeout", 2*time.Minute, "fail a test that runs longer than `d` (0: no limit)")
	baseline := fs.String("baseline", "", "compare with an llvmpipe baseline `file` (result<TAB>path lines) and print the agreement")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex shadertest [--path reference|device] [-j N] [--json] PATH...")
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
	var backend shadertest.Backend
	switch *path {
	case "reference":
		backend = reference.New()
	case "device":
		fmt.Fprintln(stderr, "vortex shadertest: --path device is not available yet (no device back end); use --path reference")
		return 2
	default:
		fmt.Fprintf(stderr, "vortex shadertest: --path must be reference or device, not %q\n", *path)
		return 2
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
	sum, err := shadertest.Run(context.Background(), fs.Args(), backend,
		shadertest.Options{Jobs: *jobs, JSON: *asJSON, Timeout: *timeout}, stdout)
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
