package shaderdev_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/config"
	"vortexgfx/device/swom"
	"vortexgfx/gfx/shaderdev"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
)

const (
	unitsVS = `#version 330
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = a_pos; v_col = a_col; }`
	unitsFS = `#version 330
in vec4 v_col; out vec4 o;
void main() { o = v_col; }`
	uW, uH = 32, 32
)
const (
	fsMRT3 = `#version 330
in vec4 v_col;
layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1; layout(location = 2) out vec4 o2;
void main() { o0 = v_col; o1 = v_col.bgra; o2 = v_col * 2.0 - 0.25; }`
	fsMRT2 = `#version 330
in vec4 v_col;
layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1;
void main() { o0 = v_col; o1 = v_col.gbra; }`
	fsUint = `#version 330
in vec4 v_col; out uvec4 o;
void main() { o = uvec4(v_col * 250.0 + 0.5); }`
	fsInt = `#version 330
in vec4 v_col; out ivec4 o;
void main() { o = ivec4(floor(v_col * 1000.0 + 0.5)) - 300; }`
	// clampVS maps z to 3z − 1: the second triangle's depth runs from -2.2
	// to 1.4 in NDC, crossing both the near and the far plane.
	clampVS = `#version 330
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = vec4(a_pos.xy, a_pos.z * 3.0 - 1.0, a_pos.w); v_col = a_col; }`
	// manyVS writes 20 varying words (the last 8 ride the side array, 4 of
	// them noperspective) and a flat int, with w ≠ 1 and z crossing the near
	// plane (the second triangle is clipped); manyFS shows each group in its
	// own target.
	manyVS = `#version 330
in vec4 a_pos; in vec4 a_col;
out vec4 v0; out vec4 v1; out vec4 v2; out vec4 v3; noperspective out vec4 v4; flat out int f;
void main() { float w = 0.5 + 2.0 * a_col.r; gl_Position = vec4(a_pos.xy * w, (a_pos.z * 3.0 - 1.0) * w, w);
v0 = a_col; v1 = a_col.gbar; v2 = a_col * 0.5; v3 = a_col.barg; v4 = a_col.argb * 0.9; f = 3; }`
	manyFS = `#version 330
in vec4 v0; in vec4 v1; in vec4 v2; in vec4 v3; noperspective in vec4 v4; flat in int f;
layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1; layout(location = 2) out vec4 o2; layout(location = 3) out vec4 o3;
void main() { o0 = v3; o1 = v4; o2 = v0 * 0.5 + v1 * 0.25 + v2 * 0.5; o3 = vec4(float(f) / 4.0, v3.x - v0.z, v4.y, 1.0); }`
	// flatVS writes 16 flat words and no interpolated varying (the side
	// array's flat region grows past 12 words); the provoking vertex is the
	// last.
	flatVS = `#version 330
in vec4 a_pos; in vec4 a_col; flat out ivec4 f0; flat out ivec4 f1; flat out ivec4 f2; flat out ivec4 f3;
void main() { gl_Position = a_pos; f0 = ivec4(a_col * 200.0); f1 = f0.wzyx + 3; f2 = f0 / 2; f3 = 250 - f0; }`
	flatFS = `#version 330
flat in ivec4 f0; flat in ivec4 f1; flat in ivec4 f2; flat in ivec4 f3;
layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1; layout(location = 2) out vec4 o2; layout(location = 3) out vec4 o3;
void main() { o0 = vec4(f0) / 255.0; o1 = vec4(f1) / 255.0; o2 = vec4(f2) / 255.0; o3 = vec4(f3) / 255.0; }`
	// farVS takes z from the colour's green: both triangles reach beyond the
	// far plane (the second also in front of the near plane), drawn without
	// a depth test so the clipped parts would show.
	farVS = `#version 330
in vec4 a_pos; in vec4 a_col; out vec4 v_col;
void main() { gl_Position = vec4(a_pos.xy, a_col.g * 4.0 - 1.5, 1.0); v_col = a_col; }`
	fsDepth = `#version 330
in vec4 v_col; out vec4 o;
void main() { o = v_col; gl_FragDepth = v_col.g * 0.5 + 0.25; }`
)

