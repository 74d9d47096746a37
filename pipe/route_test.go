package pipe

import (
	"errors"
	"math"
	"strings"
	"testing"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/stencil"
)

func fullCaps() Caps {
	return Caps{Threads: 16, Warps: 4, Cores: 4, MaxBlockSize: 64, HasTEX: true, HasRASTER: true, HasOM: true}
}

// testSurface returns a w×h single-level 2D texture surface of format f on s.
func testSurface(t testing.TB, s *Screen, f format.Format, w, h int) *Surface {
	t.Helper()
	r, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: f, Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: 1})
	if err != nil {
		t.Fatal(err)
	}
	return &Surface{Resource: r}
}

func mustDSA(t testing.TB, s DepthStencilAlphaState) *DSA {
	t.Helper()
	d, err := NewDSA(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// eligible builds a bound state the device path takes with no route at all: a
// compiled VS/FS pair, one RGBA8 attachment, D24S8 depth with LESS, and a 64×64
// BGRA8 texture with a bilinear sampler on unit 0.
func eligible(t testing.TB, s *Screen) *BoundState {
	t.Helper()
	st := &BoundState{
		VS: &Shader{Desc: ShaderDesc{Stage: StageVertex, GLSL: "vs", Info: ShaderInfo{Compiled: true, VaryingVec4s: 2}}},
		FS: &Shader{Desc: ShaderDesc{Stage: StageFragment, GLSL: "fs", Info: ShaderInfo{Compiled: true, ColorOutputs: 1}}},
		FB: Framebuffer{Width: 64, Height: 64, Samples: 1},
	}
	st.FB.Cbufs = []*Surface{testSurface(t, s, format.RGBA8, 64, 64)}
	st.FB.Zsbuf = testSurface(t, s, format.D24S8, 64, 64)
	st.DSA = mustDSA(t, DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less})
	tex, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.BGRA8, Width: 64, Height: 64, Depth: 1, ArraySize: 1, Levels: 7})
	if err != nil {
		t.Fatal(err)
	}
	st.Views[0] = &SamplerView{Texture: tex, Tex: ClassifyTexture(tex.desc)}
	st.Samplers[0], err = NewSampler(SamplerState{MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear, MaxLod: 6})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func texView(t testing.TB, s *Screen, d TextureDesc) *SamplerView {
	t.Helper()
	if d.Depth == 0 {
		d.Depth = 1
	}
	if d.ArraySize == 0 {
		d.ArraySize = 1
	}
	if d.Levels == 0 {
		d.Levels = 1
	}
	r, err := s.CreateTexture(d)
	if err != nil {
		t.Fatal(err)
	}
	return &SamplerView{Texture: r, Tex: ClassifyTexture(d)}
}

