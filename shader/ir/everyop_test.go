package ir

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// Float references in float64 (rounded to float32 for comparison) with the largest
// error allowed in ulps. GLSL 4.50 §4.7.1 allows more for most of these; we stay
// within 1 ulp (0.5 for the correctly rounded ones).
var floatRefs = map[Op]struct {
	f   func(a, b, c float64) float64
	ulp float64
}{
	FNeg: {func(a, _, _ float64) float64 { return -a }, 0}, FAbs: {func(a, _, _ float64) float64 { return math.Abs(a) }, 0},
	FSign: {func(a, _, _ float64) float64 {
		if a > 0 {
			return 1
		} else if a < 0 {
			return -1
		}
		return a
	}, 0},
	Floor: {func(a, _, _ float64) float64 { return math.Floor(a) }, 0}, Ceil: {func(a, _, _ float64) float64 { return math.Ceil(a) }, 0},
	Trunc: {func(a, _, _ float64) float64 { return math.Trunc(a) }, 0}, Round: {func(a, _, _ float64) float64 { return math.Round(a) }, 0},
	RoundEven: {func(a, _, _ float64) float64 { return math.RoundToEven(a) }, 0},
	Fract:     {func(a, _, _ float64) float64 { return a - math.Floor(a) }, 0.5},
	Sqrt:      {func(a, _, _ float64) float64 { return math.Sqrt(a) }, 0.5}, InvSqrt: {func(a, _, _ float64) float64 { return 1 / math.Sqrt(a) }, 1},
	Exp: {func(a, _, _ float64) float64 { return math.Exp(a) }, 1}, Exp2: {func(a, _, _ float64) float64 { return math.Exp2(a) }, 1},
	Log: {func(a, _, _ float64) float64 { return math.Log(a) }, 1}, Log2: {func(a, _, _ float64) float64 { return math.Log2(a) }, 1},
	Sin: {func(a, _, _ float64) float64 { return math.Sin(a) }, 1}, Cos: {func(a, _, _ float64) float64 { return math.Cos(a) }, 1},
	Tan: {func(a, _, _ float64) float64 { return math.Tan(a) }, 1}, Asin: {func(a, _, _ float64) float64 { return math.Asin(a) }, 1},
	Acos: {func(a, _, _ float64) float64 { return math.Acos(a) }, 1}, Atan: {func(a, _, _ float64) float64 { return math.Atan(a) }, 1},
	Sinh: {func(a, _, _ float64) float64 { return math.Sinh(a) }, 1}, Cosh: {func(a, _, _ float64) float64 { return math.Cosh(a) }, 1},
	Tanh: {func(a, _, _ float64) float64 { return math.Tanh(a) }, 1}, Asinh: {func(a, _, _ float64) float64 { return math.Asinh(a) }, 1},
	Acosh: {func(a, _, _ float64) float64 { return math.Acosh(a) }, 1}, Atanh: {func(a, _, _ float64) float64 { return math.Atanh(a) }, 1},
	FrexpMant: {func(a, _, _ float64) float64 { m, _ := math.Frexp(a); return m }, 0},
	FAdd:      {func(a, b, _ float64) float64 { return a + b }, 0.5}, FSub: {func(a, b, _ float64) float64 { return a - b }, 0.5},
	FMul: {func(a, b, _ float64) float64 { return a * b }, 0.5}, FDiv: {func(a, b, _ float64) float64 { return a / b }, 0.5},
	FMin: {func(a, b, _ float64) float64 { return math.Min(a, b) }, 0}, FMax: {func(a, b, _ float64) float64 { return math.Max(a, b) }, 0},
	Pow: {func(a, b, _ float64) float64 { return math.Pow(a, b) }, 1}, Atan2: {func(a, b, _ float64) float64 { return math.Atan2(a, b) }, 1},
	FClamp: {func(a, b, c float64) float64 { return math.Min(math.Max(a, b), c) }, 0},
	Fma:    {func(a, b, c float64) float64 { return a*b + c }, 0.5},
	// GLSL's mod is x - y*floor(x/y) in float32 steps; checked in TestEvalIEEEEdges.
}

