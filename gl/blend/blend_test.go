package blend

import (
	"math"
	"math/rand/v2"
	"testing"

	"vortexgfx/abi"
	"vortexgfx/gl/format"
)

// colour is one blend input as GL 4.6 table 17.2 names its parts.
type colour struct{ r, g, b, a float64 }

// spec returns factor f as table 17.2 lists it: the RGB factors and the
// alpha factor, from the source s, second source s1, destination d and
// constant c.
func spec(f Factor, s, s1, d, c colour) (rgb [3]float64, a float64) {
	all := func(v colour) ([3]float64, float64) { return [3]float64{v.r, v.g, v.b}, v.a }
	inv := func(v colour) colour { return colour{1 - v.r, 1 - v.g, 1 - v.b, 1 - v.a} }
	alpha := func(x float64) ([3]float64, float64) { return [3]float64{x, x, x}, x }
	switch f {
	case Zero:
		return alpha(0)
	case One:
		return alpha(1)
	case SrcColor:
		return all(s)
	case OneMinusSrcColor:
		return all(inv(s))
	case DstColor:
		return all(d)
	case OneMinusDstColor:
		return all(inv(d))
	case SrcAlpha:
		return alpha(s.a)
	case OneMinusSrcAlpha:
		return alpha(1 - s.a)
	case DstAlpha:
		return alpha(d.a)
	case OneMinusDstAlpha:
		return alpha(1 - d.a)
	case ConstantColor:
		return all(c)
	case OneMinusConstantColor:
		return all(inv(c))
	case ConstantAlpha:
		return alpha(c.a)
	case OneMinusConstantAlpha:
		return alpha(1 - c.a)
	case SrcAlphaSaturate:
		x := min(s.a, 1-d.a)
		return [3]float64{x, x, x}, 1
	case Src1Color:
		return all(s1)
	case OneMinusSrc1Color:
		return all(inv(s1))
	case Src1Alpha:
		return alpha(s1.a)
	case OneMinusSrc1Alpha:
		return alpha(1 - s1.a)
	}
	panic("undefined factor")
}

// equation is table 17.1 for one channel: source value s with factor fs,
// destination value d with factor fd.
func equation(e Equation, s, fs, d, fd float64) float64 {
	switch e {
	case Add:
		return s*fs + d*fd
	case Subtract:
		return s*fs - d*fd
	case ReverseSubtract:
		return d*fd - s*fs
	case Min:
		return min(s, d)
	case Max:
		return max(s, d)
	}
	panic("undefined equation")
}

// want is the blend of f as tables 17.1 and 17.2 give it.
func want(f *Func, src, src1, dst, k [4]float64) [4]float64 {
	c := func(v [4]float64) colour { return colour{v[0], v[1], v[2], v[3]} }
	s, s1, d, kc := c(src), c(src1), c(dst), c(k)
	srgb, _ := spec(f.SrcRGB, s, s1, d, kc)
	drgb, _ := spec(f.DstRGB, s, s1, d, kc)
	_, sa := spec(f.SrcAlpha, s, s1, d, kc)
	_, da := spec(f.DstAlpha, s, s1, d, kc)
	var out [4]float64
	for i := range 3 {
		out[i] = equation(f.EqRGB, src[i], srgb[i], dst[i], drgb[i])
	}
	out[3] = equation(f.EqAlpha, src[3], sa, dst[3], da)
	return out
}

// every calls fn with every function whose RGB and alpha halves are the
// same equation and factors, plus a spread of mixed ones.
func every(fn func(f *Func)) {
	for e := range NumEquations {
		for sf := range NumFactors {
			for df := range NumFactors {
				fn(&Func{EqRGB: e, EqAlpha: e, SrcRGB: sf, DstRGB: df, SrcAlpha: sf, DstAlpha: df})
				// A different alpha half, so the halves are kept apart.
				fn(&Func{EqRGB: e, EqAlpha: (e + 2) % NumEquations, SrcRGB: sf, DstRGB: df,
					SrcAlpha: (df + 5) % NumFactors, DstAlpha: (sf + 11) % NumFactors})
			}
		}
	}
}

// TestFloat checks every factor × equation against tables 17.1 and 17.2 on
// a dense dyadic domain (multiples of 1/4 in [-1, 2]), where every product
// and sum is exact, so the results must be equal bit for bit.
func TestFloat(t *testing.T) {
	vals := []float32{-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 1.25, 2}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() (v [4]float32, w [4]float64) {
		for i := range v {
			v[i] = vals[rng.IntN(len(vals))]
			w[i] = float64(v[i])
		}
		return v, w
	}
	every(func(f *Func) {
		for range 24 {
			s, ws := pick()
			s1, ws1 := pick()
			d, wd := pick()
			k, wk := pick()
			got := f.Float(format.KindFloat, s, s1, d, k)
			w := want(f, ws, ws1, wd, wk)
			for c := range 4 {
				if float64(got[c]) != w[c] {
					t.Fatalf("%+v on s %v s1 %v d %v k %v: channel %d = %g, want %g", *f, s, s1, d, k, c, got[c], w[c])
				}
			}
		}
	})
}

