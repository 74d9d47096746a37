package draw3d

import (
	"fmt"
	"path/filepath"
	"testing"
	"vortexgfx/gfx/frontend"
	"vortexgfx/gfx/session"

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
	cores   int // cores per socket (2 sockets, 1 cluster)
	host    bool
}

func (c deviceCase) String() string {
	fe := "fe"
	if c.host {
		fe = "host"
	}
	return fmt.Sprintf("%s_e%d_s%d_z%v_w%d_c%d_%s", c.flavor, c.engines, c.slices, c.earlyZ, c.workers, 2*c.cores, fe)
}

func (c deviceCase) config() config.Config {
	cfg := config.Default()
	cfg.CP.Flavor = c.flavor
	cfg.Raster.EnginesPerCluster = c.engines
	cfg.Raster.Slices = c.slices
	cfg.Raster.EarlyZ = c.earlyZ
	cfg.Raster.Workers = c.workers
	if c.cores > 0 {
		cfg.Device.CoresPerSocket = c.cores
	}
	return cfg
}

type deviceGolden struct {
	golden
	name string
	tr   *trace.Trace
}

func deviceGoldens(t *testing.T) []deviceGolden {
	var out []deviceGolden
	for _, g := range goldens(t) {
		name := filepath.Base(g.trace)
		name = name[:len(name)-len(".cgltrace")]
		tr, err := trace.Load(g.trace)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, deviceGolden{g, name, tr})
	}
	return out
}

// replayCheck renders g through the device with c and checks the image against
// the golden (zero differing pixels) and the CP shape of every draw: on emu one
// CMD_DRAW and one doorbell, on rtl a streamed batch (no CMD_DRAW, one doorbell).
func replayCheck(t *testing.T, g deviceGolden, pl frontend.Planes, c deviceCase) []session.DrawStats {
	t.Helper()
	img, stats, err := Device{Width: g.size, Height: g.size, Planes: pl, Config: c.config(), HostBinning: c.host}.Replay(g.tr)
	if err != nil {
		t.Fatal(err)
	}
	if n, maxd, first := diff(img, loadPNG(t, g.png)); n != 0 {
		t.Errorf("%s %v %v: %d differing pixels (max channel diff %d): %v", filepath.Base(g.png), pl, c, n, maxd, first)
	}
	for i, s := range stats {
		if s.Primitives == 0 && s.Waves == 0 {
			continue
		}
		wantDraw, wantLaunch := uint64(1), uint64(0)
		if c.flavor == "rtl" {
			wantDraw, wantLaunch = 0, 10 // nine front-end stages and the kick
			if c.host {
				wantLaunch = 1
			}
		}
		if s.CmdDraw != wantDraw || s.Doorbells != 1 || s.CmdLaunch != wantLaunch {
			t.Errorf("%s draw %d on %s: %d CMD_DRAW, %d doorbells, %d ring launches", g.name, i, c.flavor, s.CmdDraw, s.Doorbells, s.CmdLaunch)
		}
		if c.flavor == "rtl" && s.CmdDCRWrite == 0 {
			t.Errorf("%s draw %d on rtl: the steps were not streamed", g.name, i)
		}
		if s.Written > s.Shaded || s.Perf.OMReads != uint64(s.Shaded) || s.Perf.OMWrites != uint64(s.Written) {
			t.Errorf("%s draw %d: shaded %d written %d, OM counters %+v", g.name, i, s.Shaded, s.Written, s.Perf)
		}
	}
	return stats
}

// TestDeviceGoldens is the exact-match table through device + CP + runtime on a
// diagonal of the configuration space, for every golden the direct harness
// matches and each plane convention it matches with.
func TestDeviceGoldens(t *testing.T) {
	diag := []deviceCase{
		{flavor: "emu", engines: 1, slices: 1, workers: 1},
		{flavor: "rtl", engines: 2, slices: 2, earlyZ: true, workers: 2, cores: 1},
		{flavor: "emu", engines: 4, slices: 1, earlyZ: true, workers: 4, cores: 4, host: true},
		{flavor: "rtl", engines: 1, slices: 2, workers: 1, host: true},
	}
	for _, g := range deviceGoldens(t) {
		for _, pl := range goldenPlanes[g.name] {
			for _, c := range diag {
				t.Run(fmt.Sprintf("%s/%v/%v", filepath.Base(g.png), pl, c), func(t *testing.T) {
					replayCheck(t, g, pl, c)
				})
			}
		}
	}
}

// TestDeviceGoldenMatrix is the full matrix — both CP flavours, 1/2/4 raster
// engines, 1/2 slices, early-Z off/on, 1/2/4 workers — on triangle at 32² and
// carnival at 128², through the device front end (the other goldens take the
// diagonal of TestDeviceGoldens). Early-Z culls only against depth committed
// before the kick, so single-draw goldens cull nothing; TestDeviceEarlyZ covers it.
func TestDeviceGoldenMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("full device matrix skipped in -short")
	}
	var cases []deviceGolden
	for _, g := range deviceGoldens(t) {
		if (g.name == "triangle" && g.size == 32) || g.name == "carnival" {
			cases = append(cases, g)
		}
	}
	for _, flavor := range []string{"emu", "rtl"} {
		for _, engines := range []int{1, 2, 4} {
			for _, slices := range []int{1, 2} {
				for _, earlyZ := range []bool{false, true} {
					for _, workers := range []int{1, 2, 4} {
						c := deviceCase{flavor: flavor, engines: engines, slices: slices, earlyZ: earlyZ, workers: workers, cores: map[int]int{1: 1, 2: 4, 4: 2}[engines]}
						t.Run(c.String(), func(t *testing.T) {
							var culled int64
							for _, g := range cases {
								for _, s := range replayCheck(t, g, goldenPlanes[g.name][0], c) {
									culled += s.EarlyZCulled
								}
							}
							if culled != 0 {
								t.Errorf("early-Z culled %d fragments of single-draw traces", culled)
							}
						})
					}
				}
			}
		}
	}
}

