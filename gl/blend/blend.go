package blend

import "vortexgfx/gl/format"

// Func is one render target's blend function: an equation and a source and
// destination factor for RGB and for alpha (glBlendEquationSeparate,
// glBlendFuncSeparate).
type Func struct {
	EqRGB, EqAlpha     Equation
	SrcRGB, DstRGB     Factor
	SrcAlpha, DstAlpha Factor
}

// Disabled is the function that leaves the source as it is: ADD with ONE
// and ZERO (GL's initial state).
var Disabled = Func{SrcRGB: One, DstRGB: Zero, SrcAlpha: One, DstAlpha: Zero}

// UsesSrc1 reports whether any of f's factors reads the second source.
func (f Func) UsesSrc1() bool {
	return f.SrcRGB.DualSource() || f.DstRGB.DualSource() || f.SrcAlpha.DualSource() || f.DstAlpha.DualSource()
}

// Float blends source src (and second source src1) with destination dst and
// constant k in float, as GL 4.6 §17.3.6 says: per channel the equation of
// the source term s·Fs and the destination term d·Fd, computed in float64
// from float32 factors and rounded to float32. For a normalized target
// (kind KindUNorm or KindSNorm) the inputs are clamped to [0, 1] or [-1, 1]
// first (§17.3.6.1); NaN clamps to 0. Other kinds blend unclamped.
func (f Func) Float(kind format.Kind, src, src1, dst, k [4]float32) [4]float32 {
	switch kind {
	case format.KindUNorm:
		src, src1, dst, k = clampTo(src, 0), clampTo(src1, 0), clampTo(dst, 0), clampTo(k, 0)
	case format.KindSNorm:
		src, src1, dst, k = clampTo(src, -1), clampTo(src1, -1), clampTo(dst, -1), clampTo(k, -1)
	}
	var out [4]float32
	for c := range 4 {
		eq, sf, df := f.EqRGB, f.SrcRGB, f.DstRGB
		if c == 3 {
			eq, sf, df = f.EqAlpha, f.SrcAlpha, f.DstAlpha
		}
		s, d := float64(src[c]), float64(dst[c])
		var r float64
		switch eq {
		case Min:
			r = min(s, d)
		case Max:
			r = max(s, d)
		default:
			fs := float64(factor(sf, c, src, src1, dst, k))
			fd := float64(factor(df, c, src, src1, dst, k))
			switch eq {
			case Subtract:
				r = s*fs - d*fd
			case ReverseSubtract:
				r = d*fd - s*fs
			default:
				r = s*fs + d*fd
			}
		}
		out[c] = float32(r)
	}
	return out
}

// clampTo clamps each component to [lo, 1]; NaN becomes 0.
func clampTo(c [4]float32, lo float32) [4]float32 {
	for i, v := range c {
		switch {
		case v != v:
			c[i] = 0
		case v < lo:
			c[i] = lo
		case v > 1:
			c[i] = 1
		}
	}
	return c
}

// factor is factor f of channel c on floats (table 17.2); an undefined
// factor is zero.
func factor(f Factor, c int, s, s1, d, k [4]float32) float32 {
	switch f {
	case One:
		return 1
	case SrcColor:
		return s[c]
	case OneMinusSrcColor:
		return 1 - s[c]
	case DstColor:
		return d[c]
	case OneMinusDstColor:
		return 1 - d[c]
	case SrcAlpha:
		return s[3]
	case OneMinusSrcAlpha:
		return 1 - s[3]
	case DstAlpha:
		return d[3]
	case OneMinusDstAlpha:
		return 1 - d[3]
	case ConstantColor:
		return k[c]
	case OneMinusConstantColor:
		return 1 - k[c]
	case ConstantAlpha:
		return k[3]
	case OneMinusConstantAlpha:
		return 1 - k[3]
	case SrcAlphaSaturate:
		if c == 3 {
			return 1
		}
		return min(s[3], 1-d[3])
	case Src1Color:
		return s1[c]
	case OneMinusSrc1Color:
		return 1 - s1[c]
	case Src1Alpha:
		return s1[3]
	case OneMinusSrc1Alpha:
		return 1 - s1[3]
	}
	return 0
}
