package device

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"vortexgfx/abi"
)

// Cycle cost model of a launch (ours; the hardware's timing is not modelled). A
// machine-code CTA (isa.go) costs CostCTADispatch plus its SIMT core's issued
// cycles instead of the phase terms below. A
// launch costs CostKMULaunch plus the busiest core's cycles; a core's cycles are the
// sum over the CTAs (or fragment waves) it ran of
//
//	CostCTADispatch (CostWave for a fragment wave)
//	+ warps × (CostPhaseIssue × phases + CostBarrier × barriers)
//	+ ceil(memory accesses / warp width)
//
// A grid-less launch costs CostKMULaunch plus what the frame-kick handler reports.
const (
	CostKMULaunch   = 32 // start pulse, busy rise, drain
	CostCTADispatch = 8  // launch-register writes and warp activation of one CTA
	CostWave        = 8  // one fragment wave (a 1-warp CTA)
	CostPhaseIssue  = 4  // one warp through one phase
	CostBarrier     = 2  // one warp through one explicit barrier
)

// LaunchStats counts what launches did. spec: command-processor §7 (the drain is the
// barrier), vortex-hardware-facts §1.4
type LaunchStats struct {
	Launches   uint64 // compute launches
	FrameKicks uint64 // grid-less launches handed to the RASTER engine
	CTAs       uint64
	Warps      uint64
	Threads    uint64
	Phases     uint64 // ForEachThread calls, summed over CTAs
	Barriers   uint64
	MemOps     uint64 // device-memory accesses, per lane
	Cycles     uint64 // by the cost model above
	// Machine-code CTAs (abi.KernelCode entries, isa.go): the warp instructions
	// their SIMT cores retired (minstret summed over warps) and the lane-
	// instructions (each counts its active lanes). 0 for Go kernels.
	Instructions       uint64
	ThreadInstructions uint64
}

func (s *LaunchStats) add(o LaunchStats) {
	s.Launches += o.Launches
	s.FrameKicks += o.FrameKicks
	s.CTAs += o.CTAs
	s.Warps += o.Warps
	s.Threads += o.Threads
	s.Phases += o.Phases
	s.Barriers += o.Barriers
	s.MemOps += o.MemOps
	s.Cycles += o.Cycles
	s.Instructions += o.Instructions
	s.ThreadInstructions += o.ThreadInstructions
}

// LastLaunch returns the counters of the most recent launch.
func (d *Device) LastLaunch() LaunchStats {
	d.statsMu.Lock()
	defer d.statsMu.Unlock()
	return d.last
}

// TotalStats returns the counters summed over every launch so far.
func (d *Device) TotalStats() LaunchStats {
	d.statsMu.Lock()
	defer d.statsMu.Unlock()
	return d.total
}

func (d *Device) record(s LaunchStats) {
	d.statsMu.Lock()
	d.last = s
	d.total.add(s)
	d.statsMu.Unlock()
}

// LastLaunchError returns the error of the most recent launch (nil if it
// succeeded). The CP reports a failed launch only as Q_ERROR code "launch error";
// tools read the device's reason here.
func (d *Device) LastLaunchError() error {
	d.statsMu.Lock()
	defer d.statsMu.Unlock()
	return d.lastErr
}

func (d *Device) setLaunchError(err error) error {
	d.statsMu.Lock()
	d.lastErr = err
	d.statsMu.Unlock()
	return err
}

// launchJob is one compute launch shared by the cores that run its CTAs.
type launchJob struct {
	ctx      context.Context
	kernel   Kernel
	grid     [3]uint32
	block    [3]uint32
	cluster  [3]uint32
	threads  int
	args     uint64
	lmemSize int
	total    uint64
	// Cluster scheduling (see dispatch): CTAs per cluster, cores per hardware
	// cluster and hardware clusters; group ≤ 1 is the plain round-robin.
	group, coresPerCluster, hwClusters uint64
	wg                                 sync.WaitGroup
	res                                []coreResult // per core
	// claimed[i] is set by whichever goroutine runs core i's share of the
	// CTAs: the core's own, or the launching one (dispatch).
	claimed []atomic.Bool
}

// claim reports whether the caller is the one to run core i's share.
func (j *launchJob) claim(i int) bool { return j.claimed[i].CompareAndSwap(false, true) }

type coreResult struct {
	stats  LaunchStats
	errCTA uint64
	err    error
}

// Launch runs the launch the KMU registers describe and returns when it has drained
// (the CP's launch barrier). A launch with a grid dimension 0 is the grid-less raster
// frame kick. spec: command-processor §7 (KMU launch), rasterizer §5,
// vortex-hardware-facts §1.4, §1.5, §9 item 9
func (d *Device) Launch(ctx context.Context) (cycles uint64, err error) {
	d.launchMu.Lock()
	defer d.launchMu.Unlock()
	cycles, err = d.launch(ctx)
	d.setLaunchError(err)
	return cycles, err
}

