package runtime_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/sim"
	"vortexgfx/runtime"
)

// geometry records what the KMU gave each CTA against what the launcher asked for:
// args {out, tag, gridX, blockX}; out[blockIdx] = tag, or 0xBAD if the CTA's geometry
// is not the launcher's (another launch's DCR writes interleaved).
func geometry(c *device.CTA) error {
	out, tag, gx, bx := c.Arg(0), c.Arg(1), c.Arg(2), c.Arg(3)
	v := uint32(tag)
	if uint64(c.GridDim[0]) != gx || uint64(c.BlockDim[0]) != bx {
		v = 0xBAD
	}
	c.ForEachThread(func(tid int) {
		if tid == 0 {
			c.WriteU32(out+4*uint64(c.BlockIdx[0]), v)
		}
	})
	return nil
}

func faulty(c *device.CTA) error {
	c.ForEachThread(func(int) { c.WriteU32(8, 1) })
	return nil
}

// scale: buf[i] *= k for i < n, args {buf, k, n}.
func scale(c *device.CTA) error {
	buf, k, n := c.Arg(0), c.Arg(1), c.Arg(2)
	c.ForEachThread(func(tid int) {
		if i := c.GlobalID(tid); i < n {
			c.WriteU32(buf+4*i, c.ReadU32(buf+4*i)*uint32(k))
		}
	})
	return nil
}

type env struct {
	t    testing.TB
	sim  *sim.Sim
	dev  *runtime.Device
	mod  *runtime.Module
	kern map[string]*runtime.Kernel
}

func open(t testing.TB, flavor string, mut func(*config.Config)) *env {
	t.Helper()
	return openSim(t, flavor, mut, sim.Options{})
}

