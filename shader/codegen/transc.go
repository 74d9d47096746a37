package codegen

import (
	"math"

	"vortexgfx/isa/rv32"
	"vortexgfx/shader/ir"
)

// Transcendental functions as RV32F sequences (inline, branch-free, one lane per
// thread). The executor evaluates each in float64 and rounds once (ir.Eval); these
// round at every step, so their results are within a bound of the executor's
// rather than equal to it (the package doc states the measured bounds). The
// methods:
//
//	inversesqrt  fsqrt.s then fdiv.s
//	exp2, exp    reduction to r in [-ln2/2, ln2/2] (exp: Cody-Waite with a two-part
//	             ln 2), degree-7 Taylor polynomial of e^r, scaled by 2^n in two
//	             exact steps (so subnormal results round once)
//	log2, log    x = m·2^e with m in [√½, √2), ln m = 2·atanh((m−1)/(m+1)) to t^11
//	pow          exp2(y·log2 x)
//	sin, cos     k = round(x·2/π), three-part Cody-Waite reduction, Taylor
//	             polynomials to r^9 and r^10, the quadrant picked by k mod 4
//	tan          sin/cos of the same reduction
//	atan         1/x above 1, a π/6 rotation above tan(π/12), Taylor to a^15
//	atan(y, x)   atan(y/x) ± π for negative x; asin and acos through atan
//	sinh … tanh  from e^x; asinh, acosh, atanh from ln

// tseq is the scratch of one sequence: four float registers and an integer one
// for constants.
type tseq struct {
	g          *gen
	X, A, B, C uint8
	K          uint8
}

// fc loads the float constant v into f.
func (t *tseq) fc(f uint8, v float32) {
	t.g.a.li(t.K, math.Float32bits(v))
	t.g.a.r(rv32.FMVWX, f, t.K, 0)
}

func (t *tseq) fma(op rv32.Op, d, x, y, z uint8) {
	t.g.a.emit(rv32.Inst{Op: op, Rd: d, Rs1: x, Rs2: y, Rs3: z, RM: rv32.RNE})
}

// poly leaves in d the Horner evaluation of cs (highest degree first) at x, with
// t.C as the constant register; d, x and C must differ.
func (t *tseq) poly(d, x uint8, cs ...float32) {
	t.fc(d, cs[0])
	for _, c := range cs[1:] {
		t.fc(t.C, c)
		t.fma(rv32.FMADDS, d, d, x, t.C)
	}
}

// transcendental generates the ops above; false for any other op.
func (g *gen) transcendental(in *ir.Inst) bool {
	switch in.Op {
	case ir.InvSqrt, ir.Exp, ir.Exp2, ir.Log, ir.Log2, ir.Pow, ir.Sin, ir.Cos, ir.Tan,
		ir.Asin, ir.Acos, ir.Atan, ir.Atan2, ir.Sinh, ir.Cosh, ir.Tanh, ir.Asinh, ir.Acosh, ir.Atanh:
	default:
		return false
	}
	a := &g.a
	base := g.fs
	if len(scratchF)-base < 4 {
		g.fail("internal error: %d float scratch registers in use before %s", base, in.Op)
		return true
	}
	x := g.f(g.src(in, 0))
	var yb uint8
	if in.Op == ir.Pow || in.Op == ir.Atan2 { // y waits in an integer register: log2 needs every float one
		y := g.f(g.src(in, 1))
		yb = g.tmpX()
		a.r(rv32.FMVXW, yb, y, 0)
	}
	// The sources are read; the float scratch they may have used is free again.
	g.fs = base
	t := &tseq{g: g, X: g.tmpF(), A: g.tmpF(), B: g.tmpF(), C: g.tmpF(), K: g.tmpX()}
	if x != t.X {
		a.fr(rv32.FSGNJS, t.X, x, x, 0)
	}
	var r uint8
	switch in.Op {
	case ir.InvSqrt:
		a.fr(rv32.FSQRTS, t.A, t.X, 0, rv32.RNE)
		t.fc(t.C, 1)
		a.fr(rv32.FDIVS, t.A, t.C, t.A, rv32.RNE)
		r = t.A
	case ir.Exp2, ir.Exp:
		r = t.exp(in.Op == ir.Exp)
	case ir.Log2, ir.Log:
		r = t.log(in.Op == ir.Log)
	case ir.Pow:
		r = t.pow(yb)
	case ir.Sin, ir.Cos, ir.Tan:
		r = t.sincos(in.Op)
	case ir.Atan:
		r = t.atan()
	case ir.Atan2:
		r = t.atan2(yb)
	case ir.Asin, ir.Acos:
		r = t.asinAcos(in.Op == ir.Acos)
	case ir.Sinh, ir.Cosh, ir.Tanh:
		r = t.hyperbolic(in.Op)
	default:
		r = t.inverseHyperbolic(in.Op)
	}
	g.finF(vreg(in.Dst), r)
	return true
}

