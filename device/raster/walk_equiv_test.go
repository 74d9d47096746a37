package raster

import (
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
)

// refWalk is the tile and block engines written plainly, pixel by pixel
// (rasterizer §7.3–§7.5): the reference the walker's incremental edge
// evaluation must match quad for quad, cycle for cycle.
type refWalk struct {
	f          *frame
	a, b, ext  [3]int32
	tl         [3]bool
	za, zb, zc int32
	pid        uint32
	cyc        int64
	rejects    int64
	culled     int64
	quads      []abi.Stamp
}

func (r *refWalk) walk(x, y int32, e [3]int32) {
	f := r.f
	blockLog, top := int32(f.cfg.BlockLog), int32(f.cfg.BinLog)
	r.cyc++
	if e[0]+(r.ext[0]<<top) < 0 || e[1]+(r.ext[1]<<top) < 0 || e[2]+(r.ext[2]<<top) < 0 {
		r.rejects++
		return
	}
	stack := []square{{x, y, top, e}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.level == blockLog {
			r.block(s.x, s.y, s.e)
			continue
		}
		c := s.level - 1
		for q := 3; q >= 0; q-- {
			i, j := int32(q&1), int32(q>>1)
			var ce [3]int32
			for k := 0; k < 3; k++ {
				ce[k] = s.e[k] + i*(r.a[k]<<c) + j*(r.b[k]<<c)
			}
			r.cyc++
			if ce[0]+r.ext[0]<<c < 0 || ce[1]+r.ext[1]<<c < 0 || ce[2]+r.ext[2]<<c < 0 {
				r.rejects++
				continue
			}
			stack = append(stack, square{s.x + i<<c, s.y + j<<c, c, ce})
		}
	}
}

func (r *refWalk) block(x, y int32, e [3]int32) {
	f := r.f
	n := int32(1) << (f.cfg.BlockLog - 1)
	r.cyc += int64(n * n)
	for qy := int32(0); qy < n; qy++ {
		for qx := int32(0); qx < n; qx++ {
			px, py := x+2*qx, y+2*qy
			var mask uint8
			for p := int32(0); p < 4; p++ {
				i, j := p&1, p>>1
				X, Y := px+i, py+j
				if X < f.xmin || X >= f.xmax || Y < f.ymin || Y >= f.ymax {
					continue
				}
				u, v := 2*qx+i, 2*qy+j
				pass := true
				for k := 0; k < 3; k++ {
					ev := e[k] + r.a[k]*u + r.b[k]*v
					pass = pass && (ev > 0 || (ev == 0 && r.tl[k]))
				}
				if !pass {
					continue
				}
				if f.earlyZ {
					w := walker{f: f, za: r.za, zb: r.zb, zc: r.zc}
					if w.occluded(X, Y) {
						r.culled++
						continue
					}
				}
				mask |= 1 << p
			}
			if mask != 0 {
				r.quads = append(r.quads, abi.Stamp{QX: uint16(px >> 1), QY: uint16(py >> 1), Mask: mask, PID: uint16(r.pid)})
			}
		}
	}
}

