package abi

import "testing"

// TestSWOMDescLayout pins the software merger descriptor's word offsets, size and
// flag bits (our layout of gfx_sw_omcolor_t[] and the shared state).
// spec: vortexpipe-driver §2.5 (FS arg slot 2), §3.7; docs/ABI.md
func TestSWOMDescLayout(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"magic word", SWOMWordMagic, 0}, {"size", SWOMWordSize, 1}, {"layout", SWOMWordLayout, 2},
		{"flags", SWOMWordFlags, 3}, {"funcs", SWOMWordFuncs, 4}, {"front stencil", SWOMWordFrontStencil, 5},
		{"back stencil", SWOMWordBackStencil, 7}, {"bounds min", SWOMWordBoundsMin, 9}, {"bounds max", SWOMWordBoundsMax, 10},
		{"clamp min", SWOMWordClampMin, 11}, {"clamp max", SWOMWordClampMax, 12}, {"alpha ref", SWOMWordAlphaRef, 13},
		{"constant", SWOMWordConstant, 15}, {"ds addr", SWOMWordDSAddr, 19}, {"targets", SWOMWordTargets, 21},
		{"target words", SWOMTargetWords, 4}, {"max targets", SWOMMaxTargets, 8}, {"bytes", SWOMDescBytes, 212},
		{"target 3 word 2", SWOMTargetWord(3, 2), 35}, {"last word", SWOMTargetWord(7, 3), 52},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
	if SWOMMagic != 'S'|'W'<<8|'O'<<16|'M'<<24 {
		t.Errorf("magic %#x is not \"SWOM\" little-endian", SWOMMagic)
	}
	flags := []uint32{SWOMFlagHasDS, SWOMFlagDepthTest, SWOMFlagDepthWrite, SWOMFlagStencilTest, SWOMFlagDepthBounds,
		SWOMFlagDepthClamp, SWOMFlagAlphaTest, SWOMFlagAlphaToCoverage, SWOMFlagAlphaToOne, SWOMFlagLogicOp, SWOMFlagDualSource}
	var all uint32
	for i, f := range flags {
		if f != 1<<i {
			t.Errorf("flag %d = %#x", i, f)
		}
		all |= f
	}
	if all != SWOMFlagsAll {
		t.Errorf("all flags %#x, want %#x", SWOMFlagsAll, all)
	}
}
