package raster

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"vortexgfx/abi"
)

// walkFailing walks c with the fast walk or the plain oracle, the launch of
// wave failAt (from 1) failing, and returns the walk's cycles, counters,
// waves and error as the walk left them (flushing the packer when it did not fail).
func walkFailing(t *testing.T, c walkCase, plain bool, failAt int) (int64, Stats, int, error) {
	t.Helper()
	cfg, err := Config{BinLog: c.binLog, BlockLog: c.blockLog, Cores: c.cores, Threads: c.threads, Workers: 1}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	errLaunch := errors.New("launch refused")
	waves := 0
	f := &frame{cfg: cfg, xmin: c.xmin, xmax: c.xmax, ymin: c.ymin, ymax: c.ymax, zfunc: abi.CmpLess}
	f.launch = func(int, *Wave) error {
		if waves++; waves == failAt {
			return errLaunch
		}
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
	w.pid = c.pid
	if plain {
		err = w.plainWalk(ox, oy, e0)
	} else {
		err = w.walk(ox, oy, e0)
	}
	if err == nil {
		if plain {
			err = w.plainFlush()
		} else {
			err = w.flush()
		}
	}
	if err != nil && !errors.Is(err, errLaunch) {
		t.Fatalf("%v: %v", c, err)
	}
	return w.cyc, w.stats, waves, err
}

// TestFastWalkFailedLaunch: when a wave launch fails in the middle of a walk,
// the fast walk stops where the plain oracle stops, with its waves and
// counters (the squares still waiting to be expanded count as accepted and
// untested, wherever the fast walk keeps them), and a walk that completes
// has the oracle's cycles. Bins of 8 to 128 pixels over
// 4-pixel blocks (where the fast walk expands the squares above blocks in
// place) and other block sizes. spec: rasterizer §7.3, §13
func TestFastWalkFailedLaunch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	failed := 0
	for it := 0; it < 6000; it++ {
		c := walkCase{pid: uint32(r.IntN(1 << 16)), cores: 1 + r.IntN(4), threads: 4 * (1 + r.IntN(4))}
		c.binLog = 3 + r.IntN(5)
		c.blockLog = 2
		if r.IntN(4) == 0 {
			c.blockLog = 1 + r.IntN(c.binLog)
		}
		c.xmax, c.ymax = 512, 512
		nb := 512 >> c.binLog
		c.bx, c.by = int32(r.IntN(nb)), int32(r.IntN(nb))
		ox, oy, s := float64(c.bx<<c.binLog), float64(c.by<<c.binLog), float64(int(1)<<c.binLog)
		var x, y [3]float64
		spread := s * (0.05 + 2*r.Float64())
		cx, cy := ox+r.Float64()*s, oy+r.Float64()*s
		for k := range x {
			x[k], y[k] = cx+(r.Float64()-0.5)*spread, cy+(r.Float64()-0.5)*spread
		}
		if r.IntN(3) == 0 { // a sliver
			x[2], y[2] = x[0]+0.1*(r.Float64()-0.5), y[0]+0.1*(r.Float64()-0.5)
		}
		c.a, c.b, c.c = vertexEdges(x, y, 65536, 0.5)
		failAt := 1 + r.IntN(4)
		wcyc, wst, wwaves, werr := walkFailing(t, c, true, failAt)
		gcyc, gst, gwaves, gerr := walkFailing(t, c, false, failAt)
		// A failed walk's cycles are never recorded (bin returns before
		// storing its record's cost), so they are compared only when the
		// walk completed.
		if (werr == nil) != (gerr == nil) || (werr == nil && wcyc != gcyc) || gwaves != wwaves || !reflect.DeepEqual(gst, wst) {
			t.Fatalf("%v, launch %d failing: error %v, %d cycles, %d waves, stats %+v; plain walk %v, %d, %d, %+v",
				c, failAt, gerr, gcyc, gwaves, gst, werr, wcyc, wwaves, wst)
		}
		if werr != nil {
			failed++
		}
	}
	if failed < 1000 {
		t.Errorf("only %d of the walks failed a launch: the test does not reach the failure path", failed)
	}
}
