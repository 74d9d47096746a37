package ref

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/stencil"
)

// parallelScene renders a mixed scene with the given worker count: random
// depth-tested, blended triangles with stencil counting, a textured
// perspective floor, wide lines and points, an instanced scissored strip.
func parallelScene(t *testing.T, workers int) []byte {
	const w, h = 97, 83
	tg := newTarget(t, w, h, []format.Format{format.RGBA8, format.RGBA16F}, format.D24S8)
	_ = tg.ClearColor(0, [4]float32{0.1, 0.1, 0.1, 1})
	_ = tg.ClearDepth(1)
	s := DefaultState(w, h)
	s.Workers = workers
	s.Depth.Test = true
	s.StencilTest = true
	s.StencilFront = StencilFace{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF, Pass: stencil.Incr, DepthFail: stencil.IncrWrap}
	s.StencilBack = StencilFace{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF, Pass: stencil.DecrWrap}
	s.Blend[0] = BlendState{Enable: true, SrcRGB: blend.SrcAlpha, DstRGB: blend.OneMinusSrcAlpha, SrcAlpha: blend.One, DstAlpha: blend.One, WriteMask: 0xF}
	s.Blend[1] = BlendState{Enable: true, SrcRGB: blend.One, DstRGB: blend.One, SrcAlpha: blend.One, DstAlpha: blend.One, WriteMask: 0xF}
	// A clonable vertex shader: the 900 vertices are shaded concurrently.
	s.Vertex, s.Fragment = clonableVS{passVS(4)}, colorFS
	rng := rand.New(rand.NewPCG(7, 8))
	var rows [][]float32
	for range 300 {
		for range 3 {
			rows = append(rows, []float32{rng.Float32()*2.4 - 1.2, rng.Float32()*2.4 - 1.2, rng.Float32()*2 - 1, 1, rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()})
		}
	}
	draw(t, tg, &s, verts(rows...), DrawParams{Topology: Triangles, Count: len(rows)})
	s.LineWidth, s.PointSize = 3, 4
	draw(t, tg, &s, verts(rows[:40]...), DrawParams{Topology: LineStrip, Count: 40})
	draw(t, tg, &s, verts(rows[40:80]...), DrawParams{Topology: Points, Count: 40})
	s.ScissorTest, s.Scissor = true, Rect{X: 5, Y: 9, W: 70, H: 50}
	draw(t, tg, &s, verts(rows[:10]...), DrawParams{Topology: TriangleStrip, Count: 10, Instances: 3})
	s.ScissorTest = false
	smp := sampler.DefaultSampler()
	smp.MinFilter, smp.MagFilter, smp.MipFilter, smp.MaxAnisotropy = sampler.Linear, sampler.Linear, sampler.MipLinear, 4
	s.Textures = []TextureBinding{{Texture: checkerTexture(t), Sampler: smp}}
	s.Vertex, s.Fragment = passVS(6), newTexturedFS()
	v := func(x, y, z, w, u, vv float32) []float32 { return []float32{x, y, z, w, u, vv, 1, 1, 1, 0.7} }
	draw(t, tg, &s, verts(v(-1, -1, -0.9, 1, 0, 0), v(1, -1, -0.9, 1, 2, 0), v(1, 7.4, 0.8, 8, 2, 4), v(-1, 7.4, 0.8, 8, 0, 4)), DrawParams{Topology: TriangleFan, Count: 4})
	var out []byte
	for _, c := range tg.Color {
		out = append(out, c.Data...)
	}
	return append(out, tg.DepthStencil.Data...)
}

// The parallel path is bit-identical to the serial one for any worker
// count (run with -race).
func TestParallelDeterministic(t *testing.T) {
	want := parallelScene(t, 1)
	for _, n := range []int{2, 3, 5, 8} {
		if got := parallelScene(t, n); !bytes.Equal(got, want) {
			t.Fatalf("%d workers differ from the serial rendering", n)
		}
	}
}

// clonableVS is a pure Go vertex shader offered to concurrent vertex
// shading (VertexCloner): it is its own clone.
type clonableVS struct{ VertexFunc }

func (c clonableVS) CloneVertex() VertexShader { return c }
