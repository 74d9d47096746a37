// Package format defines the GL texel and attachment formats and converts
// between their stored bytes and the values shaders and the fragment
// pipeline work with. It is GL maths shared by the reference renderer (ref)
// and the device's software units (device/swtex, device/swom, gfx): a format
// means the same bytes wherever it is stored (spec: vortexpipe-driver §3.6,
// §3.7 — the software units cover the GL formats the FF units do not). It
// uses plain float maths and is tested against the GL rules on its own.
//
// A stored texel is first unpacked into Raw: one uint32 per component holding
// exactly the stored bits of that component (a unorm8 channel as 0..255, a
// half float as its 16 bits, a float32 as its bits, an integer channel as its
// bits sign-extended to 32). Raw is what colour write masks and logic ops act
// on. ToFloat / FromFloat and ToInt / FromInt convert Raw to and from the
// values a shader reads and writes.
//
// Conversions follow the GL rules: unorm encode clamps to [0,1] and rounds
// with floor(f*(2^n-1)+0.5), NaN encodes as 0; sRGB uses the piecewise sRGB
// transfer function; float32 to half rounds to nearest even; integer writes
// clamp to the representable range.
package format

import (
	"fmt"
	"math"
)

// Format is a colour, depth or stencil format of a texture or attachment.
type Format uint8

// The formats the reference renderer supports.
// spec: software-shader-backend "Current limitations" (the formats the CPU
// path lacked) and vortexpipe-driver §3.6-§3.8 (the device's format surface).
const (
	Invalid    Format = iota
	RGBA8             // 4 x unorm8, R at the lowest address
	BGRA8             // 4 x unorm8, B at the lowest address
	SRGB8A8           // 4 x unorm8, RGB sRGB-encoded, A linear
	R8                // 1 x unorm8
	RG8               // 2 x unorm8
	RGBA16F           // 4 x IEEE half
	R32F              // 1 x float32
	RG32F             // 2 x float32
	RGBA32F           // 4 x float32
	RGBA8I            // 4 x int8
	RGBA8UI           // 4 x uint8
	R32I              // 1 x int32
	R32UI             // 1 x uint32
	D16               // unorm16 depth
	D24S8             // one little-endian word: unorm24 depth in bits 31..8, stencil in bits 7..0 (GL UNSIGNED_INT_24_8)
	D32F              // float32 depth
	S8                // uint8 stencil
	RGBA8SNorm        // 4 x snorm8
	RGBA16            // 4 x unorm16
	R16F              // 1 x IEEE half
	RG16F             // 2 x IEEE half
	RGBA16I           // 4 x int16
	RGBA16UI          // 4 x uint16
	RG32I             // 2 x int32
	RG32UI            // 2 x uint32
	RGBA32I           // 4 x int32
	RGBA32UI          // 4 x uint32
	numFormats
)

// Kind says how a format's components are read.
type Kind uint8

// Component kinds.
const (
	KindUNorm Kind = iota + 1
	KindFloat
	KindSInt
	KindUInt
	KindDepthStencil
	KindSNorm
)

// Info describes a format.
type Info struct {
	Name       string
	Bytes      int  // bytes per texel
	Components int  // colour components stored (1..4); 0 for depth/stencil
	Bits       int  // bits per colour component
	Kind       Kind // how components are read
	SRGB       bool // RGB components are sRGB-encoded
	DepthBits  int  // 0 when the format has no depth
	HasStencil bool
}