// unitCases are the rows of vortexpipe §3.7 (OM coverage) and §3.4.1 (4x
// MSAA) rendered through the device, with the routing each must take.
func unitCases() []unitCase {
	const u8, srgb, fl = 2.5 / 255, 0.02, 0.01
	black := [4]float32{0, 0, 0, 0}
	grey := [4]float32{0.25, 0.5, 0.75, 0.5}
	return []unitCase{
		{name: "depth funcs rgba8 ff", fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8,
			state: func(d int, s *swom.State) { s.DepthFunc = []compare.Func{compare.LessEqual, compare.Greater}[d] }},
		{name: "blend bgra8 ff", fs: unitsFS, colors: []format.Format{format.BGRA8}, clearZ: 1, clear: grey, tol: u8,
			state: func(d int, s *swom.State) { blendAlpha(s, 0) }},
		{name: "blend eqs and constant alpha ff", fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, clear: grey, tol: u8,
			state: func(d int, s *swom.State) {
				s.Targets[0].Blend = swom.Blend{Enable: true, WriteMask: 0xF, EqRGB: blend.ReverseSubtract, EqA: blend.Max,
					SrcRGB: blend.ConstantAlpha, SrcA: blend.One, DstRGB: blend.OneMinusConstantAlpha, DstA: blend.One}
				s.Constant = [4]float32{0.2, 0.4, 0.6, 0.3}
			}},
		{name: "two-sided stencil ff", fs: unitsFS, colors: []format.Format{format.RGBA8}, back: true, clearZ: 1, clearS: 3, tol: u8,
			state: func(d int, s *swom.State) {
				s.StencilTest = true
				if d == 0 {
					s.Front = swom.Face{Func: compare.Always, ZPass: stencil.Incr, Ref: 1, ReadMask: 0xFF, WriteMask: 0xFF}
					return
				}
				s.DepthTest = false
				s.Back = swom.Face{Func: compare.Equal, ZPass: stencil.Invert, Ref: 4, ReadMask: 0xFF, WriteMask: 0x0F}
			}},
		{name: "logic op xor ff", fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, clear: grey, tol: u8,
			state: func(d int, s *swom.State) { s.LogicOpEnable, s.LogicOp = true, logicop.Xor }},
		{name: "write mask ff", fs: unitsFS, colors: []format.Format{format.BGRA8}, clearZ: 1, clear: grey, tol: u8,
			state: func(d int, s *swom.State) { s.Targets[0].Blend.WriteMask = 0x5 }},
		{name: "mrt without depth writes ff", fs: fsMRT2, colors: []format.Format{format.RGBA8, format.BGRA8}, clearZ: 1, tol: u8,
			state: func(d int, s *swom.State) { s.DepthWrite = false; blendAlpha(s, 1) }},
		{name: "gl_FragDepth ff", fs: fsDepth, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8},
		{name: "srgb8a8 sw", fs: unitsFS, colors: []format.Format{format.SRGB8A8}, clearZ: 1, clear: grey, tol: srgb, swOM: true,
			state: func(d int, s *swom.State) { blendAlpha(s, 0) }},
		{name: "r8 sw", fs: unitsFS, colors: []format.Format{format.R8}, clearZ: 1, clear: grey, tol: u8, swOM: true,
			state: func(d int, s *swom.State) { blendAlpha(s, 0) }},
		{name: "rg8 sw", fs: unitsFS, colors: []format.Format{format.RG8}, clearZ: 1, clear: grey, tol: u8, swOM: true,
			state: func(d int, s *swom.State) { blendAlpha(s, 0) }},
		{name: "rgba16f additive sw", fs: unitsFS, colors: []format.Format{format.RGBA16F}, clearZ: 1, clear: grey, tol: fl, swOM: true,
			state: func(d int, s *swom.State) {
				s.Targets[0].Blend = swom.Blend{Enable: true, WriteMask: 0xF, SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.One, DstA: blend.One}
			}},
		{name: "rgba32f sw", fs: unitsFS, colors: []format.Format{format.RGBA32F}, clearZ: 1, tol: fl, swOM: true},
		{name: "r32f sw", fs: unitsFS, colors: []format.Format{format.R32F}, clearZ: 1, tol: fl, swOM: true},
		{name: "rgba8ui sw", fs: fsUint, colors: []format.Format{format.RGBA8UI}, clearZ: 1, tol: 1, swOM: true},
		{name: "r32i logic op sw", fs: fsInt, colors: []format.Format{format.R32I}, clearZ: 1, clear: [4]float32{5, 0, 0, 0}, tol: 1, swOM: true,
			state: func(d int, s *swom.State) { s.LogicOpEnable, s.LogicOp = d == 1, logicop.Or }},
		{name: "mrt with depth writes sw", fs: fsMRT3, colors: []format.Format{format.RGBA8, format.R8, format.RGBA16F}, clearZ: 1, tol: fl, swOM: true,
			state: func(d int, s *swom.State) { blendAlpha(s, 1) }},
		{name: "d16 sw", fs: unitsFS, colors: []format.Format{format.RGBA8}, depth: abi.OMDepthD16, clearZ: 1, tol: u8, swOM: true,
			state: func(d int, s *swom.State) { s.DepthFunc = []compare.Func{compare.Less, compare.GreaterEqual}[d] }},
		{name: "d32f sw", fs: unitsFS, colors: []format.Format{format.RGBA8}, depth: abi.OMDepthD32F, clearZ: 0.75, tol: u8, swOM: true},
		{name: "s8 sw", fs: unitsFS, colors: []format.Format{format.RGBA8}, depth: abi.OMDepthS8, clearS: 7, tol: u8, swOM: true,
			state: func(d int, s *swom.State) {
				s.DepthTest, s.StencilTest = false, true
				s.Front = swom.Face{Func: []compare.Func{compare.Always, compare.NotEqual}[d], ZPass: stencil.Replace, Ref: uint8(9 + d), ReadMask: 0xFF, WriteMask: 0xFF}
			}},
		{name: "alpha test sw", fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8, swOM: true,
			state: func(d int, s *swom.State) { s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, compare.Greater, 0.6 }},
		{name: "depth bounds sw", fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8, swOM: true,
			state: func(d int, s *swom.State) {
				s.DepthTest, s.DepthBounds = d == 0, true
				s.BoundsMin, s.BoundsMax = []float32{0, 0.55}[d], []float32{1, 0.65}[d]
			}},
		{name: "depth clamp ff", vs: clampVS, fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8,
			state: func(d int, s *swom.State) { s.DepthClamp, s.DepthFunc = true, compare.LessEqual }},
		{name: "near and far clip ff", vs: farVS, fs: unitsFS, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8,
			state: func(d int, s *swom.State) { s.DepthTest = false }},
		{name: "extra outputs dropped ff", fs: fsMRT3, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8},
		{name: "extra outputs dropped sw", fs: fsMRT3, colors: []format.Format{format.R8, format.RG8}, clearZ: 1, tol: u8, swOM: true},
		{name: "20 varying words near-clipped", vs: manyVS, fs: manyFS, colors: []format.Format{format.RGBA8, format.RGBA8, format.RGBA8, format.RGBA8},
			clearZ: 1, tol: u8, state: func(d int, s *swom.State) { s.DepthWrite = false }},
		{name: "16 flat words only", vs: flatVS, fs: flatFS, colors: []format.Format{format.RGBA8, format.RGBA8, format.RGBA8, format.RGBA8},
			clearZ: 1, tol: u8, state: func(d int, s *swom.State) { s.DepthWrite = false }},
		{name: "gl_FragDepth d32f sw", fs: fsDepth, colors: []format.Format{format.RGBA8}, depth: abi.OMDepthD32F, clearZ: 1, tol: u8, swOM: true},
		{name: "noperspective", vs: `#version 330
in vec4 a_pos; in vec4 a_col; noperspective out float v_np; out float v_p;
void main() { float w = 0.5 + 2.0 * a_col.r; gl_Position = vec4(a_pos.xyz * w, w); v_np = a_col.g; v_p = a_col.g; }`,
			fs: `#version 330
noperspective in float v_np; in float v_p; out vec4 o;
void main() { o = vec4(v_np, v_p, (v_np - v_p) * 4.0 + 0.5, 1.0); }`, colors: []format.Format{format.RGBA8}, clearZ: 1, tol: u8},
		{name: "msaa rgba8", fs: unitsFS, colors: []format.Format{format.RGBA8}, samples: 4, clearZ: 1, clear: black, tol: 3.5 / 255, swOM: true, swRast: true,
			state: func(d int, s *swom.State) { blendAlpha(s, 0) }},
		{name: "msaa srgb", fs: unitsFS, colors: []format.Format{format.SRGB8A8}, samples: 4, clearZ: 1, clear: grey, tol: srgb, swOM: true, swRast: true},
		{name: "msaa r8 rg8 mrt", fs: fsMRT2, colors: []format.Format{format.R8, format.RG8}, samples: 4, clearZ: 1, tol: 3.5 / 255, swOM: true, swRast: true},
		// 2x, 8x and 16x: the same walk and merger at gl/msaa's standard
		// positions, beyond the spec's 1 and 4.
		{name: "msaa 2x rgba8 blend", fs: unitsFS, colors: []format.Format{format.RGBA8}, samples: 2, clearZ: 1, clear: black, tol: 3.5 / 255, swOM: true, swRast: true,
			state: func(d int, s *swom.State) { blendAlpha(s, 0) }},
		{name: "msaa 8x srgb", fs: unitsFS, colors: []format.Format{format.SRGB8A8}, samples: 8, clearZ: 1, clear: grey, tol: srgb, swOM: true, swRast: true},
		{name: "msaa 8x d32f depth funcs", fs: unitsFS, colors: []format.Format{format.RGBA8}, depth: abi.OMDepthD32F, samples: 8, clearZ: 1, tol: 3.5 / 255, swOM: true, swRast: true,
			state: func(d int, s *swom.State) { s.DepthFunc = []compare.Func{compare.LessEqual, compare.Greater}[d] }},
		{name: "msaa 16x r8 rg8 mrt", fs: fsMRT2, colors: []format.Format{format.R8, format.RG8}, samples: 16, clearZ: 1, tol: 3.5 / 255, swOM: true, swRast: true},
		{name: "msaa 16x stencil d24s8", fs: unitsFS, colors: []format.Format{format.BGRA8}, samples: 16, back: true, clearZ: 1, tol: 3.5 / 255, swOM: true, swRast: true,
			state: func(d int, s *swom.State) {
				s.StencilTest = true
				if d == 0 {
					s.Front = swom.Face{Func: compare.Always, ZPass: stencil.Replace, Ref: 2, ReadMask: 0xFF, WriteMask: 0xFF}
					return
				}
				s.DepthTest = false
				s.Back = swom.Face{Func: compare.NotEqual, ZPass: stencil.Keep, Ref: 2, ReadMask: 0xFF, WriteMask: 0xFF}
			}},
		{name: "msaa 2x depth crossing", fs: unitsFS, colors: []format.Format{format.RGBA8}, samples: 2, clearZ: 1, tol: 3.5 / 255, swOM: true, swRast: true},
		{name: "msaa stencil d24s8", fs: unitsFS, colors: []format.Format{format.BGRA8}, samples: 4, back: true, clearZ: 1, tol: 3.5 / 255, swOM: true, swRast: true,
			state: func(d int, s *swom.State) {
				s.StencilTest = true
				if d == 0 {
					s.Front = swom.Face{Func: compare.Always, ZPass: stencil.Replace, Ref: 2, ReadMask: 0xFF, WriteMask: 0xFF}
					return
				}
				s.DepthTest = false
				s.Back = swom.Face{Func: compare.NotEqual, ZPass: stencil.Keep, Ref: 2, ReadMask: 0xFF, WriteMask: 0xFF}
			}},
	}
}

