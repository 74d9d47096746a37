package pipe

import (
	"encoding/binary"
	"errors"
	"image"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/stencil"
)

// drawEnv is a 32x32 RGBA8 framebuffer (with a D24S8 attachment when depth is
// set) on a screen opened on the default device model.
type drawEnv struct {
	s      *Screen
	c      *Context
	rt, zs *Resource
	w, h   int
}

func newDrawEnv(t testing.TB, o Options, depth bool) *drawEnv {
	t.Helper()
	s, err := OpenScreen(config.Default(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e := &drawEnv{s: s, c: s.NewContext(ContextOptions{}), w: 32, h: 32}
	e.rt = newTex(t, s, format.RGBA8, e.w, e.h)
	fb := Framebuffer{Width: e.w, Height: e.h, Cbufs: []*Surface{{Resource: e.rt}}}
	if depth {
		e.zs = newTex(t, s, format.D24S8, e.w, e.h)
		fb.Zsbuf = &Surface{Resource: e.zs}
	}
	if err := e.c.SetFramebufferState(fb); err != nil {
		t.Fatal(err)
	}
	return e
}

func newTex(t testing.TB, s *Screen, f format.Format, w, h int) *Resource {
	t.Helper()
	r, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: f, Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// program compiles and binds a (VS, FS) pair.
func (e *drawEnv) program(t testing.TB, vs, fs string) {
	t.Helper()
	v, err := e.c.CreateShaderState(ShaderDesc{Stage: StageVertex, Name: "t.vert", GLSL: vs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := e.c.CreateShaderState(ShaderDesc{Stage: StageFragment, Name: "t.frag", GLSL: fs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.BindVSState(v); err != nil {
		t.Fatal(err)
	}
	if err := e.c.BindFSState(f); err != nil {
		t.Fatal(err)
	}
}

// floats makes a buffer of little-endian float32s.
func (e *drawEnv) floats(t testing.TB, v ...float32) *Resource {
	t.Helper()
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return e.bytes(t, b)
}

func (e *drawEnv) bytes(t testing.TB, b []byte) *Resource {
	t.Helper()
	r, err := e.s.CreateBuffer(len(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Write(0, b); err != nil {
		t.Fatal(err)
	}
	return r
}

// posCol binds interleaved {x, y, z, w, r, g, b, a} vertices at locations 0, 1.
func (e *drawEnv) posCol(t testing.TB, v ...float32) *Resource {
	t.Helper()
	vb := e.floats(t, v...)
	ve, err := e.c.CreateVertexElementsState([]VertexElement{
		{SrcOffset: 0, Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x4}})
	if err != nil {
		t.Fatal(err)
	}
	e.c.BindVertexElementsState(ve)
	e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 32}})
	return vb
}

// drawUVStrip draws the four interleaved {x, y, z, w, u, v} vertices of vb
// (locations 0 and 1) as one triangle strip: the textured quad of the
// sampler tests.
func (e *drawEnv) drawUVStrip(vb *Resource) error {
	ve, err := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x2}})
	if err != nil {
		return err
	}
	e.c.BindVertexElementsState(ve)
	e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 24}})
	return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
}

