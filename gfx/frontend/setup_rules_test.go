package frontend

import (
	"math"
	"testing"

	"vortexgfx/abi"
)

// TestFixedConversionRules: fixed_t(float) is a float32 multiply by 2^F and a
// C cast, which truncates toward zero (no rounding, no floor). Out of range
// and NaN differ by where the cast runs: cvttss2si on the x86-64 host (host
// Binning, whose records the draw3d goldens were made from) gives INT_MIN for
// either sign; fcvt.w.s on the RISC-V cores (the fragment kernel) saturates
// by sign and maps NaN to INT_MAX. spec: vortex-hardware-facts §3.1, §3.2
func TestFixedConversionRules(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	const lsb = 1.0 / (1 << 24)
	for _, c := range []struct {
		f         float32
		host, dev int32
		why       string
	}{
		{1.5 * lsb, 1, 1, "1.5 LSB truncates (rounding would give 2)"},
		{-1.5 * lsb, -1, -1, "−1.5 LSB truncates toward zero (floor and rounding give −2)"},
		{-0.25 * lsb, 0, 0, "−¼ LSB is 0, not −1"},
		{float32(math.Nextafter32(1, 0)), 1<<24 - 1, 1<<24 - 1, "just below 1.0"},
		{-128, math.MinInt32, math.MinInt32, "−128.0 is representable"},
		{128, math.MinInt32, math.MaxInt32, "+128.0 overflows Q7.24"},
		{-256, math.MinInt32, math.MinInt32, "−256 overflows"},
		{inf, math.MinInt32, math.MaxInt32, "+∞"},
		{nan, math.MinInt32, math.MaxInt32, "NaN"},
	} {
		if got := fxHost(c.f, abi.FracA); got != c.host {
			t.Errorf("host FloatA(%g) = %d, want %d: %s", c.f, got, c.host, c.why)
		}
		if got := FixDev(c.f, abi.FracA); got != c.dev {
			t.Errorf("device FloatA(%g) = %d, want %d: %s", c.f, got, c.dev, c.why)
		}
	}
}

// TestSetupDepthPlaneOverflow: the depth plane of a steep sliver does not fit
// Q7.24 and host Binning stores what cvttss2si gives. Screen vertices (64, 64,
// 0.5), (64, 96, 0.5), (64 + 2⁻¹⁰, 64, 0.75) at 128² give twice_area = −2⁻⁵, so
// A′ = (0·0 − 0.25·32)·(−32) = 256 (dz/dx beyond ±128), B′ = 0 and
// C′ = 0.5 − 256·64 + ½·256 = −16255.5: the words are {INT_MIN, 0, INT_MIN}, not
// saturated by sign. spec: vortex-hardware-facts §3.2 (depth plane)
func TestSetupDepthPlaneOverflow(t *testing.T) {
	v := []Vertex{
		{Pos: [4]float32{0, 0, 0, 1}},
		{Pos: [4]float32{0, 0.5, 0, 1}},
		{Pos: [4]float32{1.0 / (1 << 16), 0, 0.5, 1}},
	}
	var p Prim
	var bb BBox
	if !SetupTriangle(&v[0], &v[1], &v[2], 128, 128, 0, 1, CullNone, nil, PlanesGrx, &p, &bb) {
		t.Fatal("sliver culled")
	}
	if bb != (BBox{64, 65, 64, 96}) {
		t.Errorf("bbox %+v, want {64 65 64 96}", bb)
	}
	if a, b, c := p.Plane(abi.PlaneZ); a != math.MinInt32 || b != 0 || c != math.MinInt32 {
		t.Errorf("z plane {%d %d %d}, want {INT_MIN 0 INT_MIN}", a, b, c)
	}
}