// TestShaderUnitsMatchRef renders every §3.7 row (and the MSAA rows of
// §3.4.1, at 2, 4, 8 and 16 samples) through the device and through the reference renderer with the same
// state, and checks the routing the device took (session.DrawStats.Route and
// the software counters). Tolerance: decoded channels within tol (2.5/255 for
// unorm8 — the FF merger blends in 8-bit integers, ref in float — 0.02 for
// sRGB, 0.01 for float targets, 1 for integer targets fed by truncated
// interpolants); at most 4% of the pixels may differ beyond it, which covers
// the edge pixels where Q15.16 edges and ref's sub-pixel rules disagree. The
// MSAA reference is render/'s method: S passes with the viewport shifted
// onto gl/msaa's standard positions, box-resolved in float; it shades at the
// sample positions where the device shades once at the pixel centre, hence
// the 3.5/255 on smooth gradients. spec: vortexpipe §3.4.1, §3.7
func TestShaderUnitsMatchRef(t *testing.T) {
	for _, c := range unitCases() {
		t.Run(c.name, func(t *testing.T) {
			got, stats := renderDevice(t, &c, config.Default(), 0)
			want := renderRef(t, &c)
			var merged int64
			for k, st := range stats {
				if st.Route.SWOM != c.swOM || st.Route.SWRaster != c.swRast {
					t.Errorf("draw %d routed %+v, want sw_om %v sw_raster %v", k, st.Route, c.swOM, c.swRast)
				}
				merged += st.SWMerged
				if !c.swOM && st.SWMerged != 0 {
					t.Errorf("draw %d: %d samples through the software merger on the FF route", k, st.SWMerged)
				}
				if c.swRast && (st.SWQuads == 0 || st.SWMerged < int64(max(c.samples, 1))*st.Shaded/2 || st.KickCycles != 0 || st.Quads != st.SWQuads) {
					t.Errorf("draw %d: software walk %d quads, %d samples merged for %d fragments", k, st.SWQuads, st.SWMerged, st.Shaded)
				}
			}
			if c.swOM && merged == 0 {
				t.Errorf("the software merger merged no sample")
			}
			if c.samples > 1 {
				// Antialiased edges: the 4x image differs from the 1x one on
				// the edge pixels, and (above/below) matches the reference there.
				one := c
				one.samples = 1
				aliased, _ := renderDevice(t, &one, config.Default(), 0)
				edges, _, _ := compareTargets(c.colors[0], got[0], aliased[0], c.clear, 3.0/255)
				t.Logf("%d pixels differ from the 1-sample render (antialiased edges)", edges)
				if edges < 20 {
					t.Errorf("only %d pixels differ from the 1-sample render: no antialiasing", edges)
				}
			}
			for i, f := range c.colors {
				bad, drawn, maxd := compareTargets(f, got[i], want[i], c.clear, c.tol)
				t.Logf("target %d (%v): %d pixels drawn, %d beyond %.4f (max %.4f)", i, f, drawn, bad, c.tol, maxd)
				if drawn < 150 || bad > uW*uH*4/100 {
					t.Errorf("target %d (%v): %d drawn, %d pixels beyond tolerance %.4f (max diff %.4f)", i, f, drawn, bad, c.tol, maxd)
				}
			}
		})
	}
}

