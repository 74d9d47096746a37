package shaderdev_test

import (
	"context"
	"testing"

	"vortexgfx/config"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/gl/sampler"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

const texVS = `#version 330
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; }`

// texCase is one §3.6 row drawn through the device and the reference.
type texCase struct {
	name     string
	vs       string // texVS when empty
	fs       string
	tex      func(t *testing.T) (*sampler.Texture, sampler.Sampler)
	samples  int
	force    shaderdev.Units
	tol      float64
	resident bool // bind through UploadRefTexture, drawn twice
}

func (c *texCase) vertex() string {
	if c.vs != "" {
		return c.vs
	}
	return texVS
}

func npotTexture(t *testing.T) (*sampler.Texture, sampler.Sampler) {
	tx, err := sampler.NewTexture(sampler.Dim2D, format.RGBA8, 5, 3, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for y := range 3 {
		for x := range 5 {
			if err := tx.SetFloat(0, x, y, 0, [4]float32{float32(x) / 4, float32(y) / 2, float32((x + y) % 2), 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := sampler.DefaultSampler()
	s.MinFilter, s.MagFilter, s.MipFilter = sampler.Linear, sampler.Linear, sampler.MipNone
	s.WrapS, s.WrapT = sampler.MirrorClampToEdge, sampler.Repeat
	return tx, s
}

func volumeTexture(t *testing.T) (*sampler.Texture, sampler.Sampler) {
	tx, err := sampler.NewTexture(sampler.Dim3D, format.RGBA16F, 4, 4, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for z := range 3 {
		for y := range 4 {
			for x := range 4 {
				if err := tx.SetFloat(0, x, y, z, [4]float32{float32(x) / 3, float32(y) / 3, float32(z) / 2, 1}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s := sampler.DefaultSampler()
	s.MinFilter, s.MagFilter, s.MipFilter = sampler.Linear, sampler.Linear, sampler.MipNone
	return tx, s
}

// TestShaderSWTexMatchesRef samples textures the FF TEX unit has no form of
// (NPOT with a mirror-clamp wrap, 3D float, texelFetch), and an NPOT texture
// under 4x MSAA, on the device's software sampler (device/swtex, wired into
// the fragment wrapper through FS arg slot 1) and on the reference renderer.
// The sampling maths is shared, so the tolerance is the interpolation's:
// 2.5/255 per channel, 4% edge pixels (3.5/255 with MSAA, whose reference
// shades at the sample positions). spec: vortexpipe §3.6
func TestShaderSWTexMatchesRef(t *testing.T) {
	cases := []texCase{
		{name: "npot mirror-clamp", fs: `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy * 3.0 - 1.0); }`, tex: npotTexture, tol: 2.5 / 255},
		{name: "3d rgba16f", fs: `#version 330
uniform sampler3D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xyz); }`, tex: volumeTexture, tol: 2.5 / 255},
		{name: "texelFetch", fs: `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texelFetch(s, ivec2(v_col.xy * 4.0), 0); }`, tex: npotTexture, tol: 2.5 / 255},
		{name: "npot resident", fs: `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy * 3.0 - 1.0); }`, tex: npotTexture, tol: 2.5 / 255, resident: true},
		{name: "msaa npot", fs: `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy); }`, tex: npotTexture, samples: 4, tol: 3.5 / 255},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tx, smp := c.tex(t)
			got, stats := renderTexDevice(t, &c, tx, smp, config.Default())
			for k, st := range stats {
				if !st.Route.SWTex || st.Route.SWRaster != (c.samples > 1) {
					t.Errorf("draw %d routed %+v", k, st.Route)
				}
			}
			want := renderTexRef(t, &c, tx, smp)
			bad, drawn, maxd := compareTargets(format.RGBA8, got, want, [4]float32{}, c.tol)
			t.Logf("%d drawn, %d beyond %.4f (max %.4f)", drawn, bad, c.tol, maxd)
			if drawn < 150 || bad > uW*uH*4/100 {
				t.Errorf("%d drawn, %d pixels beyond tolerance (max %.4f)", drawn, bad, maxd)
			}
		})
	}
}

// TestShaderTexForcedSoftware draws a power-of-two texture on the FF TEX unit
// and with TEX forced to the software sampler: the FF unit's S.23 coordinates
// and 8-bit bilinear weights against the float sampler differ by at most
// 3/255 per channel (tolerance stated), on every pixel.
func TestShaderTexForcedSoftware(t *testing.T) {
	c := texCase{name: "pot", fs: `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy * 2.0); }`}
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
	ff := shaderdev.Texture{Width: 4, Height: 4, Pixels: tx.Levels[0].Data, Bilinear: true, WrapU: 1, WrapV: 1}
	hw, st := renderTexFF(t, &c, ff, 0)
	if st[0].Route.SWTex {
		t.Fatalf("FF draw routed %+v", st[0].Route)
	}
	sw, st := renderTexFF(t, &c, ff, shaderdev.UnitTex)
	if !st[0].Route.SWTex || st[0].Route.SWOM {
		t.Fatalf("forced draw routed %+v", st[0].Route)
	}
	bad, drawn, maxd := compareTargets(format.BGRA8, sw, hw, [4]float32{}, 3.0/255)
	t.Logf("%d drawn, %d beyond 3/255 (max %.4f)", drawn, bad, maxd)
	if drawn < 150 || bad != 0 {
		t.Errorf("%d drawn, %d pixels differ beyond 3/255 (max %.4f)", drawn, bad, maxd)
	}
}

func renderTexFF(t *testing.T, c *texCase, tex shaderdev.Texture, force shaderdev.Units) ([]byte, []session.DrawStats) {
	t.Helper()
	p := link(t, c.vertex(), c.fs)
	sp, err := shaderdev.NewProgram("tex."+c.name, p.IR)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := shaderdev.OpenTargets(config.Default(), uW, uH, shaderdev.TargetConfig{}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	dev.SetForceSW(force)
	if err := dev.ClearTarget(0, [4]float32{}); err != nil {
		t.Fatal(err)
	}
	_, raw := vertexBytes(p, unitTris(false)[0])
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
	}
	st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Textures: []shaderdev.Texture{tex},
		Merge: omAll()})
	if err != nil {
		t.Fatal(err)
	}
	out, err := dev.ReadTarget(0)
	if err != nil {
		t.Fatal(err)
	}
	return out, []session.DrawStats{st}
}

func renderTexDevice(t *testing.T, c *texCase, tx *sampler.Texture, smp sampler.Sampler, cfg config.Config) ([]byte, []session.DrawStats) {
	t.Helper()
	p := link(t, c.vertex(), c.fs)
	sp, err := shaderdev.NewProgram("tex."+c.name, p.IR)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := shaderdev.OpenTargets(cfg, uW, uH, shaderdev.TargetConfig{Colors: []format.Format{format.RGBA8}, Samples: c.samples}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	dev.SetForceSW(c.force)
	if err := dev.ClearTarget(0, [4]float32{}); err != nil {
		t.Fatal(err)
	}
	_, raw := vertexBytes(p, unitTris(false)[0])
	attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
	for i, s := range sp.Attributes() {
		attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
	}
	bind := shaderdev.Texture{Ref: tx, RefSampler: &smp}
	draws := 1
	if c.resident {
		r, err := dev.UploadRefTexture(tx, smp)
		if err != nil {
			t.Fatal(err)
		}
		bind, draws = shaderdev.Texture{Resident: r}, 2
	}
	var st session.DrawStats
	for range draws {
		if st, err = dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms,
			Textures: []shaderdev.Texture{bind}, Merge: omAll()}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := dev.ReadTarget(0)
	if err != nil {
		t.Fatal(err)
	}
	return out, []session.DrawStats{st}
}

func renderTexRef(t *testing.T, c *texCase, tx *sampler.Texture, smp sampler.Sampler) []byte {
	t.Helper()
	return renderTexRefFormat(t, c, tx, smp, format.RGBA8)
}

// renderTexRefFormat is renderTexRef into a target of format cf.
func renderTexRefFormat(t *testing.T, c *texCase, tx *sampler.Texture, smp sampler.Sampler, cf format.Format) []byte {
	t.Helper()
	p := link(t, c.vertex(), c.fs)
	S := max(c.samples, 1)
	data, _ := vertexBytes(p, unitTris(false)[0])
	sum := make([][4]float64, uW*uH)
	var last *ref.Target
	for k := range S {
		tg, err := ref.NewTarget(uW, uH, []format.Format{cf}, format.D24S8)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := p.NewVertexShader(context.Background(), program.VertexOptions{})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := p.NewFragmentShader(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st := ref.DefaultState(uW, uH)
		st.Vertex, st.Fragment, st.Interp = vs, fs, p.Interp(false)
		b := p.IR.FS.Samplers[0]
		unit := program.TextureIndex(p.Units[0], program.KindTarget(b.Kind))
		st.Textures = make([]ref.TextureBinding, unit+1)
		st.Textures[unit] = ref.TextureBinding{Texture: tx, Sampler: smp}
		if S > 1 {
			sx, sy := msaa.Position(S, k)
			st.Viewport.X -= float32(sx-8) / 16
			st.Viewport.Y -= float32(sy-8) / 16
		}
		if err := ref.Draw(context.Background(), tg, &st, ref.VertexInput{Words: p.AttribWords(), Data: data}, ref.DrawParams{Topology: ref.Triangles, Count: 3}); err != nil {
			t.Fatal(err)
		}
		for px := range sum {
			v := format.ToFloat(cf, format.Unpack(cf, tg.Color[0].Data[4*px:]))
			for j := range 4 {
				sum[px][j] += float64(v[j])
			}
		}
		last = tg
	}
	if S == 1 {
		return last.Color[0].Data
	}
	out := make([]byte, 4*uW*uH)
	for px := range sum {
		var a [4]float32
		for j := range a {
			a[j] = float32(sum[px][j] / float64(S))
		}
		format.Pack(cf, out[4*px:], format.FromFloat(cf, a))
	}
	return out
}