// pick emits r = c ? b : r for c 0 or 1, clobbering c (to 0 or -1) and b.
func (t *tseq) pick(r, c, b uint8) {
	a := &t.g.a
	a.r(rv32.SUB, c, rZero, c)
	a.r(rv32.XOR, b, b, r)
	a.r(rv32.AND, b, b, c)
	a.r(rv32.XOR, r, r, b)
}

// nanTo makes the float in f the canonical NaN where the integer register bad
// holds 1 (clobbering bad).
func (t *tseq) nanTo(f, bad uint8) {
	g := t.g
	rb := g.tmpX()
	g.a.r(rv32.FMVXW, rb, f, 0)
	g.a.li(t.K, 0x7fc00000)
	t.pick(rb, bad, t.K)
	g.a.r(rv32.FMVWX, f, rb, 0)
}

// exp leaves e^x (natural) or 2^x of t.X in a register it returns.
func (t *tseq) exp(natural bool) uint8 {
	g, a := t.g, &t.g.a
	nan := g.tmpX()
	a.r(rv32.FEQS, nan, t.X, t.X)
	a.i(rv32.XORI, nan, nan, 1)
	// Clamp so that n = round(x·log2 b) stays in [-150, 128]: below, the result
	// rounds to 0; above, it overflows to inf (a NaN is replaced at the end).
	lo, hi := float32(-150), float32(128)
	if natural {
		lo, hi = -104, 89
	}
	t.fc(t.C, lo)
	a.fr(rv32.FMAXS, t.X, t.X, t.C, 0)
	t.fc(t.C, hi)
	a.fr(rv32.FMINS, t.X, t.X, t.C, 0)
	n := g.tmpX()
	if natural {
		t.fc(t.C, math.Log2E)
		a.fr(rv32.FMULS, t.A, t.X, t.C, rv32.RNE)
		a.fr(rv32.FCVTWS, n, t.A, 0, rv32.RNE)
		a.fr(rv32.FCVTSW, t.A, n, 0, rv32.RNE)
		// r = x − n·ln2 with ln 2 in two parts (the high one has 12 trailing zero
		// bits, so n·hi is exact).
		t.fc(t.C, math.Float32frombits(0x3f317200))
		t.fma(rv32.FNMSUBS, t.B, t.A, t.C, t.X)
		t.fc(t.C, float32(math.Ln2-float64(math.Float32frombits(0x3f317200))))
		t.fma(rv32.FNMSUBS, t.B, t.A, t.C, t.B)
	} else {
		a.fr(rv32.FCVTWS, n, t.X, 0, rv32.RNE)
		a.fr(rv32.FCVTSW, t.A, n, 0, rv32.RNE)
		a.fr(rv32.FSUBS, t.B, t.X, t.A, rv32.RNE) // exact
		t.fc(t.C, math.Ln2)
		a.fr(rv32.FMULS, t.B, t.B, t.C, rv32.RNE)
	}
	t.poly(t.A, t.B, 1.0/5040, 1.0/720, 1.0/120, 1.0/24, 1.0/6, 0.5, 1, 1)
	// × 2^n as 2^(n>>1) · 2^(n − n>>1): both factors normal, one rounding at the end.
	h := g.tmpX()
	a.i(rv32.SRAI, h, n, 1)
	a.r(rv32.SUB, n, n, h)
	for _, e := range []uint8{h, n} {
		a.i(rv32.ADDI, e, e, 127)
		a.i(rv32.SLLI, e, e, 23)
		a.r(rv32.FMVWX, t.C, e, 0)
		a.fr(rv32.FMULS, t.A, t.A, t.C, rv32.RNE)
	}
	t.nanTo(t.A, nan)
	return t.A
}

