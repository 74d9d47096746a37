package sim

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
	"vortexgfx/device/mem"
)

func TestOpenExposesConfiguredCaps(t *testing.T) {
	for _, flavor := range []string{"emu", "rtl"} {
		cfg := config.Default()
		cfg.CP.Flavor = flavor
		s, err := Open(cfg, device.NewLibrary(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		word, err := cfg.Device.DevCaps().Encode()
		if err != nil {
			t.Fatal(err)
		}
		checks := []struct {
			reg  uint32
			want uint32
		}{
			{abi.RegCPDevCaps, cfg.CP.CPDevCaps().Encode()},
			{abi.RegGPUDevCapsLo, uint32(word)},
			{abi.RegGPUDevCapsHi, uint32(word >> 32)},
			{abi.RegGPUISACapsLo, uint32(cfg.Device.ISACaps())},
			{abi.RegGPUISACapsHi, uint32(cfg.Device.ISACaps() >> 32)},
		}
		for _, c := range checks {
			if got, err := s.ReadReg(c.reg); err != nil || got != c.want {
				t.Errorf("%s: reg %#x = %#x, %v; want %#x", flavor, c.reg, got, err, c.want)
			}
		}
		if s.Flavor().String() != flavor || s.GPU.NumCores() != cfg.Device.NumCores() {
			t.Errorf("%s: flavour %v, %d cores", flavor, s.Flavor(), s.GPU.NumCores())
		}
		a, err := s.HostAlloc(64, 64)
		if err != nil || a < HostBase {
			t.Errorf("host alloc %#x, %v", a, err)
		}
		d, err := s.DevAlloc(64, 64)
		if err != nil || d < DeviceBase || d >= HostBase {
			t.Errorf("device alloc %#x, %v", d, err)
		}
		if err := s.HostWrite(d, []byte{1}); err == nil {
			t.Error("a device address in host space: want a fault")
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
}

func TestOpenRejectsBadConfig(t *testing.T) {
	cfg := config.Default()
	cfg.Device.Threads = 3
	if _, err := Open(cfg, nil, Options{}); err == nil {
		t.Error("threads = 3: want an error")
	}
}

// spec: command-processor §10 item 3 — cp.pipeline (or Options.Pipeline) is what
// CP_DEV_CAPS bit 27 (FENCE_ORDERING) reports, on either flavour.
func TestPipelineCapsBit(t *testing.T) {
	for _, tc := range []struct {
		flavor         string
		cfgPipe, opt   bool
		wantFenceOrder bool
	}{
		{"emu", false, false, false}, {"emu", true, false, true}, {"emu", false, true, true},
		{"rtl", false, false, false}, {"rtl", true, false, true},
	} {
		cfg := config.Default()
		cfg.CP.Flavor, cfg.CP.Pipeline = tc.flavor, tc.cfgPipe
		s, err := Open(cfg, device.NewLibrary(), Options{Pipeline: tc.opt})
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.ReadReg(abi.RegCPDevCaps)
		if err != nil {
			t.Fatal(err)
		}
		if got := abi.DecodeCPDevCaps(v).FenceOrdering; got != tc.wantFenceOrder {
			t.Errorf("%+v: FENCE_ORDERING %v", tc, got)
		}
		if tc.cfgPipe && v != cfg.CP.CPDevCaps().Encode() {
			t.Errorf("%+v: caps %#x, config says %#x", tc, v, cfg.CP.CPDevCaps().Encode())
		}
		s.Close()
	}
}

// spec: vortexpipe §2.4 — the device space covers the link window; ordinary
// allocations stay out of it, fixed ones land in it, and capacity is the
// configured memory size.
func TestLinkWindow(t *testing.T) {
	cfg := config.Default()
	s, err := Open(cfg, device.NewLibrary(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DevAllocAt(abi.LinkBaseFS, 4096); err != nil {
		t.Fatal(err)
	}
	if err := s.DevAllocAt(abi.LinkBaseFS+64, 64); err == nil {
		t.Error("overlapping fixed allocation accepted")
	}
	for i := 0; i < 16; i++ {
		a, err := s.DevAlloc(16<<20, 4096)
		if err != nil {
			t.Fatal(err)
		}
		if a+16<<20 > LinkWindowBase && a < LinkWindowEnd {
			t.Fatalf("allocation %#x in the link window", a)
		}
	}
	if _, err := s.DevAlloc(cfg.Device.DeviceMemBytes(), 64); err == nil {
		t.Error("allocation beyond the configured capacity accepted")
	}
}

// spec: command-processor §8 — with cp.vm the cores translate through CP_SATP.
func TestCoresTranslate(t *testing.T) {
	cfg := config.Default()
	cfg.CP.VM = true
	s, err := Open(cfg, device.NewLibrary(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pt, err := mem.NewPageTable(s.Mem, mem.ModeSv32)
	if err != nil {
		t.Fatal(err)
	}
	pa, _ := s.DevAlloc(mem.PageSize, mem.PageSize)
	if err := pt.Map(0xA000_0000, pa, mem.PageSize, mem.PermRW); err != nil {
		t.Fatal(err)
	}
	cores := s.GPU.Memory()
	// Bare SATP: VA = PA.
	if err := cores.Write(pa+8, []byte{7}); err != nil {
		t.Fatal(err)
	}
	satp := pt.SATP()
	s.WriteReg(abi.RegCPSATPLo, uint32(satp))
	s.WriteReg(abi.RegCPSATPHi, uint32(satp>>32))
	p := []byte{0}
	if err := cores.Read(0xA000_0008, p); err != nil || p[0] != 7 {
		t.Fatalf("translated read = %d, %v", p[0], err)
	}
	if err := cores.Write(0xA000_0FFF, []byte{1, 2}); err == nil {
		t.Fatal("write running off the mapped page accepted")
	}
	if err := cores.Read(pa, p); err == nil {
		t.Fatal("physical address read through the MMU accepted")
	}
}
