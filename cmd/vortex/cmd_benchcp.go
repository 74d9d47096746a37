package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"vortexgfx/abi"
	"vortexgfx/config"
)

// cpCost is the ring traffic and CP time of one submission.
type cpCost struct {
	Commands  uint64 `json:"commands"`
	Doorbells uint64 `json:"doorbells"`
	Cycles    uint64 `json:"cycles"`
}

// cpBench is one flavour's result.
type cpBench struct {
	Launch            cpCost  `json:"launch"`
	Draw              cpCost  `json:"draw"`
	LaunchesPerSecond float64 `json:"launches_per_second"`
}

// measure runs one submission and returns its commands, doorbells and the CP_CYCLE
// advance it caused.
func measure(r *cpRig, run func() error) (cpCost, error) {
	s0 := r.dev.Stats()
	c0, err := r.dev.CPCycle()
	if err != nil {
		return cpCost{}, err
	}
	if err := run(); err != nil {
		return cpCost{}, err
	}
	c1, err := r.dev.CPCycle()
	if err != nil {
		return cpCost{}, err
	}
	s1 := r.dev.Stats()
	return cpCost{Commands: s1.Commands - s0.Commands, Doorbells: s1.Doorbells - s0.Doorbells, Cycles: c1 - c0}, nil
}

// benchFlavor measures one CP flavour: one kernel launch, one draw of the front
// end's shape, and host-side launches per second over minDur of back-to-back
// launches (each waited for, as a synchronous launch loop would).
func benchFlavor(cfg config.Config, flavor string, minDur time.Duration) (cpBench, error) {
	var b cpBench
	cfg.CP.Flavor = flavor
	if err := cfg.Validate(); err != nil {
		return b, err
	}
	r, err := openRig(cfg, nil)
	if err != nil {
		return b, err
	}
	defer r.close()
	q := r.dev.DefaultQueue()
	launch := func() error { return q.EnqueueLaunch(r.kern["vecadd"], r.launchParams()).Wait() }
	if err := launch(); err != nil { // warm-up
		return b, fmt.Errorf("launch: %w", err)
	}
	if b.Launch, err = measure(r, launch); err != nil {
		return b, fmt.Errorf("launch: %w", err)
	}
	steps := r.drawSteps()
	if b.Draw, err = measure(r, func() error { return q.EnqueueDraw(steps).Wait() }); err != nil {
		return b, fmt.Errorf("draw: %w", err)
	}
	start := time.Now()
	n := 0
	for time.Since(start) < minDur || n < 10 {
		if err := launch(); err != nil {
			return b, fmt.Errorf("launch loop: %w", err)
		}
		n++
	}
	b.LaunchesPerSecond = float64(n) / time.Since(start).Seconds()
	return b, nil
}

func runBenchCP(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex bench cp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	cfgPath := fs.String("config", "", "device configuration `FILE.toml` (default: built-in defaults)")
	dur := fs.Duration("time", time.Second, "how long to run the launches-per-second loop per flavour")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex bench cp [--json] [--config FILE.toml] [--time 1s]")
		fmt.Fprintln(stderr, "Per CP flavour: ring commands, doorbells and CP cycles of one kernel launch and of one")
		fmt.Fprintln(stderr, "draw of the front end's shape, and host-side launches per second.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "vortex bench cp: %v\n", err)
		return 1
	}
	cfg.CP.VM = false // the rtl flavour has no VM; the bench compares like with like
	res := map[string]cpBench{}
	for _, f := range []abi.Flavor{abi.FlavorEmu, abi.FlavorRTL} {
		b, err := benchFlavor(cfg, f.String(), *dur)
		if err != nil {
			fmt.Fprintf(stderr, "vortex bench cp: %s: %v\n", f, err)
			return 1
		}
		res[f.String()] = b
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(stderr, "vortex bench cp: %v\n", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "%-4s %-7s %9s %10s %8s\n", "cp", "work", "commands", "doorbells", "cycles")
	for _, f := range []string{"emu", "rtl"} {
		b := res[f]
		for _, w := range []struct {
			name string
			c    cpCost
		}{{"launch", b.Launch}, {"draw", b.Draw}} {
			fmt.Fprintf(stdout, "%-4s %-7s %9d %10d %8d\n", f, w.name, w.c.Commands, w.c.Doorbells, w.c.Cycles)
		}
		fmt.Fprintf(stdout, "%-4s launches/s %.0f\n", f, b.LaunchesPerSecond)
	}
	fmt.Fprintln(stdout, "(the public runtime: 22 commands and 22 doorbells per launch, command-processor §9)")
	return 0
}
