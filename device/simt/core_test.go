package simt

import (
	"strings"
	"testing"

	"vortexgfx/isa/rv32"
)

func run(t *testing.T, c *Core, mask uint32) {
	t.Helper()
	if err := c.Start(0, codeBase, mask); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
}

func TestIntegerDivisionRules(t *testing.T) {
	m := prog(t,
		li(a0, -7), li(a1, 0), I(rv32.LUI, a2, 0, -0x80000000>>12<<12), li(a3, -1),
		R(rv32.DIV, t0, a0, a1), S(rv32.SW, t0, zero, dataBase),
		R(rv32.REM, t0, a0, a1), S(rv32.SW, t0, zero, dataBase+4),
		R(rv32.DIVU, t0, a0, a1), S(rv32.SW, t0, zero, dataBase+8),
		R(rv32.REMU, t0, a0, a1), S(rv32.SW, t0, zero, dataBase+12),
		R(rv32.DIV, t0, a2, a3), S(rv32.SW, t0, zero, dataBase+16),
		R(rv32.REM, t0, a2, a3), S(rv32.SW, t0, zero, dataBase+20),
		R(rv32.MULH, t0, a2, a3), S(rv32.SW, t0, zero, dataBase+24),
		R(rv32.MULHSU, t0, a3, a3), S(rv32.SW, t0, zero, dataBase+28),
		halt)
	c := newCore(t, m, 1, 1)
	run(t, c, 1)
	want := []uint32{0xffffffff, 0xfffffff9, 0xffffffff, 0xfffffff9, 0x80000000, 0, 0, 0xffffffff}
	for i, w := range want {
		if got := word(t, m, dataBase+uint32(4*i)); got != w {
			t.Errorf("result %d = %08x, want %08x", i, got, w)
		}
	}
}

// A branch the lanes disagree on (no split/join): both paths run, each lane gets
// its own result, and the warp reconverges with every lane at the join.
func TestImplicitDivergenceReconverges(t *testing.T) {
	m := prog(t, cat(
		csrr(a0, CSRThreadID),
		I(rv32.ANDI, a1, a0, 1),
		B(rv32.BEQ, a1, zero, 12), // even lanes jump to the else arm
		I(rv32.ADDI, a2, a0, 100), // odd: tid+100
		rv32.Inst{Op: rv32.JAL, Rd: zero, Imm: 8},
		I(rv32.ADDI, a2, a0, 200), // even: tid+200
		csrr(a3, CSRActiveThread), // the join: every lane again
		R(rv32.ADD, a2, a2, a3),
		storeTid(a2),
		halt)...)
	c := newCore(t, m, 1, 8)
	run(t, c, 0xff)
	for l := uint32(0); l < 8; l++ {
		want := l + 200 + 0xff
		if l&1 == 1 {
			want = l + 100 + 0xff
		}
		if got := word(t, m, dataBase+4*l); got != want {
			t.Errorf("lane %d: %d, want %d", l, got, want)
		}
	}
}

// A loop whose trip count differs per lane: lanes leave at different iterations.
func TestDivergentLoop(t *testing.T) {
	m := prog(t, cat(
		csrr(a0, CSRThreadID),
		li(a1, 0), li(a2, 0),
		// loop: a2 += a1; a1++; if a1 <= tid goto loop
		R(rv32.ADD, a2, a2, a1),
		I(rv32.ADDI, a1, a1, 1),
		B(rv32.BGE, a0, a1, -8),
		csrr(a3, CSRActiveThread),
		storeTid(a2),
		S(rv32.SW, a3, zero, dataBase+0x100),
		halt)...)
	c := newCore(t, m, 1, 4)
	run(t, c, 0xf)
	for l := uint32(0); l < 4; l++ {
		if got, want := word(t, m, dataBase+4*l), l*(l+1)/2; got != want {
			t.Errorf("lane %d: %d, want %d", l, got, want)
		}
	}
	if got := word(t, m, dataBase+0x100); got != 0xf {
		t.Errorf("mask after the loop %x, want f (reconverged)", got)
	}
}

