package ir

import "fmt"

// Prim is a geometry shader's input or output primitive type.
type Prim uint8

// Primitive types: the five input primitives of a geometry shader and its
// three output primitives. spec: GLSL 1.50 §4.3.8.1, §4.3.8.2; GL 4.6 §11.3.1.
const (
	PrimNone Prim = iota
	PrimPoints
	PrimLines
	PrimLinesAdjacency
	PrimTriangles
	PrimTrianglesAdjacency
	PrimLineStrip
	PrimTriangleStrip
)

var primNames = [...]string{"none", "points", "lines", "lines_adjacency", "triangles", "triangles_adjacency", "line_strip", "triangle_strip"}

func (p Prim) String() string {
	if int(p) < len(primNames) {
		return primNames[p]
	}
	return "prim?"
}

// PrimByName returns the primitive with the GLSL layout name (as String prints it).
func PrimByName(name string) (Prim, bool) {
	for i, n := range primNames {
		if i > 0 && n == name {
			return Prim(i), true
		}
	}
	return PrimNone, false
}

// Vertices returns the number of vertices of an input primitive (the size of
// a geometry shader's per-vertex input arrays), 0 for an output primitive.
// spec: GLSL 1.50 §4.3.8.1.
func (p Prim) Vertices() int {
	switch p {
	case PrimPoints:
		return 1
	case PrimLines:
		return 2
	case PrimLinesAdjacency:
		return 4
	case PrimTriangles:
		return 3
	case PrimTrianglesAdjacency:
		return 6
	}
	return 0
}

// IsOutput reports whether p is a geometry shader output primitive.
func (p Prim) IsOutput() bool {
	return p == PrimPoints || p == PrimLineStrip || p == PrimTriangleStrip
}

// MaxGeometryVertices bounds GeometryLayout.MaxVertices: the executor keeps
// that many output records per lane. (GLSL's gl_MaxGeometryOutputVertices is
// 256; the IR allows more for hand-built programs.)
const MaxGeometryVertices = 1024

// GeometryLayout describes a geometry program. Its input buffer holds the
// In.Vertices() vertices of one input primitive, vertex v's word w at input
// word v*VertexWords + w, followed by gl_PrimitiveIDIn at word
// In.Vertices()*VertexWords (the program's Inputs name the words it reads).
// Each Emit appends the current output words (OutputWords of them) to the
// lane's list of emitted vertices, up to MaxVertices; later emits are
// dropped (GL 4.6 §11.3.4: emits beyond the declared maximum "may have no
// effect"; here they never have one). EndPrim ends the current
// strip of Out. spec: GLSL 1.50 §4.3.8.2, §8.10; GL 4.6 §11.3.4.
type GeometryLayout struct {
	In          Prim
	Out         Prim
	MaxVertices uint32
	VertexWords uint32
	// Invocations is the number of invocations per input primitive
	// (layout(invocations = N), ARB_gpu_shader5); 0 or 1 for one. With more
	// than one, or when the program reads gl_InvocationID, the input word
	// after gl_PrimitiveIDIn holds the invocation number.
	// spec: ARB_gpu_shader5 §4.3.8.1, GL 4.6 §11.3.4.2 (instanced geometry shaders)
	Invocations uint32
}

// MaxGeometryInvocations bounds GeometryLayout.Invocations.
const MaxGeometryInvocations = 32

// PrimitiveIDWord returns the input word holding gl_PrimitiveIDIn.
func (g *GeometryLayout) PrimitiveIDWord() int { return g.In.Vertices() * int(g.VertexWords) }

// InvocationIDWord returns the input word holding gl_InvocationID (present
// when the program's InputWords reach it).
func (g *GeometryLayout) InvocationIDWord() int { return g.PrimitiveIDWord() + 1 }

// NumInvocations returns the invocations per input primitive (at least 1).
func (g *GeometryLayout) NumInvocations() int { return max(int(g.Invocations), 1) }

// verifyGeometry checks a geometry program's layout against its buffers.
func verifyGeometry(p *Program) error {
	if p.Stage != Geometry {
		return nil
	}
	g := &p.Geometry
	if g.In.Vertices() == 0 || !g.Out.IsOutput() {
		return &Error{PC: -1, Msg: fmt.Sprintf("geometry: input %s / output %s is not an input / output primitive", g.In, g.Out)}
	}
	if g.Invocations > MaxGeometryInvocations {
		return &Error{PC: -1, Msg: fmt.Sprintf("geometry: %d invocations exceed %d", g.Invocations, MaxGeometryInvocations)}
	}
	if g.MaxVertices > MaxGeometryVertices {
		return &Error{PC: -1, Msg: fmt.Sprintf("geometry: max_vertices %d exceeds %d", g.MaxVertices, MaxGeometryVertices)}
	}
	if need := uint64(g.In.Vertices())*uint64(g.VertexWords) + 1; uint64(p.InputWords) < need {
		return &Error{PC: -1, Msg: fmt.Sprintf("geometry: %d input words, %s needs %d (%d per vertex and gl_PrimitiveIDIn)",
			p.InputWords, g.In, need, g.VertexWords)}
	}
	return nil
}
