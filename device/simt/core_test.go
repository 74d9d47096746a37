package simt

import (
	"bytes"
	"errors"
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
func TestFaults(t *testing.T) {
	cases := []struct {
		name  string
		insts []rv32.Inst
		kind  string
		pc    uint32
		addr  uint32
	}{
		{"misaligned load", []rv32.Inst{I(rv32.LW, a0, zero, 0x102)}, "load", codeBase, 0x102},
		{"unmapped store", []rv32.Inst{I(rv32.LUI, a0, 0, 0x7fff0000), S(rv32.SW, a0, a0, 0)}, "store", codeBase + 4, 0x7fff0000},
		{"wild jump", []rv32.Inst{I(rv32.LUI, a0, 0, 0x7fff0000), I(rv32.JALR, zero, a0, 0)}, "fetch", 0x7fff0000, 0x7fff0000},
		{"misaligned target", []rv32.Inst{rv32.Inst{Op: rv32.JAL, Imm: 6}}, "fetch", codeBase + 6, codeBase + 6},
		{"ecall", []rv32.Inst{{Op: rv32.ECALL}}, "illegal instruction", codeBase, codeBase},
		{"unknown CSR", []rv32.Inst{csrr(a0, 0x7b0)}, "illegal instruction", codeBase, codeBase},
		{"read-only CSR", []rv32.Inst{{Op: rv32.CSRRW, CSR: CSRThreadID, Rs1: a0}}, "illegal instruction", codeBase, codeBase},
		{"ebreak without handler", []rv32.Inst{{Op: rv32.EBREAK}}, "breakpoint", codeBase, codeBase},
		{"tex without graphics", []rv32.Inst{{Op: rv32.VXTEX, Rd: a0}}, "illegal instruction", codeBase, codeBase},
		{"misaligned atomic", []rv32.Inst{li(a0, 0x101), {Op: rv32.AMOADDW, Rd: a1, Rs1: a0}}, "atomic", codeBase + 4, 0x101},
	}
	for _, tc := range cases {
		m := prog(t, tc.insts...)
		c := newCore(t, m, 1, 2)
		_ = c.Start(0, codeBase, 3)
		err := c.Run()
		var f *Fault
		if !errors.As(err, &f) {
			t.Errorf("%s: err %v, want a *Fault", tc.name, err)
			continue
		}
		if f.Kind != tc.kind || f.PC != tc.pc || f.Addr != tc.addr || f.Warp != 0 {
			t.Errorf("%s: %v (kind %q pc %x addr %x), want kind %q pc %x addr %x", tc.name, err, f.Kind, f.PC, f.Addr, tc.kind, tc.pc, tc.addr)
		}
	}
	// An illegal word and a compressed one are named with the pc.
	m := NewFlatMemory(0, memSize)
	_ = m.Store(codeBase, 4, 0x00004501)
	c := newCore(t, m, 1, 1)
	_ = c.Start(0, codeBase, 1)
	if err := c.Run(); err == nil || !strings.Contains(err.Error(), "compressed") || !strings.Contains(err.Error(), "pc 0x00000100") {
		t.Errorf("compressed instruction: %v", err)
	}
}

func TestBudgetStopsARunawayLoop(t *testing.T) {
	m := prog(t, rv32.Inst{Op: rv32.JAL, Imm: 0})
	c, _ := New(Config{Warps: 1, Threads: 1, MaxInstructions: 5000}, m)
	_ = c.Start(0, codeBase, 1)
	err := c.Run()
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "pc 0x00000100") {
		t.Errorf("err %v, want ErrBudget at the loop", err)
	}
}

