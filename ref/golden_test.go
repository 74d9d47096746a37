package ref

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

// goldenTolerance is the largest per-channel difference (out of 255) a
// rendering may have from its golden image: 1, so that a last-bit change
// of a transcendental in another Go version does not fail the test while
// any rasterization or state change does.
const goldenTolerance = 1

// texturedFS samples texture unit 0 at varyings (u, v) with the LOD from
// the quad's derivatives, for all quads of a batch in one request, and
// multiplies by the varying colour in words 2..5.
type texturedFS struct {
	req sampler.Request
	out [][4]uint32
}

func newTexturedFS() *texturedFS {
	n := 4 * quadBatch
	return &texturedFS{
		req: sampler.Request{Op: sampler.OpSample, LOD: sampler.LODGrad, Coord: make([][4]float32, n), DPdx: make([][3]float32, n), DPdy: make([][3]float32, n)},
		out: make([][4]uint32, n),
	}
}

func (f *texturedFS) ShadeQuads(qs []Quad, tex Textures) error {
	const vw = 6
	f.req.N = 4 * len(qs)
	for i := range qs {
		q := &qs[i]
		var u, v [4]float32
		for l := range 4 {
			u[l], v[l] = q.Varying(l, vw, 0), q.Varying(l, vw, 1)
		}
		ux, uy, vx, vy := QuadDdx(u), QuadDdy(u), QuadDdx(v), QuadDdy(v)
		for l := range 4 {
			f.req.Coord[4*i+l] = [4]float32{u[l], v[l]}
			f.req.DPdx[4*i+l] = [3]float32{ux[l], vx[l]}
			f.req.DPdy[4*i+l] = [3]float32{uy[l], vy[l]}
		}
	}
	if err := tex.Sample(0, &f.req, f.out); err != nil {
		return err
	}
	for i := range qs {
		q := &qs[i]
		for l := range 4 {
			var c [4]float32
			for k := range 4 {
				c[k] = math.Float32frombits(f.out[4*i+l][k]) * q.Varying(l, vw, 2+k)
			}
			q.SetColor(0, l, c)
		}
	}
	return nil
}

