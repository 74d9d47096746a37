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

// GuardRHW is the fragment kernels' guard on an interpolated 1/w before the
// perspective divide: |rhw| < 1e-8 is clamped to ±1e-8 (towards its sign;
// +0 goes to +1e-8), so a vertex at w → ∞ never divides by zero. Both the
// draw3d fragment kernel and the FS wrapper apply it. spec:
// vortex-hardware-facts §3.3 (perspective: attr · (1 / interp(rhw)))
func GuardRHW(rhw float32) float32 {
	const kMin = float32(1e-8)
	if rhw < kMin && rhw > -kMin {
		if rhw < 0 {
			return -kMin
		}
		return kMin
	}
	return rhw
}
