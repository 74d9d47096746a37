package pipe

import (
	"strings"
	"testing"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// TestTexLodRoutesSW: a mipmapped texture on the driver's generated chain
// (which the FF TEX unit samples) under a sampler LOD bias or a LOD clamp that
// changes the level read runs on the software sampler, on the device, and
// matches the reference renderer; the bias and the clamps do change the
// reference image, so the FF unit's level (derivatives and the shader's bias
// only) would have been a silent collapse. Without a mip filter the same LOD
// state keeps the FF unit. spec: vortexpipe §3.6, §1.5.1
func TestTexLodRoutesSW(t *testing.T) {
	mip := SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear}
	with := func(f func(*SamplerState)) SamplerState { s := mip; f(&s); return s }
	draw := func(t *testing.T, o Options, smp SamplerState) *drawEnv {
		t.Helper()
		return mipDraw(t, o, smp, texFS)
	}
	plain := draw(t, Options{ForceReference: true}, mip).image(t)
	for _, tc := range []struct {
		name string
		smp  SamplerState
	}{
		{"bias 1.5", with(func(s *SamplerState) { s.LodBias = 1.5 })},
		{"bias -2", with(func(s *SamplerState) { s.LodBias = -2 })},
		{"min LOD 3", with(func(s *SamplerState) { s.MinLod, s.MaxLod = 3, 4 })},
		{"max LOD 0.5", with(func(s *SamplerState) { s.MaxLod = 0.5 })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dev, ref := draw(t, Options{Strict: true}, tc.smp), draw(t, Options{ForceReference: true}, tc.smp)
			if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteTexLod] != 1 {
				t.Fatalf("stats %+v, want one device draw with the %v route", st, RouteTexLod)
			}
			if r := dev.c.LastDeviceDraw().Route; !r.SWTex {
				t.Errorf("TEX route %+v, want software", r)
			}
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
				t.Errorf("%d pixels differ from the reference renderer by more than 3 (worst %d)", bad, worst)
			}
			if bad, _ := compareImages(b, plain, 3); bad == 0 {
				t.Error("the LOD state does not change the reference image: the case proves nothing")
			}
		})
	}
	t.Run("no mip filter", func(t *testing.T) {
		smp := SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, LodBias: 3, MinLod: 1, MaxLod: 2}
		dev := draw(t, Options{Strict: true}, smp)
		if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteTexLod] != 0 {
			t.Errorf("stats %+v, want the FF unit", st)
		}
		if r := dev.c.LastDeviceDraw().Route; r.SWTex {
			t.Errorf("TEX route %+v, want the FF unit", r)
		}
		a, b := dev.image(t), draw(t, Options{ForceReference: true}, smp).image(t)
		if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
			t.Errorf("%d pixels differ from the reference renderer by more than 3 (worst %d)", bad, worst)
		}
	})
}

// TestTexExplicitLodFF: textureLod and textureGrad on the driver's generated
// chain run on the FF TEX unit (the wrapper forms the lod operand from the
// shader's lod or gradients) with nearest and linear mip filters, and match
// the reference renderer; the explicit level does change the image, so a
// lod the wrapper ignored would show. spec: vortexpipe §3.6;
// vortex-hardware-facts §4 (the lod operand)
func TestTexExplicitLodFF(t *testing.T) {
	const (
		lodFS = `#version 330
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureLod(tex, v_uv, v_uv.x * 0.5 - 0.3); }
`
		gradFS = `#version 330
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureGrad(tex, v_uv, vec2(v_uv.y * 0.05, 0.0), vec2(0.0, 0.02 * v_uv.x)); }
`
	)
	// Exact halves: GL's nearest level ceil(λ + 1/2) − 1 takes the level
	// below, floor(λ + 1/2) the one above.
	halfFS := strings.Replace(lodFS, "v_uv.x * 0.5 - 0.3", "floor(v_uv.x) * 0.5", 1)
	for _, fs := range []struct{ name, src string }{{"textureLod", lodFS}, {"textureGrad", gradFS}, {"textureLod exact halves", halfFS}} {
		for _, m := range []struct {
			name string
			smp  SamplerState
		}{
			{"linear", SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear}},
			{"nearest", SamplerState{MinFilter: sampler.Nearest, MagFilter: sampler.Nearest, MipFilter: sampler.MipNearest}},
		} {
			smp := m.smp
			t.Run(fs.name+" "+m.name, func(t *testing.T) {
				dev, ref := mipDraw(t, Options{Strict: true}, smp, fs.src), mipDraw(t, Options{ForceReference: true}, smp, fs.src)
				if st := dev.c.Stats(); st.Device != 1 {
					t.Fatalf("stats %+v, want one device draw", st)
				}
				if r := dev.c.LastDeviceDraw().Route; r.SWTex {
					t.Errorf("TEX route %+v, want the FF unit", r)
				}
				a, b := dev.image(t), ref.image(t)
				if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
					t.Errorf("%d pixels differ from the reference renderer by more than 3 (worst %d)", bad, worst)
				}
				if bad, _ := compareImages(b, mipDraw(t, Options{ForceReference: true}, smp, texFS).image(t), 3); bad == 0 {
					t.Error("the explicit level does not change the reference image: the case proves nothing")
				}
			})
		}
	}
}

