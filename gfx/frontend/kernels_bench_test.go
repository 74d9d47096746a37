package frontend

import (
	"math/rand"
	"syscall"
	"testing"

	"vortexgfx/abi"
)

// BenchmarkDeviceFrontEnd runs the device front end's kernels on the bare
// kernel rig (four 4-thread CTAs, one per core) over 8192 random
// compiled-draw records a 512² target apart (a third crossing the near
// plane, small enough to touch one to four bins): "setup" is setup_k's
// SETUP, SCAN and EMIT launches, "binning" binning_k's six. It reports the
// wall and CPU time per input triangle (on a loaded machine the CPU time
// measures the kernels better than the wall clock).
func BenchmarkDeviceFrontEnd(b *testing.B) {
	const nt, size = 8192, 512
	r := newKernelRigSize(b, 1<<28)
	rnd := rand.New(rand.NewSource(5))
	alloc := func(n int) uint64 {
		a, err := r.m.Alloc(uint64(max(n, 4)), 64)
		if err != nil {
			b.Fatal(err)
		}
		return a
	}
	rec := CompiledFlatOffset + 4*abi.SideFlatWords(0)
	vb := make([]byte, 3*nt*rec)
	tb := make([]byte, 12*nt)
	for i := range 3 * nt {
		if i%3 == 0 {
			cx, cy := rnd.Float32()*2-1, rnd.Float32()*2-1
			for k := range 3 {
				v := Vertex{Pos: [4]float32{cx + rnd.Float32()*0.1, cy + rnd.Float32()*0.1, rnd.Float32()*1.4 - 0.6, 1}, NVar: 8}
				for j := range 8 {
					v.Var[j] = rnd.Float32()
				}
				PutCompiledVertex(vb[(i+k)*rec:], &v)
			}
		}
		putU32(tb[4*i:], uint32(i))
	}
	g, err := NewBinGrid(size, size, 7)
	if err != nil {
		b.Fatal(err)
	}
	slots, bins := SetupSlot, g.Bins()
	maxPrims := nt * slots
	a := Args{
		NumVerts: uint32(3 * nt), NumTris: nt, Width: size, Height: size, Far: 1, Cull: uint32(CullNone),
		Planes: frontEndPlanes(PlanesCompiled, 0), NVar: 8, Cols: uint32(g.Cols), Rows: uint32(g.Rows), BinLog: 7,
		Verts: alloc(len(vb)), Tris: alloc(len(tb)),
		Slots: alloc(nt * slots * abi.PrimBytes), SlotBoxes: alloc(nt * slots * BBoxBytes), Keep: alloc(4 * nt),
		Offsets: alloc(4 * (maxPrims + 1)), Prims: alloc(maxPrims * abi.PrimBytes), Boxes: alloc(maxPrims * BBoxBytes),
		Counters: alloc(4 * abi.FECounterWords), FragArgs: alloc(8 * abi.ArgFSSlots),
		Counts: alloc(4 * maxPrims), Keys: alloc(4 * maxPrims * 4), Hist: alloc(4 * bins), Base: alloc(4 * bins),
		TBuf: alloc(bins*abi.BinHeaderBytes + 4*maxPrims*4),
	}
	if err := r.m.Write(a.Verts, vb); err != nil {
		b.Fatal(err)
	}
	if err := r.m.Write(a.Tris, tb); err != nil {
		b.Fatal(err)
	}
	args := alloc(8 * abi.FrontEndArgSlots)
	run := func(kernel string, stages ...uint64) {
		for _, st := range stages {
			a.Stage = st
			if err := r.m.Write(args, a.Pack()); err != nil {
				b.Fatal(err)
			}
			if err := r.launchGrid(kernel, args, 4); err != nil {
				b.Fatal(err)
			}
		}
	}
	setup := func() {
		if err := r.m.Write(a.Counters, make([]byte, 4*abi.FECounterWords)); err != nil {
			b.Fatal(err)
		}
		run("setup_k", abi.FEStageSetup, abi.FEStageScan, abi.FEStageEmit)
	}
	binning := func() {
		run("binning_k", abi.FEStageBCount, abi.FEStageBScan, abi.FEStageBEmit, abi.FEStageBHist, abi.FEStageBBase, abi.FEStageBScatter)
	}
	for _, c := range []struct {
		name string
		fn   func()
	}{{"setup", setup}, {"binning", binning}} {
		b.Run(c.name, func(b *testing.B) {
			setup() // binning reads setup's output
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				c.fn()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nt), "ns/tri")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*nt), "cpu-ns/tri")
		})
	}
}

func putU32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
