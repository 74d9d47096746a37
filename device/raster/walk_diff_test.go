package raster

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"vortexgfx/abi"
)

// walkCase is one (bin, primitive) walk: the engine shape, the scissor and
// early-Z state, the edges and depth plane, and the bin.
type walkCase struct {
	binLog, blockLog, cores, threads int
	xmin, xmax, ymin, ymax           int32
	earlyZ                           bool
	a, b, c                          [3]int32
	za, zb, zc                       int32
	bx, by                           int32
	pid                              uint32
}

func (c walkCase) String() string {
	return fmt.Sprintf("bin %d block %d cores %d threads %d scissor [%d,%d)x[%d,%d) earlyZ %v a %v b %v c %v z {%d %d %d} bin (%d,%d) pid %d",
		c.binLog, c.blockLog, c.cores, c.threads, c.xmin, c.xmax, c.ymin, c.ymax, c.earlyZ, c.a, c.b, c.c, c.za, c.zb, c.zc, c.bx, c.by, c.pid)
}

// launched is one wave as the launch saw it.
type launched struct {
	core, quads, engine int
	pos, pid            []uint32
}

// walkOutcome is what a walk gives: its waves, counters and walk cycles.
type walkOutcome struct {
	waves []launched
	stats Stats
	cyc   int64
}

// runWalk walks c with the fast walk (plain false) or the plain oracle, then
// flushes the packer.
func runWalk(c walkCase, zbuf []byte, zpitch int, plain bool) (walkOutcome, error) {
	cfg, err := Config{BinLog: c.binLog, BlockLog: c.blockLog, Cores: c.cores, Threads: c.threads, EarlyZ: true, Workers: 1}.resolve()
	if err != nil {
		return walkOutcome{}, err
	}
	var out walkOutcome
	f := &frame{cfg: cfg, xmin: c.xmin, xmax: c.xmax, ymin: c.ymin, ymax: c.ymax, earlyZ: c.earlyZ,
		zfunc: abi.CmpLess, zbuf: zbuf, zpitch: zpitch}
	f.launch = func(core int, wv *Wave) error {
		out.waves = append(out.waves, launched{core, wv.Quads, wv.Engine, slices.Clone(wv.Pos), slices.Clone(wv.PID)})
		return nil
	}
	w := newWalker(f)
	w.owner = -1
	ox, oy := c.bx<<c.binLog, c.by<<c.binLog
	var e0 [3]int32
	for k := 0; k < 3; k++ {
		a, b := c.a[k], c.b[k]
		w.a[k], w.b[k] = a, b
		w.ext[k] = max(0, a) + max(0, b)
		w.tl[k] = a > 0 || (a == 0 && b > 0)
		e0[k] = a*ox + b*oy + c.c[k]
	}
	w.za, w.zb, w.zc, w.pid = c.za, c.zb, c.zc, c.pid
	if plain {
		err = w.plainWalk(ox, oy, e0)
	} else {
		err = w.walk(ox, oy, e0)
	}
	if err != nil {
		return out, err
	}
	out.cyc = w.cyc
	if plain {
		err = w.plainFlush()
	} else {
		err = w.flush()
	}
	out.stats = w.stats
	return out, err
}

// diffWalk requires the fast walk of c to give exactly the plain walk's waves
// (core, quads, every lane's FRAG_POS and FRAG_PID), counters and cycles.
func diffWalk(t testing.TB, c walkCase, zbuf []byte, zpitch int) int {
	t.Helper()
	want, werr := runWalk(c, zbuf, zpitch, true)
	got, gerr := runWalk(c, zbuf, zpitch, false)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%v: error %v, plain walk %v", c, gerr, werr)
	}
	if got.cyc != want.cyc {
		t.Fatalf("%v: %d walk cycles, plain walk %d", c, got.cyc, want.cyc)
	}
	gs, ws := got.stats, want.stats
	if !reflect.DeepEqual(gs, ws) {
		t.Fatalf("%v: stats %+v, plain walk %+v", c, gs, ws)
	}
	if len(got.waves) != len(want.waves) {
		t.Fatalf("%v: %d waves, plain walk %d", c, len(got.waves), len(want.waves))
	}
	for i, g := range got.waves {
		w := want.waves[i]
		if g.core != w.core || g.quads != w.quads || g.engine != w.engine || !slices.Equal(g.pos, w.pos) || !slices.Equal(g.pid, w.pid) {
			t.Fatalf("%v: wave %d = %+v, plain walk %+v", c, i, g, w)
		}
	}
	return int(gs.Quads)
}

