package raster

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"vortexgfx/abi"
)

// Frame layout of the whole-frame differential test: tile buffer, primitive
// buffer and depth buffer far enough apart for a 256² target of 16-pixel bins
// each listing every primitive.
const (
	frameTBuf = 0x1000
	framePBuf = 0x100000
	frameZBuf = 0x200000
	frameSize = 256
)

// frameScene is one random frame: the memory, the DCR state and the engine
// shape it is walked with.
type frameScene struct {
	m    mem
	st   *State
	cfg  Config
	desc string
}

// sceneTriangle returns a random primitive's nine edge words (Q15.16-style,
// grxgpu setup: max(|a|, |b|) = scale, evaluated at pixel centres or corners)
// of one of the size classes the walk specialises on, placed around (cx, cy)
// in a target of bins of side bs, and a name for the class.
func sceneTriangle(r *rand.Rand, cx, cy, bs float64) ([9]int32, string) {
	var x, y [3]float64
	scale, centre := 65536.0, 0.5
	class := ""
	pt := func(spread float64) (float64, float64) {
		return cx + (r.Float64()-0.5)*spread, cy + (r.Float64()-0.5)*spread
	}
	switch r.IntN(10) {
	case 0:
		class = "tiny" // within a quad or a block
		x[0], y[0] = pt(bs)
		for k := 1; k < 3; k++ {
			x[k], y[k] = x[0]+r.Float64()*3-1.5, y[0]+r.Float64()*3-1.5
		}
	case 1:
		class = "small"
		x[0], y[0] = pt(bs)
		for k := 1; k < 3; k++ {
			x[k], y[k] = x[0]+r.Float64()*12-6, y[0]+r.Float64()*12-6
		}
	case 2:
		class = "medium"
		x[0], y[0] = pt(2 * bs)
		for k := 1; k < 3; k++ {
			x[k], y[k] = x[0]+(r.Float64()-0.5)*2*bs, y[0]+(r.Float64()-0.5)*2*bs
		}
	case 3:
		class = "bin-covering"
		for k := 0; k < 3; k++ {
			x[k], y[k] = pt(10 * bs)
		}
	case 4:
		class = "sliver"
		x[0], y[0] = pt(3 * bs)
		x[1], y[1] = pt(3 * bs)
		t := r.Float64()
		x[2], y[2] = x[0]+t*(x[1]-x[0])+r.Float64()*0.2-0.1, y[0]+t*(y[1]-y[0])+r.Float64()*0.2-0.1
	case 5:
		class = "guard-band" // far outside the target, coefficients that wrap
		for k := 0; k < 3; k++ {
			x[k], y[k] = pt(1 << 18)
		}
		scale = float64(int64(1) << (16 + r.IntN(14)))
	case 6:
		class = "on-bin-boundary" // vertices on bin corners and edges along bin and block lines
		for k := 0; k < 3; k++ {
			px, py := pt(3 * bs)
			x[k], y[k] = math.Round(px/bs)*bs, math.Round(py/bs)*bs
			if r.IntN(2) == 0 {
				x[k], y[k] = math.Round(px/4)*4, math.Round(py/4)*4
			}
		}
		centre = float64(r.IntN(2)) / 2
	case 7:
		class = "degenerate" // collinear or repeated vertices
		x[0], y[0] = pt(2 * bs)
		x[1], y[1] = pt(2 * bs)
		if r.IntN(2) == 0 {
			x[2], y[2] = x[1], y[1]
		} else {
			x[2], y[2] = 2*x[1]-x[0], 2*y[1]-y[0]
		}
	case 8:
		class = "random coefficients"
		var e [9]int32
		for i := range e {
			e[i] = int32(r.Uint32())
			if r.IntN(2) == 0 {
				e[i] = int32(r.IntN(2001)) - 1000
			}
		}
		return e, class
	default:
		class = "on pixel centres"
		for k := 0; k < 3; k++ {
			px, py := pt(bs)
			x[k], y[k] = math.Round(px), math.Round(py)
		}
		centre = 0
	}
	if r.IntN(2) == 0 { // either winding
		x[1], x[2], y[1], y[2] = x[2], x[1], y[2], y[1]
	}
	a, b, c := vertexEdges(x, y, scale, centre)
	var e [9]int32
	for k := 0; k < 3; k++ {
		e[3*k], e[3*k+1], e[3*k+2] = a[k], b[k], c[k]
	}
	return e, class
}