func (d *Device) launch(ctx context.Context) (uint64, error) {
	d.mu.Lock()
	kmu := d.state.KMU
	kick := d.kick
	d.mu.Unlock()

	grid := kmu.GridDim()
	if grid[0] == 0 || grid[1] == 0 || grid[2] == 0 {
		if kick == nil {
			return 0, fmt.Errorf("device: launch grid %v: %w", grid, ErrNoFrameKick)
		}
		d.statsMu.Lock()
		d.frame = LaunchStats{}
		d.statsMu.Unlock()
		c, err := kick(ctx, d, FrameKick{KMU: kmu})
		d.statsMu.Lock()
		s := d.frame // the fragment waves the frame ran (WaitFragments)
		d.statsMu.Unlock()
		s.FrameKicks, s.Cycles = 1, CostKMULaunch+c
		d.record(s)
		if err != nil {
			return s.Cycles, fmt.Errorf("device: frame kick: %w", err)
		}
		return s.Cycles, nil
	}
	j, err := d.prepare(ctx, &kmu)
	if err != nil {
		return 0, fmt.Errorf("device: launch: %w", err)
	}
	if err := d.dispatch(j); err != nil {
		return 0, err
	}
	var s LaunchStats
	var maxCycles uint64
	var firstErr error
	var firstCTA uint64
	for i := range j.res {
		r := &j.res[i]
		c := r.stats.Cycles
		r.stats.Cycles = 0
		s.add(r.stats)
		maxCycles = max(maxCycles, c)
		if r.err != nil && (firstErr == nil || r.errCTA < firstCTA) {
			firstErr, firstCTA = r.err, r.errCTA
		}
	}
	s.Launches = 1
	s.Cycles = CostKMULaunch + maxCycles
	d.record(s)
	d.mu.Lock()
	observe := d.observer
	d.mu.Unlock()
	if observe != nil {
		observe(kmu.KernelEntry(), s)
	}
	if firstErr != nil {
		return s.Cycles, fmt.Errorf("device: launch: CTA %d: %w", firstCTA, firstErr)
	}
	return s.Cycles, nil
}

// prepare resolves the kernel at KERNEL_ENTRY and checks the launch geometry.
func (d *Device) prepare(ctx context.Context, k *KMUState) (*launchJob, error) {
	kernel, err := d.ResolveKernel(k.StartupAddr(), k.KernelEntry())
	if err != nil {
		return nil, err
	}
	block, grid, cluster := k.BlockDim(), k.GridDim(), k.ClusterDim()
	for i := range block {
		if block[i] == 0 {
			return nil, fmt.Errorf("BLOCK_DIM %v has a zero dimension", block)
		}
		if cluster[i] == 0 || grid[i]%cluster[i] != 0 {
			return nil, fmt.Errorf("GRID_DIM %v is not a multiple of CLUSTER_DIM %v", grid, cluster)
		}
	}
	size := uint64(block[0]) * uint64(block[1]) * uint64(block[2])
	if bs := k.Reg(abi.DCRBlockSize); uint64(bs) != size {
		return nil, fmt.Errorf("BLOCK_SIZE %d != BLOCK_DIM product %d", bs, size)
	}
	if limit := uint64(d.threads * d.warps); size > limit {
		return nil, fmt.Errorf("block of %d threads exceeds a core's %d warps × %d threads", size, d.warps, d.threads)
	}
	if steps, want := k.WarpStep(), abi.WarpSteps(uint32(d.threads), block, 3); steps != want {
		return nil, fmt.Errorf("WARP_STEP %v, want %v for block %v and %d-thread warps", steps, want, block, d.threads)
	}
	lmem := uint64(k.Reg(abi.DCRLMemSize))
	if lmem > d.lmem {
		return nil, fmt.Errorf("LMEM_SIZE %d exceeds the core's %d bytes", lmem, d.lmem)
	}
	total := uint64(grid[0]) * uint64(grid[1]) * uint64(grid[2])
	if total > 1<<32 {
		return nil, fmt.Errorf("grid %v has %d CTAs (max 2^32)", grid, total)
	}
	group := uint64(cluster[0]) * uint64(cluster[1]) * uint64(cluster[2])
	cpc := uint64(d.cfg.Device.CoresPerSocket * d.cfg.Device.SocketsPerCluster)
	if group > cpc {
		return nil, fmt.Errorf("CLUSTER_DIM %v groups %d CTAs, more than the %d cores of one hardware cluster they must be co-scheduled on", cluster, group, cpc)
	}
	return &launchJob{
		ctx: ctx, kernel: kernel, grid: grid, block: block, cluster: cluster,
		threads: int(size), args: k.StartupArg(), lmemSize: int(lmem), total: total,
		group: group, coresPerCluster: cpc, hwClusters: uint64(d.cfg.Device.Clusters),
		res: make([]coreResult, d.ncores), claimed: make([]atomic.Bool, d.ncores),
	}, nil
}

