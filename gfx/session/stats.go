package session

import (
	"vortexgfx/abi"
	"vortexgfx/gfx/frontend"
)

// PerfCounters are the unit counters of vortex-hardware-facts §7 — every
// RASTER, TEX and OM counter — read as the host reads them (runtime PerfCounter:
// a CP DCR_READ of MPM_VALUE per core, low and high word), summed over the
// cores. The device models behind them are raster.CostModel, tex.CostModel and
// om.CostModel. spec: vortex-hardware-facts §7
type PerfCounters struct {
	RasterReads       uint64 `json:"raster_reads"`
	RasterLat         uint64 `json:"raster_lat"`
	RasterStalls      uint64 `json:"raster_st"`
	RasterCacheReads  uint64 `json:"raster_rcache_reads"`
	RasterCacheMissR  uint64 `json:"raster_rcache_miss_r"`
	RasterCacheBankSt uint64 `json:"raster_rcache_bank_st"`
	RasterCacheMSHRSt uint64 `json:"raster_rcache_mshr_st"`
	TexReads          uint64 `json:"tex_reads"`
	TexLat            uint64 `json:"tex_lat"`
	TexStalls         uint64 `json:"tex_st"`
	TexCacheReads     uint64 `json:"tex_tcache_reads"`
	TexCacheMissR     uint64 `json:"tex_tcache_miss_r"`
	TexCacheBankSt    uint64 `json:"tex_tcache_bank_st"`
	TexCacheMSHRSt    uint64 `json:"tex_tcache_mshr_st"`
	OMReads           uint64 `json:"om_reads"`
	OMWrites          uint64 `json:"om_writes"`
	OMLat             uint64 `json:"om_lat"`
	OMStalls          uint64 `json:"om_st"`
	OMCacheReads      uint64 `json:"om_ocache_reads"`
	OMCacheWrites     uint64 `json:"om_ocache_writes"`
	OMCacheMissR      uint64 `json:"om_ocache_miss_r"`
	OMCacheMissW      uint64 `json:"om_ocache_miss_w"`
	OMCacheBankSt     uint64 `json:"om_ocache_bank_st"`
	OMCacheMSHRSt     uint64 `json:"om_ocache_mshr_st"`
}

// perfField is one counter of PerfCounters with its MPM class and CSR.
type perfField struct {
	class abi.MPMClass
	csr   int
	v     *uint64
}

// fields lists p's counters with their MPM class and CSR (facts §7).
func (p *PerfCounters) fields() [24]perfField {
	r, t, o := abi.MPMRaster, abi.MPMTex, abi.MPMOM
	return [24]perfField{
		{r, abi.CSRRasterReads, &p.RasterReads}, {r, abi.CSRRasterLat, &p.RasterLat}, {r, abi.CSRRasterStalls, &p.RasterStalls},
		{r, abi.CSRRasterCacheReads, &p.RasterCacheReads}, {r, abi.CSRRasterCacheMissR, &p.RasterCacheMissR},
		{r, abi.CSRRasterCacheBankSt, &p.RasterCacheBankSt}, {r, abi.CSRRasterCacheMSHRSt, &p.RasterCacheMSHRSt},
		{t, abi.CSRTexReads, &p.TexReads}, {t, abi.CSRTexLat, &p.TexLat}, {t, abi.CSRTexStalls, &p.TexStalls},
		{t, abi.CSRTexCacheReads, &p.TexCacheReads}, {t, abi.CSRTexCacheMissR, &p.TexCacheMissR},
		{t, abi.CSRTexCacheBankSt, &p.TexCacheBankSt}, {t, abi.CSRTexCacheMSHRSt, &p.TexCacheMSHRSt},
		{o, abi.CSROMReads, &p.OMReads}, {o, abi.CSROMWrites, &p.OMWrites}, {o, abi.CSROMLat, &p.OMLat},
		{o, abi.CSROMStalls, &p.OMStalls}, {o, abi.CSROMCacheReads, &p.OMCacheReads}, {o, abi.CSROMCacheWrites, &p.OMCacheWrites},
		{o, abi.CSROMCacheMissR, &p.OMCacheMissR}, {o, abi.CSROMCacheMissW, &p.OMCacheMissW},
		{o, abi.CSROMCacheBankSt, &p.OMCacheBankSt}, {o, abi.CSROMCacheMSHRSt, &p.OMCacheMSHRSt},
	}
}

// Add is p + o, counter by counter (a frame's counters from its draws').
func (p PerfCounters) Add(o PerfCounters) PerfCounters {
	pf, of := p.fields(), o.fields()
	for i := range pf {
		*pf[i].v += *of[i].v
	}
	return p
}

// Sub is p − o, counter by counter (the counters of what ran between two reads).
func (p PerfCounters) Sub(o PerfCounters) PerfCounters {
	pf, of := p.fields(), o.fields()
	for i := range pf {
		*pf[i].v -= *of[i].v
	}
	return p
}