// log leaves ln x or log2 x of t.X in a register it returns.
func (t *tseq) log(natural bool) uint8 {
	g, a := t.g, &t.g.a
	cls, xb, s, e := g.tmpX(), g.tmpX(), g.tmpX(), g.tmpX()
	a.r(rv32.FCLASSS, cls, t.X, 0)
	// A positive subnormal is scaled by 2^23 first (and 23 taken off e).
	t.fc(t.C, 1<<23)
	a.fr(rv32.FMULS, t.A, t.X, t.C, rv32.RNE)
	a.r(rv32.FMVXW, xb, t.X, 0)
	a.r(rv32.FMVXW, e, t.A, 0)
	a.i(rv32.SRLI, s, cls, 5)
	a.i(rv32.ANDI, s, s, 1)
	t.pick(xb, s, e) // s is now 0 or -1
	a.i(rv32.ANDI, s, s, 23)
	a.i(rv32.SRLI, e, xb, 23)
	a.i(rv32.ANDI, e, e, 0xff)
	a.r(rv32.SUB, e, e, s)
	a.i(rv32.ADDI, e, e, -127)
	// m in [1, 2); above √2 it is halved and e incremented.
	a.li(t.K, 0x007fffff)
	a.r(rv32.AND, xb, xb, t.K)
	a.li(t.K, 0x3f800000)
	a.r(rv32.OR, xb, xb, t.K)
	a.li(t.K, 0x3fb504f3)
	a.r(rv32.SLTU, s, t.K, xb)
	a.r(rv32.ADD, e, e, s)
	a.i(rv32.SLLI, s, s, 23)
	a.r(rv32.SUB, xb, xb, s)
	a.r(rv32.FMVWX, t.A, xb, 0)
	// t = (m−1)/(m+1) (m−1 exact), ln m = 2t(1 + t²/3 + t⁴/5 + … + t^10/11).
	t.fc(t.C, 1)
	a.fr(rv32.FSUBS, t.B, t.A, t.C, rv32.RNE)
	a.fr(rv32.FADDS, t.A, t.A, t.C, rv32.RNE)
	a.fr(rv32.FDIVS, t.B, t.B, t.A, rv32.RNE)
	a.fr(rv32.FMULS, t.A, t.B, t.B, rv32.RNE)
	t.poly(t.X, t.A, 1.0/11, 1.0/9, 1.0/7, 1.0/5, 1.0/3)
	a.fr(rv32.FMULS, t.X, t.X, t.A, rv32.RNE)
	t.fma(rv32.FMADDS, t.X, t.X, t.B, t.B)
	a.fr(rv32.FADDS, t.X, t.X, t.X, rv32.RNE)
	a.fr(rv32.FCVTSW, t.A, e, 0, rv32.RNE)
	if natural {
		t.fc(t.C, float32(math.Ln2-float64(math.Float32frombits(0x3f317200))))
		t.fma(rv32.FMADDS, t.X, t.A, t.C, t.X)
		t.fc(t.C, math.Float32frombits(0x3f317200))
		t.fma(rv32.FMADDS, t.X, t.A, t.C, t.X)
	} else {
		t.fc(t.C, math.Log2E)
		t.fma(rv32.FMADDS, t.X, t.X, t.C, t.A)
	}
	// fclass: ±0 → -inf; negative or NaN → NaN; +inf → +inf.
	rb := xb
	a.r(rv32.FMVXW, rb, t.X, 0)
	for _, sp := range []struct{ mask, bits uint32 }{{0x018, 0xff800000}, {0x307, 0x7fc00000}, {0x080, 0x7f800000}} {
		a.li(t.K, sp.mask)
		a.r(rv32.AND, s, cls, t.K)
		a.r(rv32.SLTU, s, rZero, s)
		a.li(t.K, sp.bits)
		t.pick(rb, s, t.K)
	}
	a.r(rv32.FMVWX, t.X, rb, 0)
	return t.X
}

