package shadertest

import (
	"math"
	"testing"
)

func TestStrtofHex(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float32
		end  int
		ok   bool
	}{
		{"1.5", 1.5, 3, true},
		{"  -2", -2, 4, true},
		{"0x3f800000", 1, 10, true},    // raw bits (piglit strtof_hex)
		{"0xbf800000 x", -1, 10, true}, // raw bits, negative
		{"1e3", 1000, 3, true},         // exponent
		{"1e", 1, 1, true},             // dangling exponent is not consumed
		{".5", 0.5, 2, true},           // leading point
		{"5.", 5, 2, true},             // trailing point
		{"inf", float32(math.Inf(1)), 3, true},
		{"-Infinity", float32(math.Inf(-1)), 9, true},
		{"0X1p3", 8, 5, true}, // C hex float (upper-case X is not a bit pattern)
		{"0.1", 0.1, 3, true}, // double then float
		{"abc", 0, 0, false},
		{"", 0, 0, false},
		{"-", 0, 0, false},
		{",1", 0, 0, false},
	} {
		got, end, ok := strtofHex(tc.in, 0)
		if ok != tc.ok || end != tc.end || (ok && got != tc.want) {
			t.Errorf("strtofHex(%q) = %v, %d, %v; want %v, %d, %v", tc.in, got, end, ok, tc.want, tc.end, tc.ok)
		}
	}
	if v, _, ok := strtofHex("nan", 0); !ok || v == v {
		t.Errorf("strtofHex(nan) = %v, %v", v, ok)
	}
}

func TestCIntegers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		base int
		want int64
		ok   bool
	}{
		{"42", 0, 42, true},
		{"0x10", 0, 16, true},
		{"010", 0, 8, true}, // octal, as C reads it
		{"-7", 0, -7, true},
		{"09", 0, 0, true}, // octal stops at 9
		{"99999999999999999999", 0, math.MaxInt64, true},
		{"-99999999999999999999", 0, math.MinInt64, true},
		{"x", 0, 0, false},
		{"0x", 0, 0, true}, // reads the 0
	} {
		got, _, ok := strtol(tc.in, 0, tc.base)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("strtol(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	u, _ := parseUints("-1 0xCAFED00D 4294967296", 3)
	if want := []uint32{0xffffffff, 0xcafed00d, 0}; len(u) != 3 || u[0] != want[0] || u[1] != want[1] || u[2] != want[2] {
		t.Errorf("parseUints = %#x, want %#x", u, want)
	}
	i, _ := parseInts("0x7FFFFFFF 0xFFFFFFFF -2147483648", 3)
	if want := []int32{math.MaxInt32, -1, math.MinInt32}; len(i) != 3 || i[0] != want[0] || i[1] != want[1] || i[2] != want[2] {
		t.Errorf("parseInts = %d, want %d", i, want)
	}
	if v, _, ok := strtolHex("0xffffffff", 0); !ok || v != -1 {
		t.Errorf("strtolHex(0xffffffff) = %d, %v", v, ok)
	}
}

func TestScanf(t *testing.T) {
	for _, tc := range []struct {
		in, format string
		n          int
	}{
		{"probe rect rgba (0, 0, 10, 10) (1.0, 0.0, 0.0, 1.0)", "probe rect rgba ( %d , %d , %d , %d ) ( %f , %f , %f , %f )", 8},
		{"probe rect rgba (0,0,10,10)(1,0,0,1)", "probe rect rgba ( %d , %d , %d , %d ) ( %f , %f , %f , %f )", 8},
		{"probe rect rgba (0.5, 0, 10, 10) (1, 0, 0, 1)", "probe rect rgba ( %d , %d , %d , %d ) ( %f , %f , %f , %f )", 1},
		{"draw arrays GL_TRIANGLE_FAN 0 4", "draw arrays %s %d %d", 3},
		{"draw arrays instanced GL_TRIANGLE_FAN 0 4", "draw arrays instanced %s %d %d %d", 3},
		{"clip plane 0 1 0 0 -0.5", "clip plane %d %lf %lf %lf %lf", 5},
		{"texture rgbw 1D 0", "texture rgbw %d ( %d", 1},
		{"ortho", "ortho %f %f %f %f", 0},
	} {
		if _, n := scanf(tc.in, tc.format); n != tc.n {
			t.Errorf("scanf(%q, %q) = %d conversions, want %d", tc.in, tc.format, n, tc.n)
		}
	}
	it, _ := scanf("x 0.1", "x %f")
	if float32(it[0].f) != float32(0.1) || it[0].f != float64(float32(0.1)) {
		t.Errorf("%%f = %v, want the float nearest 0.1", it[0].f)
	}
	it, _ = scanf("x 0.1", "x %lf")
	if it[0].f != 0.1 {
		t.Errorf("%%lf = %v, want 0.1", it[0].f)
	}
}

func TestHalf(t *testing.T) {
	for _, tc := range []struct {
		in   float32
		want uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {65520, 0x7c00}, {1e-8, 0}, {5.9604645e-08, 1},
		{float32(math.Inf(1)), 0x7c00}, {0.1, 0x2e66},
	} {
		if got := floatToHalf(tc.in); got != tc.want {
			t.Errorf("floatToHalf(%v) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
	if got := halfToFloat(0x3c00); got != 1 {
		t.Errorf("halfToFloat(0x3c00) = %v", got)
	}
}
