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
