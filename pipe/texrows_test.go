package pipe

import (
	"encoding/binary"
	"math"
	"testing"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// texRow is one row of the vortexpipe §3.6 TEX coverage table, rendered
// through the driver on the device and on the reference renderer.
type texRow struct {
	row  string // the §3.6 row it covers
	fs   string
	desc TextureDesc
	smp  SamplerState
	uv   [4][2]float32
	ff   bool // the FF TEX unit takes it (else the software sampler)
}

// TestTEXCoverageRows renders one draw per row of the §3.6 table the earlier
// tests (TestDrawSoftwareTextures: NPOT, application mips, border colour,
// shadow compare, cube map, texelFetch) leave out, through DrawVBO on the
// device under STRICT and with ForceReference, asserting the TEX route (FF
// unit or device/swtex) and comparing the images: at most 2% of the pixels
// may differ by more than 3/255 (the FF unit's S.23 coordinates and the
// software sampler's float ones round a few texel boundaries differently).
// spec: vortexpipe §3.6
func TestTEXCoverageRows(t *testing.T) {
	unit := [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	tex2D := func(f format.Format, w, h, levels int) TextureDesc {
		return TextureDesc{Target: Target2D, Format: f, Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: levels}
	}
	const fs330 = `#version 330
in vec2 v_uv;
out vec4 o_col;
`
	rows := []texRow{
		{row: "2D POT BGRA8, bilinear repeat (FF)", fs: texFS, desc: tex2D(format.BGRA8, 8, 8, 1),
			smp: SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear}, uv: [4][2]float32{{0, 0}, {2, 0}, {0, 2}, {2, 2}}, ff: true},
		{row: "3D", fs: fs330 + `uniform sampler3D tex;
void main() { o_col = texture(tex, vec3(v_uv, v_uv.x * 0.7)); }`,
			desc: TextureDesc{Target: Target3D, Format: format.RGBA8, Width: 4, Height: 4, Depth: 4, ArraySize: 1, Levels: 1}, uv: unit},
		{row: "2D array", fs: fs330 + `uniform sampler2DArray tex;
void main() { o_col = texture(tex, vec3(v_uv, floor(v_uv.x * 3.0))); }`,
			desc: TextureDesc{Target: Target2DArray, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 3, Levels: 1}, uv: unit},
		{row: "textureGather", fs: `#version 400
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureGather(tex, v_uv, 1); }`, desc: tex2D(format.RGBA8, 4, 4, 1), uv: unit},
		{row: "textureGather with offset", fs: `#version 400
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureGatherOffset(tex, v_uv, ivec2(1, -1), 2); }`, desc: tex2D(format.RGBA8, 4, 4, 1), uv: unit},
		{row: "textureGather compare", fs: `#version 400
uniform sampler2DShadow tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureGather(tex, v_uv, 0.45); }`, desc: tex2D(format.D32F, 4, 4, 1),
			smp: SamplerState{CompareMode: true, CompareFunc: compare.LessEqual}, uv: unit},
		{row: "textureSize", fs: fs330 + `uniform sampler2D tex;
void main() { o_col = vec4(vec2(textureSize(tex, 0)) / 8.0, vec2(textureSize(tex, 1)) / 8.0); }`,
			desc: tex2D(format.RGBA8, 5, 3, 2), smp: SamplerState{MipFilter: sampler.MipNearest, MaxLod: 1}, uv: unit},
		{row: "integer format (RGBA8UI)", fs: fs330 + `uniform usampler2D tex;
void main() { o_col = vec4(texture(tex, v_uv)) / 255.0; }`, desc: tex2D(format.RGBA8UI, 4, 4, 1), uv: unit},
		{row: "float format (RGBA32F)", fs: texFS, desc: tex2D(format.RGBA32F, 4, 4, 1),
			smp: SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear}, uv: unit},
		{row: "depth format sampled as a colour (D32F)", fs: texFS, desc: tex2D(format.D32F, 4, 4, 1), uv: unit},
		{row: "sRGB format", fs: texFS, desc: tex2D(format.SRGB8A8, 4, 4, 1),
			smp: SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear}, uv: unit},
		{row: "R8 format", fs: texFS, desc: tex2D(format.R8, 4, 4, 1), uv: unit},
		{row: "RG8 format", fs: texFS, desc: tex2D(format.RG8, 4, 4, 1), uv: unit},
		{row: "MIRROR_CLAMP_TO_EDGE", fs: texFS, desc: tex2D(format.RGBA8, 4, 4, 1),
			smp: SamplerState{WrapS: sampler.MirrorClampToEdge, WrapT: sampler.MirrorClampToEdge, MinFilter: sampler.Linear, MagFilter: sampler.Linear},
			uv:  [4][2]float32{{-1.5, -1.5}, {1.5, -1.5}, {-1.5, 1.5}, {1.5, 1.5}}},
		{row: "min filter different from mag filter", fs: texFS, desc: tex2D(format.RGBA8, 16, 16, 5),
			smp: SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Nearest, MipFilter: sampler.MipLinear, MaxLod: 4},
			uv:  [4][2]float32{{0, 0}, {3, 0}, {0, 3}, {3, 3}}},
		{row: "cube array", fs: `#version 400
uniform samplerCubeArray tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = texture(tex, vec4(v_uv * 2.0 - 1.0, 0.5, floor(v_uv.x * 2.0))); }`,
			desc: TextureDesc{Target: TargetCubeArray, Format: format.RGBA8, Width: 2, Height: 2, Depth: 1, ArraySize: 12, Levels: 1}, uv: unit},
		{row: "RECT", fs: `#version 140
uniform sampler2DRect tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = texture(tex, v_uv * vec2(5.0, 3.0)); }`,
			desc: TextureDesc{Target: TargetRect, Format: format.RGBA8, Width: 5, Height: 3, Depth: 1, ArraySize: 1, Levels: 1}, uv: unit},
		{row: "textureQueryLod", fs: `#version 400
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = vec4(textureQueryLod(tex, v_uv) / 4.0, 0.0, 1.0); }`,
			desc: tex2D(format.RGBA8, 16, 16, 5), smp: SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear, MaxLod: 4},
			uv: [4][2]float32{{0, 0}, {6, 0}, {0, 2}, {6, 2}}},
		{row: "textureGatherOffsets", fs: `#version 400
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = textureGatherOffsets(tex, v_uv, ivec2[4](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(-1, -1)), 0); }`,
			desc: tex2D(format.RGBA8, 4, 4, 1), uv: unit},
		{row: "MIRROR_CLAMP (legacy, edge/border blend)", fs: texFS, desc: tex2D(format.RGBA8, 4, 4, 1),
			smp: SamplerState{WrapS: sampler.MirrorClamp, WrapT: sampler.MirrorClamp, MinFilter: sampler.Linear, MagFilter: sampler.Linear,
				BorderColor: [4]float32{0, 0, 1, 1}},
			uv: [4][2]float32{{-1.5, -1.5}, {1.5, -1.5}, {-1.5, 1.5}, {1.5, 1.5}}},
		{row: "legacy GL_CLAMP", fs: texFS, desc: tex2D(format.RGBA8, 4, 4, 1),
			smp: SamplerState{WrapS: sampler.Clamp, WrapT: sampler.Clamp, MinFilter: sampler.Linear, MagFilter: sampler.Linear,
				BorderColor: [4]float32{0, 1, 0, 1}},
			uv: [4][2]float32{{-0.5, -0.5}, {1.5, -0.5}, {-0.5, 1.5}, {1.5, 1.5}}},
		{row: "anisotropic 16x", fs: texFS, desc: tex2D(format.RGBA8, 16, 16, 5),
			smp: SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear, MaxLod: 4, MaxAnisotropy: 16},
			uv:  [4][2]float32{{0, 0}, {8, 0}, {0, 1}, {8, 1}}},
		{row: "1D array", fs: fs330 + `uniform sampler1DArray tex;
void main() { o_col = texture(tex, vec2(v_uv.x, floor(v_uv.y * 3.0))); }`,
			desc: TextureDesc{Target: Target1DArray, Format: format.RGBA8, Width: 8, Height: 1, Depth: 1, ArraySize: 3, Levels: 1}, uv: unit},
		{row: "txf_ms (texelFetch on a multisample texture)", fs: `#version 330
uniform sampler2DMS tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = texelFetch(tex, ivec2(v_uv * 3.99), int(v_uv.x * 3.99)); }`,
			desc: TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 1, Samples: 4}, uv: unit},
		{row: "textureQueryLevels", fs: `#version 430
uniform sampler2D tex;
in vec2 v_uv;
out vec4 o_col;
void main() { o_col = vec4(float(textureQueryLevels(tex)) / 8.0, v_uv, 1.0); }`,
			desc: tex2D(format.RGBA8, 16, 16, 5), smp: SamplerState{MipFilter: sampler.MipNearest, MaxLod: 4}, uv: unit},
	}
	for _, tc := range rows {
		t.Run(tc.row, func(t *testing.T) {
			run := func(o Options) *drawEnv {
				e := newDrawEnv(t, o, false)
				e.program(t, texVS, tc.fs)
				bindRowTexture(t, e, tc)
				var v []float32
				for i, p := range [][2]float32{{-0.9, -0.9}, {0.9, -0.9}, {-0.9, 0.9}, {0.9, 0.9}} {
					v = append(v, p[0], p[1], 0, 1, tc.uv[i][0], tc.uv[i][1])
				}
				vb := e.floats(t, v...)
				if err := e.drawUVStrip(vb); err != nil {
					t.Fatal(err)
				}
				return e
			}
			dev, ref := run(Options{Strict: true}), run(Options{ForceReference: true})
			if st := dev.c.Stats(); st.Device != 1 {
				t.Fatalf("stats %+v", st)
			}
			if r := dev.c.LastDeviceDraw().Route; r.SWTex == tc.ff {
				t.Errorf("TEX route %+v, want software %v", r, !tc.ff)
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
				t.Errorf("the reference image has %d colours: the row samples nothing", len(colours))
			}
		})
	}
}

// bindRowTexture creates row tc's texture with deterministic contents (a
// byte ramp; depth and float formats a value ramp in [0, 1)) and binds it
// with the row's sampler state to unit 0.
func bindRowTexture(t testing.TB, e *drawEnv, tc texRow) {
	t.Helper()
	r, err := e.s.CreateTexture(tc.desc)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, r.Size())
	switch tc.desc.Format {
	case format.D32F, format.RGBA32F:
		for i := 0; i+4 <= len(px); i += 4 {
			binary.LittleEndian.PutUint32(px[i:], math.Float32bits(float32(i/4%13)/13))
		}
	default:
		for i := range px {
			px[i] = byte(i*37 + i/5)
		}
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
}
