package simt

import (
	"math"
	"math/bits"

	"vortexgfx/isa/rv32"
)

// The fflags bits. spec: RISC-V unprivileged §11.2
const (
	FlagNX = 1 << 0 // inexact
	FlagUF = 1 << 1 // underflow
	FlagOF = 1 << 2 // overflow
	FlagDZ = 1 << 3 // divide by zero
	FlagNV = 1 << 4 // invalid
)

// CanonicalNaN is the RISC-V canonical single-precision NaN.
const CanonicalNaN = 0x7fc00000

const (
	signBit = 0x80000000
	maxF32  = 0x7f7fffff
	infF32  = 0x7f800000
)

func isNaN(b uint32) bool  { return b&0x7fffffff > infF32 }
func isSNaN(b uint32) bool { return isNaN(b) && b&0x00400000 == 0 }
func isInf(b uint32) bool  { return b&0x7fffffff == infF32 }
func f64(b uint32) float64 { return float64(math.Float32frombits(b)) }

// nanFlags is NV when any operand is a signalling NaN.
func nanFlags(ops ...uint32) uint32 {
	for _, o := range ops {
		if isSNaN(o) {
			return FlagNV
		}
	}
	return 0
}

// Exact single-precision arithmetic: every operation is done in float64 so that
// the float64 result s plus an exactly known error term e equals the exact result
// (TwoSum for sums, the exact product of two 24-bit significands, the division and
// square-root remainders from one math.FMA, which are exact for round-to-nearest
// quotients and roots). roundF32 then rounds s+e to float32 in any rounding mode,
// subnormals included, with exact flags. Only the sign of e matters: every float32
// rounding boundary is a float64 number, so s+e and s+sign(e)·ulp(s)/4 round
// alike. This is one rounding from the exact value: no double rounding, for fma
// too (math.FMA on float64 followed by a float32 conversion would round twice).

// twoSum returns s = fl(a+b) and the sign of the exact error a+b-s.
func twoSum(a, b float64) (float64, int) {
	s := a + b
	bb := s - a
	e := (a - (s - bb)) + (b - bb)
	return s, sgn(e)
}

