package sim

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device"
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
