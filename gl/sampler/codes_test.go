package sampler

import (
	"testing"

	"vortexgfx/abi"
)

// TestWrapCodes pins every wrap mode's TEX_WRAP and software-descriptor code
// (vortex-hardware-facts §4: CLAMP 0, REPEAT 1, MIRROR 2, BORDER 3; ours:
// MIRROR_CLAMP_TO_EDGE 4, legacy CLAMP 5, MIRROR_CLAMP 6,
// MIRROR_CLAMP_TO_BORDER 7) and that WrapFromSWTex inverts SWTex.
func TestWrapCodes(t *testing.T) {
	want := []struct {
		w      Wrap
		code   abi.TexWrap
		ff, ok bool // TEX()
	}{
		{Repeat, 1, true, true}, {MirroredRepeat, 2, true, true}, {ClampToEdge, 0, true, true},
		{ClampToBorder, 3, true, true}, {MirrorClampToEdge, 4, false, true},
		{Clamp, 5, false, false}, {MirrorClamp, 6, false, false}, {MirrorClampToBorder, 7, false, false},
	}
	if len(want) != len(wrapNames) {
		t.Fatalf("%d rows for %d modes", len(want), len(wrapNames))
	}
	for _, c := range want {
		code, ff, ok := c.w.TEX()
		if ff != c.ff || ok != c.ok || (ok && code != c.code) {
			t.Errorf("%v.TEX() = %d, %v, %v", c.w, code, ff, ok)
		}
		if sw, ok := c.w.SWTex(); !ok || sw != c.code {
			t.Errorf("%v.SWTex() = %d, %v; want %d", c.w, sw, ok, c.code)
		}
	}
	bad := Wrap(len(wrapNames))
	if _, _, ok := bad.TEX(); ok {
		t.Error("an undefined wrap has a TEX code")
	}
	if _, ok := bad.SWTex(); ok {
		t.Error("an undefined wrap has a descriptor code")
	}
	for c := range abi.TexWrap(10) {
		w, ok := WrapFromSWTex(c)
		if ok != (c <= abi.WrapMirrorClampBorder) {
			t.Errorf("WrapFromSWTex(%d) ok = %v", c, ok)
		} else if back, _ := w.SWTex(); ok && back != c {
			t.Errorf("WrapFromSWTex(%d) = %v, which maps back to %d", c, w, back)
		}
	}
}

// TestDescriptorCodes pins the software descriptor's filter (nearest 0,
// linear 1), mip-filter (none 0, nearest 1, linear 2) and swizzle (R, G, B,
// A, 0, 1 = 0..5) codes, and that each FromSWTex inverts its SWTex.
func TestDescriptorCodes(t *testing.T) {
	for v, want := range map[Filter]abi.SWTexFilterMode{Nearest: 0, Linear: 1} {
		if c, ok := v.SWTex(); !ok || c != want {
			t.Errorf("filter %d: %d, %v", v, c, ok)
		}
		if back, ok := FilterFromSWTex(want); !ok || back != v {
			t.Errorf("FilterFromSWTex(%d) = %d, %v", want, back, ok)
		}
	}
	for v, want := range map[MipFilter]abi.SWTexMipMode{MipNone: 0, MipNearest: 1, MipLinear: 2} {
		if c, ok := v.SWTex(); !ok || c != want {
			t.Errorf("mip filter %d: %d, %v", v, c, ok)
		}
		if back, ok := MipFilterFromSWTex(want); !ok || back != v {
			t.Errorf("MipFilterFromSWTex(%d) = %d, %v", want, back, ok)
		}
	}
	for v, want := range map[Swizzle]abi.SWTexSwizzle{SwizzleR: 0, SwizzleG: 1, SwizzleB: 2, SwizzleA: 3, SwizzleZero: 4, SwizzleOne: 5} {
		if c, ok := v.SWTex(); !ok || c != want {
			t.Errorf("swizzle %d: %d, %v", v, c, ok)
		}
		if back, ok := SwizzleFromSWTex(want); !ok || back != v {
			t.Errorf("SwizzleFromSWTex(%d) = %d, %v", want, back, ok)
		}
	}
	if _, ok := Filter(2).SWTex(); ok {
		t.Error("filter 2 has a code")
	}
	if _, ok := MipFilter(3).SWTex(); ok {
		t.Error("mip filter 3 has a code")
	}
	if _, ok := Swizzle(6).SWTex(); ok {
		t.Error("swizzle 6 has a code")
	}
	if _, ok := FilterFromSWTex(2); ok {
		t.Error("filter code 2 decodes")
	}
	if _, ok := MipFilterFromSWTex(3); ok {
		t.Error("mip code 3 decodes")
	}
	if _, ok := SwizzleFromSWTex(6); ok {
		t.Error("swizzle code 6 decodes")
	}
}
