package shaderdev

import (
	"encoding/binary"
	"slices"
	"testing"
)

// TestDedupe pins vertex reuse's lists: the distinct indices in first-use
// order, each index's slot among them, no reuse when nothing repeats, and
// the dense slot table left empty for the next draw.
func TestDedupe(t *testing.T) {
	words := func(b []byte) []uint32 {
		w := make([]uint32, len(b)/4)
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return w
	}
	for _, tc := range []struct {
		name            string
		idx             []uint32
		unique, corners []uint32 // nil unique: no reuse
	}{
		{"quad", []uint32{0, 1, 2, 0, 2, 3}, []uint32{0, 1, 2, 3}, []uint32{0, 1, 2, 0, 2, 3}},
		{"first use order", []uint32{7, 3, 5, 5, 3, 9}, []uint32{7, 3, 5, 9}, []uint32{0, 1, 2, 2, 1, 3}},
		{"degenerate", []uint32{4, 4, 4}, []uint32{4}, []uint32{0, 0, 0}},
		{"no repeat", []uint32{0, 1, 2, 5, 4, 3}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Device{}
			span := int(slices.Max(tc.idx)) + 1
			r := d.dedupe(tc.idx, span)
			for i, v := range d.reuseSlot {
				if v != 0 {
					t.Fatalf("slot table entry %d left at %d", i, v)
				}
			}
			if tc.unique == nil {
				if r != nil {
					t.Fatalf("reuse of %v without a repeat: %v", tc.idx, words(r.unique))
				}
				return
			}
			if r == nil {
				t.Fatalf("no reuse of %v", tc.idx)
			}
			if got := words(r.unique); !slices.Equal(got, tc.unique) || r.n != len(tc.unique) {
				t.Errorf("unique = %v (n %d), want %v", got, r.n, tc.unique)
			}
			if got := words(r.corners); !slices.Equal(got, tc.corners) {
				t.Errorf("corners = %v, want %v", got, tc.corners)
			}
		})
	}
}

// TestReuseApplies pins which draws reuse vertices: an indexed,
// non-instanced triangle list with host indices that repeat and stay within
// the dense table's span.
func TestReuseApplies(t *testing.T) {
	quad := []uint32{0, 1, 2, 0, 2, 3}
	for _, tc := range []struct {
		name string
		dr   Draw
		inst int
		want bool
	}{
		{"indexed triangles", Draw{Indices: quad, Count: 6}, 1, true},
		{"instanced", Draw{Indices: quad, Count: 6}, 2, false},
		{"no host indices", Draw{Count: 6}, 1, false},
		{"lines", Draw{Prim: PrimLines, Indices: quad, Count: 6}, 1, false},
		{"polygon mode", Draw{Indices: quad, Count: 6, FillFront: PolygonLine}, 1, false},
		{"sparse indices", Draw{Indices: []uint32{0, 1 << 30, 2, 0, 2, 3}, Count: 6}, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &drawState{d: &Device{}, dr: &tc.dr, inst: tc.inst}
			if got := s.reuseVertices() != nil; got != tc.want {
				t.Errorf("reuse = %v, want %v", got, tc.want)
			}
		})
	}
}