// pow leaves x^y (t.X, y's bits in yb) in a register it returns: exp2(y·log2 x),
// with pow(x, 0) = pow(1, y) = 1.
func (t *tseq) pow(yb uint8) uint8 {
	g, a := t.g, &t.g.a
	one := g.tmpX()
	a.r(rv32.FMVWX, t.A, yb, 0)
	a.r(rv32.FMVWX, t.B, rZero, 0)
	a.r(rv32.FEQS, one, t.A, t.B)
	t.fc(t.C, 1)
	a.r(rv32.FEQS, t.K, t.X, t.C)
	a.r(rv32.OR, one, one, t.K)
	save := g.xs
	l := t.log(false)
	g.xs = save // log's integer scratch is free again
	a.r(rv32.FMVWX, t.C, yb, 0)
	a.fr(rv32.FMULS, t.X, l, t.C, rv32.RNE)
	r := t.exp(false)
	rb := yb
	a.r(rv32.FMVXW, rb, r, 0)
	a.li(t.K, 0x3f800000)
	t.pick(rb, one, t.K)
	a.r(rv32.FMVWX, r, rb, 0)
	return r
}

// The π/2 of the sin/cos reduction, in three floats (p1 + p2 + p3 carries 72 bits).
var (
	pio2a = float32(math.Pi / 2)
	pio2b = float32(math.Pi/2 - float64(pio2a))
	pio2c = float32(math.Pi/2 - float64(pio2a) - float64(pio2b))
)

