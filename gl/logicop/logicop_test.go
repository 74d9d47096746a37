package logicop

import (
	"testing"

	"vortexgfx/abi"
)

// truth is GL 4.6 table 17.3 read as a truth table: op's result bit for
// source bit s and destination bit d is bit (1-s)*2 + (1-d) of op's value
// (AND = 0b0001 is set only for s = d = 1, NOR = 0b1000 only for s = d = 0).
func truth(op Op, s, d uint32) uint32 {
	var r uint32
	for b := range 32 {
		sb, db := s>>b&1, d>>b&1
		r |= (uint32(op) >> ((1-sb)*2 + (1 - db)) & 1) << b
	}
	return r
}

// TestAllPairs checks all 16 operations over all 8-bit source/destination
// pairs against the truth table, and over 32-bit words with the high bits
// set.
func TestAllPairs(t *testing.T) {
	for op := range NumOps {
		for s := range uint32(256) {
			for d := range uint32(256) {
				if got, want := op.Apply(s, d)&0xFF, truth(op, s, d)&0xFF; got != want {
					t.Fatalf("%v.Apply(%#x, %#x) = %#x, want %#x", op, s, d, got, want)
				}
			}
		}
		for _, w := range [][2]uint32{{0xFFFFFFFF, 0}, {0, 0xFFFFFFFF}, {0xDEADBEEF, 0x12345678}, {0x80000001, 0x80000000}} {
			if got, want := op.Apply(w[0], w[1]), truth(op, w[0], w[1]); got != want {
				t.Errorf("%v.Apply(%#x, %#x) = %#x, want %#x", op, w[0], w[1], got, want)
			}
		}
	}
	if got := NumOps.Apply(1, 2); got != 2 {
		t.Errorf("an undefined op gave %d, want the destination", got)
	}
}

// TestNames pins the GL order by name (table 17.3's rows).
func TestNames(t *testing.T) {
	want := []string{"CLEAR", "AND", "AND_REVERSE", "COPY", "AND_INVERTED", "NOOP", "XOR", "OR",
		"NOR", "EQUIV", "INVERT", "OR_REVERSE", "COPY_INVERTED", "OR_INVERTED", "NAND", "SET"}
	for i, n := range want {
		if got := Op(i).String(); got != n {
			t.Errorf("Op(%d) = %s, want %s", i, got, n)
		}
	}
}

// TestOM pins every operation's OM code (vortex-hardware-facts §5: CLEAR 0,
// AND 1, AND_REVERSE 2, COPY 3, AND_INVERTED 4, NOOP 5, XOR 6, OR 7, NOR 8,
// EQUIV 9, INVERT 10, OR_REVERSE 11, COPY_INVERTED 12, OR_INVERTED 13,
// NAND 14, SET 15) and that FromOM inverts OM over all codes.
func TestOM(t *testing.T) {
	want := map[Op]abi.LogicOp{Clear: 0, And: 1, AndReverse: 2, Copy: 3, AndInverted: 4, Noop: 5, Xor: 6, Or: 7,
		Nor: 8, Equiv: 9, Invert: 10, OrReverse: 11, CopyInverted: 12, OrInverted: 13, Nand: 14, Set: 15}
	for op := range NumOps + 2 {
		c, ok := op.OM()
		w, defined := want[op]
		if ok != defined || c != w {
			t.Errorf("%v.OM() = %d, %v; want %d, %v", op, c, ok, w, defined)
		}
	}
	for c := range abi.LogicOp(18) {
		op, ok := FromOM(c)
		if ok != (c < 16) {
			t.Errorf("FromOM(%d) ok = %v", c, ok)
			continue
		}
		if back, _ := op.OM(); ok && back != c {
			t.Errorf("FromOM(%d) = %v, which maps back to %d", c, op, back)
		}
	}
}
