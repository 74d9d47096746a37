package ir

import (
	"math"
	"math/bits"

	"vortexgfx/shader/convert"
)

// F32Bits returns the IEEE single-precision bits of v.
func F32Bits(v float32) uint32 { return math.Float32bits(v) }

// BitsF32 returns the float32 whose bits are w.
func BitsF32(w uint32) float32 { return math.Float32frombits(w) }

func f(w uint32) float32  { return math.Float32frombits(w) }
func fb(v float32) uint32 { return math.Float32bits(v) }
func d(w uint32) float64  { return float64(math.Float32frombits(w)) }
func db(v float64) uint32 { return math.Float32bits(float32(v)) }
func bw(c bool) uint32 {
	if c {
		return 1
	}
	return 0
}

// Eval computes one pure ALU opcode on raw 32-bit words. It is the single definition
// of the IR's arithmetic: the executor runs it per lane for the ops it does not
// specialise and constant folding runs it at compile time, so both agree bit for bit.
//
// Float results are IEEE single precision. Basic arithmetic is done in float32;
// transcendental functions are evaluated in float64 and rounded once to float32
// (well inside GLSL's precision bounds). Nothing collapses: 1/0 is +Inf,
// inversesqrt(0) is +Inf and inversesqrt(x<0) is NaN (spec: software-shader-backend
// "Reciprocal and square root behavior" is what we do not copy). Integer maths wraps.
// GLSL's undefined cases are given the RISC-V results the Vortex cores produce:
// min/max return the non-NaN operand (RISC-V fmin.s/fmax.s), x/0 is all ones (uint)
// or -1 (int), x%0 is x, INT_MIN/-1 is INT_MIN with remainder
// 0, shift amounts use their low five bits. Float-to-integer conversion is package
// convert's, shared with the GLSL constant folder (fcvt.w.s/fcvt.wu.s: saturating,
// NaN to the largest value). Eval of a non-pure opcode returns 0.
func Eval(op Op, imm uint32, a, b, c, e uint32) uint32 {
	switch op {
	case Const:
		return imm
	case Mov, Cast:
		return a
	case Select:
		if a != 0 {
			return b
		}
		return c

	case FNeg:
		return a ^ 0x80000000
	case FAbs:
		return a &^ 0x80000000
	case FSign:
		x := f(a)
		switch {
		case x > 0:
			return fb(1)
		case x < 0:
			return fb(-1)
		}
		return a
	case Floor:
		return fb(float32(math.Floor(d(a))))
	case Ceil:
		return fb(float32(math.Ceil(d(a))))
	case Trunc:
		return fb(float32(math.Trunc(d(a))))
	case Round:
		return fb(float32(math.Round(d(a))))
	case RoundEven:
		return fb(float32(math.RoundToEven(d(a))))
	case Fract:
		x := f(a)
		return fb(x - float32(math.Floor(float64(x))))
	case Sqrt:
		return db(math.Sqrt(d(a)))
	case InvSqrt:
		return db(1 / math.Sqrt(d(a)))
	case Exp:
		return db(math.Exp(d(a)))
	case Exp2:
		return db(math.Exp2(d(a)))
	case Log:
		return db(math.Log(d(a)))
	case Log2:
		return db(math.Log2(d(a)))
	case Sin:
		return db(math.Sin(d(a)))
	case Cos:
		return db(math.Cos(d(a)))
	case Tan:
		return db(math.Tan(d(a)))
	case Asin:
		return db(math.Asin(d(a)))
	case Acos:
		return db(math.Acos(d(a)))
	case Atan:
		return db(math.Atan(d(a)))
	case Sinh:
		return db(math.Sinh(d(a)))
	case Cosh:
		return db(math.Cosh(d(a)))
	case Tanh:
		return db(math.Tanh(d(a)))
	case Asinh:
		return db(math.Asinh(d(a)))
	case Acosh:
		return db(math.Acosh(d(a)))
	case Atanh:
		return db(math.Atanh(d(a)))
	case FrexpMant:
		x := d(a)
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return a
		}
		m, _ := math.Frexp(x)
		return db(m)
	case FAdd:
		return fb(f(a) + f(b))
	case FSub:
		return fb(f(a) - f(b))
	case FMul:
		return fb(f(a) * f(b))
	case FDiv:
		return fb(f(a) / f(b))
	case FMod:
		x, y := f(a), f(b)
		q := float32(math.Floor(float64(x / y)))
		return fb(x - float32(y*q))
	case FMin:
		return FMinNum(a, b)
	case FMax:
		return FMaxNum(a, b)
	case Pow:
		return db(math.Pow(d(a), d(b)))
	case Atan2:
		return db(math.Atan2(d(a), d(b)))
	case FClamp:
		return FMinNum(FMaxNum(a, b), c)
	case Fma:
		return fb(FMA32(f(a), f(b), f(c)))
	case IsNan:
		return bw(f(a) != f(a))
	case IsInf:
		return bw(math.IsInf(d(a), 0))
	case FrexpExp:
		x := d(a)
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0
		}
		_, ex := math.Frexp(x)
		return uint32(int32(ex))
	case Ldexp:
		n := int32(b)
		if n > 300 {
			n = 300
		} else if n < -300 {
			n = -300
		}
		return db(math.Ldexp(d(a), int(n)))

	case INeg:
		return -a
	case IAbs:
		if int32(a) < 0 {
			return -a
		}
		return a
	case ISign:
		switch {
		case int32(a) > 0:
			return 1
		case int32(a) < 0:
			return ^uint32(0)
		}
		return 0
	case IAdd, UAdd:
		return a + b
	case ISub, USub:
		return a - b
	case IMul, UMul:
		return a * b
	case IDiv:
		x, y := int32(a), int32(b)
		switch {
		case y == 0:
			return ^uint32(0)
		case y == -1:
			return uint32(-x)
		}
		return uint32(x / y)
	case IMod:
		x, y := int32(a), int32(b)
		switch {
		case y == 0:
			return a
		case y == -1:
			return 0
		}
		return uint32(x % y)
	case IMin:
		if int32(b) < int32(a) {
			return b
		}
		return a
	case IMax:
		if int32(a) < int32(b) {
			return b
		}
		return a
	case IClamp:
		x := a
		if int32(x) < int32(b) {
			x = b
		}
		if int32(c) < int32(x) {
			x = c
		}
		return x
	case IMulHi:
		return uint32(uint64(int64(int32(a))*int64(int32(b))) >> 32)
	case UDiv:
		if b == 0 {
			return ^uint32(0)
		}
		return a / b
	case UMod:
		if b == 0 {
			return a
		}
		return a % b
	case UMin:
		return min(a, b)
	case UMax:
		return max(a, b)
	case UClamp:
		return min(max(a, b), c)
	case UMulHi:
		hi, _ := bits.Mul32(a, b)
		return hi
	case UAddCarry:
		_, carry := bits.Add32(a, b, 0)
		return carry
	case USubBorrow:
		_, borrow := bits.Sub32(a, b, 0)
		return borrow

	case Not:
		return ^a
	case And:
		return a & b
	case Or:
		return a | b
	case Xor:
		return a ^ b
	case Shl:
		return a << (b & 31)
	case IShr:
		return uint32(int32(a) >> (b & 31))
	case UShr:
		return a >> (b & 31)
	case IBfe, UBfe:
		off, n := bfRange(b, c)
		if n == 0 {
			return 0
		}
		v := a << (32 - off - n)
		if op == IBfe {
			return uint32(int32(v) >> (32 - n))
		}
		return v >> (32 - n)
	case BitfieldInsert:
		off, n := bfRange(c, e)
		if n == 0 {
			return a
		}
		mask := uint32((uint64(1)<<n)-1) << off
		return a&^mask | (b<<off)&mask
	case BitReverse:
		return bits.Reverse32(a)
	case BitCount:
		return uint32(bits.OnesCount32(a))
	case FindLSB:
		if a == 0 {
			return ^uint32(0)
		}
		return uint32(bits.TrailingZeros32(a))
	case IFindMSB:
		v := a
		if int32(v) < 0 {
			v = ^v
		}
		return uint32(bits.Len32(v) - 1)
	case UFindMSB:
		return uint32(bits.Len32(a) - 1)

	case FtoI:
		return uint32(convert.FloatToInt(f(a)))
	case FtoU:
		return convert.FloatToUint(f(a))
	case ItoF:
		return fb(float32(int32(a)))
	case UtoF:
		return fb(float32(a))
	case BtoF:
		if a != 0 {
			return fb(1)
		}
		return 0
	case BtoI, BtoU:
		return bw(a != 0)

	case FEq:
		return bw(f(a) == f(b))
	case FNe:
		return bw(f(a) != f(b))
	case FLt:
		return bw(f(a) < f(b))
	case FLe:
		return bw(f(a) <= f(b))
	case FGt:
		return bw(f(a) > f(b))
	case FGe:
		return bw(f(a) >= f(b))
	case ILt:
		return bw(int32(a) < int32(b))
	case ILe:
		return bw(int32(a) <= int32(b))
	case IGt:
		return bw(int32(a) > int32(b))
	case IGe:
		return bw(int32(a) >= int32(b))
	case ULt:
		return bw(a < b)
	case ULe:
		return bw(a <= b)
	case UGt:
		return bw(a > b)
	case UGe:
		return bw(a >= b)
	case Eq:
		return bw(a == b)
	case Ne:
		return bw(a != b)
	case BAnd:
		return bw(a != 0 && b != 0)
	case BOr:
		return bw(a != 0 || b != 0)
	case BXor:
		return bw((a != 0) != (b != 0))
	case BNot:
		return bw(a == 0)

	case PackSnorm2x16:
		return packSnorm16(a) | packSnorm16(b)<<16
	case PackUnorm2x16:
		return packUnorm16(a) | packUnorm16(b)<<16
	case PackHalf2x16:
		return uint32(FloatToHalf(f(a))) | uint32(FloatToHalf(f(b)))<<16
	case PackSnorm4x8:
		return packSnorm8(a) | packSnorm8(b)<<8 | packSnorm8(c)<<16 | packSnorm8(e)<<24
	case PackUnorm4x8:
		return packUnorm8(a) | packUnorm8(b)<<8 | packUnorm8(c)<<16 | packUnorm8(e)<<24
	case UnpackSnorm2x16:
		v := float32(int16(a>>(16*(imm&1)))) / 32767
		return fb(min(max(v, -1), 1))
	case UnpackUnorm2x16:
		return fb(float32(uint16(a>>(16*(imm&1)))) / 65535)
	case UnpackHalf2x16:
		return fb(HalfToFloat(uint16(a >> (16 * (imm & 1)))))
	case UnpackSnorm4x8:
		v := float32(int8(a>>(8*(imm&3)))) / 127
		return fb(min(max(v, -1), 1))
	case UnpackUnorm4x8:
		return fb(float32(uint8(a>>(8*(imm&3)))) / 255)
	}
	return 0
}

