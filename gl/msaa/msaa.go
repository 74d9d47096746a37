// Package msaa is the table of standard multisample positions, shared by the
// device's software raster and merger (gfx/shaderdev, device/swom) and by the
// reference path's supersampling passes (render, the differential tests), so
// that both put sample k of an S-sample pixel at the same place.
//
// The positions are the standard sample locations of Vulkan and Direct3D 11
// (and so of GL implementations that use them) for 1, 2, 4, 8 and 16 samples,
// in 1/16 pixel from the pixel's corner at the lowest raster x and y. The
// 4-sample table is vortexpipe's fixed rotated grid, kept where the spec's
// other ABI facts are (abi.MSAA4Sample); the
// spec's hardware accepts only 1 and 4 samples, the other counts run on the
// device's software raster and merger. spec: vortexpipe-driver.md §3.4.1;
// Vulkan 1.3 §25.3 (standard sample locations)
package msaa

import (
	"fmt"

	"vortexgfx/abi"
)

// MaxSamples is the largest sample count the table holds: a pixel's sample
// mask fits in 16 bits.
const MaxSamples = 16

// Mask is a pixel's sample mask: bit k is sample k.
type Mask = uint16

// positions[log2(S)] is the S-sample table; the 4-sample row is the spec's
// grid, abi.MSAA4Sample's, which Position reads there.
var positions = [...][][2]int8{
	{{8, 8}},
	{{12, 12}, {4, 4}},
	nil,
	{{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}},
	{{9, 9}, {7, 5}, {5, 10}, {12, 7}, {3, 6}, {10, 13}, {13, 11}, {11, 3},
		{6, 14}, {8, 1}, {4, 2}, {2, 12}, {0, 8}, {15, 4}, {14, 15}, {1, 0}},
}

// Valid reports whether n is a sample count with a standard table: 1, 2,
// 4, 8 or 16.
func Valid(n int) bool {
	return n == 1 || n == 2 || n == 4 || n == 8 || n == 16
}

// Check is nil for a valid sample count and otherwise an error naming it.
func Check(n int) error {
	if !Valid(n) {
		return fmt.Errorf("msaa: %d samples per pixel (1, 2, 4, 8 or 16)", n)
	}
	return nil
}

// Position returns sample i (0 ≤ i < n) of the n-sample standard pattern, in
// 1/16 pixel from the pixel's corner at the lowest raster x and y: sample
// (sx, sy) of pixel (x, y) sits at (x + sx/16, y + sy/16) along the raster's
// columns and rows. Positions lie in [0, 15]. It panics on an invalid n or i,
// which callers rule out with Valid (a programming error, not input).
func Position(n, i int) (x, y int) {
	if !Valid(n) || i < 0 || i >= n {
		panic(fmt.Sprintf("msaa: sample %d of %d", i, n))
	}
	if n == 4 {
		return abi.MSAA4Sample(i)
	}
	p := positions[log2(n)][i]
	return int(p[0]), int(p[1])
}

// Full is the mask with every one of n samples set.
func Full(n int) Mask { return Mask(1<<n - 1) }

func log2(n int) int {
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}
