package pipe

import (
	"testing"
)

// spec: vortex-hardware-facts §2 (CBUF_WRITEMASK bit i = byte i); vortexpipe §3.7
// (write mask and constant permuted for BGRA attachments)
func TestWriteMaskAndColor(t *testing.T) {
	tests := []struct {
		mask       uint8
		rgba, bgra uint32
	}{
		{MaskRGBA, 0xF, 0xF}, {0, 0, 0}, {MaskR, 1, 4}, {MaskG, 2, 2}, {MaskB, 4, 1}, {MaskA, 8, 8},
		{MaskR | MaskA, 9, 0xC}, {MaskB | MaskG, 6, 3},
	}
	for _, tc := range tests {
		if got := WriteMask(tc.mask, false); got != tc.rgba {
			t.Errorf("WriteMask(%#x, rgba) = %#x, want %#x", tc.mask, got, tc.rgba)
		}
		if got := WriteMask(tc.mask, true); got != tc.bgra {
			t.Errorf("WriteMask(%#x, bgra) = %#x, want %#x", tc.mask, got, tc.bgra)
		}
	}
	c := [4]float32{1, 0.5, 0, 0.25}
	if got := PackColor(c, false); got != 0x40_00_80_FF {
		t.Errorf("PackColor rgba = %#x", got)
	}
	if got := PackColor(c, true); got != 0x40_FF_80_00 {
		t.Errorf("PackColor bgra = %#x", got)
	}
	nan := float32(0)
	nan = nan / nan
	if got := PackColor([4]float32{-1, 2, nan, 1}, false); got != 0xFF_00_FF_00 {
		t.Errorf("PackColor clamps: %#x", got)
	}
}

// spec: vortexpipe §1.4 (LOD in fixed point); facts §4 (8 fraction bits)
func TestLodFixed(t *testing.T) {
	tests := []struct {
		in   float32
		want int32
	}{
		{0, 0}, {1, 256}, {-1, -256}, {0.5, 128}, {1000, 256000}, {1.0 / 512, 1}, {1e30, 2147483647}, {-1e30, -2147483648},
	}
	for _, tc := range tests {
		if got := LodFixed(tc.in); got != tc.want {
			t.Errorf("LodFixed(%g) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
