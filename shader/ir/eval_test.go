package ir

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func fw(v float32) uint32 { return math.Float32bits(v) }

// ulps returns the distance in units in the last place between two float32 values
// (0 when both are NaN or equal).
func ulps(a, b float32) float64 {
	if a != a && b != b {
		return 0
	}
	if a == b {
		return 0
	}
	if a != a || b != b || math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	ia, ib := int64(int32(math.Float32bits(a))), int64(int32(math.Float32bits(b)))
	if ia < 0 {
		ia = math.MinInt32 - ia
	}
	if ib < 0 {
		ib = math.MinInt32 - ib
	}
	return math.Abs(float64(ia - ib))
}

// TestEvalIEEEEdges pins the cases the software backend collapses (spec:
// software-shader-backend "Reciprocal and square root behavior": RCP(0)=0 and
// RSQ(x<=0)=0 are limits we do not copy) and other IEEE edge cases.
func TestEvalIEEEEdges(t *testing.T) {
	inf, ninf := float32(math.Inf(1)), float32(math.Inf(-1))
	nan := float32(math.NaN())
	negz := float32(math.Copysign(0, -1))
	tests := []struct {
		name string
		op   Op
		a, b float32
		want float32
	}{
		{"rcp(0)=+inf", FDiv, 1, 0, inf},
		{"rcp(-0)=-inf", FDiv, 1, negz, ninf},
		{"0/0=nan", FDiv, 0, 0, nan},
		{"rsq(0)=+inf", InvSqrt, 0, 0, inf},
		{"rsq(-0)=-inf", InvSqrt, negz, 0, ninf},
		{"rsq(-1)=nan", InvSqrt, -1, 0, nan},
		{"rsq(+inf)=0", InvSqrt, inf, 0, 0},
		{"rsq(4)=0.5", InvSqrt, 4, 0, 0.5},
		{"sqrt(-1)=nan", Sqrt, -1, 0, nan},
		{"sqrt(-0)=-0", Sqrt, negz, 0, negz},
		{"log(0)=-inf", Log, 0, 0, ninf},
		{"log(-1)=nan", Log, -1, 0, nan},
		{"log2(0)=-inf", Log2, 0, 0, ninf},
		{"exp(100)=inf", Exp, 100, 0, inf},
		{"exp2(-200)=0", Exp2, -200, 0, 0},
		{"exp2(-140) subnormal", Exp2, -140, 0, float32(math.Ldexp(1, -140))},
		{"pow(-2,0.5)=nan", Pow, -2, 0.5, nan},
		{"pow(-2,3)=-8", Pow, -2, 3, -8},
		{"pow(0,-1)=inf", Pow, 0, -1, inf},
		{"sin(inf)=nan", Sin, inf, 0, nan},
		{"asin(2)=nan", Asin, 2, 0, nan},
		{"mod(5.5,2)", FMod, 5.5, 2, 1.5},
		{"mod(-5.5,2)", FMod, -5.5, 2, 0.5},
		{"mod(x,0)=nan", FMod, 1, 0, nan},
		{"fract(-1.25)", Fract, -1.25, 0, 0.75},
		{"round(2.5) away", Round, 2.5, 0, 3},
		{"roundEven(2.5)", RoundEven, 2.5, 0, 2},
		{"roundEven(-3.5)", RoundEven, -3.5, 0, -4},
		{"trunc(-1.7)", Trunc, -1.7, 0, -1},
		{"floor(-1.5)", Floor, -1.5, 0, -2},
		{"ceil(-1.5)", Ceil, -1.5, 0, -1},
		{"sign(-3)", FSign, -3, 0, -1},
		{"sign(0)", FSign, 0, 0, 0},
		{"min(1,nan)", FMin, 1, nan, 1},
		{"max(nan,1)=1 (maxNum)", FMax, nan, 1, 1},
		{"min(nan,nan)=nan", FMin, nan, nan, nan},
		{"min(-0,+0)=-0", FMin, 0, negz, negz},
		{"max(-0,+0)=+0", FMax, negz, 0, 0},
		{"max(1,nan)=1", FMax, 1, nan, 1},
		{"atan2(1,-1)", Atan2, 1, -1, float32(3 * math.Pi / 4)},
		{"atanh(1)=inf", Atanh, 1, 0, inf},
		{"acosh(0.5)=nan", Acosh, 0.5, 0, nan},
		{"frexp mant 8", FrexpMant, 8, 0, 0.5},
		{"fneg(0)=-0", FNeg, 0, 0, negz},
	}
	for _, tc := range tests {
		got := math.Float32frombits(Eval(tc.op, 0, fw(tc.a), fw(tc.b), 0, 0))
		if ulps(got, tc.want) > 1 || math.Signbit(float64(got)) != math.Signbit(float64(tc.want)) && tc.want == 0 {
			t.Errorf("%s: %v(%v, %v) = %v, want %v", tc.name, tc.op, tc.a, tc.b, got, tc.want)
		}
	}
}

