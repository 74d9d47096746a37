package pipe

import (
	"fmt"
	"image"
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/ref"
)

// unusedSamplerFS declares a sampler it never samples.
const unusedSamplerFS = `#version 330
uniform sampler2D tex;
in vec4 v_col;
out vec4 o_col;
void main() { o_col = v_col; }
`

// TestWhereMatchesDrawVBO: Where decides as DrawVBO does, backend gates
// included, and counts nothing. A declared sampler that is never sampled
// needs no texture; a sampled one without a texture gates.
func TestWhereMatchesDrawVBO(t *testing.T) {
	draw := &DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}
	for _, tc := range []struct {
		name, fs  string
		reference bool
	}{
		{"unused sampler", unusedSamplerFS, false},
		{"sampler without a texture", texFS, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDrawEnv(t, Options{}, false)
			if tc.fs == texFS {
				e.program(t, texVS, texFS)
				vb := e.floats(t, -1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1)
				ve, _ := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x2}})
				e.c.BindVertexElementsState(ve)
				e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 24}})
			} else {
				e.program(t, testVS, tc.fs)
				e.posCol(t, quadVerts(0, [4]float32{1, 0, 0, 1}, -1, -1, 1, 1)...)
			}
			decs, err := e.c.Where(draw)
			if err != nil {
				t.Fatal(err)
			}
			if len(decs) != 1 || decs[0].Reference != tc.reference {
				t.Fatalf("Where: %+v, want reference %v", decs, tc.reference)
			}
			if tc.reference && (len(decs[0].Gates) == 0 || decs[0].Gates[0].Code != GateDeviceBackend) {
				t.Errorf("gates %v, want the device backend's", decs[0].Gates)
			}
			if st := e.c.Stats(); st.Draws != 0 {
				t.Errorf("Where counted %d draws", st.Draws)
			}
			// The gated draw fails on the reference renderer too (nothing
			// bound at the unit); it is counted where it went first.
			if err := e.c.DrawVBO(draw); err != nil && !tc.reference {
				t.Fatal(err)
			}
			if st := e.c.Stats(); (st.Reference == 1) != tc.reference || st.Device+st.Reference != 1 {
				t.Errorf("DrawVBO stats %+v, Where said reference %v", st, tc.reference)
			}
		})
	}
}

// TestGenerateMipmap: a chain the driver generated lets the FF TEX unit
// sample with mipmapping (nothing laid out for the software sampler); once the
// application writes the texture the chain is its own and the software
// sampler takes it.
func TestGenerateMipmap(t *testing.T) {
	e := newDrawEnv(t, Options{Strict: true}, false)
	e.program(t, texVS, texFS)
	tex, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 8, Height: 8, Depth: 1, ArraySize: 1, Levels: 4})
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, 4*8*8)
	for i := range px {
		px[i] = byte(i * 5)
	}
	if err := tex.Write(0, px); err != nil {
		t.Fatal(err)
	}
	if err := e.c.GenerateMipmap(tex); err != nil {
		t.Fatal(err)
	}
	last := make([]byte, 4)
	if err := tex.Read(tex.Size()-4, last); err != nil {
		t.Fatal(err)
	}
	if [4]byte(last) == [4]byte{} {
		t.Error("the 1x1 level is empty after GenerateMipmap")
	}
	smp, err := e.c.CreateSamplerState(SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear})
	if err != nil {
		t.Fatal(err)
	}
	view, _ := e.c.CreateSamplerView(tex)
	_ = e.c.BindSamplerStates(0, []*Sampler{smp})
	_ = e.c.SetSamplerViews(0, []*SamplerView{view})
	vb := e.floats(t, -1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1)
	ve, _ := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x2}})
	e.c.BindVertexElementsState(ve)
	e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 24}})
	draw := func() {
		t.Helper()
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
	}
	draw()
	if !generatedChain(tex) || e.s.be.texUploads != 0 || len(e.s.be.swTexs) != 0 {
		t.Errorf("generated chain: %d uploads, %d software layouts, want the FF unit's own chain", e.s.be.texUploads, len(e.s.be.swTexs))
	}
	if err := tex.Write(0, px); err != nil {
		t.Fatal(err)
	}
	draw()
	if generatedChain(tex) || len(e.s.be.swTexs) != 1 {
		t.Errorf("after a write: generated %v, %d software layouts, want the software sampler", generatedChain(tex), len(e.s.be.swTexs))
	}
	if err := e.c.GenerateMipmap(nil); err == nil {
		t.Error("GenerateMipmap(nil) did not fail")
	}
}

// TestResolveOnDevice: for every multisample count (2x, 8x and 16x beyond
// the spec's 4x), a draw on a multisampled attachment runs on the device
// (Strict), a whole-image resolve of it runs on the device without reading
// the samples back and agrees with the host's box filter of the samples read
// back to rounding (1/255), and the triangle's edges are antialiased.
func TestResolveOnDevice(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		t.Run(fmt.Sprintf("%dx", n), func(t *testing.T) { resolveOnDevice(t, n) })
	}
}

