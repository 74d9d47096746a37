package pipe

// Quads, quad strips and polygons (GL 2.1 §2.6.1): the device draws them as
// the triangles the reference renderer assembles them into, so windings and
// the quads' diagonals agree on both paths.

// polygons reports whether m is one of the compatibility profile's filled
// polygons (quads, quad strip, polygon).
func (m PrimMode) polygons() bool { return m == PrimQuads || m == PrimQuadStrip || m == PrimPolygon }

// appendPolygons appends the triangles of one run v (no restart inside) of
// quads, a quad strip or a polygon to out, in ref's order: quad i is
// (q0,q1,q2)+(q0,q2,q3), a quad strip's quad being vertices 2i, 2i+1, 2i+3,
// 2i+2, and a polygon fans from its first vertex. An incomplete quad is
// dropped. spec: GL 2.1 §2.6.1
func appendPolygons(out []uint32, mode PrimMode, v []uint32) []uint32 {
	n := len(v)
	switch mode {
	case PrimQuads, PrimQuadStrip:
		step := 4
		if mode == PrimQuadStrip {
			step = 2
		}
		for i := 0; i+3 < n; i += step {
			q := [4]uint32{v[i], v[i+1], v[i+2], v[i+3]}
			if mode == PrimQuadStrip {
				q[2], q[3] = v[i+3], v[i+2]
			}
			out = append(out, q[0], q[1], q[2], q[0], q[2], q[3])
		}
	case PrimPolygon:
		for i := 1; i+1 < n; i++ {
			out = append(out, v[0], v[i], v[i+1])
		}
	}
	return out
}

// polygonCount is the primitives a draw of quads, a quad strip or a
// polygon generates (a quad or a polygon each, per restart run), for the
// primitives-generated query. spec: GL 4.6 §13.4 (primitive queries)
func polygonCount(mode PrimMode, v []uint32, restart bool, restartIndex uint32) int {
	n := 0
	for seg := 0; seg <= len(v); {
		end := len(v)
		if restart {
			end = seg
			for end < len(v) && v[end] != restartIndex {
				end++
			}
		}
		k := end - seg
		switch mode {
		case PrimQuads:
			n += k / 4
		case PrimQuadStrip:
			n += max(k-2, 0) / 2
		case PrimPolygon:
			if k >= 3 {
				n++
			}
		}
		seg = end + 1
	}
	return n
}

// PolygonEdgeFlags is, per triangle TriangleList makes of quads, a quad
// strip or a polygon (in its order, restart runs included), which of the
// triangle's edges are the polygon's: bit k for the edge from its vertex k
// to vertex k+1 (mod 3). A fan's diagonals are not: GL's polygon modes draw
// a polygon's boundary edges as lines (each vertex once as a point, the one
// its boundary edge starts at), which the device's polygon-mode expansion
// takes from these flags. spec: GL 4.6 §14.6.4; GL 2.1 §2.6.2 (edge flags)
func PolygonEdgeFlags(mode PrimMode, idx []uint32, restart bool, restartIndex uint32) []uint8 {
	var out []uint8
	for seg := 0; seg <= len(idx); {
		end := len(idx)
		if restart {
			end = seg
			for end < len(idx) && idx[end] != restartIndex {
				end++
			}
		}
		n := end - seg
		switch mode {
		case PrimQuads, PrimQuadStrip:
			// (q0, q1, q2): q0q1, q1q2; (q0, q2, q3): q2q3, q3q0.
			step := 4
			if mode == PrimQuadStrip {
				step = 2
			}
			for i := 0; i+3 < n; i += step {
				out = append(out, 0b011, 0b110)
			}
		case PrimPolygon:
			// (v0, vi, vi+1): vi vi+1 always; v0 vi for the first; vi+1 v0
			// for the last.
			for i := 1; i+1 < n; i++ {
				f := uint8(0b010)
				if i == 1 {
					f |= 0b001
				}
				if i+2 == n {
					f |= 0b100
				}
				out = append(out, f)
			}
		}
		seg = end + 1
	}
	return out
}

// polygonPrimitiveIDs numbers the triangles of quads, a quad strip or
// polygons by the GL primitive they belong to, from their edge flags
// (PolygonEdgeFlags): a primitive's first triangle is the one whose edge
// from vertex 0 to 1 is the polygon's (a quad's second triangle and a
// polygon's later fan triangles start at a diagonal). Restart runs keep
// counting, as GL's primitive counter does. spec: GL 4.6 §11.1.3.9
// (gl_PrimitiveID); GL 2.1 §2.6.1
func polygonPrimitiveIDs(flags []uint8) []uint32 {
	ids := make([]uint32, len(flags))
	n := uint32(0)
	for i, f := range flags {
		if f&1 != 0 && i > 0 {
			n++
		}
		ids[i] = n
	}
	return ids
}
