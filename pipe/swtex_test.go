package pipe

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// TestDrawSoftwareTextures samples what the FF TEX unit has no form of — NPOT,
// application mip levels, border colours, shadow compares, cube maps, texel
// fetches — on the device's software sampler (device/swtex) and compares with
// the reference renderer (tolerance as TestDrawDifferential).
// spec: vortexpipe §3.6 (routed rows)
func TestDrawSoftwareTextures(t *testing.T) {
	fill := func(r *Resource, f func(i int) byte) {
		px := make([]byte, r.Size())
		for i := range px {
			px[i] = f(i)
		}
		if err := r.Write(0, px); err != nil {
			t.Fatal(err)
		}
	}
	quad := func(t testing.TB, e *drawEnv, uv [4][2]float32) {
		var v []float32
		for i, p := range [][2]float32{{-0.9, -0.9}, {0.9, -0.9}, {-0.9, 0.9}, {0.9, 0.9}} {
			v = append(v, p[0], p[1], 0, 1, uv[i][0], uv[i][1])
		}
		vb := e.floats(t, v...)
		ve, _ := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x2}})
		e.c.BindVertexElementsState(ve)
		e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 24}})
	}
	bind := func(t testing.TB, e *drawEnv, d TextureDesc, data func(i int) byte, s SamplerState) {
		r, err := e.s.CreateTexture(d)
		if err != nil {
			t.Fatal(err)
		}
		fill(r, data)
		v, _ := e.c.CreateSamplerView(r)
		sm, err := e.c.CreateSamplerState(s)
		if err != nil {
			t.Fatal(err)
		}
		_ = e.c.SetSamplerViews(0, []*SamplerView{v})
		_ = e.c.BindSamplerStates(0, []*Sampler{sm})
	}
	unit := [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	cases := []struct {
		name string
		fs   string
		set  func(t testing.TB, e *drawEnv)
	}{
		{"NPOT linear", texFS, func(t testing.TB, e *drawEnv) {
			bind(t, e, TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 5, Height: 3, Depth: 1, ArraySize: 1, Levels: 1},
				func(i int) byte { return byte(i * 37) }, SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear})
			quad(t, e, unit)
		}},
		{"application mip levels", texFS, func(t testing.TB, e *drawEnv) {
			// 16x16 red, 8x8 green, 4x4 blue...: the level chosen shows.
			bind(t, e, TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 16, Height: 16, Depth: 1, ArraySize: 1, Levels: 5},
				func(i int) byte {
					lvl := 0
					for n, off := 16*16*4, 0; i >= off+n; n /= 4 {
						off += n
						lvl++
					}
					if i%4 == 3 {
						return 255
					}
					if i%4 == lvl%3 {
						return 255
					}
					return 0
				}, SamplerState{MinFilter: sampler.Nearest, MagFilter: sampler.Nearest, MipFilter: sampler.MipNearest, MaxLod: 4})
			quad(t, e, [4][2]float32{{0, 0}, {4, 0}, {0, 4}, {4, 4}}) // 16 texels over ~7 pixels: level 1-2
		}},
		{"border colour", texFS, func(t testing.TB, e *drawEnv) {
			bind(t, e, TextureDesc{Target: Target2D, Format: format.BGRA8, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 1},
				func(i int) byte { return byte(200 - i) }, SamplerState{WrapS: sampler.ClampToBorder, WrapT: sampler.ClampToBorder,
					BorderColor: [4]float32{0, 1, 0, 1}})
			quad(t, e, [4][2]float32{{-0.5, -0.5}, {1.5, -0.5}, {-0.5, 1.5}, {1.5, 1.5}})
		}},
		{"shadow compare", `#version 330
uniform sampler2DShadow tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = vec4(texture(tex, vec3(v_uv, v_uv.y))); }
`, func(t testing.TB, e *drawEnv) {
			d := TextureDesc{Target: Target2D, Format: format.D32F, Width: 8, Height: 8, Depth: 1, ArraySize: 1, Levels: 1}
			bind(t, e, d, func(i int) byte {
				var w [4]byte
				binary.LittleEndian.PutUint32(w[:], math.Float32bits(float32(i/4%8)/8))
				return w[i%4]
			}, SamplerState{CompareMode: true, CompareFunc: compare.LessEqual})
			quad(t, e, unit)
		}},
		{"cube map", `#version 330
uniform samplerCube tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = texture(tex, vec3(v_uv * 2.0 - 1.0, 0.5)); }
`, func(t testing.TB, e *drawEnv) {
			bind(t, e, TextureDesc{Target: TargetCube, Format: format.RGBA8, Width: 2, Height: 2, Depth: 1, ArraySize: 6, Levels: 1},
				func(i int) byte { return byte(i * 13) }, SamplerState{})
			quad(t, e, unit)
		}},
		{"texel fetch", `#version 330
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = texelFetch(tex, ivec2(v_uv * 3.99), 0); }
`, func(t testing.TB, e *drawEnv) {
			bind(t, e, TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 1},
				func(i int) byte { return byte(i * 5) }, SamplerState{})
			quad(t, e, unit)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := func(o Options) *drawEnv {
				e := newDrawEnv(t, o, false)
				e.program(t, texVS, tc.fs)
				tc.set(t, e)
				if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
					t.Fatal(err)
				}
				return e
			}
			dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
			if st := dev.c.Stats(); st.Device != 1 {
				t.Fatalf("stats %+v", st)
			}
			if r := dev.c.LastDeviceDraw().Route; !r.SWTex {
				t.Errorf("TEX ran on the FF unit: %+v", r)
			}
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
				t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
			}
			colours := map[[4]uint8]bool{}
			for i := 0; i < len(b.Pix); i += 4 {
				colours[[4]uint8(b.Pix[i:i+4])] = true
			}
			if len(colours) < 2 {
				t.Errorf("the reference image has %d colours: the case samples nothing", len(colours))
			}
		})
	}
}