// sincos leaves sin, cos or tan of t.X in a register it returns.
func (t *tseq) sincos(op ir.Op) uint8 {
	g, a := t.g, &t.g.a
	bad, k := g.tmpX(), g.tmpX()
	a.r(rv32.FCLASSS, bad, t.X, 0) // ±inf or NaN: NaN
	a.li(t.K, 0x381)
	a.r(rv32.AND, bad, bad, t.K)
	a.r(rv32.SLTU, bad, rZero, bad)
	t.fc(t.C, 2/math.Pi)
	a.fr(rv32.FMULS, t.A, t.X, t.C, rv32.RNE)
	a.fr(rv32.FCVTWS, k, t.A, 0, rv32.RNE)
	a.fr(rv32.FCVTSW, t.A, k, 0, rv32.RNE)
	for _, p := range []float32{pio2a, pio2b, pio2c} {
		t.fc(t.C, p)
		t.fma(rv32.FNMSUBS, t.X, t.A, t.C, t.X)
	}
	// r in X, r² in B; sin r into A, then cos r into C with X (r no longer
	// needed) as the constant register.
	a.fr(rv32.FMULS, t.B, t.X, t.X, rv32.RNE)
	t.poly(t.A, t.B, 1.0/362880, -1.0/5040, 1.0/120, -1.0/6)
	a.fr(rv32.FMULS, t.A, t.A, t.B, rv32.RNE)
	t.fma(rv32.FMADDS, t.A, t.A, t.X, t.X) // r + r·r²·P(r²)
	c := t.C
	t.C = t.X
	t.poly(c, t.B, -1.0/3628800, 1.0/40320, -1.0/720, 1.0/24, -0.5, 1)
	t.C = c
	sb, cb, q := g.tmpX(), g.tmpX(), g.tmpX()
	a.r(rv32.FMVXW, sb, t.A, 0)
	a.r(rv32.FMVXW, cb, t.C, 0)
	// Quadrant k mod 4: sin x = (sin r, cos r, −sin r, −cos r), cos x = (cos r,
	// −sin r, −cos r, sin r), tan x = sin x / cos x.
	sign := func(dst uint8, kk int32) { // dst ^= ((k + kk) & 2) << 30
		a.i(rv32.ADDI, q, k, kk)
		a.i(rv32.ANDI, q, q, 2)
		a.i(rv32.SLLI, q, q, 30)
		a.r(rv32.XOR, dst, dst, q)
	}
	swap := func() { // if k is odd, exchange sb and cb
		a.i(rv32.ANDI, q, k, 1)
		a.r(rv32.SUB, q, rZero, q)
		a.r(rv32.XOR, t.K, sb, cb)
		a.r(rv32.AND, t.K, t.K, q)
		a.r(rv32.XOR, sb, sb, t.K)
		a.r(rv32.XOR, cb, cb, t.K)
	}
	swap() // sb = sin r or cos r, cb the other
	switch op {
	case ir.Sin:
		sign(sb, 0)
		a.r(rv32.FMVWX, t.A, sb, 0)
	case ir.Cos:
		sign(cb, 1)
		a.r(rv32.FMVWX, t.A, cb, 0)
	default: // tan = (sign(k) of sin x) / (sign(k+1) of cos x)
		sign(sb, 0)
		sign(cb, 1)
		a.r(rv32.FMVWX, t.A, sb, 0)
		a.r(rv32.FMVWX, t.C, cb, 0)
		a.fr(rv32.FDIVS, t.A, t.A, t.C, rv32.RNE)
	}
	t.nanTo(t.A, bad)
	return t.A
}

// choose emits f = m ? g : f for floats f and g; m is an integer mask, 0 or -1
// (kept).
func (t *tseq) choose(f, m, gv uint8) {
	g, a := t.g, &t.g.a
	fb, gb := g.tmpX(), g.tmpX()
	a.r(rv32.FMVXW, fb, f, 0)
	a.r(rv32.FMVXW, gb, gv, 0)
	a.r(rv32.XOR, gb, gb, fb)
	a.r(rv32.AND, gb, gb, m)
	a.r(rv32.XOR, fb, fb, gb)
	a.r(rv32.FMVWX, f, fb, 0)
	g.xs -= 2
}

// mask turns the 0/1 in r into 0/-1.
func (t *tseq) mask(r uint8) { t.g.a.r(rv32.SUB, r, rZero, r) }