// TestTexOffsetRoutesSW: texture, textureLod and textureGrad with a texel
// offset run on the software sampler (vx_tex has no offset: on the FF unit
// the offset would be silently dropped) and match the reference renderer,
// whose image the offset does change. spec: vortexpipe §3.6 (no silent
// collapse)
func TestTexOffsetRoutesSW(t *testing.T) {
	head := "#version 330\nuniform sampler2D tex;\nin vec2 v_uv;\nout vec4 o_col;\nvoid main() { o_col = "
	smp := SamplerState{MinFilter: sampler.Nearest, MagFilter: sampler.Nearest, MipFilter: sampler.MipNearest}
	for _, c := range []struct{ name, body, plain string }{
		{"textureOffset", "textureOffset(tex, v_uv, ivec2(3, 1));", "texture(tex, v_uv);"},
		{"textureLodOffset", "textureLodOffset(tex, v_uv, 1.0, ivec2(-2, 1));", "textureLod(tex, v_uv, 1.0);"},
		{"textureGradOffset", "textureGradOffset(tex, v_uv, vec2(0.1, 0.0), vec2(0.0, 0.1), ivec2(1, -3));", "textureGrad(tex, v_uv, vec2(0.1, 0.0), vec2(0.0, 0.1));"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dev, ref := mipDraw(t, Options{Strict: true}, smp, head+c.body+" }\n"), mipDraw(t, Options{ForceReference: true}, smp, head+c.body+" }\n")
			if r := dev.c.LastDeviceDraw().Route; !r.SWTex {
				t.Errorf("TEX route %+v, want software", r)
			}
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
				t.Errorf("%d pixels differ from the reference renderer by more than 3 (worst %d)", bad, worst)
			}
			if bad, _ := compareImages(b, mipDraw(t, Options{ForceReference: true}, smp, head+c.plain+" }\n").image(t), 3); bad == 0 {
				t.Error("the offset does not change the reference image: the case proves nothing")
			}
		})
	}
}

// mipDraw draws a 16×16 RGBA8 texture on the driver's generated 5-level
// chain at four texels a pixel (LOD 2) with sampler state smp and fragment
// shader fs (texFS's interface).
func mipDraw(t *testing.T, o Options, smp SamplerState, fs string) *drawEnv {
	t.Helper()
	e := newDrawEnv(t, o, false)
	e.program(t, texVS, fs)
	tex, err := e.s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 16, Height: 16, Depth: 1, ArraySize: 1, Levels: 5})
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, 4*16*16)
	for i := range px {
		px[i] = byte(i*53 + i/3)
	}
	if err := tex.Write(0, px); err != nil {
		t.Fatal(err)
	}
	if err := e.c.GenerateMipmap(tex); err != nil {
		t.Fatal(err)
	}
	sm, err := e.c.CreateSamplerState(smp)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.c.CreateSamplerView(tex)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.SetSamplerViews(0, []*SamplerView{v}); err != nil {
		t.Fatal(err)
	}
	if err := e.c.BindSamplerStates(0, []*Sampler{sm}); err != nil {
		t.Fatal(err)
	}
	// Four texels a pixel: LOD 2 of the 5 levels.
	vb := e.floats(t, -1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 8, 0, -1, 1, 0, 1, 0, 8, 1, 1, 0, 1, 8, 8)
	if err := e.drawUVStrip(vb); err != nil {
		t.Fatal(err)
	}
	return e
}