// randomFrame builds a frame of n random primitives over a 256² target: bins of
// 2^4…2^7 pixels and blocks of 2^1…2^3, each bin listing the primitives whose
// neighbourhood touches it (some bins listing every primitive, some none), a
// depth plane per primitive over a random depth buffer, a random scissor, and
// a random engine shape: 1–4 engines over 1–2 clusters, 1–3 slices, 4–64
// threads, 1–4 cores, early-Z on or off.
func randomFrame(r *rand.Rand, n int) frameScene {
	binLog := 4 + r.IntN(4)
	blockLog := 1 + r.IntN(3)
	if r.IntN(2) == 0 {
		blockLog = 2 // the default, which has its own block engine
	}
	bs := float64(int(1) << binLog)
	nb := frameSize >> binLog
	m := make(mem, frameZBuf+4*frameSize*frameSize)
	for i := frameZBuf; i < len(m); i++ {
		m[i] = byte(r.Uint32())
	}
	classes := map[string]int{}
	type box struct{ x0, y0, x1, y1 int }
	boxes := make([]box, n)
	for p := 0; p < n; p++ {
		cx, cy := r.Float64()*frameSize, r.Float64()*frameSize
		e, class := sceneTriangle(r, cx, cy, bs)
		classes[class]++
		rec := m[framePBuf+p*abi.PrimBytes:]
		for i, v := range e {
			binary.LittleEndian.PutUint32(rec[4*i:], uint32(v))
		}
		z := rec[4*abi.PrimZWord:]
		binary.LittleEndian.PutUint32(z, uint32(int32(r.IntN(1<<17))-1<<16))
		binary.LittleEndian.PutUint32(z[4:], uint32(int32(r.IntN(1<<17))-1<<16))
		binary.LittleEndian.PutUint32(z[8:], r.Uint32()>>8)
		// Conservative binning: the bins within a bin and a half of the
		// primitive's anchor (random ones for random coefficients).
		h := 1.5 * bs
		if class == "bin-covering" || class == "random coefficients" || class == "guard-band" {
			h = frameSize
		}
		boxes[p] = box{int(max(0, cx-h)) >> binLog, int(max(0, cy-h)) >> binLog,
			int(min(frameSize-1, cx+h)) >> binLog, int(min(frameSize-1, cy+h)) >> binLog}
	}
	var hs []abi.BinHeader
	var pids []uint32
	for by := 0; by < nb; by++ {
		for bx := 0; bx < nb; bx++ {
			h := abi.BinHeader{BinX: uint16(bx), BinY: uint16(by), PidsOffset: uint32(len(pids))}
			if r.IntN(8) != 0 {
				for p, b := range boxes {
					if bx >= b.x0 && bx <= b.x1 && by >= b.y0 && by <= b.y1 {
						pids = append(pids, uint32(p))
					}
				}
			}
			h.PidsCount = uint32(len(pids)) - h.PidsOffset
			hs = append(hs, h)
		}
	}
	r.Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
	for i, h := range hs {
		h.Put(m[frameTBuf+12*i:])
	}
	base := abi.PidsBase(frameTBuf, len(hs))
	if base+4*uint64(len(pids)) > framePBuf {
		panic("pid lists overlap the primitive buffer")
	}
	for i, p := range pids {
		binary.LittleEndian.PutUint32(m[base+4*uint64(i):], p)
	}
	xmin, ymin, xmax, ymax := 0, 0, frameSize, frameSize
	if r.IntN(2) == 0 {
		xmin, ymin = r.IntN(frameSize/2), r.IntN(frameSize/2)
		xmax, ymax = xmin+1+r.IntN(frameSize-xmin), ymin+1+r.IntN(frameSize-ymin)
	}
	s := &State{}
	for _, wr := range []struct {
		a abi.DCR
		v uint32
	}{
		{abi.DCRRasterTBufAddr, frameTBuf >> 6}, {abi.DCRRasterTileCount, uint32(len(hs))},
		{abi.DCRRasterPBufAddr, framePBuf >> 6}, {abi.DCRRasterPBufStride, abi.PrimBytes},
		{abi.DCRRasterScissorX, uint32(xmax)<<16 | uint32(xmin)}, {abi.DCRRasterScissorY, uint32(ymax)<<16 | uint32(ymin)},
		{abi.DCRRasterFragEntryLo, 0x80}, {abi.DCROMZBufAddr, frameZBuf >> 6}, {abi.DCROMZBufPitch, 4 * frameSize},
		{abi.DCROMDepthFunc, uint32(abi.CmpLess)}, {abi.DCROMEarlyZSafe, uint32(r.IntN(2))},
	} {
		s.Write(wr.a, wr.v)
	}
	clusters := 1 + r.IntN(2)
	cfg := Config{Engines: clusters << r.IntN(2), Clusters: clusters, Slices: 1 + r.IntN(3),
		Threads: 4 * (1 + r.IntN(16)), Cores: 1 + r.IntN(4), BinLog: binLog, BlockLog: blockLog, EarlyZ: r.IntN(2) == 0}
	desc := fmt.Sprintf("bin %d block %d scissor [%d,%d)x[%d,%d) earlyZ %v/%d engines %d clusters %d slices %d threads %d cores %d, %d prims %v",
		binLog, blockLog, xmin, xmax, ymin, ymax, cfg.EarlyZ, s.EarlyZSafe, cfg.Engines, cfg.Clusters, cfg.Slices, cfg.Threads, cfg.Cores, n, classes)
	return frameScene{m, s, cfg, desc}
}

