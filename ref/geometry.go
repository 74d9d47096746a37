package ref

import (
	"context"
	"fmt"
	"math"
)

// geomBatch is the most input primitives per geometry-shader call.
const geomBatch = 64

// GeometryShader is the geometry stage: it runs once per input primitive
// (InputPrimitive: Points, Lines, LinesAdjacency, Triangles or
// TrianglesAdjacency) and emits strips of OutputPrimitive (Points,
// LineStrip or TriangleStrip) whose vertices, of layout Layout, are
// clipped and rasterized as if a vertex shader had produced them.
// spec: GL 4.6 §11.3 (geometry shaders), §11.3.4.
type GeometryShader interface {
	InputPrimitive() Topology
	OutputPrimitive() Topology
	Layout() VertexLayout
	ShadePrimitives(b *GeometryBatch, tex Textures) error
}

// GeometryBatch is one geometry-shader call: N input primitives of Vertices
// vertices each in the vertex stage's layout In, vertex v of primitive p at
// record p*Vertices+v of the per-vertex arrays (lane-major as in
// VertexBatch), with their gl_PrimitiveIDIn. The shader appends what it
// emits to Out, in primitive order. The renderer owns and reuses every slice.
type GeometryBatch struct {
	N, Vertices int
	In          VertexLayout
	Position    [][4]float32
	Varyings    []uint32
	PointSize   []float32
	ClipDist    []float32
	PrimitiveID []int32
	Out         *GeometryOutput
}

// GeometryOutput collects the vertices a draw's geometry shader emits, in
// the shader's output Layout; Restart[i] marks vertex i as the first of a
// strip (the first vertex of an invocation and the first after
// EndPrimitive). spec: GLSL 1.50 §8.10.
type GeometryOutput struct {
	Layout    VertexLayout
	N         int
	Position  [][4]float32
	Varyings  []uint32
	PointSize []float32
	ClipDist  []float32
	Restart   []bool
}

// Add appends a zeroed vertex (position 0,0,0,1; point size ps) and
// returns its index.
func (o *GeometryOutput) Add(restart bool, ps float32) int {
	i := o.N
	o.N++
	o.Position = append(o.Position, [4]float32{0, 0, 0, 1})
	o.PointSize = append(o.PointSize, ps)
	o.Restart = append(o.Restart, restart)
	for range o.Layout.Varyings {
		o.Varyings = append(o.Varyings, 0)
	}
	for range o.Layout.ClipDistances {
		o.ClipDist = append(o.ClipDist, 0)
	}
	return i
}

func (o *GeometryOutput) reset() {
	o.N = 0
	o.Position, o.Varyings, o.PointSize, o.ClipDist, o.Restart = o.Position[:0], o.Varyings[:0], o.PointSize[:0], o.ClipDist[:0], o.Restart[:0]
}

// geometryAccepts reports whether a draw of topology top may feed a
// geometry shader taking in. spec: GL 4.6 §11.3.1 (table 11.1): otherwise
// the draw is an INVALID_OPERATION.
func geometryAccepts(in, top Topology) bool {
	switch in {
	case Points:
		return top == Points
	case Lines:
		return top == Lines || top == LineStrip || top == LineLoop
	case LinesAdjacency:
		return top == LinesAdjacency || top == LineStripAdjacency
	case Triangles:
		return top == Triangles || top == TriangleStrip || top == TriangleFan
	case TrianglesAdjacency:
		return top == TrianglesAdjacency || top == TriangleStripAdjacency
	}
	return false
}

// layoutOnly is the vertex stage of the drawer that rasterizes a geometry
// shader's output: it only carries the layout (the vertices are the
// geometry shader's).
type layoutOnly VertexLayout

func (l layoutOnly) Layout() VertexLayout                       { return VertexLayout(l) }
func (l layoutOnly) ShadeVertices(*VertexBatch, Textures) error { return nil }

