package shaderdev_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
)

// Fragment programs answered from the software sampler's descriptors:
// texelFetch inside and outside the level and the level range (negative
// coordinates and lods included), textureSize at lods in and out of range,
// and both on two bindings.
const (
	isaFetchFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texelFetch(s, ivec2(v_col.xy * 12.0) - 2, int(v_col.z * 5.0) - 1); }`
	isaSizeFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { ivec2 n = textureSize(s, int(v_col.w * 7.0) - 1); o = vec4(vec2(n) / 16.0, float(n.x == 0), 1.0); }`
	isaFetch2FS = `#version 330
uniform sampler2D s0; uniform sampler2D s1; in vec4 v_col; out vec4 o;
void main() {
	ivec2 n = textureSize(s1, 0);
	o = texelFetch(s0, ivec2(v_col.yx * 9.0), 0) * 0.5 + texelFetch(s1, ivec2(v_col.xy * vec2(n)), int(v_col.z * 2.0)) * 0.5;
}`
)

// refTexture is a w×h texture of f with every level (levels 0: the full
// chain) holding distinct values, sampled with GL's default sampler.
func refTexture(t *testing.T, f format.Format, w, h, levels, base int) shaderdev.Texture {
	t.Helper()
	tx, err := sampler.NewTexture(sampler.Dim2D, f, w, h, 1, levels)
	if err != nil {
		t.Fatal(err)
	}
	for l, lv := range tx.Levels {
		for y := range lv.H {
			for x := range lv.W {
				if err := tx.SetFloat(l, x, y, 0, [4]float32{float32(l) / 4, float32(x) / float32(lv.W), float32(y) / float32(lv.H), 1.5 - float32(x+y)/7}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tx.BaseLevel = base
	return shaderdev.Texture{Width: uint32(w), Height: uint32(h), Ref: tx}
}

// TestFragmentStageISAFetchMatchesIR is the differential test of the
// fragment stage's texelFetch and textureSize as machine code (codegen
// texfetch.go on FS arg slot abi.ArgFSSWSampler): on the software TEX route
// every draw renders byte-identical targets with cores = "ir" (the Go
// wrapper's software sampler) and cores = "isa", with identical counters,
// for FF bindings laid out for the software sampler (BGRA8, one level or the
// chain), resident FF chains, RGBA8 and RGBA32F NPOT chains with a base
// level, and two bindings; and under cores = "isa" the fragment stage ran as
// machine code. spec: vortexpipe-driver.md §3.6; docs/ABI.md rows 45, 49
func TestFragmentStageISAFetchMatchesIR(t *testing.T) {
	type tcase struct {
		name     string
		fs       string
		texs     func(t *testing.T) []shaderdev.Texture
		resident bool
	}
	ff := func(mip shaderdev.MipFilter) func(t *testing.T) []shaderdev.Texture {
		return func(t *testing.T) []shaderdev.Texture {
			return []shaderdev.Texture{isaTexture(false, mip, abi.WrapRepeat, abi.WrapRepeat)}
		}
	}
	ref := func(f format.Format, w, h, levels, base int) func(t *testing.T) []shaderdev.Texture {
		return func(t *testing.T) []shaderdev.Texture {
			return []shaderdev.Texture{refTexture(t, f, w, h, levels, base)}
		}
	}
	var cs []tcase
	for _, fs := range []struct{ name, src string }{{"texelFetch", isaFetchFS}, {"textureSize", isaSizeFS}} {
		cs = append(cs,
			tcase{fs.name + " FF binding, one level", fs.src, ff(shaderdev.MipNone), false},
			tcase{fs.name + " FF binding, chain", fs.src, ff(shaderdev.MipLinear), false},
			tcase{fs.name + " resident FF chain", fs.src, ff(shaderdev.MipNone), true},
			tcase{fs.name + " RGBA8 NPOT base 1", fs.src, ref(format.RGBA8, 13, 6, 0, 1), false},
			tcase{fs.name + " RGBA32F", fs.src, ref(format.RGBA32F, 7, 9, 3, 0), false},
		)
	}
	cs = append(cs, tcase{"two bindings", isaFetch2FS, func(t *testing.T) []shaderdev.Texture {
		return []shaderdev.Texture{isaTexture(false, shaderdev.MipNone, abi.WrapClamp, abi.WrapRepeat), refTexture(t, format.RGBA32F, 5, 4, 0, 0)}
	}, false})
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			texs := c.texs(t)
			checkTexISAMatchesIR(t, c.fs, texs, c.resident, true)
		})
	}
}

// TestFragmentStageISAFetchFallback: a texelFetch of a texture the machine
// code does not decode (R8), and texelFetch beside texture() (the draw's TEX
// runs on one unit), run the Go wrapper with the reason, cores = "ir"'s
// image, and fail with ErrISARefused under StrictISA.
func TestFragmentStageISAFetchFallback(t *testing.T) {
	ir, isa := config.Default(), config.Default()
	isa.Device.Cores = config.CoresISA
	mixFS := `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texelFetch(s, ivec2(v_col.xy * 8.0), 0) + texture(s, v_col.yx); }`
	for _, c := range []struct {
		name, fs, why string
		tex           func(t *testing.T) shaderdev.Texture
	}{
		{"R8", isaFetchFS, "format", func(t *testing.T) shaderdev.Texture { return refTexture(t, format.R8, 8, 8, 1, 0) }},
		{"beside texture()", mixFS, "beside texelFetch", func(t *testing.T) shaderdev.Texture {
			return isaTexture(false, shaderdev.MipNone, abi.WrapRepeat, abi.WrapRepeat)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			texs := []shaderdev.Texture{c.tex(t)}
			want, _, err := renderTexISA(t, c.fs, texs, ir, false, false)
			if err != nil {
				t.Fatal(err)
			}
			got, st, err := renderTexISA(t, c.fs, texs, isa, false, false)
			if err != nil {
				t.Fatal(err)
			}
			for k := range st {
				if st[k].Route.FSISA || !slices.ContainsFunc(st[k].Route.Why, func(w string) bool {
					return strings.HasPrefix(w, "fs: IR executor: ") && strings.Contains(w, c.why)
				}) {
					t.Errorf("draw %d: route %+v, want the Go wrapper with %q", k, st[k].Route, c.why)
				}
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the fallback's image differs from cores = ir")
			}
			if _, _, err := renderTexISA(t, c.fs, texs, isa, true, false); !errors.Is(err, shaderdev.ErrISARefused) {
				t.Errorf("strict: %v, want ErrISARefused", err)
			}
		})
	}
}