// TestEvalInteger pins integer, bit, conversion and comparison results, including
// GLSL's undefined cases given the RISC-V results.
func TestEvalInteger(t *testing.T) {
	i := func(v int32) uint32 { return uint32(v) }
	tests := []struct {
		name       string
		op         Op
		imm        uint32
		a, b, c, e uint32
		want       uint32
	}{
		{"iadd wraps", IAdd, 0, i(math.MaxInt32), 1, 0, 0, i(math.MinInt32)},
		{"imul wraps", IMul, 0, 0x10000, 0x10000, 0, 0, 0},
		{"idiv", IDiv, 0, i(-7), 2, 0, 0, i(-3)},
		{"idiv by 0", IDiv, 0, 7, 0, 0, 0, i(-1)},
		{"idiv min/-1", IDiv, 0, i(math.MinInt32), i(-1), 0, 0, i(math.MinInt32)},
		{"imod", IMod, 0, i(-7), 2, 0, 0, i(-1)},
		{"imod by 0", IMod, 0, 7, 0, 0, 0, 7},
		{"imod min/-1", IMod, 0, i(math.MinInt32), i(-1), 0, 0, 0},
		{"udiv by 0", UDiv, 0, 7, 0, 0, 0, math.MaxUint32},
		{"umod by 0", UMod, 0, 7, 0, 0, 0, 7},
		{"iabs min", IAbs, 0, i(math.MinInt32), 0, 0, 0, i(math.MinInt32)},
		{"isign", ISign, 0, i(-9), 0, 0, 0, i(-1)},
		{"iclamp", IClamp, 0, i(-9), i(-2), 5, 0, i(-2)},
		{"uclamp", UClamp, 0, 9, 2, 5, 0, 5},
		{"shl 33 = shl 1", Shl, 0, 1, 33, 0, 0, 2},
		{"ishr", IShr, 0, i(-8), 1, 0, 0, i(-4)},
		{"ushr", UShr, 0, 0x80000000, 31, 0, 0, 1},
		{"ubfe", UBfe, 0, 0xabcd1234, 8, 8, 0, 0x12},
		{"ibfe sign", IBfe, 0, 0x0000f000, 12, 4, 0, i(-1)},
		{"bfe 0 bits", UBfe, 0, 0xffffffff, 3, 0, 0, 0},
		{"bfe 32 bits", UBfe, 0, 0xdeadbeef, 0, 32, 0, 0xdeadbeef},
		{"bfe out of range", UBfe, 0, 0xdeadbeef, 30, 10, 0, 0x3},
		{"bfi", BitfieldInsert, 0, 0xffffffff, 0, 4, 8, 0xfffff00f},
		{"bfi 32", BitfieldInsert, 0, 1, 0xdeadbeef, 0, 32, 0xdeadbeef},
		{"bitreverse", BitReverse, 0, 1, 0, 0, 0, 0x80000000},
		{"bitcount", BitCount, 0, 0xf0f0, 0, 0, 0, 8},
		{"findlsb 0", FindLSB, 0, 0, 0, 0, 0, i(-1)},
		{"findlsb", FindLSB, 0, 0x100, 0, 0, 0, 8},
		{"ufindmsb", UFindMSB, 0, 0x80000000, 0, 0, 0, 31},
		{"ifindmsb -1", IFindMSB, 0, i(-1), 0, 0, 0, i(-1)},
		{"ifindmsb -2", IFindMSB, 0, i(-2), 0, 0, 0, 0},
		{"ifindmsb 5", IFindMSB, 0, 5, 0, 0, 0, 2},
		{"umulhi", UMulHi, 0, 0xffffffff, 0xffffffff, 0, 0, 0xfffffffe},
		{"imulhi", IMulHi, 0, i(-1), 1, 0, 0, 0xffffffff},
		{"uaddcarry", UAddCarry, 0, 0xffffffff, 1, 0, 0, 1},
		{"usubborrow", USubBorrow, 0, 0, 1, 0, 0, 1},
		{"ftoi nan", FtoI, 0, fw(float32(math.NaN())), 0, 0, 0, 0x7fffffff},
		{"ftoi big", FtoI, 0, fw(3e9), 0, 0, 0, 0x7fffffff},
		{"ftoi -2.7", FtoI, 0, fw(-2.7), 0, 0, 0, i(-2)},
		{"ftou neg", FtoU, 0, fw(-1), 0, 0, 0, 0},
		{"ftou big", FtoU, 0, fw(5e9), 0, 0, 0, 0xffffffff},
		{"itof", ItoF, 0, i(-3), 0, 0, 0, fw(-3)},
		{"utof", UtoF, 0, 0xffffffff, 0, 0, 0, fw(4294967296)},
		{"btof", BtoF, 0, 1, 0, 0, 0, fw(1)},
		{"fne nan", FNe, 0, fw(float32(math.NaN())), fw(float32(math.NaN())), 0, 0, 1},
		{"feq -0", FEq, 0, fw(0), 0x80000000, 0, 0, 1},
		{"ilt", ILt, 0, i(-1), 0, 0, 0, 1},
		{"ult", ULt, 0, i(-1), 0, 0, 0, 0},
		{"select", Select, 0, 1, 7, 9, 0, 7},
		{"bxor", BXor, 0, 1, 1, 0, 0, 0},
		{"packunorm2x16", PackUnorm2x16, 0, fw(1), fw(0.5), 0, 0, 0x8000ffff},
		{"packunorm2x16 scales in float32", PackUnorm2x16, 0, fw(0.9), fw(0), 0, 0, 58982},
		{"packsnorm2x16", PackSnorm2x16, 0, fw(-1), fw(2), 0, 0, 0x7fff8001},
		{"packunorm4x8", PackUnorm4x8, 0, fw(0), fw(1), fw(0.5), fw(-3), 0x0080ff00},
		{"packsnorm4x8", PackSnorm4x8, 0, fw(1), fw(-1), fw(0), fw(0.5), 0x4000817f},
		{"packhalf2x16", PackHalf2x16, 0, fw(1), fw(-2), 0, 0, 0xc0003c00},
		{"unpackhalf hi", UnpackHalf2x16, 1, 0xc0003c00, 0, 0, 0, fw(-2)},
		{"unpackunorm2x16", UnpackUnorm2x16, 0, 0x0000ffff, 0, 0, 0, fw(1)},
		{"unpacksnorm2x16 -32768", UnpackSnorm2x16, 0, 0x8000, 0, 0, 0, fw(-1)},
		{"unpackunorm4x8", UnpackUnorm4x8, 2, 0x00ff0000, 0, 0, 0, fw(1)},
		{"unpacksnorm4x8", UnpackSnorm4x8, 3, 0x81000000, 0, 0, 0, fw(-1)},
		{"ldexp", Ldexp, 0, fw(0.75), 4, 0, 0, fw(12)},
		{"ldexp huge", Ldexp, 0, fw(1), 1 << 30, 0, 0, fw(float32(math.Inf(1)))},
		{"frexp exp", FrexpExp, 0, fw(8), 0, 0, 0, 4},
	}
	for _, tc := range tests {
		if got := Eval(tc.op, tc.imm, tc.a, tc.b, tc.c, tc.e); got != tc.want {
			t.Errorf("%s: %v = %#x, want %#x", tc.name, tc.op, got, tc.want)
		}
	}
}