// Integer references on uint32 words.
var intRefs = map[Op]func(a, b, c uint32) uint32{
	INeg: func(a, _, _ uint32) uint32 { return uint32(-int32(a)) },
	IAbs: func(a, _, _ uint32) uint32 {
		if int32(a) < 0 {
			return uint32(-int32(a))
		}
		return a
	},
	IAdd: func(a, b, _ uint32) uint32 { return a + b }, ISub: func(a, b, _ uint32) uint32 { return a - b },
	IMul: func(a, b, _ uint32) uint32 { return uint32(int32(a) * int32(b)) },
	UAdd: func(a, b, _ uint32) uint32 { return a + b }, USub: func(a, b, _ uint32) uint32 { return a - b },
	UMul: func(a, b, _ uint32) uint32 { return a * b },
	IMin: func(a, b, _ uint32) uint32 { return uint32(min(int32(a), int32(b))) },
	IMax: func(a, b, _ uint32) uint32 { return uint32(max(int32(a), int32(b))) },
	UMin: func(a, b, _ uint32) uint32 { return min(a, b) }, UMax: func(a, b, _ uint32) uint32 { return max(a, b) },
	IClamp: func(a, b, c uint32) uint32 { return uint32(min(max(int32(a), int32(b)), int32(c))) },
	UClamp: func(a, b, c uint32) uint32 { return min(max(a, b), c) },
	IMulHi: func(a, b, _ uint32) uint32 { return uint32(uint64(int64(int32(a))*int64(int32(b))) >> 32) },
	UMulHi: func(a, b, _ uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) },
	UAddCarry: func(a, b, _ uint32) uint32 {
		if uint64(a)+uint64(b) > math.MaxUint32 {
			return 1
		}
		return 0
	},
	USubBorrow: func(a, b, _ uint32) uint32 {
		if a < b {
			return 1
		}
		return 0
	},
	Not: func(a, _, _ uint32) uint32 { return ^a }, And: func(a, b, _ uint32) uint32 { return a & b },
	Or: func(a, b, _ uint32) uint32 { return a | b }, Xor: func(a, b, _ uint32) uint32 { return a ^ b },
	Shl: func(a, b, _ uint32) uint32 { return a << (b % 32) }, UShr: func(a, b, _ uint32) uint32 { return a >> (b % 32) },
	IShr:       func(a, b, _ uint32) uint32 { return uint32(int32(a) >> (b % 32)) },
	BitReverse: func(a, _, _ uint32) uint32 { return bits.Reverse32(a) },
	BitCount:   func(a, _, _ uint32) uint32 { return uint32(bits.OnesCount32(a)) },
	ILt:        func(a, b, _ uint32) uint32 { return b2u(int32(a) < int32(b)) }, ILe: func(a, b, _ uint32) uint32 { return b2u(int32(a) <= int32(b)) },
	IGt: func(a, b, _ uint32) uint32 { return b2u(int32(a) > int32(b)) }, IGe: func(a, b, _ uint32) uint32 { return b2u(int32(a) >= int32(b)) },
	ULt: func(a, b, _ uint32) uint32 { return b2u(a < b) }, ULe: func(a, b, _ uint32) uint32 { return b2u(a <= b) },
	UGt: func(a, b, _ uint32) uint32 { return b2u(a > b) }, UGe: func(a, b, _ uint32) uint32 { return b2u(a >= b) },
	Eq: func(a, b, _ uint32) uint32 { return b2u(a == b) }, Ne: func(a, b, _ uint32) uint32 { return b2u(a != b) },
	ItoF: func(a, _, _ uint32) uint32 { return math.Float32bits(float32(int32(a))) },
	UtoF: func(a, _, _ uint32) uint32 { return math.Float32bits(float32(a)) },
	Mov:  func(a, _, _ uint32) uint32 { return a }, Cast: func(a, _, _ uint32) uint32 { return a },
}

