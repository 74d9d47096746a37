package abi

// TexFormat is a TEX_FORMAT code. Codes 0..TexFormatFFMax are decoded by the
// fixed-function unit; the rest only by the software sampler.
// spec: vortex-hardware-facts §4 (formats table)
type TexFormat uint32

// The texture formats.
const (
	TexA8R8G8B8 TexFormat = 0
	TexR5G6B5   TexFormat = 1
	TexA1R5G5B5 TexFormat = 2
	TexA4R4G4B4 TexFormat = 3
	TexA8L8     TexFormat = 4
	TexL8       TexFormat = 5
	TexA8       TexFormat = 6
	TexSRGB8    TexFormat = 7
	TexSRGB8A8  TexFormat = 8
	TexR8       TexFormat = 9
	TexRG8      TexFormat = 10
	TexR16F     TexFormat = 11
	TexRG16F    TexFormat = 12
	TexRGBA16F  TexFormat = 13
	TexR32F     TexFormat = 14
	TexRG32F    TexFormat = 15
	TexRGBA32F  TexFormat = 16
	TexD16      TexFormat = 17
	TexD32F     TexFormat = 18

	TexFormatFFMax = TexA8 // VX_TEX_FORMAT_FF_MAX
	numTexFormats  = 19
)

var texFormatInfo = [numTexFormats]struct {
	name   string
	stride int
}{
	{"A8R8G8B8", 4}, {"R5G6B5", 2}, {"A1R5G5B5", 2}, {"A4R4G4B4", 2}, {"A8L8", 2},
	{"L8", 1}, {"A8", 1}, {"SRGB8", 3}, {"SRGB8A8", 4}, {"R8", 1}, {"RG8", 2},
	{"R16F", 2}, {"RG16F", 4}, {"RGBA16F", 8}, {"R32F", 4}, {"RG32F", 8},
	{"RGBA32F", 16}, {"D16", 2}, {"D32F", 4},
}

// Valid reports whether f is a defined format.
func (f TexFormat) Valid() bool { return f < numTexFormats }

// FixedFunction reports whether the FF TEX unit decodes f.
func (f TexFormat) FixedFunction() bool { return f <= TexFormatFFMax }

// Stride is the texel size in bytes (0 for an undefined format).
func (f TexFormat) Stride() int {
	if !f.Valid() {
		return 0
	}
	return texFormatInfo[f].stride
}

// String names the format.
func (f TexFormat) String() string {
	if !f.Valid() {
		return "INVALID"
	}
	return texFormatInfo[f].name
}

// TexWrap is a TEX_WRAP mode per axis. spec: vortex-hardware-facts §4
type TexWrap uint32

// The FF wrap modes. Mirror-clamp is ours, decoded only by the software sampler.
const (
	WrapClamp       TexWrap = 0
	WrapRepeat      TexWrap = 1
	WrapMirror      TexWrap = 2
	WrapBorder      TexWrap = 3
	WrapMirrorClamp TexWrap = 4 // SW sampler only (vortexpipe §3.6 "silent collapse" closed)
)

// TEX_FILTER bits. spec: vortex-hardware-facts §2, §4
const (
	TexFilterBilinear  uint32 = 1 << 0
	TexFilterMipLinear uint32 = 1 << 1 // trilinear: the lod operand has 8 fraction bits
)

// TexLodFracBits is VX_TEX_LOD_FRAC_BITS, the lod operand's fraction with MIP_LINEAR.
const TexLodFracBits = 8

// CompareFunc is a depth/stencil compare code of the OM (and early-Z), evaluated as
// func(fragment_or_ref, stored). The order differs from GL's; gl/compare holds the
// functions and maps them to these codes. spec: facts §5
type CompareFunc uint32

// The OM compare functions.
const (
	CmpAlways   CompareFunc = 0
	CmpNever    CompareFunc = 1
	CmpLess     CompareFunc = 2
	CmpLEqual   CompareFunc = 3
	CmpEqual    CompareFunc = 4
	CmpGEqual   CompareFunc = 5
	CmpGreater  CompareFunc = 6
	CmpNotEqual CompareFunc = 7
)

// String names the function.
func (f CompareFunc) String() string {
	return [...]string{"ALWAYS", "NEVER", "LESS", "LEQUAL", "EQUAL", "GEQUAL", "GREATER", "NOTEQUAL"}[f&7]
}

// StencilOp is an OM stencil-operation code; gl/stencil holds the operations and
// maps them to these codes. spec: vortex-hardware-facts §5
type StencilOp uint32

