package shaderdev_test

import (
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gfx/shaderdev"
)

// Fragment programs with an explicit level of detail: textureLod over a
// continuous lod and the special values beside each step (k/256, k + 1/2,
// their float32 neighbours, −0, a subnormal, past the chain, NaN, ±Inf), and
// textureGrad over continuous gradients, derivative-fed ones, zero, NaN and
// Inf gradients; then both with texture() on two stages under divergent flow.
// (Not an if/else sampling a different stage on each side: the SIMT core runs
// the smaller half of a split first, as SimX, the IR executor the then side,
// so the TEX requests' order — and the latency counter, not the image —
// differs there for texture() alike.)
const (
	isaTexLodFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
const float L[12] = float[12](0.5, 0.49999997, 1.5, -0.0, 2.99609375, 3.0000002, 1e-40, 100.0, 0.00390625, 0.0039062498, 1.4999999, 2.5);
void main() {
	float l = v_col.z * 7.0 - 1.5;
	int i = int(gl_FragCoord.x) % 16;
	if (i < 12) l = L[i];
	if (i == 12) l = sqrt(v_col.y - 2.0);
	if (i == 13) l = 1e38 * (v_col.x + 5.0);
	if (i == 14) l = -1e38 * (v_col.x + 5.0);
	o = textureLod(s, v_col.xy * 3.0 - 1.0, l);
}`
	isaTexGradFS = `#version 330
uniform sampler2D s; in vec4 v_col; out vec4 o;
void main() {
	vec2 p = v_col.xy * 2.0 - 0.5;
	vec2 dx = vec2(v_col.z * 0.3, dFdx(p.y) * 40.0);
	vec2 dy = vec2(dFdy(p.x) * v_col.w * 9.0, v_col.x * 0.02);
	int i = int(gl_FragCoord.y) % 8;
	if (i == 0) dx = vec2(sqrt(v_col.y - 2.0), 0.1);
	if (i == 1) dy = vec2(1e38 * (v_col.x + 5.0), 0.0);
	if (i == 2) dx = vec2(0.0);
	if (i == 3) { dx *= 1e-3; dy *= 1e-3; }
	o = textureGrad(s, p, dx, dy);
}`
	isaTexMixFS = `#version 330
uniform sampler2D s0; uniform sampler2D s1; in vec4 v_col; out vec4 o;
void main() {
	o = texture(s0, v_col.xy * 4.0) * 0.25;
	if (v_col.r > 0.4) { o += textureLod(s1, v_col.yx, v_col.z * 4.0) * 0.5; }
	o += textureGrad(s0, v_col.zy, vec2(v_col.x, 0.0), vec2(0.0, v_col.w * 0.5)).bgra * 0.25;
	o.a += textureLod(s0, v_col.xz, v_col.w * 2.0 - 0.5).g * 0.25;
}`
)

// TestFragmentStageISAExplicitLodMatchesIR is the differential test of
// textureLod and textureGrad on vx_tex in machine code: every draw renders
// byte-identical targets with cores = "ir" (the Go wrapper's float64 level of
// detail, fsTexState.lod) and cores = "isa" (codegen's texExplicitLod and the
// exact threshold lod over the explicit gradients), with identical TEX
// counters, on chains without mips (lod 0), nearest and linear mips, resident
// chains and two stages, and under cores = "isa" every draw's fragment stage
// ran as machine code on the FF TEX unit. spec: vortex-hardware-facts.md §4;
// vortexpipe-driver.md §3.4, §3.6; docs/ABI.md row 44
func TestFragmentStageISAExplicitLodMatchesIR(t *testing.T) {
	type tcase struct {
		name     string
		fs       string
		texs     []shaderdev.Texture
		resident bool
	}
	var cs []tcase
	for _, op := range []struct{ name, fs string }{{"textureLod", isaTexLodFS}, {"textureGrad", isaTexGradFS}} {
		for _, m := range []struct {
			name string
			mip  shaderdev.MipFilter
			bil  bool
		}{{"no mips", shaderdev.MipNone, true}, {"mip nearest", shaderdev.MipNearest, false}, {"mip nearest bilinear", shaderdev.MipNearest, true},
			{"mip linear", shaderdev.MipLinear, false}, {"mip linear bilinear", shaderdev.MipLinear, true}} {
			cs = append(cs, tcase{op.name + " " + m.name, op.fs, []shaderdev.Texture{isaTexture(m.bil, m.mip, abi.WrapRepeat, abi.WrapMirror)}, false})
		}
		cs = append(cs, tcase{op.name + " resident", op.fs, []shaderdev.Texture{isaTexture(true, shaderdev.MipLinear, abi.WrapClamp, abi.WrapRepeat)}, true})
	}
	cs = append(cs, tcase{"two stages, divergent", isaTexMixFS, []shaderdev.Texture{isaTexture(true, shaderdev.MipLinear, abi.WrapRepeat, abi.WrapRepeat),
		isaTexture(false, shaderdev.MipNearest, abi.WrapMirror, abi.WrapClamp)}, false})
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			checkTexISAMatchesIR(t, c.fs, c.texs, c.resident, false)
		})
	}
}