// TestShaderForcedSoftware renders every row the FF units take three more
// ways — OM forced to software, every unit forced (VORTEX_FORCE_SW=all), and a
// device configured without the TEX, RASTER and OM extension bits — and
// requires byte-identical images (tolerance 0: the software merger blends
// unorm8 in the FF unit's integer arithmetic and the software walk applies
// RASTER's edge and top-left rules) with the routing asserted.
// spec: vortexpipe §2.3.3
func TestShaderForcedSoftware(t *testing.T) {
	bare := config.Default()
	bare.Device.TEX, bare.Device.RASTER, bare.Device.OM = false, false, false
	for _, c := range unitCases() {
		if c.swOM {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			ff, stats := renderDevice(t, &c, config.Default(), 0)
			for k, st := range stats {
				if st.Route.SWOM || st.Route.SWRaster {
					t.Fatalf("draw %d: the FF render routed %+v", k, st.Route)
				}
			}
			for _, v := range []struct {
				name       string
				cfg        config.Config
				force      shaderdev.Units
				om, raster bool
			}{
				{"om forced", config.Default(), shaderdev.UnitOM, true, false},
				{"all forced", config.Default(), shaderdev.UnitsAll, true, true},
				{"no unit bits", bare, 0, true, true},
			} {
				got, stats := renderDevice(t, &c, v.cfg, v.force)
				for k, st := range stats {
					if st.Route.SWOM != v.om || st.Route.SWRaster != v.raster || st.SWMerged == 0 {
						t.Errorf("%s: draw %d routed %+v (%d samples merged)", v.name, k, st.Route, st.SWMerged)
					}
				}
				for i := range got {
					if string(got[i]) != string(ff[i]) {
						n := 0
						for j := range got[i] {
							if got[i][j] != ff[i][j] {
								n++
							}
						}
						t.Errorf("%s: target %d: %d bytes differ from the FF render", v.name, i, n)
					}
				}
			}
		})
	}
}

