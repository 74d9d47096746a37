package swom_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/device/swom"
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/msaa"
	"vortexgfx/gl/stencil"
)

func f32(v float32) uint32 { return math.Float32bits(v) }

// oneTarget is a 1-sample state over one target of format f without depth.
func oneTarget(f format.Format) swom.State {
	s := swom.State{Width: 2, Height: 2, Samples: 1, NumTargets: 1}
	s.Targets[0] = swom.Target{Format: f, Blend: swom.Blend{WriteMask: 0xF, SrcRGB: blend.One, SrcA: blend.One}}
	return s
}

// TestMergeColor checks the colour stage per format and feature against
// values worked by hand (GL 4.6 §17.3.6, facts §5). spec: vortexpipe §3.7
func TestMergeColor(t *testing.T) {
	tests := []struct {
		name  string
		f     format.Format
		dst   []byte
		src   [4]uint32
		src1  [4]float32
		setup func(*swom.State)
		want  []byte
	}{
		{"rgba8 copy", format.RGBA8, []byte{1, 2, 3, 4}, [4]uint32{f32(1), f32(0.5), f32(0), f32(1)}, [4]float32{}, nil, []byte{255, 128, 0, 255}},
		{"bgra8 byte order", format.BGRA8, []byte{1, 2, 3, 4}, [4]uint32{f32(1), f32(0.5), f32(0), f32(1)}, [4]float32{}, nil, []byte{0, 128, 255, 255}},
		{"r8 stores red only", format.R8, []byte{9}, [4]uint32{f32(0.2), f32(1), f32(1), f32(1)}, [4]float32{}, nil, []byte{51}},
		{"rg8 write mask", format.RG8, []byte{9, 9}, [4]uint32{f32(1), f32(1), 0, 0}, [4]float32{},
			func(s *swom.State) { s.Targets[0].Blend.WriteMask = 2 }, []byte{9, 255}},
		{"srgb encodes", format.SRGB8A8, []byte{0, 0, 0, 0}, [4]uint32{f32(0.5), f32(0), f32(1), f32(0.5)}, [4]float32{}, nil, []byte{188, 0, 255, 128}},
		{"srgb blends in linear", format.SRGB8A8, []byte{188, 188, 188, 255}, [4]uint32{f32(0), f32(0), f32(0), f32(0.5)}, [4]float32{},
			func(s *swom.State) { setBlend(s, blend.SrcAlpha, blend.OneMinusSrcAlpha) }, []byte{137, 137, 137, 191}},
		{"rgba8 constant alpha", format.RGBA8, []byte{200, 100, 0, 255}, [4]uint32{f32(1), f32(1), f32(1), f32(1)}, [4]float32{},
			func(s *swom.State) {
				setBlend(s, blend.ConstantAlpha, blend.OneMinusConstantAlpha)
				s.Constant[3] = 0.25
			}, []byte{214, 139, 64, 255}},
		{"rgba8 dual source", format.RGBA8, []byte{255, 255, 255, 255}, [4]uint32{f32(0.5), f32(0.5), f32(0.5), f32(1)}, [4]float32{0.25, 0.5, 1, 0.5},
			func(s *swom.State) { s.DualSource = true; setBlend(s, blend.One, blend.Src1Color) }, []byte{192, 255, 255, 255}},
		{"rgba16f additive", format.RGBA16F, half(1.5, 0, 0, 1), [4]uint32{f32(1), f32(2), 0, 0}, [4]float32{},
			func(s *swom.State) { setBlend(s, blend.One, blend.One) }, half(2.5, 2, 0, 1)},
		{"r32ui logic or", format.R32UI, le32(0xF0), [4]uint32{0x0F}, [4]float32{},
			func(s *swom.State) { s.LogicOpEnable, s.LogicOp = true, logicop.Or }, le32(0xFF)},
		{"rgba8i clamps", format.RGBA8I, []byte{0, 0, 0, 0}, [4]uint32{500, uint32(0xFFFFFE00), 5, 0}, [4]float32{}, nil, []byte{127, 128, 5, 0}},
		{"r32f min", format.R32F, le32(f32(0.25)), [4]uint32{f32(0.75)}, [4]float32{},
			func(s *swom.State) { setBlend(s, blend.One, blend.One); s.Targets[0].Blend.EqRGB = blend.Min }, le32(f32(0.25))},
	}
	for _, tc := range tests {
		s := oneTarget(tc.f)
		if tc.setup != nil {
			tc.setup(&s)
		}
		var f swom.Fragment
		f.Color[0], f.Src1 = tc.src, tc.src1
		var tex [swom.MaxTargets][]byte
		tex[0] = append([]byte(nil), tc.dst...)
		wrote, pass := s.Merge(&f, swom.PlaneDepth(0), nil, &tex)
		if !pass || wrote != swom.WroteTarget(0) || string(tex[0]) != string(tc.want) {
			t.Errorf("%s: got %v (wrote %b, pass %v), want %v", tc.name, tex[0], wrote, pass, tc.want)
		}
	}
}