// TestFloatClamp checks that normalized targets clamp every input to their
// range (§17.3.6.1) and NaN to 0, and float targets do not.
func TestFloatClamp(t *testing.T) {
	f := &Func{EqRGB: Add, EqAlpha: Add, SrcRGB: SrcColor, DstRGB: ConstantColor, SrcAlpha: Src1Alpha, DstAlpha: One}
	nan := float32(math.NaN())
	src, src1, dst, k := [4]float32{2, -2, nan, 0.5}, [4]float32{0, 0, 0, 3}, [4]float32{-3, 0.5, 1, 1}, [4]float32{1, 5, 0.5, 0}
	for _, c := range []struct {
		kind format.Kind
		want [4]float32
	}{
		// RGB is s·s + d·k, alpha s.a·s1.a + d.a.
		// unorm: src (1, 0, 0, .5), s1.a 1, dst (0, .5, 1, 1), k (1, 1, .5, 0)
		{format.KindUNorm, [4]float32{1, 0.5, 0.5, 1.5}},
		// snorm: src (1, -1, 0, .5), s1.a 1, dst (-1, .5, 1, 1), k (1, 1, .5, 0)
		{format.KindSNorm, [4]float32{0, 1.5, 0.5, 1.5}},
		// float: unclamped, NaN propagates
		{format.KindFloat, [4]float32{1, 6.5, nan, 2.5}},
	} {
		got := f.Float(c.kind, src, src1, dst, k)
		for i := range 4 {
			if got[i] != c.want[i] && !(got[i] != got[i] && c.want[i] != c.want[i]) {
				t.Errorf("kind %d: %v, want %v", c.kind, got, c.want)
				break
			}
		}
	}
}

// round8 is the unorm8 encoding of x/255² clamped to [0, 1], computed in
// exact integers: the nearest integer to x/255 (no ties: x/255 is never an
// odd multiple of 1/2).
func round8(x int64) int64 {
	switch {
	case x <= 0:
		return 0
	case x >= 255*255:
		return 255
	}
	return (2*x + 255) / 510
}

// TestUnorm8 checks every factor × equation against tables 17.1 and 17.2
// evaluated exactly on unorm8 values (factor 1 is 255, results rounded to
// nearest and clamped), on random inputs and at the ends of the range.
func TestUnorm8(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ends := []uint8{0, 1, 127, 128, 254, 255}
	pick := func(i int) (v [4]uint8, w [4]float64) {
		for c := range v {
			if i%2 == 0 {
				v[c] = ends[rng.IntN(len(ends))]
			} else {
				v[c] = uint8(rng.IntN(256))
			}
			w[c] = float64(v[c])
		}
		return v, w
	}
	every(func(f *Func) {
		for i := range 32 {
			s, ws := pick(i)
			s1, ws1 := pick(i)
			d, wd := pick(i)
			k, wk := pick(i)
			got := f.Unorm8(s, s1, d, k)
			// want on values scaled by 255: products of factors are 255² too
			// big, except for MIN and MAX, which are exact.
			sc := func(v [4]float64) [4]float64 { return [4]float64{v[0] / 255, v[1] / 255, v[2] / 255, v[3] / 255} }
			w := want(f, sc(ws), sc(ws1), sc(wd), sc(wk))
			for c := range 4 {
				eq := f.EqRGB
				if c == 3 {
					eq = f.EqAlpha
				}
				var exp int64
				if eq == Min || eq == Max {
					exp = int64(math.Round(w[c] * 255))
				} else {
					exp = round8(int64(math.Round(w[c] * 255 * 255)))
				}
				if int64(got[c]) != exp {
					t.Fatalf("%+v on s %v s1 %v d %v k %v: channel %d = %d, want %d", *f, s, s1, d, k, c, got[c], exp)
				}
			}
		}
	})
}

// TestUnorm8Rounding checks the Div255 rounding exhaustively: every source
// and destination pair through SRC_ALPHA, ONE_MINUS_SRC_ALPHA and every
// equation.
func TestUnorm8Rounding(t *testing.T) {
	for e := range NumEquations {
		f := &Func{EqRGB: e, EqAlpha: e, SrcRGB: SrcAlpha, DstRGB: OneMinusSrcAlpha, SrcAlpha: One, DstAlpha: One}
		for s := range 256 {
			for d := range 256 {
				a := uint8(s ^ d)
				got := f.Unorm8([4]uint8{uint8(s), 0, 0, a}, [4]uint8{}, [4]uint8{uint8(d), 0, 0, uint8(d)}, [4]uint8{})
				x := [NumEquations]int64{int64(s*int(a) + d*(255-int(a))), int64(s*int(a) - d*(255-int(a))), int64(d*(255-int(a)) - s*int(a))}
				var wr int64
				switch e {
				case Min:
					wr = int64(min(s, d))
				case Max:
					wr = int64(max(s, d))
				default:
					wr = round8(x[e])
				}
				xa := [NumEquations]int64{255 * int64(int(a)+d), 255 * int64(int(a)-d), 255 * int64(d-int(a))}
				var wa int64
				switch e {
				case Min:
					wa = int64(min(int(a), d))
				case Max:
					wa = int64(max(int(a), d))
				default:
					wa = round8(xa[e])
				}
				if int64(got[0]) != wr || int64(got[3]) != wa {
					t.Fatalf("%v s %d d %d a %d: got r %d a %d, want %d %d", e, s, d, a, got[0], got[3], wr, wa)
				}
			}
		}
	}
}

