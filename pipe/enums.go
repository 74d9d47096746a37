package pipe

import "fmt"

// CompareFunc is a Gallium-style compare function (PIPE_FUNC_*, GL/Vulkan order).
// It is translated to the OM's own order (abi.CompareFunc) at CSO creation.
// spec: vortexpipe §1.4, §3.7; vortex-hardware-facts §5
type CompareFunc uint8

// The compare functions in Gallium order.
const (
	FuncNever CompareFunc = iota
	FuncLess
	FuncEqual
	FuncLEqual
	FuncGreater
	FuncNotEqual
	FuncGEqual
	FuncAlways
)

// String names the function.
func (f CompareFunc) String() string {
	names := [...]string{"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"}
	if int(f) < len(names) {
		return names[f]
	}
	return fmt.Sprintf("CompareFunc(%d)", uint8(f))
}

// StencilOp is a Gallium-style stencil operation (PIPE_STENCIL_OP_*).
// spec: vortexpipe §3.7
type StencilOp uint8

// The stencil operations in Gallium order.
const (
	StencilKeep StencilOp = iota
	StencilZero
	StencilReplace
	StencilIncr
	StencilDecr
	StencilIncrWrap
	StencilDecrWrap
	StencilInvert
)

// String names the operation.
func (o StencilOp) String() string {
	names := [...]string{"KEEP", "ZERO", "REPLACE", "INCR", "DECR", "INCR_WRAP", "DECR_WRAP", "INVERT"}
	if int(o) < len(names) {
		return names[o]
	}
	return fmt.Sprintf("StencilOp(%d)", uint8(o))
}

// BlendFactor is a Gallium-style blend factor (PIPE_BLENDFACTOR_*), including the
// dual-source and constant-alpha factors. spec: vortexpipe §3.7
type BlendFactor uint8

// The blend factors.
const (
	FactorZero BlendFactor = iota
	FactorOne
	FactorSrcColor
	FactorInvSrcColor
	FactorSrcAlpha
	FactorInvSrcAlpha
	FactorDstColor
	FactorInvDstColor
	FactorDstAlpha
	FactorInvDstAlpha
	FactorConstColor
	FactorInvConstColor
	FactorConstAlpha
	FactorInvConstAlpha
	FactorSrcAlphaSaturate
	FactorSrc1Color
	FactorInvSrc1Color
	FactorSrc1Alpha
	FactorInvSrc1Alpha
	numBlendFactors
)

// String names the factor.
func (f BlendFactor) String() string {
	names := [...]string{"ZERO", "ONE", "SRC_COLOR", "INV_SRC_COLOR", "SRC_ALPHA", "INV_SRC_ALPHA",
		"DST_COLOR", "INV_DST_COLOR", "DST_ALPHA", "INV_DST_ALPHA", "CONST_COLOR", "INV_CONST_COLOR",
		"CONST_ALPHA", "INV_CONST_ALPHA", "SRC_ALPHA_SATURATE", "SRC1_COLOR", "INV_SRC1_COLOR",
		"SRC1_ALPHA", "INV_SRC1_ALPHA"}
	if int(f) < len(names) {
		return names[f]
	}
	return fmt.Sprintf("BlendFactor(%d)", uint8(f))
}

// DualSource reports whether f reads the second fragment colour output.
func (f BlendFactor) DualSource() bool { return f >= FactorSrc1Color && f <= FactorInvSrc1Alpha }

// BlendEquation is a Gallium-style blend function (PIPE_BLEND_*). spec: vortexpipe §3.7
type BlendEquation uint8

// The blend equations.
const (
	EqAdd BlendEquation = iota
	EqSubtract
	EqReverseSubtract
	EqMin
	EqMax
)

// String names the equation.
func (e BlendEquation) String() string {
	names := [...]string{"ADD", "SUBTRACT", "REVERSE_SUBTRACT", "MIN", "MAX"}
	if int(e) < len(names) {
		return names[e]
	}
	return fmt.Sprintf("BlendEquation(%d)", uint8(e))
}

// LogicOp is a Gallium-style logic op (PIPE_LOGICOP_*, the GL/Vulkan order, which
// differs from the OM's). spec: vortexpipe §3.7
type LogicOp uint8

