package pipe

import (
	"errors"
	"reflect"
	"testing"
)

// TestVariantLRU: at most MaxFSVariants variants per fragment CSO, compiled lazily
// once per key, the least recently used evicted. spec: vortexpipe §2.3.1
func TestVariantLRU(t *testing.T) {
	compiles := map[VariantKey]int{}
	var evicted []VariantKey
	c := NewVariantCache(func(k VariantKey) (any, error) {
		compiles[k]++
		return k.String(), nil
	}, func(k VariantKey, _ any) { evicted = append(evicted, k) })
	k := func(mask uint8) VariantKey { return VariantKey{Samples: 1, BGRAMask: mask} }
	for _, m := range []uint8{0, 1, 2, 3} {
		p, err := c.Get(k(m))
		if err != nil || p != k(m).String() {
			t.Fatalf("get %d: %v %v", m, p, err)
		}
	}
	if _, err := c.Get(k(0)); err != nil { // touch 0: 1 becomes least recent
		t.Fatal(err)
	}
	if _, err := c.Get(k(4)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(evicted, []VariantKey{k(1)}) {
		t.Fatalf("evicted %v", evicted)
	}
	want := []VariantKey{k(4), k(0), k(3), k(2)}
	if got := c.Keys(); !reflect.DeepEqual(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	if _, err := c.Get(k(1)); err != nil { // recompiled after eviction
		t.Fatal(err)
	}
	if compiles[k(1)] != 2 || compiles[k(0)] != 1 {
		t.Errorf("compiles %v", compiles)
	}
	if st := c.Stats(); st.Compiles != 6 || st.Hits != 1 || st.Evictions != 2 {
		t.Errorf("stats %+v", st)
	}
	bad := NewVariantCache(func(VariantKey) (any, error) { return nil, errors.New("no") }, nil)
	if _, err := bad.Get(k(0)); err == nil || len(bad.Keys()) != 0 {
		t.Error("failed compile cached")
	}
	if _, err := NewVariantCache(nil, nil).Get(k(0)); err == nil {
		t.Error("nil compiler")
	}
}