func (e *drawEnv) image(t testing.TB) *image.NRGBA {
	t.Helper()
	img, err := e.c.ReadPixels(0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// compareImages returns the number of pixels whose channels differ by more than
// tol, and the largest channel difference.
func compareImages(a, b *image.NRGBA, tol int) (bad, worst int) {
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		if d < 0 {
			d = -d
		}
		worst = max(worst, d)
		if d > tol && i%4 == 0 {
			bad++
		}
	}
	return bad, worst
}

// tri returns a triangle's 8-float vertices (clip position, colour).
func quadVerts(z float32, c [4]float32, x0, y0, x1, y1 float32) []float32 {
	var v []float32
	for _, p := range [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		v = append(v, p[0], p[1], z, 1, c[0], c[1], c[2], c[3])
	}
	return v
}

// TestDrawDifferential draws the same scenes on the device (STRICT: any
// fallback fails) and on the reference renderer (ForceReference) and compares
// the images. Tolerance: a pixel matches when every channel differs by at most
// 3 (interpolation and blending round in different places); at most 2% of the
// pixels may differ more — the two rasterizers' fill rules disagree on pixels
// whose centres lie on a shared edge. spec: vortexpipe §5.2 (the CPU renderer
// is the oracle)
func TestDrawDifferential(t *testing.T) {
	red, green, blue := [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 1}, [4]float32{0, 0, 1, 1}
	cases := []struct {
		name  string
		depth bool
		draw  func(t testing.TB, e *drawEnv) error
	}{
		{"indexed u16", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			v := quadVerts(0, red, -0.8, -0.8, 0.8, 0.8)
			for i := 0; i < 4; i++ { // per-vertex colours
				v[8*i+4+i%3] = 1
			}
			e.posCol(t, v...)
			ib := e.bytes(t, []byte{0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 3, 0})
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, IndexSize: 2, Index: ib, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}})
		}},
		{"indexed u32 resident", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			e.posCol(t, quadVerts(0, green, -0.5, -0.9, 0.9, 0.5)...)
			ib := make([]byte, 24)
			for i, x := range []uint32{0, 1, 2, 2, 1, 3} {
				binary.LittleEndian.PutUint32(ib[4*i:], x)
			}
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, IndexSize: 4, Index: e.bytes(t, ib), InstanceCount: 1, Draws: []DrawRange{{Count: 6}}})
		}},
		{"strip and fan", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			v := append(quadVerts(0, blue, -0.9, -0.9, 0, 0), quadVerts(0, red, 0.1, 0.1, 0.9, 0.9)...)
			// make the second quad a fan: 4, 5, 7, 6
			v[8*6], v[8*6+1], v[8*7], v[8*7+1] = 0.9, 0.9, 0.1, 0.9
			e.posCol(t, v...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				return err
			}
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleFan, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 4}}})
		}},
		{"base vertex and restart", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			v := append(quadVerts(0, blue, -0.9, -0.9, 0.9, 0.9), quadVerts(0, green, -0.5, -0.5, 0.5, 0.5)...)
			e.posCol(t, v...)
			ib := e.bytes(t, []byte{0, 1, 2, 0xFF, 0, 1, 2, 3})
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, IndexSize: 1, Index: ib, InstanceCount: 1,
				PrimitiveRestart: true, RestartIndex: 0xFF, Draws: []DrawRange{{Count: 3}, {Start: 4, Count: 4, IndexBias: 4}}})
		}},
		{"instanced", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, instVS, testFS)
			vb := e.floats(t, quadVerts(0, red, -0.9, -0.9, -0.4, -0.4)...)
			off := e.floats(t, 0, 0, 1, 0.2, 0.4, 1.1)
			ve, err := e.c.CreateVertexElementsState([]VertexElement{
				{SrcOffset: 0, Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x4},
				{BufferIndex: 1, Format: VertexFloat32x2, InstanceDivisor: 1}})
			if err != nil {
				return err
			}
			e.c.BindVertexElementsState(ve)
			e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 32}, {Buffer: off, Stride: 8}})
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 3, Draws: []DrawRange{{Count: 4}}})
		}},
		{"blending", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			if err := e.c.Clear(ClearColor, [4]float32{0.2, 0.4, 0.6, 1}, 1, 0); err != nil {
				return err
			}
			e.posCol(t, quadVerts(0, [4]float32{1, 0.5, 0, 0.5}, -0.7, -0.7, 0.7, 0.7)...)
			b, err := e.c.CreateBlendState(BlendState{RT: [8]RTBlendState{{BlendEnable: true, RGBSrc: blend.SrcAlpha,
				RGBDst: blend.OneMinusSrcAlpha, AlphaSrc: blend.One, AlphaDst: blend.Zero, ColorMask: MaskRGBA}}})
			if err != nil {
				return err
			}
			e.c.BindBlendState(b)
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
		}},
		{"depth", true, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
				return err
			}
			d, err := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
			if err != nil {
				return err
			}
			e.c.BindDSAState(d)
			v := append(quadVerts(0.5, red, -0.9, -0.9, 0.5, 0.5), quadVerts(-0.2, green, -0.5, -0.5, 0.9, 0.9)...)
			v = append(v, quadVerts(0.8, blue, -1, -1, 1, 1)...)
			e.posCol(t, v...)
			for _, start := range []uint32{0, 4, 8} {
				if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: start, Count: 4}}}); err != nil {
					return err
				}
			}
			return nil
		}},
		{"uniform and cull", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, uniformFS)
			if err := e.c.SetUniformF("tint", 0.5, 1, 0.25, 1); err != nil {
				return err
			}
			r, err := e.c.CreateRasterizerState(RasterizerState{Cull: CullBack, FrontCCW: true})
			if err != nil {
				return err
			}
			e.c.BindRasterizerState(r)
			// A counter-clockwise (front) triangle and a clockwise (culled) one.
			w := [4]float32{1, 1, 1, 1}
			var v []float32
			for _, p := range [][2]float32{{-0.9, -0.9}, {0.8, -0.9}, {-0.9, 0.8}, {0.9, 0.9}, {0.9, -0.8}, {-0.8, 0.9}} {
				v = append(v, p[0], p[1], 0, 1, w[0], w[1], w[2], w[3])
			}
			e.posCol(t, v...)
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 6}}})
		}},
		{"texture", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, texVS, texFS)
			tex := newTex(t, e.s, format.RGBA8, 4, 4)
			px := make([]byte, 64)
			for i := range 16 {
				px[4*i], px[4*i+1], px[4*i+2], px[4*i+3] = byte(60*(i%4)), byte(60*(i/4)), byte(255-16*i), 255
			}
			if err := tex.Write(0, px); err != nil {
				return err
			}
			view, err := e.c.CreateSamplerView(tex)
			if err != nil {
				return err
			}
			smp, err := e.c.CreateSamplerState(SamplerState{WrapS: sampler.Repeat, WrapT: sampler.ClampToEdge})
			if err != nil {
				return err
			}
			if err := e.c.SetSamplerViews(0, []*SamplerView{view}); err != nil {
				return err
			}
			if err := e.c.BindSamplerStates(0, []*Sampler{smp}); err != nil {
				return err
			}
			vb := e.floats(t, -0.9, -0.9, 0, 1, 0, 0, 0.9, -0.9, 0, 1, 2, 0, -0.9, 0.9, 0, 1, 0, 1, 0.9, 0.9, 0, 1, 2, 1)
			return e.drawUVStrip(vb)
		}},
	}
	cases = append(cases, []struct {
		name  string
		depth bool
		draw  func(t testing.TB, e *drawEnv) error
	}{
		{"indirect multi-draw", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			v := append(quadVerts(0, red, -0.9, -0.9, 0, 0), quadVerts(0, blue, 0, 0, 0.9, 0.9)...)
			e.posCol(t, v...)
			ind := make([]byte, 32)
			for i, w := range []uint32{4, 1, 0, 0, 4, 1, 4, 0} { // count, instances, first, base instance
				binary.LittleEndian.PutUint32(ind[4*i:], w)
			}
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, Indirect: &IndirectInfo{Buffer: e.bytes(t, ind), DrawCount: 2}})
		}},
		{"uniform block in constant buffer 0", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, `#version 330
uniform Params { vec4 scale; vec4 bias; };
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col * scale + bias; }
`)
			slots, words, err := e.c.UniformLayout()
			if err != nil {
				return err
			}
			u := make([]float32, words)
			for _, sl := range slots {
				switch sl.Name {
				case "Params.scale", "scale":
					copy(u[sl.Word:], []float32{0.5, 0.5, 0.5, 1})
				case "Params.bias", "bias":
					copy(u[sl.Word:], []float32{0.25, 0, 0.5, 0})
				}
			}
			if err := e.c.SetConstantBuffer(0, ConstantBuffer{Buffer: e.floats(t, u...)}); err != nil {
				return err
			}
			e.posCol(t, quadVerts(0, [4]float32{1, 1, 0, 1}, -0.8, -0.8, 0.8, 0.8)...)
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
		}},
		{"converted vertex formats", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			// x, y as float32x2 then RGBA as unorm8x4: 12 bytes a vertex.
			var b []byte
			for i, p := range [][2]float32{{-0.9, -0.9}, {0.9, -0.9}, {-0.9, 0.9}, {0.9, 0.9}} {
				var w [12]byte
				binary.LittleEndian.PutUint32(w[0:], math.Float32bits(p[0]))
				binary.LittleEndian.PutUint32(w[4:], math.Float32bits(p[1]))
				w[8], w[9], w[10], w[11] = byte(60*i), 255-byte(60*i), 128, 255
				b = append(b, w[:]...)
			}
			ve, err := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x2}, {SrcOffset: 8, Format: VertexUNorm8x4}})
			if err != nil {
				return err
			}
			e.c.BindVertexElementsState(ve)
			e.c.SetVertexBuffers([]VertexBuffer{{Buffer: e.bytes(t, b), Stride: 12}})
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
		}},
	}...)
	stencilMask := func(t testing.TB, e *drawEnv, s DepthStencilAlphaState) error {
		// Mark the left half in the stencil plane with 5 (colour writes off),
		// then draw the full screen under the test s.
		e.program(t, testVS, testFS)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			return err
		}
		v := append(quadVerts(0, red, -1, -1, 0, 1), quadVerts(0.5, green, -1, -1, 1, 1)...)
		e.posCol(t, v...)
		mark, err := e.c.CreateDSAState(DepthStencilAlphaState{Stencil: [2]StencilState{{Enabled: true, Func: compare.Always,
			ZPassOp: stencil.Replace, ValueMask: 0xFF, WriteMask: 0xFF}}})
		if err != nil {
			return err
		}
		nocolor, _ := e.c.CreateBlendState(BlendState{})
		e.c.BindDSAState(mark)
		e.c.BindBlendState(nocolor)
		e.c.SetStencilRef(5, 5)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			return err
		}
		test, err := e.c.CreateDSAState(s)
		if err != nil {
			return err
		}
		e.c.BindDSAState(test)
		e.c.BindBlendState(nil)
		return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 4}}})
	}
	cases = append(cases, []struct {
		name  string
		depth bool
		draw  func(t testing.TB, e *drawEnv) error
	}{
		{"stencil equal", true, func(t testing.TB, e *drawEnv) error {
			return stencilMask(t, e, DepthStencilAlphaState{Stencil: [2]StencilState{{Enabled: true, Func: compare.Equal,
				ValueMask: 0xFF, WriteMask: 0xFF}}})
		}},
		{"stencil two-sided incr, depth fail", true, func(t testing.TB, e *drawEnv) error {
			if err := stencilMask(t, e, DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.Greater,
				Stencil: [2]StencilState{{Enabled: true, Func: compare.NotEqual, ValueMask: 0xFF, WriteMask: 0xFF, ZFailOp: stencil.Incr},
					{Enabled: true, Func: compare.Always, ValueMask: 0xFF, WriteMask: 0xFF, ZFailOp: stencil.Zero}}}); err != nil {
				return err
			}
			// Show the stencil values: draw where stencil == 1.
			show, _ := e.c.CreateDSAState(DepthStencilAlphaState{Stencil: [2]StencilState{{Enabled: true, Func: compare.Equal, ValueMask: 0xFF}}})
			e.c.BindDSAState(show)
			e.c.SetStencilRef(1, 1)
			e.posCol(t, quadVerts(0, blue, -1, -1, 1, 1)...)
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
		}},
		{"logic op xor", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			if err := e.c.Clear(ClearColor, [4]float32{0.2, 0.6, 1, 1}, 1, 0); err != nil {
				return err
			}
			b, err := e.c.CreateBlendState(BlendState{LogicOpEnable: true, LogicOp: logicop.Xor, RT: [8]RTBlendState{{ColorMask: MaskRGBA}}})
			if err != nil {
				return err
			}
			e.c.BindBlendState(b)
			e.posCol(t, quadVerts(0, [4]float32{1, 0.5, 0.25, 1}, -0.8, -0.8, 0.8, 0.8)...)
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
		}},
		{"alpha test (software merger)", false, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			d, err := e.c.CreateDSAState(DepthStencilAlphaState{AlphaEnabled: true, AlphaFunc: compare.Greater, AlphaRef: 0.5})
			if err != nil {
				return err
			}
			e.c.BindDSAState(d)
			v := quadVerts(0, [4]float32{1, 1, 0, 0}, -0.9, -0.9, 0.9, 0.9)
			v[7], v[15] = 1, 1 // alpha 1 at the bottom edge, 0 at the top
			e.posCol(t, v...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				return err
			}
			if st := e.c.Stats(); e.c.opts.Strict && st.Routes[RouteAlphaTest] != 1 {
				t.Errorf("alpha test not routed to the software merger: %+v", st.Routes)
			}
			return nil
		}},
		{"depth bounds (software merger)", true, func(t testing.TB, e *drawEnv) error {
			e.program(t, testVS, testFS)
			if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 0.3, 0); err != nil {
				return err
			}
			d1, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Always})
			e.c.BindDSAState(d1)
			e.posCol(t, append(quadVerts(0.8, red, -1, -1, 0, 1), quadVerts(0, green, -1, -1, 1, 1)...)...)
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
				return err
			}
			d2, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthBounds: true, DepthBoundsMin: 0.25, DepthBoundsMax: 0.5})
			e.c.BindDSAState(d2)
			return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: 4, Count: 4}}})
		}},
	}...)
	cases = append(cases, struct {
		name  string
		depth bool
		draw  func(t testing.TB, e *drawEnv) error
	}{"noperspective and perspective varyings", false, func(t testing.TB, e *drawEnv) error {
		e.program(t, `#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
noperspective out vec4 a;
out vec4 b;
void main() { gl_Position = pos; a = col; b = col.bgra; }
`, `#version 330
noperspective in vec4 a;
in vec4 b;
out vec4 o;
void main() { o = vec4(a.r, b.g, a.b * b.r, 1.0); }
`)
		// A quad whose far edge has w = 3: the two interpolations differ.
		v := quadVerts(0, red, -0.9, -0.9, 0.9, 0.9)
		for i, c := range [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}} {
			copy(v[8*i+4:], c[:])
		}
		for _, i := range []int{2, 3} {
			for k := 0; k < 4; k++ {
				v[8*i+k] *= 3
			}
		}
		e.posCol(t, v...)
		return e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}})
	}})
	cases = append(cases, struct {
		name  string
		depth bool
		draw  func(t testing.TB, e *drawEnv) error
	}{"uniform initialiser", false, func(t testing.TB, e *drawEnv) error {
		e.program(t, testVS, `#version 330
uniform vec4 tint = vec4(0.25, 1.0, 0.5, 1.0);
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col * tint; }
`)
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -0.8, -0.8, 0.8, 0.8)...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			return err
		}
		if p := e.image(t).NRGBAAt(16, 16); p.R != 64 || p.G != 255 || p.B != 128 {
			t.Errorf("initialised uniform: centre %v", p)
		}
		return nil
	}})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := newDrawEnv(t, Options{ForceReference: true}, tc.depth)
			if err := tc.draw(t, ref); err != nil {
				t.Fatalf("reference: %v", err)
			}
			if st := ref.c.Stats(); st.Reference == 0 || st.Device != 0 {
				t.Fatalf("reference path stats %+v", st)
			}
			b := ref.image(t)
			// The device with its FF units, then with TEX, OM and RASTER forced to
			// their software paths (VORTEX_FORCE_SW=all).
			for _, force := range []Unit{0, UnitAll} {
				dev := newDrawEnv(t, Options{Strict: true, ForceSW: force}, tc.depth)
				if err := tc.draw(t, dev); err != nil {
					t.Fatalf("device (force %d): %v", force, err)
				}
				st := dev.c.Stats()
				if st.Device == 0 || st.Reference != 0 || force != 0 && st.Routes[RouteForcedOM] == 0 {
					t.Fatalf("device path (force %d) stats %+v", force, st)
				}
				a := dev.image(t)
				bad, worst := compareImages(a, b, 3)
				if bad > len(a.Pix)/4/50 {
					t.Errorf("force %d: %d of %d pixels differ by more than 3 (worst %d)", force, bad, len(a.Pix)/4, worst)
				}
			}
			blank := true
			for i := 0; i < len(b.Pix); i += 4 {
				if b.Pix[i] != 0 || b.Pix[i+1] != 0 || b.Pix[i+2] != 0 {
					blank = false
				}
			}
			if blank {
				t.Error("the scene drew nothing")
			}
		})
	}
}

