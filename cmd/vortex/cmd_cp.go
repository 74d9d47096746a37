package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"vortexgfx/abi"
	"vortexgfx/ringdump"
)

func runCPDecode(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex cp decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flavor := fs.String("flavor", "emu", "CP flavour whose decode rules apply: emu or rtl")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex cp decode [--flavor emu|rtl] FILE")
		fmt.Fprintln(stderr, "FILE holds raw ring bytes, a whole number of 64-byte lines ('-' reads stdin).")
		fmt.Fprintln(stderr, "Prints one JSON object per command, then one per line saying why its walk ended.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	f, err := abi.ParseFlavor(*flavor)
	if err != nil {
		fmt.Fprintf(stderr, "vortex cp decode: %v\n", err)
		return 2
	}
	name := fs.Arg(0)
	data, err := readInput(name)
	if err != nil {
		fmt.Fprintf(stderr, "vortex cp decode: %v\n", err)
		return 1
	}
	if err := ringdump.Decode(stdout, data, f); err != nil {
		fmt.Fprintf(stderr, "vortex cp decode: %s: %v\n", name, err)
		return 1
	}
	return 0
}

func runCPEncode(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex cp encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the ring bytes to `FILE` (required; '-' writes stdout)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex cp encode FILE.jsonl -o ring.bin")
		fmt.Fprintln(stderr, "Reads the JSON lines `vortex cp decode` prints ('-' reads stdin) and writes ring bytes.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorder(args)); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *out == "" {
		fs.Usage()
		return 2
	}
	name := fs.Arg(0)
	data, err := readInput(name)
	if err != nil {
		fmt.Fprintf(stderr, "vortex cp encode: %v\n", err)
		return 1
	}
	ring, err := ringdump.Encode(bytes.NewReader(data), name)
	if err != nil {
		fmt.Fprintf(stderr, "vortex cp encode: %v\n", err)
		return 1
	}
	if *out == "-" {
		_, err = stdout.Write(ring)
	} else {
		err = os.WriteFile(*out, ring, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vortex cp encode: %v\n", err)
		return 1
	}
	return 0
}

func readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(name)
}

// reorder moves flags after positional arguments to the front, so both
// `encode FILE -o out` and `encode -o out FILE` work with package flag.
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			if !bytes.Contains([]byte(a), []byte("=")) && i+1 < len(args) && (a == "-o" || a == "--o") {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	return append(flags, pos...)
}
