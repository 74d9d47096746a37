package ref

import (
	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
	"vortexgfx/gl/logicop"
	"vortexgfx/gl/stencil"
)

// Topology is the primitive type of a draw.
type Topology uint8

// Primitive topologies.
const (
	Points Topology = iota
	Lines
	LineStrip
	LineLoop
	Triangles
	TriangleStrip
	TriangleFan
	Quads     // legacy GL: each 4 vertices, split into two triangles of one primitive
	QuadStrip // legacy GL: quad i is vertices 2i, 2i+1, 2i+3, 2i+2
	Polygon   // legacy GL: one convex polygon, fanned from its first vertex
	// The adjacency topologies (GL 4.6 §10.1.11-§10.1.14): primitives with
	// adjacent vertices for a geometry shader; without one only their main
	// vertices are drawn, as lines or triangles.
	LinesAdjacency
	LineStripAdjacency
	TrianglesAdjacency
	TriangleStripAdjacency
)

// IndexType is the index size of an indexed draw.
type IndexType uint8

// Index types; IndexNone draws First..First+Count-1.
const (
	IndexNone IndexType = iota
	Index8
	Index16
	Index32
)

// CullMode selects which faces are culled.
// spec: software-shader-backend "Culling and viewport gaps" (the ignored cull flag).
type CullMode uint8

// Cull modes.
const (
	CullNone CullMode = iota
	CullFront
	CullBack
	CullFrontAndBack
)

// FrontFace says which winding is front-facing: CCW means a positive signed
// area in window coordinates with x to the right and y increasing with the
// row index read as "up" (GL's convention; a Vulkan front end flips it).
type FrontFace uint8

// Front-face windings.
const (
	FrontCCW FrontFace = iota
	FrontCW
)

// ProvokingVertex selects the vertex flat varyings come from.
// spec: vortexpipe-driver §3.2 (the provoking vertex's words, copied verbatim).
type ProvokingVertex uint8

// Provoking vertex conventions (GL default: last).
const (
	ProvokingLast ProvokingVertex = iota
	ProvokingFirst
)

// Interp is a varying word's interpolation qualifier.
type Interp uint8

// Interpolation qualifiers.
const (
	Smooth        Interp = iota // perspective-correct
	Flat                        // the provoking vertex's word, copied bit-exactly
	NoPerspective               // linear in window space
)

// Viewport maps normalized device coordinates to window coordinates:
// xw = X + (x+1)W/2, yw = Y + (y+1)H/2, and zw = MinDepth +
// (MaxDepth-MinDepth)(z+1)/2 (GL) or MinDepth + (MaxDepth-MinDepth)z
// (Vulkan, State.ClipZeroToOne). H may be negative (a y-flipped viewport,
// VK_KHR_maintenance1); facing is then judged on the flipped positions.
type Viewport struct {
	X, Y, W, H         float32
	MinDepth, MaxDepth float32
}

// Rect is an integer pixel rectangle.
type Rect struct{ X, Y, W, H int }

// StencilFace is the stencil state of one facing.
// spec: software-shader-backend "Current limitations" (no stencil); vortexpipe-driver §3.7.
type StencilFace struct {
	Func                compare.Func
	Ref                 uint8
	ReadMask, WriteMask uint8
	Fail, DepthFail     stencil.Op
	Pass                stencil.Op
}

// DepthState is the depth test state.
// spec: software-shader-backend "Persistent depth semantics" (depth disable honoured here).
type DepthState struct {
	Test  bool
	Func  compare.Func
	Write bool
	// Clamp disables near/far clipping and clamps fragment depth to the
	// depth range (GL DEPTH_CLAMP).
	Clamp bool
	// BoundsTest discards fragments whose stored depth is outside
	// [BoundsMin, BoundsMax] (EXT_depth_bounds_test).
	BoundsTest           bool
	BoundsMin, BoundsMax float32
}

// DepthBias is polygon offset (GL POLYGON_OFFSET_FILL, Vulkan depth bias):
// each fragment of a triangle gets o = Slope*m + Constant*r added to its
// window depth, where m is the larger of |dz/dx| and |dz/dy| of the
// triangle's plane and r the depth format's resolution (1/(2^n-1) for n-bit
// unorm; 2^(e-23) for float depth with e the exponent of the triangle's
// largest |z|; 2^-24 without a depth attachment). A nonzero Clamp bounds o
// (min for positive, max for negative clamps). Enable offsets filled
// triangles (POLYGON_OFFSET_FILL); Line and Point offset the lines and
// points of a triangle's LINE and POINT polygon mode face by its polygon's
// o (POLYGON_OFFSET_LINE, POLYGON_OFFSET_POINT). Line and point
// primitives are never offset. spec: GL 4.6 §14.6.5
type DepthBias struct {
	Enable                 bool
	Line, Point            bool
	Constant, Slope, Clamp float32
}

// PolygonMode is how a face of a polygon is rasterized (glPolygonMode):
// filled, as its boundary edges drawn as lines, or as the vertices that
// start a boundary edge drawn as points. spec: GL 4.6 §14.6.4
type PolygonMode uint8

// The polygon modes; the zero value fills.
const (
	PolygonFill PolygonMode = iota
	PolygonLine
	PolygonPoint
)

