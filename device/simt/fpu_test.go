package simt

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"vortexgfx/isa/rv32"
)

// The fused multiply-add case float64 arithmetic rounds twice: (1+2^-12)^2 =
// 1 + 2^-11 + 2^-24 sits exactly on a float32 midpoint, and the addend 2^-60 is far
// below float64's ulp there, so math.FMA returns the midpoint and the float32
// conversion ties to even — one ulp low. The exact result is just above the
// midpoint and rounds up.
func TestFMAIsRoundedOnce(t *testing.T) {
	a, c := uint32(0x3f800800), uint32(0x21800000) // 1+2^-12, 2^-60
	naive := math.Float32bits(float32(math.FMA(f64(a), f64(a), f64(c))))
	got, fl := FMA(a, a, c, false, false, rv32.RNE)
	if got != 0x3f801001 || fl != FlagNX {
		t.Errorf("fmadd = %08x flags %x, want 3f801001 NX", got, fl)
	}
	if naive == got {
		t.Fatalf("the case no longer separates double rounding from single rounding")
	}
	// The addend's sign decides the direction: -2^-60 rounds down.
	if got, _ := FMA(a, a, c|signBit, false, false, rv32.RNE); got != 0x3f801000 {
		t.Errorf("fmadd with -2^-60 = %08x, want 3f801000", got)
	}
}

var bigModes = map[uint8]big.RoundingMode{rv32.RNE: big.ToNearestEven, rv32.RTZ: big.ToZero,
	rv32.RDN: big.ToNegativeInf, rv32.RUP: big.ToPositiveInf, rv32.RMM: big.ToNearestAway}

// bigRound rounds x to float32 precision in mode rm; ok is false outside the normal
// range, where big.Float's unbounded exponent is no oracle for subnormals/overflow.
func bigRound(x *big.Float, rm uint8) (uint32, bool) {
	z := new(big.Float).SetMode(bigModes[rm]).SetPrec(24).Set(x)
	f, _ := z.Float32()
	b := math.Float32bits(f)
	e := b >> 23 & 0xff
	return b, e != 0 && e != 0xff && z.MantExp(nil) >= -125 && z.MantExp(nil) <= 128
}

func randF32(r *rand.Rand) uint32 {
	switch r.Intn(4) {
	case 0:
		return r.Uint32()
	case 1:
		return r.Uint32()&0x807fffff | uint32(120+r.Intn(16))<<23
	case 2:
		return r.Uint32()&0x807fffff | uint32(100+r.Intn(56))<<23
	}
	return r.Uint32()&0x80000fff | 0x3f800000 // short significands: exact cases, ties
}

// Every rounding mode against math/big as the oracle (correctly rounded add, mul,
// div and fused multiply-add), in the normal range.
func TestArithmeticMatchesBigFloat(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	exact := func(b uint32) *big.Float { return new(big.Float).SetPrec(200).SetFloat64(f64(b)) }
	compared := 0
	for i := 0; i < 200000; i++ {
		a, b, c := randF32(r), randF32(r), randF32(r)
		if isNaN(a) || isNaN(b) || isNaN(c) || isInf(a) || isInf(b) || isInf(c) {
			continue
		}
		rm := uint8(r.Intn(5))
		check := func(name string, got uint32, want *big.Float) {
			w, ok := bigRound(want, rm)
			if ok && got != w {
				t.Fatalf("%s(%08x, %08x, %08x) rm %d = %08x, want %08x", name, a, b, c, rm, got, w)
			}
			if ok {
				compared++
			}
		}
		got, _ := FAdd(a, b, rm)
		check("fadd", got, new(big.Float).SetPrec(400).Add(exact(a), exact(b)))
		got, _ = FMul(a, b, rm)
		check("fmul", got, new(big.Float).SetPrec(400).Mul(exact(a), exact(b)))
		if b&0x7fffffff != 0 {
			got, _ = FDiv(a, b, rm)
			q := new(big.Float).SetMode(bigModes[rm]).SetPrec(24).Quo(exact(a), exact(b))
			check("fdiv", got, q)
		}
		got, _ = FMA(a, b, c, false, false, rm)
		p := new(big.Float).SetPrec(400).Mul(exact(a), exact(b))
		check("fmadd", got, p.Add(p, exact(c)))
	}
	if compared < 300000 {
		t.Errorf("only %d results were in the oracle's range", compared)
	}
}

