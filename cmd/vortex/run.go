package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"vortexgfx/device/simt"
	"vortexgfx/isa/image"
	"vortexgfx/isa/rv32"
)

// parseOneFile parses flags that may come before or after a single file argument.
func parseOneFile(fs *flag.FlagSet, args []string, stderr io.Writer) (string, bool) {
	var file string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return "", false
		}
		if fs.NArg() == 0 {
			break
		}
		if file != "" {
			fmt.Fprintf(stderr, "%s: more than one file (%q, %q)\n", fs.Name(), file, fs.Arg(0))
			return "", false
		}
		file, rest = fs.Arg(0), fs.Args()[1:]
	}
	if file == "" {
		fs.Usage()
		return "", false
	}
	return file, true
}

func loadImage(path string) (*image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	im, err := image.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return im, nil
}

// runRun runs a RISC-V program (ELF or .vxbin) on one SIMT core, one warp, with
// semihosting: its output goes to stdout/stderr and its exit code is ours.
// spec: README "vortex run"
func runRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	threads := fs.Int("threads", 1, "threads per warp `N` (1..32); lane 0 starts, vx_tmc widens")
	maxInstr := fs.Uint64("max-instructions", 1_000_000_000, "stop with an error after `N` warp instructions (0: no limit)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex run [--threads N] [--max-instructions N] FILE.elf|FILE.vxbin")
		fmt.Fprintln(stderr, "Runs an RV32IMAF (+Vortex) program on one core with semihosted I/O; exits with its exit code.")
		fs.PrintDefaults()
	}
	file, ok := parseOneFile(fs, args, stderr)
	if !ok {
		return 2
	}
	if *threads < 1 || *threads > 32 {
		fmt.Fprintf(stderr, "vortex run: --threads %d: want 1..32\n", *threads)
		return 2
	}
	im, err := loadImage(file)
	if err != nil {
		fmt.Fprintf(stderr, "vortex run: %v\n", err)
		return 1
	}
	out, errOut := bufio.NewWriter(stdout), bufio.NewWriter(stderr)
	res, err := simt.RunProgram(im, simt.ProgramOptions{Threads: *threads, MaxInstructions: *maxInstr, Stdin: os.Stdin,
		Stdout: out, Stderr: errOut, Cmdline: file})
	out.Flush()
	errOut.Flush()
	if err != nil {
		fmt.Fprintf(stderr, "vortex run: %v\n", err)
		return 1
	}
	if !res.Exited {
		return 0 // every warp halted (vx_tmc 0) without SYS_EXIT
	}
	return res.ExitCode & 0xff
}

// runDisasm prints every executable section's instructions in objdump's layout
// (`-M no-aliases` syntax, ELF symbols as labels).
func runDisasm(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex disasm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex disasm FILE.elf|FILE.vxbin")
		fmt.Fprintln(stderr, "Disassembles the executable segments in objdump -d -M no-aliases layout.")
		fs.PrintDefaults()
	}
	file, ok := parseOneFile(fs, args, stderr)
	if !ok {
		return 2
	}
	im, err := loadImage(file)
	if err != nil {
		fmt.Fprintf(stderr, "vortex disasm: %v\n", err)
		return 1
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	writeDisasm(w, im)
	return 0
}

func writeDisasm(w io.Writer, im *image.Image) {
	// One label per address, a function symbol before any other.
	labels := map[uint32]image.Symbol{}
	for _, s := range im.Symbols {
		if old, dup := labels[s.Addr]; !dup || (s.Func && !old.Func) {
			labels[s.Addr] = s
		}
	}
	segs := append([]image.Segment(nil), im.Code...)
	sort.Slice(segs, func(i, j int) bool { return segs[i].Addr < segs[j].Addr })
	for _, s := range segs {
		if s.Name != "" {
			fmt.Fprintf(w, "\nDisassembly of section %s:\n", s.Name)
		}
		for off := 0; off+4 <= len(s.Data); off += 4 {
			pc := s.Addr + uint32(off)
			if sym, ok := labels[pc]; ok {
				fmt.Fprintf(w, "\n%08x <%s>:\n", pc, sym.Name)
			}
			word := uint32(s.Data[off]) | uint32(s.Data[off+1])<<8 | uint32(s.Data[off+2])<<16 | uint32(s.Data[off+3])<<24
			fmt.Fprintf(w, "%8x:\t%08x          \t%s\n", pc, word, rv32.DisasmWord(word, pc))
		}
	}
}
