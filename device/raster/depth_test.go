package raster

import (
	"math"
	"testing"
)

// TestPlaneDepth pins early-Z's depth: the Q7.24 plane MAC A′·X + B′·Y + C′ on
// the raw words in 64 bits, truncated to int32 (SimX earlyz_plane_depth's
// cast), then clamped to [0, 0xFFFFFF], the FS's late-Z value bit for bit. A
// MAC past int32 wraps before the clamp (so a huge positive value can come
// out 0), which is what makes early-Z and the kernel agree even there.
// spec: rasterizer §7.5; vortex-hardware-facts §3.3 (early-Z)
func TestPlaneDepth(t *testing.T) {
	const half = 1 << 23 // 0.5 in Q7.24
	for _, tc := range []struct {
		name    string
		a, b, c int32
		x, y    int32
		want    uint32
	}{
		{"constant", 0, 0, half, 7, 9, half},
		{"gradient", 1 << 10, -(1 << 9), half, 100, 50, half + 100<<10 - 50<<9},
		{"negative clamps to 0", 0, 0, -1, 0, 0, 0},
		{"past 1.0 clamps to 0xFFFFFF", 0, 0, 1 << 24, 0, 0, 0xFFFFFF},
		{"exactly 0xFFFFFF", 0, 0, 0xFFFFFF, 3, 3, 0xFFFFFF},
		{"wraps past int32 to negative, then 0", math.MaxInt32, 0, math.MaxInt32, 1, 0, 0},
		{"wraps past int32 to a small positive", math.MaxInt32, 0, 3, 2, 0, 1},
	} {
		if got := PlaneDepth(tc.a, tc.b, tc.c, tc.x, tc.y); got != tc.want {
			t.Errorf("%s: PlaneDepth(%d, %d, %d, %d, %d) = 0x%x, want 0x%x", tc.name, tc.a, tc.b, tc.c, tc.x, tc.y, got, tc.want)
		}
	}
}