// DrawStats are one draw call's counters through the device.
type DrawStats struct {
	Vertices int `json:"vertices"` // the draw's vertices (indices) over its instances
	// VerticesShaded is the vertex stage's invocations: Vertices, or with
	// the driver's post-transform vertex reuse one per distinct index.
	VerticesShaded int            `json:"vertices_shaded,omitempty"`
	Primitives     int            `json:"primitives"` // after clip/cull
	FrontEnd       frontend.Stats `json:"front_end"`  // device front end only
	BinsTouched    int64          `json:"bins_touched"`
	Pairs          int64          `json:"pairs"` // (bin, prim) pairs walked
	Quads          int64          `json:"quads"`
	Waves          int64          `json:"waves"`
	Occupancy      float64        `json:"occupancy"` // active lanes / (waves × warp width)
	EarlyZCulled   int64          `json:"early_z_culled"`
	Shaded         int64          `json:"fragments_shaded"`
	Written        int64          `json:"fragments_written"`
	Perf           PerfCounters   `json:"perf"`
	Commands       uint64         `json:"cp_commands"`      // ring commands the runtime wrote
	CmdDraw        uint64         `json:"cp_cmd_draw"`      // CMD_DRAW retired
	CmdLaunch      uint64         `json:"cp_cmd_launch"`    // CMD_LAUNCH / LAUNCH_QMD retired (outside draw bundles)
	CmdDCRWrite    uint64         `json:"cp_cmd_dcr_write"` // ring DCR_WRITEs retired
	Doorbells      uint64         `json:"cp_doorbells"`
	Lines          uint64         `json:"cp_lines"`
	CPCycles       uint64         `json:"cp_cycles"` // first tail commit to last retire
	KickCycles     uint64         `json:"kick_cycles"`
	// Route says which units ran in software and why; the SW counters are
	// the software merger's samples merged and passed and the software tile
	// walk's quads and waves. spec: vortexpipe §2.3.3
	Route    Route `json:"route"`
	SWMerged int64 `json:"sw_samples_merged"`
	SWPassed int64 `json:"sw_samples_passed"`
	SWQuads  int64 `json:"sw_quads"`
	SWWaves  int64 `json:"sw_waves"`
	// ISA is what the draw's machine-code kernels executed (cores = "isa";
	// absent when none ran).
	ISA *ISAStats `json:"isa,omitempty"`
}

// ISAStats are a draw's machine-code instruction counts per kernel: the
// vertex stage's grid launches, expand_k's and binning_k's machine code and
// the fragment waves (the §3.4 wrapper and the program), each as warp-instructions (minstret summed over warps: one per
// instruction a warp issued) and thread-instructions (each warp-instruction
// counted once per active lane). Kernels that ran as Go code count 0.
// spec: vortex-hardware-facts.md §7 (MINSTRET); docs/ABI.md row 42
type ISAStats struct {
	VSWarpInstructions   uint64 `json:"vs_warp_instructions"`
	VSThreadInstructions uint64 `json:"vs_thread_instructions"`
	FSWarpInstructions   uint64 `json:"fs_warp_instructions"`
	FSThreadInstructions uint64 `json:"fs_thread_instructions"`
	// Binning* are binning_k's stages as machine code (gfx/fecode).
	// spec: docs/ABI.md row 47
	BinningWarpInstructions   uint64 `json:"binning_warp_instructions"`
	BinningThreadInstructions uint64 `json:"binning_thread_instructions"`
	// Expand* are expand_k's machine-code launches (gfx/fecode).
	ExpandWarpInstructions   uint64 `json:"expand_warp_instructions"`
	ExpandThreadInstructions uint64 `json:"expand_thread_instructions"`
}

// Add is s + o, counter by counter (nil counts as zero).
func (s *ISAStats) Add(o *ISAStats) *ISAStats {
	if o == nil {
		return s
	}
	r := ISAStats{}
	if s != nil {
		r = *s
	}
	r.VSWarpInstructions += o.VSWarpInstructions
	r.VSThreadInstructions += o.VSThreadInstructions
	r.FSWarpInstructions += o.FSWarpInstructions
	r.FSThreadInstructions += o.FSThreadInstructions
	r.BinningWarpInstructions += o.BinningWarpInstructions
	r.BinningThreadInstructions += o.BinningThreadInstructions
	r.ExpandWarpInstructions += o.ExpandWarpInstructions
	r.ExpandThreadInstructions += o.ExpandThreadInstructions
	return &r
}

// Route is where a draw's units ran and why each software one did (the
// draw3d replay runs every unit fixed-function: its Route is zero).
// spec: vortexpipe §1.5 (no silent fallback), §2.3.3
type Route struct {
	SWTex    bool `json:"sw_tex"`
	SWOM     bool `json:"sw_om"`
	SWRaster bool `json:"sw_raster"`
	// VSISA: the vertex stage ran as machine code (cores = "isa"; a
	// refused one's reason is in Why).
	VSISA bool `json:"vs_isa,omitempty"`
	// FSISA: the fragment stage (the §3.4 wrapper and the program) ran as
	// machine code (cores = "isa"; a fallback's reason is in Why).
	FSISA bool     `json:"fs_isa,omitempty"`
	Why   []string `json:"why,omitempty"`
}
