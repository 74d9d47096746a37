package device_test

import (
	"context"
	"encoding/binary"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/om"
	"vortexgfx/device/tex"
)

// TestGraphicsKickPerf: kickFrame's draw covers a 16×16 pixel square of a
// 32×32 target (256 fragments) with no depth, stencil or blending, so it makes
// one posted colour write per fragment: OCACHE_WRITES = 256 and OCACHE_MISS_W =
// 16, one per row (16 pixels × 4 bytes = one 64-byte line of the 128-byte row;
// the 4 KiB buffer fits the 16 KiB ocache, so each line misses once); no
// reads, no latency, no bank conflicts, no TEX traffic. The walk covers the
// square in 8×8 quadrants: rows 0–7 miss their 8 lines within the first 64
// exports (8 miss slots) and rows 8–15 start at export 128, after those fills
// (102 cycles), so no miss waits for a slot (ST = MSHR_ST = 0). The counters read
// through MPM_VALUE are the frame's and do not depend on cores or workers.
// spec: vortex-hardware-facts §7
func TestGraphicsKickPerf(t *testing.T) {
	var ref *[12]uint64
	for _, shape := range []struct{ cores, workers, engines int }{{1, 1, 1}, {1, 4, 1}, {2, 1, 2}, {2, 4, 2}} {
		cfg := config.Default()
		cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = shape.cores, 1
		cfg.Raster.Workers, cfg.Raster.EnginesPerCluster = shape.workers, shape.engines
		cfg.Raster.BinLogSize = 4
		img, gs, d := kickFrame(t, cfg)
		lines := map[int]bool{}
		frags := 0
		for i := 0; i < len(img); i += 4 {
			if binary.LittleEndian.Uint32(img[i:]) != 0 {
				frags++
				lines[i/64] = true
			}
		}
		o := gs.OM
		if frags != 256 || len(lines) != 16 {
			t.Fatalf("%+v: %d fragments over %d lines, want 256 over 16", shape, frags, len(lines))
		}
		if o.Reads != uint64(frags) || o.Writes != uint64(frags) || o.CacheWrites != uint64(frags) ||
			o.CacheMissW != uint64(len(lines)) || o.CacheReads != 0 || o.CacheMissR != 0 || o.Lat != 0 ||
			o.CacheBankSt != 0 || o.Stalls != 0 || o.CacheMSHRSt != 0 || gs.Tex.Reads != 0 || gs.Tex.CacheReads != 0 {
			t.Errorf("%+v: %d fragments over %d lines: OM %+v TEX %+v", shape, frags, len(lines), o, gs.Tex)
		}
		var got [12]uint64
		for i := range got {
			class, csr := abi.MPMOM, abi.CSROMReads+i
			if i >= 10 {
				class, csr = abi.MPMTex, abi.CSRTexReads+i-10
			}
			for c := 0; c < d.NumCores(); c++ {
				lo, err := d.DCRRead(abi.DCRMPMValue, abi.MPMTag(class, csr, c, false))
				if err != nil {
					t.Fatal(err)
				}
				got[i] += uint64(lo)
			}
		}
		want := [12]uint64{o.Reads, o.Writes, o.Lat, o.Stalls, o.CacheReads, o.CacheWrites, o.CacheMissR, o.CacheMissW,
			o.CacheBankSt, o.CacheMSHRSt, gs.Tex.Reads, gs.Tex.Lat}
		if got != want {
			t.Errorf("%+v: MPM OM/TEX %v, frame %v", shape, got, want)
		}
		if shape.cores == 1 {
			if ref == nil {
				ref = &got
			} else if got != *ref {
				t.Errorf("%+v: counters %v, 1 worker %v", shape, got, *ref)
			}
		}
	}
}

// TestGraphicsCost: SetGraphicsCost reaches the next kick — with one miss slot
// the 16 line misses of kickFrame's square wait for each other — and a bad
// geometry is refused. spec: vortex-hardware-facts §7
func TestGraphicsCost(t *testing.T) {
	cfg := config.Default()
	cfg.Device.CoresPerSocket, cfg.Device.SocketsPerCluster = 1, 1
	cfg.Raster.BinLogSize = 4
	_, _, d := kickFrame(t, cfg)
	if err := d.SetGraphicsCost(tex.CostModel{}, om.CostModel{LineBytes: 48}); err == nil {
		t.Error("48-byte lines accepted")
	}
	if err := d.SetGraphicsCost(tex.CostModel{}, om.CostModel{MSHRs: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Launch(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := d.LastGraphics().OM
	if o.CacheMissW != 16 || o.CacheMSHRSt == 0 || o.Stalls != o.CacheMSHRSt {
		t.Errorf("one miss slot: %+v", o)
	}
}