func b2u(c bool) uint32 {
	if c {
		return 1
	}
	return 0
}

// checkedElsewhere lists the pure ops whose values are pinned by the table tests in
// eval_test.go (edge cases, conversions, packing, bit fields, bools).
var checkedElsewhere = map[Op]bool{
	Const: true, Select: true, FMod: true, IsNan: true, IsInf: true, FrexpExp: true, Ldexp: true,
	ISign: true, IDiv: true, IMod: true, UDiv: true, UMod: true, IBfe: true, UBfe: true, BitfieldInsert: true,
	FindLSB: true, IFindMSB: true, UFindMSB: true, FtoI: true, FtoU: true, BtoF: true, BtoI: true, BtoU: true,
	FEq: true, FNe: true, FLt: true, FLe: true, FGt: true, FGe: true, BAnd: true, BOr: true, BXor: true, BNot: true,
	PackSnorm2x16: true, PackUnorm2x16: true, PackHalf2x16: true, PackSnorm4x8: true, PackUnorm4x8: true,
	UnpackSnorm2x16: true, UnpackUnorm2x16: true, UnpackHalf2x16: true, UnpackSnorm4x8: true, UnpackUnorm4x8: true,
}

// TestEveryOpcode checks every pure opcode: float ops against float64 references
// within their ulp bound over random inputs of several magnitudes, integer ops
// against Go's int32/uint32 arithmetic, and that no pure opcode is left unchecked.
func TestEveryOpcode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for op := Op(0); op < NumOps; op++ {
		if !op.IsPure() {
			continue
		}
		fr, isF := floatRefs[op]
		ir, isI := intRefs[op]
		if !isF && !isI && !checkedElsewhere[op] {
			t.Errorf("%v has no reference check", op)
			continue
		}
		for k := 0; k < 3000; k++ {
			if isF {
				scale := math.Pow(2, float64(rng.IntN(20)-10))
				a := float32(rng.NormFloat64() * scale)
				b := float32(rng.NormFloat64() * scale)
				c := float32(rng.NormFloat64() * scale)
				switch op {
				case Log, Log2, Sqrt, InvSqrt, Acosh:
					a = float32(math.Abs(float64(a))) + 1
				case Asin, Acos, Atanh:
					a = float32(math.Mod(float64(a), 1))
				case Pow:
					a = float32(math.Abs(float64(a)))
					b = float32(math.Mod(float64(b), 8))
				case Exp, Exp2, Sinh, Cosh:
					a = float32(math.Mod(float64(a), 60))
				case FClamp:
					if b > c {
						b, c = c, b
					}
				}
				got := math.Float32frombits(Eval(op, 0, fw(a), fw(b), fw(c), 0))
				want := fr.f(float64(a), float64(b), float64(c))
				if e := math.Abs(float64(got)-want) / ulpOf(want); e > fr.ulp+1e-9 && !(math.IsNaN(want) && got != got) {
					t.Fatalf("%v(%v, %v, %v) = %v, want %v (%.3f ulp > %g)", op, a, b, c, got, want, e, fr.ulp)
				}
			}
			if isI {
				a, b, c := rng.Uint32(), rng.Uint32(), rng.Uint32()
				if k%2 == 0 {
					a, b, c = uint32(rng.IntN(64)-32), uint32(rng.IntN(64)-32), uint32(rng.IntN(64)-32)
				}
				if op == IClamp && int32(b) > int32(c) {
					b, c = c, b
				}
				if op == UClamp && b > c {
					b, c = c, b
				}
				if got, want := Eval(op, 0, a, b, c, 0), ir(a, b, c); got != want {
					t.Fatalf("%v(%#x, %#x, %#x) = %#x, want %#x", op, a, b, c, got, want)
				}
			}
		}
	}
}