// TestUnitlessDevice: a device configuration without the TEX, RASTER and OM
// extensions draws everything on its software units and matches the FF device.
// spec: vortexpipe §2.3.3 (a missing unit routes to software, not the draw)
func TestUnitlessDevice(t *testing.T) {
	cfg := config.Default()
	cfg.Device.TEX, cfg.Device.RASTER, cfg.Device.OM = false, false, false
	run := func(cfg config.Config) (*drawEnv, Stats) {
		s, err := OpenScreen(cfg, Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		e := &drawEnv{s: s, c: s.NewContext(ContextOptions{}), w: 32, h: 32}
		e.rt = newTex(t, s, format.RGBA8, 32, 32)
		if err := e.c.SetFramebufferState(Framebuffer{Width: 32, Height: 32, Cbufs: []*Surface{{Resource: e.rt}}}); err != nil {
			t.Fatal(err)
		}
		e.program(t, texVS, texFS)
		tex := newTex(t, s, format.BGRA8, 4, 4)
		px := make([]byte, 64)
		for i := range px {
			px[i] = byte(i * 11)
		}
		_ = tex.Write(0, px)
		v, _ := e.c.CreateSamplerView(tex)
		_ = e.c.SetSamplerViews(0, []*SamplerView{v})
		vb := e.floats(t, -0.9, -0.9, 0, 1, 0, 0, 0.9, -0.9, 0, 1, 1, 0, -0.9, 0.9, 0, 1, 0, 1, 0.9, 0.9, 0, 1, 1, 1)
		ve, _ := e.c.CreateVertexElementsState([]VertexElement{{Format: VertexFloat32x4}, {SrcOffset: 16, Format: VertexFloat32x2}})
		e.c.BindVertexElementsState(ve)
		e.c.SetVertexBuffers([]VertexBuffer{{Buffer: vb, Stride: 24}})
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		return e, e.c.Stats()
	}
	sw, st := run(cfg)
	if st.Device != 1 || st.Routes[RouteNoTEX] != 1 || st.Routes[RouteNoRASTER] != 1 || st.Routes[RouteNoOM] != 1 {
		t.Errorf("stats %+v", st)
	}
	if r := sw.c.LastDeviceDraw().Route; !r.SWTex || !r.SWOM || !r.SWRaster {
		t.Errorf("device route %+v", r)
	}
	ff, _ := run(config.Default())
	a, b := sw.image(t), ff.image(t)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("%d pixels differ from the FF device (worst %d)", bad, worst)
	}
}