// TestOM pins every factor's and equation's OM code (vortex-hardware-facts
// §5: ZERO, ONE, SRC_RGB, 1−SRC_RGB, DST_RGB, 1−DST_RGB, SRC_A, 1−SRC_A,
// DST_A, 1−DST_A, CONST_RGB, 1−CONST_RGB, CONST_A, 1−CONST_A, ALPHA_SAT =
// 0..14; ADD 0, SUB 1, REV_SUB 2, MIN 3, MAX 4), that the dual-source
// factors have none, and that the FromOM functions invert OM.
func TestOM(t *testing.T) {
	factors := map[Factor]abi.BlendFactor{Zero: 0, One: 1, SrcColor: 2, OneMinusSrcColor: 3, DstColor: 4,
		OneMinusDstColor: 5, SrcAlpha: 6, OneMinusSrcAlpha: 7, DstAlpha: 8, OneMinusDstAlpha: 9,
		ConstantColor: 10, OneMinusConstantColor: 11, ConstantAlpha: 12, OneMinusConstantAlpha: 13, SrcAlphaSaturate: 14}
	for f := range NumFactors + 2 {
		c, ok := f.OM()
		w, defined := factors[f]
		if ok != defined || c != w || f.DualSource() != (f.Valid() && !defined) {
			t.Errorf("%v.OM() = %d, %v; want %d, %v (dual source %v)", f, c, ok, w, defined, f.DualSource())
		}
	}
	for c := range abi.BlendFactor(abi.NumBlendFactors + 2) {
		f, ok := FactorFromOM(c)
		if ok != (c < abi.NumBlendFactors) {
			t.Errorf("FactorFromOM(%d) ok = %v", c, ok)
		} else if back, _ := f.OM(); ok && back != c {
			t.Errorf("FactorFromOM(%d) = %v, which maps back to %d", c, f, back)
		}
	}
	swom := map[Factor]abi.BlendFactor{Src1Color: 15, OneMinusSrc1Color: 16, Src1Alpha: 17, OneMinusSrc1Alpha: 18}
	for f, c := range factors {
		swom[f] = c
	}
	for f := range NumFactors + 2 {
		c, ok := f.SWOM()
		w, defined := swom[f]
		if ok != defined || c != w {
			t.Errorf("%v.SWOM() = %d, %v; want %d, %v", f, c, ok, w, defined)
		}
	}
	for c := range abi.BlendFactor(abi.SWOMNumFactors + 2) {
		f, ok := FactorFromSWOM(c)
		if ok != (c < abi.SWOMNumFactors) {
			t.Errorf("FactorFromSWOM(%d) ok = %v", c, ok)
		} else if back, _ := f.SWOM(); ok && back != c {
			t.Errorf("FactorFromSWOM(%d) = %v, which maps back to %d", c, f, back)
		}
	}
	modes := map[Equation]abi.BlendMode{Add: 0, Subtract: 1, ReverseSubtract: 2, Min: 3, Max: 4}
	for e := range NumEquations + 2 {
		m, ok := e.OM()
		w, defined := modes[e]
		if ok != defined || m != w {
			t.Errorf("%v.OM() = %d, %v; want %d, %v", e, m, ok, w, defined)
		}
	}
	for m := range abi.BlendMode(8) {
		e, ok := EquationFromOM(m)
		if ok != (m <= abi.BlendMax) {
			t.Errorf("EquationFromOM(%d) ok = %v", m, ok)
		} else if back, _ := e.OM(); ok && back != m {
			t.Errorf("EquationFromOM(%d) = %v, which maps back to %d", m, e, back)
		}
	}
}

// TestNames pins table 17.2's order by name.
func TestNames(t *testing.T) {
	want := []string{"ZERO", "ONE", "SRC_COLOR", "ONE_MINUS_SRC_COLOR", "DST_COLOR", "ONE_MINUS_DST_COLOR",
		"SRC_ALPHA", "ONE_MINUS_SRC_ALPHA", "DST_ALPHA", "ONE_MINUS_DST_ALPHA", "CONSTANT_COLOR",
		"ONE_MINUS_CONSTANT_COLOR", "CONSTANT_ALPHA", "ONE_MINUS_CONSTANT_ALPHA", "SRC_ALPHA_SATURATE",
		"SRC1_COLOR", "ONE_MINUS_SRC1_COLOR", "SRC1_ALPHA", "ONE_MINUS_SRC1_ALPHA"}
	for i, n := range want {
		if got := Factor(i).String(); got != n {
			t.Errorf("Factor(%d) = %s, want %s", i, got, n)
		}
	}
	if !Disabled.SrcRGB.Valid() || Disabled.UsesSrc1() || !(Func{DstAlpha: Src1Alpha}).UsesSrc1() {
		t.Error("Disabled / UsesSrc1")
	}
}
