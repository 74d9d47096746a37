package raster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"vortexgfx/abi"
)

// Config is the engine shape (VX_config.toml [raster] and the device shape).
// Zero fields take the defaults of rasterizer §12.
type Config struct {
	Engines  int  // raster engines device-wide = Clusters × engines per cluster (a power of two); default 1
	Clusters int  // clusters the engines belong to (divides Engines); default 1
	Slices   int  // walker slices per engine; default 1
	Threads  int  // NUM_THREADS, a multiple of 4; default 4
	Cores    int  // cores per cluster for owner affinity; default 1
	BinLog   int  // VX_CFG_RASTER_BIN_LOG_SIZE; default 7
	BlockLog int  // VX_CFG_RASTER_BLOCK_LOG_SIZE; default 2
	EarlyZ   bool // VX_CFG_RASTER_EARLYZ_ENABLE
	// Fill is the QE's tie rule for a pixel exactly on an edge (E = 0):
	// FillTopLeft (the zero value) or FillInclusive. See FillRule.
	Fill    FillRule
	Workers int // host goroutines walking bins; default GOMAXPROCS
	// Cost is the performance-counter model (READS/LAT/ST and the rcache);
	// zero fields take the defaults documented on CostModel.
	Cost CostModel
}

func (c Config) resolve() (Config, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Engines, 1)
	def(&c.Clusters, 1)
	def(&c.Slices, 1)
	def(&c.Threads, 4)
	def(&c.Cores, 1)
	def(&c.BinLog, abi.DefaultBinLogSize)
	def(&c.BlockLog, abi.DefaultBlockLogSize)
	def(&c.Workers, runtime.GOMAXPROCS(0))
	switch {
	case c.Engines < 1 || c.Engines&(c.Engines-1) != 0:
		return c, fmt.Errorf("raster: engine count %d is not a power of two", c.Engines)
	case c.Clusters < 1 || c.Engines%c.Clusters != 0:
		return c, fmt.Errorf("raster: %d engines do not split evenly over %d clusters", c.Engines, c.Clusters)
	case c.Slices < 1:
		return c, fmt.Errorf("raster: slice count %d", c.Slices)
	case c.Threads < 4 || c.Threads%abi.QuadLanes != 0 || c.Threads > 64:
		return c, fmt.Errorf("raster: NUM_THREADS %d is not a multiple of 4 in [4, 64]", c.Threads)
	case c.Cores < 1:
		return c, fmt.Errorf("raster: core count %d", c.Cores)
	case c.BlockLog < 1 || c.BinLog < c.BlockLog || c.BinLog > 12:
		return c, fmt.Errorf("raster: bin log %d / block log %d", c.BinLog, c.BlockLog)
	case c.Workers < 1:
		return c, fmt.Errorf("raster: worker count %d", c.Workers)
	case c.Fill != FillTopLeft && c.Fill != FillInclusive:
		return c, fmt.Errorf("raster: fill rule %d is neither top-left (0) nor inclusive (1)", c.Fill)
	}
	var err error
	c.Cost, err = c.Cost.resolve()
	return c, err
}

// Wave is one packed fragment wave: Quads covered quads in lanes 4q..4q+3, each
// lane's FRAG_POS ({covered[31], y[30:16], x[15:0]}) and FRAG_PID. Lanes past
// 4·Quads are inactive. spec: rasterizer §8, §9.2, §11
type Wave struct {
	Quads  int
	Pos    []uint32
	PID    []uint32
	Entry  uint64 // FRAG_ENTRY
	Param  uint64 // FRAG_PARAM
	PC     uint64 // snooped KMU startup PC
	Engine int
	// Worker is the index (0 ≤ Worker < Config.Workers) of the host goroutine
	// launching the wave: launches with one Worker never run concurrently, so
	// a Launch may keep per-worker state.
	Worker int
}

// Launch receives each wave with its owner core's device-wide index: the
// walking engine's cluster × Cores + the quad's owner within that cluster
// (rasterizer §9.1: an engine's waves go to its own cluster's cores). The wave is
// reused after the call returns. Launches for different bins may run concurrently.
type Launch func(core int, w *Wave) error

// Stats are the engine's per-frame counters.
type Stats struct {
	Bins         int64 // non-empty bins walked
	EmptyBins    int64 // headers skipped without a pid fetch
	Pairs        int64 // (bin, primitive) records fetched
	TileRejects  int64 // squares rejected by the TE extent test
	Quads        int64 // covered quads emitted
	Waves        int64 // fragment waves launched
	Lanes        int64 // active lanes launched (4 per quad)
	Fragments    int64 // covered pixels launched
	EarlyZCulled int64 // pixels culled by early-Z
	Reads        int64 // fetch requests: headers, pids and primitive records
	SlicePairs   []int64
	// Perf holds each engine's performance counters (index = engine), from the
	// cost model of CostModel; filled when the frame completes without error.
	Perf []EnginePerf
}

