package tex

import (
	"slices"
	"testing"

	"vortexgfx/abi"
)

// TestSampleTaps pins the texel addresses a request reads (the TEX cost
// model's input) on a 4×4 A8R8G8B8 texture at 0x400: texel (x, y) sits at
// 0x400 + 4(x + 4y). The centre of texel (1, 2) is u = 3/8, v = 5/8.
// spec: vortex-hardware-facts §4, §7
func TestSampleTaps(t *testing.T) {
	const u, v = 3 << 20, 5 << 20
	for _, c := range []struct {
		name   string
		filter uint32
		wrap   abi.TexWrap
		u      int32
		want   []uint64
		lines4 []uint64 // distinct 16-byte lines
	}{
		{"point", 0, abi.WrapRepeat, u, []uint64{0x424}, []uint64{0x42}},
		// taps (1,2) (2,2) (1,3) (2,3) in filter order
		{"bilinear", abi.TexFilterBilinear, abi.WrapRepeat, u, []uint64{0x424, 0x428, 0x434, 0x438}, []uint64{0x42, 0x43}},
		{"border tap reads nothing", 0, abi.WrapBorder, -1, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := make(mem, 0x800)
			s, err := Bind(m, Stage{Addr: 0x400 >> 6, LogDim: abi.PackTexLogDim(2, 2), Format: uint32(abi.TexA8R8G8B8),
				Filter: c.filter, Wrap: abi.PackTexWrap(c.wrap, c.wrap)})
			if err != nil {
				t.Fatal(err)
			}
			var tp Taps
			got := s.SampleTaps(c.u, v, 0, &tp)
			if want := s.Sample(c.u, v, 0); got != want {
				t.Errorf("SampleTaps texel %08x, Sample %08x", got, want)
			}
			if !slices.Equal(tp.Addr[:tp.N], c.want) {
				t.Errorf("taps %x, want %x", tp.Addr[:tp.N], c.want)
			}
			if l := tp.Lines(4, nil); !slices.Equal(l, c.lines4) {
				t.Errorf("16-byte lines %x, want %x", l, c.lines4)
			}
		})
	}
}

// TestCostModelResolve: zero fields take the documented defaults and a bad
// geometry is an error naming it.
func TestCostModelResolve(t *testing.T) {
	m, err := CostModel{}.Resolve()
	if err != nil || m != (CostModel{MemLatency: 100, HitLatency: 2, CacheBytes: 16384, CacheWays: 4, LineBytes: 64, CacheBanks: 4, MSHRs: 8}) {
		t.Errorf("defaults %+v, %v", m, err)
	}
	for _, bad := range []CostModel{{LineBytes: 48}, {CacheBytes: 1000}, {CacheBanks: 3}, {MSHRs: -1}, {HitLatency: -1}} {
		if _, err := bad.Resolve(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