// TestPathSwitch interleaves device draws with a draw only the reference
// renderer takes (under an open pipeline-statistics query): the framebuffer carries across both ways
// and the frame equals the all-reference one. spec: vortexpipe §3.5
func TestPathSwitch(t *testing.T) {
	frame := func(e *drawEnv) {
		e.program(t, testVS, testFS)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0.25, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.LessEqual})
		e.c.BindDSAState(d)
		v := append(quadVerts(0.5, [4]float32{1, 0, 0, 1}, -0.9, -0.9, 0.3, 0.3), quadVerts(0, [4]float32{0, 1, 0, 1}, -0.3, -0.3, 0.9, 0.9)...)
		v = append(v, quadVerts(0.2, [4]float32{1, 1, 0, 1}, -0.6, -0.6, 0.6, 0.6)...)
		e.posCol(t, v...)
		q, _ := e.c.CreateQuery(QueryPipelineStatistics)
		for i, start := range []uint32{0, 4, 8} {
			if i == 1 {
				if err := e.c.BeginQuery(q); err != nil {
					t.Fatal(err)
				}
			}
			if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: start, Count: 4}}}); err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				if err := e.c.EndQuery(q); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	mixed := newDrawEnv(t, Options{}, true)
	frame(mixed)
	st := mixed.c.Stats()
	if st.Device != 2 || st.Reference != 1 || st.Fallbacks[GateQuery] != 1 {
		t.Fatalf("stats %+v", st)
	}
	ref := newDrawEnv(t, Options{ForceReference: true}, true)
	frame(ref)
	a, b := mixed.image(t), ref.image(t)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("%d pixels differ (worst %d)", bad, worst)
	}
	be := &mixed.s.be
	if be.targetLoads < 2 || be.targetReads < 2 {
		t.Errorf("framebuffer moved %d times to the device and %d back; want both at each switch", be.targetLoads, be.targetReads)
	}
	za, err := mixed.c.ReadDepth()
	if err != nil {
		t.Fatal(err)
	}
	zb, _ := ref.c.ReadDepth()
	diff := 0
	for i := range za {
		if math.Abs(float64(za[i]-zb[i])) > 1e-3 {
			diff++
		}
	}
	if diff > len(za)/50 {
		t.Errorf("%d depth values differ", diff)
	}
}