func (s *Stats) add(o *Stats) {
	s.Bins += o.Bins
	s.EmptyBins += o.EmptyBins
	s.Pairs += o.Pairs
	s.TileRejects += o.TileRejects
	s.Quads += o.Quads
	s.Waves += o.Waves
	s.Lanes += o.Lanes
	s.Fragments += o.Fragments
	s.EarlyZCulled += o.EarlyZCulled
	s.Reads += o.Reads
	for i, v := range o.SlicePairs {
		s.SlicePairs[i] += v
	}
}

// ErrDuplicateBin is returned when two non-empty headers name the same bin: the
// engines would walk one pixel from two places.
var ErrDuplicateBin = errors.New("raster: duplicate bin header")

// frame is one kicked frame's resolved, read-only state.
type frame struct {
	cfg        Config
	st         State
	mem        Memory
	headers    []abi.BinHeader
	pidsBase   uint64
	pbuf       uint64
	stride     uint64
	words      int
	xmin, xmax int32
	ymin, ymax int32
	earlyZ     bool
	zfunc      abi.CompareFunc
	zbuf       []byte
	zpitch     int
	launch     Launch
	// walk is the tile engine each record is walked with and flush the
	// packer's end-of-bin flush: (*walker).walk and (*walker).flush, or in
	// tests the plain oracle's, so whole frames can be compared.
	walk  func(w *walker, x, y int32, e [3]int32) error
	flush func(w *walker) error
}

// Run kicks one frame (the grid-less launch) and walks every engine's stripe of
// bins, launching fragment waves, until the frame drains. The image produced by
// the launches is independent of cfg.Workers and cfg.Engines.
// spec: rasterizer §5, §6, §10
func Run(mem Memory, st *State, cfg Config, launch Launch) (Stats, error) {
	return run(mem, st, cfg, launch, (*walker).walk, (*walker).flush)
}

