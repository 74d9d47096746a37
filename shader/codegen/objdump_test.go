package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"vortexgfx/isa/rv32"
)

var objdumpLine = regexp.MustCompile(`^\s*([0-9a-f]+):\t([0-9a-f]{8}) +\t(.*)$`)

// TestObjdumpAgrees disassembles every corpus kernel with GNU objdump (raw binary,
// rv32, -M no-aliases) and requires its text for every instruction it knows to be
// rv32.DisasmWord's, which is what `vortex disasm` prints; the Vortex ops, which
// binutils prints as .insn/.4byte, are checked by decoding them back to the op
// the generator emitted (every emitted word decodes).
func TestObjdumpAgrees(t *testing.T) {
	tool := "riscv64-unknown-elf-objdump"
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("skip: %s not on PATH (apt-get install binutils-riscv64-unknown-elf)", tool)
	}
	dir := t.TempDir()
	checked, vortex := 0, 0
	for _, c := range corpus {
		k, err := Compile(compileCS(t, c.name, c.src))
		if err != nil {
			t.Fatal(err)
		}
		img := k.Image()
		bin := filepath.Join(dir, c.name+".bin")
		if err := os.WriteFile(bin, img.Segments[0].Data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(tool, "-D", "-b", "binary", "-m", "riscv:rv32", "-M", "no-aliases",
			"--adjust-vma=0x"+strconv.FormatUint(uint64(k.Base), 16), bin).Output()
		if err != nil {
			t.Fatalf("%s: objdump: %v", c.name, err)
		}
		n := 0
		for _, line := range strings.Split(string(out), "\n") {
			m := objdumpLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			pc64, _ := strconv.ParseUint(m[1], 16, 32)
			word, _ := strconv.ParseUint(m[2], 16, 32)
			pc := uint32(pc64)
			if i := int(pc-k.Base) / 4; i < 0 || i >= len(k.Code) || k.Code[i] != uint32(word) {
				t.Fatalf("%s: objdump shows %08x at %08x, not the kernel's word", c.name, word, pc)
			}
			n++
			text := m[3]
			if j := strings.Index(text, " <"); j >= 0 {
				text = text[:j]
			}
			if j := strings.Index(text, " #"); j >= 0 {
				text = text[:j]
			}
			in, err := rv32.Decode(uint32(word))
			if err != nil {
				t.Errorf("%s: %08x at %08x does not decode: %v", c.name, word, pc, err)
				continue
			}
			if strings.HasPrefix(text, ".insn") || strings.HasPrefix(text, ".4byte") || strings.HasPrefix(text, "unknown") {
				// Vortex's custom-0 ops: warp control, votes and shuffles.
				if !in.Op.IsWarpControl() && (in.Op < rv32.VXVOTEALL || in.Op > rv32.VXSHFLIDX) {
					t.Errorf("%s: binutils cannot name %08x (%s) at %08x", c.name, word, in.Op, pc)
				}
				vortex++
				continue
			}
			// Without an ELF there are no symbols, and objdump prints a branch or
			// jump target as 0x-prefixed hex; in an ELF (vortex disasm's layout)
			// it prints the bare address.
			if strings.HasPrefix(text, "b") || strings.HasPrefix(text, "jal\t") {
				text = strings.Replace(text, ",0x", ",", 1)
			}
			if got := rv32.DisasmWord(uint32(word), pc); got != text {
				t.Errorf("%s: %08x at %08x: objdump %q, vortex disasm %q", c.name, word, pc, text, got)
			}
			checked++
		}
		if n != len(k.Code) {
			t.Errorf("%s: objdump listed %d instructions, the kernel has %d", c.name, n, len(k.Code))
		}
	}
	if vortex == 0 {
		t.Errorf("no Vortex instruction seen: the corpus no longer exercises split/join/pred/bar")
	}
	t.Logf("%d instructions agree with binutils, %d Vortex instructions decoded", checked, vortex)
}