// TestRoute has one row per gate and route of vortexpipe §3.1 (eligibility),
// §2.3.3 (per-unit routing), §3.6 (TEX table) and §3.7 (OM table).
func TestRoute(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	tri := DrawShape{Mode: PrimTriangles, Draw: DirectDraw{Count: 3, InstanceCount: 1}}
	type row struct {
		name  string
		mut   func(st *BoundState, caps *Caps, o *Options, d *DrawShape)
		gate  ReasonCode // expected gate (0: device path)
		route []ReasonCode
		key   VariantKey
		empty bool
	}
	hw := VariantKey{Samples: 1}
	rows := []row{
		{name: "eligible", mut: func(*BoundState, *Caps, *Options, *DrawShape) {}, key: hw},
		// §3.1 eligibility
		// An unbound stage runs on the device as a generated program
		// (ffgen.go); the device backend gates it when none can be.
		{name: "no VS", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.VS = nil }, key: hw},
		{name: "no FS", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS = nil }, key: hw},
		{name: "VS not compiled", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.VS.Desc.Info.Compiled = false }, gate: GateVSNotCompiled},
		{name: "FS not compiled", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS.Desc.Info.Compiled = false }, gate: GateFSNotCompiled},
		// Lines and points run on the device (prim_k), lines on the
		// software raster walk with the reference rule.
		{name: "points", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Mode = PrimPoints }, key: hw},
		{name: "line strip", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Mode = PrimLineStrip },
			route: []ReasonCode{RouteLines, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 1}},
		{name: "lines", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Mode = PrimLines },
			route: []ReasonCode{RouteLines, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 1}},
		{name: "points with a clip plane", mut: func(st *BoundState, _ *Caps, _ *Options, d *DrawShape) {
			d.Mode = PrimPoints
			st.Rast, _ = NewRasterizer(RasterizerState{ClipPlaneEnable: 1})
		}, key: hw},
		{name: "points on 4x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, d *DrawShape) {
			d.Mode = PrimPoints
			st.FB.Samples = 4
		}, route: []ReasonCode{RouteMultisample, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 4}},
		{name: "lines on 16x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, d *DrawShape) {
			d.Mode = PrimLineLoop
			st.FB.Samples = 16
		}, route: []ReasonCode{RouteMultisample, RouteLines, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 16}},
		{name: "adjacency without a geometry shader", mut: func(st *BoundState, _ *Caps, _ *Options, d *DrawShape) {
			d.Mode = PrimTrianglesAdjacency
		}, gate: GateTopology},
		{name: "strip", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Mode = PrimTriangleStrip }, key: hw},
		{name: "fan", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Mode = PrimTriangleFan }, key: hw},
		{name: "stream-output count", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.CountFromStreamOutput = true }, gate: GateStreamOutput},
		{name: "statistics query", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.CountingQuery = true }, gate: GateQuery},
		{name: "occlusion query", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.OcclusionQuery = true },
			route: []ReasonCode{RouteOcclusionQuery}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "render condition", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.QueryCondition = true }, gate: GateRenderCondition},
		{name: "16 vec4 varyings", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.VS.Desc.Info.VaryingVec4s = 16 }, key: hw},
		{name: "17 vec4 varyings", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.VS.Desc.Info.VaryingVec4s = 17 }, gate: GateVaryings},
		{name: "65 flat words", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.VS.Desc.Info.FlatWords = 65 }, gate: GateVaryings},
		{name: "noperspective", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.VS.Desc.Info.NoPerspective = true }, key: hw},
		{name: "forced reference", mut: func(_ *BoundState, _ *Caps, o *Options, _ *DrawShape) { o.ForceReference = true }, gate: GateForcedReference},
		{name: "zero count", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Draw.Count = 0 }, empty: true},
		{name: "no framebuffer", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FB = Framebuffer{} }, empty: true},
		{name: "zero instances", mut: func(_ *BoundState, _ *Caps, _ *Options, d *DrawShape) { d.Draw.InstanceCount = 0 }, empty: true},
		{name: "cull front and back", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{Cull: CullFrontAndBack})
		}, empty: true},
		// rasterizer capture flags
		// Polygon modes run on the device (prim_k), LINE faces on the
		// software raster.
		{name: "polygon mode line", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillFront: PolygonLine})
		}, route: []ReasonCode{RouteLines, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 1}},
		{name: "polygon mode point", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillFront: PolygonPoint, FillBack: PolygonPoint})
		}, key: hw},
		{name: "polygon mode line on a culled face", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{Cull: CullBack, FillBack: PolygonLine})
		}, key: hw},
		{name: "polygon mode on quads", mut: func(st *BoundState, _ *Caps, _ *Options, d *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillFront: PolygonPoint})
			d.Mode = PrimQuads
		}, key: hw},
		{name: "polygon mode and a filled face with a clip plane", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillBack: PolygonPoint, ClipPlaneEnable: 2})
		}, gate: GatePolygonMode},
		{name: "point polygon mode with a clip plane", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillFront: PolygonPoint, FillBack: PolygonPoint, ClipPlaneEnable: 2})
		}, key: hw},
		{name: "line polygon mode with a clip plane, the filled face culled", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillFront: PolygonLine, Cull: CullBack, ClipPlaneEnable: 1})
		}, route: []ReasonCode{RouteLines, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 1}},
		{name: "polygon mode with offset", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillBack: PolygonPoint, OffsetTri: true})
		}, gate: GatePolygonMode},
		{name: "polygon mode on 4x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillBack: PolygonPoint})
			st.FB.Samples = 4
		}, route: []ReasonCode{RouteMultisample, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 4}},
		{name: "line polygon mode on 8x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{FillFront: PolygonLine, FillBack: PolygonLine})
			st.FB.Samples = 8
		}, route: []ReasonCode{RouteMultisample, RouteLines, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 8}},
		{name: "polygon offset", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{OffsetTri: true, OffsetScale: 1, OffsetUnits: 2, OffsetClamp: 0.5})
		}, key: hw},
		{name: "polygon offset not finite", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{OffsetTri: true, OffsetUnits: float32(math.Inf(1))})
		}, gate: GatePolygonOffset},
		// §3.7 OM table
		{name: "no OM ext", mut: func(_ *BoundState, c *Caps, _ *Options, _ *DrawShape) { c.HasOM = false },
			route: []ReasonCode{RouteNoOM}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "all 8 depth funcs: GEQUAL", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.DSA = mustDSA(t, DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.GreaterEqual})
		}, key: hw},
		{name: "two-sided stencil", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.DSA = mustDSA(t, DepthStencilAlphaState{Stencil: [2]StencilState{
				{Enabled: true, Func: compare.Always, ZPassOp: stencil.Incr, WriteMask: 0xFF},
				{Enabled: true, Func: compare.Always, ZPassOp: stencil.Decr, WriteMask: 0xFF}}})
		}, key: hw},
		{name: "logic op", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Blend, _ = NewBlend(BlendState{LogicOpEnable: true, LogicOp: logicop.Xor})
		}, key: hw},
		{name: "MRT 2", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs = append(st.FB.Cbufs, testSurface(t, s, format.RGBA8, 64, 64))
			st.DSA = mustDSA(t, DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.Less})
			st.FS.Desc.Info.ColorOutputs = 2
		}, key: hw},
		{name: "MRT with depth write", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs = append(st.FB.Cbufs, testSurface(t, s, format.RGBA8, 64, 64))
		}, route: []ReasonCode{RouteMRTDepthWrite}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "fewer attachments than outputs (dropped)", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FS.Desc.Info.ColorOutputs = 2
		}, key: hw},
		{name: "5 attachments", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			for i := 0; i < 4; i++ {
				st.FB.Cbufs = append(st.FB.Cbufs, testSurface(t, s, format.RGBA8, 64, 64))
			}
		}, route: []ReasonCode{RouteManyRTs, RouteMRTDepthWrite}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "9 attachments", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			for i := 0; i < 8; i++ {
				st.FB.Cbufs = append(st.FB.Cbufs, testSurface(t, s, format.RGBA8, 64, 64))
			}
		}, gate: GateTooManyRTs},
		{name: "BGRA attachment", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs = []*Surface{testSurface(t, s, format.RGBA8, 64, 64), testSurface(t, s, format.BGRA8, 64, 64)}
			st.DSA = nil
		}, key: VariantKey{Samples: 1, BGRAMask: 2}},
		{name: "sRGB attachment", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs[0] = testSurface(t, s, format.SRGB8A8, 64, 64)
		}, route: []ReasonCode{RouteColorFormat}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "R8 attachment", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs[0] = testSurface(t, s, format.R8, 64, 64)
		}, route: []ReasonCode{RouteColorFormat}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "RG8 attachment", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs[0] = testSurface(t, s, format.RG8, 64, 64)
		}, route: []ReasonCode{RouteColorFormat}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "float attachment", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs[0] = testSurface(t, s, format.RGBA16F, 64, 64)
		}, route: []ReasonCode{RouteColorFormat}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "depth format as colour", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Cbufs[0] = testSurface(t, s, format.D16, 64, 64)
		}, gate: GateColorFormat},
		{name: "D32F depth", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Zsbuf = testSurface(t, s, format.D32F, 64, 64)
		}, route: []ReasonCode{RouteDepthFormat}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "4x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FB.Samples = 4 },
			route: []ReasonCode{RouteMultisample, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 4}},
		{name: "2x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FB.Samples = 2 },
			route: []ReasonCode{RouteMultisample, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 2}},
		{name: "8x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FB.Samples = 8 },
			route: []ReasonCode{RouteMultisample, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 8}},
		{name: "16x MSAA", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FB.Samples = 16 },
			route: []ReasonCode{RouteMultisample, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 16}},
		{name: "3 samples", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FB.Samples = 3 }, gate: GateSampleCount},
		{name: "MSAA x MRT", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Samples = 4
			st.FB.Cbufs = append(st.FB.Cbufs, testSurface(t, s, format.RGBA8, 64, 64))
		}, route: []ReasonCode{RouteMultisample, RouteMRTDepthWrite}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 4}},
		{name: "alpha test", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.DSA = mustDSA(t, DepthStencilAlphaState{AlphaEnabled: true, AlphaFunc: compare.Greater, AlphaRef: 0.5})
		}, route: []ReasonCode{RouteAlphaTest}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "depth bounds", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.DSA = mustDSA(t, DepthStencilAlphaState{DepthBounds: true, DepthBoundsMax: 0.5})
		}, route: []ReasonCode{RouteDepthBounds}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "dual-source", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Blend, _ = NewBlend(BlendState{RT: [8]RTBlendState{{BlendEnable: true, RGBSrc: blend.One, RGBDst: blend.OneMinusSrc1Alpha, AlphaSrc: blend.One, AlphaDst: blend.Zero}}})
		}, route: []ReasonCode{RouteDualSource}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "dual-source, two attachments", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Blend, _ = NewBlend(BlendState{RT: [8]RTBlendState{{BlendEnable: true, RGBSrc: blend.One, RGBDst: blend.OneMinusSrc1Alpha, AlphaSrc: blend.One, AlphaDst: blend.Zero}}})
			st.FB.Cbufs = append(st.FB.Cbufs, st.FB.Cbufs[0])
		}, gate: GateDualSource},
		{name: "constant alpha stays on FF", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Blend, _ = NewBlend(BlendState{RT: [8]RTBlendState{{BlendEnable: true, RGBSrc: blend.ConstantAlpha, RGBDst: blend.OneMinusConstantAlpha, AlphaSrc: blend.One, AlphaDst: blend.Zero}}})
		}, key: hw},
		{name: "alpha-to-coverage", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Blend, _ = NewBlend(BlendState{AlphaToCoverage: true})
		}, route: []ReasonCode{RouteAlphaToCoverage}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "alpha-to-one", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Blend, _ = NewBlend(BlendState{AlphaToOne: true})
		}, route: []ReasonCode{RouteAlphaToOne}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "depth clamp", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{DepthClamp: true})
		}, route: []ReasonCode{RouteDepthClamp}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "depth clamp, clip disabled", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{DepthClamp: true, DepthClipDisable: true})
		}, route: []ReasonCode{RouteDepthClamp}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "depth clip disable", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{DepthClipDisable: true})
		}, route: []ReasonCode{RouteDepthClip}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "depth clip disable, D32F", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Rast, _ = NewRasterizer(RasterizerState{DepthClipDisable: true})
			st.FB.Zsbuf = testSurface(t, s, format.D32F, 64, 64)
		}, gate: GateDepthClip},
		{name: "framebuffer > 65535", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Width = 70000
		}, gate: GateFramebufferSize},
		{name: "aperture overflow", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FB.Width, st.FB.Height = 32768, 16384
		}, route: []ReasonCode{RouteAperture}, key: VariantKey{SWOM: true, Samples: 1}},
		// §3.6 TEX table
		{name: "no TEX ext", mut: func(_ *BoundState, c *Caps, _ *Options, _ *DrawShape) { c.HasTEX = false },
			route: []ReasonCode{RouteNoTEX}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "no TEX ext, no textures", mut: func(st *BoundState, c *Caps, _ *Options, _ *DrawShape) {
			c.HasTEX = false
			st.Views[0] = nil
		}, key: hw},
		{name: "clamp to border", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Samplers[0], _ = NewSampler(SamplerState{WrapS: sampler.ClampToBorder, WrapT: sampler.ClampToBorder, BorderColor: [4]float32{1, 0, 0, 1}})
		}, key: hw},
		{name: "mirror clamp", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Samplers[0], _ = NewSampler(SamplerState{WrapS: sampler.MirrorClampToEdge})
		}, route: []ReasonCode{RouteTexWrap}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "mirror clamp to border", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Samplers[0], _ = NewSampler(SamplerState{WrapS: sampler.MirrorClampToBorder})
		}, route: []ReasonCode{RouteTexWrap}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "anisotropy", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Samplers[0], _ = NewSampler(SamplerState{MaxAnisotropy: 8})
		}, route: []ReasonCode{RouteTexAniso}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "NPOT", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.BGRA8, Width: 60, Height: 64})
		}, route: []ReasonCode{RouteTexNPOT}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "3D", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target3D, Format: format.BGRA8, Width: 8, Height: 8, Depth: 8})
		}, route: []ReasonCode{RouteTexTarget}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "cube", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: TargetCube, Format: format.BGRA8, Width: 8, Height: 8, ArraySize: 6})
		}, route: []ReasonCode{RouteTexTarget}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "2D array", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2DArray, Format: format.BGRA8, Width: 8, Height: 8, ArraySize: 3})
		}, route: []ReasonCode{RouteTexTarget}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "1D array", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target1DArray, Format: format.BGRA8, Width: 8, Height: 1, ArraySize: 3})
		}, route: []ReasonCode{RouteTexTarget}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "shadow sampler", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Samplers[0], _ = NewSampler(SamplerState{CompareMode: true, CompareFunc: compare.LessEqual})
		}, route: []ReasonCode{RouteTexShadow}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "texelFetch", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS.Desc.Info.TexOps = TexOpFetch },
			route: []ReasonCode{RouteTexOp}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "textureGather", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS.Desc.Info.TexOps = TexOpGather },
			route: []ReasonCode{RouteTexOp}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "textureSize", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS.Desc.Info.TexOps = TexOpSize }, key: hw},
		{name: "gather on cube", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.FS.Desc.Info.TexOps = TexOpGatherCube
		}, route: []ReasonCode{RouteTexOp}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "txf_ms", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS.Desc.Info.TexOps = TexOpFetchMS }, route: []ReasonCode{RouteTexOp}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "textureQueryLod", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) { st.FS.Desc.Info.TexOps = TexOpQueryLod }, route: []ReasonCode{RouteTexOp}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "multisample texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.BGRA8, Width: 8, Height: 8, Samples: 4})
		}, route: []ReasonCode{RouteTexTarget}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "sRGB texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.SRGB8A8, Width: 8, Height: 8})
		}, route: []ReasonCode{RouteTexFormat}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "float texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.RGBA32F, Width: 8, Height: 8})
		}, route: []ReasonCode{RouteTexFormat}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "depth texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.D24S8, Width: 8, Height: 8})
		}, route: []ReasonCode{RouteTexFormat}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "int8 texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.RGBA8UI, Width: 8, Height: 8})
		}, route: []ReasonCode{RouteTexFormat}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "int32 texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.R32UI, Width: 8, Height: 8})
		}, route: []ReasonCode{RouteTexFormat}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "stencil texture", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.S8, Width: 8, Height: 8})
		}, route: []ReasonCode{RouteTexFormat}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "RGBA8 texture (host decode)", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[0] = texView(t, s, TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 8, Height: 8})
		}, key: hw},
		{name: "2 textures on units 0 and 1", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[1], st.Samplers[1] = st.Views[0], st.Samplers[0]
		}, key: hw},
		{name: "texture on unit 2", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			st.Views[2], st.Samplers[2] = st.Views[0], st.Samplers[0]
		}, key: hw},
		{name: "3 samplers", mut: func(st *BoundState, _ *Caps, _ *Options, _ *DrawShape) {
			fs := *st.FS
			fs.Desc.Info.Samplers = 3
			st.FS = &fs
			st.Views[1], st.Samplers[1] = st.Views[0], st.Samplers[0]
			st.Views[2], st.Samplers[2] = st.Views[0], st.Samplers[0]
		}, route: []ReasonCode{RouteTexStages}, key: VariantKey{SWTex: true, Samples: 1}},
		// §2.3.3 capability and forced routing
		{name: "no RASTER ext", mut: func(_ *BoundState, c *Caps, _ *Options, _ *DrawShape) { c.HasRASTER = false },
			route: []ReasonCode{RouteNoRASTER, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 1}},
		{name: "force tex", mut: func(_ *BoundState, _ *Caps, o *Options, _ *DrawShape) { o.ForceSW = UnitTEX },
			route: []ReasonCode{RouteForcedTEX}, key: VariantKey{SWTex: true, Samples: 1}},
		{name: "force om", mut: func(_ *BoundState, _ *Caps, o *Options, _ *DrawShape) { o.ForceSW = UnitOM },
			route: []ReasonCode{RouteForcedOM}, key: VariantKey{SWOM: true, Samples: 1}},
		{name: "force raster", mut: func(_ *BoundState, _ *Caps, o *Options, _ *DrawShape) { o.ForceSW = UnitRASTER },
			route: []ReasonCode{RouteForcedRASTER, RouteRasterImpliesOM}, key: VariantKey{SWRaster: true, SWOM: true, Samples: 1}},
		{name: "force all", mut: func(_ *BoundState, _ *Caps, o *Options, _ *DrawShape) { o.ForceSW = UnitAll },
			route: []ReasonCode{RouteForcedTEX, RouteForcedRASTER, RouteForcedOM}, key: VariantKey{SWTex: true, SWRaster: true, SWOM: true, Samples: 1}},
		{name: "no graphics exts", mut: func(_ *BoundState, c *Caps, _ *Options, _ *DrawShape) {
			c.HasTEX, c.HasRASTER, c.HasOM = false, false, false
		},
			route: []ReasonCode{RouteNoTEX, RouteNoRASTER, RouteNoOM}, key: VariantKey{SWTex: true, SWRaster: true, SWOM: true, Samples: 1}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			st := eligible(t, s)
			caps, opts, d := fullCaps(), Options{}, tri
			r.mut(st, &caps, &opts, &d)
			dec := Route(caps, opts, st, d)
			if dec.Empty != r.empty {
				t.Fatalf("empty %v, want %v (%+v)", dec.Empty, r.empty, dec)
			}
			if r.empty {
				return
			}
			if r.gate != 0 {
				if !dec.Reference || len(dec.Gates) != 1 || dec.Gates[0].Code != r.gate {
					t.Fatalf("gates %v, want exactly %v", dec.Gates, r.gate)
				}
				if r.gate.Kind() != Gated {
					t.Errorf("%v kind %v", r.gate, r.gate.Kind())
				}
				// STRICT turns this gate into an error naming it.
				err := dec.Err()
				if !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), r.gate.String()) {
					t.Errorf("strict error %v does not name %q", err, r.gate)
				}
				return
			}
			if dec.Reference || dec.Err() != nil {
				t.Fatalf("gated: %v", dec.Gates)
			}
			if !sameCodes(dec.Routes, r.route) {
				t.Errorf("routes %v, want %v", dec.Routes, r.route)
			}
			for _, rr := range dec.Routes {
				if rr.Code.Kind() != Routed {
					t.Errorf("%v kind %v", rr.Code, rr.Code.Kind())
				}
			}
			if dec.Key != r.key {
				t.Errorf("key %v, want %v", dec.Key, r.key)
			}
		})
	}
}