// Round to nearest even also against Go's own float32 arithmetic, subnormals and
// overflow included (Go rounds every float32 operation correctly).
func TestNearestMatchesGoFloat32(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for i := 0; i < 300000; i++ {
		a, b := randF32(r), randF32(r)
		if r.Intn(4) == 0 {
			a = r.Uint32() & 0x80ffffff // subnormal and tiny
		}
		fa, fb := math.Float32frombits(a), math.Float32frombits(b)
		want := map[string]float32{"add": fa + fb, "mul": fa * fb, "div": fa / fb, "sqrt": float32(math.Sqrt(float64(fa)))}
		got := map[string]uint32{}
		got["add"], _ = FAdd(a, b, rv32.RNE)
		got["mul"], _ = FMul(a, b, rv32.RNE)
		got["div"], _ = FDiv(a, b, rv32.RNE)
		got["sqrt"], _ = FSqrt(a, rv32.RNE)
		for k, w := range want {
			wb := math.Float32bits(w)
			if w != w {
				wb = CanonicalNaN
			}
			if got[k] != wb {
				t.Fatalf("%s(%08x, %08x) = %08x, want %08x", k, a, b, got[k], wb)
			}
		}
	}
}

func TestFlags(t *testing.T) {
	cases := []struct {
		name     string
		got, fl  uint32
		want, wf uint32
	}{}
	add := func(name string, want, wf uint32, got, fl uint32) {
		cases = append(cases, struct {
			name     string
			got, fl  uint32
			want, wf uint32
		}{name, got, fl, want, wf})
	}
	r, f := FDiv(0x3f800000, 0, rv32.RNE)
	add("1/0", infF32, FlagDZ, r, f)
	r, f = FDiv(0, 0, rv32.RNE)
	add("0/0", CanonicalNaN, FlagNV, r, f)
	r, f = FDiv(infF32, 0, rv32.RNE)
	add("inf/0", infF32, 0, r, f)
	r, f = FAdd(0x7fa00000, 0x3f800000, rv32.RNE)
	add("sNaN+1", CanonicalNaN, FlagNV, r, f)
	r, f = FAdd(0x7fc00001, 0x3f800000, rv32.RNE)
	add("qNaN+1", CanonicalNaN, 0, r, f)
	r, f = FAdd(infF32, infF32|signBit, rv32.RNE)
	add("inf-inf", CanonicalNaN, FlagNV, r, f)
	r, f = FMul(0x7f7fffff, 0x40000000, rv32.RNE)
	add("overflow", infF32, FlagOF|FlagNX, r, f)
	r, f = FMul(0x7f7fffff, 0x40000000, rv32.RTZ)
	add("overflow rtz", maxF32, FlagOF|FlagNX, r, f)
	r, f = FMul(0xff7fffff, 0x40000000, rv32.RUP)
	add("overflow rup negative", maxF32|signBit, FlagOF|FlagNX, r, f)
	r, f = FMul(0x00800001, 0x3f000000, rv32.RNE)
	add("underflow", 0x00400000, FlagUF|FlagNX, r, f) // (2^-126+2^-149)/2: inexact subnormal
	r, f = FMul(0x00800000, 0x3f000000, rv32.RNE)
	add("exact subnormal", 0x00400000, 0, r, f)
	// 0x00ffffff·(1-2^-24) rounds (at 24 bits) to 2^-125·…; a value just below 2^-126
	// that rounds up to it is not tiny after rounding: NX without UF.
	r, f = FMul(0x00ffffff, 0x3f000001, rv32.RNE)
	add("tininess after rounding", 0x00800000, FlagNX, r, f)
	r, f = FAdd(0x3f800000, 0xbf800000, rv32.RDN)
	add("x-x rounding down", signBit, 0, r, f)
	r, f = FAdd(0x3f800000, 0xbf800000, rv32.RNE)
	add("x-x", 0, 0, r, f)
	r, f = FSqrt(0xbf800000, rv32.RNE)
	add("sqrt(-1)", CanonicalNaN, FlagNV, r, f)
	r, f = FSqrt(signBit, rv32.RNE)
	add("sqrt(-0)", signBit, 0, r, f)
	r, f = FMA(infF32, 0, 0x7fc00000, false, false, rv32.RNE)
	add("inf*0+qNaN", CanonicalNaN, FlagNV, r, f)
	r, f = FCvtToInt(CanonicalNaN, false, rv32.RNE)
	add("fcvt.w NaN", 0x7fffffff, FlagNV, r, f)
	r, f = FCvtToInt(0xcf000001, false, rv32.RNE)
	add("fcvt.w below", 0x80000000, FlagNV, r, f)
	r, f = FCvtToInt(0xbfc00000, true, rv32.RTZ)
	add("fcvt.wu -1.5", 0, FlagNV, r, f)
	r, f = FCvtToInt(0xbf000000, true, rv32.RTZ)
	add("fcvt.wu -0.5", 0, FlagNX, r, f)
	r, f = FCvtToInt(0x40200000, false, rv32.RNE)
	add("fcvt.w 2.5 rne", 2, FlagNX, r, f)
	r, f = FCvtToInt(0x40200000, false, rv32.RMM)
	add("fcvt.w 2.5 rmm", 3, FlagNX, r, f)
	r, f = FCvtToInt(0x4f800000, true, rv32.RNE)
	add("fcvt.wu 2^32", 0xffffffff, FlagNV, r, f)
	r, f = FCvtFromInt(0x01000001, false, rv32.RNE)
	add("fcvt.s.w 2^24+1", 0x4b800000, FlagNX, r, f)
	r, f = FCvtFromInt(0x01000001, false, rv32.RUP)
	add("fcvt.s.w 2^24+1 rup", 0x4b800001, FlagNX, r, f)
	r, f = FMinMax(0, signBit, false)
	add("fmin(+0,-0)", signBit, 0, r, f)
	r, f = FMinMax(signBit, 0, true)
	add("fmax(-0,+0)", 0, 0, r, f)
	r, f = FMinMax(0x7fc00000, 0x3f800000, false)
	add("fmin(qNaN,1)", 0x3f800000, 0, r, f)
	r, f = FMinMax(0x7fa00000, 0x3f800000, true)
	add("fmax(sNaN,1)", 0x3f800000, FlagNV, r, f)
	r, f = FMinMax(0x7fa00000, 0x7fc00000, true)
	add("fmax(sNaN,qNaN)", CanonicalNaN, FlagNV, r, f)
	r, f = FCompare(0x7fc00000, 0, rv32.FEQS)
	add("feq qNaN", 0, 0, r, f)
	r, f = FCompare(0x7fc00000, 0, rv32.FLTS)
	add("flt qNaN", 0, FlagNV, r, f)
	r, f = FCompare(signBit, 0, rv32.FEQS)
	add("feq -0 +0", 1, 0, r, f)
	for _, c := range cases {
		if c.got != c.want || c.fl != c.wf {
			t.Errorf("%s: %08x flags %02x, want %08x flags %02x", c.name, c.got, c.fl, c.want, c.wf)
		}
	}
}

func TestFClass(t *testing.T) {
	for b, want := range map[uint32]uint32{
		0xff800000: 1 << 0, 0xbf800000: 1 << 1, 0x807fffff: 1 << 2, 0x80000000: 1 << 3,
		0x00000000: 1 << 4, 0x00000001: 1 << 5, 0x3f800000: 1 << 6, 0x7f800000: 1 << 7,
		0x7fa00000: 1 << 8, 0x7fc00000: 1 << 9, 0xffc00000: 1 << 9,
	} {
		if got := FClass(b); got != want {
			t.Errorf("fclass(%08x) = %x, want %x", b, got, want)
		}
	}
}
