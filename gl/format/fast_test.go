package format

import (
	"math"
	"math/rand/v2"
	"testing"
)

// floatClasses returns float32 inputs covering every class a conversion
// distinguishes: NaNs, infinities, signed zeros, subnormals, negatives,
// values above 1, every rounding boundary (k+1/2)/(2^bits-1) and its
// neighbours within 8 ulps for the 8-bit case (sampled for 24 bits), a
// strided sweep of all bit patterns and random bit patterns.
func floatClasses(bits int) []float32 {
	vs := []float32{
		float32(math.NaN()), math.Float32frombits(0xFFC00001), math.Float32frombits(0x7F800001),
		float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)),
		math.Float32frombits(1), math.Float32frombits(0x007FFFFF), -math.Float32frombits(1),
		-1, -0.5, 1, 2, math.MaxFloat32, -math.MaxFloat32, math.Nextafter32(1, 0), math.Nextafter32(1, 2),
	}
	m := float64(uint32(1)<<bits - 1)
	step := 1
	if bits > 8 {
		step = 4093
	}
	for k := 0; k <= int(m); k += step {
		for _, c := range []float64{float64(k) / m, (float64(k) + 0.5) / m} {
			f := float32(c)
			for range 8 {
				f = math.Nextafter32(f, 0)
			}
			for range 17 {
				vs = append(vs, f)
				f = math.Nextafter32(f, 2)
			}
		}
	}
	for b := uint64(0); b < 1<<32; b += 4099 {
		vs = append(vs, math.Float32frombits(uint32(b)))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		vs = append(vs, math.Float32frombits(rng.Uint32()), rng.Float32())
	}
	return vs
}

func same(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }

// The RGBA8 fast paths equal the generic ones for every byte value and
// every float class.
func TestFastRGBA8(t *testing.T) {
	for v := range 256 {
		for c := range 4 {
			px := []byte{0x11, 0x22, 0x33, 0x44}
			px[c] = byte(v)
			if g, w := UnpackRGBA8(px), Unpack(RGBA8, px); g != w {
				t.Fatalf("UnpackRGBA8(%v) = %v, want %v", px, g, w)
			}
			r := UnpackRGBA8(px)
			if g, w := ToFloatRGBA8(r), ToFloat(RGBA8, r); g != w {
				t.Fatalf("ToFloatRGBA8(%v) = %v, want %v", r, g, w)
			}
			a, b := make([]byte, 4), make([]byte, 4)
			PackRGBA8(a, r)
			Pack(RGBA8, b, r)
			if string(a) != string(b) {
				t.Fatalf("PackRGBA8(%v) = %v, want %v", r, a, b)
			}
		}
	}
	vs := floatClasses(8)
	for i, v := range vs {
		if g, w := UNorm8(v), UNorm(v, 8); g != w {
			t.Fatalf("UNorm8(%v / %#x) = %d, want %d", v, math.Float32bits(v), g, w)
		}
		c := [4]float32{v, vs[(i+1)%len(vs)], vs[(i+7)%len(vs)], vs[(i+13)%len(vs)]}
		if g, w := FromFloatRGBA8(c), FromFloat(RGBA8, c); g != w {
			t.Fatalf("FromFloatRGBA8(%v) = %v, want %v", c, g, w)
		}
	}
}

// The D24S8 depth fast paths equal the generic ones for every float class
// and keep the stencil byte.
func TestFastD24S8(t *testing.T) {
	for _, z := range floatClasses(24) {
		if g, w := UNorm24(z), UNorm(z, 24); g != w {
			t.Fatalf("UNorm24(%v / %#x) = %d, want %d", z, math.Float32bits(z), g, w)
		}
		if g, w := QuantizeDepthD24S8(z), QuantizeDepth(D24S8, z); !same(g, w) {
			t.Fatalf("QuantizeDepthD24S8(%v) = %v, want %v", z, g, w)
		}
		a, b := []byte{0xA5, 1, 2, 3}, []byte{0xA5, 1, 2, 3}
		PackDepthD24S8(a, z)
		PackDepth(D24S8, b, z)
		if string(a) != string(b) {
			t.Fatalf("PackDepthD24S8(%v) = %v, want %v", z, a, b)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	words := []uint32{0, 0xFF, 0xFFFFFF00, 0xFFFFFFFF, 0x800000A5}
	for range 100000 {
		words = append(words, rng.Uint32())
	}
	for d := uint32(0); d < 1<<24; d += 251 {
		words = append(words, d<<8|d&0xFF)
	}
	for _, w := range words {
		px := []byte{byte(w), byte(w >> 8), byte(w >> 16), byte(w >> 24)}
		if g, want := UnpackDepthD24S8(px), UnpackDepth(D24S8, px); !same(g, want) {
			t.Fatalf("UnpackDepthD24S8(%#x) = %v, want %v", w, g, want)
		}
	}
}
