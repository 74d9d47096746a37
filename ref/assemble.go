package ref

import "math"

// assemble splits the element slots at restarts and emits each run's
// primitives with their provoking vertex (GL 4.6 §10.1, table 13.2;
// GL 2.1 §2.6.1 for quads and polygons): n = 1 for points, 2 for lines, 3
// for triangles; odd strip triangles swap their first two vertices to keep
// the winding. Quads and polygons are emitted as fans of triangles, those
// after the first with cont set: they continue the same primitive. When cull
// is not nil, a primitive it reports (given all of the primitive's vertices:
// a quad's four, a polygon's every one) is emitted once with n = 0, so it
// keeps its place in the primitive numbering. edges gives, per triangle,
// which of its edges are its polygon's boundary edges (bit k: vertex k to
// k+1 mod 3), for the polygon modes: every edge but a quad's or polygon's
// fan diagonals (GL 2.1 §2.6.2, edge flags).
//
// The adjacency topologies without a geometry shader draw only their main
// vertices: a line's two inner vertices, a triangle's vertices 0, 2, 4, with
// the provoking vertex of GL 4.6 table 13.2 (lines: 4i+2 / 4i+3 and i+2 /
// i+3, triangles: 6i+1 / 6i+5 and, for strips, 2i+1 / 2i+5, counted from 1).
func assemble(top Topology, slot []int32, last bool, cull func(v []int32) bool, emit func(n int, v [3]int32, prov int32, cont bool, edges uint8) error) error {
	// cv holds the vertices cull sees: slicing a parameter or loop array
	// for the call would move that array to the heap once per primitive.
	var cv [4]int32
	// emitPrim emits one primitive of up to three vertices, or its discard.
	emitPrim := func(n int, v [3]int32, prov int32) error {
		if cull != nil {
			copy(cv[:], v[:n])
			if cull(cv[:n]) {
				return emit(0, v, prov, false, 0)
			}
		}
		return emit(n, v, prov, false, 0b111)
	}
	switch top {
	case LinesAdjacency, LineStripAdjacency, TrianglesAdjacency, TriangleStripAdjacency:
		var err error
		adjacencyPrimitives(top, slot, func(v []int32, odd bool) {
			if err != nil {
				return
			}
			if len(v) == 4 {
				err = emitPrim(2, [3]int32{v[1], v[2]}, pick(last, v[1], v[2]))
				return
			}
			prov := pick(last, v[0], v[4])
			if odd && !last {
				// 2i+1 counted from 1 is an odd strip triangle's second vertex.
				prov = v[2]
			}
			err = emitPrim(3, [3]int32{v[0], v[2], v[4]}, prov)
		})
		return err
	}
	for start := 0; start < len(slot); {
		end := start
		for end < len(slot) && slot[end] >= 0 {
			end++
		}
		r := slot[start:end]
		n := len(r)
		var err error
		switch top {
		case Points:
			for i := 0; i < n && err == nil; i++ {
				err = emitPrim(1, [3]int32{r[i]}, r[i])
			}
		case Lines, LineStrip, LineLoop:
			step, cnt := 1, n-1
			if top == Lines {
				step, cnt = 2, n/2
			}
			for i := 0; i < cnt && err == nil; i++ {
				a, b := r[i*step], r[i*step+1]
				err = emitPrim(2, [3]int32{a, b}, pick(last, a, b))
			}
			if top == LineLoop && n >= 2 && err == nil {
				err = emitPrim(2, [3]int32{r[n-1], r[0]}, pick(last, r[n-1], r[0]))
			}
		case Triangles:
			for i := 0; i+2 < n && err == nil; i += 3 {
				err = emitPrim(3, [3]int32{r[i], r[i+1], r[i+2]}, pick(last, r[i], r[i+2]))
			}
		case TriangleStrip:
			for i := 0; i+2 < n && err == nil; i++ {
				if i%2 == 0 {
					err = emitPrim(3, [3]int32{r[i], r[i+1], r[i+2]}, pick(last, r[i], r[i+2]))
				} else {
					err = emitPrim(3, [3]int32{r[i+1], r[i], r[i+2]}, pick(last, r[i], r[i+2]))
				}
			}
		case TriangleFan:
			for i := 0; i+2 < n && err == nil; i++ {
				err = emitPrim(3, [3]int32{r[0], r[i+1], r[i+2]}, pick(last, r[i+1], r[i+2]))
			}
		case Quads, QuadStrip:
			step := 4
			if top == QuadStrip {
				step = 2
			}
			for i := 0; i+3 < n && err == nil; i += step {
				q := [4]int32{r[i], r[i+1], r[i+2], r[i+3]}
				if top == QuadStrip {
					q[2], q[3] = r[i+3], r[i+2]
				}
				prov := pick(last, r[i], r[i+3])
				if cull != nil && func() bool { cv = q; return cull(cv[:]) }() {
					err = emit(0, [3]int32{}, prov, false, 0)
					continue
				}
				// (q0, q1, q2): q0q1, q1q2; (q0, q2, q3): q2q3, q3q0.
				if err = emit(3, [3]int32{q[0], q[1], q[2]}, prov, false, 0b011); err == nil {
					err = emit(3, [3]int32{q[0], q[2], q[3]}, prov, true, 0b110)
				}
			}
		case Polygon:
			if n >= 3 && cull != nil && cull(r) {
				err = emit(0, [3]int32{}, r[0], false, 0)
				break
			}
			for i := 0; i+2 < n && err == nil; i++ {
				// (r0, ri+1, ri+2): ri+1 ri+2 always, r0 r1 for the
				// first, rn-1 r0 for the last.
				e := uint8(0b010)
				if i == 0 {
					e |= 0b001
				}
				if i+3 == n {
					e |= 0b100
				}
				err = emit(3, [3]int32{r[0], r[i+1], r[i+2]}, r[0], i > 0, e)
			}
		}
		if err != nil {
			return err
		}
		start = end + 1
	}
	return nil
}