// TestResidencyAcrossFrames: an unchanged vertex buffer is uploaded once over
// several frames, a Resource.Write re-uploads it, Destroy evicts it.
// spec: vortexpipe §1.3
func TestResidencyAcrossFrames(t *testing.T) {
	e := newDrawEnv(t, Options{Strict: true}, false)
	e.program(t, testVS, testFS)
	vb := e.posCol(t, quadVerts(0, [4]float32{0, 1, 1, 1}, -0.5, -0.5, 0.5, 0.5)...)
	frame := func() {
		if err := e.c.Clear(ClearColor, [4]float32{}, 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		if err := e.c.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	res := e.s.Residency()
	frame()
	first := res.Stats()
	if first.Uploads != 1 {
		t.Fatalf("first frame: %d uploads, want 1 (the vertex buffer)", first.Uploads)
	}
	for range 3 {
		frame()
	}
	if st := res.Stats(); st.Uploads != first.Uploads || st.Hits < 3 {
		t.Errorf("unchanged vertex buffer: uploads %d → %d, hits %d", first.Uploads, st.Uploads, st.Hits)
	}
	// The clears ran on the device: the framebuffer was loaded once (the first
	// draw) and read back once per Finish.
	if bs := e.s.BackendStats(); bs.TargetLoads != 1 || bs.TargetReads != 4 || !bs.DeviceOpen || bs.Width != 32 {
		t.Errorf("framebuffer loaded %d times, read %d times over 4 frames; want 1 and 4 (%+v)", bs.TargetLoads, bs.TargetReads, bs)
	}
	if err := vb.Write(0, make([]byte, 4)); err != nil {
		t.Fatal(err)
	}
	frame()
	if st := res.Stats(); st.Uploads != first.Uploads+1 {
		t.Errorf("after a write: %d uploads, want %d", st.Uploads, first.Uploads+1)
	}
	if _, ok := res.Lookup(vb.ID(), 0); !ok {
		t.Fatal("vertex buffer not resident")
	}
	if err := vb.Destroy(); err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Lookup(vb.ID(), 0); ok || res.Stats().Frees == 0 {
		t.Error("destroy did not evict the vertex buffer")
	}
}

// TestQueriesAndConditions: an occlusion query counts the samples that pass on
// the reference renderer, and a render condition on it skips or runs draws.
func TestQueriesAndConditions(t *testing.T) {
	e := newDrawEnv(t, Options{}, true)
	e.program(t, testVS, testFS)
	if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{}, 1, 0); err != nil {
		t.Fatal(err)
	}
	d, _ := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
	e.c.BindDSAState(d)
	// A full-screen quad at z=0, then a half-screen one behind it, then in front.
	v := quadVerts(0, [4]float32{1, 0, 0, 1}, -1, -1, 1, 1)
	v = append(v, quadVerts(0.5, [4]float32{0, 1, 0, 1}, -1, -1, 0, 1)...)
	v = append(v, quadVerts(-0.5, [4]float32{0, 0, 1, 1}, -1, -1, 0, 1)...)
	e.posCol(t, v...)
	draw := func(start uint32) {
		t.Helper()
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: start, Count: 4}}}); err != nil {
			t.Fatal(err)
		}
	}
	draw(0)
	count := func(start uint32) uint64 {
		q, err := e.c.CreateQuery(QueryOcclusionCounter)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.c.BeginQuery(q); err != nil {
			t.Fatal(err)
		}
		draw(start)
		if err := e.c.EndQuery(q); err != nil {
			t.Fatal(err)
		}
		n, err := e.c.GetQueryResult(q)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(4); n != 0 {
		t.Errorf("hidden quad: %d samples passed", n)
	}
	if n := count(8); n != 16*32 {
		t.Errorf("visible half: %d samples passed, want %d", n, 16*32)
	}
	if st := e.c.Stats(); st.Reference != 0 || st.Routes[RouteOcclusionQuery] != 2 {
		t.Errorf("query draws did not run on the device's software merger: %+v", st)
	}
	// Render condition: skip when the predicate says no sample passed.
	p, _ := e.c.CreateQuery(QueryOcclusionPredicate)
	_ = e.c.BeginQuery(p)
	draw(4) // hidden: predicate false
	_ = e.c.EndQuery(p)
	if err := e.c.SetRenderCondition(p, false, CondWait); err != nil {
		t.Fatal(err)
	}
	before := e.c.Stats().Draws
	e.c.SetViewport(Viewport{})
	draw(0)
	if e.c.Stats().Draws != before {
		t.Error("draw under a failing render condition ran")
	}
	if err := e.c.SetRenderCondition(p, true, CondWait); err != nil {
		t.Fatal(err)
	}
	draw(0)
	if st := e.c.Stats(); st.Draws != before+1 || st.Reference != 0 {
		t.Errorf("inverted condition: stats %+v", st)
	}
	ts, _ := e.c.CreateQuery(QueryTimestamp)
	if err := e.c.EndQuery(ts); err != nil {
		t.Fatal(err)
	}
	if n, err := e.c.GetQueryResult(ts); err != nil || n == 0 {
		t.Errorf("timestamp %d %v (one device draw ran)", n, err)
	}
	if _, err := e.c.GetQueryResult(&Query{Type: QueryOcclusionCounter}); err == nil {
		t.Error("result of a query never ended")
	}
}