func resolveOnDevice(t *testing.T, samples int) {
	s := newDrawEnv(t, Options{Strict: true}, false).s
	c := s.NewContext(ContextOptions{})
	ms, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.BGRA8, Width: 32, Height: 32, Depth: 1, ArraySize: 1, Levels: 1, Samples: samples})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetFramebufferState(Framebuffer{Width: 32, Height: 32, Samples: samples, Cbufs: []*Surface{{Resource: ms}}}); err != nil {
		t.Fatal(err)
	}
	e := &drawEnv{s: s, c: c, w: 32, h: 32}
	e.program(t, testVS, testFS)
	e.posCol(t, -1, -1, 0, 1, 1, 0, 0, 1, 1, -0.6, 0, 1, 0, 1, 0, 1, -0.3, 1, 0, 1, 0, 0, 1, 1)
	if err := c.Clear(ClearColor0, [4]float32{0.2, 0.3, 0.4, 1}, 1, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
		t.Fatal(err)
	}
	full := Rect{X1: 32, Y1: 32}
	resolve := func() []byte {
		t.Helper()
		dst := newTex(t, s, format.BGRA8, 32, 32)
		if err := c.Blit(BlitInfo{Src: &Surface{Resource: ms}, Dst: &Surface{Resource: dst}, SrcRect: full, DstRect: full}); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, dst.Size())
		if err := dst.Read(0, b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	reads := s.BackendStats().TargetReads
	dev := resolve()
	if n := s.BackendStats().TargetReads; n != reads {
		t.Errorf("the device resolve read the samples back (%d reads)", n-reads)
	}
	// With the samples read back to the host, the host's box filter resolves.
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	host := resolve()
	bad, worst := compareImages(&image.NRGBA{Pix: dev}, &image.NRGBA{Pix: host}, 1)
	if bad != 0 {
		t.Errorf("device and host resolves differ: %d pixels over 1, worst %d", bad, worst)
	}
	if st := c.Stats(); st.Device != 1 || st.Reference != 0 {
		t.Errorf("stats %+v, want the draw on the device", st)
	}
	// Edge pixels: the samples read back (sample-major, texel
	// (y·w + x)·S + k) are not all alike where the triangle's edge crosses.
	raw := make([]byte, ms.Size())
	if err := ms.Read(0, raw); err != nil {
		t.Fatal(err)
	}
	partial := 0
	for px := 0; px < 32*32; px++ {
		p := raw[px*samples*4 : (px+1)*samples*4]
		for k := 1; k < samples; k++ {
			if string(p[4*k:4*k+4]) != string(p[:4]) {
				partial++
				break
			}
		}
	}
	if partial < 20 {
		t.Errorf("%d pixels with differing samples: no antialiasing", partial)
	}
}

// TestReferenceConfig: the stage wrapper runs in place of the linked stages on
// the reference renderer and sees every fragment the draw shades.
func TestReferenceConfig(t *testing.T) {
	e := newDrawEnv(t, Options{ForceReference: true}, false)
	e.program(t, testVS, testFS)
	e.posCol(t, quadVerts(0, [4]float32{0, 1, 0, 1}, -1, -1, 1, 1)...)
	var fs *countFS
	e.c.SetReferenceConfig(ReferenceConfig{Workers: 1, Stages: func(v ref.VertexShader, f ref.FragmentShader) (ref.VertexShader, ref.FragmentShader) {
		fs = &countFS{inner: f}
		return v, fs
	}})
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
		t.Fatal(err)
	}
	if fs == nil || fs.quads == 0 {
		t.Fatal("the stage wrapper did not run")
	}
	if img := e.image(t); img.Pix[1] != 255 {
		t.Errorf("pixel %v, want the fragment shader's green", img.Pix[:4])
	}
}

// countFS counts the quads it shades (one worker, so no clones).
type countFS struct {
	inner ref.FragmentShader
	quads int
}

func (c *countFS) ShadeQuads(q []ref.Quad, tex ref.Textures) error {
	c.quads += len(q)
	return c.inner.ShadeQuads(q, tex)
}

// TestMinSamples: with SetMinSamples above 1 a draw on a multisampled
// framebuffer shades each sample on its own, so the samples of a pixel the
// triangle covers wholly hold the colour gradient at their own positions
// and differ; without it the pixel is shaded once and its covered samples
// are equal. spec: GL 4.6 §14.3.1.1
func TestMinSamples(t *testing.T) {
	const n = 8
	for _, minS := range []int{0, n} {
		s := newDrawEnv(t, Options{Strict: true}, false).s
		c := s.NewContext(ContextOptions{})
		ms, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 32, Height: 32, Depth: 1, ArraySize: 1, Levels: 1, Samples: n})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SetFramebufferState(Framebuffer{Width: 32, Height: 32, Samples: n, Cbufs: []*Surface{{Resource: ms}}}); err != nil {
			t.Fatal(err)
		}
		e := &drawEnv{s: s, c: c, w: 32, h: 32}
		e.program(t, testVS, testFS)
		// A steep red gradient: 1 across 8 pixels.
		e.posCol(t, -1, -1, 0, 1, 0, 0, 0, 1, 1, -1, 0, 1, 4, 0, 0, 1, -1, 1, 0, 1, 0, 0, 0, 1)
		c.SetMinSamples(minS)
		if err := c.DrawVBO(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
			t.Fatal(err)
		}
		if err := c.Finish(); err != nil {
			t.Fatal(err)
		}
		raw := make([]byte, ms.Size())
		if err := ms.Read(0, raw); err != nil {
			t.Fatal(err)
		}
		// Pixel (4, 4), well inside the triangle: its samples' red.
		p := raw[(4*32+4)*n*4 : (4*32+5)*n*4]
		distinct := map[byte]bool{}
		for k := range n {
			distinct[p[4*k]] = true
		}
		if minS > 1 && len(distinct) < n/2 || minS <= 1 && len(distinct) != 1 {
			t.Errorf("min samples %d: %d distinct sample values %v", minS, len(distinct), distinct)
		}
		if st := c.Stats(); st.Device != 1 {
			t.Errorf("stats %+v", st)
		}
	}
}