// TestEvalPrecision checks the transcendental and arithmetic ops against float64
// references with GLSL 4.50 §4.7.1's precision bounds (we are tighter: 1 ULP for
// almost everything).
func TestEvalPrecision(t *testing.T) {
	type ref struct {
		op     Op
		lo, hi float64
		f      func(x float64) float64
		abs    float64 // absolute bound (0 = use ulp)
		ulp    float64
	}
	refs := []ref{
		{Sin, -math.Pi, math.Pi, math.Sin, 1.0 / 2048, 0},
		{Cos, -math.Pi, math.Pi, math.Cos, 1.0 / 2048, 0},
		{Sin, -1000, 1000, math.Sin, 1.0 / 2048, 0},
		{Tan, -1.5, 1.5, math.Tan, 0, 1},
		{Asin, -1, 1, math.Asin, 0, 1},
		{Acos, -1, 1, math.Acos, 0, 1},
		{Atan, -100, 100, math.Atan, 0, 1},
		{Sinh, -10, 10, math.Sinh, 0, 1},
		{Cosh, -10, 10, math.Cosh, 0, 1},
		{Tanh, -10, 10, math.Tanh, 0, 1},
		{Asinh, -100, 100, math.Asinh, 0, 1},
		{Acosh, 1, 100, math.Acosh, 0, 1},
		{Atanh, -0.99, 0.99, math.Atanh, 0, 1},
		{Exp, -80, 80, math.Exp, 0, 1},
		{Exp2, -120, 120, math.Exp2, 0, 1},
		{Log, 1e-30, 1e30, math.Log, 0, 1},
		{Log2, 1e-30, 1e30, math.Log2, 0, 1},
		{Sqrt, 0, 1e30, math.Sqrt, 0, 0.5},
		{InvSqrt, 1e-30, 1e30, func(x float64) float64 { return 1 / math.Sqrt(x) }, 0, 1},
	}
	for _, r := range refs {
		worst := 0.0
		for k := 0; k <= 4000; k++ {
			x := float32(r.lo + (r.hi-r.lo)*float64(k)/4000)
			got := math.Float32frombits(Eval(r.op, 0, fw(x), 0, 0, 0))
			want := r.f(float64(x))
			if r.abs > 0 {
				if e := math.Abs(float64(got) - want); e > r.abs {
					t.Fatalf("%v(%v) = %v, want %v (abs error %g > %g)", r.op, x, got, want, e, r.abs)
				}
				continue
			}
			e := math.Abs(float64(got)-want) / ulpOf(want)
			worst = max(worst, e)
			if e > r.ulp {
				t.Fatalf("%v(%v) = %v, want %v (%.2f ulp > %g)", r.op, x, got, want, e, r.ulp)
			}
		}
		t.Logf("%v on [%g,%g]: worst %.3f ulp", r.op, r.lo, r.hi, worst)
	}
	// pow: relative error within 2 ulp of the float64 result over positive bases.
	for k := 0; k < 2000; k++ {
		x := float32(0.01 + float64(k)*0.05)
		y := float32(-8 + float64(k%160)*0.1)
		got := math.Float32frombits(Eval(Pow, 0, fw(x), fw(y), 0, 0))
		want := math.Pow(float64(x), float64(y))
		if e := math.Abs(float64(got)-want) / ulpOf(want); e > 1 {
			t.Fatalf("pow(%v,%v) = %v, want %v (%.2f ulp)", x, y, got, want, e)
		}
	}
	// Division and multiplication are correctly rounded.
	for k := 1; k < 3000; k++ {
		a, b := float32(k)*1.37, float32(3000-k)*0.71+0.1
		if got, want := math.Float32frombits(Eval(FDiv, 0, fw(a), fw(b), 0, 0)), float32(float64(a)/float64(b)); got != want {
			t.Fatalf("%v/%v = %v, want %v", a, b, got, want)
		}
	}
}