// FMinNum is min as the Vortex (RISC-V fmin.s) computes it: IEEE 754-2008 minNum,
// so a NaN operand yields the other operand (NaN only when both are), and -0 is
// less than +0. GLSL's "y < x ? y : x" agrees on every non-NaN input; piglit's
// fs-nan-builtin-min/max expect the NaN-avoiding result.
func FMinNum(a, b uint32) uint32 {
	x, y := f(a), f(b)
	switch {
	case x != x:
		return b
	case y != y:
		return a
	case x == y: // +0 and -0
		return a | b&0x80000000
	case y < x:
		return b
	}
	return a
}

// FMaxNum is max as fmax.s computes it (IEEE 754-2008 maxNum; +0 above -0).
func FMaxNum(a, b uint32) uint32 {
	x, y := f(a), f(b)
	switch {
	case x != x:
		return b
	case y != y:
		return a
	case x == y:
		return a & (b | 0x7fffffff)
	case x < y:
		return b
	}
	return a
}

// FMA32 returns a*b+c rounded once to float32. The product is exact in float64;
// the sum is formed in float64 with its exact error (TwoSum) and rounded to odd, so
// that the final rounding to float32 is correct (no double rounding).
func FMA32(a, b, c float32) float32 {
	p := float64(a) * float64(b) // exact: 24+24 bits
	z := float64(c)
	s := p + z
	if math.IsInf(s, 0) || math.IsNaN(s) || s == 0 {
		return float32(s)
	}
	bv := s - p
	av := s - bv
	e := (p - av) + (z - bv)
	if e != 0 {
		w := math.Float64bits(s)
		if w&1 == 0 { // round to odd: step towards the exact value
			if (e > 0) == (s > 0) {
				w++
			} else {
				w--
			}
			s = math.Float64frombits(w)
		}
	}
	return float32(s)
}

