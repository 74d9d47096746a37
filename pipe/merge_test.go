package pipe

import (
	"testing"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
)

// The software merger's state beyond the FF OM (dual-source blending,
// alpha-to-coverage, alpha-to-one, depth clamp) runs on the device. The
// reference renderer has no second colour input from a program, no
// alpha-to-coverage and no alpha-to-one, so each device draw (STRICT) is
// compared with a reference draw of an equivalent state: the second colour as
// the blend constant, coverage as a discard at alpha 0.5 (one sample covers
// when alpha·1 + 0.5 ≥ 1), alpha-to-one as alpha 1 from the shader. Tolerance
// as TestDrawDifferential. spec: vortexpipe §3.7 (dual source, alpha-to-coverage/
// one and depth-clamp rows)

const dualFS = `#version 330
in vec4 v_col;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() { o0 = v_col; o1 = vec4(0.25, 0.5, 0.75, 0.6); }
`

const a2cOracleFS = `#version 330
in vec4 v_col;
out vec4 o;
void main() { if (v_col.a < 0.5) discard; o = v_col; }
`

// mergeCase is one device draw and its reference-renderer equivalent.
type mergeCase struct {
	name       string
	fs, refFS  string
	blend      BlendState
	refBlend   BlendState
	constant   [4]float32
	colors     [4][4]float32 // per-vertex colours of the quad
	refColors  [4][4]float32
	route      ReasonCode
	rast, refR RasterizerState
}

func TestDrawMergerSW(t *testing.T) {
	rgba := func(b RTBlendState) BlendState {
		b.ColorMask = MaskRGBA
		return BlendState{RT: [MaxRenderTargets]RTBlendState{b}}
	}
	flat := func(c [4]float32) [4][4]float32 { return [4][4]float32{c, c, c, c} }
	ramp := [4][4]float32{{1, 0, 0, 0}, {0, 1, 0, 1}, {0, 0, 1, 0.2}, {1, 1, 0, 0.9}}
	k := [4]float32{0.25, 0.5, 0.75, 0.6}
	tests := []mergeCase{
		{name: "dual source ONE, SRC1_COLOR", fs: dualFS, refFS: testFS,
			blend: rgba(RTBlendState{BlendEnable: true, RGBSrc: blend.One, RGBDst: blend.Src1Color,
				AlphaSrc: blend.One, AlphaDst: blend.Src1Alpha}),
			refBlend: rgba(RTBlendState{BlendEnable: true, RGBSrc: blend.One, RGBDst: blend.ConstantColor,
				AlphaSrc: blend.One, AlphaDst: blend.ConstantAlpha}),
			constant: k, colors: flat([4]float32{0.2, 0.1, 0.05, 0.3}), route: RouteDualSource},
		{name: "dual source SRC1_ALPHA, INV_SRC1_COLOR", fs: dualFS, refFS: testFS,
			blend: rgba(RTBlendState{BlendEnable: true, RGBSrc: blend.Src1Alpha, RGBDst: blend.OneMinusSrc1Color,
				AlphaSrc: blend.OneMinusSrc1Alpha, AlphaDst: blend.One}),
			refBlend: rgba(RTBlendState{BlendEnable: true, RGBSrc: blend.ConstantAlpha, RGBDst: blend.OneMinusConstantColor,
				AlphaSrc: blend.OneMinusConstantAlpha, AlphaDst: blend.One}),
			constant: k, colors: ramp, route: RouteDualSource},
		{name: "alpha to coverage", fs: testFS, refFS: a2cOracleFS,
			blend:    BlendState{AlphaToCoverage: true, RT: [MaxRenderTargets]RTBlendState{{ColorMask: MaskRGBA}}},
			refBlend: rgba(RTBlendState{}), colors: ramp, route: RouteAlphaToCoverage},
		{name: "alpha to one", fs: testFS, refFS: testFS,
			blend: BlendState{AlphaToOne: true, RT: [MaxRenderTargets]RTBlendState{{BlendEnable: true, ColorMask: MaskRGBA,
				RGBSrc: blend.SrcAlpha, RGBDst: blend.OneMinusSrcAlpha, AlphaSrc: blend.One, AlphaDst: blend.Zero}}},
			refBlend: rgba(RTBlendState{BlendEnable: true, RGBSrc: blend.SrcAlpha, RGBDst: blend.OneMinusSrcAlpha,
				AlphaSrc: blend.One, AlphaDst: blend.Zero}),
			colors:    flat([4]float32{0.8, 0.4, 0.2, 0.3}),
			refColors: flat([4]float32{0.8, 0.4, 0.2, 1}), route: RouteAlphaToOne},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := mergeDraw(t, Options{Strict: true}, tc.fs, tc.blend, tc.constant, tc.colors, tc.rast)
			if st := dev.c.Stats(); st.Device != 1 || st.Reference != 0 || st.Routes[tc.route] != 1 {
				t.Fatalf("device stats %+v", st)
			}
			rc := tc.refColors
			if rc == ([4][4]float32{}) {
				rc = tc.colors
			}
			ref := mergeDraw(t, Options{ForceReference: true}, tc.refFS, tc.refBlend, tc.constant, rc, tc.refR)
			a, b := dev.image(t), ref.image(t)
			if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
				t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
			}
		})
	}
}