// vertexEdges is grxgpu-style setup of the triangle (x[k], y[k]) in pixels:
// edge k from vertex k to k+1 scaled so max(|a|, |b|) = scale (its int32
// conversion wrapping when scale is huge) and evaluated at pixel centres
// (centre 0.5) or corners (centre 0). spec: rasterizer §7.2
func vertexEdges(x, y [3]float64, scale, centre float64) (a, b, c [3]int32) {
	for k := 0; k < 3; k++ {
		i, j := k, (k+1)%3
		ea, eb := y[i]-y[j], x[j]-x[i]
		ec := x[i]*y[j] - x[j]*y[i] + centre*(ea+eb)
		sc := scale / max(math.Abs(ea), math.Abs(eb), 1e-9)
		a[k], b[k], c[k] = wrap32(ea*sc), wrap32(eb*sc), wrap32(ec*sc)
	}
	return
}

// wrap32 converts v to int32 modulo 2³² (v within ±2⁶³).
func wrap32(v float64) int32 { return int32(int64(math.Round(v))) }

// TestFastWalkMatchesPlain is the differential test of the tile and block
// engines and the packer: over random and adversarial primitives — random
// coefficients, int32 extremes and wrap-around, degenerate (zero) edges,
// slivers, tiny, huge and bin-covering triangles, vertices and edges on pixel
// centres — for every bin and block size the Config allows, scissors inside,
// across and outside the bin, early-Z on and off and 1 to 4 owner cores, the
// fast walk must launch the plain walk's waves lane for lane, with its tile
// rejects, quads, early-Z culls, fragments and walk cycles.
// spec: rasterizer §7.3, §7.4, §7.5, §8, §13
func TestFastWalkMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 17))
	const size = 512
	zbuf := make([]byte, 4*size*size)
	for i := range zbuf {
		zbuf[i] = byte(r.Uint32())
	}
	extremes := []int32{math.MinInt32, math.MinInt32 + 1, math.MaxInt32, math.MaxInt32 - 1, -1, 0, 1, 1 << 30, -1 << 30, 65536, -65536}
	coef := func() int32 {
		switch r.IntN(6) {
		case 0:
			return int32(r.IntN(7)) - 3
		case 1:
			return int32(r.IntN(2001)) - 1000
		case 2:
			return int32(r.Uint32())
		case 3:
			return extremes[r.IntN(len(extremes))]
		case 4:
			return int32(r.IntN(131073)) - 65536
		}
		return 0
	}
	var quads, cases int
	for it := 0; it < 12000; it++ {
		c := walkCase{pid: uint32(r.IntN(1 << 16))}
		c.binLog = 1 + r.IntN(12)
		if c.binLog > 8 && r.IntN(16) != 0 {
			c.binLog = 1 + r.IntN(8) // big bins are slow to walk: fewer of them
		}
		c.blockLog = 1 + r.IntN(c.binLog)
		c.cores, c.threads = 1+r.IntN(4), 4*(1+r.IntN(16))
		nb := max(1, size>>c.binLog)
		c.bx, c.by = int32(r.IntN(nb)), int32(r.IntN(nb))
		switch r.IntN(3) {
		case 0: // whole target
			c.xmax, c.ymax = size, size
		case 1: // random, maybe empty or cutting the bin
			c.xmin, c.xmax = int32(r.IntN(size)), int32(r.IntN(size+1))
			c.ymin, c.ymax = int32(r.IntN(size)), int32(r.IntN(size+1))
		default: // inside the bin
			ox, oy, s := c.bx<<c.binLog, c.by<<c.binLog, int32(1)<<c.binLog
			c.xmin, c.ymin = ox+int32(r.IntN(int(s))), oy+int32(r.IntN(int(s)))
			c.xmax, c.ymax = min(size, c.xmin+1+int32(r.IntN(int(s)))), min(size, c.ymin+1+int32(r.IntN(int(s))))
		}
		c.earlyZ = r.IntN(2) == 0
		c.za, c.zb, c.zc = coef(), coef(), int32(r.Uint32()>>8)
		ox, oy := float64(c.bx<<c.binLog), float64(c.by<<c.binLog)
		s := float64(int(1) << c.binLog)
		pt := func(spread float64) (float64, float64) {
			return ox + s/2 + (r.Float64()-0.5)*spread, oy + s/2 + (r.Float64()-0.5)*spread
		}
		var x, y [3]float64
		centre := 0.5
		if r.IntN(4) == 0 {
			centre = 0 // edges through pixel centres: integer vertices at centres
		}
		scale := 65536.0
		switch r.IntN(11) {
		case 10: // values at the int32 limits somewhere in the bin: wrap inside a block
			for k := 0; k < 3; k++ {
				c.a[k], c.b[k] = int32(r.IntN(9))-4, int32(r.IntN(9))-4
				lim := extremes[r.IntN(4)] + int32(r.IntN(17)) - 8
				px, py := int32(ox)+int32(r.IntN(int(s))), int32(oy)+int32(r.IntN(int(s)))
				c.c[k] = lim - c.a[k]*px - c.b[k]*py
			}
		case 0, 1: // random coefficients
			for k := 0; k < 3; k++ {
				c.a[k], c.b[k], c.c[k] = coef(), coef(), coef()
				if r.IntN(3) == 0 {
					c.c[k] = int32(r.IntN(4001)) - 2000
				}
			}
		case 2: // int32 extremes only
			for k := 0; k < 3; k++ {
				c.a[k], c.b[k], c.c[k] = extremes[r.IntN(len(extremes))], extremes[r.IntN(len(extremes))], extremes[r.IntN(len(extremes))]
			}
		case 3: // tiny: within a few pixels
			x[0], y[0] = pt(s)
			for k := 1; k < 3; k++ {
				x[k], y[k] = x[0]+r.Float64()*6-3, y[0]+r.Float64()*6-3
			}
		case 4: // sliver: nearly collinear
			x[0], y[0] = pt(3 * s)
			x[1], y[1] = pt(3 * s)
			t := r.Float64()
			x[2], y[2] = x[0]+t*(x[1]-x[0])+r.Float64()*0.2-0.1, y[0]+t*(y[1]-y[0])+r.Float64()*0.2-0.1
		case 5: // huge: far outside the bin, coefficients that wrap
			for k := 0; k < 3; k++ {
				x[k], y[k] = pt(1 << 17)
			}
			scale = float64(int64(1) << (16 + r.IntN(12)))
		case 6: // degenerate: an edge or two with a = b = 0
			for k := 0; k < 3; k++ {
				x[k], y[k] = pt(2 * s)
			}
			c.a, c.b, c.c = vertexEdges(x, y, scale, centre)
			for k := 0; k < 3; k++ {
				if r.IntN(2) == 0 {
					c.a[k], c.b[k], c.c[k] = 0, 0, int32(r.IntN(3))-1
				}
			}
			x = [3]float64{}
		case 7: // on pixel centres: integer vertices, axis-aligned edges likely
			for k := 0; k < 3; k++ {
				px, py := pt(s)
				x[k], y[k] = math.Round(px), math.Round(py)
				if r.IntN(2) == 0 && k > 0 {
					x[k] = x[k-1]
				}
			}
			centre = 0
		case 8: // bin-covering
			for k := 0; k < 3; k++ {
				x[k], y[k] = pt(8 * s)
			}
		default: // small to medium
			x[0], y[0] = pt(s)
			d := math.Pow(2, r.Float64()*float64(c.binLog+1))
			for k := 1; k < 3; k++ {
				x[k], y[k] = x[0]+(r.Float64()-0.5)*d, y[0]+(r.Float64()-0.5)*d
			}
		}
		if x != ([3]float64{}) {
			if r.IntN(2) == 0 { // either winding: back faces too
				x[1], x[2], y[1], y[2] = x[2], x[1], y[2], y[1]
			}
			c.a, c.b, c.c = vertexEdges(x, y, scale, centre)
		}
		quads += diffWalk(t, c, zbuf, 4*size)
		cases++
	}
	if quads < 100000 {
		t.Fatalf("only %d quads over %d cases compared", quads, cases)
	}
	t.Logf("%d cases, %d quads", cases, quads)
}

