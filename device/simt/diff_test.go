package simt_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"vortexgfx/device/simt"
	"vortexgfx/isa/image"
	"vortexgfx/isa/rv32"
)

// The differential test: C programs built with the RISC-V GNU toolchain and
// picolibc's semihosting crt0, run on QEMU (an independent RV32IMAF implementation)
// and on this core; output and exit code must be identical.

const (
	gcc     = "riscv64-unknown-elf-gcc"
	objdump = "riscv64-unknown-elf-objdump"
	as      = "riscv64-unknown-elf-as"
	qemu    = "qemu-system-riscv32"
)

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skip: %s not on PATH (apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf qemu-system-misc)", tool)
		}
	}
}

// buildProgram compiles testdata/diff/NAME.c for qemu-system-riscv32 -M virt: code
// and read-only data from 0x80000000, RAM (data, bss, stack) from 0x80200000.
// Built programs are shared by the tests of this binary (each is compiled once).
var (
	buildMu  sync.Mutex
	buildDir string
	built    = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func buildProgram(t *testing.T, name string, defines ...string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	key := strings.Join(append([]string{name}, defines...), " ")
	if elf, ok := built[key]; ok {
		return elf
	}
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "simt-diff-")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = dir
	}
	out := filepath.Join(buildDir, strings.ReplaceAll(key, " ", "_")+".elf")
	cmd := exec.Command(gcc, append(defines, "--specs=picolibc.specs", "--oslib=semihost", "--crt0=semihost",
		"-march=rv32imaf", "-mabi=ilp32f", "-O2",
		"-Wl,--defsym=__flash=0x80000000", "-Wl,--defsym=__flash_size=0x200000",
		"-Wl,--defsym=__ram=0x80200000", "-Wl,--defsym=__ram_size=0x200000",
		"-Wl,--defsym=__stack_size=0x10000",
		"-o", out, filepath.Join("testdata", "diff", name+".c"))...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
	built[key] = out
	return out
}

func runQEMU(t *testing.T, elf string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, qemu, "-M", "virt", "-nographic", "-bios", "none",
		"-semihosting-config", "enable=on,target=native", "-kernel", elf)
	var out bytes.Buffer
	// QEMU's semihosted console output goes to its stderr; the serial port (stdout)
	// stays silent for these programs.
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("qemu timed out on %s", elf)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("qemu: %v", err)
	}
	return out.String(), code
}

func runOurs(t *testing.T, elf string, threads int) (string, int) {
	t.Helper()
	data, err := os.ReadFile(elf)
	if err != nil {
		t.Fatal(err)
	}
	im, err := image.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res, err := simt.RunProgram(im, simt.ProgramOptions{Threads: threads, MaxInstructions: 500_000_000, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("our core: %v\noutput so far:\n%s", err, out.String())
	}
	if !res.Exited {
		t.Fatalf("our core: %s halted without exiting", elf)
	}
	return out.String(), res.ExitCode & 0xff
}

var diffPrograms = []string{"int", "atomic", "fp", "divergence", "libc"}

func TestDifferentialQEMU(t *testing.T) {
	needTools(t, gcc, qemu)
	for _, name := range diffPrograms {
		t.Run(name, func(t *testing.T) {
			elf := buildProgram(t, name)
			want, wantCode := runQEMU(t, elf)
			got, gotCode := runOurs(t, elf, 1)
			if got != want || gotCode != wantCode {
				t.Errorf("%s: our core disagrees with QEMU\nexit: ours %d, qemu %d\n%s", name, gotCode, wantCode, lineDiff(want, got))
			}
			if strings.Count(want, "\n") < 1 {
				t.Errorf("%s: QEMU printed almost nothing (%q): the test checks nothing", name, want)
			}
		})
	}
}

// TestDivergenceSIMT runs the divergence program's SIMT build, eight threads of one
// warp through stock-compiled divergent code, and requires what QEMU prints for the
// serial build.
func TestDivergenceSIMT(t *testing.T) {
	needTools(t, gcc, qemu)
	want, wantCode := runQEMU(t, buildProgram(t, "divergence"))
	simtELF := buildProgram(t, "divergence", "-DSIMT")
	got, gotCode := runOurs(t, simtELF, 8)
	if got != want || gotCode != wantCode {
		t.Errorf("8-thread SIMT run disagrees with QEMU's serial run\nexit: ours %d, qemu %d\n%s", gotCode, wantCode, lineDiff(want, got))
	}
}

// lineDiff lists the lines that differ (qemu first).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("qemu: " + a + "\nours: " + c + "\n")
		}
	}
	return b.String()
}

// objdumpLine matches an instruction line of `objdump -d -M no-aliases`.
var objdumpLine = regexp.MustCompile(`^\s*([0-9a-f]+):\t([0-9a-f]{8}) +\t(.*)$`)

// checkObjdump disassembles elf with objdump and with rv32.Disasm and requires every
// instruction objdump decodes (not .word/.4byte data, not the Vortex ops objdump
// does not know) to read the same, objdump's `# comment` and `<symbol>` suffixes
// aside. It returns how many instructions it compared.
func checkObjdump(t *testing.T, elf string) int {
	t.Helper()
	out, err := exec.Command(objdump, "-d", "-M", "no-aliases", elf).Output()
	if err != nil {
		t.Fatalf("objdump: %v", err)
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := objdumpLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := m[3]
		if i := strings.Index(text, " #"); i >= 0 {
			text = text[:i]
		}
		if i := strings.Index(text, " <"); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimRight(text, " ")
		if strings.HasPrefix(text, ".") || text == "" {
			continue
		}
		var pc, word uint32
		for _, c := range m[1] {
			pc = pc<<4 | hexVal(c)
		}
		for _, c := range m[2] {
			word = word<<4 | hexVal(c)
		}
		in, err := rv32.Decode(word)
		if err != nil {
			t.Errorf("0x%08x: objdump decodes %08x as %q, we refuse it: %v", pc, word, text, err)
			continue
		}
		if got := rv32.Disasm(in, pc); got != text {
			t.Errorf("0x%08x %08x: objdump %q, ours %q", pc, word, text, got)
		}
		n++
	}
	return n
}

func hexVal(c rune) uint32 {
	if c >= 'a' {
		return uint32(c-'a') + 10
	}
	return uint32(c - '0')
}

func TestDisasmMatchesObjdumpOnPrograms(t *testing.T) {
	needTools(t, gcc, objdump)
	for _, name := range diffPrograms {
		t.Run(name, func(t *testing.T) {
			if n := checkObjdump(t, buildProgram(t, name)); n < 1000 {
				t.Errorf("only %d instructions compared", n)
			}
		})
	}
}
