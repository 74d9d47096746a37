package pipe

import "fmt"

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
	// PrimQuads, PrimQuadStrip and PrimPolygon are the compatibility
	// profile's filled polygons: both paths draw them as triangles in the
	// reference renderer's order (QuadList). spec: GL 2.1 §2.6.1
	PrimQuads
	PrimQuadStrip
	PrimPolygon
	// The adjacency topologies (GL 3.2): for a geometry shader; without one
	// the reference renderer draws their main vertices. spec: GL 4.6
	// §10.1.11-§10.1.14
	PrimLinesAdjacency
	PrimLineStripAdjacency
	PrimTrianglesAdjacency
	PrimTriangleStripAdjacency
	numPrimModes
)

// String names the topology.
func (m PrimMode) String() string {
	names := [...]string{"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN", "QUADS", "QUAD_STRIP", "POLYGON",
		"LINES_ADJACENCY", "LINE_STRIP_ADJACENCY", "TRIANGLES_ADJACENCY", "TRIANGLE_STRIP_ADJACENCY"}
	if int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("PrimMode(%d)", uint8(m))
}

// Triangles reports whether m assembles triangles (quads and polygons as
// triangles too).
func (m PrimMode) Triangles() bool {
	return m == PrimTriangles || m == PrimTriangleStrip || m == PrimTriangleFan || m.polygons()
}

// Adjacency reports whether m is one of the GL 3.2 adjacency topologies.
func (m PrimMode) Adjacency() bool { return m >= PrimLinesAdjacency && m <= PrimTriangleStripAdjacency }

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
