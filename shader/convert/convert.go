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
// or a magnitude beyond the integer's range. For those cases we pick what Mesa's
// llvmpipe computes at run time on x86, because llvmpipe is the implementation
// the piglit results are compared with: its f2i32 is LLVM's fptosi, which x86
// compiles to cvttps2dq, and its f2u32 is LLVM's fptoui, which x86 without
// AVX-512 expands into two cvttps2dq (of x and of x − 2³¹) merged by the sign of
// the first. Every unrepresentable case then comes out as cvttps2dq's "integer
// indefinite" 0x80000000, except that a negative value above −2³¹ converted to
// uint keeps the two's-complement word of its truncation (uint(−3.0) is
// 0xFFFFFFFD, the same word as uint(int(−3.0))):
//
//	x                      FloatToInt(x)       FloatToUint(x)
//	in (−2³¹, 2³¹)         trunc(x)            uint32(int32(trunc(x)))
//	in [2³¹, 2³²)          −2³¹ (0x80000000)   trunc(x)
//	≤ −2³¹, ≥ 2³², ±Inf    −2³¹                0x80000000
//	NaN                    −2³¹                0x80000000
package convert

// indefinite is x86's integer indefinite, the result of cvttps2dq for a value
// it cannot represent.
// It is also the int32 −2³¹.
const indefinite = 0x80000000

// FloatToInt converts x to int32 as int(x) does: truncation toward zero, and
// 0x80000000 (−2³¹) when the result is not representable (see the package doc).
func FloatToInt(x float32) int32 {
	if x >= -2147483648 && x < 2147483648 { // NaN fails both
		return int32(x)
	}
	return -indefinite
}

// FloatToUint converts x to uint32 as uint(x) does: truncation toward zero for
// values in [0, 2³²), the two's-complement word of the truncation for negative
// values above −2³¹, and 0x80000000 otherwise (see the package doc).
func FloatToUint(x float32) uint32 {
	switch {
	case x >= -2147483648 && x < 2147483648: // NaN fails both
		return uint32(int32(x))
	case x >= 2147483648 && x < 4294967296:
		return uint32(x)
	}
	return indefinite
}