// The logic ops in Gallium order.
const (
	LogicClear LogicOp = iota
	LogicNor
	LogicAndInverted
	LogicCopyInverted
	LogicAndReverse
	LogicInvert
	LogicXor
	LogicNand
	LogicAnd
	LogicEquiv
	LogicNoop
	LogicOrInverted
	LogicCopy
	LogicOrReverse
	LogicOr
	LogicSet
)

// String names the op.
func (o LogicOp) String() string {
	names := [...]string{"CLEAR", "NOR", "AND_INVERTED", "COPY_INVERTED", "AND_REVERSE", "INVERT",
		"XOR", "NAND", "AND", "EQUIV", "NOOP", "OR_INVERTED", "COPY", "OR_REVERSE", "OR", "SET"}
	if int(o) < len(names) {
		return names[o]
	}
	return fmt.Sprintf("LogicOp(%d)", uint8(o))
}

// Wrap is a Gallium-style texture wrap mode (PIPE_TEX_WRAP_*). spec: vortexpipe §3.6
type Wrap uint8

// The wrap modes. WrapClamp is GL's legacy GL_CLAMP (edge/border blend).
const (
	WrapRepeat Wrap = iota
	WrapClamp
	WrapClampToEdge
	WrapClampToBorder
	WrapMirrorRepeat
	WrapMirrorClamp
	WrapMirrorClampToEdge
	WrapMirrorClampToBorder
)

// String names the mode.
func (w Wrap) String() string {
	names := [...]string{"REPEAT", "CLAMP", "CLAMP_TO_EDGE", "CLAMP_TO_BORDER", "MIRROR_REPEAT",
		"MIRROR_CLAMP", "MIRROR_CLAMP_TO_EDGE", "MIRROR_CLAMP_TO_BORDER"}
	if int(w) < len(names) {
		return names[w]
	}
	return fmt.Sprintf("Wrap(%d)", uint8(w))
}

// Filter is a min/mag filter (PIPE_TEX_FILTER_*).
type Filter uint8

// The filters.
const (
	FilterNearest Filter = iota
	FilterLinear
)

// MipFilter is a mip filter (PIPE_TEX_MIPFILTER_*).
type MipFilter uint8

// The mip filters.
const (
	MipNone MipFilter = iota
	MipNearest
	MipLinear
)

// CullFace selects which faces the rasterizer discards (PIPE_FACE_*).
type CullFace uint8

// The cull modes.
const (
	CullNone CullFace = iota
	CullFront
	CullBack
	CullFrontAndBack
)

// PolygonMode is a fill mode (PIPE_POLYGON_MODE_*).
type PolygonMode uint8

// The fill modes.
const (
	PolygonFill PolygonMode = iota
	PolygonLine
	PolygonPoint
)

// PrimMode is a draw topology (MESA_PRIM_*). spec: vortexpipe §3.1
type PrimMode uint8

// The topologies.
const (
	PrimPoints PrimMode = iota
	PrimLines
	PrimLineLoop
	PrimLineStrip
	PrimTriangles
	PrimTriangleStrip
	PrimTriangleFan
	numPrimModes
)

// String names the topology.
func (m PrimMode) String() string {
	names := [...]string{"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"}
	if int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("PrimMode(%d)", uint8(m))
}

// Triangles reports whether m assembles triangles.
func (m PrimMode) Triangles() bool {
	return m == PrimTriangles || m == PrimTriangleStrip || m == PrimTriangleFan
}

// TextureTarget is a texture/view dimensionality (PIPE_TEXTURE_*, PIPE_BUFFER).
// spec: vortexpipe §3.6
type TextureTarget uint8

// The targets.
const (
	TargetBuffer TextureTarget = iota
	Target1D
	Target2D
	Target3D
	TargetCube
	TargetRect
	Target1DArray
	Target2DArray
	TargetCubeArray
)

// String names the target.
func (t TextureTarget) String() string {
	names := [...]string{"BUFFER", "1D", "2D", "3D", "CUBE", "RECT", "1D_ARRAY", "2D_ARRAY", "CUBE_ARRAY"}
	if int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("TextureTarget(%d)", uint8(t))
}

// ColorMask bits (PIPE_MASK_*): R, G, B, A.
const (
	MaskR uint8 = 1 << iota
	MaskG
	MaskB
	MaskA
	MaskRGBA = MaskR | MaskG | MaskB | MaskA
)