// atan leaves atan(t.X) in t.A: |x| > 1 reflects through π/2 − atan(1/x), above
// tan(π/12) the argument is rotated by π/6, and atan a = a − a³/3 + … − a^15/15
// on |a| ≤ tan(π/12).
func (t *tseq) atan() uint8 {
	g, a := t.g, &t.g.a
	sgn, inv, red := g.tmpX(), g.tmpX(), g.tmpX()
	a.r(rv32.FMVXW, sgn, t.X, 0)
	a.i(rv32.SRLI, sgn, sgn, 31)
	a.i(rv32.SLLI, sgn, sgn, 31)
	a.fr(rv32.FSGNJXS, t.X, t.X, t.X, 0)
	t.fc(t.C, 1)
	a.r(rv32.FLTS, inv, t.C, t.X)
	t.mask(inv)
	a.fr(rv32.FDIVS, t.B, t.C, t.X, rv32.RNE)
	t.choose(t.X, inv, t.B)
	t.fc(t.C, float32(2-math.Sqrt(3))) // tan(π/12)
	a.r(rv32.FLTS, red, t.C, t.X)
	t.mask(red)
	t.fc(t.A, 1)
	t.fc(t.C, float32(math.Sqrt(3)))
	t.fma(rv32.FMSUBS, t.B, t.X, t.C, t.A) // (√3·a − 1) / (a + √3)
	a.fr(rv32.FADDS, t.A, t.X, t.C, rv32.RNE)
	a.fr(rv32.FDIVS, t.B, t.B, t.A, rv32.RNE)
	t.choose(t.X, red, t.B)
	a.fr(rv32.FMULS, t.B, t.X, t.X, rv32.RNE)
	t.poly(t.A, t.B, -1.0/15, 1.0/13, -1.0/11, 1.0/9, -1.0/7, 1.0/5, -1.0/3)
	a.fr(rv32.FMULS, t.A, t.A, t.B, rv32.RNE)
	t.fma(rv32.FMADDS, t.A, t.A, t.X, t.X)
	t.fc(t.C, math.Pi/6)
	a.fr(rv32.FADDS, t.B, t.A, t.C, rv32.RNE)
	t.choose(t.A, red, t.B)
	t.fc(t.C, math.Pi/2)
	a.fr(rv32.FSUBS, t.B, t.C, t.A, rv32.RNE)
	t.choose(t.A, inv, t.B)
	a.r(rv32.FMVXW, inv, t.A, 0)
	a.r(rv32.XOR, inv, inv, sgn)
	a.r(rv32.FMVWX, t.A, inv, 0)
	g.xs -= 3
	return t.A
}

// atan2 leaves atan(y, x) (t.X = y, x's bits in xb) in t.A: atan(y/x), plus π
// with y's sign — the opposite of atan(y/x)'s — when x is negative (or -0).
func (t *tseq) atan2(xb uint8) uint8 {
	g, a := t.g, &t.g.a
	neg := g.tmpX()
	a.i(rv32.SRLI, neg, xb, 31)
	t.mask(neg)
	a.r(rv32.FMVWX, t.C, xb, 0)
	a.fr(rv32.FDIVS, t.X, t.X, t.C, rv32.RNE)
	r := t.atan()
	t.fc(t.C, math.Pi)
	a.fr(rv32.FSGNJNS, t.C, t.C, r, 0)
	a.fr(rv32.FADDS, t.B, r, t.C, rv32.RNE)
	t.choose(r, neg, t.B)
	return r
}

// asinAcos leaves asin x = atan(x/√((1−x)(1+x))) or acos x = 2·atan(√((1−x)/(1+x)))
// of t.X in a register it returns.
func (t *tseq) asinAcos(acos bool) uint8 {
	a := &t.g.a
	t.fc(t.A, 1)
	a.fr(rv32.FSUBS, t.B, t.A, t.X, rv32.RNE)
	a.fr(rv32.FADDS, t.A, t.A, t.X, rv32.RNE)
	if acos {
		a.fr(rv32.FDIVS, t.B, t.B, t.A, rv32.RNE)
		a.fr(rv32.FSQRTS, t.X, t.B, 0, rv32.RNE)
		r := t.atan()
		a.fr(rv32.FADDS, r, r, r, rv32.RNE)
		return r
	}
	a.fr(rv32.FMULS, t.B, t.B, t.A, rv32.RNE)
	a.fr(rv32.FSQRTS, t.B, t.B, 0, rv32.RNE)
	a.fr(rv32.FDIVS, t.X, t.X, t.B, rv32.RNE)
	return t.atan()
}

