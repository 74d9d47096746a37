package frontend

import (
	"math"

	"vortexgfx/abi"
)

// FixDev is fixed_t(float) on the RISC-V device: multiply by 2^frac in float32 and
// convert with fcvt.w.s, which saturates and maps NaN to INT_MAX: how the
// fragment kernels (draw3d_fs, the FS wrapper) evaluate the planes setup
// emits. spec: vortex-hardware-facts §3.3
func FixDev(f float32, frac uint) int32 {
	r, ok := abi.FixedFromFloat(f, frac)
	if !ok && f != f {
		return math.MaxInt32
	}
	return r
}

// MulA is FloatA × FloatA: a 64-bit product shifted right by 24.
func MulA(a, b int32) int32 { return int32(int64(a) * int64(b) >> abi.FracA) }