func TestTMCWspawnAndIDs(t *testing.T) {
	// Warp 0 spawns 3 warps at "worker" and becomes a worker itself; each widens to 4
	// lanes and stores warp*16 + tid + mscratch at dataBase + 4*(warp*4+tid).
	worker := codeBase + 4*4
	m := prog(t, cat(
		li(a0, 3), li(a1, 0), li(a1, int32(worker)),
		rv32.Inst{Op: rv32.VXWSPAWN, Rs1: a0, Rs2: a1},
		// worker:
		li(t0, 0xf), tmc(t0),
		csrr(a2, CSRWarpID), csrr(a3, CSRThreadID), csrr(a4, CSRMscratch),
		I(rv32.SLLI, a5, a2, 4), R(rv32.ADD, a5, a5, a3), R(rv32.ADD, a5, a5, a4),
		I(rv32.SLLI, t1, a2, 2), R(rv32.ADD, t1, t1, a3), I(rv32.SLLI, t1, t1, 2),
		S(rv32.SW, a5, t1, dataBase),
		halt)...)
	c := newCore(t, m, 3, 4)
	for w := 0; w < 3; w++ {
		if err := c.SetMScratch(w, 0x1000); err != nil {
			t.Fatal(err)
		}
	}
	run(t, c, 1)
	for w := uint32(0); w < 3; w++ {
		for l := uint32(0); l < 4; l++ {
			if got, want := word(t, m, dataBase+4*(w*4+l)), w*16+l+0x1000; got != want {
				t.Errorf("warp %d lane %d: %x, want %x", w, l, got, want)
			}
		}
	}
	for w := 0; w < 3; w++ {
		if c.Active(w) || c.Stats(w).Instret == 0 {
			t.Errorf("warp %d: active %v, stats %+v", w, c.Active(w), c.Stats(w))
		}
	}
}

// vx_split / vx_join with SimX's IPDOM semantics: the smaller half runs first, the
// join switches to the other half, the second join restores the mask.
func TestSplitJoin(t *testing.T) {
	m := prog(t, cat(
		csrr(a0, CSRThreadID),
		I(rv32.SLTIU, a1, a0, 1), // pred: lane 0 only
		rv32.Inst{Op: rv32.VXSPLIT, Rd: a2, Rs1: a1},
		csrr(a3, CSRActiveThread),           // the mask each half sees
		I(rv32.ADDI, a4, a3, 0),             //
		rv32.Inst{Op: rv32.VXJOIN, Rs1: a2}, // first: switch halves; second: restore
		csrr(a5, CSRActiveThread),
		storeTid(a3),
		S(rv32.SW, a5, zero, dataBase+0x100),
		S(rv32.SW, a2, zero, dataBase+0x104),
		halt)...)
	c := newCore(t, m, 1, 4)
	run(t, c, 0xf)
	if got := word(t, m, dataBase); got != 0x1 {
		t.Errorf("lane 0 saw mask %x, want 1 (its half)", got)
	}
	for l := uint32(1); l < 4; l++ {
		if got := word(t, m, dataBase+4*l); got != 0xe {
			t.Errorf("lane %d saw mask %x, want e", l, got)
		}
	}
	if got := word(t, m, dataBase+0x100); got != 0xf {
		t.Errorf("mask after join %x, want f", got)
	}
	if got := word(t, m, dataBase+0x104); got != 0 {
		t.Errorf("split returned stack depth %d, want 0", got)
	}
}

func TestPredVoteShuffle(t *testing.T) {
	m := prog(t, cat(
		csrr(a0, CSRThreadID),
		I(rv32.SLTIU, a1, a0, 2), // lanes 0,1
		rv32.Inst{Op: rv32.VXVOTEBALLOT, Rd: a2, Rs1: a1},
		rv32.Inst{Op: rv32.VXVOTEANY, Rd: a3, Rs1: a1},
		rv32.Inst{Op: rv32.VXVOTEALL, Rd: a4, Rs1: a1},
		S(rv32.SW, a2, zero, dataBase+0x100),
		S(rv32.SW, a3, zero, dataBase+0x104),
		S(rv32.SW, a4, zero, dataBase+0x108),
		// bfly with b=1 inside quads (c=3, mask=0x3c): lanes swap pairs.
		li(t0, 1|3<<6), I(rv32.LUI, t1, 0, 0x3c<<12), R(rv32.OR, t0, t0, t1),
		I(rv32.ADDI, a5, a0, 10),
		rv32.Inst{Op: rv32.VXSHFLBFLY, Rd: a5, Rs1: a5, Rs2: t0},
		storeTid(a5),
		// pred: keep lanes 0,1 running.
		rv32.Inst{Op: rv32.VXPRED, Rs1: a1, Rs2: zero},
		csrr(a3, CSRActiveThread),
		S(rv32.SW, a3, zero, dataBase+0x10c),
		halt)...)
	c := newCore(t, m, 1, 8)
	run(t, c, 0xff)
	if got := word(t, m, dataBase+0x100); got != 3 {
		t.Errorf("ballot %x, want 3", got)
	}
	if word(t, m, dataBase+0x104) != 1 || word(t, m, dataBase+0x108) != 0 {
		t.Errorf("any/all wrong")
	}
	for l := uint32(0); l < 8; l++ {
		if got, want := word(t, m, dataBase+4*l), (l^1)+10; got != want {
			t.Errorf("bfly lane %d: %d, want %d", l, got, want)
		}
	}
	if got := word(t, m, dataBase+0x10c); got != 3 {
		t.Errorf("mask after pred %x, want 3", got)
	}
}