// dispatch spreads the CTAs over the cores and waits for the drain. Without clusters
// (CLUSTER_DIM 1×1×1) CTA i runs on core i mod N. With clusters of G > 1 CTAs the
// grid is cut into CLUSTER_DIM-shaped groups, numbered row-major over the cluster
// grid; group g runs on hardware cluster g mod C (C = clusters), and the CTA of rank
// r inside the group (x fastest) on that cluster's core r. So the CTAs of one cluster
// always sit on distinct cores of one hardware cluster and, since every core runs
// its CTAs in group order, run side by side: that is the co-scheduling CLUSTER_DIM
// asks for. A cluster larger than a hardware cluster's cores cannot be co-scheduled
// and is a launch error (prepare). The assignment is static, so every counter and
// result is the same for any goroutine scheduling.
//
// A core's share (its CTAs, in order, on its CTA state, counters and perf
// bank) runs on one host goroutine: its core's, or the launching goroutine's,
// which after handing the shares out runs every share no core goroutine has
// taken yet instead of sleeping until they drain. So a launch uses whatever
// host threads are running (all of it on one when the cores' goroutines have
// not been scheduled yet) without a share ever running twice or changing
// hands midway: which goroutine runs it changes no byte or counter. Launches
// and fragment waves never overlap (the KMU runs one at a time), so a core's
// state is never shared with its own goroutine. spec: vortex-hardware-facts
// §1.4 (CLUSTER_DIM), command-processor §7 (KMU launch)
func (d *Device) dispatch(j *launchJob) error {
	d.runMu.RLock()
	if d.isClosed {
		d.runMu.RUnlock()
		return fmt.Errorf("device: launch: %w", ErrClosed)
	}
	n := 0
	for i, c := range d.cores {
		if j.group <= 1 && uint64(i) >= j.total {
			break
		}
		j.wg.Add(1)
		c.jobs <- job{launch: j}
		n++
	}
	d.runMu.RUnlock()
	for i := range n {
		if j.claim(i) {
			d.sharesInline.Add(1)
			d.cores[i].runLaunch(j)
		}
	}
	j.wg.Wait()
	return nil
}

// ResolveKernel returns the kernel whose entry stub is at pc inside the module image
// at base (STARTUP_ADDR). A pc outside the image, or one that does not point at an
// entry stub, is an error: a launch executes what is at the PC.
// spec: vortex-hardware-facts §9 item 9; abi kernel image
func (d *Device) ResolveKernel(base, pc uint64) (Kernel, error) {
	var hb [abi.KernelImageHeaderBytes]byte
	if err := d.mem.Read(base, hb[:]); err != nil {
		return nil, fmt.Errorf("STARTUP_ADDR 0x%x: reading the module image: %w", base, err)
	}
	h, err := abi.DecodeKernelImageHeader(hb[:])
	if err != nil {
		return nil, fmt.Errorf("STARTUP_ADDR 0x%x: %w", base, err)
	}
	first := base + abi.KernelImageHeaderBytes + abi.KernelImageEntryBytes*uint64(h.Count)
	end := base + uint64(h.Size)
	if pc < first || pc+abi.KernelStubHeaderBytes > end || pc < base {
		return nil, fmt.Errorf("KERNEL_ENTRY 0x%x outside the stubs of the image at 0x%x (size %d)", pc, base, h.Size)
	}
	var sb [abi.KernelStubHeaderBytes]byte
	if err := d.mem.Read(pc, sb[:]); err != nil {
		return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: %w", pc, err)
	}
	s, err := abi.DecodeKernelStub(sb[:])
	if err != nil {
		return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: %w", pc, err)
	}
	if pc+abi.KernelStubHeaderBytes+uint64(s.PayloadLen) > end {
		return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: stub payload runs past the image", pc)
	}
	payload := make([]byte, s.PayloadLen)
	if err := d.mem.Read(pc+abi.KernelStubHeaderBytes, payload); err != nil {
		return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: %w", pc, err)
	}
	switch s.Kind {
	case abi.KernelCode:
		k, err := d.codeKernel(abi.KernelCodePC(pc), payload)
		if err != nil {
			return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: %w", pc, err)
		}
		return k, nil
	case abi.KernelLibrary:
		k, ok := d.lib.Lookup(string(payload))
		if !ok {
			return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: kernel %q is not in the device's library", pc, payload)
		}
		return k, nil
	default:
		if d.lib.blob == nil {
			return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: compiled-shader blob (%d bytes) and no blob loader", pc, len(payload))
		}
		k, err := d.lib.blob(payload)
		if err != nil {
			return nil, fmt.Errorf("KERNEL_ENTRY 0x%x: loading blob: %w", pc, err)
		}
		return k, nil
	}
}
