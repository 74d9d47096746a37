package blend

// Unorm8 blends unorm8 channels (RGBA order; 255 is 1) in the OM's fixed
// point: a factor is an integer 0..255 (1-x is 255-x), and ADD is
// Div255(min(s·Fs + d·Fd + 0x80, 0xFF00)), SUBTRACT Div255(max(s·Fs − d·Fd +
// 0x80, 0)), REVERSE_SUBTRACT the same with the terms swapped, MIN and MAX
// the channel minimum and maximum, with Div255(x) = (x + (x >> 8)) >> 8.
// That is GL's equation evaluated exactly on the unorm values and rounded
// to the nearest unorm8 (clamped to [0, 1]), so it writes the bytes the
// float blend and the unorm8 store give. The FF OM blends this way, and the
// software merger does for its unorm8 targets so a draw moved to it writes
// what the FF unit would. src1 is the second source (zero when there is
// none). spec: vortex-hardware-facts §5 (blend modes); GL 4.6 §17.3.6
func (f Func) Unorm8(src, src1, dst, k [4]uint8) [4]uint8 {
	var out [4]uint8
	for c := range 4 {
		eq, sf, df := f.EqRGB, f.SrcRGB, f.DstRGB
		if c == 3 {
			eq, sf, df = f.EqAlpha, f.SrcAlpha, f.DstAlpha
		}
		s, d := int32(src[c]), int32(dst[c])
		var r int32
		switch eq {
		case Min:
			r = min(s, d)
		case Max:
			r = max(s, d)
		default:
			fs, fd := factor8(sf, c, src, src1, dst, k), factor8(df, c, src, src1, dst, k)
			switch eq {
			case Subtract:
				r = div255(max(s*fs-d*fd+0x80, 0))
			case ReverseSubtract:
				r = div255(max(d*fd-s*fs+0x80, 0))
			default:
				r = div255(min(s*fs+d*fd+0x80, 0xFF00))
			}
		}
		out[c] = uint8(r)
	}
	return out
}

// div255 is cocogfx Div255, the OM's: (x + (x >> 8)) >> 8.
func div255(x int32) int32 { return (x + x>>8) >> 8 }

// factor8 is factor f of channel c on unorm8 values; an undefined factor is
// zero.
func factor8(f Factor, c int, s, s1, d, k [4]uint8) int32 {
	switch f {
	case One:
		return 255
	case SrcColor:
		return int32(s[c])
	case OneMinusSrcColor:
		return 255 - int32(s[c])
	case DstColor:
		return int32(d[c])
	case OneMinusDstColor:
		return 255 - int32(d[c])
	case SrcAlpha:
		return int32(s[3])
	case OneMinusSrcAlpha:
		return 255 - int32(s[3])
	case DstAlpha:
		return int32(d[3])
	case OneMinusDstAlpha:
		return 255 - int32(d[3])
	case ConstantColor:
		return int32(k[c])
	case OneMinusConstantColor:
		return 255 - int32(k[c])
	case ConstantAlpha:
		return int32(k[3])
	case OneMinusConstantAlpha:
		return 255 - int32(k[3])
	case SrcAlphaSaturate:
		if c == 3 {
			return 255
		}
		return min(int32(s[3]), 255-int32(d[3]))
	case Src1Color:
		return int32(s1[c])
	case OneMinusSrc1Color:
		return 255 - int32(s1[c])
	case Src1Alpha:
		return int32(s1[3])
	case OneMinusSrc1Alpha:
		return 255 - int32(s1[3])
	}
	return 0
}