// bfRange clamps a bitfield's offset and bit count (GLSL leaves out-of-range values
// undefined) to 0 <= offset <= 32 and 0 <= bits <= 32-offset.
func bfRange(offset, count uint32) (off, n uint32) {
	o, c := int32(offset), int32(count)
	o = min(max(o, 0), 32)
	c = min(max(c, 0), 32-o)
	return uint32(o), uint32(c)
}

// The pack functions scale in single precision, as GLSL's float arithmetic does
// (GLSL 4.50 §8.4: round(clamp(c, 0, 1) * 65535.0) on a float): e.g. 0.9 packs to
// 58982 because float32(0.9)·65535 rounds to 58981.5 in float32.
func packUnorm16(w uint32) uint32 {
	x := min(max(f(w), 0), 1)
	return uint32(math.RoundToEven(float64(x * 65535)))
}

func packSnorm16(w uint32) uint32 {
	x := min(max(f(w), -1), 1)
	return uint32(uint16(int16(math.RoundToEven(float64(x * 32767)))))
}

func packUnorm8(w uint32) uint32 {
	x := min(max(f(w), 0), 1)
	return uint32(math.RoundToEven(float64(x * 255)))
}

func packSnorm8(w uint32) uint32 {
	x := min(max(f(w), -1), 1)
	return uint32(uint8(int8(math.RoundToEven(float64(x * 127)))))
}

