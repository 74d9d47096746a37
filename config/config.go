// Package config is the device configuration: the shape of the simulated GPU, its
// command processor and its fixed-function units, loaded from defaults or a TOML file.
// The hardware keeps these as preprocessor macros (the CP has no config block at all,
// spec: command-processor §1.1); here one file sets every knob, and the capability
// words the CP exposes are computed from it.
//
// A TOML file has the sections [device], [cp] and [raster]; every key is optional and
// unknown keys are errors:
//
//	[device]
//	threads = 16          # threads per warp (power of two, 1..64; a multiple of 4 with RASTER)
//	warps = 4             # warps per core
//	cores_per_socket = 2
//	sockets_per_cluster = 2
//	clusters = 1
//	cores = "ir"          # what runs compiled compute programs: "ir" or "isa" (below)
//	[cp]
//	flavor = "emu"        # or "rtl"
//	queues = 4
//	vm = false            # MMU-aware DMA and VA buffers (emu only)
//	pipeline = false      # overlap DMA with GPU work inside a queue (FENCE orders)
//	[raster]
//	early_z = true
//	fill_rule = "top_left" # or "inclusive" (the RTL QE's tie rule)
package config

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"strings"

	"github.com/BurntSushi/toml"

	"vortexgfx/abi"
)

// Config is the whole configuration.
type Config struct {
	Device Device `toml:"device" json:"device"`
	CP     CP     `toml:"cp" json:"cp"`
	Raster Raster `toml:"raster" json:"raster"`
}

// Device is the GPU's shape. Counts that the capability word stores as log2 must be
// powers of two. spec: command-processor §6 (GPU_DEV_CAPS), vortex-hardware-facts §1.1
type Device struct {
	ImplID            uint8  `toml:"impl_id" json:"impl_id"`
	XLen              int    `toml:"xlen" json:"xlen"`                               // 32 or 64
	Threads           int    `toml:"threads" json:"threads"`                         // threads per warp
	Warps             int    `toml:"warps" json:"warps"`                             // warps per core
	CoresPerSocket    int    `toml:"cores_per_socket" json:"cores_per_socket"`       // socket size
	SocketsPerCluster int    `toml:"sockets_per_cluster" json:"sockets_per_cluster"` // cluster size
	Clusters          int    `toml:"clusters" json:"clusters"`
	IssueWidth        int    `toml:"issue_width" json:"issue_width"`
	LocalMemBytes     uint64 `toml:"local_mem_bytes" json:"local_mem_bytes"` // 0 = no LMEM
	MemBanks          int    `toml:"mem_banks" json:"mem_banks"`
	MemBankAddrBits   int    `toml:"mem_bank_addr_bits" json:"mem_bank_addr_bits"` // bank size = 1 << bits
	ClockHz           uint64 `toml:"clock_hz" json:"clock_hz"`
	Misa              string `toml:"misa" json:"misa"` // RISC-V extension letters
	ICache            bool   `toml:"icache" json:"icache"`
	DCache            bool   `toml:"dcache" json:"dcache"`
	L2                bool   `toml:"l2" json:"l2"`
	L3                bool   `toml:"l3" json:"l3"`
	Zicond            bool   `toml:"zicond" json:"zicond"`
	TEX               bool   `toml:"tex" json:"tex"`
	RASTER            bool   `toml:"raster" json:"raster"`
	OM                bool   `toml:"om" json:"om"`
	// Cores selects what executes compiled compute programs: CoresIR (the
	// default) runs the shader IR executor as the kernel; CoresISA compiles each
	// program to an RV32IMAF + Vortex kernel (shader/codegen) that the KMU
	// launches at its PC on modelled SIMT cores (device/simt), every warp fetching
	// its instructions from device memory. spec: vortexpipe-driver.md §2.1-2.5
	Cores string `toml:"cores" json:"cores"`
}

// The values of device.cores.
const (
	CoresIR  = "ir"
	CoresISA = "isa"
)

// ISA reports whether compiled programs run as machine code (device.cores = "isa").
func (d Device) ISA() bool { return d.Cores == CoresISA }