// omAll is the merger state that writes every colour channel of target 0
// unblended, with no depth or stencil test.
func omAll() swom.State {
	var s swom.State
	s.Targets[0].Blend = swom.Blend{WriteMask: 0xF, EqRGB: blend.Add, EqA: blend.Add,
		SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Zero, DstA: blend.Zero}
	return s
}

// TestShaderCoverageAndDualSource checks the rows the reference renderer has
// no path for, against values worked by hand on an interior pixel:
// alpha-to-coverage (4x: round(α·4) samples of the rotated grid; the resolve
// averages them), alpha-to-one, and dual-source blending (output location 1
// as SRC1 of target 0: ONE·src + SRC1_COLOR·dst on a white target gives
// 128 + 255·{64, 128, 255}/255 in the FF integer arithmetic).
// spec: vortexpipe §3.7 (alpha_to_coverage / alpha_to_one, dual-source)
func TestShaderCoverageAndDualSource(t *testing.T) {
	const fsA2C = `#version 330
in vec4 v_col; out vec4 o;
void main() { o = vec4(1.0, 1.0, 1.0, 0.5); }`
	const fsDual = `#version 330
in vec4 v_col; layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1;
void main() { o0 = vec4(0.5, 0.5, 0.5, 1.0); o1 = vec4(0.25, 0.5, 1.0, 0.5); }`
	cases := []struct {
		c    unitCase
		want [4]byte // pixel (12, 12), inside the first triangle only
	}{
		{unitCase{name: "a2c 4x", fs: fsA2C, colors: []format.Format{format.RGBA8}, samples: 4, clearZ: 1,
			state: func(d int, s *swom.State) { s.AlphaToCoverage = true }}, [4]byte{128, 128, 128, 64}},
		{unitCase{name: "a2c and a2one 4x", fs: fsA2C, colors: []format.Format{format.RGBA8}, samples: 4, clearZ: 1,
			state: func(d int, s *swom.State) { s.AlphaToCoverage, s.AlphaToOne = true, true }}, [4]byte{128, 128, 128, 128}},
		{unitCase{name: "a2c 1x drops alpha below one half", fs: strings.Replace(fsA2C, "0.5)", "0.4)", 1), colors: []format.Format{format.RGBA8}, clearZ: 1,
			state: func(d int, s *swom.State) { s.AlphaToCoverage = true }}, [4]byte{0, 0, 0, 0}},
		{unitCase{name: "dual source", fs: fsDual, colors: []format.Format{format.RGBA8}, clearZ: 1, clear: [4]float32{1, 1, 1, 1},
			state: func(d int, s *swom.State) {
				s.DualSource = true
				s.Targets[0].Blend = swom.Blend{Enable: true, WriteMask: 0xF, SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Src1Color, DstA: blend.Src1Alpha}
			}}, [4]byte{192, 255, 255, 255}},
		// GLSL's own form: the second colour is the index-1 output at
		// location 0, declared first so that its word differs from
		// location 1's.
		{unitCase{name: "dual source, layout(index = 1)", fs: `#version 330
in vec4 v_col; layout(location = 0, index = 1) out vec4 s1; layout(location = 0) out vec4 o0;
void main() { o0 = vec4(0.5, 0.5, 0.5, 1.0); s1 = vec4(0.25, 0.5, 1.0, 0.5); }`, colors: []format.Format{format.RGBA8}, clearZ: 1, clear: [4]float32{1, 1, 1, 1},
			state: func(d int, s *swom.State) {
				s.DualSource = true
				s.Targets[0].Blend = swom.Blend{Enable: true, WriteMask: 0xF, SrcRGB: blend.One, SrcA: blend.One, DstRGB: blend.Src1Color, DstA: blend.Src1Alpha}
			}}, [4]byte{192, 255, 255, 255}},
	}
	for _, tc := range cases {
		got, stats := renderDevice(t, &tc.c, config.Default(), 0)
		if !stats[0].Route.SWOM {
			t.Errorf("%s: routed %+v", tc.c.name, stats[0].Route)
		}
		o := 4 * (12*uW + 12)
		if px := [4]byte(got[0][o : o+4]); px != tc.want {
			t.Errorf("%s: pixel (12, 12) = %v, want %v", tc.c.name, px, tc.want)
		}
	}
}

