package pipe

import "testing"

// BenchmarkRoute measures one routing decision over a fully bound state.
func BenchmarkRoute(b *testing.B) {
	s := NewScreenWithCaps(fullCaps(), Options{})
	st := eligible(b, s)
	d := DrawShape{Mode: PrimTriangles, Draw: DirectDraw{Count: 3, InstanceCount: 1}}
	caps := fullCaps()
	b.ReportAllocs()
	for b.Loop() {
		if dec := Route(caps, Options{}, st, d); dec.Reference {
			b.Fatal(dec.Gates)
		}
	}
}

// BenchmarkTriangleListStrip translates a 64K-index strip with restarts.
func BenchmarkTriangleListStrip(b *testing.B) {
	idx := make([]uint32, 1<<16)
	for i := range idx {
		idx[i] = uint32(i)
		if i%1000 == 999 {
			idx[i] = 0xFFFFFFFF
		}
	}
	b.SetBytes(int64(4 * len(idx)))
	for b.Loop() {
		if _, err := TriangleList(PrimTriangleStrip, idx, true, 0xFFFFFFFF, false); err != nil {
			b.Fatal(err)
		}
	}
}