// CP is the command processor's configuration, the [cp] block the hardware lacks.
// spec: command-processor §1.1, §6
type CP struct {
	Flavor          string `toml:"flavor" json:"flavor"` // "emu" or "rtl"
	Queues          int    `toml:"queues" json:"queues"`
	RingSizeLog2    int    `toml:"ring_size_log2" json:"ring_size_log2"`         // what the runtime programs
	RingSizeLog2Max int    `toml:"ring_size_log2_max" json:"ring_size_log2_max"` // CP_DEV_CAPS[15:8]
	AXITIDWidth     int    `toml:"axi_tid_width" json:"axi_tid_width"`
	VM              bool   `toml:"vm" json:"vm"` // emulation flavour only
	CycleFreqHz     uint64 `toml:"cycle_freq_hz" json:"cycle_freq_hz"`
	// Pipeline lets a queue overlap DMA with GPU (DCR/KMU) work, ordered only by
	// CMD_FENCE. The CP advertises it as CP_DEV_CAPS bit 27 (FENCE_ORDERING), so the
	// runtime fences DMA/GPU switches only on a CP that needs it.
	// spec: command-processor §10 item 3
	Pipeline bool `toml:"pipeline" json:"pipeline"`
}

// Raster holds the knobs of rasterizer §12 plus our host-side parallelism.
type Raster struct {
	EnginesPerCluster int  `toml:"engines_per_cluster" json:"engines_per_cluster"` // 0 = max(1, ceil(cores/16))
	Slices            int  `toml:"slices" json:"slices"`
	BinLogSize        int  `toml:"bin_log_size" json:"bin_log_size"`
	BlockLogSize      int  `toml:"block_log_size" json:"block_log_size"`
	MemFIFODepth      int  `toml:"mem_fifo_depth" json:"mem_fifo_depth"`
	QuadFIFODepth     int  `toml:"quad_fifo_depth" json:"quad_fifo_depth"`
	MemQueueSize      int  `toml:"mem_queue_size" json:"mem_queue_size"`
	EarlyZ            bool `toml:"early_z" json:"early_z"`
	// FillRule is the QE's rule for a pixel exactly on an edge: "top_left"
	// (rasterizer.md §7.4, the C++ models; the default) or "inclusive"
	// (VX_raster_qe.sv: E ≥ 0 on every edge). See raster.FillRule.
	FillRule string `toml:"fill_rule" json:"fill_rule"`
	// Workers is the number of host goroutines that walk bins (0 = GOMAXPROCS). It
	// changes speed only: the image is identical for every value.
	Workers int `toml:"workers" json:"workers"`
}

// Default returns the default configuration: one cluster of 2×2 cores, 4 warps of 16
// threads, every extension present, the emulation CP with four queues, and the
// rasterizer defaults of rasterizer §12.
func Default() Config {
	return Config{
		Device: Device{
			ImplID: 1, XLen: 32, Threads: 16, Warps: 4, CoresPerSocket: 2, SocketsPerCluster: 2,
			Clusters: 1, IssueWidth: 1, LocalMemBytes: 16 << 10, MemBanks: 2, MemBankAddrBits: 28,
			ClockHz: 200_000_000, Misa: "AFIM", ICache: true, DCache: true, L2: false, L3: false,
			Zicond: true, TEX: true, RASTER: true, OM: true, Cores: CoresIR,
		},
		CP: CP{
			Flavor: "emu", Queues: 4, RingSizeLog2: abi.DefaultRingSizeLog2, RingSizeLog2Max: 16,
			AXITIDWidth: 6, VM: false, CycleFreqHz: 200_000_000,
		},
		Raster: Raster{
			EnginesPerCluster: 0, Slices: 1, BinLogSize: abi.DefaultBinLogSize,
			BlockLogSize: abi.DefaultBlockLogSize, MemFIFODepth: 8, QuadFIFODepth: 32,
			MemQueueSize: 4, EarlyZ: false, FillRule: "top_left", Workers: 0,
		},
	}
}

// Load reads a TOML file over the defaults and validates the result.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes TOML text (name is used in messages) over the defaults and validates.
func Parse(name string, data []byte) (Config, error) {
	cfg := Default()
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&cfg)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return Config{}, fmt.Errorf("%s:%d: %s", name, perr.Position.Line, perr.Message)
		}
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return Config{}, fmt.Errorf("%s: unknown key(s): %s", name, strings.Join(keys, ", "))
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

func pow2(n int) bool { return n > 0 && n&(n-1) == 0 }

func log2(n int) uint8 { return uint8(bits.TrailingZeros(uint(n))) }