// FuzzFastWalk is TestFastWalkMatchesPlain on arbitrary edges, depth plane,
// engine shape, bin and scissor.
func FuzzFastWalk(f *testing.F) {
	f.Add(int32(65536), int32(0), int32(-100), int32(0), int32(65536), int32(-100), int32(-65536), int32(-65536), int32(20000000),
		uint8(7), uint8(2), uint8(0), uint8(0), uint16(0), uint16(512), uint16(0), uint16(512), true, int32(0), int32(0), int32(1000))
	f.Add(int32(math.MinInt32), int32(math.MaxInt32), int32(1), int32(-1), int32(0), int32(0), int32(3), int32(-3), int32(math.MaxInt32),
		uint8(12), uint8(1), uint8(1), uint8(0), uint16(3), uint16(9), uint16(5), uint16(7), false, int32(1), int32(-1), int32(0))
	const size = 512
	zbuf := make([]byte, 4*size*size)
	for i := range zbuf {
		zbuf[i] = byte(i * 2654435761 >> 13)
	}
	f.Fuzz(func(t *testing.T, a0, b0, c0, a1, b1, c1, a2, b2, c2 int32, binLog, blockLog, bx, by uint8,
		xmin, xmax, ymin, ymax uint16, earlyZ bool, za, zb, zc int32) {
		c := walkCase{binLog: 1 + int(binLog)%10, cores: 1 + int(bx>>5)%4, threads: 4 * (1 + int(by>>4)%16),
			a: [3]int32{a0, a1, a2}, b: [3]int32{b0, b1, b2}, c: [3]int32{c0, c1, c2}, earlyZ: earlyZ, za: za, zb: zb, zc: zc}
		c.blockLog = 1 + int(blockLog)%c.binLog
		nb := max(1, size>>c.binLog)
		c.bx, c.by = int32(int(bx)%nb), int32(int(by)%nb)
		c.xmin, c.xmax = int32(xmin%(size+1)), int32(xmax%(size+1))
		c.ymin, c.ymax = int32(ymin%(size+1)), int32(ymax%(size+1))
		diffWalk(t, c, zbuf, 4*size)
	})
}