func openSim(t testing.TB, flavor string, mut func(*config.Config), opt sim.Options) *env {
	t.Helper()
	cfg := config.Default()
	cfg.CP.Flavor = flavor
	if mut != nil {
		mut(&cfg)
	}
	lib := device.NewLibrary()
	for name, k := range map[string]device.Kernel{"vecadd": vectorAdd, "geometry": geometry, "faulty": faulty, "scale": scale} {
		if err := lib.Register(name, k); err != nil {
			t.Fatal(err)
		}
	}
	s, err := sim.Open(cfg, lib, opt)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := runtime.Open(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	names := []string{"vecadd", "geometry", "faulty", "scale"}
	var ents []abi.KernelImageEntry
	for _, n := range names {
		ents = append(ents, abi.LibraryEntry(n, n))
	}
	img, err := abi.EncodeKernelImage(ents)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := dev.LoadModule(img)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, sim: s, dev: dev, mod: mod, kern: map[string]*runtime.Kernel{}}
	for _, n := range names {
		if e.kern[n], err = mod.Kernel(n); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *env) alloc(n uint64) *runtime.Buffer {
	e.t.Helper()
	b, err := e.dev.Alloc(n)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

var flavors = []string{"emu", "rtl"}

func TestCaps(t *testing.T) {
	for _, f := range flavors {
		e := open(t, f, nil)
		c := e.dev.Caps()
		cfg := config.Default()
		if c.NumCores() != cfg.Device.NumCores() || c.GPU.NumThreads() != cfg.Device.Threads ||
			c.ISA != cfg.Device.ISACaps() || int(c.CP.NumQueues) != cfg.CP.Queues {
			t.Errorf("%s: caps %+v", f, c)
		}
		if c.CP.SupportsQMD != (f == "emu") || c.CP.SupportsDraw != (f == "emu") {
			t.Errorf("%s: QMD %v DRAW %v", f, c.CP.SupportsQMD, c.CP.SupportsDraw)
		}
		if !c.CP.Interrupts || !c.CP.Mailbox || c.CycleFreqHz == 0 {
			t.Errorf("%s: gap-closure caps %+v freq %d", f, c.CP, c.CycleFreqHz)
		}
	}
}

func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return b
}

// TestTransfers: write/read/copy/fill/rect, with sizes and offsets that are not
// multiples of 64 (the rtl CP rounds its DMA up; the runtime must not clobber).
func TestTransfers(t *testing.T) {
	for _, f := range flavors {
		t.Run(f, func(t *testing.T) {
			e := open(t, f, nil)
			const size = 1000
			a, b := e.alloc(size), e.alloc(size)
			ref := make([]byte, size)
			check := func(what string, buf *runtime.Buffer, want []byte) {
				t.Helper()
				got := make([]byte, size)
				if err := e.dev.Read(buf, 0, got); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if !bytes.Equal(got, want) {
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s: byte %d = %d, want %d", what, i, got[i], want[i])
						}
					}
				}
			}
			steps := []struct {
				name string
				do   func(q *runtime.Queue) *runtime.Event
				ref  func()
			}{
				{"write whole", func(q *runtime.Queue) *runtime.Event { return q.EnqueueWrite(a, 0, pattern(size, 1)) },
					func() { copy(ref, pattern(size, 1)) }},
				{"write odd", func(q *runtime.Queue) *runtime.Event { return q.EnqueueWrite(a, 37, pattern(3, 99)) },
					func() { copy(ref[37:], pattern(3, 99)) }},
				{"fill", func(q *runtime.Queue) *runtime.Event { return q.EnqueueFill(a, 101, 77, []byte{0xAA, 0xBB, 0xCC}) },
					func() {
						for i := 0; i < 77; i++ {
							ref[101+i] = []byte{0xAA, 0xBB, 0xCC}[i%3]
						}
					}},
				{"overlapping batch", func(q *runtime.Queue) *runtime.Event {
					return q.NewBatch().Write(a, 640, pattern(64, 40)).Write(a, 610, pattern(40, 80)).
						Fill(a, 700, 5, []byte{9}).Write(a, 702, pattern(1, 3)).Submit()
				}, func() {
					copy(ref[640:], pattern(64, 40))
					copy(ref[610:], pattern(40, 80))
					copy(ref[700:705], []byte{9, 9, 9, 9, 9})
					ref[702] = pattern(1, 3)[0]
				}},
				{"write rect", func(q *runtime.Queue) *runtime.Event {
					return q.NewBatch().WriteRect(a, runtime.Rect{Off: 500, Pitch: 100}, pattern(30, 5), 10, 3).Submit()
				}, func() {
					for r := 0; r < 3; r++ {
						copy(ref[500+100*r:500+100*r+10], pattern(30, 5)[10*r:])
					}
				}},
			}
			for _, s := range steps {
				if err := s.do(e.dev.DefaultQueue()).Wait(); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				s.ref()
				check(s.name, a, ref)
			}
			// Copies into b, including an odd tail next to data that must survive.
			if err := e.dev.Write(b, 0, pattern(size, 200)); err != nil {
				t.Fatal(err)
			}
			refB := pattern(size, 200)
			q := e.dev.DefaultQueue()
			if err := q.EnqueueCopy(b, 3, a, 10, 21).Wait(); err != nil {
				t.Fatal(err)
			}
			copy(refB[3:24], ref[10:31])
			if err := q.NewBatch().CopyRect(b, runtime.Rect{Off: 600, Pitch: 50}, a, runtime.Rect{Off: 0, Pitch: 64}, 7, 4).Submit().Wait(); err != nil {
				t.Fatal(err)
			}
			for r := 0; r < 4; r++ {
				copy(refB[600+50*r:600+50*r+7], ref[64*r:64*r+7])
			}
			check("copies", b, refB)
			rect := make([]byte, 21)
			if err := q.NewBatch().ReadRect(b, runtime.Rect{Off: 600, Pitch: 50}, rect, 7, 3).Submit().Wait(); err != nil {
				t.Fatal(err)
			}
			for r := 0; r < 3; r++ {
				if !bytes.Equal(rect[7*r:7*r+7], refB[600+50*r:600+50*r+7]) {
					t.Errorf("read rect row %d", r)
				}
			}
		})
	}
}

func TestBadRequests(t *testing.T) {
	e := open(t, "emu", nil)
	a := e.alloc(100)
	q := e.dev.DefaultQueue()
	for name, ev := range map[string]*runtime.Event{
		"write past end":  q.EnqueueWrite(a, 90, make([]byte, 20)),
		"read past end":   q.EnqueueRead(a, 101, make([]byte, 1)),
		"fill no pattern": q.EnqueueFill(a, 0, 10, nil),
		"copy past end":   q.EnqueueCopy(a, 0, a, 50, 60),
		"bad ndim":        q.EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 4}),
	} {
		if err := ev.Wait(); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	if _, err := e.dev.LoadModule([]byte("garbage")); err == nil {
		t.Error("LoadModule(garbage): want an error")
	}
	if _, err := e.mod.Kernel("nope"); err == nil {
		t.Error("Kernel(nope): want an error")
	}
}

func u32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }

// TestLaunchEncoding pins the ring traffic of one launch: emu = MEM_WRITE (args+QMD)
// + FENCE + LAUNCH_QMD + CACHE_FLUSH in one line; rtl = MEM_WRITE (args) + FENCE +
// 20 DCR_WRITE + LAUNCH + CACHE_FLUSH; one doorbell either way (command-processor
// §9, §10 items 3, 9). The FENCE is there only on a CP that pipelines (CP_DEV_CAPS
// bit 27); an in-order CP gets the same stream without it.
func TestLaunchEncoding(t *testing.T) {
	for _, tc := range []struct {
		flavor      string
		pipeline    bool // the CP advertises FENCE_ORDERING: one FENCE per DMA/GPU switch
		cmds, lines uint64
	}{{"emu", true, 4, 1}, {"rtl", true, 24, 8}, {"emu", false, 3, 1}, {"rtl", false, 23, 8}} {
		e := openSim(t, tc.flavor, nil, sim.Options{Pipeline: tc.pipeline})
		const n = 300
		buf := e.alloc(4 * n)
		in := make([]uint32, n)
		for i := range in {
			in[i] = uint32(i)
		}
		if err := e.dev.Write(buf, 0, u32s(in)); err != nil {
			t.Fatal(err)
		}
		before := e.dev.Stats()
		err := e.dev.DefaultQueue().EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{
			NDim: 1, Grid: [3]uint32{(n + 63) / 64}, Block: [3]uint32{64}, Args: args(buf.Addr(), 3, n)}).Wait()
		if err != nil {
			t.Fatalf("%s: %v", tc.flavor, err)
		}
		s := e.dev.Stats()
		if got := s.Commands - before.Commands; got != tc.cmds {
			t.Errorf("%s: %d commands, want %d", tc.flavor, got, tc.cmds)
		}
		if got := s.Lines - before.Lines; got != tc.lines {
			t.Errorf("%s: %d lines, want %d", tc.flavor, got, tc.lines)
		}
		if got := s.Doorbells - before.Doorbells; got != 1 {
			t.Errorf("%s: %d doorbells, want 1", tc.flavor, got)
		}
		out := make([]byte, 4*n)
		if err := e.dev.Read(buf, 0, out); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if u32(out, i) != 3*uint32(i) {
				t.Fatalf("%s: out[%d] = %d", tc.flavor, i, u32(out, i))
			}
		}
	}
}

// TestDraw: a draw of launches and DCR writes is one CMD_DRAW + one doorbell on emu
// and one streamed batch on rtl, and both run every step in order.
func TestDraw(t *testing.T) {
	for _, tc := range []struct {
		flavor   string
		pipeline bool // the CP advertises FENCE_ORDERING: one FENCE per DMA/GPU switch
		cmds     uint64
	}{{"emu", true, 3}, {"rtl", true, 2*22 + 2 + 2}, {"emu", false, 2}, {"rtl", false, 2*22 + 2 + 1}} {
		e := openSim(t, tc.flavor, nil, sim.Options{Pipeline: tc.pipeline})
		const n = 64
		buf := e.alloc(4 * n)
		if err := e.dev.Write(buf, 0, u32s(make([]uint32, n))); err != nil {
			t.Fatal(err)
		}
		fill := make([]uint32, n)
		for i := range fill {
			fill[i] = 1
		}
		if err := e.dev.Write(buf, 0, u32s(fill)); err != nil {
			t.Fatal(err)
		}
		steps := []runtime.DrawStep{
			runtime.DCRStep(abi.DCRRasterScissorX, 0x00400000),
			runtime.LaunchStep(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{n}, Args: args(buf.Addr(), 5, n)}),
			runtime.DCRStep(abi.DCROMBlendConst, 0x12345678),
			runtime.LaunchStep(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{2}, Block: [3]uint32{n / 2}, Args: args(buf.Addr(), 7, n)}),
		}
		before := e.dev.Stats()
		if err := e.dev.DefaultQueue().EnqueueDraw(steps).Wait(); err != nil {
			t.Fatalf("%s: %v", tc.flavor, err)
		}
		s := e.dev.Stats()
		if got := s.Commands - before.Commands; got != tc.cmds {
			t.Errorf("%s: %d commands, want %d", tc.flavor, got, tc.cmds)
		}
		if got := s.Doorbells - before.Doorbells; got != 1 {
			t.Errorf("%s: %d doorbells, want 1", tc.flavor, got)
		}
		out := make([]byte, 4*n)
		if err := e.dev.Read(buf, 0, out); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if u32(out, i) != 35 {
				t.Fatalf("%s: out[%d] = %d, want 35", tc.flavor, i, u32(out, i))
			}
		}
		st := e.sim.GPU.State()
		if st.Raster.Reg(abi.DCRRasterScissorX) != 0x00400000 || st.OM.Reg(abi.DCROMBlendConst, 0) != 0x12345678 {
			t.Errorf("%s: draw DCR steps not latched", tc.flavor)
		}
	}
}

