package shaderdev

import "encoding/binary"

// vertexReuse is the driver's post-transform vertex reuse for an indexed
// triangle-list draw: the vertex stage and expand_k run once per distinct
// index instead of once per index, and setup_k's triangle list names each
// corner's record by its vertex's slot among the distinct ones.
//
// The vertex stage is a pure function of the vertex it is given (its index,
// gl_VertexID, the attributes and uniforms; one instance), so the records
// setup_k reads for every corner are word for word the ones a per-index
// vertex stage writes, and every image is unchanged. What changes are the
// vertex stage's and expand_k's work (VS threads, CTA cycles and memory
// operations: the draw's CP cycles) and the records' memory, which is per
// distinct vertex (docs/ABI.md, vertex reuse row).
// spec: vortexpipe-driver.md §2.5 (the VS reads the index buffer), §3.2
// (setup_k reads the triangle list)
type vertexReuse struct {
	unique  []byte // the distinct indices in first-use order (u32): the VS's index list
	corners []byte // per index its slot in unique (u32): setup_k's triangle list
	n       int    // distinct indices
}

// reuseSpan bounds the dense slot table reuseVertices keeps: indices up to
// max(reuseSpan, 4·count) are looked up directly; a draw whose indices reach
// further runs its vertex stage per index, as without reuse.
const reuseSpan = 1 << 20

// reuseVertices returns the draw's vertex reuse over its host indices, or
// nil when it has none or does not apply: the vertex stage then runs once per
// index. It applies to a non-instanced triangle list (lines, points and
// polygon modes run prim_k over per-index records) whose host indices
// (Draw.Indices) are known and repeat.
func (s *drawState) reuseVertices() *vertexReuse {
	dr := s.dr
	idx := dr.Indices
	if s.inst != 1 || dr.expansion() != PrimTriangles || len(idx) != dr.Count || len(idx) < 3 {
		return nil
	}
	limit := uint32(max(reuseSpan, 4*len(idx)))
	top := uint32(0)
	for _, v := range idx {
		top = max(top, v)
	}
	if top >= limit {
		return nil
	}
	return s.d.dedupe(idx, int(top)+1)
}

// dedupe builds the reuse of idx, whose values are below span: the distinct
// values in first-use order and each index's slot among them; nil when no
// value repeats. The dense slot table is the device's, cleared again after
// use so the next draw finds it empty.
func (d *Device) dedupe(idx []uint32, span int) *vertexReuse {
	if len(d.reuseSlot) < span {
		d.reuseSlot = make([]int32, span)
	}
	slot := d.reuseSlot[:span] // slot+1 of each value seen, 0 for none yet
	r := &vertexReuse{corners: make([]byte, 4*len(idx))}
	var uniq []uint32
	for i, v := range idx {
		k := slot[v]
		if k == 0 {
			uniq = append(uniq, v)
			k = int32(len(uniq))
			slot[v] = k
		}
		binary.LittleEndian.PutUint32(r.corners[4*i:], uint32(k-1))
	}
	for _, v := range uniq {
		slot[v] = 0
	}
	if len(uniq) == len(idx) {
		return nil
	}
	r.n = len(uniq)
	r.unique = make([]byte, 4*len(uniq))
	for i, v := range uniq {
		binary.LittleEndian.PutUint32(r.unique[4*i:], v)
	}
	return r
}