// drawGeometry is Draw with a geometry stage: the vertex stage shades the
// draw's vertices, the input primitives are assembled (with adjacency) and
// run through the geometry shader in order, with gl_PrimitiveIDIn counting
// them from 0 in each instance (GL 4.6 §11.3.4.5), and the emitted strips
// are clipped and rasterized by a second drawer whose vertex layout is the
// geometry shader's, in emission order.
func drawGeometry(ctx context.Context, t *Target, s *State, in VertexInput, p DrawParams) error {
	g := s.Geometry
	gin, gout := g.InputPrimitive(), g.OutputPrimitive()
	if gin != Points && gin != Lines && gin != LinesAdjacency && gin != Triangles && gin != TrianglesAdjacency {
		return fmt.Errorf("%w: geometry input primitive %d", ErrBadDraw, gin)
	}
	if gout != Points && gout != LineStrip && gout != TriangleStrip {
		return fmt.Errorf("%w: geometry output primitive %d", ErrBadDraw, gout)
	}
	if !geometryAccepts(gin, p.Topology) {
		return fmt.Errorf("%w: topology %d cannot feed a geometry shader taking primitive %d (GL 4.6 §11.3.1)", ErrBadDraw, p.Topology, gin)
	}
	// The vertex stage: its own layout, nothing rasterized.
	vst := *s
	vst.Geometry, vst.Fragment, vst.Interp, vst.TwoSided, vst.TwoSide, vst.RasterizerDiscard = nil, nil, nil, false, nil, true
	vb := drawBufPool.Get().(*drawBufs)
	defer drawBufPool.Put(vb)
	vd, elems, err := newDrawer(ctx, t, &vst, in, p, vb)
	if err != nil {
		return err
	}
	workers := min(max(s.Workers, 1), maxWorkers)
	ids, slot := vb.uniqueVertices(elems, workers)
	if err := checkVertexIDs(in, ids); err != nil {
		return err
	}
	n := len(ids)
	vb.pos, vb.vary, vb.psize, vb.cdist = grow(vb.pos, n), grow(vb.vary, n*vd.vw), grow(vb.psize, n), grow(vb.cdist, n*vd.layout.ClipDistances)
	vd.pos, vd.vary, vd.psize, vd.cdist = vb.pos, vb.vary, vb.psize, vb.cdist
	vs := newVertexStage(vd, in, n, workers)

	// The rasterizing drawer: the geometry shader's layout.
	glay := g.Layout()
	rst := *s
	rst.Vertex, rst.Geometry = layoutOnly(glay), nil
	rb := drawBufPool.Get().(*drawBufs)
	defer drawBufPool.Put(rb)
	rd, _, err := newDrawer(ctx, t, &rst, VertexInput{}, DrawParams{Topology: gout}, rb)
	if err != nil {
		return err
	}
	k := gin.vertices()
	out := &GeometryOutput{Layout: glay}
	gb := &GeometryBatch{Vertices: k, In: vd.layout, Out: out,
		Position: make([][4]float32, geomBatch*k), Varyings: make([]uint32, geomBatch*k*vd.vw),
		PointSize: make([]float32, geomBatch*k), ClipDist: make([]float32, geomBatch*k*vd.layout.ClipDistances),
		PrimitiveID: make([]int32, geomBatch)}
	var prims []int32 // k slots per input primitive
	var outSlot []int32
	var ws []*drawer
	last := s.Provoking == ProvokingLast
	for inst := range max(p.Instances, 1) {
		ii := p.BaseInstance + inst
		if in.InstanceWords > 0 && (ii+1)*in.InstanceWords > len(in.InstanceData) {
			return fmt.Errorf("%w: instance %d outside the instance data (%d words of %d per instance)", ErrBadDraw, ii, len(in.InstanceData), in.InstanceWords)
		}
		if err := vs.shade(vd, in, ids, inst, ii); err != nil {
			return err
		}
		prims = geometryPrimitives(prims[:0], p.Topology, slot, last)
		out.reset()
		for base := 0; base*k < len(prims); base += geomBatch {
			if err := ctx.Err(); err != nil {
				return err
			}
			cnt := min(geomBatch, len(prims)/k-base)
			vd.fillGeometryBatch(gb, prims[base*k:(base+cnt)*k], base)
			gb.N = cnt
			if err := g.ShadePrimitives(gb, vd.tex); err != nil {
				return fmt.Errorf("ref: geometry shader, instance %d: %w", inst, err)
			}
		}
		if !glay.PointSize {
			for i := range out.PointSize {
				out.PointSize[i] = s.PointSize
			}
		}
		if s.RasterizerDiscard {
			continue
		}
		outSlot = outSlot[:0]
		for i := 0; i < out.N; i++ {
			if out.Restart[i] && i > 0 {
				outSlot = append(outSlot, -1)
			}
			outSlot = append(outSlot, int32(i))
		}
		if ws == nil {
			ws = rd.workers(ctx, workers)
		}
		for _, w := range ws {
			w.pos, w.vary, w.psize, w.cdist = out.Position, out.Varyings, out.PointSize, out.ClipDist
		}
		if err := rd.shade(ws, gout, outSlot); err != nil {
			return err
		}
	}
	return rd.flush()
}

// checkVertexIDs rejects vertex ids outside the vertex data.
func checkVertexIDs(in VertexInput, ids []int64) error {
	for _, id := range ids {
		if id < 0 || id > math.MaxInt32 || (in.Words > 0 && (id+1)*int64(in.Words) > int64(len(in.Data))) {
			return fmt.Errorf("%w: vertex %d outside the vertex data (%d words of %d per vertex)", ErrBadDraw, id, len(in.Data), in.Words)
		}
	}
	return nil
}

// fillGeometryBatch copies the post-vertex-shader records of the primitives'
// vertex slots into b, the first being primitive number first.
func (d *drawer) fillGeometryBatch(b *GeometryBatch, slots []int32, first int) {
	vw, cd := d.vw, d.layout.ClipDistances
	for j, s := range slots {
		b.Position[j] = d.pos[s]
		copy(b.Varyings[j*vw:(j+1)*vw], d.vary[int(s)*vw:(int(s)+1)*vw])
		b.PointSize[j] = d.psize[s]
		copy(b.ClipDist[j*cd:(j+1)*cd], d.cdist[int(s)*cd:(int(s)+1)*cd])
	}
	for j := 0; j < len(slots)/b.Vertices; j++ {
		b.PrimitiveID[j] = int32(first + j)
	}
}