// ulpOf returns the size of one float32 ulp at magnitude v.
func ulpOf(v float64) float64 {
	v = math.Abs(v)
	if v < math.SmallestNonzeroFloat32*(1<<23) {
		return math.SmallestNonzeroFloat32
	}
	_, e := math.Frexp(v)
	return math.Ldexp(1, e-24)
}

func TestHalfRoundTrip(t *testing.T) {
	for h := 0; h < 0x10000; h++ {
		x := HalfToFloat(uint16(h))
		back := FloatToHalf(x)
		if x != x {
			if back&0x7c00 != 0x7c00 || back&0x3ff == 0 {
				t.Fatalf("NaN half %#x -> %#x", h, back)
			}
			continue
		}
		if back != uint16(h) {
			t.Fatalf("half %#x -> %v -> %#x", h, x, back)
		}
	}
	tests := []struct {
		x    float32
		want uint16
	}{
		{65520, 0x7c00},          // rounds up to infinity
		{65519, 0x7bff},          // largest finite
		{1.0 + 1.0/2048, 0x3c00}, // tie to even
		{1.0 + 3.0/2048, 0x3c02}, // tie to even (up)
		{5.9604645e-08, 0x0001},  // smallest subnormal
		{2.9802322e-08, 0x0000},  // half of it: tie to even (0)
	}
	for _, tc := range tests {
		if got := FloatToHalf(tc.x); got != tc.want {
			t.Errorf("FloatToHalf(%v) = %#x, want %#x", tc.x, got, tc.want)
		}
	}
}

// TestFMA32CorrectlyRounded compares fma against exact big.Float arithmetic,
// including cases built to sit on float32 rounding midpoints.
func TestFMA32CorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(a, b, c float32) {
		x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetPrec(200).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetPrec(200).SetFloat64(float64(c)))
		want, _ := x.Float32()
		if got := FMA32(a, b, c); got != want && !(got == 0 && want == 0) {
			t.Fatalf("fma(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
	for i := 0; i < 20000; i++ {
		a := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
		b := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
		c := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
		check(a, b, c)
		// Midpoint cases: c cancels the high part of a*b.
		p := float64(a) * float64(b)
		check(a, b, -float32(p))
		check(a, b, float32(math.Ldexp(1, -30))-float32(p))
	}
	check(1+1.0/(1<<23), 1+1.0/(1<<23), -1)
	check(3, 1.0/3, -1)
}
