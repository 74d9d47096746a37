package format

import (
	"math"
	"testing"
)

func TestUNorm(t *testing.T) {
	cases := []struct {
		v    float32
		bits int
		want uint32
	}{
		{0, 8, 0}, {1, 8, 255}, {0.5, 8, 128}, {-1, 8, 0}, {2, 8, 255},
		{float32(math.NaN()), 8, 0}, {float32(math.Inf(-1)), 8, 0}, {float32(math.Inf(1)), 8, 255},
		{127.5 / 255, 8, 128}, {127.4 / 255, 8, 127}, {0.5, 16, 32768}, {1, 24, 0xFFFFFF}, {0.5, 24, 0x800000},
	}
	for _, c := range cases {
		if got := UNorm(c.v, c.bits); got != c.want {
			t.Errorf("UNorm(%v, %d) = %d, want %d", c.v, c.bits, got, c.want)
		}
	}
	// Every 8-bit value round-trips through k/255.
	for k := range uint32(256) {
		if got := UNorm(float32(k)/255, 8); got != k {
			t.Fatalf("round trip %d -> %d", k, got)
		}
	}
}

func TestHalf(t *testing.T) {
	cases := []struct {
		f float32
		h uint16
	}{
		{0, 0}, {float32(math.Copysign(0, -1)), 0x8000}, {1, 0x3C00}, {-2, 0xC000}, {65504, 0x7BFF},
		{65520, 0x7C00}, // rounds to infinity
		{float32(math.Inf(1)), 0x7C00}, {5.960464477539063e-08, 0x0001}, {6.103515625e-05, 0x0400},
		{1.0009765625, 0x3C01}, {1.00048828125, 0x3C00}, // tie to even
		{1.00146484375, 0x3C02},      // tie to even (up)
		{2.98023223876953125e-08, 0}, // half the smallest subnormal: tie to even 0
	}
	for _, c := range cases {
		if got := Float32ToHalf(c.f); got != c.h {
			t.Errorf("Float32ToHalf(%v) = %#04x, want %#04x", c.f, got, c.h)
		}
	}
	for h := range 0x10000 {
		f := HalfToFloat32(uint16(h))
		if f != f {
			if Float32ToHalf(f)&0x7C00 != 0x7C00 {
				t.Fatalf("NaN %#x", h)
			}
			continue
		}
		if back := Float32ToHalf(f); back != uint16(h) {
			t.Fatalf("half %#04x -> %v -> %#04x", h, f, back)
		}
	}
}

func TestSRGB(t *testing.T) {
	for _, c := range []struct {
		lin  float32
		byte uint32
	}{{0, 0}, {1, 255}, {0.5, 188}, {0.2159, 128}, {0.0031308, 10}, {-1, 0}, {2, 255}} {
		if got := UNorm(LinearToSRGB(c.lin), 8); got != c.byte {
			t.Errorf("sRGB(%v) = %d, want %d", c.lin, got, c.byte)
		}
	}
	for k := range uint32(256) {
		if got := UNorm(LinearToSRGB(SRGBToLinear(float32(k)/255)), 8); got != k {
			t.Fatalf("sRGB round trip %d -> %d", k, got)
		}
	}
}

func TestPackRoundTrip(t *testing.T) {
	for f := Invalid + 1; f < numFormats; f++ {
		if !f.IsColor() {
			continue
		}
		in := f.Info()
		buf := make([]byte, in.Bytes)
		var r Raw
		for i := 0; i < in.Components; i++ {
			r[i] = uint32(0x9ABCDEF1+i*0x01020304) & ComponentMask(f)
			if (in.Kind == KindSInt || in.Kind == KindSNorm) && in.Bits == 8 {
				r[i] = uint32(int32(int8(r[i])))
			}
			if (in.Kind == KindSInt || in.Kind == KindSNorm) && in.Bits == 16 {
				r[i] = uint32(int32(int16(r[i])))
			}
		}
		Pack(f, buf, r)
		if got := Unpack(f, buf); got != r {
			t.Errorf("%v: %v -> %v", f, r, got)
		}
	}
	var b [4]byte
	Pack(BGRA8, b[:], Raw{1, 2, 3, 4})
	if b != [4]byte{3, 2, 1, 4} {
		t.Errorf("BGRA8 byte order %v", b)
	}
}