func setBlend(s *swom.State, src, dst blend.Factor) {
	b := &s.Targets[0].Blend
	b.Enable, b.SrcRGB, b.SrcA, b.DstRGB, b.DstA = true, src, src, dst, dst
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

func half(v ...float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint16(b, format.Float32ToHalf(x))
	}
	return b
}

// TestMergeDepthStencil checks the depth/stencil stage on every plane format:
// compares, writes, bounds, clamp and the stencil ops of each facing.
func TestMergeDepthStencil(t *testing.T) {
	d24 := func(z, s uint32) []byte { return le32(z | s<<24) }
	tests := []struct {
		name  string
		df    abi.OMDepthFormat
		ds    []byte
		z     swom.Depth
		back  bool
		setup func(*swom.State)
		pass  bool
		want  []byte
	}{
		{"d24s8 less passes and writes", abi.OMDepthD24S8, d24(0x800000, 5), swom.PlaneDepth(0x400000), false, nil, true, d24(0x400000, 5)},
		{"d24s8 less fails", abi.OMDepthD24S8, d24(0x400000, 5), swom.PlaneDepth(0x400000), false, nil, false, d24(0x400000, 5)},
		{"d16 compares at 16 bits", abi.OMDepthD16, []byte{0, 0x80}, swom.FloatDepth(0.25), false, nil, true, []byte{0x00, 0x40}},
		{"d32f", abi.OMDepthD32F, le32(f32(0.5)), swom.FloatDepth(0.75), false,
			func(s *swom.State) { s.DepthFunc = compare.Greater }, true, le32(f32(0.75))},
		{"clamp to range", abi.OMDepthD32F, le32(f32(1)), swom.FloatDepth(0.1), false,
			func(s *swom.State) { s.DepthClamp, s.ClampMin, s.ClampMax = true, 0.3, 0.6 }, true, le32(f32(0.3))},
		{"bounds reject", abi.OMDepthD32F, le32(f32(0.9)), swom.FloatDepth(0.1), false,
			func(s *swom.State) { s.DepthBounds, s.BoundsMin, s.BoundsMax = true, 0, 0.5 }, false, le32(f32(0.9))},
		{"back stencil fail op", abi.OMDepthD24S8, d24(0x800000, 5), swom.PlaneDepth(0), true,
			func(s *swom.State) {
				s.StencilTest = true
				s.Back = swom.Face{Func: compare.Equal, Fail: stencil.Incr, Ref: 4, ReadMask: 0xFF, WriteMask: 0xFF}
			}, false, d24(0x800000, 6)},
		{"front stencil zfail op under write mask", abi.OMDepthD24S8, d24(0x100000, 0xF0), swom.PlaneDepth(0x800000), false,
			func(s *swom.State) {
				s.StencilTest = true
				s.Front = swom.Face{Func: compare.Always, ZFail: stencil.Invert, ReadMask: 0xFF, WriteMask: 0x0F}
			}, false, d24(0x100000, 0xFF)},
		{"s8 replace", abi.OMDepthS8, []byte{3}, swom.PlaneDepth(0), false,
			func(s *swom.State) {
				s.DepthTest, s.StencilTest = false, true
				s.Front = swom.Face{Func: compare.NotEqual, ZPass: stencil.Replace, Ref: 9, ReadMask: 0xFF, WriteMask: 0xFF}
			}, true, []byte{9}},
	}
	for _, tc := range tests {
		s := swom.State{Width: 1, Height: 1, Samples: 1, HasDS: true, DepthFormat: tc.df, DepthTest: true, DepthFunc: compare.Less, DepthWrite: true}
		if tc.setup != nil {
			tc.setup(&s)
		}
		ds := append([]byte(nil), tc.ds...)
		var tex [swom.MaxTargets][]byte
		_, pass := s.Merge(&swom.Fragment{Back: tc.back}, tc.z, ds, &tex)
		if pass != tc.pass || string(ds) != string(tc.want) {
			t.Errorf("%s: pass %v plane %x, want %v %x", tc.name, pass, ds, tc.pass, tc.want)
		}
	}
}

