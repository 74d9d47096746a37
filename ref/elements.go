package ref

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// elements returns the draw's vertex indices (with the base vertex added)
// in order, restartMark marking a primitive restart (compared with the raw
// index).
func elements(in VertexInput, p DrawParams, restart bool, restartIndex uint32) ([]int64, error) {
	return elementsInto(nil, in, p, restart, restartIndex)
}

// elementsInto is elements writing into dst's memory when it is large
// enough.
func elementsInto(dst []int64, in VertexInput, p DrawParams, restart bool, restartIndex uint32) ([]int64, error) {
	if p.Count < 0 || p.First < 0 || p.Instances < 0 || p.BaseInstance < 0 ||
		p.Count > MaxDrawCount || p.First > math.MaxInt32 || p.Instances > MaxInstances || p.BaseInstance > math.MaxInt32 {
		return nil, fmt.Errorf("%w: first %d count %d instances %d base instance %d (limits: count %d, instances %d)",
			ErrBadDraw, p.First, p.Count, p.Instances, p.BaseInstance, MaxDrawCount, MaxInstances)
	}
	if p.Topology > Polygon {
		return nil, fmt.Errorf("%w: topology %d", ErrBadDraw, p.Topology)
	}
	if in.Words < 0 || in.InstanceWords < 0 || in.Words > MaxAttribWords || in.InstanceWords > MaxAttribWords {
		return nil, fmt.Errorf("%w: vertex input %d / %d words per vertex / instance (max %d)", ErrBadDraw, in.Words, in.InstanceWords, MaxAttribWords)
	}
	elems := grow(dst, p.Count)
	if p.IndexType == IndexNone {
		for i := range elems {
			elems[i] = int64(p.First + i)
		}
		return elems, nil
	}
	size := map[IndexType]int{Index8: 1, Index16: 2, Index32: 4}[p.IndexType]
	if size == 0 {
		return nil, fmt.Errorf("%w: index type %d", ErrBadDraw, p.IndexType)
	}
	if (p.First+p.Count)*size > len(p.Indices) {
		return nil, fmt.Errorf("%w: indices %d..%d outside the %d-byte index buffer", ErrBadDraw, p.First, p.First+p.Count, len(p.Indices))
	}
	idx := p.Indices[p.First*size : (p.First+p.Count)*size]
	base := int64(p.BaseVertex)
	switch size {
	case 1:
		for i, v := range idx {
			elems[i] = element(uint32(v), base, restart, restartIndex)
		}
	case 2:
		for i := range elems {
			elems[i] = element(uint32(binary.LittleEndian.Uint16(idx[2*i:])), base, restart, restartIndex)
		}
	default:
		for i := range elems {
			elems[i] = element(binary.LittleEndian.Uint32(idx[4*i:]), base, restart, restartIndex)
		}
	}
	return elems, nil
}

// element is the element of raw index v: restartMark for the restart
// index (when restart is on), else v plus the base vertex.
func element(v uint32, base int64, restart bool, restartIndex uint32) int64 {
	if restart && v == restartIndex {
		return restartMark
	}
	return int64(v) + base
}

// uniqueVertices returns the draw's distinct vertex indices in ascending
// order (each is shaded once per instance) and, for every element, the
// position of its vertex in that list (-1 for a restart). When the indices
// span a range not much larger than the draw, a direct table over the range
// replaces sorting and searching; both give the same lists.
func uniqueVertices(elems []int64) (ids []int64, slot []int32) {
	return (&drawBufs{}).uniqueVertices(elems)
}

// uniqueVertices is the package function using (and keeping) b's slot,
// table and id memory.
func (b *drawBufs) uniqueVertices(elems []int64) (ids []int64, slot []int32) {
	slot = grow(b.slot, len(elems))
	b.slot = slot
	lo, hi, found := int64(math.MaxInt64), int64(math.MinInt64), false
	for _, e := range elems {
		if e != restartMark {
			lo, hi, found = min(lo, e), max(hi, e), true
		}
	}
	if !found {
		for i := range slot {
			slot[i] = -1
		}
		return nil, slot
	}
	if span := uint64(hi - lo); span < uint64(2*len(elems)+4096) {
		ids = grow(b.ids, int(min(uint64(len(elems)), span+1)))[:0]
		table := grow(b.table, int(span+1)) // 0: unused, else 1 + position in ids
		clear(table)
		b.table = table
		for _, e := range elems {
			if e != restartMark {
				table[e-lo] = 1
			}
		}
		for k, used := range table {
			if used != 0 {
				ids = append(ids, lo+int64(k))
				table[k] = int32(len(ids))
			}
		}
		b.ids = ids
		for i, e := range elems {
			slot[i] = -1
			if e != restartMark {
				slot[i] = table[e-lo] - 1
			}
		}
		return ids, slot
	}
	return uniqueVerticesSorted(elems)
}

// uniqueVerticesSorted is uniqueVertices by sorting and binary search, for
// sparse indices.
func uniqueVerticesSorted(elems []int64) (ids []int64, slot []int32) {
	slot = make([]int32, len(elems))
	ids = make([]int64, 0, len(elems))
	for _, e := range elems {
		if e != restartMark {
			ids = append(ids, e)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for i, e := range elems {
		slot[i] = -1
		if e != restartMark {
			j, _ := slices.BinarySearch(ids, e)
			slot[i] = int32(j)
		}
	}
	return ids, slot
}
