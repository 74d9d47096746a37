package stencil

import (
	"testing"

	"vortexgfx/abi"
)

// TestApply checks every operation on every stored value and a spread of
// references against GL 4.6 table 17.3, written as integer formulas:
// saturating Incr/Decr clamp to [0, 2^8-1], the wrapping forms work modulo
// 2^8, Invert is the bitwise complement.
func TestApply(t *testing.T) {
	want := map[Op]func(ref, v int) int{
		Keep:     func(_, v int) int { return v },
		Zero:     func(_, _ int) int { return 0 },
		Replace:  func(ref, _ int) int { return ref },
		Incr:     func(_, v int) int { return min(v+1, 255) },
		Decr:     func(_, v int) int { return max(v-1, 0) },
		Invert:   func(_, v int) int { return 255 - v },
		IncrWrap: func(_, v int) int { return (v + 1) % 256 },
		DecrWrap: func(_, v int) int { return (v + 255) % 256 },
	}
	if len(want) != int(NumOps) {
		t.Fatalf("table has %d rows", len(want))
	}
	for op, f := range want {
		for _, ref := range []int{0, 1, 0x7F, 0x80, 0xFE, 0xFF} {
			for v := range 256 {
				if got := op.Apply(uint8(ref), uint8(v)); int(got) != f(ref, v) {
					t.Errorf("%v.Apply(ref %d, %d) = %d, want %d", op, ref, v, got, f(ref, v))
				}
			}
		}
	}
	// The ends: saturation and wrap.
	for _, c := range []struct {
		op     Op
		v, out uint8
	}{{Incr, 255, 255}, {Decr, 0, 0}, {IncrWrap, 255, 0}, {DecrWrap, 0, 255}, {Incr, 254, 255}, {Decr, 1, 0}} {
		if got := c.op.Apply(0, c.v); got != c.out {
			t.Errorf("%v.Apply(%d) = %d, want %d", c.op, c.v, got, c.out)
		}
	}
	if NumOps.Apply(3, 9) != 9 {
		t.Error("an undefined op changed the value")
	}
}

// TestOM pins the OM code of every operation (vortex-hardware-facts §5:
// KEEP 0, ZERO 1, REPLACE 2, INCR 3, DECR 4, INVERT 5, INCR_WRAP 6,
// DECR_WRAP 7) and that FromOM inverts OM over all codes.
func TestOM(t *testing.T) {
	want := map[Op]abi.StencilOp{Keep: 0, Zero: 1, Replace: 2, Incr: 3, Decr: 4, Invert: 5, IncrWrap: 6, DecrWrap: 7}
	for op := range NumOps + 2 {
		c, ok := op.OM()
		w, defined := want[op]
		if ok != defined || c != w {
			t.Errorf("%v.OM() = %d, %v; want %d, %v", op, c, ok, w, defined)
		}
	}
	for c := range abi.StencilOp(10) {
		op, ok := FromOM(c)
		if ok != (c < 8) {
			t.Errorf("FromOM(%d) ok = %v", c, ok)
			continue
		}
		if back, _ := op.OM(); ok && back != c {
			t.Errorf("FromOM(%d) = %v, which maps back to %d", c, op, back)
		}
	}
}
