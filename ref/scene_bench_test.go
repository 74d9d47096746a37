package ref

import (
	"context"
	"encoding/binary"
	"math"
	"syscall"
	"testing"
	"time"

	"vortexgfx/gl/format"
)

// sphereMesh builds the benchmark UV sphere of ../shared/data/bench
// (mkmeshes.py): slices x stacks quads, the pole triangles skipped, vertex
// words x, y, z (position = normal) and u, v; indices as 32-bit LE.
func sphereMesh(slices, stacks int) (VertexInput, []byte, int) {
	cols := slices + 1
	var in VertexInput
	in.Words = 5
	for i := 0; i <= stacks; i++ {
		theta := math.Pi * float64(i) / float64(stacks)
		for j := range cols {
			phi := 2 * math.Pi * float64(j) / float64(slices)
			v := [5]float32{
				float32(math.Sin(theta) * math.Sin(phi)), float32(math.Cos(theta)), float32(math.Sin(theta) * math.Cos(phi)),
				float32(j) / float32(slices), 1 - float32(i)/float32(stacks),
			}
			for _, x := range v {
				in.Data = append(in.Data, math.Float32bits(x*0.5))
			}
		}
	}
	var idx []byte
	put := func(v ...int) {
		for _, x := range v {
			idx = binary.LittleEndian.AppendUint32(idx, uint32(x))
		}
	}
	for i := range stacks {
		for j := range slices {
			a := i*cols + j
			b := a + cols
			c, d := b+1, a+1
			if i != stacks-1 {
				put(a, b, c)
			}
			if i != 0 {
				put(a, c, d)
			}
		}
	}
	return in, idx, len(idx) / 4
}

// mat4 is a column-major 4x4 matrix.
type mat4 [16]float64

func (m mat4) mul(n mat4) mat4 {
	var r mat4
	for c := range 4 {
		for rr := range 4 {
			for k := range 4 {
				r[c*4+rr] += m[k*4+rr] * n[c*4+k]
			}
		}
	}
	return r
}

// sceneMatrices returns the bench scene's P·V·M and M for frame i.
func sceneMatrices(w, h, frame int) (mvp, model mat4) {
	f := 1 / math.Tan(45.0/2*math.Pi/180)
	n, fa := 0.1, 10.0
	p := mat4{f * float64(h) / float64(w), 0, 0, 0, 0, f, 0, 0, 0, 0, (fa + n) / (n - fa), -1, 0, 0, 2 * fa * n / (n - fa), 0}
	v := mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -2, 1}
	ax, ay := 20*math.Pi/180, float64(frame)*3*math.Pi/180
	rx := mat4{1, 0, 0, 0, 0, math.Cos(ax), math.Sin(ax), 0, 0, -math.Sin(ax), math.Cos(ax), 0, 0, 0, 0, 1}
	ry := mat4{math.Cos(ay), 0, -math.Sin(ay), 0, 0, 1, 0, 0, math.Sin(ay), 0, math.Cos(ay), 0, 0, 0, 0, 1}
	model = rx.mul(ry)
	return p.mul(v).mul(model), model
}

// lambertState is the bench scene's state with Go-function versions of
// lambert.vert and lambert.frag (5 varying words: normal, texcoord).
func lambertState(w, h, frame, workers int) State {
	mvp, model := sceneMatrices(w, h, frame)
	s := DefaultState(w, h)
	s.Depth.Test = true
	s.Workers = workers
	s.Vertex = VertexFunc{Out: VertexLayout{Varyings: 5}, Fn: func(b *VertexBatch, _ Textures) error {
		for v := range b.N {
			a := b.Attribs[v*b.AttribWords:]
			var x [5]float32
			for i := range x {
				x[i] = math.Float32frombits(a[i])
			}
			for r := range 4 {
				b.Position[v][r] = float32(mvp[r]*float64(x[0]) + mvp[4+r]*float64(x[1]) + mvp[8+r]*float64(x[2]) + mvp[12+r])
			}
			o := b.Varyings[v*5:]
			for r := range 3 {
				o[r] = math.Float32bits(float32(model[r]*float64(x[0]) + model[4+r]*float64(x[1]) + model[8+r]*float64(x[2])))
			}
			o[3], o[4] = a[3], a[4]
		}
		return nil
	}}
	l := [3]float64{0.3, 0.5, 0.8}
	ln := math.Sqrt(l[0]*l[0] + l[1]*l[1] + l[2]*l[2])
	base := [3]float64{0.80, 0.70, 0.55}
	s.Fragment = FragmentFunc(func(qs []Quad, _ Textures) error {
		for i := range qs {
			q := &qs[i]
			for ln2 := range 4 {
				nx, ny, nz := float64(q.Varying(ln2, 5, 0)), float64(q.Varying(ln2, 5, 1)), float64(q.Varying(ln2, 5, 2))
				m := math.Sqrt(nx*nx + ny*ny + nz*nz)
				dif := 0.0
				if m > 0 {
					dif = max((nx*l[0]+ny*l[1]+nz*l[2])/(m*ln), 0)
				}
				k := 0.15 + 0.85*dif
				q.SetColor(0, ln2, [4]float32{float32(base[0] * k), float32(base[1] * k), float32(base[2] * k), 1})
			}
		}
		return nil
	})
	return s
}

