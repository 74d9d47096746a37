package pipe

import (
	"testing"

	"vortexgfx/abi"
)

// spec: vortex-hardware-facts §5 (OM compare order ALWAYS 0 … NOTEQUAL 7)
func TestOMCompare(t *testing.T) {
	tests := []struct {
		in   CompareFunc
		want abi.CompareFunc
		code uint32
	}{
		{FuncNever, abi.CmpNever, 1}, {FuncLess, abi.CmpLess, 2}, {FuncEqual, abi.CmpEqual, 4},
		{FuncLEqual, abi.CmpLEqual, 3}, {FuncGreater, abi.CmpGreater, 6}, {FuncNotEqual, abi.CmpNotEqual, 7},
		{FuncGEqual, abi.CmpGEqual, 5}, {FuncAlways, abi.CmpAlways, 0},
	}
	for _, tc := range tests {
		got, ok := OMCompare(tc.in)
		if !ok || got != tc.want || uint32(got) != tc.code {
			t.Errorf("OMCompare(%v) = %v (%d), %v; want %v (%d)", tc.in, got, got, ok, tc.want, tc.code)
		}
		// Semantics: the OM evaluates func(fragment, stored); check against GL meaning.
		for _, p := range [][2]uint32{{1, 2}, {2, 2}, {3, 2}} {
			a, b := p[0], p[1]
			gl := map[CompareFunc]bool{FuncNever: false, FuncLess: a < b, FuncEqual: a == b, FuncLEqual: a <= b,
				FuncGreater: a > b, FuncNotEqual: a != b, FuncGEqual: a >= b, FuncAlways: true}[tc.in]
			if got.Test(a, b) != gl {
				t.Errorf("%v(%d, %d): OM %v, GL %v", tc.in, a, b, got.Test(a, b), gl)
			}
		}
	}
	if _, ok := OMCompare(8); ok {
		t.Error("OMCompare(8) accepted")
	}
}

// spec: vortex-hardware-facts §5 (stencil ops KEEP 0 … DECR_WRAP 7)
func TestOMStencilOp(t *testing.T) {
	tests := []struct {
		in   StencilOp
		want abi.StencilOp
		code uint32
		// result for ref 0x40, stored 0xFF
		res uint8
	}{
		{StencilKeep, abi.StencilKeep, 0, 0xFF}, {StencilZero, abi.StencilZero, 1, 0},
		{StencilReplace, abi.StencilReplace, 2, 0x40}, {StencilIncr, abi.StencilIncr, 3, 0xFF},
		{StencilDecr, abi.StencilDecr, 4, 0xFE}, {StencilIncrWrap, abi.StencilIncrWrap, 6, 0},
		{StencilDecrWrap, abi.StencilDecrWrap, 7, 0xFE}, {StencilInvert, abi.StencilInvert, 5, 0},
	}
	for _, tc := range tests {
		got, ok := OMStencilOp(tc.in)
		if !ok || got != tc.want || uint32(got) != tc.code {
			t.Errorf("OMStencilOp(%v) = %d, %v; want %d", tc.in, got, ok, tc.code)
		}
		if r := got.Apply(0x40, 0xFF); r != tc.res {
			t.Errorf("%v.Apply(0x40, 0xFF) = %#x, want %#x", tc.in, r, tc.res)
		}
	}
	if _, ok := OMStencilOp(8); ok {
		t.Error("OMStencilOp(8) accepted")
	}
}

