package draw3d

import (
	"testing"

	"vortexgfx/abi"
)

// The draw3d fragment kernel's arithmetic, rule by rule, against values worked
// out from kubeworkz/grxgpu tests/graphics/gfx_draw3d/kernel.cpp (the path with
// FIXEDPOINT_RASTERIZER undefined) and vx_gfx_abi.h's fixed_t. Each case
// names the plausible-looking alternative it rules out.
// spec: vortex-hardware-facts §3.3

// flatRec is a primitive whose edge values are the constants f0, f1, f2 (A = B
// = 0) at every pixel, with the given planes.
func flatRec(f0, f1, f2 int32, planes map[abi.PrimPlane][3]int32) *primRec {
	r := &primRec{edges: [9]int32{0, 0, f0, 0, 0, f1, 0, 0, f2}}
	for pl, v := range planes {
		r.planes[pl] = v
	}
	if _, ok := planes[abi.PlaneRHW]; !ok {
		r.planes[abi.PlaneRHW] = [3]int32{0, 0, 1 << 24}
	}
	return r
}

// TestKernelBarycentricRule: dx = FloatA(recip·F0) with recip = 1/(F0+F1+F2)
// in float (GRADIENTS_PL), not FloatA(F0/ΣF). With F = 4099, 40955, 196615
// (Q15.16 raw) ΣF = 241669/65536 is exact, recip·F0·2²⁴ truncates to 284562,
// while the correctly rounded quotient gives 284561. A red plane {1, 0, 0}
// makes r = dx; the rhw plane is 1, so the perspective divide is exact.
func TestKernelBarycentricRule(t *testing.T) {
	rec := flatRec(4099, 40955, 196615, map[abi.PrimPlane][3]int32{abi.PlaneR: {1 << 24, 0, 0}})
	args := FragArgs{ColorEnabled: true}
	var f fragVals
	args.interpolate(rec, 5, 9, &f)
	if f.r != 284562 {
		t.Errorf("r = dx = %d, want 284562 (FloatA(recip·F0); F0/ΣF would give 284561)", f.r)
	}
}

// TestKernelColourByte: colour byte = uint8((raw·255 mod 2³²) >> 24), the
// fixed_t × int product wrapping in 32 bits and operator uint8_t taking bits
// 31..24: no clamping of values below 0 or above 1, no rounding.
func TestKernelColourByte(t *testing.T) {
	for _, c := range []struct {
		raw  int32
		want uint32
		why  string
	}{
		{1 << 24, 255, "1.0"},
		{1<<24 - 1, 254, "just below 1.0 truncates (rounding would give 255)"},
		{1 << 23, 127, "0.5: 127.5 truncates"},
		{0, 0, "0"},
		{-1, 255, "one LSB below 0 wraps to 255 (a clamp would give 0)"},
		{-(1 << 24), 1, "-1.0: -255 → bits 31..24 of 0xFFFFFF01"},
		{16843010, 0, "≥ 2³²/255 (1.0039) wraps past 2³² to 0 (a clamp would give 255)"},
	} {
		if got := mod8(c.raw, 255); got != c.want {
			t.Errorf("mod8(%d, 255) = %d, want %d: %s", c.raw, got, c.want, c.why)
		}
	}
	// MODULATE: the same product with the texel channel instead of 255.
	for _, c := range []struct {
		raw      int32
		ch, want uint32
	}{
		{1 << 24, 200, 200}, {1 << 23, 255, 127}, {1 << 23, 1, 0}, {1<<24 + 1<<17, 255, 0}, {-1, 3, 255},
	} {
		if got := mod8(c.raw, c.ch); got != c.want {
			t.Errorf("mod8(%d, %d) = %d, want %d", c.raw, c.ch, got, c.want)
		}
	}
}

// TestKernelDepthWord: depth = the 64-bit MAC A′·X + B′·Y + C′ truncated to
// int32 and then clamped to [0, 0xFFFFFF] (PLANE_Z, DEPTH_WORD): a MAC that
// wraps past 2³¹ is negative after truncation and clamps to 0, where clamping
// the 64-bit sum would give 0xFFFFFF.
func TestKernelDepthWord(t *testing.T) {
	for _, c := range []struct {
		z    [3]int32
		x, y int32
		want uint32
		why  string
	}{
		{[3]int32{0, 0, 0x123456}, 3, 4, 0x123456, "in range"},
		{[3]int32{1 << 20, 1 << 19, 0x10}, 3, 5, 3<<20 + 5<<19 + 0x10, "A′·X + B′·Y + C′"},
		{[3]int32{0, 0, -5}, 0, 0, 0, "below 0 clamps to 0"},
		{[3]int32{0, 0, 0x1000003}, 0, 0, 0xFFFFFF, "above 1 clamps to the mask"},
		{[3]int32{1 << 30, 0, 0}, 3, 0, 0, "3·2³⁰ truncates to a negative int32: 0"},
		{[3]int32{1 << 30, 0, 7}, 4, 0, 7, "4·2³⁰ = 2³² truncates to 0, + 7"},
		{[3]int32{-1 << 31, 0, 0x100}, 1, 0, 0, "a Q7.24-overflowed A′ (INT_MIN) at odd X"},
		{[3]int32{-1 << 31, 0, 0x100}, 2, 0, 0x100, "and at even X the 2³² multiple vanishes"},
	} {
		rec := flatRec(1, 1, 1, nil)
		rec.z = c.z
		var f fragVals
		args := FragArgs{DepthEnabled: true}
		args.interpolate(rec, c.x, c.y, &f)
		if f.depth != c.want {
			t.Errorf("depth of %v at (%d, %d) = %#x, want %#x: %s", c.z, c.x, c.y, f.depth, c.want, c.why)
		}
	}
}

// TestKernelPerspectiveRoundTrip: a colour or texcoord leaves the kernel as
// FloatA(float(a)·(1/rhw)) (kernel.cpp's perspective divide), so even with
// rhw = 1 a Q7.24 value of magnitude ≥ 1.0 comes back rounded to float32's 24
// significant bits: u = 3 − 2⁻²⁴ (raw 3·2²⁴ − 1) returns as exactly 3.0, whose
// S.23 coordinate 3·2²³ wraps (REPEAT) to texel 0 where the raw value's
// 3·2²³ − 1 is the last texel. Values below 1.0 are exact.
func TestKernelPerspectiveRoundTrip(t *testing.T) {
	rec := flatRec(1, 1, 1, map[abi.PrimPlane][3]int32{
		abi.PlaneU: {0, 0, 3<<24 - 1}, abi.PlaneV: {0, 0, 1<<24 - 1},
	})
	var f fragVals
	args := FragArgs{TexEnabled: true}
	args.interpolate(rec, 0, 0, &f)
	if f.u != 3<<24 || f.texU() != 3<<23 {
		t.Errorf("u = %d (S.23 %d), want %d (S.23 %d): rounded through float32", f.u, f.texU(), 3<<24, 3<<23)
	}
	if f.v != 1<<24-1 || f.texV() != (1<<24-1)>>1 {
		t.Errorf("v = %d, want %d: exact below 1.0", f.v, 1<<24-1)
	}
	// S.23 is the Q7.24 value shifted arithmetically (fixed_t<23>(fixed_t<24>)):
	// −3 LSB becomes −2, not −1.
	if got := (&fragVals{u: -3}).texU(); got != -2 {
		t.Errorf("texU(−3) = %d, want −2 (arithmetic shift)", got)
	}
}
