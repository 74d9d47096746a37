package shaderdev_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/session"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/format"
)

// Textured fragment programs for the machine-code wrapper's vx_tex: a plain
// sample with coordinates past [0, 1] (every wrap mode), two TEX stages, a
// sample under divergent control flow after a discard, and coordinates that
// saturate S.23 or are NaN.
const (
	isaTexFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy * 3.0 - 1.0); }`
	isaTex2FS = `#version 330
uniform sampler2D s0; uniform sampler2D s1; in vec4 v_col; out vec4 o;
void main() { o = texture(s0, v_col.xy * 2.0) * 0.5 + texture(s1, v_col.zx * 1.5 - 0.25).bgra * 0.5; }`
	isaTexFlowFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() {
	if (v_col.b > 0.7) discard;
	vec4 c = vec4(0.2, 0.4, 0.6, 0.8);
	if (v_col.r > 0.4) { c = texture(s, v_col.xy * 4.0); } else if (v_col.g > 0.5) { c.gb = texture(s, v_col.yx).ra; }
	o = c;
}`
	isaTexEdgeFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, vec2(v_col.x * 3e9 - 1.2e9, sqrt(v_col.y - 0.45))); }`
	isaTexMipFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy * v_col.yx * (v_col.z * 60.0) - vec2(v_col.w * 7.0, 0.3)); }`
	isaTexMipFlowFS = `#version 330
uniform sampler2D s0; in vec4 v_col; out vec4 o;
void main() {
	o = vec4(0.5);
	if (v_col.r > 0.3) { o = texture(s0, v_col.xy * 1e6 * v_col.z); }
	o.rg += texture(s0, v_col.yx * v_col.x * 0.01).gb;
}`
	isaTexBiasFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() { o = texture(s, v_col.xy * 5.0, 1.5); }`
)

// isaTexture is an 8×8 A8R8G8B8 texture whose every channel (alpha included)
// varies, so a wrong tap, weight or channel order shows.
func isaTexture(bilinear bool, mip shaderdev.MipFilter, wu, wv abi.TexWrap) shaderdev.Texture {
	px := make([]byte, 4*8*8)
	for i := range px {
		px[i] = byte(i*37 + i/4*11 + 5)
	}
	return shaderdev.Texture{Width: 8, Height: 8, Pixels: px, Bilinear: bilinear, Mip: mip, WrapU: wu, WrapV: wv}
}

// renderTexISA draws unitTris with fs and the bindings texs on cfg (made
// resident first with UploadTexture when resident) and returns the target and
// each draw's stats.
func renderTexISA(t *testing.T, fs string, texs []shaderdev.Texture, cfg config.Config, strict, resident bool) ([]byte, []session.DrawStats, error) {
	t.Helper()
	p := link(t, unitsVS, fs)
	sp, err := shaderdev.NewProgram("isatex", p.IR)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := shaderdev.OpenTargets(cfg, uW, uH, shaderdev.TargetConfig{Colors: []format.Format{format.BGRA8}}, []*shaderdev.Program{sp})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.ClearTarget(0, [4]float32{0.1, 0.2, 0.3, 0.4}); err != nil {
		t.Fatal(err)
	}
	if err := dev.ClearDepthStencil(1, 0); err != nil {
		t.Fatal(err)
	}
	if resident {
		texs = slices.Clone(texs)
		for i := range texs {
			if texs[i].Resident, err = dev.UploadTexture(&texs[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	var stats []session.DrawStats
	for k, tri := range unitTris(false) {
		_, raw := vertexBytes(p, tri)
		attrs := make([]shaderdev.AttribBinding, len(sp.Attributes()))
		for i, s := range sp.Attributes() {
			attrs[i] = shaderdev.AttribBinding{Data: raw, Offset: uint64(4 * s.Word), Stride: uint64(4 * p.AttribWords())}
		}
		var ms swom.State
		baseState(k, &ms)
		st, err := dev.Draw(&shaderdev.Draw{Program: sp, Attribs: attrs, Count: 3, Uniforms: p.Uniforms, Textures: texs, Merge: ms, StrictISA: strict})
		if err != nil {
			return nil, nil, fmt.Errorf("draw %d: %w", k, err)
		}
		stats = append(stats, st)
	}
	out, err := dev.ReadTarget(0)
	if err != nil {
		t.Fatal(err)
	}
	return out, stats, nil
}

// TestFragmentStageISATexMatchesIR is the differential test of vx_tex in
// machine code: each textured draw the FF TEX unit takes (nearest and
// bilinear, CLAMP / REPEAT / MIRROR / BORDER, two stages, samples under
// divergent flow, saturated and NaN coordinates, nearest and linear mip
// levels from the quad gradients — codegen lod.go) renders byte-identical
// targets with cores = "ir" and cores = "isa", with identical TEX counters
// (requests, latency, stalls, texture-cache reads and misses), and under
// cores = "isa" every draw's fragment stage ran as machine code.
// spec: vortex-hardware-facts.md §4, §6; vortexpipe-driver.md §3.4, §3.6;
// docs/ABI.md row 44
func TestFragmentStageISATexMatchesIR(t *testing.T) {
	type tcase struct {
		name     string
		fs       string
		texs     []shaderdev.Texture
		resident bool
	}
	var cs []tcase
	for _, bil := range []bool{false, true} {
		for _, w := range []abi.TexWrap{abi.WrapClamp, abi.WrapRepeat, abi.WrapMirror, abi.WrapBorder} {
			cs = append(cs, tcase{fmt.Sprintf("bilinear=%v wrap=%d", bil, w), isaTexFS,
				[]shaderdev.Texture{isaTexture(bil, shaderdev.MipNone, w, (w+1)%4)}, false})
		}
	}
	cs = append(cs,
		tcase{"two stages", isaTex2FS, []shaderdev.Texture{isaTexture(true, shaderdev.MipNone, abi.WrapRepeat, abi.WrapMirror),
			isaTexture(false, shaderdev.MipNone, abi.WrapClamp, abi.WrapRepeat)}, false},
		tcase{"divergent flow", isaTexFlowFS, []shaderdev.Texture{isaTexture(true, shaderdev.MipNone, abi.WrapRepeat, abi.WrapRepeat)}, false},
		tcase{"saturated and NaN coordinates", isaTexEdgeFS, []shaderdev.Texture{isaTexture(false, shaderdev.MipNone, abi.WrapRepeat, abi.WrapClamp)}, false},
		tcase{"mip nearest", isaTexMipFS, []shaderdev.Texture{isaTexture(false, shaderdev.MipNearest, abi.WrapRepeat, abi.WrapMirror)}, false},
		tcase{"mip linear bilinear", isaTexMipFS, []shaderdev.Texture{isaTexture(true, shaderdev.MipLinear, abi.WrapMirror, abi.WrapRepeat)}, false},
		tcase{"mip linear resident", isaTexMipFS, []shaderdev.Texture{isaTexture(true, shaderdev.MipLinear, abi.WrapRepeat, abi.WrapClamp)}, true},
		tcase{"mip divergent, huge and tiny gradients", isaTexMipFlowFS, []shaderdev.Texture{isaTexture(true, shaderdev.MipLinear, abi.WrapRepeat, abi.WrapRepeat)}, false},
		tcase{"mip two stages", isaTex2FS, []shaderdev.Texture{isaTexture(true, shaderdev.MipLinear, abi.WrapRepeat, abi.WrapMirror),
			isaTexture(false, shaderdev.MipNearest, abi.WrapClamp, abi.WrapRepeat)}, false},
		tcase{"bias without mips", isaTexBiasFS, []shaderdev.Texture{isaTexture(true, shaderdev.MipNone, abi.WrapRepeat, abi.WrapRepeat)}, false},
		tcase{"resident", isaTex2FS, []shaderdev.Texture{isaTexture(true, shaderdev.MipNone, abi.WrapMirror, abi.WrapRepeat),
			isaTexture(true, shaderdev.MipNone, abi.WrapBorder, abi.WrapClamp)}, true},
	)
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			checkTexISAMatchesIR(t, c.fs, c.texs, c.resident, false)
		})
	}
}

// checkTexISAMatchesIR draws fs over texs with cores = "ir" and then, under
// StrictISA, with cores = "isa", and requires the machine-code fragment stage
// on every draw (on the software TEX route when swTex, the FF TEX unit
// otherwise, as on cores = "ir"), the same counters and the same bytes; an FF
// draw that shaded must have sent TEX requests, or the case proves nothing.
func checkTexISAMatchesIR(t *testing.T, fs string, texs []shaderdev.Texture, resident, swTex bool) {
	t.Helper()
	ir, isa := config.Default(), config.Default()
	isa.Device.Cores = config.CoresISA
	want, irSt, err := renderTexISA(t, fs, texs, ir, false, resident)
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := renderTexISA(t, fs, texs, isa, true, resident)
	if err != nil {
		t.Fatalf("strict machine-code draw: %v", err)
	}
	for k := range st {
		if !st[k].Route.FSISA || st[k].Route.SWTex != swTex || irSt[k].Route.SWTex != swTex {
			t.Errorf("draw %d: route %+v (cores = ir %+v)", k, st[k].Route, irSt[k].Route)
		}
		if st[k].Perf != irSt[k].Perf {
			t.Errorf("draw %d: counters %+v, cores = ir %+v", k, st[k].Perf, irSt[k].Perf)
		}
		if !swTex && st[k].Shaded > 0 && st[k].Perf.TexReads == 0 {
			t.Errorf("draw %d: no TEX requests: the case proves nothing", k)
		}
	}
	if !bytes.Equal(got, want) {
		n := 0
		for j := range want {
			if got[j] != want[j] {
				n++
			}
		}
		t.Errorf("%d of %d bytes differ from cores = ir", n, len(want))
	}
}

// TestFragmentStageISATexFallback: a biased sample of a mipmapped texture (the
// biased level of detail is the Go wrapper's float64) runs the Go wrapper
// with the reason in Route.Why, cores = "ir"'s image, and fail with
// ErrISARefused under StrictISA.
func TestFragmentStageISATexFallback(t *testing.T) {
	ir, isa := config.Default(), config.Default()
	isa.Device.Cores = config.CoresISA
	for _, c := range []struct {
		name, fs, why string
		tex           shaderdev.Texture
	}{
		{"bias mip nearest", isaTexBiasFS, "mipmapped and sampled with a bias", isaTexture(true, shaderdev.MipNearest, abi.WrapRepeat, abi.WrapRepeat)},
		{"bias mip linear", isaTexBiasFS, "mipmapped and sampled with a bias", isaTexture(true, shaderdev.MipLinear, abi.WrapRepeat, abi.WrapRepeat)},
	} {
		t.Run(c.name, func(t *testing.T) {
			texs := []shaderdev.Texture{c.tex}
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