// hyperbolic leaves sinh, cosh or tanh of t.X in a register it returns, from
// E = e^x: (E ∓ 1/E)/2, and tanh x = 1 − 2/(e^2x + 1).
func (t *tseq) hyperbolic(op ir.Op) uint8 {
	a := &t.g.a
	if op == ir.Tanh {
		a.fr(rv32.FADDS, t.X, t.X, t.X, rv32.RNE)
	}
	e := t.exp(true)
	t.fc(t.C, 1)
	if op == ir.Tanh {
		a.fr(rv32.FADDS, e, e, t.C, rv32.RNE)
		t.fc(t.B, 2)
		a.fr(rv32.FDIVS, t.B, t.B, e, rv32.RNE)
		a.fr(rv32.FSUBS, e, t.C, t.B, rv32.RNE)
		return e
	}
	a.fr(rv32.FDIVS, t.B, t.C, e, rv32.RNE)
	op2 := rv32.FSUBS
	if op == ir.Cosh {
		op2 = rv32.FADDS
	}
	a.fr(op2, e, e, t.B, rv32.RNE)
	t.fc(t.C, 0.5)
	a.fr(rv32.FMULS, e, e, t.C, rv32.RNE)
	return e
}

// inverseHyperbolic leaves asinh x = ±ln(|x| + √(x²+1)), acosh x = ln(x + √(x²−1))
// (NaN below 1)
// or atanh x = ln((1+x)/(1−x))/2 of t.X in a register it returns. Above 2^12 the
// square root is |x| to float precision, so asinh and acosh take ln|x| + ln 2
// there (x² would overflow for the largest arguments).
func (t *tseq) inverseHyperbolic(op ir.Op) uint8 {
	g, a := t.g, &t.g.a
	if op == ir.Atanh {
		t.fc(t.C, 1)
		a.fr(rv32.FADDS, t.A, t.C, t.X, rv32.RNE)
		a.fr(rv32.FSUBS, t.B, t.C, t.X, rv32.RNE)
		a.fr(rv32.FDIVS, t.X, t.A, t.B, rv32.RNE)
		save := g.xs
		r := t.log(true)
		g.xs = save
		t.fc(t.C, 0.5)
		a.fr(rv32.FMULS, r, r, t.C, rv32.RNE)
		return r
	}
	sgn, big := g.tmpX(), g.tmpX()
	a.mv(sgn, rZero)
	if op == ir.Asinh {
		a.r(rv32.FMVXW, sgn, t.X, 0)
		a.i(rv32.SRLI, sgn, sgn, 31)
		a.i(rv32.SLLI, sgn, sgn, 31)
		a.fr(rv32.FSGNJXS, t.X, t.X, t.X, 0)
	}
	t.fc(t.C, 1<<12)
	a.r(rv32.FLTS, big, t.C, t.X)
	t.mask(big)
	t.fc(t.C, 1)
	if op == ir.Acosh { // x² − 1 = (x−1)(x+1), x−1 exact; x < 1 is NaN
		a.r(rv32.FLTS, sgn, t.X, t.C)
		a.fr(rv32.FSUBS, t.A, t.X, t.C, rv32.RNE)
		a.fr(rv32.FADDS, t.B, t.X, t.C, rv32.RNE)
		a.fr(rv32.FMULS, t.B, t.A, t.B, rv32.RNE)
	} else {
		a.fr(rv32.FMULS, t.B, t.X, t.X, rv32.RNE)
		a.fr(rv32.FADDS, t.B, t.B, t.C, rv32.RNE)
	}
	a.fr(rv32.FSQRTS, t.B, t.B, 0, rv32.RNE)
	a.fr(rv32.FADDS, t.B, t.X, t.B, rv32.RNE)
	t.choose(t.B, big, t.X) // B = big ? |x| : |x| + √(x² ± 1)
	a.fr(rv32.FSGNJS, t.X, t.B, t.B, 0)
	save := g.xs
	r := t.log(true)
	g.xs = save
	t.fc(t.C, math.Ln2)
	a.fr(rv32.FADDS, t.B, r, t.C, rv32.RNE)
	t.choose(r, big, t.B)
	if op == ir.Acosh {
		t.nanTo(r, sgn) // sgn holds x < 1
		return r
	}
	a.r(rv32.FMVXW, big, r, 0)
	a.r(rv32.XOR, big, big, sgn)
	a.r(rv32.FMVWX, r, big, 0)
	return r
}
