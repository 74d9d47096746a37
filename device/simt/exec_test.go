package simt

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"vortexgfx/isa/rv32"
)

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

func TestSemihostReadC(t *testing.T) {
	m := semihostProg(t, SysReadC, nil)
	c := newCore(t, m, 1, 1)
	c.Ebreak = &Semihost{Stdin: strings.NewReader("Z"), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	run(t, c, 1)
	if got := word(t, m, dataBase+0x200); got != 'Z' {
		t.Errorf("SYS_READC returned %#x, want 'Z'", got)
	}
	c = newCore(t, m, 1, 1)
	c.Ebreak = &Semihost{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	run(t, c, 1)
	if got := word(t, m, dataBase+0x200); got != 0xffffffff {
		t.Errorf("SYS_READC without input returned %#x, want -1", got)
	}
}