var infos = [numFormats]Info{
	Invalid: {Name: "invalid"},
	RGBA8:   {Name: "RGBA8", Bytes: 4, Components: 4, Bits: 8, Kind: KindUNorm},
	BGRA8:   {Name: "BGRA8", Bytes: 4, Components: 4, Bits: 8, Kind: KindUNorm},
	SRGB8A8: {Name: "SRGB8_A8", Bytes: 4, Components: 4, Bits: 8, Kind: KindUNorm, SRGB: true},
	R8:      {Name: "R8", Bytes: 1, Components: 1, Bits: 8, Kind: KindUNorm},
	RG8:     {Name: "RG8", Bytes: 2, Components: 2, Bits: 8, Kind: KindUNorm},
	RGBA16F: {Name: "RGBA16F", Bytes: 8, Components: 4, Bits: 16, Kind: KindFloat},
	R32F:    {Name: "R32F", Bytes: 4, Components: 1, Bits: 32, Kind: KindFloat},
	RG32F:   {Name: "RG32F", Bytes: 8, Components: 2, Bits: 32, Kind: KindFloat},
	RGBA32F: {Name: "RGBA32F", Bytes: 16, Components: 4, Bits: 32, Kind: KindFloat},
	RGBA8I:  {Name: "RGBA8I", Bytes: 4, Components: 4, Bits: 8, Kind: KindSInt},
	RGBA8UI: {Name: "RGBA8UI", Bytes: 4, Components: 4, Bits: 8, Kind: KindUInt},
	R32I:    {Name: "R32I", Bytes: 4, Components: 1, Bits: 32, Kind: KindSInt},
	R32UI:   {Name: "R32UI", Bytes: 4, Components: 1, Bits: 32, Kind: KindUInt},
	D16:     {Name: "D16", Bytes: 2, Kind: KindDepthStencil, DepthBits: 16},
	D24S8:   {Name: "D24S8", Bytes: 4, Kind: KindDepthStencil, DepthBits: 24, HasStencil: true},
	D32F:    {Name: "D32F", Bytes: 4, Kind: KindDepthStencil, DepthBits: 32},
	S8:      {Name: "S8", Bytes: 1, Kind: KindDepthStencil, HasStencil: true},

	RGBA8SNorm: {Name: "RGBA8_SNORM", Bytes: 4, Components: 4, Bits: 8, Kind: KindSNorm},
	RGBA16:     {Name: "RGBA16", Bytes: 8, Components: 4, Bits: 16, Kind: KindUNorm},
	R16F:       {Name: "R16F", Bytes: 2, Components: 1, Bits: 16, Kind: KindFloat},
	RG16F:      {Name: "RG16F", Bytes: 4, Components: 2, Bits: 16, Kind: KindFloat},
	RGBA16I:    {Name: "RGBA16I", Bytes: 8, Components: 4, Bits: 16, Kind: KindSInt},
	RGBA16UI:   {Name: "RGBA16UI", Bytes: 8, Components: 4, Bits: 16, Kind: KindUInt},
	RG32I:      {Name: "RG32I", Bytes: 8, Components: 2, Bits: 32, Kind: KindSInt},
	RG32UI:     {Name: "RG32UI", Bytes: 8, Components: 2, Bits: 32, Kind: KindUInt},
	RGBA32I:    {Name: "RGBA32I", Bytes: 16, Components: 4, Bits: 32, Kind: KindSInt},
	RGBA32UI:   {Name: "RGBA32UI", Bytes: 16, Components: 4, Bits: 32, Kind: KindUInt},
}

// Info returns the description of f; the zero Info for an unknown format.
func (f Format) Info() Info {
	if f >= numFormats {
		return Info{Name: fmt.Sprintf("format(%d)", uint8(f))}
	}
	return infos[f]
}

// Valid reports whether f is a supported format.
func (f Format) Valid() bool { return f > Invalid && f < numFormats }

// String returns the format name.
func (f Format) String() string { return f.Info().Name }

// IsColor reports whether f is a colour format.
func (f Format) IsColor() bool { return f.Valid() && f.Info().Kind != KindDepthStencil }

// IsInteger reports whether f is a pure-integer colour format.
func (f Format) IsInteger() bool {
	k := f.Info().Kind
	return f.Valid() && (k == KindSInt || k == KindUInt)
}

// IsDepth reports whether f has a depth component.
func (f Format) IsDepth() bool { return f.Info().DepthBits > 0 }

// HasStencil reports whether f has a stencil component.
func (f Format) HasStencil() bool { return f.Info().HasStencil }

// Raw holds the stored bits of each colour component (see the package doc).
type Raw [4]uint32