// TestShaderTargetsSeed seeds a 4x R8 target and a D32F plane from
// single-sample images and reads them back: every sample carries the seed and
// the resolve returns it. spec: vortexpipe §3.2, §3.4.1
func TestShaderTargetsSeed(t *testing.T) {
	dev, err := shaderdev.OpenTargets(config.Default(), 4, 2, shaderdev.TargetConfig{Colors: []format.Format{format.R8}, Depth: abi.OMDepthD32F, Samples: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	img := []byte{0, 10, 20, 30, 40, 50, 60, 255}
	if err := dev.WriteTarget(0, img); err != nil {
		t.Fatal(err)
	}
	z := make([]byte, 4*8)
	for i := range 8 {
		binary.LittleEndian.PutUint32(z[4*i:], math.Float32bits(float32(i)/8))
	}
	if err := dev.WriteDepthStencil(z); err != nil {
		t.Fatal(err)
	}
	got, err := dev.ReadTarget(0)
	if err != nil || string(got) != string(img) {
		t.Fatalf("resolved %v (%v), want %v", got, err, img)
	}
	s, err := dev.ReadSamples(0)
	if err != nil || len(s) != 32 || s[4*5+3] != 50 {
		t.Fatalf("samples %v (%v)", s, err)
	}
	ds, err := dev.ReadDepthStencil()
	if err != nil || len(ds) != 4*8*4 || math.Float32frombits(binary.LittleEndian.Uint32(ds[4*(4*3+2):])) != 3.0/8 {
		t.Fatalf("depth samples %v (%v)", ds, err)
	}
	if err := dev.WriteTarget(0, img[:3]); err == nil {
		t.Error("a short seed was accepted")
	}
	for _, n := range []int{3, 6, 32} {
		if _, err := shaderdev.OpenTargets(config.Default(), 4, 2, shaderdev.TargetConfig{Samples: n}, nil); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d samples", n)) {
			t.Errorf("%d samples: %v (only gl/msaa's counts run on the device)", n, err)
		}
	}
}
