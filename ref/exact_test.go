package ref

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
)

// exactGolden holds the SHA-256 of every attachment byte of the scenes
// below, recorded from the straightforward rasterizer (per-pixel edge
// evaluation over the bounding box, per-lane barycentric interpolation,
// generic per-fragment operations) before the fast paths were written. The
// fast paths (stepped edge functions, block rejection, hoisted plane setup,
// batched RGBA8/D24S8 fragment operations, fast clears) must reproduce these
// bytes exactly for every worker count.
var exactGolden = map[string]string{
	"mixed/D16/greater": "0a4c9f752b55a12646ae0406e20f8ad120cc9686ebda9587a4ecc2d0d1978cee",
	"mixed/D24S8/equal": "4e09e552d134280f87f8ad40a47e7a8db56622ddc4cf3c0eb615cefb5c0a8470",
	"mixed/D24S8/less":  "5c768379d7812cf779dfd0ab3b4da56c6592135e8917a35ebd5991f001e04b46",
	"mixed/D32F/lequal": "3d405e93d269795a3eb3556b836429f223870beb4b8f1c8bb2d6bbae2d7d7f38",
	"parallel":          "b3fb42ffed507826c48f9a132a4cedca9ddcae46dbc6623680ad3409334c2b31",
	"small":             "86d765b3adb4136487469904078f0ce6a2ea943fda9c50509605645b08b692a2",
	"sphere":            "a524cf02ce2dba62636781d566c80a200d1ae95b54d42529ab9bc2bbeb4cefd7",
}

// mixedInterpScene draws random triangles in clip space, many crossing the
// near plane or the view volume's sides, with smooth, noperspective and
// flat words, into RGBA8 + depth format ds with depth function f, a
// scissor for half of them and depth bias on a third.
func mixedInterpScene(tb testing.TB, ds format.Format, f compare.Func, workers int) []byte {
	const w, h = 131, 77
	tg := newTarget(tb, w, h, []format.Format{format.RGBA8}, ds)
	_ = tg.ClearColor(0, [4]float32{0.2, 0.1, 0.3, 1})
	z0 := float32(1)
	if f == compare.Greater || f == compare.GreaterEqual {
		z0 = 0
	}
	_ = tg.ClearDepth(z0)
	s := DefaultState(w, h)
	s.Workers = workers
	s.Depth.Test, s.Depth.Func, s.Depth.Write = true, f, true
	s.Interp = []Interp{Smooth, NoPerspective, Flat, Smooth}
	s.Vertex, s.Fragment = passVS(4), colorFS
	rng := rand.New(rand.NewPCG(11, uint64(f)))
	var rows [][]float32
	for range 240 {
		cw := rng.Float32()*3 + 0.2
		for range 3 {
			vw := cw * (0.5 + rng.Float32())
			rows = append(rows, []float32{(rng.Float32()*2.6 - 1.3) * vw, (rng.Float32()*2.6 - 1.3) * vw, (rng.Float32()*2.4 - 1.2) * vw, vw,
				rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()})
		}
	}
	draw(tb, tg, &s, verts(rows[:240]...), DrawParams{Topology: Triangles, Count: 240})
	s.ScissorTest, s.Scissor = true, Rect{X: 13, Y: 7, W: 95, H: 51}
	draw(tb, tg, &s, verts(rows[240:480]...), DrawParams{Topology: Triangles, Count: 240})
	s.ScissorTest = false
	s.DepthBias = DepthBias{Enable: true, Constant: 3, Slope: 1.5}
	draw(tb, tg, &s, verts(rows[480:]...), DrawParams{Topology: TriangleStrip, Count: 240})
	return append(append([]byte(nil), tg.Color[0].Data...), tg.DepthStencil.Data...)
}

// smallTrianglesScene is BenchmarkTriangles' scene: many small smooth
// triangles, depth tested, in a target whose size is not a multiple of
// any block size.
func smallTrianglesScene(tb testing.TB, workers int) []byte {
	const n = 3000
	rng := rand.New(rand.NewPCG(3, 4))
	var rows [][]float32
	for range n {
		cx, cy := rng.Float32()*2.2-1.1, rng.Float32()*2.2-1.1
		z := rng.Float32()*2 - 1
		sz := rng.Float32() * 0.2
		for range 3 {
			rows = append(rows, []float32{cx + (rng.Float32()-0.5)*sz, cy + (rng.Float32()-0.5)*sz, z, 1, rng.Float32(), rng.Float32(), rng.Float32(), 1})
		}
	}
	tg := newTarget(tb, 250, 190, []format.Format{format.RGBA8}, format.D24S8)
	_ = tg.ClearColor(0, [4]float32{0.12, 0.12, 0.15, 1})
	_ = tg.ClearDepth(1)
	s := DefaultState(250, 190)
	s.Workers = workers
	s.Depth.Test = true
	s.Vertex, s.Fragment = passVS(4), colorFS
	draw(tb, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: len(rows)})
	s.Fragment = earlyFunc{colorFS}
	s.Depth.Func = compare.LessEqual
	draw(tb, tg, &s, verts(rows[:900]...), DrawParams{Topology: Triangles, Count: 900})
	return append(append([]byte(nil), tg.Color[0].Data...), tg.DepthStencil.Data...)
}

