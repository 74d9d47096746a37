package om

import (
	"testing"

	"vortexgfx/abi"
)

// TestExportAccess pins the memory traffic one fragment reports (the OM cost
// model's input) on the 4×4 test framebuffer (colour at 0x400, depth at 0x800,
// pitch 16): pixel (1, 2) is word 0x424 / 0x824. spec: vortex-hardware-facts §5, §7
func TestExportAccess(t *testing.T) {
	blend := abi.PackBlendFunc(abi.BlendSrcA, abi.BlendSrcA, abi.BlendOneMinusSrcA, abi.BlendOneMinusSrcA)
	for _, c := range []struct {
		name  string
		w     map[abi.DCR]uint32
		depth uint32
		want  Access
	}{
		{"colour only", nil, 0, Access{CWrite: true, CAddr: 0x424}},
		// ALWAYS with depth writes enabled still reads the stored word
		{"depth write", map[abi.DCR]uint32{abi.DCROMDepthFunc: uint32(abi.CmpAlways), abi.DCROMDepthWriteMask: 1}, 5,
			Access{ZRead: true, ZWrite: true, CWrite: true, ZAddr: 0x824, CAddr: 0x424}},
		// 0 is not LESS than the stored 0: the depth is read, nothing is written
		{"depth fail", map[abi.DCR]uint32{abi.DCROMDepthFunc: uint32(abi.CmpLess), abi.DCROMDepthWriteMask: 1}, 0,
			Access{ZRead: true, ZAddr: 0x824, CAddr: 0x424}},
		{"blend", map[abi.DCR]uint32{abi.DCROMBlendFunc: blend}, 0, Access{CRead: true, CWrite: true, CAddr: 0x424}},
		{"colour masked", map[abi.DCR]uint32{abi.DCROMCBufWriteMask: 0}, 0, Access{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := make(mem, 0x1000)
			u := bind(t, m, c.w)
			var a Access
			u.ExportAccess(1, 2, 0, 0x80FFFFFF, c.depth, &a)
			if a != c.want {
				t.Errorf("access %+v, want %+v", a, c.want)
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