// TestWalkMatchesReference drives the walker and the plain reference with the
// same random primitives — small and huge edge coefficients (int32 wrap-around
// included), every top-left combination, partial scissors, early-Z against a
// random depth buffer, 1 to 4 owner cores — and requires the same quads in the
// same order, the same walk cycles, tile rejects and early-Z culls.
// spec: rasterizer §7.3, §7.4, §7.5, §8
func TestWalkMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	coef := func() int32 {
		switch r.IntN(4) {
		case 0:
			return int32(r.IntN(7)) - 3
		case 1:
			return int32(r.IntN(2001)) - 1000
		case 2:
			return int32(r.Uint32())
		}
		return 0
	}
	const size = 256
	zbuf := make([]byte, 4*size*size)
	for i := range zbuf {
		zbuf[i] = byte(r.Uint32())
	}
	var total int
	for it := 0; it < 5000; it++ {
		binLog := 3 + r.IntN(5)
		blockLog := 1 + r.IntN(min(binLog, 3))
		cfg, err := Config{BinLog: binLog, BlockLog: blockLog, Cores: 1 + r.IntN(4), Threads: 4 * (1 + r.IntN(4)), EarlyZ: true}.resolve()
		if err != nil {
			t.Fatal(err)
		}
		f := &frame{cfg: cfg, xmin: int32(r.IntN(40)), ymin: int32(r.IntN(40)), xmax: int32(size - r.IntN(40)), ymax: int32(size - r.IntN(40))}
		f.earlyZ = r.IntN(2) == 0
		f.zfunc = abi.CmpLess
		f.zpitch = 4 * size
		f.zbuf = zbuf
		var got []abi.Stamp
		f.launch = func(core int, wv *Wave) error {
			for q := 0; q < wv.Quads; q++ {
				x, y, _ := abi.UnpackFragPos(wv.Pos[4*q])
				var m uint8
				for s := 0; s < 4; s++ {
					if wv.Pos[4*q+s]>>31 != 0 {
						m |= 1 << s
					}
				}
				got = append(got, abi.Stamp{QX: uint16(x / 2), QY: uint16(y / 2), Mask: m, PID: uint16(wv.PID[4*q])})
				if o := abi.RasterOwner(x/2, y/2, binLog, cfg.Cores); o != core {
					t.Fatalf("quad (%d,%d) on core %d, owner %d", x, y, core, o)
				}
			}
			return nil
		}
		w := newWalker(f)
		ref := &refWalk{f: f, pid: uint32(r.IntN(100))}
		var e0 [3]int32
		bx, by := int32(r.IntN(size>>binLog)), int32(r.IntN(size>>binLog))
		ox, oy := bx<<binLog, by<<binLog
		for k := 0; k < 3; k++ {
			a, b, c := coef(), coef(), coef()
			if r.IntN(3) == 0 {
				c = int32(r.IntN(4001)) - 2000
			}
			w.a[k], w.b[k] = a, b
			w.ext[k] = max(0, a) + max(0, b)
			w.tl[k] = a > 0 || (a == 0 && b > 0)
			e0[k] = a*ox + b*oy + c
		}
		w.za, w.zb, w.zc = coef(), coef(), int32(r.Uint32()>>8)
		w.pid = ref.pid
		ref.a, ref.b, ref.ext, ref.tl, ref.za, ref.zb, ref.zc = w.a, w.b, w.ext, w.tl, w.za, w.zb, w.zc
		if err := w.walk(ox, oy, e0); err != nil {
			t.Fatal(err)
		}
		if err := w.flush(); err != nil {
			t.Fatal(err)
		}
		ref.walk(ox, oy, e0)
		if w.cyc != ref.cyc || w.stats.TileRejects != ref.rejects || w.stats.EarlyZCulled != ref.culled || len(got) != len(ref.quads) {
			t.Fatalf("case %d: cycles %d/%d rejects %d/%d culled %d/%d quads %d/%d", it, w.cyc, ref.cyc,
				w.stats.TileRejects, ref.rejects, w.stats.EarlyZCulled, ref.culled, len(got), len(ref.quads))
		}
		total += len(got)
		for i := range got {
			if got[i] != ref.quads[i] {
				t.Fatalf("case %d: quad %d = %+v, want %+v", it, i, got[i], ref.quads[i])
			}
		}
	}
	if total < 10000 {
		t.Fatalf("only %d quads compared", total)
	}
}

// TestRejectMask3 checks the three-edge test against the one-edge tests it
// replaces, OR'd, on values around zero and around the int32 wrap (every sum
// wraps as the hardware's adders do).
func TestRejectMask3(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	edge := []int32{0, 1, -1, 2, -2, 1 << 30, -1 << 30, 1<<31 - 1, -1 << 31, 1<<31 - 2, -1<<31 + 1}
	pick := func() int32 {
		if r.IntN(3) == 0 {
			return edge[r.IntN(len(edge))]
		}
		return int32(r.Uint32()) >> r.IntN(31)
	}
	for n := 0; n < 200000; n++ {
		var v [9]int32
		for i := range v {
			v[i] = pick()
		}
		want := rejectMask(v[0], v[1], v[2]) | rejectMask(v[3], v[4], v[5]) | rejectMask(v[6], v[7], v[8])
		if got := rejectMask3(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]); got != want {
			t.Fatalf("rejectMask3%v = %04b, the OR of the one-edge masks is %04b", v, got, want)
		}
	}
}
