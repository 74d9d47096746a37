package compare

import (
	"math"
	"testing"

	"vortexgfx/abi"
)

// TestTable checks every function over edge values against GL 4.6 table 8.23
// ("ref OP stored"), written out as truth rows: less, equal, greater.
func TestTable(t *testing.T) {
	// pass[f] = {a < b, a == b, a > b}
	pass := map[Func][3]bool{
		Never: {false, false, false}, Less: {true, false, false}, Equal: {false, true, false},
		LessEqual: {true, true, false}, Greater: {false, false, true}, NotEqual: {true, false, true},
		GreaterEqual: {false, true, true}, Always: {true, true, true},
	}
	if len(pass) != int(NumFuncs) {
		t.Fatalf("table has %d rows", len(pass))
	}
	ints := []uint32{0, 1, 2, 0x7F, 0x80, 0xFF, 0xFFFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF}
	floats := []float32{float32(math.Inf(-1)), -math.MaxFloat32, -1, -math.SmallestNonzeroFloat32, 0, math.SmallestNonzeroFloat32, 0.5, 1, math.MaxFloat32, float32(math.Inf(1))}
	row := func(lt, eq bool) int {
		switch {
		case lt:
			return 0
		case eq:
			return 1
		}
		return 2
	}
	for f, want := range pass {
		for _, a := range ints {
			for _, b := range ints {
				if got := f.TestUint(a, b); got != want[row(a < b, a == b)] {
					t.Errorf("%v.TestUint(%#x, %#x) = %v", f, a, b, got)
				}
			}
		}
		for _, a := range floats {
			for _, b := range floats {
				if got := f.Test(a, b); got != want[row(a < b, a == b)] {
					t.Errorf("%v.Test(%g, %g) = %v", f, a, b, got)
				}
			}
		}
		// -0 equals +0.
		if got := f.Test(float32(math.Copysign(0, -1)), 0); got != want[1] {
			t.Errorf("%v.Test(-0, 0) = %v", f, got)
		}
		// NaN is unordered: only NotEqual and Always pass.
		nan := float32(math.NaN())
		wantNaN := f == NotEqual || f == Always
		for _, v := range []float32{0, 1, nan} {
			if f.Test(nan, v) != wantNaN || f.Test(v, nan) != wantNaN {
				t.Errorf("%v with NaN against %g: want %v", f, v, wantNaN)
			}
		}
	}
	if NumFuncs.Test(0, 0) || NumFuncs.TestUint(0, 0) {
		t.Error("an undefined function passed")
	}
}

// TestOM pins the OM code of every function (vortex-hardware-facts §5:
// ALWAYS 0, NEVER 1, LESS 2, LEQUAL 3, EQUAL 4, GEQUAL 5, GREATER 6,
// NOTEQUAL 7) and that FromOM inverts OM over all codes.
func TestOM(t *testing.T) {
	want := map[Func]abi.CompareFunc{Always: 0, Never: 1, Less: 2, LessEqual: 3, Equal: 4, GreaterEqual: 5, Greater: 6, NotEqual: 7}
	for f := range NumFuncs + 2 {
		c, ok := f.OM()
		w, defined := want[f]
		if ok != defined || c != w {
			t.Errorf("%v.OM() = %d, %v; want %d, %v", f, c, ok, w, defined)
		}
	}
	for c := range abi.CompareFunc(10) {
		f, ok := FromOM(c)
		if ok != (c < 8) {
			t.Errorf("FromOM(%d) ok = %v", c, ok)
			continue
		}
		if back, _ := f.OM(); ok && back != c {
			t.Errorf("FromOM(%d) = %v, which maps back to %d", c, f, back)
		}
	}
	// The OM evaluates func(a, b) with the same meaning as GL (facts §5).
	for c := range abi.CompareFunc(8) {
		f, _ := FromOM(c)
		if f.String() != c.String() {
			t.Errorf("OM code %d is %v, decodes to %v", c, c, f)
		}
	}
}
