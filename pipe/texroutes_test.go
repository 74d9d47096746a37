package pipe

import (
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// TestTexRoutesSW: the rows that gated until the device's software sampler
// took them — anisotropic filtering, legacy CLAMP and MIRROR_CLAMP_TO_BORDER
// wraps, wider integer and stencil formats, textureGather on a cube — run on
// the device under STRICT with the TEX route asserted and match the reference
// renderer (at most 2% of the pixels may differ by more than 3/255, as
// TestDrawDifferential). spec: vortexpipe §3.6
func TestTexRoutesSW(t *testing.T) {
	tex2D := func(f format.Format, w, h, levels int) TextureDesc {
		return TextureDesc{Target: Target2D, Format: f, Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: levels}
	}
	wide := [4][2]float32{{-1.5, -1.2}, {2.5, -1.2}, {-1.5, 2.2}, {2.5, 2.2}}
	tests := []struct {
		name  string
		fs    string
		desc  TextureDesc
		smp   SamplerState
		uv    [4][2]float32
		route ReasonCode
	}{
		{"anisotropic 16x", texFS, tex2D(format.RGBA8, 16, 16, 5),
			SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear, MaxLod: 4, MaxAnisotropy: 16},
			[4][2]float32{{0, 0}, {8, 0}, {0, 1}, {8, 1}}, RouteTexAniso},
		{"legacy CLAMP, bilinear", texFS, tex2D(format.RGBA8, 4, 4, 1),
			SamplerState{WrapS: sampler.Clamp, WrapT: sampler.Clamp, MinFilter: sampler.Linear, MagFilter: sampler.Linear}, wide, RouteTexWrap},
		{"MIRROR_CLAMP_TO_BORDER and MIRROR_CLAMP, bilinear", texFS, tex2D(format.RGBA8, 4, 4, 1),
			SamplerState{WrapS: sampler.MirrorClampToBorder, WrapT: sampler.MirrorClamp, MinFilter: sampler.Linear, MagFilter: sampler.Linear, BorderColor: [4]float32{0, 1, 0, 1}}, wide, RouteTexWrap},
		{"RGBA16UI", `#version 330
uniform usampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = vec4(texture(tex, v_uv) % 251u) / 250.0; }
`, tex2D(format.RGBA16UI, 4, 4, 1), SamplerState{}, [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, RouteTexFormat},
		{"S8 stencil", `#version 330
uniform usampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = vec4(float(texture(tex, v_uv).r) / 255.0, 0.0, 0.0, 1.0); }
`, tex2D(format.S8, 4, 4, 1), SamplerState{}, [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, RouteTexFormat},
		{"textureGather on a cube", `#version 400
uniform samplerCube tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureGather(tex, vec3(v_uv * 2.0 - 1.0, 0.6), 0); }
`, TextureDesc{Target: TargetCube, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 6, Levels: 1},
			SamplerState{}, [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, RouteTexOp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(o Options) *drawEnv {
				e := newDrawEnv(t, o, false)
				e.program(t, texVS, tc.fs)
				r, err := e.s.CreateTexture(tc.desc)
				if err != nil {
					t.Fatal(err)
				}
				px := make([]byte, r.Size())
				for i := range px {
					px[i] = byte(i*53 + i/3)
				}
				if err := r.Write(0, px); err != nil {
					t.Fatal(err)
				}
				v, err := e.c.CreateSamplerView(r)
				if err != nil {
					t.Fatal(err)
				}
				sm, err := e.c.CreateSamplerState(tc.smp)
				if err != nil {
					t.Fatal(err)
				}
				if err := e.c.SetSamplerViews(0, []*SamplerView{v}); err != nil {
					t.Fatal(err)
				}
				if err := e.c.BindSamplerStates(0, []*Sampler{sm}); err != nil {
					t.Fatal(err)
				}
				var vs []float32
				for i, p := range [][2]float32{{-0.9, -0.9}, {0.9, -0.9}, {-0.9, 0.9}, {0.9, 0.9}} {
					vs = append(vs, p[0], p[1], 0, 1, tc.uv[i][0], tc.uv[i][1])
				}
				vb := e.floats(t, vs...)
				if err := e.drawUVStrip(vb); err != nil {
					t.Fatal(err)
				}
				return e
			}
			dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
			if st := dev.c.Stats(); st.Device != 1 || st.Routes[tc.route] == 0 {
				t.Fatalf("stats %+v, want the %v route", st, tc.route)
			}
			if r := dev.c.LastDeviceDraw().Route; !r.SWTex {
				t.Errorf("TEX route %+v, want software", r)
			}
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
				t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
			}
			colours := map[[4]uint8]bool{}
			for i := 0; i < len(b.Pix); i += 4 {
				colours[[4]uint8(b.Pix[i:i+4])] = true
			}
			if len(colours) < 3 {
				t.Errorf("the reference image has %d colours: the draw samples nothing", len(colours))
			}
		})
	}
}