// A store over cached code is seen by the next fetch.
func TestSelfModifyingCode(t *testing.T) {
	newInst, _ := rv32.Encode(li(a0, 42))
	m := prog(t,
		I(rv32.LUI, t0, 0, (int32(newInst)+0x800)>>12<<12), I(rv32.ADDI, t0, t0, int32(newInst)<<20>>20),
		rv32.Inst{Op: rv32.JAL, Rd: ra, Imm: 12}, // call patch
		S(rv32.SW, a0, zero, dataBase), halt,
		// patch: run the target once (a0 = 1), overwrite it, run it again.
		li(a0, 1), // target at codeBase+20
		S(rv32.SW, t0, zero, codeBase+20),
		I(rv32.JALR, zero, ra, 0))
	c := newCore(t, m, 1, 1)
	run(t, c, 1)
	// The first pass ran the target (a0 = 1) and then overwrote it with li a0,42;
	// running the target again must execute the new instruction.
	if got := word(t, m, dataBase); got != 1 {
		t.Fatalf("first pass stored %d", got)
	}
	_ = c.Start(0, codeBase+20, 1)
	c.SetReg(0, 0, ra, codeBase+12)
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if got := word(t, m, dataBase); got != 42 {
		t.Errorf("after patching, stored %d, want 42 (stale decode cache?)", got)
	}
}

type gfx struct{ calls []string }

func (g *gfx) Tex(w, l, stage int, u, v, lod uint32) (uint32, error) {
	return uint32(stage)<<24 | u<<8 | v, nil
}
func (g *gfx) OMExport(w, l int, addr, color, depth uint32, flags int) error {
	g.calls = append(g.calls, strings.Repeat("x", flags))
	if addr == 0x3ad {
		return errors.New("outside the aperture")
	}
	return nil
}

func TestGraphicsOps(t *testing.T) {
	m := prog(t, li(a0, 3), li(a1, 4), rv32.Inst{Op: rv32.VXTEX, Rd: a2, Rs1: a0, Rs2: a1, Rs3: zero, Imm: 2},
		S(rv32.SW, a2, zero, dataBase),
		rv32.Inst{Op: rv32.VXOMEXPORT, Rs1: a0, Rs2: a2, Rs3: a1, Imm: 3},
		li(a0, 0x3ad), rv32.Inst{Op: rv32.VXOMEXPORT, Rs1: a0, Rs2: a2, Rs3: a1, Imm: 1}, halt)
	c := newCore(t, m, 1, 1)
	g := &gfx{}
	c.Graphics = g
	_ = c.Start(0, codeBase, 1)
	err := c.Run()
	if got := word(t, m, dataBase); got != 2<<24|3<<8|4 {
		t.Errorf("tex result %x", got)
	}
	if len(g.calls) != 2 || g.calls[0] != "xxx" {
		t.Errorf("om calls %q", g.calls)
	}
	if err == nil || !strings.Contains(err.Error(), "om export") || !strings.Contains(err.Error(), "aperture") {
		t.Errorf("err %v", err)
	}
}

func semihostProg(t *testing.T, op int32, param []rv32.Inst) *FlatMemory {
	return prog(t, cat(li(a0, op), param,
		I(rv32.SLLI, zero, zero, 0x1f), rv32.Inst{Op: rv32.EBREAK}, I(rv32.SRAI, zero, zero, 7),
		S(rv32.SW, a0, zero, dataBase+0x200), halt)...)
}