// run is Run with the tile engine to walk each record with and the packer
// flush that ends each bin.
func run(mem Memory, st *State, cfg Config, launch Launch, walk func(w *walker, x, y int32, e [3]int32) error, flush func(w *walker) error) (Stats, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return Stats{}, err
	}
	f := &frame{cfg: cfg, st: *st, mem: mem, launch: launch, walk: walk, flush: flush}
	stats := Stats{SlicePairs: make([]int64, cfg.Slices)}
	if st.FragEntry() == 0 {
		return stats, nil // FRAG_ENTRY = 0: nothing is armed (facts §9 item 7)
	}
	f.stride = uint64(st.PBufStride)
	if f.stride == 0 {
		f.stride = abi.PrimBytes // SimX treats 0 as sizeof(rast_prim_t)
	}
	f.earlyZ = cfg.EarlyZ && st.EarlyZSafe&1 != 0
	f.words = abi.RasterVisibleWords
	if f.earlyZ {
		f.words = abi.RasterVisibleWordsEarlyZ
	}
	if f.stride%4 != 0 || f.stride < uint64(4*f.words) {
		return stats, fmt.Errorf("raster: PBUF_STRIDE %d is not a multiple of 4 holding %d words", f.stride, f.words)
	}
	xmin, xmax := abi.UnpackScissor(st.ScissorX)
	ymin, ymax := abi.UnpackScissor(st.ScissorY)
	if ymax > 0x8000 {
		return stats, fmt.Errorf("raster: scissor ymax %d does not fit FRAG_POS (15 bits)", ymax)
	}
	f.xmin, f.xmax, f.ymin, f.ymax = int32(xmin), int32(xmax), int32(ymin), int32(ymax)
	f.pbuf = abi.ByteAddr(st.PBufAddr)
	tbuf := abi.ByteAddr(st.TBufAddr)
	n := int(st.TileCount)
	if n == 0 {
		return stats, nil
	}
	if n > 1<<24 {
		return stats, fmt.Errorf("raster: TILE_COUNT %d is implausibly large", n)
	}
	hb, err := mem.View(tbuf, n*abi.BinHeaderBytes)
	if err != nil {
		return stats, fmt.Errorf("raster: tile headers at 0x%x (%d): %w", tbuf, n, err)
	}
	f.headers = make([]abi.BinHeader, n)
	seen := make(map[uint32]int, n)
	for i := range f.headers {
		h := abi.DecodeBinHeader(hb[i*abi.BinHeaderBytes:])
		f.headers[i] = h
		if h.PidsCount == 0 {
			continue
		}
		key := uint32(h.BinY)<<16 | uint32(h.BinX)
		if j, dup := seen[key]; dup {
			return stats, fmt.Errorf("%w: headers %d and %d both name bin (%d, %d)", ErrDuplicateBin, j, i, h.BinX, h.BinY)
		}
		seen[key] = i
	}
	f.pidsBase = abi.PidsBase(tbuf, n)
	if f.earlyZ {
		f.zfunc = abi.CompareFunc(st.DepthFunc & 0xFFFF)
		f.zpitch = int(st.ZBufPitch)
		if xmax > xmin && ymax > ymin {
			if f.zpitch < 4*xmax {
				return stats, fmt.Errorf("raster: early-Z depth pitch %d below scissor width %d", f.zpitch, xmax)
			}
			zn := f.zpitch*(ymax-1) + 4*xmax
			if f.zbuf, err = mem.View(abi.ByteAddr(st.ZBufAddr), zn); err != nil {
				return stats, fmt.Errorf("raster: early-Z depth view: %w", err)
			}
		}
	}
	// Static striping: engine e walks headers e, e+N, … (rasterizer §6.2).
	jobs := make([]job, 0, n)
	for e := 0; e < cfg.Engines; e++ {
		cnt := abi.EngineBinCount(n, e, cfg.Engines)
		for k := 0; k < cnt; k++ {
			jobs = append(jobs, job{engine: e, hdr: e + k*cfg.Engines})
		}
	}
	for i := range jobs {
		jobs[i].done = make(chan struct{})
	}
	errs := make([]error, len(jobs))
	var next atomic.Int64
	var failed atomic.Bool
	workers := min(cfg.Workers, len(jobs))
	ws := make([]*walker, workers)
	var wg sync.WaitGroup
	for w := range ws {
		ws[w] = newWalker(f)
		ws[w].wave.Worker = w
		wg.Add(1)
		go func(wk *walker) {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return
				}
				if err := wk.bin(&jobs[i]); err != nil {
					errs[i] = err
					failed.Store(true)
				}
				close(jobs[i].done)
			}
		}(ws[w])
	}
	// The cost model replays each job as soon as it is walked, beside the
	// walkers, instead of after the last one: it reads only what a finished
	// job recorded (its pids and walk costs), in the same job order, so the
	// counters are the ones a replay after the walk computes.
	stop := make(chan struct{})
	type perfResult struct {
		perf []EnginePerf
		err  error
	}
	replayed := make(chan perfResult, 1)
	go func() {
		p, err := f.perf(jobs, stop)
		replayed <- perfResult{p, err}
	}()
	wg.Wait()
	close(stop)
	pr := <-replayed
	for _, wk := range ws {
		stats.add(&wk.stats)
	}
	for _, err := range errs {
		if err != nil {
			return stats, err
		}
	}
	stats.Perf = pr.perf
	return stats, pr.err
}

// job is one header an engine walks, with its pid list as the walk fetched it
// and the walk cost of each of its records in pid-list order (TE squares
// visited plus BE quad slots, in cycles), which the cost model replays; done
// is closed when the walk of the job has ended (with or without an error).
// spec: rasterizer §6.2, §13
type job struct {
	engine, hdr int
	pids        []uint32
	cost        []int32
	done        chan struct{}
}

// square is one TE work item: a 2^level square at (x, y) with its edge values.
type square struct {
	x, y  int32
	level int32
	e     [3]int32
}

// walker is one goroutine's walk state: the TE stack, the packer and a wave.
type walker struct {
	f       *frame
	stats   Stats
	stack   [64]square
	quads   []abi.Stamp
	owner   int
	engine  int
	cluster int
	cyc     int64 // walk cycles of the current record (cost model)
	// RasterOwner of the last emitted quad's bin (key: binY << 16 | binX).
	ownKey   uint32
	ownVal   int
	ownValid bool
	wave     Wave
	// prior is how many buffered quads precede the current walk: the only
	// ones its quads can collide with (emit).
	prior int
	// blockCyc is the BE's cycles per block: one per quad.
	blockCyc int64
	// current primitive
	a, b     [3]int32
	ext      [3]int32
	tl       [3]bool
	za, zb   int32
	zc       int32
	pid      uint32
	stampPID uint16   // pid as a stamp carries it
	t        [3]int32 // each edge's least passing value (leastPassing)
	lo, hi   [3]int64 // per-edge offset bounds over a block's pixels (setup)
	// exact4: blocks are 4×4 and no edge sum of the primitive wraps in the
	// bin, so block4 may decide pixels and quads by sign bits alone.
	exact4 bool
}