// TestLaunchRace is the §9 race: many goroutines launch on many queues at once with
// different geometries; every CTA checks that the KMU state it ran with is its own
// launch's. Run with -race.
func TestLaunchRace(t *testing.T) {
	for _, f := range flavors {
		t.Run(f, func(t *testing.T) {
			e := open(t, f, nil)
			nq := int(e.dev.Caps().CP.NumQueues)
			const perQueue = 12
			queues := []*runtime.Queue{e.dev.DefaultQueue()}
			for i := 1; i < nq; i++ {
				q, err := e.dev.NewQueue(runtime.QueueOptions{Priority: i % 4})
				if err != nil {
					t.Fatal(err)
				}
				queues = append(queues, q)
			}
			var wg sync.WaitGroup
			errs := make(chan error, nq*perQueue)
			for qi, q := range queues {
				for g := 0; g < 2; g++ {
					wg.Add(1)
					go func(qi, g int, q *runtime.Queue) {
						defer wg.Done()
						for i := 0; i < perQueue/2; i++ {
							tag := uint32(qi*1000 + g*100 + i + 1)
							grid, block := uint32(1+(qi+i)%5), uint32(16*(1+(g+i)%4))
							out, err := e.dev.Alloc(4 * uint64(grid))
							if err != nil {
								errs <- err
								return
							}
							got := make([]byte, 4*grid)
							b := q.NewBatch().Launch(e.kern["geometry"], runtime.LaunchParams{NDim: 1,
								Grid: [3]uint32{grid}, Block: [3]uint32{block},
								Args: args(out.Addr(), uint64(tag), uint64(grid), uint64(block))}).Read(out, 0, got)
							if err := b.Submit().Wait(); err != nil {
								errs <- err
								return
							}
							for c := 0; c < int(grid); c++ {
								if v := u32(got, c); v != tag {
									errs <- fmt.Errorf("queue %d launch %d CTA %d: got 0x%x, want 0x%x", qi, tag, c, v, tag)
								}
							}
							out.Free()
						}
					}(qi, g, q)
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestEventsAcrossQueues: a read on one queue waits for a launch on another.
func TestEventsAcrossQueues(t *testing.T) {
	e := open(t, "emu", nil)
	q2, err := e.dev.NewQueue(runtime.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	buf := e.alloc(4 * 16)
	w := e.dev.DefaultQueue().EnqueueWrite(buf, 0, u32s([]uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
	l := q2.EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{16},
		Args: args(buf.Addr(), 2, 16)}, w)
	out := make([]byte, 64)
	if err := e.dev.DefaultQueue().EnqueueRead(buf, 0, out, l).Wait(); err != nil {
		t.Fatal(err)
	}
	if u32(out, 15) != 32 {
		t.Errorf("out[15] = %d, want 32", u32(out, 15))
	}
	// A failed dependency fails the dependants.
	bad := q2.EnqueueLaunch(e.kern["faulty"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{1}})
	dep := e.dev.DefaultQueue().EnqueueRead(buf, 0, out, bad)
	if err := bad.Wait(); err == nil || !strings.Contains(err.Error(), "launch error") {
		t.Errorf("faulting launch: %v", err)
	}
	if err := dep.Wait(); !errors.Is(err, runtime.ErrDependency) {
		t.Errorf("dependant: %v", err)
	}
	// The faulted queue recovers.
	if err := q2.EnqueueRead(buf, 0, out).Wait(); err != nil {
		t.Errorf("after fault: %v", err)
	}
	if err := q2.Close(); err != nil {
		t.Error(err)
	}
	if err := q2.EnqueueRead(buf, 0, out).Wait(); !errors.Is(err, runtime.ErrClosed) {
		t.Errorf("closed queue: %v", err)
	}
}

func TestQueueLimit(t *testing.T) {
	e := open(t, "emu", func(c *config.Config) { c.CP.Queues = 2 })
	q, err := e.dev.NewQueue(runtime.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.dev.NewQueue(runtime.QueueOptions{}); !errors.Is(err, runtime.ErrNoQueue) {
		t.Errorf("third queue: %v", err)
	}
	q.Close()
	q, err = e.dev.NewQueue(runtime.QueueOptions{})
	if err != nil {
		t.Fatalf("reusing a closed queue's CP queue: %v", err)
	}
	buf := e.alloc(64)
	if err := q.EnqueueWrite(buf, 0, make([]byte, 64)).Wait(); err != nil {
		t.Error(err)
	}
}

// TestBigBatch: a batch larger than the staging area and than the ring still
// completes (temporary staging; ring-sized pieces).
func TestBigBatch(t *testing.T) {
	e := open(t, "emu", func(c *config.Config) { c.CP.RingSizeLog2 = 12 })
	q, err := e.dev.NewQueue(runtime.QueueOptions{RingSizeLog2: 12})
	if err != nil {
		t.Fatal(err)
	}
	const size = 200 << 10
	buf := e.alloc(size)
	b := q.NewBatch()
	for i := 0; i < 300; i++ {
		b.DCRWrite(abi.DCRRasterScissorY, uint32(i))
	}
	b.Write(buf, 0, pattern(size, 3))
	got := make([]byte, size)
	b.Read(buf, 0, got)
	if err := b.Submit().Wait(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, pattern(size, 3)) {
		t.Error("round trip through temporary staging differs")
	}
	if v := e.sim.GPU.State().Raster.Reg(abi.DCRRasterScissorY); v != 299 {
		t.Errorf("last DCR write = %d, want 299", v)
	}
}

// TestPerfCounters reads the device's counters the way the host does: a CP
// DCR_READ of MPM_VALUE per word (vortex-hardware-facts §7).
func TestPerfCounters(t *testing.T) {
	for _, f := range flavors {
		e := open(t, f, nil)
		before, err := e.dev.PerfCounter(abi.MPMCore, device.CSRCoreCTAs, -1)
		if err != nil {
			t.Fatal(err)
		}
		buf := e.alloc(4 * 640)
		if err := e.dev.DefaultQueue().EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1,
			Grid: [3]uint32{10}, Block: [3]uint32{64}, Args: args(buf.Addr(), 1, 640)}).Wait(); err != nil {
			t.Fatal(err)
		}
		after, err := e.dev.PerfCounter(abi.MPMCore, device.CSRCoreCTAs, -1)
		if err != nil {
			t.Fatal(err)
		}
		if after-before != 10 {
			t.Errorf("%s: CTAs counted %d, want 10", f, after-before)
		}
		var perCore uint64
		for c := 0; c < e.dev.Caps().NumCores(); c++ {
			v, err := e.dev.PerfCounter(abi.MPMCore, device.CSRCoreCTAs, c)
			if err != nil {
				t.Fatal(err)
			}
			perCore += v
		}
		if perCore != after {
			t.Errorf("%s: per-core sum %d != all-cores %d", f, perCore, after)
		}
		cyc, err := e.dev.PerfCounter(abi.MPMCore, abi.CSRMCycle, -1)
		if err != nil || cyc == 0 {
			t.Errorf("%s: MCYCLE %d, %v", f, cyc, err)
		}
		// A DCR the device does not map is a CP error, and the queue recovers.
		if _, err := e.dev.DefaultQueue().DCRRead(0x030, 0); err == nil || !strings.Contains(err.Error(), "DCR") {
			t.Errorf("%s: unmapped DCR read: %v", f, err)
		}
		if _, err := e.dev.PerfCounter(abi.MPMCore, abi.CSRMCycle, 99); err == nil {
			t.Errorf("%s: counter of core 99: want an error", f)
		}
		if v, err := e.dev.DefaultQueue().DCRRead(abi.DCRRasterScissorX, 0); err != nil || v != 0 {
			t.Errorf("%s: DCR read after errors: %d, %v", f, v, err)
		}
	}
}

// TestProfiling: events of a profiling queue carry ordered CP timestamps.
func TestProfiling(t *testing.T) {
	for _, f := range flavors {
		e := open(t, f, nil)
		q, err := e.dev.NewQueue(runtime.QueueOptions{Profile: true})
		if err != nil {
			t.Fatal(err)
		}
		buf := e.alloc(4 * 64)
		for _, ev := range []*runtime.Event{
			q.EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{64}, Args: args(buf.Addr(), 2, 64)}),
			q.EnqueueDCRWrite(abi.DCRRasterScissorX, 1),
		} {
			if err := ev.Wait(); err != nil {
				t.Fatal(err)
			}
			p, ok := ev.Profile()
			if !ok || p.Queued > p.Submit || p.Submit > p.Start || p.Start > p.End || p.End == 0 || p.FreqHz == 0 {
				t.Errorf("%s: profile %+v ok=%v", f, p, ok)
			}
		}
		if _, ok := e.dev.DefaultQueue().EnqueueDCRWrite(abi.DCRRasterScissorX, 1).Profile(); ok {
			t.Errorf("%s: profile on a queue without profiling", f)
		}
	}
}

// BenchmarkLaunch measures host-side synchronous launches (one batch, one doorbell,
// interrupt completion) per flavour.
func BenchmarkLaunch(b *testing.B) {
	for _, f := range flavors {
		b.Run(f, func(b *testing.B) {
			e := open(b, f, nil)
			buf, err := e.dev.Alloc(4 * 256)
			if err != nil {
				b.Fatal(err)
			}
			p := runtime.LaunchParams{NDim: 1, Grid: [3]uint32{4}, Block: [3]uint32{64}, Args: args(buf.Addr(), 1, 256)}
			q := e.dev.DefaultQueue()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := q.EnqueueLaunch(e.kern["scale"], p).Wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
		})
	}
}

// TestPipelinedCP: on a CP that overlaps DMA with GPU work inside a queue, the
// runtime's fences keep uploads before launches and launches before read-backs.
func TestPipelinedCP(t *testing.T) {
	for _, f := range flavors {
		e := openSim(t, f, nil, sim.Options{Pipeline: true})
		const n = 256
		buf := e.alloc(4 * n)
		in := make([]uint32, n)
		for i := range in {
			in[i] = uint32(i)
		}
		for round := uint32(1); round <= 5; round++ {
			out := make([]byte, 4*n)
			err := e.dev.DefaultQueue().NewBatch().
				Write(buf, 0, u32s(in)).
				Launch(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{n / 64}, Block: [3]uint32{64}, Args: args(buf.Addr(), uint64(round), n)}).
				Read(buf, 0, out).Submit().Wait()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			// A lone launch packs its upload, QMD launch and flush into one line.
			if err := e.dev.DefaultQueue().EnqueueLaunch(e.kern["scale"], runtime.LaunchParams{NDim: 1,
				Grid: [3]uint32{n / 64}, Block: [3]uint32{64}, Args: args(buf.Addr(), 2, n)}).Wait(); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out2 := make([]byte, 4*n)
			if err := e.dev.Read(buf, 0, out2); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				if u32(out, i) != round*uint32(i) || u32(out2, i) != 2*round*uint32(i) {
					t.Fatalf("%s round %d: out[%d] = %d then %d, want %d then %d", f, round, i,
						u32(out, i), u32(out2, i), round*uint32(i), 2*round*uint32(i))
				}
			}
		}
	}
}

// TestLongDraw: a draw of more launch steps than one CMD_DRAW descriptor holds
// (each launch step is two commands) splits into several descriptors whose
// scratch fits the bound computed for it, and still rings one doorbell on emu.
func TestLongDraw(t *testing.T) {
	e := openSim(t, "emu", nil, sim.Options{})
	const n, launches = 16, 300
	buf := e.alloc(4 * n)
	if err := e.dev.Write(buf, 0, u32s(make([]uint32, n))); err != nil {
		t.Fatal(err)
	}
	fill := make([]uint32, n)
	for i := range fill {
		fill[i] = 1
	}
	if err := e.dev.Write(buf, 0, u32s(fill)); err != nil {
		t.Fatal(err)
	}
	var steps []runtime.DrawStep
	for i := 0; i < launches; i++ {
		steps = append(steps, runtime.LaunchStep(e.kern["scale"], runtime.LaunchParams{NDim: 1, Grid: [3]uint32{1}, Block: [3]uint32{n}, Args: args(buf.Addr(), 1, n)}))
	}
	before := e.dev.Stats()
	if err := e.dev.DefaultQueue().EnqueueDraw(steps).Wait(); err != nil {
		t.Fatal(err)
	}
	if got := e.dev.Stats().Doorbells - before.Doorbells; got != 1 {
		t.Errorf("%d doorbells, want 1", got)
	}
	out := make([]byte, 4*n)
	if err := e.dev.Read(buf, 0, out); err != nil {
		t.Fatal(err)
	}
	if u32(out, 0) != 1 {
		t.Errorf("out[0] = %d, want 1 (scale by 1, %d times)", u32(out, 0), launches)
	}
}
