package ref

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/stencil"
)

// earlyFS is colorFS declared safe for early depth rejection; it counts
// the quads it shades (workers share it).
type earlyFS struct{ quads *atomic.Int64 }

func (f earlyFS) ShadeQuads(qs []Quad, tex Textures) error {
	f.quads.Add(int64(len(qs)))
	return colorFS(qs, tex)
}

func (earlyFS) EarlyDepthSafe() bool { return true }

// earlyScene draws overlapping random triangles, points and a wide line
// at random depths (some outside the depth range) and returns the target's
// bytes and the number of quads shaded.
func earlyScene(t *testing.T, ds format.Format, fn compare.Func, clamp, write, withStencil bool, workers int, early bool) ([]byte, int) {
	const w, h = 67, 45
	tg := newTarget(t, w, h, []format.Format{format.RGBA8}, ds)
	_ = tg.ClearDepth(0.5)
	s := DefaultState(w, h)
	s.Workers = workers
	s.Depth = DepthState{Test: true, Func: fn, Write: write, Clamp: clamp}
	s.Viewport.MinDepth, s.Viewport.MaxDepth = 0.1, 0.9
	s.StencilTest = withStencil
	s.StencilFront = StencilFace{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF, DepthFail: stencil.Incr, Pass: stencil.Decr}
	s.StencilBack = s.StencilFront
	var n atomic.Int64
	s.Vertex = passVS(4)
	if early {
		s.Fragment = earlyFS{&n}
	} else {
		s.Fragment = FragmentFunc(func(qs []Quad, tex Textures) error {
			n.Add(int64(len(qs)))
			return colorFS(qs, tex)
		})
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var rows [][]float32
	for range 240 {
		rows = append(rows, []float32{rng.Float32()*2.2 - 1.1, rng.Float32()*2.2 - 1.1, rng.Float32()*2.6 - 1.3, 1, rng.Float32(), rng.Float32(), rng.Float32(), 1})
	}
	draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: len(rows)})
	s.PointSize, s.LineWidth = 3, 2
	draw(t, tg, &s, verts(rows[:60]...), DrawParams{Topology: Points, Count: 60})
	draw(t, tg, &s, verts(rows[60:90]...), DrawParams{Topology: LineStrip, Count: 30})
	return append(append([]byte(nil), tg.Color[0].Data...), tg.DepthStencil.Data...), int(n.Load())
}

// Early depth rejection changes nothing but the number of quads shaded,
// for every depth format, function, clamp, write and worker setting, and
// stays off under the stencil test.
func TestEarlyDepthIdentical(t *testing.T) {
	for _, ds := range []format.Format{format.D16, format.D24S8, format.D32F} {
		for fn := compare.Never; fn <= compare.Always; fn++ {
			for _, c := range []struct{ clamp, write, stencil bool }{{false, true, false}, {true, true, false}, {false, false, false}, {false, true, true}} {
				name := fmt.Sprintf("%v/func%d/clamp=%v/write=%v/stencil=%v", ds, fn, c.clamp, c.write, c.stencil)
				want, nLate := earlyScene(t, ds, fn, c.clamp, c.write, c.stencil && ds == format.D24S8, 1, false)
				for _, workers := range []int{1, 3} {
					got, nEarly := earlyScene(t, ds, fn, c.clamp, c.write, c.stencil && ds == format.D24S8, workers, true)
					if string(got) != string(want) {
						t.Fatalf("%s workers=%d: early depth changed the output", name, workers)
					}
					monotonic := fn == compare.Never || fn == compare.Less || fn == compare.LessEqual || fn == compare.Greater || fn == compare.GreaterEqual
					active := monotonic && !(c.stencil && ds == format.D24S8)
					if active && nEarly >= nLate || !active && nEarly != nLate {
						t.Errorf("%s workers=%d: %d quads shaded with early depth, %d without", name, workers, nEarly, nLate)
					}
				}
			}
		}
	}
}