// primitive renders one assembled primitive; cont continues the previous
// primitive (same gl_PrimitiveID); edges are a triangle's boundary edges.
func (d *drawer) primitive(n int, v [3]int32, prov int32, cont bool, edges uint8) error {
	if cont {
		d.primID--
	}
	id := d.primID
	d.primID++
	var err error
	switch n {
	case 0:
		return nil // discarded by its cull distances, numbered all the same
	case 1:
		err = d.point(v[0], id)
	case 2:
		err = d.line(v[0], v[1], prov, id)
	default:
		err = d.triangle(v[0], v[1], v[2], prov, id, edges)
	}
	if err != nil {
		return err
	}
	return d.fetchFlush()
}

func pick(last bool, first, lastV int32) int32 {
	if last {
		return lastV
	}
	return first
}

// culler returns the draw's cull-distance test for assemble (nil when the
// vertex stage writes no gl_CullDistance).
func (d *drawer) culler() func([]int32) bool {
	if d.layout.CullDistances == 0 {
		return nil
	}
	return d.cullDistanced
}

// cullDistanced reports whether one gl_CullDistance entry is negative at every
// vertex of the primitive: ARB_cull_distance discards it before clipping (a
// NaN distance is not negative). The primitive keeps its gl_PrimitiveID
// number. spec: ARB_cull_distance; GL 4.6 §13.7
func (d *drawer) cullDistanced(v []int32) bool {
	w0 := d.layout.CullWord
	for k := 0; k < d.layout.CullDistances; k++ {
		out := true
		for _, s := range v {
			if !(math.Float32frombits(d.vary[int(s)*d.vw+w0+k]) < 0) {
				out = false
				break
			}
		}
		if out {
			return true
		}
	}
	return false
}