// TestDeviceProducersAgree: the device front end (setup_k + binning_k) and the
// host Binning oracle give identical images for every shared trace, polybump
// included, and the same primitive counts.
func TestDeviceProducersAgree(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range deviceGoldens(t) {
		if seen[g.name] {
			continue
		}
		seen[g.name] = true
		c := deviceCase{flavor: "emu", engines: 2, slices: 1, workers: 2}
		r := Device{Width: 96, Height: 96, Planes: frontend.PlanesV1, Config: c.config()}
		a, sa, err := r.Replay(g.tr)
		if err != nil {
			t.Fatal(err)
		}
		r.HostBinning = true
		b, sb, err := r.Replay(g.tr)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Pix {
			if a.Pix[i] != b.Pix[i] {
				t.Fatalf("%s: pixel %d: front end %08x, host binning %08x", g.name, i, a.Pix[i], b.Pix[i])
			}
		}
		for i := range sa {
			if sa[i].Primitives != sb[i].Primitives || sa[i].Pairs != sb[i].Pairs || sa[i].Quads != sb[i].Quads {
				t.Errorf("%s draw %d: front end %d prims %d pairs %d quads, host %d/%d/%d", g.name, i,
					sa[i].Primitives, sa[i].Pairs, sa[i].Quads, sb[i].Primitives, sb[i].Pairs, sb[i].Quads)
			}
		}
	}
}

// TestDeviceMatchesDirect: polybump (three draws, blending, A8L8 and ARGB
// textures) renders through the device exactly as through the direct harness.
func TestDeviceMatchesDirect(t *testing.T) {
	for _, g := range deviceGoldens(t) {
		if g.name != "polybump" {
			continue
		}
		direct, _, err := Host{Width: g.size, Height: g.size, Planes: frontend.PlanesV1}.Replay(g.tr)
		if err != nil {
			t.Fatal(err)
		}
		dev, _, err := Device{Width: g.size, Height: g.size, Planes: frontend.PlanesV1, Config: config.Default(), HostBinning: true}.Replay(g.tr)
		if err != nil {
			t.Fatal(err)
		}
		for i := range direct.Pix {
			if direct.Pix[i] != dev.Pix[i] {
				t.Fatalf("%s: pixel %d: direct %08x, device %08x", filepath.Base(g.png), i, direct.Pix[i], dev.Pix[i])
			}
		}
	}
}

// occluderTrace is two full-screen quads with depth LESS: the first at z = 0.2,
// the second behind it at z = 0.6 in another colour.
func occluderTrace() *trace.Trace {
	quad := func(z, r float32) trace.DrawCall {
		v := func(x, y float32) trace.Vertex {
			return trace.Vertex{Pos: trace.Pos{X: x, Y: y, Z: z, W: 1}, Color: trace.Color{R: r, G: 0.5, B: 0.25, A: 1}}
		}
		return trace.DrawCall{
			States: trace.States{ColorEnabled: true, ColorWriteMask: 0xFFFFFFFF, DepthTest: true, DepthWriteMask: true,
				DepthFunc: trace.CompareLess},
			Vertices:   map[uint32]trace.Vertex{0: v(-1, -1), 1: v(1, -1), 2: v(-1, 1), 3: v(1, 1)},
			Primitives: []trace.Primitive{{I0: 0, I1: 1, I2: 2}, {I0: 2, I1: 1, I2: 3}},
			Viewport:   trace.Viewport{Right: 800, Bottom: 600, Far: 1},
		}
	}
	return &trace.Trace{DrawCalls: []trace.DrawCall{quad(0.2, 1), quad(0.6, 0)}}
}

// TestDeviceEarlyZ: through the device, early-Z culls the hidden second draw
// entirely (strictly behind the committed first draw), the image equals the run
// without early-Z, and the counters do not depend on the worker count.
func TestDeviceEarlyZ(t *testing.T) {
	tr := occluderTrace()
	var ref *Image
	for _, c := range []deviceCase{
		{flavor: "emu", engines: 1, slices: 1, workers: 1},
		{flavor: "emu", engines: 2, slices: 2, earlyZ: true, workers: 1},
		{flavor: "rtl", engines: 4, slices: 1, earlyZ: true, workers: 4},
	} {
		img, stats, err := Device{Width: 40, Height: 40, Config: c.config()}.Replay(tr)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = img
		}
		for i := range img.Pix {
			if img.Pix[i] != ref.Pix[i] {
				t.Fatalf("%v: pixel %d %08x, without early-Z %08x", c, i, img.Pix[i], ref.Pix[i])
			}
		}
		if s := stats[1]; c.earlyZ && (s.EarlyZCulled != 40*40 || s.Shaded != 0 || s.Quads != 0) {
			t.Errorf("%v: second draw culled %d, shaded %d, %d quads; want all 1600 culled", c, s.EarlyZCulled, s.Shaded, s.Quads)
		}
		if s := stats[1]; !c.earlyZ && (s.EarlyZCulled != 0 || s.Shaded != 40*40 || s.Written != 0) {
			t.Errorf("%v: second draw culled %d, shaded %d, written %d", c, s.EarlyZCulled, s.Shaded, s.Written)
		}
	}
}