// Validate checks every field and names the first bad key.
func (c Config) Validate() error {
	d := c.Device
	for _, f := range []struct {
		key string
		v   int
		max int
	}{
		{"device.threads", d.Threads, 64}, {"device.warps", d.Warps, 128},
		{"device.cores_per_socket", d.CoresPerSocket, 128}, {"device.sockets_per_cluster", d.SocketsPerCluster, 128},
		{"device.clusters", d.Clusters, 128}, {"device.issue_width", d.IssueWidth, 128},
		{"device.mem_banks", d.MemBanks, 128},
	} {
		if !pow2(f.v) || f.v > f.max {
			return fmt.Errorf("%s = %d: want a power of two in 1..%d", f.key, f.v, f.max)
		}
	}
	if d.XLen != 32 && d.XLen != 64 {
		return fmt.Errorf("device.xlen = %d: want 32 or 64", d.XLen)
	}
	if d.LocalMemBytes != 0 && (d.LocalMemBytes&(d.LocalMemBytes-1) != 0 || d.LocalMemBytes > 1<<31) {
		return fmt.Errorf("device.local_mem_bytes = %d: want 0 or a power of two up to 2 GiB", d.LocalMemBytes)
	}
	if d.MemBankAddrBits < abi.MemBankSizeBias || d.MemBankAddrBits > abi.MemBankSizeBias+31 {
		return fmt.Errorf("device.mem_bank_addr_bits = %d: want %d..%d", d.MemBankAddrBits, abi.MemBankSizeBias, abi.MemBankSizeBias+31)
	}
	if d.RASTER && d.Threads%abi.QuadLanes != 0 {
		return fmt.Errorf("device.threads = %d: RASTER needs a multiple of 4 (a quad is four lanes, rasterizer §12)", d.Threads)
	}
	switch d.Cores {
	case CoresIR:
	case CoresISA:
		// The core model (device/simt) is RV32 with at most 32 lanes per warp and
		// 32 warps per core (a thread mask is one 32-bit register).
		if d.XLen != 32 {
			return fmt.Errorf("device.cores = %q: needs device.xlen = 32 (the kernels are RV32IMAF), not %d", d.Cores, d.XLen)
		}
		if d.Threads > 32 || d.Warps > 32 {
			return fmt.Errorf("device.cores = %q: the SIMT core model runs at most 32 threads × 32 warps, not %d × %d", d.Cores, d.Threads, d.Warps)
		}
		if d.LocalMemBytes > 64<<10 {
			return fmt.Errorf("device.local_mem_bytes = %d: cores = %q maps local memory in the top 64 KiB of the 32-bit space (device.ISALocalMemBase)", d.LocalMemBytes, d.Cores)
		}
	default:
		return fmt.Errorf("device.cores = %q: want %q or %q", d.Cores, CoresIR, CoresISA)
	}
	for _, r := range d.Misa {
		if r < 'A' || r > 'Z' {
			return fmt.Errorf("device.misa = %q: want upper-case extension letters", d.Misa)
		}
	}
	flavor, err := abi.ParseFlavor(c.CP.Flavor)
	if err != nil {
		return fmt.Errorf("cp.flavor: %w", err)
	}
	if c.CP.Queues < 1 || c.CP.Queues > 32 {
		return fmt.Errorf("cp.queues = %d: want 1..32", c.CP.Queues)
	}
	if c.CP.RingSizeLog2Max < 12 || c.CP.RingSizeLog2Max > 30 {
		return fmt.Errorf("cp.ring_size_log2_max = %d: want 12..30", c.CP.RingSizeLog2Max)
	}
	if c.CP.RingSizeLog2 < 12 || c.CP.RingSizeLog2 > c.CP.RingSizeLog2Max {
		return fmt.Errorf("cp.ring_size_log2 = %d: want 12..%d", c.CP.RingSizeLog2, c.CP.RingSizeLog2Max)
	}
	if c.CP.AXITIDWidth < 1 || c.CP.AXITIDWidth > 255 {
		return fmt.Errorf("cp.axi_tid_width = %d: want 1..255", c.CP.AXITIDWidth)
	}
	if c.CP.VM && flavor == abi.FlavorRTL {
		return fmt.Errorf("cp.vm = true: the rtl flavour has no VM (command-processor §10 item 2)")
	}
	if c.CP.CycleFreqHz == 0 || c.CP.CycleFreqHz > 0xFFFFFFFF {
		return fmt.Errorf("cp.cycle_freq_hz = %d: want 1..4294967295", c.CP.CycleFreqHz)
	}
	r := c.Raster
	if r.EnginesPerCluster != 0 && !pow2(r.EnginesPerCluster) {
		return fmt.Errorf("raster.engines_per_cluster = %d: want 0 (auto) or a power of two", r.EnginesPerCluster)
	}
	if r.Slices < 1 || r.Slices > 16 {
		return fmt.Errorf("raster.slices = %d: want 1..16", r.Slices)
	}
	if r.BlockLogSize < 1 || r.BinLogSize < r.BlockLogSize || r.BinLogSize > 10 {
		return fmt.Errorf("raster.bin_log_size = %d, block_log_size = %d: want 1 <= block <= bin <= 10", r.BinLogSize, r.BlockLogSize)
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"raster.mem_fifo_depth", r.MemFIFODepth}, {"raster.quad_fifo_depth", r.QuadFIFODepth}, {"raster.mem_queue_size", r.MemQueueSize}} {
		if f.v < 1 || f.v > 1<<16 {
			return fmt.Errorf("%s = %d: want 1..65536", f.key, f.v)
		}
	}
	if r.Workers < 0 {
		return fmt.Errorf("raster.workers = %d: want >= 0", r.Workers)
	}
	if r.FillRule != "top_left" && r.FillRule != "inclusive" {
		return fmt.Errorf("raster.fill_rule = %q: want \"top_left\" or \"inclusive\"", r.FillRule)
	}
	return nil
}

