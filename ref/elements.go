package ref

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// elements returns the draw's vertex indices (with the base vertex added)
// in order, restartMark marking a primitive restart (compared with the raw
// index).
func elements(in VertexInput, p DrawParams, restart bool, restartIndex uint32) ([]int64, error) {
	return elementsInto(nil, in, p, restart, restartIndex, 1)
}

// elementsInto is elements writing into dst's memory when it is large
// enough, decoding in up to workers concurrent runs (see inChunks).
func elementsInto(dst []int64, in VertexInput, p DrawParams, restart bool, restartIndex uint32, workers int) ([]int64, error) {
	if p.Count < 0 || p.First < 0 || p.Instances < 0 || p.BaseInstance < 0 ||
		p.Count > MaxDrawCount || p.First > math.MaxInt32 || p.Instances > MaxInstances || p.BaseInstance > math.MaxInt32 {
		return nil, fmt.Errorf("%w: first %d count %d instances %d base instance %d (limits: count %d, instances %d)",
			ErrBadDraw, p.First, p.Count, p.Instances, p.BaseInstance, MaxDrawCount, MaxInstances)
	}
	if p.Topology > TriangleStripAdjacency {
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
	inChunks(len(elems), workers, func(lo, hi int) {
		switch size {
		case 1:
			for i := lo; i < hi; i++ {
				elems[i] = element(uint32(idx[i]), base, restart, restartIndex)
			}
		case 2:
			for i := lo; i < hi; i++ {
				elems[i] = element(uint32(binary.LittleEndian.Uint16(idx[2*i:])), base, restart, restartIndex)
			}
		default:
			for i := lo; i < hi; i++ {
				elems[i] = element(binary.LittleEndian.Uint32(idx[4*i:]), base, restart, restartIndex)
			}
		}
	})
	return elems, nil
}

// chunkElements is the fewest elements worth a goroutine of their own in
// inChunks.
const chunkElements = 1 << 16

// inChunks calls fn over [0, n) split into up to workers contiguous ranges
// of at least chunkElements, run concurrently: for the per-element passes
// of a large draw that would otherwise run on one core before the vertex
// stage. fn must write only its own range's results, so they are the same
// for any split.
func inChunks(n, workers int, fn func(lo, hi int)) {
	k := min(max(workers, 1), max(n/chunkElements, 1), maxWorkers)
	if k == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for j := range k {
		wg.Go(func() { fn(j*n/k, (j+1)*n/k) })
	}
	wg.Wait()
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
	return (&drawBufs{}).uniqueVertices(elems, 1)
}

// uniqueVertices is the package function using (and keeping) b's slot,
// table and id memory, its range and slot passes split over up to workers
// goroutines (inChunks).
func (b *drawBufs) uniqueVertices(elems []int64, workers int) (ids []int64, slot []int32) {
	slot = grow(b.slot, len(elems))
	b.slot = slot
	var ranges [maxWorkers]struct {
		lo, hi int64
		found  bool
	}
	var next atomic.Int32
	inChunks(len(elems), workers, func(i0, i1 int) {
		lo, hi, found := int64(math.MaxInt64), int64(math.MinInt64), false
		for _, e := range elems[i0:i1] {
			if e != restartMark {
				lo, hi, found = min(lo, e), max(hi, e), true
			}
		}
		r := &ranges[next.Add(1)-1]
		r.lo, r.hi, r.found = lo, hi, found
	})
	lo, hi, found := int64(math.MaxInt64), int64(math.MinInt64), false
	for _, r := range ranges[:next.Load()] {
		if r.found {
			lo, hi, found = min(lo, r.lo), max(hi, r.hi), true
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
		inChunks(len(elems), workers, func(i0, i1 int) {
			for i := i0; i < i1; i++ {
				slot[i] = -1
				if e := elems[i]; e != restartMark {
					slot[i] = table[e-lo] - 1
				}
			}
		})
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