func le16(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 }
func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func put16(b []byte, v uint32) { b[0], b[1] = byte(v), byte(v>>8) }
func put32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// Unpack reads the colour texel at the start of src. src must hold at least
// Info().Bytes bytes; components the format lacks are zero. Components are
// little-endian, R first (B first for BGRA8); signed integer and snorm
// components are sign-extended to 32 bits.
func Unpack(f Format, src []byte) Raw {
	var r Raw
	in := f.Info()
	if in.Kind == KindDepthStencil || in.Components == 0 {
		return r
	}
	n := in.Bits / 8
	for i := 0; i < in.Components; i++ {
		var v uint32
		switch n {
		case 1:
			v = uint32(src[i])
			if in.Kind == KindSInt || in.Kind == KindSNorm {
				v = uint32(int32(int8(v)))
			}
		case 2:
			v = le16(src[2*i:])
			if in.Kind == KindSInt || in.Kind == KindSNorm {
				v = uint32(int32(int16(v)))
			}
		default:
			v = le32(src[4*i:])
		}
		r[i] = v
	}
	if f == BGRA8 {
		r[0], r[2] = r[2], r[0]
	}
	return r
}

// Pack stores the colour texel r at the start of dst.
func Pack(f Format, dst []byte, r Raw) {
	in := f.Info()
	if in.Kind == KindDepthStencil || in.Components == 0 {
		return
	}
	if f == BGRA8 {
		r[0], r[2] = r[2], r[0]
	}
	n := in.Bits / 8
	for i := 0; i < in.Components; i++ {
		switch n {
		case 1:
			dst[i] = byte(r[i])
		case 2:
			put16(dst[2*i:], r[i])
		default:
			put32(dst[4*i:], r[i])
		}
	}
}

// ToFloat converts a unorm or float texel to RGBA floats; sRGB components are
// decoded to linear, missing components read as (0, 0, 0, 1). Integer
// formats return their values converted to float.
func ToFloat(f Format, r Raw) [4]float32 {
	in := f.Info()
	out := [4]float32{0, 0, 0, 1}
	for i := 0; i < in.Components; i++ {
		switch in.Kind {
		case KindUNorm:
			v := float32(float64(r[i]) / float64(uint32(1)<<in.Bits-1))
			if in.SRGB && i < 3 {
				v = SRGBToLinear(v)
			}
			out[i] = v
		case KindSNorm:
			out[i] = max(float32(float64(int32(r[i]))/float64(int32(1)<<(in.Bits-1)-1)), -1)
		case KindFloat:
			if in.Bits == 16 {
				out[i] = HalfToFloat32(uint16(r[i]))
			} else {
				out[i] = math.Float32frombits(r[i])
			}
		case KindSInt:
			out[i] = float32(int32(r[i]))
		case KindUInt:
			out[i] = float32(r[i])
		}
	}
	return out
}

// FromFloat converts RGBA floats to the stored components of a unorm or
// float format (unorm: clamp, sRGB encode, round; float: convert).
func FromFloat(f Format, c [4]float32) Raw {
	in := f.Info()
	var r Raw
	for i := 0; i < in.Components; i++ {
		switch in.Kind {
		case KindUNorm:
			v := c[i]
			if in.SRGB && i < 3 {
				v = LinearToSRGB(v)
			}
			r[i] = UNorm(v, in.Bits)
		case KindSNorm:
			r[i] = SNorm(c[i], in.Bits)
		case KindFloat:
			if in.Bits == 16 {
				r[i] = uint32(Float32ToHalf(c[i]))
			} else {
				r[i] = math.Float32bits(c[i])
			}
		case KindSInt:
			r[i] = FromInt(f, [4]uint32{uint32(floatToInt32(c[i]))})[0]
		case KindUInt:
			r[i] = FromInt(f, [4]uint32{floatToUint32(c[i])})[0]
		}
	}
	return r
}

// floatToInt32 converts with truncation, saturating; NaN gives 0.
func floatToInt32(v float32) int32 {
	switch {
	case v != v:
		return 0
	case v >= 2147483647:
		return math.MaxInt32
	case v <= -2147483648:
		return math.MinInt32
	}
	return int32(v)
}

// floatToUint32 converts with truncation, saturating; NaN gives 0.
func floatToUint32(v float32) uint32 {
	switch {
	case !(v > 0):
		return 0
	case v >= 4294967295:
		return math.MaxUint32
	}
	return uint32(v)
}