// TestDrawErrors: compile errors name the shader; a draw without shaders fails.
func TestDrawErrors(t *testing.T) {
	e := newDrawEnv(t, Options{}, false)
	_, err := e.c.CreateShaderState(ShaderDesc{Stage: StageFragment, Name: "bad.frag", GLSL: "#version 330\nvoid main() { x = 1; }\n"}, nil)
	if err == nil || !contains(err.Error(), "bad.frag") {
		t.Errorf("compile error %v does not name the shader", err)
	}
	err = e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}})
	if !errors.Is(err, ErrNoProgram) {
		t.Errorf("draw without shaders: %v", err)
	}
	// A link error (varying type mismatch) names both shaders.
	e.program(t, testVS, "#version 330\nin float v_col;\nout vec4 o;\nvoid main() { o = vec4(v_col); }\n")
	e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
	err = e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}})
	if !errors.Is(err, ErrLink) || !contains(err.Error(), "t.vert") {
		t.Errorf("link error: %v", err)
	}
}

// TestVertexRange: an index past the vertex buffer is an error on both paths,
// naming the attribute, with nothing drawn.
func TestVertexRange(t *testing.T) {
	for _, o := range []Options{{Strict: true}, {ForceReference: true}} {
		e := newDrawEnv(t, o, false)
		e.program(t, testVS, testFS)
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -1, -1, 1, 1)...)
		ib := e.bytes(t, []byte{0, 1, 200})
		err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangles, IndexSize: 1, Index: ib, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}})
		if err == nil || !contains(err.Error(), "attribute pos") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestTextureResidency: a sampled texture is uploaded to the device once across