func newWalker(f *frame) *walker {
	w := &walker{f: f, stats: Stats{SlicePairs: make([]int64, f.cfg.Slices)}}
	w.blockCyc = int64(1) << (2 * (f.cfg.BlockLog - 1))
	w.quads = make([]abi.Stamp, 0, f.cfg.Threads/abi.QuadLanes)
	w.wave.Pos = make([]uint32, f.cfg.Threads)
	w.wave.PID = make([]uint32, f.cfg.Threads)
	w.wave.Entry, w.wave.Param, w.wave.PC = f.st.FragEntry(), f.st.FragParam(), f.st.StartupPC()
	return w
}

// bin walks one header: skip an empty bin without touching its pids (stale-pid
// rule), else fetch the pid list and each record's hardware-visible slice and
// walk the primitives in list order. spec: rasterizer §6.1, §7
func (w *walker) bin(j *job) error {
	f := w.f
	h := f.headers[j.hdr]
	w.engine = j.engine
	w.cluster = j.engine / (f.cfg.Engines / f.cfg.Clusters)
	w.stats.Reads++
	if h.PidsCount == 0 {
		w.stats.EmptyBins++
		return nil
	}
	w.stats.Bins++
	cnt := int(h.PidsCount)
	if cnt > 1<<abi.PipePrimBits {
		return fmt.Errorf("raster: bin (%d, %d): pid count %d is implausibly large", h.BinX, h.BinY, cnt)
	}
	pb, err := f.mem.View(f.pidsBase+uint64(h.PidsOffset)*4, cnt*4)
	if err != nil {
		return fmt.Errorf("raster: bin (%d, %d): pid list [%d, +%d): %w", h.BinX, h.BinY, h.PidsOffset, cnt, err)
	}
	j.pids = make([]uint32, cnt)
	var maxPid uint32
	for i := range j.pids {
		pid := binary.LittleEndian.Uint32(pb[4*i:]) & (abi.MaxPrimsPerPass - 1)
		j.pids[i] = pid
		maxPid = max(maxPid, pid)
	}
	w.stats.Reads += int64(cnt)
	rb, err := f.mem.View(f.pbuf, int(uint64(maxPid)*f.stride)+4*f.words)
	if err != nil {
		return fmt.Errorf("raster: bin (%d, %d): primitive records up to pid %d: %w", h.BinX, h.BinY, maxPid, err)
	}
	ox, oy := int32(h.BinX)<<f.cfg.BinLog, int32(h.BinY)<<f.cfg.BinLog
	w.owner = -1
	j.cost = make([]int32, len(j.pids))
	slice := 0 // record i goes to walker slice i mod Slices
	for i, pid := range j.pids {
		w.stats.Pairs++
		w.stats.Reads++
		w.stats.SlicePairs[slice]++
		if slice++; slice == f.cfg.Slices {
			slice = 0
		}
		rec := rb[uint64(pid)*f.stride:]
		w.pid = pid
		var e0 [3]int32
		for k := 0; k < 3; k++ {
			a := int32(binary.LittleEndian.Uint32(rec[12*k:]))
			b := int32(binary.LittleEndian.Uint32(rec[12*k+4:]))
			c := int32(binary.LittleEndian.Uint32(rec[12*k+8:]))
			w.a[k], w.b[k] = a, b
			e0[k] = a*ox + b*oy + c // engine front: evaluate at the bin origin
			w.ext[k] = max(0, a) + max(0, b)
			w.tl[k] = f.cfg.Fill.passesTie(a, b)
		}
		if f.earlyZ {
			z := rec[4*abi.PrimZWord:]
			w.za = int32(binary.LittleEndian.Uint32(z))
			w.zb = int32(binary.LittleEndian.Uint32(z[4:]))
			w.zc = int32(binary.LittleEndian.Uint32(z[8:]))
		}
		w.cyc = 0
		if err := f.walk(w, ox, oy, e0); err != nil {
			return fmt.Errorf("raster: bin (%d, %d) pid %d: %w", h.BinX, h.BinY, pid, err)
		}
		j.cost[i] = int32(min(w.cyc, 1<<31-1))
	}
	return f.flush(w)
}

// PlaneDepth is the screen-space depth MAC A′·X + B′·Y + C′ on raw Q7.24 words
// at integer (X, Y), truncated to 32 bits and clamped to [0, 0xFFFFFF] exactly as
// the fragment kernel's late-Z computes it. spec: facts §3.3 (early-Z)
func PlaneDepth(a, b, c int32, x, y int32) uint32 {
	d := int32(int64(a)*int64(x) + int64(b)*int64(y) + int64(c))
	switch {
	case d < 0:
		return 0
	case uint32(d) > abi.DepthMask:
		return abi.DepthMask
	}
	return uint32(d)
}
