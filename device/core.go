package device

import (
	"fmt"

	"vortexgfx/abi"
)

// MaxWaveLanes bounds the lanes of one fragment wave (a warp is at most 64 threads).
const MaxWaveLanes = 64

// FragmentWave is one packed fragment wave: a degenerate 1-warp CTA whose lanes carry
// their FRAG_POS/FRAG_PID launch registers. spec: rasterizer §9.2, §9.3
type FragmentWave struct {
	Kernel  Kernel // resolved once per frame with ResolveKernel(STARTUP_ADDR, FRAG_ENTRY)
	Param   uint64 // FRAG_PARAM: the fragment kernel's argument block
	Lanes   int    // covered-quad count × 4 active lanes, 1..threads per warp
	FragPos [MaxWaveLanes]uint32
	FragPID [MaxWaveLanes]uint32
}

// job is one unit of work for a core goroutine: a compute launch's share or a wave.
type job struct {
	launch *launchJob
	wave   FragmentWave
}

// core is one SIMT core: a goroutine that runs its jobs in arrival order (a launch
// share it finds claimed has been run by the launching goroutine, Device.dispatch).
type core struct {
	d    *Device
	id   int
	jobs chan job
	cta  CTA
	lmem []byte

	// Fragment results since the last WaitFragments; written by the core goroutine,
	// read after the device's fragment WaitGroup drains.
	fragErr    error
	fragStats  LaunchStats
	fragCycles uint64
}

func newCore(d *Device, id int) *core {
	c := &core{d: d, id: id, jobs: make(chan job, 64), lmem: make([]byte, d.lmem)}
	c.cta.setMemory(d.mem)
	c.cta.dev = d
	c.cta.WarpWidth = d.threads
	c.cta.Core = id
	c.cta.slot = id
	return c
}

func (c *core) run() {
	// One job variable for the goroutine's life: a wave's lanes are sliced from
	// it into the CTA, so a per-iteration variable would move every job to the
	// heap.
	var j job
	for {
		var ok bool
		if j, ok = <-c.jobs; !ok {
			return
		}
		switch {
		case j.launch != nil:
			if j.launch.claim(c.id) { // else the launching goroutine ran it (dispatch)
				c.runLaunch(j.launch)
			}
		default:
			c.runWave(&j.wave)
		}
	}
}

// ctaCost applies the cost model to the finished CTA and folds its counters into s.
func (c *core) ctaCost(s *LaunchStats, base uint64) uint64 {
	return ctaCost(&c.cta, &c.d.perf[c.id], s, base)
}

// ctaCost applies the cost model to the finished CTA t, folds its counters into
// s and adds them to its core's counter bank p.
func ctaCost(t *CTA, p *perfBank, s *LaunchStats, base uint64) uint64 {
	warps := uint64(t.Warps())
	cyc := base + warps*(CostPhaseIssue*t.phases+CostBarrier*t.barrier) +
		(t.memOps+uint64(t.WarpWidth)-1)/uint64(t.WarpWidth)
	instret := t.invoc
	if t.isaRun { // machine code: the cycles the SIMT core issued (isa.go)
		cyc = base + t.isaCycles
		instret = t.isaInstr
		s.Instructions += t.isaInstr
		s.ThreadInstructions += t.isaThreadInstr
	}
	s.Warps += warps
	s.Threads += uint64(t.Threads)
	s.Phases += t.phases
	s.Barriers += t.barrier
	s.MemOps += t.memOps
	s.Cycles += cyc
	p.add(abi.MPMCore, perfCycles, cyc)
	p.add(abi.MPMCore, perfInstret, instret)
	p.add(abi.MPMCore, perfWarps, warps)
	p.add(abi.MPMCore, perfThreads, uint64(t.Threads))
	p.add(abi.MPMCore, perfMemOps, t.memOps)
	return cyc
}

func (c *core) reset(threads int, lmemSize int) {
	t := &c.cta
	t.Threads = threads
	t.err = nil
	t.phases, t.barrier, t.memOps, t.invoc = 0, 0, 0, 0
	t.isaRun, t.isaCycles, t.isaInstr, t.isaThreadInstr = false, 0, 0, 0
	t.LMem = c.lmem[:lmemSize]
	clear(t.LMem)
}

func (c *core) runLaunch(j *launchJob) {
	defer j.wg.Done()
	r := &j.res[c.id]
	t := &c.cta
	t.fragPos, t.fragPID = nil, nil
	t.BlockDim, t.GridDim, t.ClusterDim, t.Args = j.block, j.grid, j.cluster, j.args
	gx, gy := uint64(j.grid[0]), uint64(j.grid[1])
	if j.group > 1 {
		c.runClustered(j, r)
		return
	}
	n := uint64(len(c.d.cores))
	for id := uint64(c.id); id < j.total; id += n {
		t.BlockIdx = [3]uint32{uint32(id % gx), uint32(id / gx % gy), uint32(id / (gx * gy))}
		if !c.runCTA(j, r, id) {
			return
		}
	}
}

