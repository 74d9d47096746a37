package draw3d

import (
	"fmt"
	"path/filepath"
	"testing"

	"vortexgfx/config"
	"vortexgfx/device/raster"
	"vortexgfx/trace"
)

// BenchmarkReplay replays each shared trace at 128² and 1024² with 1 and 2
// worker goroutines (one frame per iteration, setup and binning included).
func BenchmarkReplay(b *testing.B) {
	dir := traceDir(b)
	for _, name := range []string{"triangle", "box", "carnival", "scene", "polybump"} {
		tr, err := trace.Load(filepath.Join(dir, name+".cgltrace"))
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{128, 1024} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%d/w%d", name, size, workers), func(b *testing.B) {
					d := Host{Width: size, Height: size, Raster: raster.Config{Workers: workers, Engines: 2}}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if _, _, err := d.Replay(tr); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkRasterScene isolates the RASTER walk + fragment kernel + OM of the
// scene trace at 1024² (buffers bound once) to show allocations per frame.
func BenchmarkRasterScene(b *testing.B) {
	dir := traceDir(b)
	tr, err := trace.Load(filepath.Join(dir, "scene.cgltrace"))
	if err != nil {
		b.Fatal(err)
	}
	d := Host{Width: 1024, Height: 1024, Raster: raster.Config{Workers: 1}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := d.Replay(tr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeviceReplay replays each shared trace through the whole device
// (runtime, emu CP, front-end kernels, RASTER, fragment kernel, TEX, OM) at 128²
// and 1024² with 1 and 2 raster workers: one frame per iteration, simulator
// start-up included.
func BenchmarkDeviceReplay(b *testing.B) {
	dir := traceDir(b)
	for _, name := range []string{"triangle", "box", "carnival", "scene", "polybump"} {
		tr, err := trace.Load(filepath.Join(dir, name+".cgltrace"))
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{128, 1024} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%d/w%d", name, size, workers), func(b *testing.B) {
					cfg := config.Default()
					cfg.Raster.Workers = workers
					d := Device{Width: size, Height: size, Config: cfg}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if _, _, err := d.Replay(tr); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
