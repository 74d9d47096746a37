package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"sync"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/cp"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

// cpRig is a simulated device opened through the runtime, with the test kernels
// loaded, for the CP tools.
type cpRig struct {
	sim  *sim.Sim
	dev  *runtime.Device
	kern map[string]*runtime.Kernel
	// Vector-add buffers of the launch workload.
	a, b, c *runtime.Buffer
	n       uint32
}

// emptyFrame answers the grid-less raster kick of the draw workload. The workload
// programs RASTER_TILE_COUNT = 0 and FRAG_ENTRY = 0, so the frame has no bins and
// no fragment shader: an engine with an empty stripe drains at once (rasterizer §5).
// Any other frame is refused: these tools run without the RASTER engine.
func emptyFrame(_ context.Context, d *device.Device, _ device.FrameKick) (uint64, error) {
	if n := d.State().Raster.Reg(abi.DCRRasterTileCount); n != 0 {
		return 0, fmt.Errorf("frame with %d bins: the CP tools run without the RASTER engine", n)
	}
	return 0, nil
}

func openRig(cfg config.Config, trace func(cp.TraceEvent)) (*cpRig, error) {
	lib := device.NewLibrary()
	if err := device.RegisterTestKernels(lib); err != nil {
		return nil, err
	}
	s, err := sim.Open(cfg, lib, sim.Options{Trace: trace})
	if err != nil {
		return nil, err
	}
	s.GPU.SetFrameKick(emptyFrame)
	dev, err := runtime.Open(s)
	if err != nil {
		s.Close()
		return nil, err
	}
	r := &cpRig{sim: s, dev: dev, kern: map[string]*runtime.Kernel{}, n: 256}
	fail := func(err error) (*cpRig, error) {
		dev.Close()
		return nil, err
	}
	img, err := device.TestKernelImage()
	if err != nil {
		return fail(err)
	}
	mod, err := dev.LoadModule(img)
	if err != nil {
		return fail(err)
	}
	for _, name := range []string{"vecadd", "noop"} {
		if r.kern[name], err = mod.Kernel(name); err != nil {
			return fail(err)
		}
	}
	bytes := uint64(4 * r.n)
	for _, p := range []**runtime.Buffer{&r.a, &r.b, &r.c} {
		if *p, err = dev.Alloc(bytes); err != nil {
			return fail(err)
		}
	}
	return r, nil
}

func slots(v ...uint64) []byte {
	b := make([]byte, 8*len(v))
	for i, s := range v {
		binary.LittleEndian.PutUint64(b[8*i:], s)
	}
	return b
}

// launchParams is the launch workload: vector add of n words, 64-thread CTAs.
func (r *cpRig) launchParams() runtime.LaunchParams {
	return runtime.LaunchParams{NDim: 1, Grid: [3]uint32{(r.n + 63) / 64}, Block: [3]uint32{64},
		Args: slots(r.a.Addr(), r.b.Addr(), r.c.Addr(), uint64(r.n))}
}

// drawSteps is a draw of the real front end's shape (vortexpipe §3, rasterizer §3.1,
// vortex-hardware-facts §1.4): the vertex stage, expand_k, setup_k's three stages and
// binning_k's six as separate launches (the test kernel "noop" stands for each), the
// TEX, OM and RASTER state as DCR writes, then the grid-less raster kick.
func (r *cpRig) drawSteps() []runtime.DrawStep {
	noop := r.kern["noop"]
	var steps []runtime.DrawStep
	for _, grid := range []uint32{4, 4, 4, 1, 4, 4, 1, 4, 1, 1, 4} { // VS, expand, SETUP/SCAN/EMIT, BCOUNT..BSCATTER
		steps = append(steps, runtime.LaunchStep(noop, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{grid}, Block: [3]uint32{64}}))
	}
	for d := abi.DCRTexStage; d <= abi.DCRTexMipOff0; d++ {
		steps = append(steps, runtime.DCRStep(d, 0))
	}
	for d := abi.DCROMCBufAddr; d <= abi.DCROMEarlyZSafe; d++ {
		steps = append(steps, runtime.DCRStep(d, 0))
	}
	for d := abi.DCRRasterFirst; d < abi.DCRRasterEnd; d++ {
		steps = append(steps, runtime.DCRStep(d, 0)) // TILE_COUNT 0, FRAG_ENTRY 0: an empty frame
	}
	threads := uint32(r.dev.Caps().GPU.NumThreads() * r.dev.Caps().GPU.NumWarps())
	return append(steps, runtime.LaunchStep(nil, runtime.LaunchParams{NDim: 1, Grid: [3]uint32{0}, Block: [3]uint32{threads}}))
}

func (r *cpRig) close() { r.dev.Close() }