// frameOutcome is what a whole frame gives: every launch in order and the
// frame's counters.
type frameOutcome struct {
	waves []launched
	stats Stats
}

func runFrame(t *testing.T, sc frameScene, workers int, plain bool) frameOutcome {
	t.Helper()
	var out frameOutcome
	cfg := sc.cfg
	cfg.Workers = workers
	launch := func(core int, wv *Wave) error {
		out.waves = append(out.waves, launched{core, wv.Quads, wv.Engine, slices.Clone(wv.Pos), slices.Clone(wv.PID)})
		return nil
	}
	if workers > 1 {
		launch = func(int, *Wave) error { return nil } // launch order across bins is the workers'
	}
	walk, flush := (*walker).walk, (*walker).flush
	if plain {
		walk, flush = (*walker).plainWalk, (*walker).plainFlush
	}
	st, err := run(sc.m, sc.st, cfg, launch, walk, flush)
	if err != nil {
		t.Fatalf("%s: %v", sc.desc, err)
	}
	out.stats = st
	return out
}

// TestFrameMatchesPlain is the whole-frame differential test of the fast walk:
// random frames mixing every size class the walk specialises on (tiny, small,
// medium, bin-covering), slivers, degenerate and guard-band primitives whose
// sums wrap, vertices and edges on bin and block boundaries and on pixel
// centres, over shuffled headers, several engines, clusters and slices,
// partial scissors, early-Z on and off and both fill rules, must give the plain walk's every
// wave (core, engine, lanes) in launch order and every counter, the cost
// model's cycles and the per-slice pair counts included; with three workers
// the counters must still be the same.
// spec: rasterizer §6, §7.3–§7.5, §8, §9.1, §13
func TestFrameMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	frames := 150
	if testing.Short() {
		frames = 15
	}
	var quads, culled int64
	for i := 0; i < frames; i++ {
		sc := randomFrame(r, 20+r.IntN(60))
		// Both tie rules: they differ only on zero edge values, which the
		// pixel-centre vertices make common.
		sc.cfg.Fill = FillRule(i & 1)
		sc.desc += ", fill " + sc.cfg.Fill.String()
		want := runFrame(t, sc, 1, true)
		got := runFrame(t, sc, 1, false)
		if !reflect.DeepEqual(got.stats, want.stats) {
			t.Fatalf("frame %d (%s): stats\n%+v\nplain walk\n%+v", i, sc.desc, got.stats, want.stats)
		}
		if len(got.waves) != len(want.waves) {
			t.Fatalf("frame %d (%s): %d waves, plain walk %d", i, sc.desc, len(got.waves), len(want.waves))
		}
		for j, g := range got.waves {
			w := want.waves[j]
			if g.core != w.core || g.quads != w.quads || g.engine != w.engine || !slices.Equal(g.pos, w.pos) || !slices.Equal(g.pid, w.pid) {
				t.Fatalf("frame %d (%s): wave %d = %+v, plain walk %+v", i, sc.desc, j, g, w)
			}
		}
		if par := runFrame(t, sc, 3, false); !reflect.DeepEqual(par.stats, want.stats) {
			t.Fatalf("frame %d (%s): stats with 3 workers\n%+v\nplain walk\n%+v", i, sc.desc, par.stats, want.stats)
		}
		quads += want.stats.Quads
		culled += want.stats.EarlyZCulled
	}
	if quads < 20000 || culled < 1000 {
		t.Fatalf("only %d quads and %d early-Z culls compared", quads, culled)
	}
	t.Logf("%d frames, %d quads, %d early-Z culls", frames, quads, culled)
}
