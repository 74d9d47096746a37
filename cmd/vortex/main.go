// Command vortex is the vortexgfx command-line tool: device information, command-ring
// decoding and encoding, and (as the stack grows) shader compilation, trace replay and
// rendering. Each subcommand lives in its own file; this file only dispatches.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand. run receives the arguments after the subcommand's own
// name(s) and returns the process exit code.
type command struct {
	name    string // may be two words, e.g. "cp decode"
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is the table of subcommands. Add one line per subcommand.
func commands() []command {
	return []command{
		{"info", "print the device configuration and its capability words", runInfo},
		{"cp decode", "decode raw command-ring bytes into JSON lines", runCPDecode},
		{"cp encode", "encode JSON-lines commands into raw ring bytes", runCPEncode},
		{"cp trace", "run a small workload and print every command the CP executes with its cycles", runCPTrace},
		{"bench cp", "ring commands, doorbells and CP cycles per launch and draw, launches per second", runBenchCP},
		{"glsl", "compile GLSL and print the IR or the errors", runGLSL},
		{"render", "render a scene, model or the embedded demo to PNG", runRender},
		{"bench render", "time the benchmark scene (median ms/frame) on a mesh", runBenchRender},
		{"shadertest", "run piglit shader_test files on the reference renderer", runShaderTest},
		{"compute", "run a GLSL compute shader on the device model over raw buffers", runCompute},
		{"trace replay", "render a CGLTrace through the whole device and write the PNG", runTraceReplay},
		{"trace compare", "render a CGLTrace at a golden's size and count differing pixels", runTraceCompare},
		{"sweep", "run a design-space sweep (configurations × workloads) into CSV or JSON lines", runSweep},
		{"sweep merge", "combine sweep shard outputs into the single-process file", runSweepMerge},
		{"run", "run an RV32IMAF ELF or .vxbin on one SIMT core with semihosted I/O", runRun},
		{"disasm", "disassemble an ELF or .vxbin in objdump's layout", runDisasm},
		{"sweep plot", "chart a sweep column against an axis (or a grid of its images) as PNG", runSweepPlot},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch finds the longest command name that prefixes args and runs it.
func dispatch(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	best, bestWords := -1, 0
	for i, c := range cmds {
		words := strings.Fields(c.name)
		if len(words) > len(args) || len(words) <= bestWords {
			continue
		}
		match := true
		for j, w := range words {
			if args[j] != w {
				match = false
				break
			}
		}
		if match {
			best, bestWords = i, len(words)
		}
	}
	if best < 0 {
		fmt.Fprintf(stderr, "vortex: unknown command %q\n\n", strings.Join(args, " "))
		usage(stderr, cmds)
		return 2
	}
	return cmds[best].run(args[bestWords:], stdout, stderr)
}

func usage(w io.Writer, cmds []command) {
	fmt.Fprintln(w, "usage: vortex <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	sorted := append([]command(nil), cmds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, c := range sorted {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "run 'vortex <command> -h' for a command's flags")
}