// checkerTexture is a 64x64 RGBA8 checkerboard of 8-texel squares with a
// full box-filtered mip chain.
func checkerTexture(t testing.TB) *sampler.Texture {
	tx, err := sampler.NewTexture(sampler.Dim2D, format.RGBA8, 64, 64, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for y := range 64 {
		for x := range 64 {
			c := [4]float32{1, 1, 1, 1}
			if (x/8+y/8)%2 == 1 {
				c = [4]float32{0.1, 0.2, 0.8, 1}
			}
			_ = tx.SetFloat(0, x, y, 0, c)
		}
	}
	if err := tx.GenerateMipmaps(); err != nil {
		t.Fatal(err)
	}
	return tx
}

type scene func(t testing.TB) *Target

var goldenScenes = map[string]scene{
	"smooth_triangle": func(t testing.TB) *Target {
		tg := newTarget(t, 64, 64, []format.Format{format.RGBA8}, format.Invalid)
		_ = tg.ClearColor(0, [4]float32{0.2, 0.2, 0.2, 1})
		s := DefaultState(64, 64)
		s.Vertex, s.Fragment = passVS(4), colorFS
		draw(t, tg, &s, verts([]float32{-0.9, -0.8, 0, 1, 1, 0, 0, 1}, []float32{0.85, -0.6, 0, 1, 0, 1, 0, 1}, []float32{-0.2, 0.9, 0, 1, 0, 0, 1, 1}), DrawParams{Topology: Triangles, Count: 3})
		return tg
	},
	"textured_perspective": func(t testing.TB) *Target {
		tg := newTarget(t, 96, 64, []format.Format{format.RGBA8}, format.D24S8)
		_ = tg.ClearColor(0, [4]float32{0, 0, 0, 1})
		_ = tg.ClearDepth(1)
		s := DefaultState(96, 64)
		s.Depth.Test = true
		smp := sampler.DefaultSampler()
		smp.MinFilter, smp.MagFilter, smp.MipFilter, smp.MaxAnisotropy = sampler.Linear, sampler.Linear, sampler.MipLinear, 4
		s.Textures = []TextureBinding{{Texture: checkerTexture(t), Sampler: smp}}
		s.Vertex, s.Fragment = passVS(6), newTexturedFS()
		// A floor rectangle receding from w = 1 to w = 8 (clip coordinates
		// affine in w, so the two fan triangles map one plane), texture
		// repeated 2 x 4 times.
		v := func(x, y, z, w, u, vv float32) []float32 { return []float32{x, y, z, w, u, vv, 1, 1, 1, 1} }
		in := verts(v(-1, -1, 0.1, 1, 0, 0), v(1, -1, 0.1, 1, 2, 0), v(1, 7.4, 0.8, 8, 2, 4), v(-1, 7.4, 0.8, 8, 0, 4))
		draw(t, tg, &s, in, DrawParams{Topology: TriangleFan, Count: 4})
		return tg
	},
	"depth_blend_lines_points": func(t testing.TB) *Target {
		tg := newTarget(t, 64, 64, []format.Format{format.RGBA8}, format.D16)
		_ = tg.ClearColor(0, [4]float32{1, 1, 1, 1})
		_ = tg.ClearDepth(1)
		s := DefaultState(64, 64)
		s.Depth.Test = true
		s.Vertex, s.Fragment = passVS(4), colorFS
		// two intersecting triangles (depth test resolves the crossing)
		draw(t, tg, &s, verts(
			[]float32{-0.9, -0.9, -0.5, 1, 1, 0, 0, 1}, []float32{0.9, -0.5, 0.5, 1, 1, 0, 0, 1}, []float32{-0.5, 0.9, -0.5, 1, 1, 0, 0, 1},
			[]float32{0.9, 0.9, -0.5, 1, 0, 0.6, 0, 1}, []float32{-0.9, 0.5, 0.5, 1, 0, 0.6, 0, 1}, []float32{0.5, -0.9, -0.5, 1, 0, 0.6, 0, 1},
		), DrawParams{Topology: Triangles, Count: 6})
		// a translucent blue quad over both
		s.Depth.Test = false
		s.Blend[0] = BlendState{Enable: true, SrcRGB: blend.SrcAlpha, DstRGB: blend.OneMinusSrcAlpha, SrcAlpha: blend.Zero, DstAlpha: blend.One, WriteMask: 0xF}
		draw(t, tg, &s, quadVerts(-0.6, -0.2, 0.6, 0.2, 0, [4]float32{0, 0, 1, 0.5}), DrawParams{Topology: Triangles, Count: 6})
		s.Blend[0].Enable = false
		// a line strip and wide points
		s.LineWidth, s.PointSize = 2, 5
		black := func(x, y float32) []float32 { return []float32{x, y, 0, 1, 0, 0, 0, 1} }
		draw(t, tg, &s, verts(black(-0.95, 0.95), black(-0.3, 0.7), black(0.2, 0.95), black(0.95, 0.3)), DrawParams{Topology: LineStrip, Count: 4})
		draw(t, tg, &s, verts(black(-0.8, -0.95), black(0, -0.95), black(0.8, -0.95)), DrawParams{Topology: Points, Count: 3})
		return tg
	},
}

func TestGolden(t *testing.T) {
	for name, sc := range goldenScenes {
		t.Run(name, func(t *testing.T) {
			img := sc(t).Color[0].NRGBA(true)
			path := filepath.Join("testdata", name+".png")
			if *update {
				var buf bytes.Buffer
				if err := png.Encode(&buf, img); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := compareImages(img, want, goldenTolerance); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func compareImages(got *image.NRGBA, want image.Image, tol int) error {
	if got.Bounds() != want.Bounds() {
		return fmt.Errorf("size %v, golden %v", got.Bounds(), want.Bounds())
	}
	bad := 0
	var first string
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := got.NRGBAAt(x, y)
			n := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			w := [4]int{int(n.R), int(n.G), int(n.B), int(n.A)}
			for i, v := range [4]int{int(g.R), int(g.G), int(g.B), int(g.A)} {
				if d := v - w[i]; d > tol || d < -tol {
					if bad == 0 {
						first = fmt.Sprintf("(%d,%d) %v, golden %v", x, y, g, w)
					}
					bad++
					break
				}
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d pixels differ by more than %d, first %s", bad, tol, first)
	}
	return nil
}

// CloneFragment gives each worker its own request buffers.
func (f *texturedFS) CloneFragment() FragmentShader { return newTexturedFS() }