// TestStrictAndStats: STRICT turns each gate into an error naming the reason;
// without it the fallback is counted per reason. spec: vortexpipe §1.5
func TestStrictAndStats(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	strict := true
	for _, strictMode := range []bool{false, true} {
		var c *Context
		if strictMode {
			c = s.NewContext(ContextOptions{Strict: &strict})
		} else {
			c = s.NewContext(ContextOptions{})
		}
		st := eligible(t, s)
		if err := c.BindVSState(st.VS); err != nil {
			t.Fatal(err)
		}
		if err := c.BindFSState(st.FS); err != nil {
			t.Fatal(err)
		}
		if err := c.SetFramebufferState(st.FB); err != nil {
			t.Fatal(err)
		}
		// An adjacency draw without a geometry shader stays the reference
		// renderer's.
		info := &DrawInfo{Mode: PrimTrianglesAdjacency, InstanceCount: 1, Draws: []DrawRange{{Count: 6}, {Count: 0}}}
		plan, err := c.Plan(info)
		if strictMode {
			var se *StrictError
			if !errors.Is(err, ErrStrict) || !errors.As(err, &se) || se.Reasons[0].Code != GateTopology ||
				!strings.Contains(err.Error(), "("+PrimTrianglesAdjacency.String()+")") {
				t.Fatalf("strict: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(plan) != 2 || !plan[0].Decision.Reference || !plan[1].Decision.Empty {
			t.Fatalf("plan %+v", plan)
		}
		q, _ := c.CreateQuery(QueryPipelineStatistics)
		if err := c.BeginQuery(q); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Plan(&DrawInfo{Mode: PrimTriangles, InstanceCount: 1, Draws: []DrawRange{{Count: 3}}}); err != nil {
			t.Fatal(err)
		}
		if err := c.EndQuery(q); err != nil {
			t.Fatal(err)
		}
		if err := c.SetFramebufferState(st.FB); err != nil {
			t.Fatal(err)
		}
		p, err := c.Plan(&DrawInfo{Mode: PrimTriangleStrip, InstanceCount: 1, Draws: []DrawRange{{Start: 2, Count: 5}}})
		if err != nil {
			t.Fatal(err)
		}
		if p[0].Decision.Reference || len(p[0].Indices) != 9 {
			t.Fatalf("strip plan %+v", p[0])
		}
		stats := c.Stats()
		if stats.Draws != 4 || stats.Reference != 2 || stats.Device != 1 || stats.Empty != 1 ||
			stats.Fallbacks[GateTopology] != 1 || stats.Fallbacks[GateQuery] != 1 {
			t.Errorf("stats %+v", stats)
		}
		rep := strings.Join(stats.Report(), "\n")
		if !strings.Contains(rep, "fallback: "+GateTopology.String()+": 1") {
			t.Errorf("report %q", rep)
		}
	}
}

func TestOptionsFromEnv(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want Options
		err  bool
	}{
		{map[string]string{}, Options{}, false},
		{map[string]string{"VORTEX_STRICT": "1"}, Options{Strict: true}, false},
		{map[string]string{"VORTEX_FORCE_SW": "tex|om"}, Options{ForceSW: UnitTEX | UnitOM}, false},
		{map[string]string{"VORTEX_FORCE_SW": "all", "VORTEX_STRICT": "0"}, Options{ForceSW: UnitAll}, false},
		{map[string]string{"VORTEX_FORCE_SW": "raster,tex"}, Options{ForceSW: UnitRASTER | UnitTEX}, false},
		{map[string]string{"VORTEX_FORCE_SW": "fpu"}, Options{}, true},
		{map[string]string{"VORTEX_STRICT": "yes"}, Options{}, true},
	}
	for _, tc := range tests {
		got, err := OptionsFromEnv(func(k string) string { return tc.env[k] })
		if (err != nil) != tc.err || err == nil && got != tc.want {
			t.Errorf("%v: %+v, %v", tc.env, got, err)
		}
	}
}