// mergeDraw clears the 32x32 RGBA8 target to a fixed colour and draws one
// quad with per-vertex colours under the blend and rasterizer state.
func mergeDraw(t *testing.T, o Options, fs string, bs BlendState, constant [4]float32, colors [4][4]float32, rs RasterizerState) *drawEnv {
	t.Helper()
	e := newDrawEnv(t, o, false)
	e.program(t, testVS, fs)
	if err := e.c.Clear(ClearColor, [4]float32{0.6, 0.3, 0.9, 0.5}, 1, 0); err != nil {
		t.Fatal(err)
	}
	b, err := e.c.CreateBlendState(bs)
	if err != nil {
		t.Fatal(err)
	}
	e.c.BindBlendState(b)
	e.c.SetBlendColor(constant)
	r, err := e.c.CreateRasterizerState(rs)
	if err != nil {
		t.Fatal(err)
	}
	e.c.BindRasterizerState(r)
	var v []float32
	for i, p := range [][2]float32{{-0.8, -0.9}, {0.9, -0.7}, {-0.7, 0.8}, {0.85, 0.9}} {
		c := colors[i]
		v = append(v, p[0], p[1], 0, 1, c[0], c[1], c[2], c[3])
	}
	e.posCol(t, v...)
	if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDrawDepthClamp: with depth clamp (GL: clip off, depth clamped to the
// depth range) a quad reaching past the near and far planes is drawn whole on
// the device, its depth clamped, and matches the reference renderer in colour
// and depth; without the clamp the near and far parts are clipped away.
// spec: vortexpipe §3.7 (depth-clamp row)
func TestDrawDepthClamp(t *testing.T) {
	run := func(o Options, rs RasterizerState) *drawEnv {
		e := newDrawEnv(t, o, true)
		e.program(t, testVS, testFS)
		if err := e.c.Clear(ClearColor|ClearDepth|ClearStencil, [4]float32{0, 0, 0, 1}, 1, 0); err != nil {
			t.Fatal(err)
		}
		d, err := e.c.CreateDSAState(DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.LessEqual})
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindDSAState(d)
		r, err := e.c.CreateRasterizerState(rs)
		if err != nil {
			t.Fatal(err)
		}
		e.c.BindRasterizerState(r)
		var v []float32
		for _, p := range [][3]float32{{-0.9, -0.9, -2.5}, {0.9, -0.8, -1.2}, {-0.8, 0.9, 1.1}, {0.85, 0.85, 1.9}} {
			v = append(v, p[0], p[1], p[2], 1, 0.2, 0.9, 0.4, 1)
		}
		e.posCol(t, v...)
		if err := e.c.DrawVBO(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Count: 4}}}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	covered := func(e *drawEnv) int {
		n := 0
		img := e.image(t)
		for i := 1; i < len(img.Pix); i += 4 {
			if img.Pix[i] > 128 {
				n++
			}
		}
		return n
	}
	clamp := RasterizerState{DepthClamp: true, DepthClipDisable: true}
	dev := run(Options{Strict: true}, clamp)
	if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteDepthClamp] != 1 {
		t.Fatalf("device stats %+v", st)
	}
	ref := run(Options{ForceReference: true}, clamp)
	a, b := dev.image(t), ref.image(t)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
	}
	za, err := dev.c.ReadDepth()
	if err != nil {
		t.Fatal(err)
	}
	zb, _ := ref.c.ReadDepth()
	diff := 0
	for i := range za {
		if d := za[i] - zb[i]; d > 1e-3 || d < -1e-3 {
			diff++
		}
	}
	if diff > len(za)/50 {
		t.Errorf("%d depth values differ", diff)
	}
	// Clip off without clamp over D24S8 at the depth range [0, 1] stores
	// what GL depth clamp does.
	noClip := run(Options{Strict: true}, RasterizerState{DepthClipDisable: true})
	if st := noClip.c.Stats(); st.Device != 1 || st.Routes[RouteDepthClip] != 1 {
		t.Fatalf("clip-disable stats %+v", st)
	}
	if bad, worst := compareImages(noClip.image(t), b, 3); bad > len(b.Pix)/4/50 {
		t.Errorf("clip disable: %d pixels differ by more than 3 (worst %d)", bad, worst)
	}
	zc, err := noClip.c.ReadDepth()
	if err != nil {
		t.Fatal(err)
	}
	diff = 0
	for i := range zc {
		if d := zc[i] - zb[i]; d > 1e-3 || d < -1e-3 {
			diff++
		}
	}
	if diff > len(zc)/50 {
		t.Errorf("clip disable: %d depth values differ", diff)
	}
	clipped := run(Options{Strict: true}, RasterizerState{})
	if n, m := covered(dev), covered(clipped); n <= m+50 {
		t.Errorf("clamped quad covers %d pixels, clipped %d: want the clipped-away parts drawn", n, m)
	}
}