// TestExactScenes compares the attachment bytes of mixed scenes, rendered
// with 1, 2 and 4 workers, with the hashes recorded from the
// straightforward path. spec: vortexpipe-driver §5.2 (the oracle's output
// must not change).
func TestExactScenes(t *testing.T) {
	scenes := []struct {
		name   string
		render func(workers int) []byte
	}{
		{"parallel", func(n int) []byte { return parallelScene(t, n) }},
		{"sphere", func(n int) []byte { return renderSphereScene(t, 256, 200, 160, 79, n) }},
		{"small", func(n int) []byte { return smallTrianglesScene(t, n) }},
		{"mixed/D24S8/less", func(n int) []byte { return mixedInterpScene(t, format.D24S8, compare.Less, n) }},
		{"mixed/D32F/lequal", func(n int) []byte { return mixedInterpScene(t, format.D32F, compare.LessEqual, n) }},
		{"mixed/D16/greater", func(n int) []byte { return mixedInterpScene(t, format.D16, compare.Greater, n) }},
		{"mixed/D24S8/equal", func(n int) []byte { return mixedInterpScene(t, format.D24S8, compare.Equal, n) }},
	}
	for _, sc := range scenes {
		for _, n := range []int{1, 2, 4} {
			sum := sha256.Sum256(sc.render(n))
			got := hex.EncodeToString(sum[:])
			if want, ok := exactGolden[sc.name]; !ok {
				t.Errorf("%s: no recorded hash (got %q)", sc.name, got)
			} else if got != want {
				t.Errorf("%s, %d workers: hash %s, want %s", sc.name, n, got, want)
			}
		}
	}
}

// TestD24Monotonic checks the fact d24 relies on: the D24S8 depth a texel
// reads back as, float32(q / (2^24-1)), is strictly increasing in the
// stored 24-bit integer q, so depth tests may compare the integers.
func TestD24Monotonic(t *testing.T) {
	var buf [4]byte
	prev := float32(-1)
	for q := range uint32(1 << 24) {
		buf[1], buf[2], buf[3] = byte(q), byte(q>>8), byte(q>>16)
		f := format.UnpackDepthD24S8(buf[:])
		if !(f > prev) {
			t.Fatalf("depth %d reads %v, not above depth %d's %v", q, f, q-1, prev)
		}
		if g := format.QuantizeDepthD24S8(f); g != f || format.UNorm24(f) != q {
			t.Fatalf("depth %d: %v quantizes to %v (%d)", q, f, g, format.UNorm24(f))
		}
		prev = f
	}
}

// partialFS reads varying words 0, 1 and 3 (never 2) as its colour and
// declares it through FragmentVaryingUse and FragmentHelperFree.
type partialFS struct{ FragmentFunc }

func (partialFS) VaryingsRead() []bool { return []bool{true, true, false, true} }
func (partialFS) HelpersUnused() bool  { return true }

// readsWords013 colours each lane from varying words 0, 1 and 3.
var readsWords013 = FragmentFunc(func(qs []Quad, _ Textures) error {
	for i := range qs {
		q := &qs[i]
		n := len(q.Varyings) / 4
		for l := range 4 {
			q.SetColor(0, l, [4]float32{q.Varying(l, n, 0), q.Varying(l, n, 1), q.Varying(l, n, 3), 1})
		}
	}
	return nil
})

// A shader that declares the words it reads and that it needs no helper
// lanes renders exactly as the same shader without the declarations.
func TestPartialInterpolationExact(t *testing.T) {
	render := func(fs FragmentShader, workers int) []byte {
		tg := newTarget(t, 90, 70, []format.Format{format.RGBA8}, format.D24S8)
		_ = tg.ClearDepth(1)
		s := DefaultState(90, 70)
		s.Workers = workers
		s.Depth.Test = true
		s.Interp = []Interp{Smooth, NoPerspective, Flat, Smooth}
		s.Vertex, s.Fragment = passVS(4), fs
		rng := rand.New(rand.NewPCG(5, 6))
		var rows [][]float32
		for range 300 {
			w := rng.Float32()*2 + 0.5
			rows = append(rows, []float32{(rng.Float32()*2 - 1) * w, (rng.Float32()*2 - 1) * w, (rng.Float32()*2 - 1) * w, w,
				rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()})
		}
		draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: len(rows)})
		return append(append([]byte(nil), tg.Color[0].Data...), tg.DepthStencil.Data...)
	}
	want := render(readsWords013, 1)
	for _, n := range []int{1, 3} {
		if got := render(partialFS{readsWords013}, n); string(got) != string(want) {
			t.Fatalf("%d workers: declared partial reads change the rendering", n)
		}
	}
}

// The depth and stencil clears write what PackDepth / PackStencil write
// texel by texel, keeping the other component.
func TestClearsMatchPerTexel(t *testing.T) {
	for _, f := range []format.Format{format.D16, format.D24S8, format.D32F, format.S8} {
		tg := newTarget(t, 7, 5, nil, f)
		rng := rand.New(rand.NewPCG(1, uint64(f)))
		for i := range tg.DepthStencil.Data {
			tg.DepthStencil.Data[i] = byte(rng.Uint32())
		}
		want := append([]byte(nil), tg.DepthStencil.Data...)
		bpp := f.Info().Bytes
		if f.IsDepth() {
			for o := 0; o < len(want); o += bpp {
				format.PackDepth(f, want[o:], 0.3)
			}
			if err := tg.ClearDepth(0.3); err != nil {
				t.Fatal(err)
			}
		}
		if f.HasStencil() {
			for o := 0; o < len(want); o += bpp {
				format.PackStencil(f, want[o:], 0x5A)
			}
			if err := tg.ClearStencil(0x5A); err != nil {
				t.Fatal(err)
			}
		}
		if string(tg.DepthStencil.Data) != string(want) {
			t.Errorf("%v: clears differ from the per-texel packing", f)
		}
	}
}
