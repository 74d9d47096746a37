package codegen

import (
	"encoding/binary"
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

// TestObjdumpAgrees disassembles every corpus kernel, and fragment kernels
// with each texture op the fragment backend compiles (texture, textureLod,
// textureGrad, texelFetch, textureSize), with GNU objdump (raw binary, rv32,
// -M no-aliases) and requires its text for every instruction it knows to be
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
		n, v := objdumpCheck(t, tool, dir, c.name, k.Base, k.Text())
		checked, vortex = checked+n, vortex+v
	}
	in := FragmentInputs{Coord: -1, Facing: -1, Helper: -1, SampleID: -1, SamplePos: -1, SampleMaskIn: -1, FragDepth: -1, SampleMask: -1,
		Interp: []FragmentInterp{{Word: 0, Front: 0, Back: 0}, {Word: 1, Front: 1, Back: 1}, {Word: 2, Front: 2, Back: 2}, {Word: 3, Front: 3, Back: 3}},
		Colors: []int{0}}
	for _, c := range []struct{ name, body string }{
		{"fs_sample", "o = texture(s0, v.xy) + textureLod(s1, v.zw, v.x) + textureGrad(s0, v.yx, v.zw, v.xy);"},
		{"fs_fetch", "o = texelFetch(s0, ivec2(v.xy), int(v.z)) + vec4(textureSize(s1, int(v.w)), 0, 1);"},
	} {
		p := compileFS(t, "#version 330\nuniform sampler2D s0, s1; in vec4 v; out vec4 o;\nvoid main() { "+c.body+" }")
		k, err := CompileFragment(p, in, FragmentOptions{WaveThreads: 16})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n, v := objdumpCheck(t, tool, dir, c.name, k.Base, k.Text())
		checked, vortex = checked+n, vortex+v
	}
	if vortex == 0 {
		t.Errorf("no Vortex instruction seen: the corpus no longer exercises split/join/pred/bar")
	}
	t.Logf("%d instructions agree with binutils, %d Vortex instructions decoded", checked, vortex)
}

// objdumpCheck disassembles the instructions code, linked at base, with tool
// and compares each line with rv32.DisasmWord (see TestObjdumpAgrees); it
// returns the lines compared and the Vortex instructions decoded.
func objdumpCheck(t *testing.T, tool, dir, name string, base uint32, code []uint32) (checked, vortex int) {
	t.Helper()
	bin := filepath.Join(dir, name+".bin")
	img := make([]byte, 4*len(code))
	for i, w := range code {
		binary.LittleEndian.PutUint32(img[4*i:], w)
	}
	if err := os.WriteFile(bin, img, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-D", "-b", "binary", "-m", "riscv:rv32", "-M", "no-aliases",
		"--adjust-vma=0x"+strconv.FormatUint(uint64(base), 16), bin).Output()
	if err != nil {
		t.Fatalf("%s: objdump: %v", name, err)
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
		if i := int(pc-base) / 4; i < 0 || i >= len(code) || code[i] != uint32(word) {
			t.Fatalf("%s: objdump shows %08x at %08x, not the kernel's word", name, word, pc)
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
			t.Errorf("%s: %08x at %08x does not decode: %v", name, word, pc, err)
			continue
		}
		if strings.HasPrefix(text, ".insn") || strings.HasPrefix(text, ".4byte") || strings.HasPrefix(text, "unknown") {
			if in.Op < rv32.VXTMC { // the Vortex ops (custom-0, custom-1) close the list
				t.Errorf("%s: binutils cannot name %08x (%s) at %08x", name, word, in.Op, pc)
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
			t.Errorf("%s: %08x at %08x: objdump %q, vortex disasm %q", name, word, pc, text, got)
		}
		checked++
	}
	if n != len(code) {
		t.Errorf("%s: objdump listed %d instructions, the kernel has %d", name, n, len(code))
	}
	return checked, vortex
}