// BlendState is one render target's blend state and write mask.
// spec: software-shader-backend "Current limitations" (no blending); vortexpipe-driver §3.7.
type BlendState struct {
	Enable                             bool
	SrcRGB, DstRGB, SrcAlpha, DstAlpha blend.Factor
	EqRGB, EqAlpha                     blend.Equation
	WriteMask                          uint8 // bit 0 R, 1 G, 2 B, 3 A
}

// fn is b's blend function.
func (b *BlendState) fn() blend.Func {
	return blend.Func{EqRGB: b.EqRGB, EqAlpha: b.EqAlpha, SrcRGB: b.SrcRGB, DstRGB: b.DstRGB, SrcAlpha: b.SrcAlpha, DstAlpha: b.DstAlpha}
}

// TwoSide names a pair of varying ranges for two-sided colour
// (GL_VERTEX_PROGRAM_TWO_SIDE): on back-facing triangles the fragment
// shader's words Front..Front+Words-1 receive the vertex words Back..
type TwoSide struct {
	Front, Back, Words int
}

// State is all fixed-function state of a draw, plus the shaders.
// spec: software-shader-backend "Culling and viewport gaps", "Persistent
// depth semantics": every field here is honoured.
type State struct {
	Vertex VertexShader
	// Geometry is the optional geometry stage between the vertex stage and
	// clipping (nil: none). With one, Interp, TwoSide and the fragment
	// inputs describe its output vertices. spec: GL 4.6 §11.3.
	Geometry GeometryShader
	Fragment FragmentShader
	Textures []TextureBinding

	Viewport      Viewport
	ClipZeroToOne bool  // Vulkan's 0 <= z <= w clip volume instead of GL's -w <= z <= w
	ClipDistances uint8 // enabled user clip distances (bit i: gl_ClipDistance[i])

	Cull      CullMode
	FrontFace FrontFace
	// PolygonFront and PolygonBack are the polygon modes of front- and
	// back-facing triangles (quads and polygons included), applied after
	// facing and culling. spec: GL 4.6 §14.6.4
	PolygonFront, PolygonBack PolygonMode
	Provoking                 ProvokingVertex
	// TwoSided enables two-sided colour selection over the TwoSide ranges.
	TwoSided bool
	TwoSide  []TwoSide
	// Interp gives each varying word's qualifier; missing entries are Smooth.
	Interp []Interp

	PrimitiveRestart bool
	RestartIndex     uint32
	// RasterizerDiscard runs the vertex stage only (GL RASTERIZER_DISCARD).
	RasterizerDiscard bool

	PointSize        float32 // used when the shader does not write gl_PointSize
	PointOriginLower bool    // gl_PointCoord origin lower-left (default upper-left)
	LineWidth        float32

	ScissorTest bool
	Scissor     Rect

	AlphaTest bool
	AlphaFunc compare.Func
	AlphaRef  float32

	Depth        DepthState
	DepthBias    DepthBias
	StencilTest  bool
	StencilFront StencilFace
	StencilBack  StencilFace

	Blend         [MaxRenderTargets]BlendState
	BlendConstant [4]float32
	LogicOpEnable bool
	LogicOp       logicop.Op

	// Workers > 1 rasterizes and shades fragments on that many goroutines
	// (at most 64), each owning interleaved bands of 16 rows and walking
	// every primitive in order; the result is bit-identical to Workers <= 1
	// (serial). A vertex shader that clones (VertexCloner) shades runs of
	// the draw's vertices concurrently too. See FragmentCloner.
	Workers int
}

// DefaultState returns GL's initial state for a w x h target: full viewport
// and depth range [0,1], no culling, CCW front faces, last provoking vertex,
// depth test off (LESS, writes on), stencil off (ALWAYS, masks 0xFF, KEEP),
// blending off (ONE, ZERO, ADD), all colour channels written, point size
// and line width 1.
func DefaultState(w, h int) State {
	s := State{
		Viewport:  Viewport{W: float32(w), H: float32(h), MaxDepth: 1},
		PointSize: 1, LineWidth: 1,
		AlphaFunc: compare.Always,
		Depth:     DepthState{Func: compare.Less, Write: true, BoundsMax: 1},
		Scissor:   Rect{W: w, H: h},
	}
	sf := StencilFace{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF}
	s.StencilFront, s.StencilBack = sf, sf
	for i := range s.Blend {
		s.Blend[i] = BlendState{SrcRGB: blend.One, SrcAlpha: blend.One, DstRGB: blend.Zero, DstAlpha: blend.Zero, WriteMask: 0xF}
	}
	return s
}

// VertexInput is the attribute data of a draw: Words words per vertex
// (vertex-major) and InstanceWords words per instance (divisor 1).
type VertexInput struct {
	Words         int
	Data          []uint32
	InstanceWords int
	InstanceData  []uint32
}

// DrawParams are the parameters of one draw call.
type DrawParams struct {
	Topology Topology
	// First and Count select the vertices (non-indexed) or the indices.
	First, Count int
	IndexType    IndexType
	Indices      []byte // little-endian indices
	BaseVertex   int32
	// Instances is the instance count (0 is treated as 1).
	Instances    int
	BaseInstance int
}

// FixedRestartIndex returns the all-ones restart index of an index type
// (GL_PRIMITIVE_RESTART_FIXED_INDEX, Vulkan).
func FixedRestartIndex(t IndexType) uint32 {
	switch t {
	case Index8:
		return 0xFF
	case Index16:
		return 0xFFFF
	}
	return 0xFFFFFFFF
}