// TestCoverage checks the per-fragment tests: alpha test, alpha-to-coverage
// (round(α·S) samples) and alpha-to-one.
func TestCoverage(t *testing.T) {
	tests := []struct {
		name    string
		samples int
		alpha   float32
		setup   func(*swom.State)
		want    msaa.Mask
		wantA   float32
	}{
		{"a2c half of four", 4, 0.5, func(s *swom.State) { s.AlphaToCoverage = true }, 0x3, 0.5},
		{"a2c three of four", 4, 0.74, func(s *swom.State) { s.AlphaToCoverage = true }, 0x7, 0.74},
		{"a2c one sample drops below half", 1, 0.4, func(s *swom.State) { s.AlphaToCoverage = true }, 0, 0.4},
		{"a2c and a2one", 4, 0.3, func(s *swom.State) { s.AlphaToCoverage, s.AlphaToOne = true, true }, 0x1, 1},
		{"alpha test fails", 4, 0.3, func(s *swom.State) { s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, compare.GreaterEqual, 0.5 }, 0, 0.3},
		{"alpha test passes", 4, 0.5, func(s *swom.State) { s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, compare.GreaterEqual, 0.5 }, 0xF, 0.5},
		{"a2c one of two", 2, 0.3, func(s *swom.State) { s.AlphaToCoverage = true }, 0x1, 0.3},
		{"a2c five of eight", 8, 0.6, func(s *swom.State) { s.AlphaToCoverage = true }, 0x1F, 0.6},
		{"a2c all sixteen", 16, 1, func(s *swom.State) { s.AlphaToCoverage = true }, 0xFFFF, 1},
		{"a2c fifteen of sixteen", 16, 0.92, func(s *swom.State) { s.AlphaToCoverage = true }, 0x7FFF, 0.92},
		{"alpha test fails sixteen", 16, 0.3, func(s *swom.State) { s.AlphaTest, s.AlphaFunc, s.AlphaRef = true, compare.GreaterEqual, 0.5 }, 0, 0.3},
	}
	for _, tc := range tests {
		s := oneTarget(format.RGBA8)
		s.Samples = tc.samples
		tc.setup(&s)
		var f swom.Fragment
		f.Color[0][3] = f32(tc.alpha)
		full := msaa.Full(tc.samples)
		if got := s.Coverage(&f, full); got != tc.want || math.Float32frombits(f.Color[0][3]) != tc.wantA {
			t.Errorf("%s: mask %016b alpha %v, want %016b %v", tc.name, got, math.Float32frombits(f.Color[0][3]), tc.want, tc.wantA)
		}
	}
}

