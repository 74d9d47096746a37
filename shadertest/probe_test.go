package shadertest

import (
	"math"
	"strings"
	"testing"

	"vortexgfx/pipe"
)

func TestProbePixelFloat(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name  string
		obs   [4]byte
		exp   [4]float32
		tol   Tolerance
		comps int
		want  bool
	}{
		{"exact", [4]byte{0, 255, 0, 255}, [4]float32{0, 1, 0, 1}, DefaultTolerance, 4, true},
		{"half rounds up", [4]byte{128, 0, 0, 0}, [4]float32{0.5, 0, 0, 0}, DefaultTolerance, 4, true}, // 0.50196 - 0.5 < 0.01
		{"2 steps ok", [4]byte{2, 0, 0, 0}, [4]float32{0, 0, 0, 0}, DefaultTolerance, 4, true},         // 0.00784
		{"3 steps fail", [4]byte{3, 0, 0, 0}, [4]float32{0, 0, 0, 0}, DefaultTolerance, 4, false},      // 0.01176
		{"alpha ignored for rgb", [4]byte{0, 0, 0, 0}, [4]float32{0, 0, 0, 1}, DefaultTolerance, 3, true},
		{"alpha checked for rgba", [4]byte{0, 0, 0, 0}, [4]float32{0, 0, 0, 1}, DefaultTolerance, 4, false},
		{"wide tolerance", [4]byte{12, 0, 0, 0}, [4]float32{0, 0, 0, 0}, Tolerance{0.05, 0.05, 0.05, 0.05}, 4, true},
		{"per channel tolerance", [4]byte{0, 12, 0, 0}, [4]float32{0, 0, 0, 0}, Tolerance{0.05, 0.01, 0.01, 0.01}, 4, false},
		{"nan never fails", [4]byte{77, 0, 0, 0}, [4]float32{nan, 0, 0, 0}, DefaultTolerance, 4, true},
		{"above one", [4]byte{255, 0, 0, 0}, [4]float32{1.005, 0, 0, 0}, DefaultTolerance, 4, true},
	} {
		if got := ProbePixelFloat(tc.obs, tc.exp, tc.tol, tc.comps, APIGL); got != tc.want {
			t.Errorf("%s: ProbePixelFloat = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestReadFloat(t *testing.T) {
	// 3 reads as 0.011764707 on GLES (3/255) but 0.01176471 on desktop
	// (3 * (1/255)); both fail the default tolerance against 0.
	if ReadFloat(3, APIGLES) == ReadFloat(3, APIGL) {
		t.Errorf("ReadFloat(3) is the same on both APIs: %v", ReadFloat(3, APIGL))
	}
	for b := range 256 {
		g, e := ReadFloat(byte(b), APIGL), ReadFloat(byte(b), APIGLES)
		if d := float64(g - e); d > 1e-7 || d < -1e-7 {
			t.Errorf("ReadFloat(%d): %v vs %v", b, g, e)
		}
	}
	if ReadFloat(255, APIGL) != 1 || ReadFloat(255, APIGLES) != 1 || ReadFloat(0, APIGL) != 0 {
		t.Error("ReadFloat endpoints")
	}
}

func TestUbyteConversions(t *testing.T) {
	for _, tc := range []struct {
		in   float32
		want byte
	}{
		{0, 0}, {1, 255}, {0.5, 127}, {0.25, 63}, {0.75, 191}, {0.999, 254},
		{2, 254}, // 510 wraps to its low byte (what x86-64 code does)
		{-1, 1},  // -255 → low byte 1
		{float32(math.NaN()), 0},
	} {
		if got := UbyteExpected(tc.in); got != tc.want {
			t.Errorf("UbyteExpected(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   float32
		want byte
	}{{0.01, 3}, {0.05, 13}, {0, 0}, {1, 255}, {0.002, 1}} {
		if got := UbyteTolerance(tc.in); got != tc.want {
			t.Errorf("UbyteTolerance(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestProbeUbyte(t *testing.T) {
	tol := [4]byte{3, 3, 3, 3}
	for _, tc := range []struct {
		obs, exp [4]byte
		comps    int
		want     bool
	}{
		{[4]byte{128, 0, 0, 0}, [4]byte{127, 0, 0, 0}, 4, true}, // 0.5 drawn (128) vs expected trunc(127.5)
		{[4]byte{130, 0, 0, 0}, [4]byte{127, 0, 0, 0}, 4, true},
		{[4]byte{131, 0, 0, 0}, [4]byte{127, 0, 0, 0}, 4, false},
		{[4]byte{0, 0, 0, 9}, [4]byte{0, 0, 0, 0}, 3, true},
		{[4]byte{0, 0, 0, 9}, [4]byte{0, 0, 0, 0}, 4, false},
	} {
		if got := ProbeUbyte(tc.obs, tc.exp, tol, tc.comps); got != tc.want {
			t.Errorf("ProbeUbyte(%v, %v, %d) = %v, want %v", tc.obs, tc.exp, tc.comps, got, tc.want)
		}
	}
}

func TestProbeDepth(t *testing.T) {
	for _, tc := range []struct {
		obs, exp float32
		want     bool
	}{{0.5, 0.5, true}, {0.509, 0.5, true}, {0.5101, 0.5, false}, {1, 0.99, true}, {1, 0.98, false}, {float32(math.NaN()), 0.5, false}} {
		if got := ProbeDepth(tc.obs, tc.exp); got != tc.want {
			t.Errorf("ProbeDepth(%v, %v) = %v, want %v", tc.obs, tc.exp, got, tc.want)
		}
	}
}

func TestProbeWindow(t *testing.T) {
	for _, tc := range []struct {
		p          ProbeCmd
		x, y, w, h int
	}{
		{ProbeCmd{Kind: ProbeAll}, 0, 0, 250, 200},
		{ProbeCmd{Kind: ProbePixel, X: 3, Y: 4, W: 1, H: 1}, 3, 4, 1, 1},
		{ProbeCmd{Kind: ProbePixel, Relative: true, RX: 0.5, RY: 0.25}, 125, 50, 1, 1},
		{ProbeCmd{Kind: ProbePixel, Relative: true, RX: 1, RY: 1}, 249, 199, 1, 1}, // clamped
		{ProbeCmd{Kind: ProbePixel, Relative: true, RX: 0.999, RY: 0.001}, 249, 0, 1, 1},
		{ProbeCmd{Kind: ProbeRect, Relative: true, RX: 0.1, RY: 0.1, RW: 0.5, RH: 0.5}, 25, 20, 125, 100},
	} {
		x, y, w, h := probeWindow(&tc.p, 250, 200)
		if x != tc.x || y != tc.y || w != tc.w || h != tc.h {
			t.Errorf("probeWindow(%+v) = %d %d %d %d, want %d %d %d %d", tc.p, x, y, w, h, tc.x, tc.y, tc.w, tc.h)
		}
	}
}

func TestRectGeometry(t *testing.T) {
	if got, want := RectPositions(-1, -1, 2, 2), [4][4]float32{{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}, {1, 1, 0, 1}}; got != want {
		t.Errorf("RectPositions = %v, want %v", got, want)
	}
	if got, want := RectTexCoords(0, 0, 1, 1), [4][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 1}}; got != want {
		t.Errorf("RectTexCoords = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		in   [4]float32
		w, h int
		want [4]float32
	}{
		{[4]float32{0, 0, 250, 250}, 250, 250, [4]float32{-1, -1, 2, 2}},
		{[4]float32{125, 0, 125, 10}, 250, 250, [4]float32{0, -1, 1, 0.08}},
		{[4]float32{10, 20, 5, 5}, 250, 250, [4]float32{-0.92, -0.84000003, 0.04, 0.04}}, // float x/W, double rest
		{[4]float32{1, 1, 1, 1}, 3, 3, [4]float32{float32(-1 + 2*float64(float32(1)/3)), float32(-1 + 2*float64(float32(1)/3)),
			float32(2 * float64(float32(1)/3)), float32(2 * float64(float32(1)/3))}},
	} {
		x, y, w, h := OrthoRect(tc.in[0], tc.in[1], tc.in[2], tc.in[3], tc.w, tc.h)
		if got := [4]float32{x, y, w, h}; got != tc.want {
			t.Errorf("OrthoRect(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestMatrices(t *testing.T) {
	o := OrthoMatrix(0, 250, 0, 250, -1, 1)
	want := [16]float32{2.0 / 250, 0, 0, 0, 0, 2.0 / 250, 0, 0, 0, 0, -1, 0, -1, -1, 0, 1}
	if o != want {
		t.Errorf("OrthoMatrix = %v, want %v", o, want)
	}
	// window (125, 125) maps to the NDC origin.
	if x := o[0]*125 + o[12]; x != 0 {
		t.Errorf("ortho maps 125 to %v", x)
	}
	f := FrustumMatrix(-1, 1, -1, 1, 1, 10)
	wantF := [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -11.0 / 9, -1, 0, 0, -20.0 / 9, 0}
	if f != wantF {
		t.Errorf("FrustumMatrix = %v, want %v", f, wantF)
	}
}

func TestStateMatrices(t *testing.T) {
	s := DefaultState(250, 250)
	if s.ModelViewProjection() != identity || s.NormalMatrix() != [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1} {
		t.Error("default matrices are not the identity")
	}
	s.Projection = OrthoMatrix(0, 250, 0, 250, -1, 1)
	if s.ModelViewProjection() != s.Projection {
		t.Error("P × I != P")
	}
	s.ModelView = [16]float32{2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0.5, 0, 1, 2, 3, 1}
	if n := s.NormalMatrix(); n != [9]float32{0.5, 0, 0, 0, 0.25, 0, 0, 0, 2} {
		t.Errorf("NormalMatrix = %v", n)
	}
	m := pipe.MulMatrix(s.Projection, s.ModelView)
	if m[0] != 2*2.0/250 || m[12] != float32(float32(2.0/250)*1)+(-1) {
		t.Errorf("MulMatrix = %v", m)
	}
}

func TestColumnAccessors(t *testing.T) {
	col := VertexColumn{Type: TypeUByte, Base: BaseFloat, Components: 2, Cols: 2, MatrixColumn: 1, ArrayIndex: 2, Ints: []int64{1, 2, 3, 4}}
	if got := col.Float(1); got != [4]float64{3, 4, 0, 1} {
		t.Errorf("Float = %v", got)
	}
	if got := col.Int(0); got != [4]int64{1, 2, 0, 1} {
		t.Errorf("Int = %v", got)
	}
	if got := col.Slot(3); got != 3+1+2*2 {
		t.Errorf("Slot = %d", got)
	}
}

func BenchmarkParse(b *testing.B) {
	src := []byte(progHead + strings.Repeat("uniform vec4 color 0 1 0 1\ndraw rect ortho 0 0 10 10\nprobe rect rgba (0, 0, 10, 10) (0, 1, 0, 1)\n", 50))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("bench.shader_test", src); err != nil {
			b.Fatal(err)
		}
	}
}