// frames, again after a write, and its device copy is freed on destroy.
// spec: vortexpipe §1.3, §3.6 (create_texture_handle drops the resident upload)
func TestTextureResidency(t *testing.T) {
	e := newDrawEnv(t, Options{Strict: true}, false)
	e.program(t, texVS, texFS)
	tex := newTex(t, e.s, format.BGRA8, 8, 8)
	px := make([]byte, tex.Size())
	for i := range px {
		px[i] = byte(i * 7)
	}
	if err := tex.Write(0, px); err != nil {
		t.Fatal(err)
	}
	view, _ := e.c.CreateSamplerView(tex)
	_ = e.c.SetSamplerViews(0, []*SamplerView{view})
	vb := e.floats(t, -1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1)
	ve, _ := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x2}})
	e.c.BindVertexElementsState(ve)
	e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 24}})
	frame := func() *image.NRGBA {
		t.Helper()
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		return e.image(t)
	}
	first := frame()
	frame()
	frame()
	if n := e.s.be.texUploads; n != 1 {
		t.Errorf("unchanged texture uploaded %d times over 3 frames", n)
	}
	for i := range px {
		px[i] = 255 - px[i]
	}
	_ = tex.Write(0, px)
	if img := frame(); string(img.Pix) == string(first.Pix) || e.s.be.texUploads != 2 {
		t.Errorf("after a write: %d uploads, image changed %v", e.s.be.texUploads, string(img.Pix) != string(first.Pix))
	}
	_ = tex.Destroy()
	if len(e.s.be.texs) != 0 {
		t.Error("destroy kept the device texture")
	}
}