// runClustered runs this core's CTAs of a clustered launch: on hardware cluster
// id / coresPerCluster, rank id mod coresPerCluster of every group g ≡ cluster
// (mod clusters). See Device.dispatch.
func (c *core) runClustered(j *launchJob, r *coreResult) {
	t := &c.cta
	hw, rank := uint64(c.id)/j.coresPerCluster, uint64(c.id)%j.coresPerCluster
	if rank >= j.group {
		return
	}
	cx, cy := uint64(j.cluster[0]), uint64(j.cluster[1])
	gx, gy := uint64(j.grid[0]), uint64(j.grid[1])
	ngx, ngy := gx/cx, gy/cy
	rx, ry, rz := rank%cx, rank/cx%cy, rank/(cx*cy)
	for g := hw; g < j.total/j.group; g += j.hwClusters {
		x := g%ngx*cx + rx
		y := g/ngx%ngy*cy + ry
		z := g/(ngx*ngy)*uint64(j.cluster[2]) + rz
		t.BlockIdx = [3]uint32{uint32(x), uint32(y), uint32(z)}
		if !c.runCTA(j, r, x+gx*(y+gy*z)) {
			return
		}
	}
}

// runCTA runs CTA id (BlockIdx already set); false ends the core's share.
func (c *core) runCTA(j *launchJob, r *coreResult, id uint64) bool {
	t := &c.cta
	if err := j.ctx.Err(); err != nil {
		r.err, r.errCTA = err, id
		return false
	}
	c.reset(j.threads, j.lmemSize)
	err := runKernel(j.kernel, t)
	r.stats.CTAs++
	c.d.perf[c.id].add(abi.MPMCore, perfCTAs, 1)
	c.ctaCost(&r.stats, CostCTADispatch)
	if err != nil {
		r.err, r.errCTA = err, id
		return false
	}
	return true
}

// runKernel runs k on t; a fault recorded by the CTA wins over the kernel's return,
// and a kernel panic becomes an error instead of killing the simulator.
func runKernel(k Kernel, t *CTA) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("kernel panicked: %v", p)
		}
	}()
	kerr := k(t)
	if t.err != nil {
		return t.err
	}
	return kerr
}

func (c *core) runWave(w *FragmentWave) {
	defer c.d.fragWG.Done()
	if c.fragErr != nil {
		return // the frame already failed on this core; drop the rest in order
	}
	t := &c.cta
	c.reset(w.Lanes, 0)
	t.BlockIdx = [3]uint32{}
	t.BlockDim, t.GridDim, t.ClusterDim = [3]uint32{uint32(w.Lanes), 1, 1}, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}
	t.Args = w.Param
	t.fragPos, t.fragPID = w.FragPos[:w.Lanes], w.FragPID[:w.Lanes]
	err := runKernel(w.Kernel, t)
	c.d.perf[c.id].add(abi.MPMCore, perfWaves, 1)
	c.fragCycles += c.ctaCost(&c.fragStats, CostWave)
	if err != nil {
		c.fragErr = fmt.Errorf("fragment wave on core %d: %w", c.id, err)
	}
}

// SubmitFragment queues a fragment wave on core; each core runs its waves in
// submission order (same pixel ⇒ same core ⇒ in-order blending). The wave is copied.
// Call it from a frame kick or with no launch in progress: the launching goroutine
// may run a core's launch share on that core's state (Device.dispatch).
// spec: rasterizer §9.1, §9.3
func (d *Device) SubmitFragment(core int, w *FragmentWave) error {
	if core < 0 || core >= d.ncores {
		return fmt.Errorf("device: fragment wave for core %d (device has %d)", core, d.ncores)
	}
	if w.Lanes < 1 || w.Lanes > d.threads {
		return fmt.Errorf("device: fragment wave of %d lanes (warp width %d)", w.Lanes, d.threads)
	}
	if w.Kernel == nil {
		return fmt.Errorf("device: fragment wave without a kernel")
	}
	d.runMu.RLock()
	defer d.runMu.RUnlock()
	if d.isClosed {
		return fmt.Errorf("device: fragment wave: %w", ErrClosed)
	}
	d.fragWG.Add(1)
	d.cores[core].jobs <- job{wave: *w}
	return nil
}

// WaitFragments waits until every submitted wave has run and returns the busiest
// core's cycles, the waves' counters and the first error (lowest core) since the
// previous call; the counters also join the current frame kick's LaunchStats. Call
// it from one goroutine, with no concurrent SubmitFragment.
func (d *Device) WaitFragments() (cycles uint64, stats LaunchStats, err error) {
	d.fragWG.Wait()
	for _, c := range d.cores {
		cycles = max(cycles, c.fragCycles)
		stats.add(c.fragStats)
		if err == nil {
			err = c.fragErr
		}
		c.fragErr, c.fragStats, c.fragCycles = nil, LaunchStats{}, 0
	}
	stats.Cycles = cycles
	d.statsMu.Lock()
	c := stats
	c.Cycles = 0
	d.frame.add(c)
	d.statsMu.Unlock()
	return cycles, stats, err
}