// The stencil operations; INCR/DECR saturate in [0,255], the _WRAP forms wrap mod 256.
const (
	StencilKeep     StencilOp = 0
	StencilZero     StencilOp = 1
	StencilReplace  StencilOp = 2
	StencilIncr     StencilOp = 3
	StencilDecr     StencilOp = 4
	StencilInvert   StencilOp = 5
	StencilIncrWrap StencilOp = 6
	StencilDecrWrap StencilOp = 7
)

// BlendFactor is an OM blend-factor code (0–14); gl/blend holds the factors and
// maps them to these codes. spec: vortex-hardware-facts §5
type BlendFactor uint32

// The blend factors. SRC_RGB..1−DST_RGB use all four channels, alpha included.
const (
	BlendZero             BlendFactor = 0
	BlendOne              BlendFactor = 1
	BlendSrcRGB           BlendFactor = 2
	BlendOneMinusSrcRGB   BlendFactor = 3
	BlendDstRGB           BlendFactor = 4
	BlendOneMinusDstRGB   BlendFactor = 5
	BlendSrcA             BlendFactor = 6
	BlendOneMinusSrcA     BlendFactor = 7
	BlendDstA             BlendFactor = 8
	BlendOneMinusDstA     BlendFactor = 9
	BlendConstRGB         BlendFactor = 10
	BlendOneMinusConstRGB BlendFactor = 11
	BlendConstA           BlendFactor = 12
	BlendOneMinusConstA   BlendFactor = 13
	BlendAlphaSat         BlendFactor = 14
	NumBlendFactors                   = 15
)

// BlendMode is an OM blend-mode code: an equation (gl/blend maps its equations to
// these codes) or LOGICOP. spec: vortex-hardware-facts §5
type BlendMode uint32

// The blend equations; LOGICOP applies LOGIC_OP to the whole word.
const (
	BlendAdd     BlendMode = 0
	BlendSub     BlendMode = 1
	BlendRevSub  BlendMode = 2
	BlendMin     BlendMode = 3
	BlendMax     BlendMode = 4
	BlendLogicOp BlendMode = 5
)

// LogicOp is an OM logic-op code (one of 16); gl/logicop holds the operations and
// maps them to these codes. spec: vortex-hardware-facts §5
type LogicOp uint32

// The logic ops.
const (
	LogicClear        LogicOp = 0
	LogicAnd          LogicOp = 1
	LogicAndReverse   LogicOp = 2
	LogicCopy         LogicOp = 3
	LogicAndInverted  LogicOp = 4
	LogicNoop         LogicOp = 5
	LogicXor          LogicOp = 6
	LogicOr           LogicOp = 7
	LogicNor          LogicOp = 8
	LogicEquiv        LogicOp = 9
	LogicInvert       LogicOp = 10
	LogicOrReverse    LogicOp = 11
	LogicCopyInverted LogicOp = 12
	LogicOrInverted   LogicOp = 13
	LogicNand         LogicOp = 14
	LogicSet          LogicOp = 15
)

// OMColorFormat is a colour attachment format of the software merger; only
// A8R8G8B8 is fixed-function. spec: vortex-hardware-facts §5
type OMColorFormat uint32

// The OM colour formats.
const (
	OMColorA8R8G8B8 OMColorFormat = 0
	OMColorSRGB8A8  OMColorFormat = 1
	OMColorR8       OMColorFormat = 2
	OMColorRG8      OMColorFormat = 3
)

// OMDepthFormat is a depth/stencil format of the software merger; only D24S8 is
// fixed-function. spec: vortex-hardware-facts §5
type OMDepthFormat uint32

// The OM depth formats.
const (
	OMDepthD24S8 OMDepthFormat = 0
	OMDepthD16   OMDepthFormat = 1
	OMDepthD32F  OMDepthFormat = 2
	OMDepthS8    OMDepthFormat = 3
)

// D24S8 word layout: stencil in [31:24], depth in [23:0]. spec: facts §5
const (
	DepthMask    uint32 = 0x00FFFFFF
	StencilShift uint32 = 24
)

// MSAA4Sample returns sample i (0..3) of the fixed 4x rotated-grid pattern, in 1/16
// pixel from the pixel's corner at the lowest raster x and y. The raster's y is the
// plane's row index, and our planes keep GL's window orientation (row 0 is the bottom
// row), so sy grows upward in GL window coordinates: sample (sx, sy) of pixel (x, y)
// sits at window position (x + sx/16, y + sy/16). spec: vortexpipe §3.4.1, facts §5
func MSAA4Sample(i int) (x, y int) {
	pattern := [4][2]int{{6, 2}, {14, 6}, {2, 10}, {10, 14}}
	p := pattern[i&3]
	return p[0], p[1]
}
