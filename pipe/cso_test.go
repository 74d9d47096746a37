package pipe

import (
	"math"
	"reflect"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/stencil"
)

// spec: vortexpipe §1.4, §3.3 step 2 (two-sided stencil, front low / back high)
func TestNewDSA(t *testing.T) {
	front := StencilState{Enabled: true, Func: compare.Equal, FailOp: stencil.Zero, ZFailOp: stencil.Incr, ZPassOp: stencil.Invert, ValueMask: 0x0F, WriteMask: 0xF0}
	back := StencilState{Enabled: true, Func: compare.Greater, FailOp: stencil.DecrWrap, ZFailOp: stencil.Keep, ZPassOp: stencil.Replace, ValueMask: 0xAA, WriteMask: 0x55}
	tests := []struct {
		name string
		in   DepthStencilAlphaState
		want DSA
	}{
		{"off", DepthStencilAlphaState{}, DSA{DepthFunc: 0, StencilMask: 0x00FF00FF}},
		{"depth less write", DepthStencilAlphaState{DepthEnabled: true, DepthWrite: true, DepthFunc: compare.Less},
			DSA{DepthFunc: uint32(abi.CmpLess), DepthWriteMask: 1, StencilMask: 0x00FF00FF, MonotoneDepth: true}},
		{"depth equal no write", DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.Equal},
			DSA{DepthFunc: uint32(abi.CmpEqual), StencilMask: 0x00FF00FF}},
		{"two-sided", DepthStencilAlphaState{Stencil: [2]StencilState{front, back}}, DSA{
			StencilFunc:  uint32(abi.CmpGreater)<<16 | uint32(abi.CmpEqual),
			StencilFail:  uint32(abi.StencilDecrWrap)<<16 | uint32(abi.StencilZero),
			StencilZFail: uint32(abi.StencilKeep)<<16 | uint32(abi.StencilIncr),
			StencilZPass: uint32(abi.StencilReplace)<<16 | uint32(abi.StencilInvert),
			StencilMask:  0x00AA000F, StencilWriteMask: 0x005500F0, StencilWrites: true}},
		{"one-sided applies to back", DepthStencilAlphaState{Stencil: [2]StencilState{front}}, DSA{
			StencilFunc:  uint32(abi.CmpEqual)<<16 | uint32(abi.CmpEqual),
			StencilFail:  uint32(abi.StencilZero)<<16 | uint32(abi.StencilZero),
			StencilZFail: uint32(abi.StencilIncr)<<16 | uint32(abi.StencilIncr),
			StencilZPass: uint32(abi.StencilInvert)<<16 | uint32(abi.StencilInvert),
			StencilMask:  0x000F000F, StencilWriteMask: 0x00F000F0, StencilWrites: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewDSA(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got := *d
			got.State, got.Flags = DepthStencilAlphaState{}, nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	d, _ := NewDSA(DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.LessEqual})
	if d.EarlyZSafe(false) != 1 || d.EarlyZSafe(true) != 0 {
		t.Error("EARLYZ_SAFE: LEQUAL without stencil writes must arm only without shader depth")
	}
	d, _ = NewDSA(DepthStencilAlphaState{DepthEnabled: true, DepthFunc: compare.Less, Stencil: [2]StencilState{front}})
	if d.EarlyZSafe(false) != 0 {
		t.Error("EARLYZ_SAFE armed with stencil writes")
	}
	if _, err := NewDSA(DepthStencilAlphaState{DepthEnabled: true, DepthFunc: 9}); err == nil {
		t.Error("undefined depth func accepted")
	}
	if _, err := NewDSA(DepthStencilAlphaState{Stencil: [2]StencilState{{Enabled: true, ZPassOp: 9}}}); err == nil {
		t.Error("undefined stencil op accepted")
	}
	d, _ = NewDSA(DepthStencilAlphaState{AlphaEnabled: true, AlphaFunc: compare.Greater, DepthBounds: true})
	if len(d.Flags) != 0 || len(d.Routes) != 2 || d.Routes[0].Code != RouteAlphaTest || d.Routes[1].Code != RouteDepthBounds {
		t.Errorf("flags %v routes %v", d.Flags, d.Routes)
	}
}

// spec: vortexpipe §3.7 (independent per-RT blend, RGB/alpha equations, logic op
// supersedes blending, BGRA write masks)
func TestNewBlend(t *testing.T) {
	var s BlendState
	s.IndependentBlend = true
	s.RT[0] = RTBlendState{BlendEnable: true, RGBFunc: blend.Add, AlphaFunc: blend.Max, RGBSrc: blend.SrcAlpha,
		RGBDst: blend.OneMinusSrcAlpha, AlphaSrc: blend.One, AlphaDst: blend.ConstantAlpha, ColorMask: MaskRGBA}
	s.RT[1] = RTBlendState{ColorMask: MaskR | MaskA}
	b, err := NewBlend(s)
	if err != nil {
		t.Fatal(err)
	}
	want0 := RTBlend{
		Mode:      uint32(abi.BlendMax)<<16 | uint32(abi.BlendAdd),
		Func:      abi.PackBlendFunc(abi.BlendSrcA, abi.BlendOne, abi.BlendOneMinusSrcA, abi.BlendConstA),
		LogicOp:   uint32(abi.LogicCopy),
		WriteMask: [2]uint32{0xF, 0xF},
	}
	if b.RT[0] != want0 {
		t.Errorf("rt0 %+v, want %+v", b.RT[0], want0)
	}
	want1 := RTBlend{Mode: 0, Func: abi.PackBlendFunc(abi.BlendOne, abi.BlendOne, abi.BlendZero, abi.BlendZero),
		LogicOp: uint32(abi.LogicCopy), WriteMask: [2]uint32{9, 0xC}}
	if b.RT[1] != want1 {
		t.Errorf("rt1 %+v, want %+v", b.RT[1], want1)
	}
	s.LogicOpEnable, s.LogicOp = true, logicop.Xor
	b, _ = NewBlend(s)
	for i := 0; i < 2; i++ {
		if b.RT[i].Mode != uint32(abi.BlendLogicOp)<<16|uint32(abi.BlendLogicOp) || b.RT[i].LogicOp != uint32(abi.LogicXor) {
			t.Errorf("rt%d logic op not superseding: %+v", i, b.RT[i])
		}
	}
	s = BlendState{AlphaToCoverage: true, AlphaToOne: true}
	s.RT[0] = RTBlendState{BlendEnable: true, RGBSrc: blend.Src1Color, RGBDst: blend.One, AlphaSrc: blend.One, AlphaDst: blend.Zero}
	b, err = NewBlend(s)
	if err != nil {
		t.Fatal(err)
	}
	codes := []ReasonCode{RouteDualSource, RouteAlphaToCoverage, RouteAlphaToOne}
	if len(b.Routes) != len(codes) || len(b.Flags) != 0 || !b.DualSource {
		t.Fatalf("routes %v flags %v dual source %v", b.Routes, b.Flags, b.DualSource)
	}
	for i, c := range codes {
		if b.Routes[i].Code != c {
			t.Errorf("route %d = %v, want %v", i, b.Routes[i], c)
		}
	}
	if _, err := NewBlend(BlendState{RT: [8]RTBlendState{{BlendEnable: true, RGBFunc: 7}}}); err == nil {
		t.Error("undefined equation accepted")
	}
	bc := NewBlendColor([4]float32{1, 0, 0, 1})
	if bc[0] != 0xFF0000FF || bc[1] != 0xFFFF0000 {
		t.Errorf("blend colour %#x", bc)
	}
}

// spec: vortexpipe §3.6, facts §4 (FILTER bits, WRAP packing, BORDER A8R8G8B8)
func TestNewSampler(t *testing.T) {
	s, err := NewSampler(SamplerState{WrapS: sampler.Repeat, WrapT: sampler.ClampToBorder, WrapR: sampler.MirroredRepeat,
		MinFilter: sampler.Linear, MagFilter: sampler.Linear, MipFilter: sampler.MipLinear, MinLod: 0.5, MaxLod: 4, LodBias: -1.25,
		BorderColor: [4]float32{0, 0, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Filter != abi.TexFilterBilinear|abi.TexFilterMipLinear || s.Wrap != uint32(abi.WrapBorder)<<16|uint32(abi.WrapRepeat) ||
		s.WrapR != abi.WrapMirror || s.Border != 0xFF0000FF || s.LodMin != 128 || s.LodMax != 1024 || s.LodBias != -320 ||
		!s.MipEnable || len(s.Routes) != 1 || s.Routes[0].Code != RouteTexWrap || len(s.Flags) != 0 { // bilinear BORDER on t: software
		t.Errorf("captured %+v", s)
	}
	tests := []struct {
		name   string
		in     SamplerState
		routes []ReasonCode
		flags  []ReasonCode
	}{
		{"mirror clamp edge", SamplerState{WrapS: sampler.MirrorClampToEdge}, []ReasonCode{RouteTexWrap}, nil},
		{"mirror clamp border", SamplerState{WrapT: sampler.MirrorClampToBorder}, []ReasonCode{RouteTexWrap}, nil},
		{"legacy clamp", SamplerState{WrapR: sampler.Clamp}, []ReasonCode{RouteTexWrap}, nil},
		{"bilinear mirror", SamplerState{WrapS: sampler.MirroredRepeat, MagFilter: sampler.Linear, MinFilter: sampler.Linear}, []ReasonCode{RouteTexWrap}, nil},
		{"bilinear border", SamplerState{WrapT: sampler.ClampToBorder, MagFilter: sampler.Linear, MinFilter: sampler.Linear}, []ReasonCode{RouteTexWrap}, nil},
		{"nearest mirror and border", SamplerState{WrapS: sampler.MirroredRepeat, WrapT: sampler.ClampToBorder}, nil, nil},
		{"min≠mag", SamplerState{MinFilter: sampler.Linear}, []ReasonCode{RouteTexFilter}, nil},
		{"shadow", SamplerState{CompareMode: true, CompareFunc: compare.LessEqual}, []ReasonCode{RouteTexShadow}, nil},
		{"anisotropy", SamplerState{MaxAnisotropy: 16}, []ReasonCode{RouteTexAniso}, nil},
		{"anisotropy 1", SamplerState{MaxAnisotropy: 1}, nil, nil},
	}
	for _, tc := range tests {
		s, err := NewSampler(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !sameCodes(s.Routes, tc.routes) || !sameCodes(s.Flags, tc.flags) {
			t.Errorf("%s: routes %v flags %v", tc.name, s.Routes, s.Flags)
		}
	}
	if s, _ := NewSampler(SamplerState{CompareMode: true, CompareFunc: compare.GreaterEqual}); s.Compare != abi.CmpGEqual {
		t.Errorf("compare %v", s.Compare)
	}
	if _, err := NewSampler(SamplerState{WrapS: 8}); err == nil {
		t.Error("undefined wrap accepted")
	}
}

func sameCodes(rs []Reason, want []ReasonCode) bool {
	if len(rs) != len(want) {
		return false
	}
	for i := range rs {
		if rs[i].Code != want[i] {
			return false
		}
	}
	return true
}

// spec: vortexpipe §3.7 (depth-clamp row), §3.8
func TestNewRasterizer(t *testing.T) {
	tests := []struct {
		name  string
		in    RasterizerState
		flags []ReasonCode
		all   bool
	}{
		{"default", RasterizerState{}, nil, false},
		{"cull both", RasterizerState{Cull: CullFrontAndBack}, nil, true},
		{"line fill", RasterizerState{FillFront: PolygonLine}, nil, false},
		{"line fill with offset", RasterizerState{FillFront: PolygonLine, OffsetTri: true}, []ReasonCode{GatePolygonMode}, false},
		{"line fill on culled face with offset", RasterizerState{Cull: CullFront, FillFront: PolygonLine, OffsetTri: true}, nil, false},
		{"line faces with fill offset", RasterizerState{FillFront: PolygonLine, FillBack: PolygonLine, OffsetTri: true}, nil, false},
		{"line offset", RasterizerState{FillFront: PolygonLine, FillBack: PolygonLine, OffsetLine: true}, []ReasonCode{GatePolygonMode}, false},
		{"point offset", RasterizerState{FillBack: PolygonPoint, OffsetPoint: true}, []ReasonCode{GatePolygonMode}, false},
		{"point offset on line faces", RasterizerState{FillFront: PolygonLine, FillBack: PolygonLine, OffsetPoint: true}, nil, false},
		{"line offset not finite", RasterizerState{OffsetLine: true, OffsetUnits: float32(math.NaN())}, []ReasonCode{GatePolygonOffset}, false},
		{"line fill on culled face", RasterizerState{Cull: CullBack, FillBack: PolygonLine}, nil, false},
		{"offset", RasterizerState{OffsetTri: true, OffsetUnits: 1, OffsetScale: -2, OffsetClamp: 0.01}, nil, false},
		{"offset not finite", RasterizerState{OffsetTri: true, OffsetScale: float32(math.NaN())}, []ReasonCode{GatePolygonOffset}, false},
		{"offset off, not finite", RasterizerState{OffsetUnits: float32(math.Inf(-1))}, nil, false},
		{"clamp", RasterizerState{DepthClamp: true}, nil, false},
		{"clamp, no clip", RasterizerState{DepthClamp: true, DepthClipDisable: true}, nil, false},
		{"no clip", RasterizerState{DepthClipDisable: true}, nil, false},
	}
	for _, tc := range tests {
		r, err := NewRasterizer(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if !sameCodes(r.Flags, tc.flags) || r.CullsAll != tc.all {
			t.Errorf("%s: flags %v cullsAll %v", tc.name, r.Flags, r.CullsAll)
		}
	}
	if _, err := NewRasterizer(RasterizerState{Cull: 4}); err == nil {
		t.Error("undefined cull accepted")
	}
}

// spec: vortex-hardware-facts §4 (TEX_FILTER bit0 bilinear, bit1 MIP_LINEAR);
// vortexpipe §3.6 (mipmap filter rows)
func TestSamplerFilter(t *testing.T) {
	tests := []struct {
		min, mag sampler.Filter
		mip      sampler.MipFilter
		word     uint32
		mips     bool
		routed   bool
	}{
		{sampler.Nearest, sampler.Nearest, sampler.MipNone, 0, false, false},
		{sampler.Linear, sampler.Linear, sampler.MipNone, 1, false, false},
		{sampler.Nearest, sampler.Nearest, sampler.MipNearest, 0, true, false},
		{sampler.Linear, sampler.Linear, sampler.MipNearest, 1, true, false},
		{sampler.Nearest, sampler.Nearest, sampler.MipLinear, 2, true, false},
		{sampler.Linear, sampler.Linear, sampler.MipLinear, 3, true, false},
		{sampler.Linear, sampler.Nearest, sampler.MipLinear, 2, true, true},
		{sampler.Nearest, sampler.Linear, sampler.MipNone, 1, false, true},
	}
	for _, tc := range tests {
		s, err := NewSampler(SamplerState{MinFilter: tc.min, MagFilter: tc.mag, MipFilter: tc.mip})
		if err != nil {
			t.Fatal(err)
		}
		if s.Filter != tc.word || s.MipEnable != tc.mips || (len(s.Routes) == 1) != tc.routed {
			t.Errorf("min %d mag %d mip %d: word %d mips %v routes %v", tc.min, tc.mag, tc.mip, s.Filter, s.MipEnable, s.Routes)
		}
	}
	if _, err := NewSampler(SamplerState{MipFilter: 3}); err == nil {
		t.Error("undefined mip filter accepted")
	}
}
