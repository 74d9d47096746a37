package ref

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The direct-table path of uniqueVertices gives the same vertex list and
// slots as sorting and searching, for dense, sparse, restart-only and
// empty element lists.
func TestUniqueVerticesPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := map[string][]int64{
		"empty":        {},
		"restarts":     {restartMark, restartMark},
		"one":          {7},
		"negative":     {-3, 5, -3, restartMark, 0},
		"sparse":       {0, 1 << 40, 3, restartMark, 1 << 40},
		"large offset": {1<<31 + 5, 1<<31 + 2, 1<<31 + 5},
	}
	for k := range 20 {
		e := make([]int64, rng.IntN(300))
		span := int64(1 + rng.IntN(2000))
		for i := range e {
			e[i] = rng.Int64N(span) - span/3
			if rng.IntN(17) == 0 {
				e[i] = restartMark
			}
		}
		cases[string(rune('a'+k))] = e
	}
	for name, e := range cases {
		ids, slot := uniqueVertices(e)
		wids, wslot := uniqueVerticesSorted(e)
		if !slices.Equal(ids, wids) || !slices.Equal(slot, wslot) {
			t.Errorf("%s: table path %v %v, sorted path %v %v", name, ids, slot, wids, wslot)
		}
	}
}

// TestElementsAndUniqueSplit: decoding a large index buffer and listing its
// vertices over several goroutines gives exactly the one-goroutine results,
// for every index size, with restarts and a base vertex.
func TestElementsAndUniqueSplit(t *testing.T) {
	const n = 5*chunkElements + 123
	for _, it := range []IndexType{Index8, Index16, Index32} {
		size := map[IndexType]int{Index8: 1, Index16: 2, Index32: 4}[it]
		idx := make([]byte, n*size)
		x := uint32(12345)
		for i := range n {
			x = x*1664525 + 1013904223
			v := x >> 16 % 3000
			if i%97 == 0 {
				v = FixedRestartIndex(it)
			}
			for b := range size {
				idx[i*size+b] = byte(v >> (8 * b))
			}
		}
		p := DrawParams{Topology: Triangles, Count: n - 7, First: 7, IndexType: it, Indices: idx, BaseVertex: 5}
		want, err := elementsInto(nil, VertexInput{}, p, true, FixedRestartIndex(it), 1)
		if err != nil {
			t.Fatal(err)
		}
		wids, wslot := (&drawBufs{}).uniqueVertices(want, 1)
		sids, sslot := uniqueVerticesSorted(want)
		if !slices.Equal(wids, sids) || !slices.Equal(wslot, sslot) {
			t.Fatalf("index size %d: one-goroutine table and sorted lists differ", size)
		}
		for _, workers := range []int{2, 3, 8} {
			got, err := elementsInto(nil, VertexInput{}, p, true, FixedRestartIndex(it), workers)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("index size %d, %d workers: elements differ", size, workers)
			}
			ids, slot := (&drawBufs{}).uniqueVertices(got, workers)
			if !slices.Equal(ids, wids) || !slices.Equal(slot, wslot) {
				t.Errorf("index size %d, %d workers: vertex lists differ", size, workers)
			}
		}
	}
}