// Two warps meet at a barrier: warp 1's store before the barrier is visible to
// warp 0 after it.
func TestBarrier(t *testing.T) {
	worker := uint32(codeBase + 5*4)
	m := prog(t, cat(
		li(a0, 2), li(a1, int32(worker)),
		rv32.Inst{Op: rv32.VXWSPAWN, Rs1: a0, Rs2: a1},
		li(t0, 0), li(t0, 0), // pad to worker
		// worker: warp 1 stores 7; both wait at barrier 0 for 2 warps; warp 0 reads.
		csrr(a2, CSRWarpID),
		B(rv32.BEQ, a2, zero, 12),
		li(a3, 7), S(rv32.SW, a3, zero, dataBase),
		li(a4, 0), li(a5, 2),
		rv32.Inst{Op: rv32.VXBAR, Rs1: a4, Rs2: a5},
		I(rv32.LW, a3, zero, dataBase), I(rv32.ADDI, a3, a3, 1),
		csrr(t1, CSRWarpID), I(rv32.SLLI, t1, t1, 2),
		S(rv32.SW, a3, t1, dataBase+0x10),
		halt)...)
	c := newCore(t, m, 2, 1)
	run(t, c, 1)
	if a, b := word(t, m, dataBase+0x10), word(t, m, dataBase+0x14); a != 8 || b != 8 {
		t.Errorf("after the barrier warps read %d and %d, want 8 and 8", a, b)
	}
}

func TestBarrierDeadlockIsAnError(t *testing.T) {
	m := prog(t, li(a0, 0), li(a1, 2), rv32.Inst{Op: rv32.VXBAR, Rs1: a0, Rs2: a1}, halt)
	c := newCore(t, m, 2, 1)
	_ = c.Start(0, codeBase, 1)
	if err := c.Run(); err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Errorf("err %v, want a deadlock", err)
	}
}

type frag struct{}

func (frag) FragPos(l int) uint32 { return uint32(l)<<16 | 5 }
func (frag) FragPID(l int) uint32 { return 100 + uint32(l) }

func TestLaunchCSRs(t *testing.T) {
	m := prog(t, cat(
		csrr(a0, CSRFragPos), storeTid(a0),
		csrr(a1, CSRFragPID), S(rv32.SW, a1, t2, dataBase+0x40),
		csrr(a2, CSRCTAID+3), S(rv32.SW, a2, t2, dataBase+0x80), // THREAD_ID_X
		csrr(a3, CSRCTAID+4), S(rv32.SW, a3, t2, dataBase+0xc0), // THREAD_ID_Y
		csrr(a4, CSRCTAEntry), S(rv32.SW, a4, zero, dataBase+0x100),
		csrr(a5, CSRMhartid), S(rv32.SW, a5, t2, dataBase+0x140),
		csrr(a5, CSRNumThreads), S(rv32.SW, a5, zero, dataBase+0x104),
		halt)...)
	c, err := New(Config{Warps: 1, Threads: 4, CoreID: 2, MaxInstructions: 1000}, m)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetFrag(0, frag{})
	_ = c.SetCTA(0, CTA{BlockDim: [3]uint32{2, 2, 1}, ThreadIdx: [3]uint32{0, 0, 0}, Entry: 0x80001234})
	run(t, c, 0xf)
	for l := uint32(0); l < 4; l++ {
		if word(t, m, dataBase+4*l) != l<<16|5 || word(t, m, dataBase+0x40+4*l) != 100+l {
			t.Errorf("lane %d: FRAG_POS/PID wrong", l)
		}
		if x, y := word(t, m, dataBase+0x80+4*l), word(t, m, dataBase+0xc0+4*l); x != l%2 || y != l/2 {
			t.Errorf("lane %d: thread idx (%d,%d), want (%d,%d)", l, x, y, l%2, l/2)
		}
		if got := word(t, m, dataBase+0x140+4*l); got != 2*4+l {
			t.Errorf("lane %d: mhartid %d", l, got)
		}
	}
	if word(t, m, dataBase+0x100) != 0x80001234 || word(t, m, dataBase+0x104) != 4 {
		t.Errorf("CTA_ENTRY / NUM_THREADS wrong")
	}
}