func TestIntClamp(t *testing.T) {
	if got := FromInt(RGBA8I, [4]uint32{uint32(0xFFFFFF00), 300, uint32(0xFFFFFFFF), 5}); got != (Raw{uint32(0xFFFFFF80), 127, 0xFFFFFFFF, 5}) {
		t.Errorf("RGBA8I clamp %v", got)
	}
	if got := FromInt(RGBA8UI, [4]uint32{300, 255, 0, 0xFFFFFFFF}); got != (Raw{255, 255, 0, 255}) {
		t.Errorf("RGBA8UI clamp %v", got)
	}
	if got := ToFloat(R8, Raw{255}); got != [4]float32{1, 0, 0, 1} {
		t.Errorf("R8 missing components %v", got)
	}
}

func TestDepthStencilPacking(t *testing.T) {
	b := make([]byte, 4)
	PackStencil(D24S8, b, 0xAB)
	PackDepth(D24S8, b, 1)
	if b[0] != 0xAB || b[1] != 0xFF || b[2] != 0xFF || b[3] != 0xFF {
		t.Fatalf("D24S8 bytes %x", b)
	}
	PackStencil(D24S8, b, 0x12)
	if UnpackDepth(D24S8, b) != 1 || UnpackStencil(D24S8, b) != 0x12 {
		t.Fatal("D24S8 stencil write disturbed depth")
	}
	for _, c := range []struct {
		f    Format
		z    float32
		want float32
	}{{D16, 0.5, 32768.0 / 65535}, {D16, -1, 0}, {D16, 2, 1}, {D32F, 0.3, 0.3}, {D32F, float32(math.NaN()), 0}, {D24S8, 0.25, float32(float64(0x400000) / 0xFFFFFF)}} {
		if got := QuantizeDepth(c.f, c.z); got != c.want {
			t.Errorf("%v quantize %v = %v, want %v", c.f, c.z, got, c.want)
		}
		PackDepth(c.f, b, c.z)
		if got := UnpackDepth(c.f, b); got != c.want {
			t.Errorf("%v pack %v = %v, want %v", c.f, c.z, got, c.want)
		}
	}
}

func TestSNormAndWideInts(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want int32
	}{{1, 127}, {-1, -127}, {-2, -127}, {0.5, 64}, {-0.5, -64}, {0, 0}, {float32(math.NaN()), 0}} {
		if got := int32(SNorm(c.v, 8)); got != c.want {
			t.Errorf("SNorm(%v) = %d, want %d", c.v, got, c.want)
		}
	}
	// -128 decodes to -1 like -127.
	if got := ToFloat(RGBA8SNorm, Raw{uint32(0xFFFFFF80), uint32(0xFFFFFF81), 127, 0}); got != [4]float32{-1, -1, 1, 0} {
		t.Errorf("snorm decode %v", got)
	}
	if got := FromInt(RGBA16I, [4]uint32{uint32(0xFFFF0000), 40000, 5, uint32(0xFFFFFFFF)}); got != (Raw{uint32(0xFFFF8000), 32767, 5, 0xFFFFFFFF}) {
		t.Errorf("RGBA16I clamp %v", got)
	}
	if got := FromInt(RGBA16UI, [4]uint32{70000, 1, 0, 65535}); got != (Raw{65535, 1, 0, 65535}) {
		t.Errorf("RGBA16UI clamp %v", got)
	}
	b := make([]byte, 8)
	Pack(RGBA16, b, FromFloat(RGBA16, [4]float32{1, 0.5, 0, 2}))
	if got := ToFloat(RGBA16, Unpack(RGBA16, b)); got != [4]float32{1, float32(32768.0 / 65535), 0, 1} {
		t.Errorf("RGBA16 %v", got)
	}
}