// renderSphereScene renders frame 19 of the bench scene's sphere (with Go
// shaders) and returns the colour and depth bytes.
func renderSphereScene(tb testing.TB, w, h, slices, stacks, workers int) []byte {
	in, idx, n := sphereMesh(slices, stacks)
	tg := newTarget(tb, w, h, []format.Format{format.RGBA8}, format.D24S8)
	_ = tg.ClearColor(0, [4]float32{0.12, 0.12, 0.15, 1})
	_ = tg.ClearDepth(1)
	s := lambertState(w, h, 19, workers)
	draw(tb, tg, &s, in, DrawParams{Topology: Triangles, Count: n, IndexType: Index32, Indices: idx})
	return append(append([]byte(nil), tg.Color[0].Data...), tg.DepthStencil.Data...)
}

// The bench scene renders bit-identically with any worker count.
func TestSphereSceneWorkers(t *testing.T) {
	want := renderSphereScene(t, 128, 96, 64, 31, 1)
	for _, n := range []int{2, 3, 7} {
		if got := renderSphereScene(t, 128, 96, 64, 31, n); string(got) != string(want) {
			t.Fatalf("%d workers differ from the serial rendering", n)
		}
	}
}

// earlyFunc is a side-effect-free FragmentFunc that declares itself safe
// for early depth rejection.
type earlyFunc struct{ FragmentFunc }

func (earlyFunc) EarlyDepthSafe() bool { return true }

// BenchmarkSphereScene mirrors ../shared/data/bench: the 99,840-triangle UV
// sphere, lambert shading as Go functions, RGBA8 + D24S8 at 512x512, depth
// test LESS; clear + draw per iteration, with 1 and 2 workers, and with
// early depth rejection (FragmentEarlyDepth).
func BenchmarkSphereScene(b *testing.B) {
	in, idx, n := sphereMesh(320, 157)
	for _, c := range []struct {
		name    string
		workers int
		early   bool
	}{{"workers=1", 1, false}, {"workers=2", 2, false}, {"early/workers=1", 1, true}} {
		b.Run(c.name, func(b *testing.B) {
			workers := c.workers
			tg := newTarget(b, 512, 512, []format.Format{format.RGBA8}, format.D24S8)
			s := lambertState(512, 512, 19, workers)
			if c.early {
				s.Fragment = earlyFunc{s.Fragment.(FragmentFunc)}
			}
			p := DrawParams{Topology: Triangles, Count: n, IndexType: Index32, Indices: idx}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for range b.N {
				_ = tg.ClearColor(0, [4]float32{0.12, 0.12, 0.15, 1})
				_ = tg.ClearDepth(1)
				if err := Draw(context.Background(), tg, &s, in, p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tris/s")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user+system CPU time: on a loaded machine it
// varies far less between runs than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A draw into a target whose buffers a larger, different draw left behind
// renders exactly as into a fresh target.
func TestDrawBuffersReused(t *testing.T) {
	render := func(tg *Target, slices, stacks int) []byte {
		in, idx, n := sphereMesh(slices, stacks)
		_ = tg.ClearColor(0, [4]float32{0.12, 0.12, 0.15, 1})
		_ = tg.ClearDepth(1)
		s := lambertState(tg.W, tg.H, 7, 2)
		draw(t, tg, &s, in, DrawParams{Topology: Triangles, Count: n, IndexType: Index32, Indices: idx})
		return append(append([]byte(nil), tg.Color[0].Data...), tg.DepthStencil.Data...)
	}
	used := newTarget(t, 80, 60, []format.Format{format.RGBA8}, format.D24S8)
	render(used, 48, 25)
	fresh := newTarget(t, 80, 60, []format.Format{format.RGBA8}, format.D24S8)
	if string(render(used, 20, 9)) != string(render(fresh, 20, 9)) {
		t.Fatal("reused draw buffers changed the rendering")
	}
}