func formatCmd(c abi.Command) string {
	a := c.Args
	switch c.Op {
	case abi.OpMemWrite, abi.OpMemRead, abi.OpMemCopy:
		return fmt.Sprintf("dst=%#x src=%#x size=%d", a[0], a[1], a[2])
	case abi.OpDCRWrite:
		return fmt.Sprintf("dcr=%#03x value=%#x", a[0]&abi.DCRAddrMask, uint32(a[1]))
	case abi.OpDCRRead:
		return fmt.Sprintf("dcr=%#03x tag=%#x", a[0]&abi.DCRAddrMask, uint32(a[1]))
	case abi.OpLaunchQMD, abi.OpDraw:
		return fmt.Sprintf("desc=%#x", a[0])
	case abi.OpCacheFlush:
		return fmt.Sprintf("cores=%d", a[0])
	case abi.OpEventSignal:
		return fmt.Sprintf("addr=%#x value=%d", a[0], a[1])
	case abi.OpEventWait:
		return fmt.Sprintf("addr=%#x value=%d op=%v", a[0], a[1], abi.WaitOp(a[2]))
	case abi.OpFence:
		return fmt.Sprintf("scope=%#x", a[0])
	}
	return ""
}

func runCPTrace(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex cp trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flavor := fs.String("flavor", "", "CP flavour: emu or rtl (default: the configuration's)")
	cfgPath := fs.String("config", "", "device configuration `FILE.toml` (default: built-in defaults)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex cp trace [--flavor emu|rtl] [--config FILE.toml]")
		fmt.Fprintln(stderr, "Runs a small workload (buffer round trip, kernel launch, draw-shaped batch) on the")
		fmt.Fprintln(stderr, "simulator and prints every command the CP executes with its cycle cost.")
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
		fmt.Fprintf(stderr, "vortex cp trace: %v\n", err)
		return 1
	}
	if *flavor != "" {
		if _, err := abi.ParseFlavor(*flavor); err != nil {
			fmt.Fprintf(stderr, "vortex cp trace: %v\n", err)
			return 2
		}
		cfg.CP.Flavor = *flavor
		if err := cfg.Validate(); err != nil {
			fmt.Fprintf(stderr, "vortex cp trace: %v\n", err)
			return 1
		}
	}
	var mu sync.Mutex
	var phase string
	var total uint64
	lastEnd := map[int]uint64{}
	// A command's cost is the CP time it added on its queue: from the later of its
	// line's fetch and the previous command's retire, to its own retire.
	trace := func(e cp.TraceEvent) {
		mu.Lock()
		defer mu.Unlock()
		from := max(e.Submit, lastEnd[e.Queue])
		cost := e.End - min(from, e.End)
		lastEnd[e.Queue] = e.End
		total += cost
		fmt.Fprintf(stdout, "%-7s q%d seq=%-4d line=%#06x+%02d %-12s %-44s cycles=%-6d [%d..%d]\n",
			phase, e.Queue, e.Seqnum, e.Line, e.Offset, e.Cmd.Op, formatCmd(e.Cmd), cost, e.Submit, e.End)
	}
	setPhase := func(p string) {
		mu.Lock()
		phase = p
		mu.Unlock()
	}
	fmt.Fprintf(stdout, "# CP flavour %s, %d cores; phase, queue, seqnum, ring line+offset, command, args, cycles [fetch..retire]\n",
		cfg.CP.Flavor, cfg.Device.NumCores())
	setPhase("setup")
	r, err := openRig(cfg, trace)
	if err != nil {
		fmt.Fprintf(stderr, "vortex cp trace: %v\n", err)
		return 1
	}
	defer r.close()
	q := r.dev.DefaultQueue()
	in := make([]byte, 4*r.n)
	for i := range in {
		in[i] = byte(i)
	}
	out := make([]byte, len(in))
	steps := []struct {
		name string
		run  func() error
	}{
		{"write", func() error { return q.NewBatch().Write(r.a, 0, in).Write(r.b, 0, in).Submit().Wait() }},
		{"launch", func() error { return q.EnqueueLaunch(r.kern["vecadd"], r.launchParams()).Wait() }},
		{"read", func() error { return q.EnqueueRead(r.c, 0, out).Wait() }},
		{"draw", func() error { return q.EnqueueDraw(r.drawSteps()).Wait() }},
	}
	for _, s := range steps {
		setPhase(s.name)
		if err := s.run(); err != nil {
			fmt.Fprintf(stderr, "vortex cp trace: %s: %v\n", s.name, err)
			return 1
		}
	}
	for i := 0; i < int(r.n); i++ {
		if got, want := binary.LittleEndian.Uint32(out[4*i:]), 2*binary.LittleEndian.Uint32(in[4*i:]); got != want {
			fmt.Fprintf(stderr, "vortex cp trace: c[%d] = %d, want %d\n", i, got, want)
			return 1
		}
	}
	mu.Lock()
	defer mu.Unlock()
	st := r.dev.Stats()
	fmt.Fprintf(stdout, "# %d commands in %d lines, %d doorbells; %d command cycles; round trip checked\n",
		st.Commands, st.Lines, st.Doorbells, total)
	return 0
}
