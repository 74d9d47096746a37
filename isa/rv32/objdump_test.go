package rv32

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// asmText is in as GNU as reads it: Disasm's text, with branch and jump targets
// relative (.+off) and the Vortex ops (unknown to binutils) as .insn directives.
func asmText(in Inst) string {
	info := &ops[in.Op]
	switch {
	case info.match&mOpc == opCust0:
		f3, f7 := info.match>>12&7, info.match>>25
		w, _ := Encode(in)
		return fmt.Sprintf(".insn r 0x0b, %d, %d, x%d, x%d, x%d", f3, f7, w>>7&31, w>>15&31, w>>20&31)
	case info.match&mOpc == opCust1:
		return fmt.Sprintf(".insn r4 0x2b, %d, %d, x%d, x%d, x%d, x%d", info.match>>12&7, in.Imm, in.Rd, in.Rs1, in.Rs2, in.Rs3)
	case info.fmt == fmtB:
		return fmt.Sprintf("%s %s,%s,.%+d", info.name, xNames[in.Rs1], xNames[in.Rs2], in.Imm)
	case info.fmt == fmtJ:
		return fmt.Sprintf("%s %s,.%+d", info.name, xNames[in.Rd], in.Imm)
	}
	return Disasm(in, 0)
}

var dumpLine = regexp.MustCompile(`^\s*([0-9a-f]+):\t([0-9a-f]{8}) +\t(.*)$`)

// TestEveryOpAgainstBinutils assembles random instances of every op with GNU as
// (-march=rv32imaf) and requires objdump's words to be our encoding and its text
// (-M no-aliases) to be our disassembly; the Vortex ops go through .insn, so only
// their encoding is checked against binutils.
func TestEveryOpAgainstBinutils(t *testing.T) {
	for _, tool := range []string{"riscv64-unknown-elf-as", "riscv64-unknown-elf-objdump"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skip: %s not on PATH (apt-get install binutils-riscv64-unknown-elf)", tool)
		}
	}
	r := newRand(3)
	var insts []Inst
	var src strings.Builder
	for op := Op(1); op < numOps; op++ {
		for i := 0; i < 20; i++ {
			in := randomInst(r, op)
			insts = append(insts, in)
			src.WriteString(asmText(in) + "\n")
		}
	}
	dir := t.TempDir()
	s, o := filepath.Join(dir, "all.s"), filepath.Join(dir, "all.o")
	if err := os.WriteFile(s, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("riscv64-unknown-elf-as", "-march=rv32imaf", "-o", o, s).CombinedOutput(); err != nil {
		t.Fatalf("as: %v\n%s", err, msg)
	}
	out, err := exec.Command("riscv64-unknown-elf-objdump", "-d", "-M", "no-aliases", o).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	k := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := dumpLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if k >= len(insts) {
			t.Fatalf("objdump printed more instructions than assembled")
		}
		in := insts[k]
		pc := uint32(4 * k)
		k++
		word, _ := strconv.ParseUint(m[2], 16, 32)
		want, _ := Encode(in)
		if uint32(word) != want {
			t.Errorf("%s: as encodes %q as %08x, we encode %08x", in.Op, asmText(in), word, want)
			continue
		}
		text := m[3]
		if i := strings.Index(text, " <"); i >= 0 {
			text = text[:i]
		}
		if i := strings.Index(text, " #"); i >= 0 {
			text = text[:i]
		}
		if strings.HasPrefix(text, ".insn") || strings.HasPrefix(text, ".4byte") {
			continue // a Vortex op: binutils has no name for it
		}
		if got := Disasm(in, pc); got != text {
			t.Errorf("%08x: objdump %q, ours %q", want, text, got)
		}
	}
	if k != len(insts) {
		t.Errorf("objdump printed %d instructions, assembled %d", k, len(insts))
	}
}