// TestConcurrentContexts: two contexts of one screen share a linked program
// and draw at the same time, one on the device and one on the reference
// renderer, each into its own framebuffer (run with -race).
func TestConcurrentContexts(t *testing.T) {
	s, err := OpenScreen(config.Default(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	vsh, fsh := testVS, uniformFS
	var c [2]*Context
	var rts [2]*Resource
	var vs, fs *Shader
	for i := range c {
		force := i == 1
		c[i] = s.NewContext(ContextOptions{ForceReference: &force})
		if i == 0 {
			if vs, err = c[0].CreateShaderState(ShaderDesc{Stage: StageVertex, GLSL: vsh}, nil); err != nil {
				t.Fatal(err)
			}
			if fs, err = c[0].CreateShaderState(ShaderDesc{Stage: StageFragment, GLSL: fsh}, nil); err != nil {
				t.Fatal(err)
			}
		}
		_ = c[i].BindVSState(vs)
		_ = c[i].BindFSState(fs)
		rts[i] = newTex(t, s, format.RGBA8, 16, 16)
		if err := c[i].SetFramebufferState(Framebuffer{Width: 16, Height: 16, Cbufs: []*Surface{{Resource: rts[i]}}}); err != nil {
			t.Fatal(err)
		}
		e := &drawEnv{s: s, c: c[i]}
		e.posCol(t, quadVerts(0, [4]float32{1, 1, 1, 1}, -0.8, -0.8, 0.8, 0.8)...)
	}
	if err := c[0].SetUniformF("tint", 1, 0.5, 0.25, 1); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for i := range c {
		go func() {
			for range 5 {
				if err := c[i].Clear(ClearColor, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
					errs <- err
					return
				}
				if err := c[i].DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
					errs <- err
					return
				}
			}
			errs <- c[i].Finish()
		}()
	}
	for range c {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	a, _ := c[0].ReadPixels(0)
	b, _ := c[1].ReadPixels(0)
	if bad, worst := compareImages(a, b, 3); bad > 0 {
		t.Errorf("%d pixels differ (worst %d)", bad, worst)
	}
	if p := a.NRGBAAt(8, 8); p.R != 255 || p.G < 126 || p.G > 129 {
		t.Errorf("centre %v", p)
	}
}

// TestDerivedIndexResidency: the translated list of an unchanged u16 index
// buffer (a strip with a restart) is uploaded once across frames and again
// after the buffer is written. spec: vortexpipe §1.3
func TestDerivedIndexResidency(t *testing.T) {
	e := newDrawEnv(t, Options{Strict: true}, false)
	e.program(t, testVS, testFS)
	e.posCol(t, append(quadVerts(0, [4]float32{1, 0, 0, 1}, -0.9, -0.9, 0, 0), quadVerts(0, [4]float32{0, 1, 0, 1}, 0, 0, 0.9, 0.9)...)...)
	ib := e.bytes(t, []byte{0, 0, 1, 0, 2, 0, 3, 0, 0xFF, 0xFF, 4, 0, 5, 0, 6, 0, 7, 0})
	info := &DrawInfo{Mode: PrimTriangleStrip, IndexSize: 2, Index: ib, PrimitiveRestart: true, RestartIndex: 0xFFFF,
		InstanceCount: 1, Draws: []DrawRange{{Count: 9}}}
	for range 3 {
		if err := e.c.DrawVBO(info); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.s.BackendStats().IndexUploads; n != 1 {
		t.Errorf("unchanged index buffer: %d translated uploads over 3 frames", n)
	}
	if err := ib.Write(0, []byte{1, 0}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.DrawVBO(info); err != nil {
		t.Fatal(err)
	}
	if n := e.s.BackendStats().IndexUploads; n != 2 {
		t.Errorf("after a write: %d uploads, want 2", n)
	}
	if err := ib.Destroy(); err != nil {
		t.Fatal(err)
	}
	if len(e.s.be.derived) != 0 {
		t.Error("destroy kept the translated list")
	}
}
