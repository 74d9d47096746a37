package codegen

import (
	"cmp"
	"slices"
)

// Register allocation by live intervals. The generator runs twice: a dry run with
// no homes records every reference to a virtual register in order (ref), and the
// loops' extents in that order; allocate turns them into one interval per value
// and gives the values registers by linear scan, spilling the least used (weighted
// by loop depth) to frame words when a class runs out.
//
// An interval is a value's first to last reference in generation order, which is
// each lane's execution order except for loop back edges: so a value referenced in
// a loop and outside it lives across the whole loop, and a value referenced only
// inside does too unless its first reference is a write every iteration makes
// (not under an if, a guard or an inner loop), which makes it local to an
// iteration. Sharing a register between the two halves of a vx_split is safe:
// registers are per lane and the halves are disjoint lanes. Values the executor
// may read before any write (it starts registers at zero) are zeroed in the
// prologue, so their intervals start there (zeroInit).

// ref is one reference: the value, read or write, and how many if/guard/loop bodies
// enclose it.
type ref struct {
	v     vreg
	write bool
	blk   int32 // the innermost block (if branch, guard, loop, loop body or continue block)
}

// loopRange is a loop's extent in reference order and its block.
type loopRange struct{ start, end, blk int }

func (g *gen) ref(v vreg, write bool) {
	if g.rec && v >= 0 {
		g.refs = append(g.refs, ref{v: v, write: write, blk: int32(g.blk)})
	}
}

// enter opens a block inside the current one and returns the one to restore.
func (g *gen) enter() int {
	old := g.blk
	if g.rec {
		g.parent = append(g.parent, old)
		g.blk = len(g.parent) - 1
	}
	return old
}

func (g *gen) leave(old int) { g.blk = old }

// within reports whether block b is a or inside it.
func (g *gen) within(b, a int) bool {
	for ; b >= 0; b = g.parent[b] {
		if b == a {
			return true
		}
	}
	return false
}

// layoutFrame places the dummy word and the register-array area.
func (g *gen) layoutFrame() {
	g.frame = 4 // word 0: the dummy target of out-of-bounds accesses
	if lo := slices.Index(g.arrayed, true); lo >= 0 {
		hi := len(g.arrayed) - 1
		for !g.arrayed[hi] {
			hi--
		}
		g.regArea = g.frame - 4*int32(lo)
		g.frame += 4 * int32(hi-lo+1)
	}
}

// dryHomes gives every value no home (the dry run) except the arrayed registers.
func (g *gen) dryHomes() {
	g.layoutFrame()
	g.home = make([]home, len(g.float))
	g.rec, g.refs, g.loops, g.parent, g.blk = true, nil, nil, []int{-1}, 0
}

// intervals returns each value's live interval in reference order (-1: unused)
// and whether a read may find it unwritten (zero).
//
// A value is "defined before use" when its first reference is a write and every
// other reference lies in the block of that write (or blocks inside it): every lane
// that reaches a use has passed the write in the same execution of the block. Such
// a value needs no zeroing, and in a loop whose block contains that block it is
// local to an iteration; any other value referenced in a loop lives across the
// whole loop, and an IR register that is not defined before use is zeroed in the
// prologue (its interval starts at 0).
func (g *gen) intervals() (start, end []int, zero []bool) {
	n := len(g.float)
	start, end = make([]int, n), make([]int, n)
	first := make([]ref, n)
	defined := make([]bool, n)
	for i := range start {
		start[i], end[i] = -1, -1
	}
	for seq, r := range g.refs {
		if start[r.v] < 0 {
			start[r.v], first[r.v] = seq, r
			defined[r.v] = r.write
		} else if defined[r.v] && !g.within(int(r.blk), int(first[r.v].blk)) {
			defined[r.v] = false
		}
		end[r.v] = seq
	}
	zero = make([]bool, n)
	for v := range g.p.Regs {
		if start[v] >= 0 && !defined[v] {
			zero[v], start[v] = true, 0
		}
	}
	for _, l := range g.loops { // inner loops first: they close first
		for v := range start {
			if start[v] < 0 || end[v] < l.start || start[v] > l.end {
				continue
			}
			if !defined[v] || !g.within(int(first[v].blk), l.blk) {
				start[v], end[v] = min(start[v], l.start), max(end[v], l.end)
			}
		}
	}
	return start, end, zero
}

// allocate gives every value its home from the dry run's intervals.
func (g *gen) allocate() {
	start, end, zero := g.intervals()
	g.zero = zero
	g.layoutFrame()
	g.home = make([]home, len(g.float))
	g.rec = false
	order := make([]vreg, 0, len(start))
	for v := range start {
		if start[v] >= 0 && !(v < len(g.arrayed) && g.arrayed[v]) {
			order = append(order, vreg(v))
		}
	}
	for v := range g.arrayed {
		if g.arrayed[v] {
			g.home[v] = home{kind: hStack, off: g.regArea + 4*int32(v)}
		}
	}
	slices.SortStableFunc(order, func(a, b vreg) int { return cmp.Compare(start[a], start[b]) })
	type class struct {
		free   []uint8
		active []vreg
		kind   homeKind
	}
	xs := &class{free: slices.Clone(allocX), kind: hX}
	fs := &class{kind: hF}
	for r := uint8(31); r >= 4; r-- {
		fs.free = append(fs.free, r)
	}
	slices.Reverse(xs.free)
	spill := func(v vreg) {
		g.home[v] = home{kind: hStack, off: g.frame}
		g.frame += 4
	}
	for _, v := range order {
		c := xs
		if g.float[v] {
			c = fs
		}
		keep := c.active[:0]
		for _, a := range c.active {
			if end[a] < start[v] {
				c.free = append(c.free, g.home[a].reg)
			} else {
				keep = append(keep, a)
			}
		}
		c.active = keep
		if n := len(c.free); n > 0 {
			g.home[v] = home{kind: c.kind, reg: c.free[n-1]}
			c.free = c.free[:n-1]
			c.active = append(c.active, v)
			continue
		}
		// no register: the least used of the active values and v goes to the frame
		victim := -1
		for i, a := range c.active {
			if g.weight[a] < g.weight[v] && (victim < 0 || g.weight[a] < g.weight[c.active[victim]]) {
				victim = i
			}
		}
		if victim < 0 {
			spill(v)
			continue
		}
		a := c.active[victim]
		g.home[v] = home{kind: c.kind, reg: g.home[a].reg}
		spill(a)
		c.active[victim] = v
	}
	g.frame = (g.frame + 15) &^ 15
}

// assemble is the two passes every kernel is compiled in: a dry emission that
// weighs each value's uses (dryHomes), the register allocation from those
// weights, then the real emission with the homes fixed. placed runs between
// the two with the frame size known (g.frame): it refuses a kernel whose
// frames do not fit local memory, or moves them to device memory.
func (g *gen) assemble(emit func(), placed func() error) ([]uint32, error) {
	g.dryHomes()
	if emit(); g.err != nil {
		return nil, g.err
	}
	g.allocate()
	if err := placed(); err != nil {
		return nil, err
	}
	g.a = asm{}
	if emit(); g.err != nil {
		return nil, g.err
	}
	return g.a.words()
}
