package exec

import (
	"context"
	"testing"

	"vortexgfx/shader/ir"
)

// TestVote checks VoteAny, VoteAll and VoteEq over the active lanes: the whole
// present mask at top level, only the lanes of a divergent branch inside it
// (the group is the lanes that run the instruction), and a lane of its own at
// Width 1. Lanes outside the mask keep their registers.
func TestVote(t *testing.T) {
	p, b := newProg(ir.Vertex, 1, 6)
	x := b.Reg(ir.U32)
	b.Imm(ir.LoadInput, x, 0)
	v := b.Op(ir.Ne, ir.Bool, b.Op(ir.And, ir.U32, x, b.ConstU(1)), b.ConstU(0))
	out := func(w uint32, op ir.Op, c ir.Reg) {
		b.Imm(ir.StoreOutput, ir.NoReg, w, b.Op(ir.BtoU, ir.U32, b.Op(op, ir.Bool, c)))
	}
	out(0, ir.VoteAny, v)
	out(1, ir.VoteAll, v)
	out(2, ir.VoteEq, v)
	// Inside "if x >= 2": the vote sees only those lanes.
	b.Ctl(ir.If, b.Op(ir.UGe, ir.Bool, x, b.ConstU(2)))
	out(3, ir.VoteAny, v)
	out(4, ir.VoteAll, v)
	out(5, ir.VoteEq, v)
	b.Ctl(ir.EndIf)
	if err := ir.Verify(p); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		width   int
		in      []uint32
		present uint64
		want    [][6]uint32 // per lane; lanes x < 2 keep 0 in words 3..5
	}{
		{"mixed", 4, []uint32{0, 1, 3, 5}, 0xf, [][6]uint32{{1, 0, 0}, {1, 0, 0}, {1, 0, 0, 1, 1, 1}, {1, 0, 0, 1, 1, 1}}},
		{"all odd", 4, []uint32{1, 3, 5, 7}, 0xf, [][6]uint32{{1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}}},
		{"all even", 4, []uint32{0, 2, 4, 6}, 0xf, [][6]uint32{{0, 0, 1}, {0, 0, 1, 0, 0, 1}, {0, 0, 1, 0, 0, 1}, {0, 0, 1, 0, 0, 1}}},
		{"branch mixed", 4, []uint32{1, 1, 2, 3}, 0xf, [][6]uint32{{1, 0, 0}, {1, 0, 0}, {1, 0, 0, 1, 0, 0}, {1, 0, 0, 1, 0, 0}}},
		// Lane 3 is not present: it does not vote, so the others are all even.
		{"absent lane", 4, []uint32{0, 2, 4, 7}, 0x7, [][6]uint32{{0, 0, 1}, {0, 0, 1, 0, 0, 1}, {0, 0, 1, 0, 0, 1}, {}}},
		{"width 1", 1, []uint32{3}, 1, [][6]uint32{{1, 1, 1, 1, 1, 1}}},
	}
	for _, tc := range tests {
		m := mustNew(t, p, tc.width)
		copy(m.Input(0), tc.in)
		for w := 0; w < 6; w++ {
			clear(m.Output(w))
		}
		if _, err := m.Run(context.Background(), tc.present, tc.present); err != nil {
			t.Fatal(err)
		}
		for l, want := range tc.want {
			for w := 0; w < 6; w++ {
				if got := m.Output(w)[l]; got != want[w] {
					t.Errorf("%s: lane %d word %d = %d, want %d", tc.name, l, w, got, want[w])
				}
			}
		}
	}
}