// ToInt returns the integer components of an integer texel as 32-bit words
// (signed values sign-extended); missing components read as (0, 0, 0, 1).
func ToInt(f Format, r Raw) [4]uint32 {
	out := [4]uint32{0, 0, 0, 1}
	for i := 0; i < f.Info().Components; i++ {
		out[i] = r[i]
	}
	return out
}

// FromInt converts 32-bit integer components to an integer format's stored
// components, clamping to the representable range.
func FromInt(f Format, v [4]uint32) Raw {
	in := f.Info()
	var r Raw
	for i := 0; i < in.Components; i++ {
		switch {
		case in.Kind == KindSInt && in.Bits < 32:
			lim := int32(1)<<(in.Bits-1) - 1
			r[i] = uint32(min(max(int32(v[i]), -lim-1), lim))
		case in.Kind == KindUInt && in.Bits < 32:
			r[i] = min(v[i], uint32(1)<<in.Bits-1)
		default:
			r[i] = v[i]
		}
	}
	return r
}

// ComponentMask returns the mask of the stored bits of one component.
func ComponentMask(f Format) uint32 {
	b := f.Info().Bits
	if b >= 32 {
		return 0xFFFFFFFF
	}
	return uint32(1)<<b - 1
}

// UNorm encodes v as an unsigned normalized integer of the given bit width
// (spec: software-shader-backend "Production color packing", which did not clamp):
// floor(clamp(v, 0, 1) * (2^bits - 1) + 0.5); NaN encodes as 0.
func UNorm(v float32, bits int) uint32 {
	if !(v > 0) { // NaN and non-positive
		return 0
	}
	if v >= 1 {
		return uint32(1)<<bits - 1
	}
	return uint32(math.Floor(float64(v)*float64(uint32(1)<<bits-1) + 0.5))
}

// SNorm encodes v as a signed normalized integer of the given bit width,
// round(clamp(v, -1, 1) * (2^(bits-1) - 1)) with halves away from zero,
// sign-extended to 32 bits; NaN encodes as 0.
func SNorm(v float32, bits int) uint32 {
	if v != v {
		return 0
	}
	m := float64(int32(1)<<(bits-1) - 1)
	x := math.Round(min(max(float64(v), -1), 1) * m)
	return uint32(int32(x))
}

// SRGBToLinear decodes one sRGB-encoded component (IEC 61966-2-1).
func SRGBToLinear(c float32) float32 {
	v := float64(c)
	if v <= 0.04045 {
		return float32(v / 12.92)
	}
	return float32(math.Pow((v+0.055)/1.055, 2.4))
}

// LinearToSRGB encodes one linear component with the sRGB transfer function,
// clamping to [0,1] first (NaN becomes 0).
func LinearToSRGB(c float32) float32 {
	v := float64(c)
	switch {
	case !(v > 0):
		return 0
	case v >= 1:
		return 1
	case v <= 0.0031308:
		return float32(v * 12.92)
	}
	return float32(1.055*math.Pow(v, 1/2.4) - 0.055)
}

// HalfToFloat32 converts an IEEE 754 binary16 value to float32 exactly.
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1F
	man := uint32(h) & 0x3FF
	switch {
	case exp == 0x1F: // inf / NaN
		return math.Float32frombits(sign | 0x7F800000 | man<<13)
	case exp == 0:
		v := float32(man) / 1024 / 16384 // man * 2^-24
		if sign != 0 {
			return -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// Float32ToHalf converts a float32 to IEEE 754 binary16, rounding to nearest
// even; overflow gives infinity, NaN stays NaN.
func Float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xFF
	man := b & 0x7FFFFF
	if exp == 0xFF {
		if man != 0 {
			return sign | 0x7E00
		}
		return sign | 0x7C00
	}
	e := exp - 127 + 15
	if e >= 0x1F {
		return sign | 0x7C00
	}
	if e <= 0 { // subnormal half or zero
		if e < -10 {
			return sign
		}
		m := man | 0x800000
		shift := uint32(14 - e) // 24-bit mantissa down to (10+e) bits
		h := m >> shift
		rem := m & (uint32(1)<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | man>>13
	rem := man & 0x1FFF
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, which is the correct rounding
	}
	return sign | uint16(h)
}