// FloatToHalf converts to IEEE half precision, rounding to nearest even; overflow
// gives infinity and NaN stays NaN.
func FloatToHalf(x float32) uint16 {
	w := math.Float32bits(x)
	sign := uint16(w>>16) & 0x8000
	exp := int32(w>>23) & 0xff
	man := w & 0x7fffff
	if exp == 0xff {
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 31 {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		m := man | 0x800000
		shift := uint32(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 != 0) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 != 0) {
		h++ // may carry into the exponent, up to infinity: still correct
	}
	return sign | uint16(h)
}

// HalfToFloat converts IEEE half precision to float32 exactly.
func HalfToFloat(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		v := float32(man) / 16777216 // man * 2^-24
		if sign != 0 {
			return -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// FlushDenormal returns w with a denormal float flushed to the zero of its sign;
// other words (normal, zero, infinite, NaN) are returned unchanged.
func FlushDenormal(w uint32) uint32 {
	if w&0x7f800000 == 0 {
		return w & 0x80000000
	}
	return w
}

// FlushesDenormals reports whether o is float arithmetic whose denormal results
// are flushed to zero in a Program with FlushDenormals set: the rounding,
// transcendental and arithmetic ops, fma, ldexp and the derivatives. Moves, sign
// and absolute value, min/max/clamp and sign (which return an operand or a
// constant), conversions, bit casts and unpacking keep their bits, as on
// llvmpipe. spec: GLSL 4.60 §4.7.1.
func (o Op) FlushesDenormals() bool {
	switch {
	case o > FSign && o <= FrexpMant:
		return true
	case o >= FAdd && o <= FMod, o == Pow, o == Atan2, o == Fma, o == Ldexp:
		return true
	case o == DdxFine, o == DdyFine, o == DdxCoarse, o == DdyCoarse:
		return true
	}
	return false
}