// FlavorValue returns the parsed CP flavour (Validate has checked it).
func (c CP) FlavorValue() abi.Flavor {
	f, _ := abi.ParseFlavor(c.Flavor)
	return f
}

// NumCores is clusters × sockets per cluster × cores per socket.
func (d Device) NumCores() int { return d.Clusters * d.SocketsPerCluster * d.CoresPerSocket }

// DeviceMemBytes is the device memory size: banks × bank size.
func (d Device) DeviceMemBytes() uint64 { return uint64(d.MemBanks) << uint(d.MemBankAddrBits) }

// RasterEngines is the device-wide raster engine count N = clusters × engines per
// cluster, engines per cluster defaulting to max(1, ceil(cores/16)). spec: rasterizer §6.2, §12
func (c Config) RasterEngines() int {
	per := c.Raster.EnginesPerCluster
	if per == 0 {
		cores := c.Device.NumCores() / c.Device.Clusters
		per = max(1, (cores+15)/16)
		if !pow2(per) {
			per = 1 << bits.Len(uint(per))
		}
	}
	return per * c.Device.Clusters
}

// DevCaps returns the GPU_DEV_CAPS fields.
func (d Device) DevCaps() abi.GPUDevCaps {
	var lmem uint8
	if d.LocalMemBytes != 0 {
		lmem = uint8(bits.TrailingZeros64(d.LocalMemBytes))
	}
	return abi.GPUDevCaps{
		ImplID: d.ImplID, LogThreads: log2(d.Threads), LogWarps: log2(d.Warps),
		LogSocketSize: log2(d.CoresPerSocket), LogClusterSize: log2(d.SocketsPerCluster),
		LogClusters: log2(d.Clusters), LogIssueWidth: log2(d.IssueWidth), LogLocalMem: lmem,
		LogMemBanks: log2(d.MemBanks), MemBankAddrWidth: uint8(d.MemBankAddrBits),
	}
}

// ISACaps returns the GPU_ISA_CAPS word.
func (d Device) ISACaps() abi.ISACaps {
	var exts []abi.ISAExt
	for _, e := range []struct {
		on  bool
		ext abi.ISAExt
	}{
		{d.ICache, abi.ExtICache}, {d.DCache, abi.ExtDCache}, {d.L2, abi.ExtL2}, {d.L3, abi.ExtL3},
		{d.LocalMemBytes != 0, abi.ExtLMEM}, {d.Zicond, abi.ExtZicond}, {d.TEX, abi.ExtTEX},
		{d.RASTER, abi.ExtRASTER}, {d.OM, abi.ExtOM},
	} {
		if e.on {
			exts = append(exts, e.ext)
		}
	}
	caps, _ := abi.NewISACaps(d.Misa, d.XLen, exts...) // Validate checked the inputs
	return caps
}

// CPDevCaps returns the CP_DEV_CAPS word's fields for this configuration: the
// emulation flavour sets bits 24–26 (VM only when configured), the rtl flavour clears
// them; our gap closures (bits 28–30) are present in both, and bit 27
// (FENCE_ORDERING: CMD_FENCE is what orders DMA against GPU work) is set exactly when
// the CP pipelines (cp.pipeline), since a CP that runs each queue in order needs no
// fences.
func (c CP) CPDevCaps() abi.CPDevCaps {
	emu := c.FlavorValue() == abi.FlavorEmu
	return abi.CPDevCaps{
		NumQueues: uint8(c.Queues), RingSizeLog2Max: uint8(c.RingSizeLog2Max), AXITIDWidth: uint8(c.AXITIDWidth),
		VMEnabled: emu && c.VM, SupportsDraw: emu, SupportsQMD: emu,
		FenceOrdering: c.Pipeline, Profiling: true, Interrupts: true, Mailbox: true,
	}
}