func TestCountersAndFCSR(t *testing.T) {
	m := prog(t,
		csrr(a0, CSRMinstret), csrr(a1, CSRMcycle),
		li(t0, 0x5f), rv32.Inst{Op: rv32.CSRRW, Rd: zero, CSR: CSRFcsr, Rs1: t0},
		csrr(a2, CSRFrm), csrr(a3, CSRFflags),
		S(rv32.SW, a0, zero, dataBase), S(rv32.SW, a2, zero, dataBase+4), S(rv32.SW, a3, zero, dataBase+8),
		halt)
	c := newCore(t, m, 1, 1)
	run(t, c, 1)
	if word(t, m, dataBase) != 0 || word(t, m, dataBase+4) != 2 || word(t, m, dataBase+8) != 0x1f {
		t.Errorf("minstret/frm/fflags = %d %d %x", word(t, m, dataBase), word(t, m, dataBase+4), word(t, m, dataBase+8))
	}
	if st := c.Stats(0); st.Instret != 10 || st.Cycles != 10 {
		t.Errorf("stats %+v, want 10 instructions, 10 cycles", st)
	}
}

// Faults stop Run with a *Fault naming pc, warp, lane and address.
// A store over cached code is seen by the next fetch.
// Lanes that call a function (placed above the join) and lanes that skip it meet
// at the join: the calling lanes have priority while they are deeper, so the
// skipping lanes wait instead of running ahead with a partial mask.
func TestDivergenceAcrossACall(t *testing.T) {
	m := prog(t, cat(
		csrr(a0, CSRThreadID),                    // 0
		I(rv32.ANDI, a1, a0, 1),                  // 1
		B(rv32.BEQ, a1, zero, 12),                // 2: even lanes skip the call
		rv32.Inst{Op: rv32.JAL, Rd: ra, Imm: 28}, // 3: call func (10)
		li(zero, 0),                              // 4
		csrr(a3, CSRActiveThread),                // 5: the join
		storeTid(a3),                             // 6-8
		halt,                                     // 9
		I(rv32.ADDI, a2, a2, 1),                  // 10: func
		I(rv32.JALR, zero, ra, 0),                // 11: return
	)...)
	c := newCore(t, m, 1, 4)
	run(t, c, 0xf)
	for l := uint32(0); l < 4; l++ {
		if got := word(t, m, dataBase+4*l); got != 0xf {
			t.Errorf("lane %d saw mask %x at the join, want f", l, got)
		}
	}
}