func TestSemihosting(t *testing.T) {
	// SYS_WRITE0 of "hi" and SYS_WRITE of "ok" to stderr.
	m := semihostProg(t, SysWrite0, []rv32.Inst{li(a1, dataBase)})
	_ = m.Write(dataBase, []byte("hi\x00"))
	c := newCore(t, m, 1, 1)
	var out, errOut bytes.Buffer
	c.Ebreak = &Semihost{Stdout: &out, Stderr: &errOut}
	run(t, c, 1)
	if out.String() != "hi" {
		t.Errorf("SYS_WRITE0 wrote %q", out.String())
	}

	m = semihostProg(t, SysWrite, []rv32.Inst{li(a1, dataBase+0x10)})
	_ = m.Write(dataBase, []byte("ok"))
	for i, v := range []uint32{hStderr, dataBase, 2} {
		_ = m.Store(dataBase+0x10+uint32(4*i), 4, v)
	}
	c = newCore(t, m, 1, 1)
	out.Reset()
	c.Ebreak = &Semihost{Stdout: &out, Stderr: &errOut}
	run(t, c, 1)
	if errOut.String() != "ok" || out.Len() != 0 {
		t.Errorf("SYS_WRITE to stderr: stdout %q stderr %q", out.String(), errOut.String())
	}

	// SYS_EXIT_EXTENDED with code 7 stops the core.
	m = semihostProg(t, SysExitExtended, []rv32.Inst{li(a1, dataBase)})
	_ = m.Store(dataBase, 4, adpStoppedApplicationExit)
	_ = m.Store(dataBase+4, 4, 7)
	c = newCore(t, m, 1, 1)
	sh := &Semihost{Stdout: &out, Stderr: &errOut}
	c.Ebreak = sh
	run(t, c, 1)
	if !sh.Exited || sh.ExitCode != 7 || word(t, m, dataBase+0x200) != 0 {
		t.Errorf("exit: %+v", sh)
	}

	// An unknown operation and a real file are errors naming them.
	for _, tc := range []struct {
		op   int32
		want string
	}{{0x99, "operation 0x99"}, {SysOpen, "SYS_OPEN of \"x.txt\""}} {
		m = semihostProg(t, tc.op, []rv32.Inst{li(a1, dataBase)})
		_ = m.Store(dataBase, 4, dataBase+0x40)
		_ = m.Store(dataBase+8, 4, 5)
		_ = m.Write(dataBase+0x40, []byte("x.txt"))
		c = newCore(t, m, 1, 1)
		c.Ebreak = &Semihost{Stdout: &out, Stderr: &errOut}
		_ = c.Start(0, codeBase, 1)
		if err := c.Run(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("op %#x: %v, want %q", tc.op, err, tc.want)
		}
	}

	// An ebreak outside the marker sequence is not a semihosting call.
	m = prog(t, rv32.Inst{Op: rv32.EBREAK}, halt)
	c = newCore(t, m, 1, 1)
	c.Ebreak = &Semihost{Stdout: &out, Stderr: &errOut}
	_ = c.Start(0, codeBase, 1)
	if err := c.Run(); err == nil || !strings.Contains(err.Error(), "not a semihosting call") {
		t.Errorf("bare ebreak: %v", err)
	}
}

func TestAtomicsAcrossLanes(t *testing.T) {
	// Every lane amoadds 1 to one word and lr/sc increments another: 4 lanes, both 4.
	m := prog(t, cat(
		li(a0, dataBase), li(a1, 1),
		rv32.Inst{Op: rv32.AMOADDW, Rd: a2, Rs1: a0, Rs2: a1},
		storeTid(a2),
		I(rv32.ADDI, a3, a0, 0x100),
		// retry: lr a4; a4++; sc a5; bnez a5 retry
		rv32.Inst{Op: rv32.LRW, Rd: a4, Rs1: a3},
		I(rv32.ADDI, a4, a4, 1),
		rv32.Inst{Op: rv32.SCW, Rd: a5, Rs1: a3, Rs2: a4},
		B(rv32.BNE, a5, zero, -12),
		halt)...)
	c := newCore(t, m, 1, 4)
	run(t, c, 0xf)
	if got := word(t, m, dataBase+0x100); got != 4 {
		t.Errorf("lr/sc counter %d, want 4 (a reservation survived another lane's sc?)", got)
	}
	seen := map[uint32]bool{}
	for l := uint32(0); l < 4; l++ {
		seen[word(t, m, dataBase+4*l)] = true
	}
	if len(seen) != 4 {
		t.Errorf("amoadd returned %v, want four distinct old values", seen)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	m := NewFlatMemory(0, 16)
	for _, cfg := range []Config{{Warps: 0, Threads: 1}, {Warps: 1, Threads: 33}, {Warps: 33, Threads: 1}} {
		if _, err := New(cfg, m); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
	if _, err := New(Config{Warps: 1, Threads: 1}, nil); err == nil {
		t.Error("nil memory accepted")
	}
	c, _ := New(Config{Warps: 1, Threads: 1}, m)
	if err := c.Start(3, 0, 1); err == nil {
		t.Error("start of warp 3 on a 1-warp core accepted")
	}
	if err := c.Start(0, 0, 0); err == nil {
		t.Error("start with an empty mask accepted")
	}
}

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
