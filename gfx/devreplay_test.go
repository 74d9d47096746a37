package gfx

import (
	"fmt"
	"path/filepath"
	"testing"

	"vortexgfx/config"
	"vortexgfx/trace"
)

// deviceCase is one replay configuration of the exact-match table.
type deviceCase struct {
	flavor  string
	engines int
	slices  int
	earlyZ  bool
	workers int
	host    bool
}

func (c deviceCase) String() string {
	fe := "fe"
	if c.host {
		fe = "host"
	}
	return fmt.Sprintf("%s_e%d_s%d_z%v_w%d_%s", c.flavor, c.engines, c.slices, c.earlyZ, c.workers, fe)
}

func (c deviceCase) config() config.Config {
	cfg := config.Default()
	cfg.CP.Flavor = c.flavor
	cfg.Raster.EnginesPerCluster = c.engines
	cfg.Raster.Slices = c.slices
	cfg.Raster.EarlyZ = c.earlyZ
	cfg.Raster.Workers = c.workers
	return cfg
}

func TestDeviceGoldenSmoke(t *testing.T) {
	for _, g := range goldens(t) {
		name := filepath.Base(g.trace)
		name = name[:len(name)-len(".cgltrace")]
		if knownMismatch[name] {
			continue
		}
		tr, err := trace.Load(g.trace)
		if err != nil {
			t.Fatal(err)
		}
		for _, host := range []bool{false, true} {
			c := deviceCase{flavor: "emu", engines: 1, slices: 1, workers: 1, host: host}
			t.Run(filepath.Base(g.png)+"/"+c.String(), func(t *testing.T) {
				img, stats, err := DeviceReplay{Width: g.size, Height: g.size, Planes: goldenPlanes[name][0], Config: c.config(), HostBinning: host}.Replay(tr)
				if err != nil {
					t.Fatal(err)
				}
				n, maxd, first := diff(img, loadPNG(t, g.png))
				if n != 0 {
					t.Errorf("%d differing pixels (max channel diff %d): %v", n, maxd, first)
				}
				t.Logf("%+v", stats[0])
			})
		}
	}
}