// vertices is the number of vertices of a geometry input primitive.
func (t Topology) vertices() int {
	switch t {
	case Points:
		return 1
	case Lines:
		return 2
	case LinesAdjacency:
		return 4
	case Triangles:
		return 3
	case TrianglesAdjacency:
		return 6
	}
	return 0
}

// geometryPrimitives appends the slots of each input primitive of a draw
// to dst in draw order (restarts split strips): for the plain topologies the
// vertices assemble gives, a triangle rotated (keeping its winding) so that
// its provoking vertex comes first or last as the convention says — the
// position the provoking vertex of the geometry shader's output takes, so a
// pass-through shader flat-shades as the draw without it does (the order
// llvmpipe presents strips and fans in); for the adjacency topologies all of
// a primitive's vertices in GL's order (adjacencyPrimitives).
func geometryPrimitives(dst []int32, top Topology, slot []int32, last bool) []int32 {
	switch top {
	case LinesAdjacency, LineStripAdjacency, TrianglesAdjacency, TriangleStripAdjacency:
		adjacencyPrimitives(top, slot, func(v []int32, _ bool) {
			dst = append(dst, v...)
		})
		return dst
	}
	// assemble's callbacks cannot fail here.
	_ = assemble(top, slot, last, nil, func(n int, v [3]int32, prov int32, _ bool, _ uint8) error {
		if n == 3 {
			switch {
			case !last && v[1] == prov, last && v[2] != prov && v[0] == prov:
				v = [3]int32{v[1], v[2], v[0]}
			case !last && v[2] == prov && v[0] != prov, last && v[1] == prov && v[2] != prov:
				v = [3]int32{v[2], v[0], v[1]}
			}
		}
		dst = append(dst, v[:n]...)
		return nil
	})
	return dst
}

// adjacencyPrimitives calls emit with the vertex slots of each primitive of
// an adjacency topology, in the order a geometry shader receives them
// (gl_in[0..3] of a line: adjacent, end, end, adjacent; gl_in[0..5] of a
// triangle: vertex, adjacent to edge 0-2, vertex, adjacent to edge 2-4,
// vertex, adjacent to edge 4-0); odd marks the odd triangles of a strip
// (whose first two vertices are swapped to keep the winding).
// spec: GL 4.6 §10.1.11 (lines with
// adjacency: vertices 4i..4i+3), §10.1.12 (line strips with adjacency:
// segment i is vertices i..i+3), §10.1.13 (triangles with adjacency:
// vertices 6i..6i+5), §10.1.14 and table 10.1 (triangle strips with
// adjacency).
func adjacencyPrimitives(top Topology, slot []int32, emit func(v []int32, odd bool)) {
	var buf [6]int32
	for start := 0; start < len(slot); {
		end := start
		for end < len(slot) && slot[end] >= 0 {
			end++
		}
		r := slot[start:end]
		n := len(r)
		switch top {
		case LinesAdjacency:
			for i := 0; i+3 < n; i += 4 {
				emit(r[i:i+4], false)
			}
		case LineStripAdjacency:
			for i := 0; i+3 < n; i++ {
				emit(r[i:i+4], false)
			}
		case TrianglesAdjacency:
			for i := 0; i+5 < n; i += 6 {
				emit(r[i:i+6], false)
			}
		case TriangleStripAdjacency:
			nt := 0
			if n >= 6 {
				nt = (n - 4) / 2
			}
			for i := 0; i < nt; i++ {
				// Table 10.1, with 1-based vertex numbers j converted
				// to r[j-1]; columns 1st, 2nd, 3rd, adjacent 1/2, 2/3, 3/1.
				v := func(j int) int32 { return r[j-1] }
				var t [6]int
				switch {
				case nt == 1:
					t = [6]int{1, 3, 5, 2, 6, 4}
				case i == 0:
					t = [6]int{1, 3, 5, 2, 7, 4}
				case i == nt-1 && i%2 == 1:
					t = [6]int{2*i + 3, 2*i + 1, 2*i + 5, 2*i - 1, 2*i + 4, 2*i + 6}
				case i == nt-1:
					t = [6]int{2*i + 1, 2*i + 3, 2*i + 5, 2*i - 1, 2*i + 6, 2*i + 4}
				case i%2 == 1:
					t = [6]int{2*i + 3, 2*i + 1, 2*i + 5, 2*i - 1, 2*i + 4, 2*i + 7}
				default:
					t = [6]int{2*i + 1, 2*i + 3, 2*i + 5, 2*i - 1, 2*i + 7, 2*i + 4}
				}
				// gl_in order: 1st, adj 1/2, 2nd, adj 2/3, 3rd, adj 3/1.
				buf = [6]int32{v(t[0]), v(t[3]), v(t[1]), v(t[4]), v(t[2]), v(t[5])}
				emit(buf[:], i%2 == 1 && nt > 1)
			}
		}
		start = end + 1
	}
}
