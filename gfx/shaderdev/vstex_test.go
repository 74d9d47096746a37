package shaderdev_test

import (
	"errors"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref/format"
	"vortexgfx/ref/sampler"
)

// TestShaderVertexTexture samples textures in the vertex stage on the device
// (the software sampler over the descriptor table at VS arg slot
// abi.ArgVSSWSampler) and on the reference renderer: textureLod, texelFetch
// and textureSize feeding the varyings, an implicit-LOD texture() (the base
// level in a vertex shader, as GLSL says: no derivatives, and the bias form
// is fragment-only), a 3D texture, and a program
// sampling in both stages with the fragment stage on the FF TEX unit. The
// sampling maths is shared; the tolerance is the interpolation's, 2.5/255
// per channel on all but 4% of the pixels (edges). spec: vortexpipe §2.5, §3.6
func TestShaderVertexTexture(t *testing.T) {
	const vsHead = `#version 330
uniform sampler2D s; in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; `
	cases := []texCase{
		{name: "textureLod", vs: vsHead + `v_col = textureLod(s, a_col.xy, 0.0); }`, tex: npotTexture},
		{name: "texelFetch and size", vs: vsHead + `ivec2 n = textureSize(s, 0);
v_col = texelFetch(s, ivec2(a_col.xy * vec2(n - 1) + 0.5), 0) * 0.5 + vec4(vec2(n) / 8.0, 0.0, 0.5); }`, tex: npotTexture},
		{name: "implicit lod at the base level", vs: vsHead + `v_col = texture(s, a_col.yx); }`, tex: mipTexture},
		{name: "3d", vs: `#version 330
uniform sampler3D s; in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; v_col = texture(s, a_col.xyz); }`, tex: volumeTexture},
	}
	const fsCol = `#version 330
in vec4 v_col; out vec4 o; void main() { o = v_col; }`
	for _, c := range cases {
		c.fs, c.tol = fsCol, 2.5/255
		t.Run(c.name, func(t *testing.T) {
			tx, smp := c.tex(t)
			got, stats := renderTexDevice(t, &c, tx, smp, config.Default())
			if stats[0].Route.SWTex || stats[0].Route.SWOM {
				t.Errorf("routed %+v (the fragment stage samples nothing)", stats[0].Route)
			}
			want := renderTexRef(t, &c, tx, smp)
			bad, drawn, maxd := compareTargets(format.RGBA8, got, want, [4]float32{}, c.tol)
			t.Logf("%d drawn, %d beyond %.4f (max %.4f)", drawn, bad, c.tol, maxd)
			if drawn < 150 || bad > uW*uH*4/100 {
				t.Errorf("%d drawn, %d pixels beyond tolerance (max %.4f)", drawn, bad, maxd)
			}
		})
	}
	// Both stages: the VS displaces colour from the texture through the
	// software sampler while the FS samples the same power-of-two texture on
	// the FF unit (3/255: the FF unit's 8-bit bilinear weights).
	both := texCase{name: "both stages", vs: vsHead + `v_col = vec4(a_col.xy, textureLod(s, a_col.xy, 0.0).rg); }`,
		fs: `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o; void main() { o = texture(s, v_col.xy) * 0.5 + vec4(v_col.zw, 0.0, 0.5) * 0.5; }`}
	tx, err := sampler.NewTexture(sampler.Dim2D, format.BGRA8, 4, 4, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for y := range 4 {
		for x := range 4 {
			if err := tx.SetFloat(0, x, y, 0, [4]float32{float32(x) / 3, float32(y) / 3, float32((x + y) % 2), 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	smp := sampler.DefaultSampler()
	smp.MinFilter, smp.MagFilter, smp.MipFilter = sampler.Linear, sampler.Linear, sampler.MipNone
	smp.WrapS, smp.WrapT = sampler.Repeat, sampler.Repeat
	ff := shaderdev.Texture{Width: 4, Height: 4, Pixels: tx.Levels[0].Data, Bilinear: true, WrapU: 1, WrapV: 1}
	hw, st := renderTexFF(t, &both, ff, 0)
	if st[0].Route.SWTex {
		t.Errorf("both stages: the FS routed %+v (vx_tex serves it)", st[0].Route)
	}
	want := renderTexRefFormat(t, &both, tx, smp, format.BGRA8)
	bad, drawn, maxd := compareTargets(format.BGRA8, hw, want, [4]float32{}, 3.0/255)
	t.Logf("both stages: %d drawn, %d beyond 3/255 (max %.4f)", drawn, bad, maxd)
	if drawn < 150 || bad > uW*uH*4/100 {
		t.Errorf("both stages: %d drawn, %d pixels beyond tolerance (max %.4f)", drawn, bad, maxd)
	}
	// A program registered without a device has no memory for the sampler.
	p := link(t, cases[0].vs, fsCol)
	if _, err := shaderdev.NewProgram("vstex.ok", p.IR); errors.Is(err, shaderdev.ErrRoute) {
		t.Errorf("vertex-stage texturing is still refused: %v", err)
	}
}

// mipTexture is an 8×8 RGBA8 texture with its full chain and base level 1,
// red carrying the level, so the sampled level shows in the result.
func mipTexture(t *testing.T) (*sampler.Texture, sampler.Sampler) {
	tx, err := sampler.NewTexture(sampler.Dim2D, format.RGBA8, 8, 8, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for l, lv := range tx.Levels {
		for y := range lv.H {
			for x := range lv.W {
				if err := tx.SetFloat(l, x, y, 0, [4]float32{float32(l) / 3, float32(x) / 8, float32(y) / 8, 1}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tx.BaseLevel = 1
	s := sampler.DefaultSampler()
	s.MinFilter, s.MagFilter, s.MipFilter = sampler.Nearest, sampler.Nearest, sampler.MipNearest
	return tx, s
}

// TestShaderResidentFFTextureOnSoftware binds a resident FF chain
// (UploadTexture) where the software sampler reads it — a vertex stage, and a
// fragment stage with TEX forced to software — and requires the image the
// same texture gives when passed by value (laid out for the software sampler
// per draw): byte-identical, the descriptor pointing into the FF chain in
// place. spec: vortexpipe §1.3, §2.3.3, §3.6
func TestShaderResidentFFTextureOnSoftware(t *testing.T) {
	const vs = `#version 330
uniform sampler2D s; in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; v_col = vec4(a_col.xy, textureLod(s, a_col.yx, 0.0).rb); }`
	const fs = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o; void main() { o = texture(s, v_col.xy * 2.0) * 0.5 + vec4(v_col.zw, 0.0, 0.5) * 0.5; }`
	px := make([]byte, 4*8*4)
	for i := range px {
		px[i] = byte(i * 37)
	}
	tex := shaderdev.Texture{Width: 8, Height: 4, Pixels: px, Bilinear: true, WrapU: 1, WrapV: 2}
	p := link(t, vs, fs)
	draw := func(resident bool, force shaderdev.Units) []byte {
		sp, err := shaderdev.NewProgram("resff", p.IR)
		if err != nil {
			t.Fatal(err)
		}
		dev, err := shaderdev.Open(config.Default(), uW, uH, []*shaderdev.Program{sp})
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close()
		dev.SetForceSW(force)
		if err := dev.Clear(0, 0xFFFFFF); err != nil {
			t.Fatal(err)
		}
		bind := tex
		if resident {
			r, err := dev.UploadTexture(&tex)
			if err != nil {
				t.Fatal(err)
			}
			bind = shaderdev.Texture{Width: 8, Height: 4, Bilinear: true, WrapU: 1, WrapV: 2, Resident: r}
		}
		_, raw := vertexBytes(p, unitTris(false)[0])
		attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
		}
		st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Textures: []shaderdev.Texture{bind}, Merge: omAll()})
		if err != nil {
			t.Fatal(err)
		}
		if st.Route.SWTex != (force&shaderdev.UnitTex != 0) {
			t.Errorf("resident %v, forced %v: routed %+v", resident, force, st.Route)
		}
		out, err := dev.ReadTarget(0)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, force := range []shaderdev.Units{0, shaderdev.UnitTex} {
		a, b := draw(false, force), draw(true, force)
		n := 0
		for i := range a {
			if a[i] != b[i] {
				n++
			}
		}
		if n != 0 {
			t.Errorf("forced %v: %d bytes differ between the by-value and the resident texture", force, n)
		}
	}
}