func sgn(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// roundF32 rounds the exact value v + sticky·ε (v finite and nonzero, ε an
// infinitesimal of sign sticky) to single precision in mode rm.
func roundF32(v float64, sticky int, rm uint8) (uint32, uint32) {
	b := math.Float64bits(v)
	neg := b>>63 != 0
	e := int(b >> 52 & 0x7ff)
	m := b & (1<<52 - 1)
	if e == 0 {
		e = 1 // float64 subnormal: no implicit bit (beyond any float32 input's reach)
	} else {
		m |= 1 << 52
	}
	// Magnitude in units of 2^(e-1075-2): two guard bits hold the sticky term.
	m4 := m << 2
	if sticky != 0 {
		if (sticky < 0) == neg {
			m4++ // the error grows the magnitude
		} else {
			m4--
		}
	}
	exp := e - 1075 - 2 // value = m4 · 2^exp
	lead := 63 - bits.LeadingZeros64(m4)
	eb := exp + lead // the binade: 2^eb <= value < 2^(eb+1)
	keep := 24
	if eb < -126 {
		keep = 24 - (-126 - eb)
	}
	q, inexact := roundMag(m4, lead+1-keep, rm, neg)
	ulpExp := exp + lead + 1 - keep
	var flags uint32
	if inexact {
		flags |= FlagNX
	}
	// Tininess is detected after rounding (RISC-V): the value rounded to 24 bits
	// with an unbounded exponent is below 2^-126.
	if eb < -126 && inexact {
		tiny := true
		if eb == -127 {
			q24, _ := roundMag(m4, lead+1-24, rm, neg)
			tiny = q24 < 1<<24
		}
		if tiny {
			flags |= FlagUF
		}
	}
	if q == 0 {
		return sign32(neg), flags
	}
	if q >= 1<<24 {
		q >>= 1
		ulpExp++
	}
	var r uint32
	if q >= 1<<23 {
		be := ulpExp + 23 + 127
		if be >= 255 {
			return overflow(neg, rm), flags | FlagOF | FlagNX
		}
		r = uint32(be)<<23 | uint32(q)&(1<<23-1)
	} else {
		r = uint32(q) // subnormal: ulpExp is -149
	}
	return r | sign32(neg), flags
}

func sign32(neg bool) uint32 {
	if neg {
		return signBit
	}
	return 0
}

// roundMag drops the low shift bits of the magnitude m under rm.
func roundMag(m uint64, shift int, rm uint8, neg bool) (uint64, bool) {
	var q, r, half uint64
	if shift >= 64 {
		q, r, half = 0, m, 1<<63
		if shift > 64 {
			// m < 2^63 here (float64 significands), so rem < half: never a tie.
			r = min(r, half-1)
		}
	} else {
		q, r, half = m>>shift, m&(1<<shift-1), 1<<(shift-1)
	}
	if r == 0 {
		return q, false
	}
	up := false
	switch rm {
	case rv32.RNE:
		up = r > half || (r == half && q&1 == 1)
	case rv32.RMM:
		up = r >= half
	case rv32.RDN:
		up = neg
	case rv32.RUP:
		up = !neg
	}
	if up {
		q++
	}
	return q, true
}

func overflow(neg bool, rm uint8) uint32 {
	switch rm {
	case rv32.RTZ:
		return sign32(neg) | maxF32
	case rv32.RDN:
		if !neg {
			return maxF32
		}
	case rv32.RUP:
		if neg {
			return signBit | maxF32
		}
	}
	return sign32(neg) | infF32
}

// exactZero is the sign of an exact zero sum x+y (IEEE 754 §6.3): the operands'
// sign if both are zeros of that sign, else +0 (-0 when rounding down).
func exactZero(x, y float64, rm uint8) uint32 {
	if x == 0 && y == 0 && math.Signbit(x) == math.Signbit(y) {
		return sign32(math.Signbit(x))
	}
	return sign32(rm == rv32.RDN)
}

// finish finishes a result that float64 arithmetic computed exactly or as an
// infinity (inf results of finite ops are overflows and handled by roundF32).
func finish(s float64, sticky int, rm uint8) (uint32, uint32) {
	if sticky == 0 && rm == rv32.RNE {
		if r, fl, ok := nearestNormal(s); ok {
			return r, fl
		}
	}
	if math.IsInf(s, 0) {
		return math.Float32bits(float32(s)), 0
	}
	return roundF32(s, sticky, rm)
}

// nearestNormal is roundF32(v, 0, RNE) for the common case, by the host's own
// conversion: Go's float64-to-float32 conversion rounds to nearest even once
// from the exact v, so when the result's exponent field is 2..254 (|r| >=
// 2^-125: no underflow, whose tininess RISC-V detects after rounding, can
// arise, and a finite r is no overflow) its bits are roundF32's and the only
// flag is inexact, raised when r is not v. ok is false otherwise (zero,
// subnormal or infinite results, NaN), for roundF32 to decide.
// spec: RISC-V unprivileged ISA §11.2 (fflags), §11.3; IEEE 754-2008 §4.3.1
func nearestNormal(v float64) (r, flags uint32, ok bool) {
	f := float32(v)
	r = math.Float32bits(f)
	if e := r >> 23 & 0xff; e < 2 || e == 0xff {
		return 0, 0, false
	}
	if float64(f) != v {
		flags = FlagNX
	}
	return r, flags, true
}

// FAdd returns a+b in mode rm and the flags it raises (also the core of fsub).
func FAdd(a, b uint32, rm uint8) (uint32, uint32) {
	if isNaN(a) || isNaN(b) {
		return CanonicalNaN, nanFlags(a, b)
	}
	x, y := f64(a), f64(b)
	s, e := twoSum(x, y)
	if math.IsNaN(s) {
		return CanonicalNaN, FlagNV // inf - inf
	}
	if s == 0 && e == 0 {
		return exactZero(x, y, rm), 0
	}
	return finish(s, e, rm)
}

// FMul returns a·b.
func FMul(a, b uint32, rm uint8) (uint32, uint32) {
	if isNaN(a) || isNaN(b) {
		return CanonicalNaN, nanFlags(a, b)
	}
	p := float64(f64(a) * f64(b)) // exact: 24+24 significand bits
	if math.IsNaN(p) {
		return CanonicalNaN, FlagNV // 0 · inf
	}
	if p == 0 {
		return sign32(math.Signbit(p)), 0
	}
	return finish(p, 0, rm)
}

// FDiv returns a/b.
func FDiv(a, b uint32, rm uint8) (uint32, uint32) {
	if isNaN(a) || isNaN(b) {
		return CanonicalNaN, nanFlags(a, b)
	}
	x, y := f64(a), f64(b)
	neg := math.Signbit(x) != math.Signbit(y)
	switch {
	case (x == 0 && y == 0) || (math.IsInf(x, 0) && math.IsInf(y, 0)):
		return CanonicalNaN, FlagNV
	case math.IsInf(x, 0):
		return sign32(neg) | infF32, 0 // inf/0 is an exact infinity, not a division by zero
	case y == 0:
		return sign32(neg) | infF32, FlagDZ
	case x == 0 || math.IsInf(y, 0):
		return sign32(neg), 0
	}
	q := x / y
	r := math.FMA(-q, y, x) // exact remainder
	return roundF32(q, sgn(r)*sgn(y), rm)
}

// FSqrt returns sqrt(a).
func FSqrt(a uint32, rm uint8) (uint32, uint32) {
	if isNaN(a) {
		return CanonicalNaN, nanFlags(a)
	}
	if a == signBit || a == 0 || a == infF32 {
		return a, 0
	}
	if a&signBit != 0 {
		return CanonicalNaN, FlagNV
	}
	x := f64(a)
	q := math.Sqrt(x)
	r := math.FMA(-q, q, x)
	return roundF32(q, sgn(r), rm)
}

// FMA returns (±a·b) ± c with one rounding: negProd negates the product, negC the
// addend (fmadd: false,false; fmsub: false,true; fnmsub: true,false; fnmadd: true,true).
func FMA(a, b, c uint32, negProd, negC bool, rm uint8) (uint32, uint32) {
	infZero := (isInf(a) && b&0x7fffffff == 0) || (isInf(b) && a&0x7fffffff == 0)
	if isNaN(a) || isNaN(b) || isNaN(c) {
		fl := nanFlags(a, b, c)
		if infZero {
			fl |= FlagNV // required even when c is a quiet NaN
		}
		return CanonicalNaN, fl
	}
	if infZero {
		return CanonicalNaN, FlagNV
	}
	p := float64(f64(a) * f64(b))
	if negProd {
		p = -p
	}
	z := f64(c)
	if negC {
		z = -z
	}
	s, e := twoSum(p, z)
	if math.IsNaN(s) {
		return CanonicalNaN, FlagNV // inf - inf
	}
	if s == 0 && e == 0 {
		return exactZero(p, z, rm), 0
	}
	return finish(s, e, rm)
}

// FMinMax implements fmin.s/fmax.s (RISC-V F 2.2): -0 < +0; a single NaN operand
// yields the other; two NaNs yield the canonical NaN; signalling NaNs raise NV.
func FMinMax(a, b uint32, isMax bool) (uint32, uint32) {
	fl := nanFlags(a, b)
	switch {
	case isNaN(a) && isNaN(b):
		return CanonicalNaN, fl
	case isNaN(a):
		return b, fl
	case isNaN(b):
		return a, fl
	}
	x, y := f64(a), f64(b)
	if x == 0 && y == 0 {
		neg := a&signBit != 0
		if isMax {
			neg = neg && b&signBit != 0
		} else {
			neg = neg || b&signBit != 0
		}
		return sign32(neg), 0
	}
	if (x < y) != isMax {
		return a, 0
	}
	return b, 0
}

// FCompare implements feq (quiet: NV only for signalling NaNs), flt and fle
// (signalling: NV for any NaN).
func FCompare(a, b uint32, op rv32.Op) (uint32, uint32) {
	if isNaN(a) || isNaN(b) {
		if op == rv32.FEQS {
			return 0, nanFlags(a, b)
		}
		return 0, FlagNV
	}
	x, y := f64(a), f64(b)
	switch op {
	case rv32.FEQS:
		return b2u(x == y), 0
	case rv32.FLTS:
		return b2u(x < y), 0
	}
	return b2u(x <= y), 0
}

// FClass returns the fclass.s bit mask.
func FClass(a uint32) uint32 {
	neg := a&signBit != 0
	exp, man := a>>23&0xff, a&(1<<23-1)
	var bit uint
	switch {
	case exp == 0xff && man != 0:
		bit = 9
		if a&0x00400000 == 0 {
			bit = 8
		}
		return 1 << bit
	case exp == 0xff:
		bit = 7
	case exp == 0 && man == 0:
		bit = 4
	case exp == 0:
		bit = 5
	default:
		bit = 6
	}
	if neg {
		bit = 7 - bit
	}
	return 1 << bit
}

// roundInt rounds v to an integer in mode rm.
func roundInt(v float64, rm uint8) float64 {
	switch rm {
	case rv32.RTZ:
		return math.Trunc(v)
	case rv32.RDN:
		return math.Floor(v)
	case rv32.RUP:
		return math.Ceil(v)
	case rv32.RMM:
		return math.Round(v)
	}
	return math.RoundToEven(v)
}

// FCvtToInt implements fcvt.w.s / fcvt.wu.s: out-of-range values and NaNs saturate
// (NaN to the largest value) and raise NV; inexact in-range results raise NX.
func FCvtToInt(a uint32, unsigned bool, rm uint8) (uint32, uint32) {
	lo, hi := float64(math.MinInt32), float64(math.MaxInt32)
	if unsigned {
		lo, hi = 0, float64(math.MaxUint32)
	}
	if isNaN(a) {
		if unsigned {
			return math.MaxUint32, FlagNV
		}
		return math.MaxInt32, FlagNV
	}
	v := f64(a)
	r := roundInt(v, rm)
	switch {
	case r < lo:
		if unsigned {
			return 0, FlagNV
		}
		return 0x80000000, FlagNV
	case r > hi:
		if unsigned {
			return math.MaxUint32, FlagNV
		}
		return math.MaxInt32, FlagNV
	}
	var fl uint32
	if r != v {
		fl = FlagNX
	}
	if unsigned {
		return uint32(r), fl
	}
	return uint32(int32(r)), fl
}

// FCvtFromInt implements fcvt.s.w / fcvt.s.wu.
func FCvtFromInt(v uint32, unsigned bool, rm uint8) (uint32, uint32) {
	x := float64(int32(v))
	if unsigned {
		x = float64(v)
	}
	if x == 0 {
		return 0, 0
	}
	if math.Abs(x) <= 1<<24 { // exact in float32 in every rounding mode: no flag
		return math.Float32bits(float32(x)), 0
	}
	return roundF32(x, 0, rm)
}

// fpOp executes the F instructions (flw/fsw are with the loads and stores).
func (c *Core) fpOp(wi int, w *warp, in *rv32.Inst) error {
	T := c.cfg.Threads
	x, f := w.x, w.f
	rm := in.RM
	if in.Op.HasRM() && rm == rv32.DYN {
		rm = uint8(w.fcsr >> 5 & 7)
		if rm > rv32.RMM {
			return c.illegal(wi, w, "%s with dynamic rounding and frm = %d (reserved)", in.Op, rm)
		}
	}
	rd, rs1, rs2, rs3 := int(in.Rd)*T, int(in.Rs1)*T, int(in.Rs2)*T, int(in.Rs3)*T
	var acc uint32
	for m := w.mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a, b := f[rs1+l], f[rs2+l]
		var r, fl uint32
		toX := false
		switch in.Op {
		case rv32.FADDS:
			r, fl = FAdd(a, b, rm)
		case rv32.FSUBS:
			r, fl = FAdd(a, b^signBit, rm) // the flip keeps a NaN (signalling or not) a NaN
		case rv32.FMULS:
			r, fl = FMul(a, b, rm)
		case rv32.FDIVS:
			r, fl = FDiv(a, b, rm)
		case rv32.FSQRTS:
			r, fl = FSqrt(a, rm)
		case rv32.FMADDS:
			r, fl = FMA(a, b, f[rs3+l], false, false, rm)
		case rv32.FMSUBS:
			r, fl = FMA(a, b, f[rs3+l], false, true, rm)
		case rv32.FNMSUBS:
			r, fl = FMA(a, b, f[rs3+l], true, false, rm)
		case rv32.FNMADDS:
			r, fl = FMA(a, b, f[rs3+l], true, true, rm)
		case rv32.FSGNJS:
			r = a&^signBit | b&signBit
		case rv32.FSGNJNS:
			r = a&^signBit | ^b&signBit
		case rv32.FSGNJXS:
			r = a ^ b&signBit
		case rv32.FMINS:
			r, fl = FMinMax(a, b, false)
		case rv32.FMAXS:
			r, fl = FMinMax(a, b, true)
		case rv32.FCVTWS:
			r, fl = FCvtToInt(a, false, rm)
			toX = true
		case rv32.FCVTWUS:
			r, fl = FCvtToInt(a, true, rm)
			toX = true
		case rv32.FMVXW:
			r, toX = a, true
		case rv32.FEQS, rv32.FLTS, rv32.FLES:
			r, fl = FCompare(a, b, in.Op)
			toX = true
		case rv32.FCLASSS:
			r, toX = FClass(a), true
		case rv32.FCVTSW:
			r, fl = FCvtFromInt(x[rs1+l], false, rm)
		case rv32.FCVTSWU:
			r, fl = FCvtFromInt(x[rs1+l], true, rm)
		case rv32.FMVWX:
			r = x[rs1+l]
		default:
			return c.illegal(wi, w, "%s is not implemented", in.Op)
		}
		acc |= fl
		if toX {
			if in.Rd != 0 {
				x[rd+l] = r
			}
		} else {
			f[rd+l] = r
		}
	}
	w.fcsr |= acc
	return nil
}
