package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"vortexgfx/abi"
	"vortexgfx/config"
)

// loadConfig returns the defaults, or the TOML file's configuration when path is set.
func loadConfig(path string) (config.Config, error) {
	if path == "" {
		return config.Default(), nil
	}
	return config.Load(path)
}

// infoReport is what `vortex info` prints: the configuration and the capability words
// exactly as the CP exposes them, decoded back (so the numbers shown are the ones a
// host reading the registers would see).
type infoReport struct {
	Config     config.Config `json:"config"`
	GPUDevCaps string        `json:"gpu_dev_caps"`
	GPUISACaps string        `json:"gpu_isa_caps"`
	CPDevCaps  string        `json:"cp_dev_caps"`
	Decoded    struct {
		Version        int      `json:"version"`
		ThreadsPerWarp int      `json:"threads_per_warp"`
		WarpsPerCore   int      `json:"warps_per_core"`
		Cores          int      `json:"cores"`
		Clusters       int      `json:"clusters"`
		SocketSize     int      `json:"socket_size"`
		IssueWidth     int      `json:"issue_width"`
		LocalMemBytes  uint64   `json:"local_mem_bytes"`
		MemBanks       int      `json:"mem_banks"`
		MemBankBytes   uint64   `json:"mem_bank_bytes"`
		XLen           int      `json:"xlen"`
		Misa           string   `json:"misa"`
		Extensions     []string `json:"extensions"`
		CPFlavor       string   `json:"cp_flavor"`
		CPQueues       int      `json:"cp_queues"`
		RingSizeLog2   int      `json:"ring_size_log2_max"`
		AXITIDWidth    int      `json:"axi_tid_width"`
		CPFeatures     []string `json:"cp_features"`
		RasterEngines  int      `json:"raster_engines"`
	} `json:"decoded"`
}

func buildInfo(cfg config.Config) (infoReport, error) {
	var r infoReport
	r.Config = cfg
	devWord, err := cfg.Device.DevCaps().Encode()
	if err != nil {
		return r, err
	}
	isa := cfg.Device.ISACaps()
	cpWord := cfg.CP.CPDevCaps().Encode()
	r.GPUDevCaps = fmt.Sprintf("0x%016X", devWord)
	r.GPUISACaps = fmt.Sprintf("0x%016X", uint64(isa))
	r.CPDevCaps = fmt.Sprintf("0x%08X", cpWord)

	dev := abi.DecodeGPUDevCaps(devWord)
	cp := abi.DecodeCPDevCaps(cpWord)
	d := &r.Decoded
	d.Version = int(dev.ImplID)
	d.ThreadsPerWarp, d.WarpsPerCore, d.Cores = dev.NumThreads(), dev.NumWarps(), dev.NumCores()
	d.Clusters, d.SocketSize, d.IssueWidth = dev.NumClusters(), dev.SocketSize(), 1<<dev.LogIssueWidth
	d.LocalMemBytes, d.MemBanks = dev.LocalMemBytes(), dev.NumMemBanks()
	d.MemBankBytes = 1 << dev.MemBankAddrWidth
	d.XLen, d.Misa = isa.XLen(), isa.MisaLetters()
	d.Extensions = []string{}
	for _, e := range isa.Exts() {
		d.Extensions = append(d.Extensions, e.String())
	}
	d.CPFlavor = cfg.CP.FlavorValue().String()
	d.CPQueues, d.RingSizeLog2, d.AXITIDWidth = int(cp.NumQueues), int(cp.RingSizeLog2Max), int(cp.AXITIDWidth)
	d.CPFeatures = []string{}
	for _, f := range []struct {
		on   bool
		name string
	}{
		{cp.VMEnabled, "VM_ENABLED"}, {cp.SupportsDraw, "SUPPORTS_DRAW"}, {cp.SupportsQMD, "SUPPORTS_QMD"},
		{cp.FenceOrdering, "FENCE_ORDERING"}, {cp.Profiling, "PROFILING"}, {cp.Interrupts, "INTERRUPTS"},
		{cp.Mailbox, "MAILBOX"},
	} {
		if f.on {
			d.CPFeatures = append(d.CPFeatures, f.name)
		}
	}
	d.RasterEngines = cfg.RasterEngines()
	return r, nil
}

func runInfo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	cfgPath := fs.String("config", "", "device configuration `FILE.toml` (default: built-in defaults)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex info [--json] [--config FILE.toml]")
		fmt.Fprintln(stderr, "Prints the device configuration and its capability words, decoded.")
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
		fmt.Fprintf(stderr, "vortex info: %v\n", err)
		return 1
	}
	r, err := buildInfo(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "vortex info: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(stderr, "vortex info: %v\n", err)
			return 1
		}
		return 0
	}
	d := r.Decoded
	fmt.Fprintf(stdout, "Vortex device (impl %d, RV%d, misa %s)\n", d.Version, d.XLen, d.Misa)
	fmt.Fprintf(stdout, "  cores            %d (%d cluster(s) × %d socket(s) × %d core(s))\n", d.Cores, d.Clusters,
		d.Cores/(d.Clusters*d.SocketSize), d.SocketSize)
	fmt.Fprintf(stdout, "  warps per core   %d\n", d.WarpsPerCore)
	fmt.Fprintf(stdout, "  threads per warp %d\n", d.ThreadsPerWarp)
	fmt.Fprintf(stdout, "  issue width      %d\n", d.IssueWidth)
	fmt.Fprintf(stdout, "  local memory     %d bytes\n", d.LocalMemBytes)
	fmt.Fprintf(stdout, "  device memory    %d bank(s) × %d MiB\n", d.MemBanks, d.MemBankBytes>>20)
	fmt.Fprintf(stdout, "  ISA extensions   %s\n", strings.Join(d.Extensions, " "))
	fmt.Fprintf(stdout, "  raster engines   %d (slices %d, bins %d px, early-Z %v)\n", d.RasterEngines,
		cfg.Raster.Slices, 1<<cfg.Raster.BinLogSize, cfg.Raster.EarlyZ)
	fmt.Fprintf(stdout, "Command processor (%s flavour)\n", d.CPFlavor)
	fmt.Fprintf(stdout, "  queues           %d, ring up to 2^%d bytes, AXI TID width %d\n", d.CPQueues, d.RingSizeLog2, d.AXITIDWidth)
	fmt.Fprintf(stdout, "  features         %s\n", strings.Join(d.CPFeatures, " "))
	fmt.Fprintf(stdout, "Capability words\n")
	fmt.Fprintf(stdout, "  CP_DEV_CAPS      %s\n  GPU_DEV_CAPS     %s\n  GPU_ISA_CAPS     %s\n", r.CPDevCaps, r.GPUDevCaps, r.GPUISACaps)
	return 0
}
