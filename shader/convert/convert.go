// Package convert holds the float-to-integer conversions of the shader
// language, once, for every part of the compiler and executor that converts:
// the GLSL constant folder (shader/glsl/types), the IR evaluator (shader/ir,
// which the lowering's constant folding and the SIMT executor shader/exec run),
// so that int(x) and uint(x) give the same word whether x is a constant or not.
// It is a leaf package: the front end must not import the IR, and the IR must
// not import the front end.
//
// # Semantics
//
// GLSL 4.60 §5.4.1 (and §4.1.10) defines the conversion of a float to int or
// uint as truncation toward zero, and leaves it undefined when the truncated
// value is not representable — a negative value converted to uint, NaN, ±Inf,
// or a magnitude beyond the integer's range. For those cases we take what the
// Vortex cores compute, as the IR does for every other undefined case (x/0,
// min/max of NaN, out-of-range shifts: shader/ir.Eval): the RISC-V F
// extension's fcvt.w.s and fcvt.wu.s with the round-towards-zero mode
// (RISC-V unprivileged ISA 20191213 §11.7, Table 11.4). They saturate: a value
// below the range gives the smallest integer, one above it (or +Inf) the
// largest, and NaN the largest. uint(−3.0) is therefore 0, not the
// two's-complement word 0xFFFFFFFD that a C cast on x86 happens to give; no
// piglit test depends on the difference (llvmpipe's x86 code gives
// 0x80000000 or the wrapped word there, an implementation accident as much as
// this is a choice).
//
//	x                        FloatToInt(x)         FloatToUint(x)
//	NaN                      2³¹−1 (0x7FFFFFFF)    2³²−1 (0xFFFFFFFF)
//	≥ 2³¹, +Inf              2³¹−1                 trunc(x) below 2³², else 2³²−1
//	in (−2³¹−1, 2³¹)         trunc(x)              trunc(x) when ≥ 0, else 0
//	≤ −2³¹−1, −Inf           −2³¹ (0x80000000)     0
package convert

// FloatToInt converts x to int32 as int(x) does on the Vortex cores
// (fcvt.w.s, rtz): truncation toward zero, saturating at both ends, NaN to
// the largest int (see the package doc).
func FloatToInt(x float32) int32 {
	switch {
	case x != x || x >= 2147483648:
		return 1<<31 - 1
	case x < -2147483648: // −2³¹ itself is representable
		return -1 << 31
	}
	return int32(x)
}

// FloatToUint converts x to uint32 as uint(x) does on the Vortex cores
// (fcvt.wu.s, rtz): truncation toward zero, negative values to 0, values from
// 2³² up and NaN to the largest uint (see the package doc).
func FloatToUint(x float32) uint32 {
	switch {
	case x != x || x >= 4294967296:
		return 1<<32 - 1
	case x < 0: // (−1, 0) truncates to 0; from −1 down fcvt.wu.s saturates to 0
		return 0
	}
	return uint32(x)
}
