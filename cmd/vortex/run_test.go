package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/isa/image"
	"vortexgfx/isa/rv32"
)

// writeVXBin assembles insts at 0x80000000, appends data, and writes a .vxbin.
func writeVXBin(t *testing.T, insts []rv32.Inst, data []byte) string {
	t.Helper()
	var code []byte
	for _, in := range insts {
		w, err := rv32.Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		code = binary.LittleEndian.AppendUint32(code, w)
	}
	code = append(code, data...)
	im := &image.Image{Segments: []image.Segment{{Addr: 0x80000000, Data: code, MemSize: uint32(len(code)) + 64}}}
	path := filepath.Join(t.TempDir(), "prog.vxbin")
	if err := os.WriteFile(path, image.EncodeVXBin(im), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func semihostCall() []rv32.Inst {
	return []rv32.Inst{{Op: rv32.SLLI, Imm: 0x1f}, {Op: rv32.EBREAK}, {Op: rv32.SRAI, Imm: 7}}
}

// exitProgram widens the warp to every lane (vx_tmc), narrows back to lane 0,
// prints the string at the end of the code with SYS_WRITE0 and exits with 3
// through SYS_EXIT_EXTENDED (parameter block after the string).
func exitProgram(t *testing.T) string {
	const a0, a1, t0 = 10, 11, 5
	var p []rv32.Inst
	p = append(p, rv32.Inst{Op: rv32.ADDI, Rd: t0, Imm: -1}, rv32.Inst{Op: rv32.VXTMC, Rs1: t0},
		rv32.Inst{Op: rv32.ADDI, Rd: t0, Imm: 1}, rv32.Inst{Op: rv32.VXTMC, Rs1: t0})
	n := len(p) + 2 + 3 + 3 + 3 // up to the data
	p = append(p, rv32.Inst{Op: rv32.ADDI, Rd: a0, Imm: 4}, rv32.Inst{Op: rv32.AUIPC, Rd: a1})
	p = append(p, rv32.Inst{Op: rv32.ADDI, Rd: a1, Rs1: a1, Imm: int32(4 * (n - len(p) + 1))})
	p = append(p, semihostCall()...)
	p = append(p, rv32.Inst{Op: rv32.ADDI, Rd: a0, Imm: 0x20}, rv32.Inst{Op: rv32.ADDI, Rd: a1, Rs1: a1, Imm: 8})
	p = append(p, semihostCall()...)
	data := []byte("hello\x00\x00\x00")
	data = binary.LittleEndian.AppendUint32(data, 0x20026)
	data = binary.LittleEndian.AppendUint32(data, 3)
	return writeVXBin(t, p, data)
}

func TestRunVXBin(t *testing.T) {
	path := exitProgram(t)
	code, out, errOut := run(t, "run", "--threads", "4", path)
	if code != 3 || out != "hello" {
		t.Errorf("vortex run: exit %d, stdout %q, stderr %q; want 3, \"hello\"", code, out, errOut)
	}
}

func TestRunErrors(t *testing.T) {
	if code, _, errOut := run(t, "run"); code != 2 || !strings.Contains(errOut, "usage: vortex run") {
		t.Errorf("no file: %d %q", code, errOut)
	}
	if code, _, errOut := run(t, "run", "--threads", "33", "x"); code != 2 || !strings.Contains(errOut, "--threads 33") {
		t.Errorf("bad threads: %d %q", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.vxbin")
	_ = os.WriteFile(bad, []byte{1, 2, 3}, 0o644)
	if code, _, errOut := run(t, "run", bad); code != 1 || !strings.Contains(errOut, "shorter than its 16-byte header") {
		t.Errorf("bad file: %d %q", code, errOut)
	}
	// A load from an unmapped address names pc and address.
	fault := writeVXBin(t, []rv32.Inst{{Op: rv32.LUI, Rd: 10, Imm: 0x10000000}, {Op: rv32.LW, Rd: 11, Rs1: 10}}, nil)
	code, _, errOut := run(t, "run", fault)
	if code != 1 || !strings.Contains(errOut, "pc 0x80000004") || !strings.Contains(errOut, "address 0x10000000") {
		t.Errorf("fault: %d %q", code, errOut)
	}
	// A runaway loop ends at the instruction budget.
	loop := writeVXBin(t, []rv32.Inst{{Op: rv32.JAL}}, nil)
	code, _, errOut = run(t, "run", "--max-instructions", "1000", loop)
	if code != 1 || !strings.Contains(errOut, "budget") {
		t.Errorf("runaway: %d %q", code, errOut)
	}
}

func TestDisasm(t *testing.T) {
	code, out, errOut := run(t, "disasm", exitProgram(t))
	if code != 0 {
		t.Fatalf("disasm: %d %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != "80000000:\tfff00293          \taddi\tt0,zero,-1" || lines[1] != "80000004:\t0002800b          \tvx_tmc\tt0" {
		t.Errorf("disasm starts %q", lines[:2])
	}
	if !strings.Contains(out, "\tebreak\n") {
		t.Errorf("no ebreak in %q", out)
	}
}

// vortex disasm prints an ELF's instructions in objdump's own layout: the same
// lines as `objdump -d -M no-aliases`, objdump's `# comments` and `<symbol>`
// target annotations aside.
func TestDisasmLayoutMatchesObjdump(t *testing.T) {
	for _, tool := range []string{"riscv64-unknown-elf-as", "riscv64-unknown-elf-ld", "riscv64-unknown-elf-objdump"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skip: %s not on PATH (apt-get install binutils-riscv64-unknown-elf)", tool)
		}
	}
	dir := t.TempDir()
	src := ".globl _start\n_start:\n li a0, 0x18\n lui a1, 0x20\n addi a1, a1, 38\nloop:\n fadd.s fa0, fa1, fa2, rtz\n" +
		" amoadd.w.aq a2, a3, (a4)\n csrrs a5, fflags, zero\n beq a0, a1, loop\n jal ra, loop\n" +
		" slli x0, x0, 0x1f\n ebreak\n srai x0, x0, 7\n"
	s, o, elfPath := filepath.Join(dir, "p.s"), filepath.Join(dir, "p.o"), filepath.Join(dir, "p.elf")
	if err := os.WriteFile(s, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"riscv64-unknown-elf-as", "-march=rv32imaf", "-o", o, s},
		{"riscv64-unknown-elf-ld", "-m", "elf32lriscv", "-Ttext=0x80000000", "-o", elfPath, o},
	} {
		if msg, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd, err, msg)
		}
	}
	want, err := exec.Command("riscv64-unknown-elf-objdump", "-d", "-M", "no-aliases", elfPath).Output()
	if err != nil {
		t.Fatal(err)
	}
	code, got, errOut := run(t, "disasm", elfPath)
	if code != 0 {
		t.Fatalf("disasm: %d %s", code, errOut)
	}
	instLines := func(out string, strip bool) []string {
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if !strings.Contains(l, ":\t") {
				continue
			}
			if strip {
				if i := strings.Index(l, " <"); i >= 0 {
					l = l[:i]
				}
				if i := strings.Index(l, " #"); i >= 0 {
					l = l[:i]
				}
			}
			lines = append(lines, l)
		}
		return lines
	}
	w, g := instLines(string(want), true), instLines(got, false)
	if len(w) != 11 || len(g) != len(w) {
		t.Fatalf("objdump %d instruction lines, ours %d:\n%s\n---\n%s", len(w), len(g), want, got)
	}
	for i := range w {
		if w[i] != g[i] {
			t.Errorf("line %d:\nobjdump %q\nours    %q", i, w[i], g[i])
		}
	}
	if !strings.Contains(got, "80000000 <_start>:") || !strings.Contains(got, "Disassembly of section .text:") {
		t.Errorf("labels or section header missing:\n%s", got)
	}
}