// The shuffle modes over 8 lanes in segments of 4 (c = 3, mask = 0x3c): up and down
// by 1 keep the edge lanes' own values, idx 2 reads lane 2 of the segment; an
// inactive source lane returns the reader's own value. split_n / pred_n negate.
func TestShuffleModesAndNegatedOps(t *testing.T) {
	bc := func(b int32) []rv32.Inst {
		return []rv32.Inst{li(t0, b|3<<6), I(rv32.LUI, t1, 0, 0x3c<<12), R(rv32.OR, t0, t0, t1)}
	}
	m := prog(t, cat(
		csrr(a0, CSRThreadID), I(rv32.ADDI, a1, a0, 10),
		bc(1), rv32.Inst{Op: rv32.VXSHFLUP, Rd: a2, Rs1: a1, Rs2: t0}, storeTid(a2),
		rv32.Inst{Op: rv32.VXSHFLDOWN, Rd: a2, Rs1: a1, Rs2: t0}, I(rv32.ADDI, t2, t2, 0x20), S(rv32.SW, a2, t2, dataBase),
		bc(2), rv32.Inst{Op: rv32.VXSHFLIDX, Rd: a2, Rs1: a1, Rs2: t0}, I(rv32.ADDI, t2, t2, 0x20), S(rv32.SW, a2, t2, dataBase),
		// Only lanes 0, 1, 4, 5 run: idx 2 has no running source, lanes keep their own.
		li(a3, 0x33), tmc(a3),
		rv32.Inst{Op: rv32.VXSHFLIDX, Rd: a2, Rs1: a1, Rs2: t0}, I(rv32.ADDI, t2, t2, 0x20), S(rv32.SW, a2, t2, dataBase),
		rv32.Inst{Op: rv32.VXVOTEUNI, Rd: a4, Rs1: a3}, S(rv32.SW, a4, zero, dataBase+0x100),
		// pred_n on (tid < 1): lanes 1, 4, 5 stay.
		I(rv32.SLTIU, a5, a0, 1), rv32.Inst{Op: rv32.VXPREDN, Rs1: a5, Rs2: zero},
		csrr(a4, CSRActiveThread), S(rv32.SW, a4, zero, dataBase+0x104),
		// split_n on (tid < 5): the "then" half (tid >= 5: lane 5) is the smaller, first.
		I(rv32.SLTIU, a5, a0, 5), rv32.Inst{Op: rv32.VXSPLITN, Rd: a1, Rs1: a5},
		csrr(a4, CSRActiveThread), S(rv32.SW, a4, zero, dataBase+0x108),
		halt)...)
	c := newCore(t, m, 1, 8)
	run(t, c, 0xff)
	for l := uint32(0); l < 8; l++ {
		up, down := l+9, l+11
		if l%4 == 0 {
			up = l + 10
		}
		if l%4 == 3 {
			down = l + 10
		}
		idx := l&^3 + 2 + 10
		if got := word(t, m, dataBase+4*l); got != up {
			t.Errorf("up lane %d: %d, want %d", l, got, up)
		}
		if got := word(t, m, dataBase+4*l+0x20); got != down {
			t.Errorf("down lane %d: %d, want %d", l, got, down)
		}
		if got := word(t, m, dataBase+4*l+0x40); got != idx {
			t.Errorf("idx lane %d: %d, want %d", l, got, idx)
		}
	}
	for _, l := range []uint32{0, 1, 4, 5} {
		if got := word(t, m, dataBase+4*l+0x60); got != l+10 {
			t.Errorf("idx from an inactive lane, lane %d: %d, want its own %d", l, got, l+10)
		}
	}
	if got := word(t, m, dataBase+0x100); got != 1 {
		t.Errorf("vote.uni of a uniform value = %d", got)
	}
	if got := word(t, m, dataBase+0x104); got != 0x32 {
		t.Errorf("mask after pred_n %x, want 32", got)
	}
	if got := word(t, m, dataBase+0x108); got != 0x20 {
		t.Errorf("mask after split_n %x, want 20 (the smaller half)", got)
	}
}

// A launcher runs a CTA the way the KMU does: every warp started at the entry
// with its CTA CSRs and the argument pointer in mscratch; the kernel reads its
// thread index and an argument and writes out[global id] = arg + id.
func TestLauncherRunsACTA(t *testing.T) {
	const args = dataBase + 0x200
	m := prog(t, cat(
		csrr(a0, CSRMscratch), I(rv32.LW, a1, a0, 0), // a1 = args[0]
		csrr(a2, CSRCTAID+3), // THREAD_ID_X
		csrr(a3, CSRCTAID+6), // BLOCK_ID_X
		csrr(a4, CSRCTAID+9), // BLOCK_DIM_X
		R(rv32.MUL, a3, a3, a4), R(rv32.ADD, a2, a2, a3),
		R(rv32.ADD, a5, a1, a2),
		I(rv32.SLLI, a2, a2, 2), S(rv32.SW, a5, a2, dataBase),
		halt)...)
	_ = m.Store(args, 4, 1000)
	const warps, threads = 4, 4
	c := newCore(t, m, warps, threads)
	for w := 0; w < warps; w++ {
		cta := CTA{ID: 0, Rank: uint32(w), Size: warps, BlockIdx: [3]uint32{1, 0, 0},
			BlockDim: [3]uint32{warps * threads, 1, 1}, GridDim: [3]uint32{2, 1, 1},
			ThreadIdx: [3]uint32{uint32(w * threads), 0, 0}}
		if err := c.SetCTA(w, cta); err != nil {
			t.Fatal(err)
		}
		_ = c.SetMScratch(w, args)
		if err := c.Start(w, codeBase, 1<<threads-1); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	for id := uint32(0); id < warps*threads; id++ {
		gid := 16 + id
		if got := word(t, m, dataBase+4*gid); got != 1000+gid {
			t.Errorf("out[%d] = %d, want %d", gid, got, 1000+gid)
		}
	}
	for w := 0; w < warps; w++ {
		if st := c.Stats(w); st.Instret != 11 || st.Cycles == 0 {
			t.Errorf("warp %d stats %+v, want 11 instructions", w, st)
		}
	}
}