// spec: vortex-hardware-facts §5 (blend factors 0–14); vortexpipe §3.7 (dual-source
// has no encoding; CONSTANT_ALPHA maps to CONST_A instead of collapsing to ONE)
func TestOMBlendFactor(t *testing.T) {
	tests := []struct {
		in   BlendFactor
		want abi.BlendFactor
		ok   bool
	}{
		{FactorZero, abi.BlendZero, true}, {FactorOne, abi.BlendOne, true},
		{FactorSrcColor, abi.BlendSrcRGB, true}, {FactorInvSrcColor, abi.BlendOneMinusSrcRGB, true},
		{FactorSrcAlpha, abi.BlendSrcA, true}, {FactorInvSrcAlpha, abi.BlendOneMinusSrcA, true},
		{FactorDstColor, abi.BlendDstRGB, true}, {FactorInvDstColor, abi.BlendOneMinusDstRGB, true},
		{FactorDstAlpha, abi.BlendDstA, true}, {FactorInvDstAlpha, abi.BlendOneMinusDstA, true},
		{FactorConstColor, abi.BlendConstRGB, true}, {FactorInvConstColor, abi.BlendOneMinusConstRGB, true},
		{FactorConstAlpha, abi.BlendConstA, true}, {FactorInvConstAlpha, abi.BlendOneMinusConstA, true},
		{FactorSrcAlphaSaturate, abi.BlendAlphaSat, true},
		{FactorSrc1Color, 0, false}, {FactorInvSrc1Color, 0, false},
		{FactorSrc1Alpha, 0, false}, {FactorInvSrc1Alpha, 0, false},
		{numBlendFactors, 0, false},
	}
	for _, tc := range tests {
		got, ok := OMBlendFactor(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("OMBlendFactor(%v) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if tc.in.DualSource() == tc.ok && tc.in != numBlendFactors {
			t.Errorf("%v: DualSource %v but encodable %v", tc.in, tc.in.DualSource(), tc.ok)
		}
	}
}

// spec: vortex-hardware-facts §5 (ADD, SUB, REV_SUB, MIN, MAX)
func TestOMBlendMode(t *testing.T) {
	tests := []struct {
		in   BlendEquation
		want abi.BlendMode
	}{
		{EqAdd, abi.BlendAdd}, {EqSubtract, abi.BlendSub}, {EqReverseSubtract, abi.BlendRevSub},
		{EqMin, abi.BlendMin}, {EqMax, abi.BlendMax},
	}
	for _, tc := range tests {
		if got, ok := OMBlendMode(tc.in); !ok || got != tc.want {
			t.Errorf("OMBlendMode(%v) = %d, %v; want %d", tc.in, got, ok, tc.want)
		}
	}
	if _, ok := OMBlendMode(5); ok {
		t.Error("OMBlendMode(5) accepted")
	}
}

// spec: vortex-hardware-facts §5 (16 logic ops, CLEAR 0 … SET 15). Each mapping is
// also checked by truth table against the GL definition.
func TestOMLogicOp(t *testing.T) {
	const s, d = uint32(0xF0F0A5A5), uint32(0xFF00C33C)
	tests := []struct {
		in   LogicOp
		want abi.LogicOp
		gl   uint32
	}{
		{LogicClear, abi.LogicClear, 0}, {LogicNor, abi.LogicNor, ^(s | d)},
		{LogicAndInverted, abi.LogicAndInverted, ^s & d}, {LogicCopyInverted, abi.LogicCopyInverted, ^s},
		{LogicAndReverse, abi.LogicAndReverse, s &^ d}, {LogicInvert, abi.LogicInvert, ^d},
		{LogicXor, abi.LogicXor, s ^ d}, {LogicNand, abi.LogicNand, ^(s & d)},
		{LogicAnd, abi.LogicAnd, s & d}, {LogicEquiv, abi.LogicEquiv, ^(s ^ d)},
		{LogicNoop, abi.LogicNoop, d}, {LogicOrInverted, abi.LogicOrInverted, ^s | d},
		{LogicCopy, abi.LogicCopy, s}, {LogicOrReverse, abi.LogicOrReverse, s | ^d},
		{LogicOr, abi.LogicOr, s | d}, {LogicSet, abi.LogicSet, 0xFFFFFFFF},
	}
	if len(tests) != 16 {
		t.Fatalf("%d logic ops in the table", len(tests))
	}
	for _, tc := range tests {
		got, ok := OMLogicOp(tc.in)
		if !ok || got != tc.want {
			t.Errorf("OMLogicOp(%v) = %d, %v; want %d", tc.in, got, ok, tc.want)
		}
		if r := got.Apply(s, d); r != tc.gl {
			t.Errorf("%v: OM result %#x, GL %#x", tc.in, r, tc.gl)
		}
	}
	if _, ok := OMLogicOp(16); ok {
		t.Error("OMLogicOp(16) accepted")
	}
}

// spec: vortexpipe §3.6 (CLAMP/REPEAT/MIRROR/BORDER on the unit; mirror-clamp not
// collapsed); vortex-hardware-facts §4 (codes)
func TestTexWrapEncoding(t *testing.T) {
	tests := []struct {
		in     Wrap
		code   abi.TexWrap
		ff, ok bool
	}{
		{WrapRepeat, abi.WrapRepeat, true, true},
		{WrapClampToEdge, abi.WrapClamp, true, true},
		{WrapClampToBorder, abi.WrapBorder, true, true},
		{WrapMirrorRepeat, abi.WrapMirror, true, true},
		{WrapMirrorClampToEdge, abi.WrapMirrorClamp, false, true},
		{WrapClamp, 0, false, false},
		{WrapMirrorClamp, 0, false, false},
		{WrapMirrorClampToBorder, 0, false, false},
	}
	for _, tc := range tests {
		code, ff, ok := TexWrapEncoding(tc.in)
		if code != tc.code || ff != tc.ff || ok != tc.ok {
			t.Errorf("TexWrapEncoding(%v) = %d, %v, %v; want %d, %v, %v", tc.in, code, ff, ok, tc.code, tc.ff, tc.ok)
		}
	}
}

// spec: vortex-hardware-facts §2 (CBUF_WRITEMASK bit i = byte i); vortexpipe §3.7
// (write mask and constant permuted for BGRA attachments)
func TestWriteMaskAndColor(t *testing.T) {
	tests := []struct {
		mask       uint8
		rgba, bgra uint32
	}{
		{MaskRGBA, 0xF, 0xF}, {0, 0, 0}, {MaskR, 1, 4}, {MaskG, 2, 2}, {MaskB, 4, 1}, {MaskA, 8, 8},
		{MaskR | MaskA, 9, 0xC}, {MaskB | MaskG, 6, 3},
	}
	for _, tc := range tests {
		if got := WriteMask(tc.mask, false); got != tc.rgba {
			t.Errorf("WriteMask(%#x, rgba) = %#x, want %#x", tc.mask, got, tc.rgba)
		}
		if got := WriteMask(tc.mask, true); got != tc.bgra {
			t.Errorf("WriteMask(%#x, bgra) = %#x, want %#x", tc.mask, got, tc.bgra)
		}
	}
	c := [4]float32{1, 0.5, 0, 0.25}
	if got := PackColor(c, false); got != 0x40_00_80_FF {
		t.Errorf("PackColor rgba = %#x", got)
	}
	if got := PackColor(c, true); got != 0x40_FF_80_00 {
		t.Errorf("PackColor bgra = %#x", got)
	}
	nan := float32(0)
	nan = nan / nan
	if got := PackColor([4]float32{-1, 2, nan, 1}, false); got != 0xFF_00_FF_00 {
		t.Errorf("PackColor clamps: %#x", got)
	}
}

// spec: vortexpipe §1.4 (LOD in fixed point); facts §4 (8 fraction bits)
func TestLodFixed(t *testing.T) {
	tests := []struct {
		in   float32
		want int32
	}{
		{0, 0}, {1, 256}, {-1, -256}, {0.5, 128}, {1000, 256000}, {1.0 / 512, 1}, {1e30, 2147483647}, {-1e30, -2147483648},
	}
	for _, tc := range tests {
		if got := LodFixed(tc.in); got != tc.want {
			t.Errorf("LodFixed(%g) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