// TestResolve checks the box filter: unorm averages round to nearest, sRGB
// averages in linear, integer formats take sample 0. spec: vortexpipe §3.4.1
func TestResolve(t *testing.T) {
	tests := []struct {
		f        format.Format
		in, want []byte
	}{
		{format.R8, []byte{0, 255, 255, 255}, []byte{191}},
		{format.RG8, []byte{0, 10, 1, 10, 2, 10, 3, 11}, []byte{2, 10}},
		{format.SRGB8A8, []byte{0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 255, 255, 255, 255}, []byte{188, 188, 188, 128}},
		{format.RGBA8UI, []byte{1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, []byte{1, 2, 3, 4}},
	}
	for _, tc := range tests {
		got := make([]byte, len(tc.want))
		swom.Resolve(tc.f, tc.in, 4, got)
		if string(got) != string(tc.want) {
			t.Errorf("%v: resolved %v, want %v", tc.f, got, tc.want)
		}
	}
}

// TestDescRoundTrip encodes and decodes a state with every field set.
func TestDescRoundTrip(t *testing.T) {
	s := swom.State{Width: 640, Height: 480, Samples: 4, NumTargets: 3, HasDS: true, DepthFormat: abi.OMDepthD32F, DSAddr: 0x1234_5640,
		DepthTest: true, DepthFunc: compare.GreaterEqual, DepthWrite: true, StencilTest: true,
		Front:       swom.Face{Func: compare.Equal, Fail: 1, ZFail: 2, ZPass: 3, Ref: 4, ReadMask: 5, WriteMask: 6},
		Back:        swom.Face{Func: compare.Less, Fail: 7, ZFail: 6, ZPass: 5, Ref: 9, ReadMask: 10, WriteMask: 11},
		DepthBounds: true, BoundsMin: 0.1, BoundsMax: 0.9, DepthClamp: true, ClampMin: 0.2, ClampMax: 0.8,
		AlphaTest: true, AlphaFunc: compare.Greater, AlphaRef: 0.5, AlphaToCoverage: true, AlphaToOne: true,
		LogicOpEnable: true, LogicOp: logicop.Nand, DualSource: true, Constant: [4]float32{0.1, 0.2, 0.3, 0.4}}
	for i, f := range []format.Format{format.SRGB8A8, format.R32UI, format.RGBA16F} {
		s.Targets[i] = swom.Target{Format: f, Addr: uint64(0x1000 * (i + 1)), Blend: swom.Blend{Enable: i != 1, EqRGB: blend.ReverseSubtract, EqA: blend.Max,
			SrcRGB: blend.Src1Alpha, SrcA: blend.ConstantAlpha, DstRGB: blend.OneMinusSrc1Color, DstA: blend.DstColor, WriteMask: uint8(5 + i)}}
	}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var got swom.State
	if err := got.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if got != s {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, s)
	}
}

// TestSampleCounts checks that the merger takes every standard count (gl/msaa)
// and refuses the others naming the count, that the descriptor carries the
// count through, and that Resolve averages 2, 8 and 16 samples.
func TestSampleCounts(t *testing.T) {
	for _, n := range []int{1, 2, 4, 8, 16} {
		s := oneTarget(format.RGBA8)
		s.Samples = n
		if err := s.Check(); err != nil {
			t.Errorf("%d samples: %v", n, err)
		}
		b, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var got swom.State
		if err := got.Unmarshal(b); err != nil || got.Samples != n {
			t.Errorf("%d samples: descriptor round trip %d (%v)", n, got.Samples, err)
		}
		if i := s.TexelIndex(1, 0, n-1); i != 2*n-1 {
			t.Errorf("%d samples: texel index of the last sample of pixel 1 = %d", n, i)
		}
	}
	for _, n := range []int{0, 3, 6, 32} {
		s := oneTarget(format.RGBA8)
		s.Samples = n
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d samples", n)) {
			t.Errorf("%d samples: Check = %v", n, err)
		}
	}
	for _, c := range []struct {
		n    int
		want byte
	}{{2, 128}, {8, 32}, {16, 16}} {
		// One sample at 255, the rest 0: the average is 255/n, rounded.
		in := make([]byte, c.n)
		in[c.n-1] = 255
		got := []byte{0}
		swom.Resolve(format.R8, in, c.n, got)
		if got[0] != c.want {
			t.Errorf("%d samples: resolved %d, want %d", c.n, got[0], c.want)
		}
	}
}