// TestDualSourceIndexOutput: the second colour declared with
// layout(location = 0, index = 1) (ShaderInfo.DualSource) blends on the
// device (STRICT) as the reference draw with that colour as the blend
// constant does.
func TestDualSourceIndexOutput(t *testing.T) {
	const fs = `#version 330
in vec4 v_col;
layout(location = 0, index = 0) out vec4 o0;
layout(location = 0, index = 1) out vec4 o1;
void main() { o0 = v_col; o1 = vec4(0.25, 0.5, 0.75, 0.6); }
`
	bs := BlendState{RT: [MaxRenderTargets]RTBlendState{{BlendEnable: true, ColorMask: MaskRGBA,
		RGBSrc: blend.One, RGBDst: blend.OneMinusSrc1Color, AlphaSrc: blend.Src1Alpha, AlphaDst: blend.One}}}
	refBS := BlendState{RT: [MaxRenderTargets]RTBlendState{{BlendEnable: true, ColorMask: MaskRGBA,
		RGBSrc: blend.One, RGBDst: blend.OneMinusConstantColor, AlphaSrc: blend.ConstantAlpha, AlphaDst: blend.One}}}
	cols := [4][4]float32{{1, 0, 0, 0.5}, {0, 1, 0, 1}, {0, 0, 1, 0.2}, {1, 1, 0, 0.9}}
	k := [4]float32{0.25, 0.5, 0.75, 0.6}
	dev := mergeDraw(t, Options{Strict: true}, fs, bs, k, cols, RasterizerState{})
	if !dev.c.Bound().FS.Desc.Info.DualSource || dev.c.Bound().FS.Desc.Info.ColorOutputs != 1 {
		t.Errorf("ShaderInfo %+v: want DualSource and one colour output", dev.c.Bound().FS.Desc.Info)
	}
	if st := dev.c.Stats(); st.Device != 1 || st.Routes[RouteDualSource] != 1 {
		t.Fatalf("device stats %+v", st)
	}
	ref := mergeDraw(t, Options{ForceReference: true}, testFS, refBS, k, cols, RasterizerState{})
	a, b := dev.image(t), ref.image(t)
	if bad, worst := compareImages(a, b, 3); bad > len(a.Pix)/4/50 {
		t.Errorf("%d pixels differ by more than 3 (worst %d)", bad, worst)
	}
}
