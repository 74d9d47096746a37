package config

import (
	"strings"
	"testing"

	"vortexgfx/abi"
)

func TestDefaultIsValid(t *testing.T) {
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Device.NumCores() != 4 || c.RasterEngines() != 1 {
		t.Errorf("cores %d engines %d", c.Device.NumCores(), c.RasterEngines())
	}
	caps, err := c.Device.DevCaps().Encode()
	if err != nil {
		t.Fatal(err)
	}
	d := abi.DecodeGPUDevCaps(caps)
	if d.NumThreads() != 16 || d.NumWarps() != 4 || d.NumCores() != 4 || d.LocalMemBytes() != 16<<10 {
		t.Errorf("caps decode %+v", d)
	}
	isa := c.Device.ISACaps()
	if !isa.Has(abi.ExtTEX) || !isa.Has(abi.ExtRASTER) || !isa.Has(abi.ExtOM) || !isa.Has(abi.ExtLMEM) || isa.XLen() != 32 {
		t.Errorf("isa caps %v", isa.Exts())
	}
}

// spec: command-processor §6 — the emulation CP sets bits 24–26, the RTL clears them.
func TestCPDevCapsByFlavor(t *testing.T) {
	c := Default()
	emu := c.CP.CPDevCaps()
	if !emu.SupportsDraw || !emu.SupportsQMD || emu.VMEnabled || emu.NumQueues != 4 {
		t.Errorf("emu %+v", emu)
	}
	c.CP.Flavor = "rtl"
	rtl := c.CP.CPDevCaps()
	if rtl.Encode()>>24&7 != 0 {
		t.Errorf("rtl caps 0x%08X must clear bits 24–26", rtl.Encode())
	}
	c.CP.Flavor, c.CP.VM = "emu", true
	if !c.CP.CPDevCaps().VMEnabled {
		t.Error("VM bit with cp.vm")
	}
}

func TestParse(t *testing.T) {
	c, err := Parse("t.toml", []byte("[device]\nthreads = 8\nclusters = 2\n[cp]\nflavor = \"rtl\"\nqueues = 2\n[raster]\nearly_z = true\nslices = 2\nengines_per_cluster = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Device.Threads != 8 || c.Device.Clusters != 2 || c.CP.FlavorValue() != abi.FlavorRTL || !c.Raster.EarlyZ ||
		c.Raster.Slices != 2 || c.RasterEngines() != 4 || c.Device.Warps != 4 {
		t.Errorf("parsed %+v", c)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[device]\nthreads = 3\n", "device.threads = 3"},
		{"[device]\nthreads = 2\n", "RASTER needs a multiple of 4"},
		{"[device]\nthreadz = 4\n", "unknown key(s): device.threadz"},
		{"[cp]\nflavor = \"fpga\"\n", "cp.flavor"},
		{"[cp]\nflavor = \"rtl\"\nvm = true\n", "rtl flavour has no VM"},
		{"[cp]\nqueues = 0\n", "cp.queues = 0"},
		{"[raster]\nbin_log_size = 1\n", "raster.bin_log_size"},
		{"[raster]\nfill_rule = \"top-left\"\n", `raster.fill_rule = "top-left": want "top_left" or "inclusive"`},
		{"[device\n", "t.toml:2: expected"},
		{"[device]\nxlen = 16\n", "device.xlen = 16"},
		{"[device]\nmisa = \"im\"\n", "device.misa"},
		{"[device]\nlocal_mem_bytes = 1000\n", "device.local_mem_bytes"},
		{"[device]\ncores = \"rtl\"\n", `device.cores = "rtl": want "ir" or "isa"`},
		{"[device]\ncores = \"\"\n", `device.cores = ""`},
		{"[device]\ncores = \"isa\"\nxlen = 64\n", "needs device.xlen = 32"},
		{"[device]\ncores = \"isa\"\nthreads = 64\n", "at most 32 threads"},
		{"[device]\ncores = \"isa\"\nlocal_mem_bytes = 131072\n", "device.local_mem_bytes = 131072: cores = \"isa\""},
	} {
		_, err := Parse("t.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to mention %q", tc.text, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[device]\nthreads = 8\n"))
	f.Add([]byte("[cp]\nflavor = \"rtl\"\n"))
	f.Add([]byte("[device]\ncores = \"isa\"\nthreads = 32\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.toml", data)
		if err == nil {
			if err := c.Validate(); err != nil {
				t.Fatalf("Parse accepted an invalid config: %v", err)
			}
			if _, err := c.Device.DevCaps().Encode(); err != nil {
				t.Fatalf("valid config with unencodable caps: %v", err)
			}
		}
	})
}

// spec: command-processor §10 item 3 — cp.pipeline (default off) is what sets
// CP_DEV_CAPS bit 27, FENCE_ORDERING, on either flavour.
func TestPipelineKey(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"", false},
		{"[cp]\npipeline = false\n", false},
		{"[cp]\npipeline = true\n", true},
		{"[cp]\nflavor = \"rtl\"\npipeline = true\n", true},
	} {
		c, err := Parse("t.toml", []byte(tc.text))
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		caps := c.CP.CPDevCaps()
		if c.CP.Pipeline != tc.want || caps.FenceOrdering != tc.want || caps.Encode()>>abi.CapFenceOrdering&1 == 1 != tc.want {
			t.Errorf("%q: pipeline %v, caps %+v; want %v", tc.text, c.CP.Pipeline, caps, tc.want)
		}
	}
}

// device.cores selects the IR executor (the default) or machine code on the SIMT
// core model; unknown values are errors naming the key (TestParseErrors).
func TestCoresKey(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string
		isa  bool
	}{
		{"", CoresIR, false},
		{"[device]\ncores = \"ir\"\n", CoresIR, false},
		{"[device]\ncores = \"isa\"\n", CoresISA, true},
		{"[device]\ncores = \"isa\"\nthreads = 32\nwarps = 32\n", CoresISA, true},
	} {
		c, err := Parse("t.toml", []byte(tc.text))
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if c.Device.Cores != tc.want || c.Device.ISA() != tc.isa {
			t.Errorf("%q: cores %q ISA %v, want %q %v", tc.text, c.Device.Cores, c.Device.ISA(), tc.want, tc.isa)
		}
	}
}

// The QE's tie rule: top_left by default, inclusive when asked; device's
// RasterConfig turns the name into raster.FillRule. spec: rasterizer §7.4
func TestFillRuleKey(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "top_left"},
		{"[raster]\nfill_rule = \"inclusive\"\n", "inclusive"},
		{"[raster]\nfill_rule = \"top_left\"\n", "top_left"},
	} {
		c, err := Parse("t.toml", []byte(tc.text))
		if err != nil || c.Raster.FillRule != tc.want {
			t.Errorf("%q: fill_rule %q, %v; want %q", tc.text, c.Raster.FillRule, err, tc.want)
		}
	}
}
