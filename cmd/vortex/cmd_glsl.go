package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"vortexgfx/shader"
	"vortexgfx/shader/codegen"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/ir"
)

// runGLSL implements `vortex glsl [--stage vert|frag|comp] [--version N] [--emit
// ir|vxbin -o FILE] [--include /PATH=FILE]... [--include-path /DIR]... FILE...`: it compiles each file (the stage from its extension
// unless given), prints the optimised IR on success or the errors as
// "file:line:col: error: message", and exits 0 only when every file compiled. With
// --emit vxbin it compiles one compute shader to a Vortex kernel (package
// shader/codegen), writes the .vxbin to -o and prints the kernel's launch layout.
// The command is documented in the README ("vortex glsl").
func runGLSL(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex glsl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stage := fs.String("stage", "", "shader stage `vert|frag|comp` (default: from the file extension)")
	version := fs.Int("version", 0, "GLSL `N` for sources without #version (default 110)")
	inc, incErr := &glsl.Includes{}, error(nil)
	fs.Func("include", "name the contents of FILE as the include string `/PATH=FILE` (GL_ARB_shading_language_include; repeatable)", func(v string) error {
		name, file, ok := strings.Cut(v, "=")
		if !ok {
			return fmt.Errorf("want /PATH=FILE, got %q", v)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			incErr = err
			return err
		}
		if !inc.Add(name, string(b)) {
			return fmt.Errorf("include path %q does not start with '/'", name)
		}
		return nil
	})
	fs.Func("include-path", "search `/DIR` for relative #include paths, in the order given (repeatable)", func(v string) error {
		inc.Paths = append(inc.Paths, v)
		return nil
	})
	emit := fs.String("emit", "ir", "`ir` prints the IR; vxbin writes a compute shader's Vortex kernel to -o")
	outPath := fs.String("o", "", "output `FILE` of --emit vxbin")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex glsl [--stage vert|frag|comp] [--version N] [--emit ir|vxbin -o FILE] [--include /PATH=FILE]... [--include-path /DIR]... FILE...")
		fmt.Fprintln(stderr, "Compiles GLSL shaders and prints the IR or the errors, or writes a compute shader's .vxbin kernel.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if incErr != nil {
			return 1
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *stage != "" && *stage != "vert" && *stage != "frag" && *stage != "comp" {
		fmt.Fprintf(stderr, "vortex glsl: --stage must be vert or frag (or comp), not %q\n", *stage)
		return 2
	}
	switch {
	case *emit != "ir" && *emit != "vxbin":
		fmt.Fprintf(stderr, "vortex glsl: --emit must be ir or vxbin, not %q\n", *emit)
		return 2
	case *emit == "vxbin" && (*outPath == "" || fs.NArg() != 1):
		fmt.Fprintln(stderr, "vortex glsl: --emit vxbin takes one compute shader and -o FILE")
		return 2
	}
	code := 0
	for _, path := range fs.Args() {
		st, ok := glslStage(*stage, path)
		if !ok {
			fmt.Fprintf(stderr, "%s: error: cannot tell the stage from the extension; use --stage vert|frag\n", path)
			code = 1
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "%s: error: %v\n", path, err)
			code = 1
			continue
		}
		cp, err := shader.Compile(shader.Source{Name: path, Stage: st, Text: string(src), Options: glsl.Options{DefaultVersion: *version, Includes: inc}})
		if err != nil {
			var list ast.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					fmt.Fprintln(stderr, e.Error())
				}
			} else {
				fmt.Fprintf(stderr, "%s: error: %v\n", path, err)
			}
			code = 1
			continue
		}
		for _, w := range cp.Warnings {
			fmt.Fprintln(stderr, w)
		}
		if *emit == "vxbin" {
			return emitVXBin(cp.Stage(st), path, *outPath, stdout, stderr)
		}
		if fs.NArg() > 1 {
			fmt.Fprintf(stdout, "# %s\n", path)
		}
		fmt.Fprint(stdout, cp.Stage(st).String())
	}
	return code
}

// glslStage picks the stage from the flag or the file extension.
func glslStage(flagStage, path string) (glsl.Stage, bool) {
	switch flagStage {
	case "vert":
		return glsl.Vertex, true
	case "frag":
		return glsl.Fragment, true
	case "comp":
		return glsl.Compute, true
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".comp", ".cs":
		return glsl.Compute, true
	case ".vert", ".vs":
		return glsl.Vertex, true
	case ".frag", ".fs":
		return glsl.Fragment, true
	}
	return 0, false
}

// emitVXBin compiles a compute program to a Vortex kernel, writes its .vxbin to out
// and prints the launch layout the kernel expects.
func emitVXBin(p *ir.Program, path, out string, stdout, stderr io.Writer) int {
	if p == nil || p.Stage != ir.Compute {
		fmt.Fprintf(stderr, "%s: error: --emit vxbin compiles compute shaders only\n", path)
		return 1
	}
	k, err := codegen.Compile(p)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", path, err)
		return 1
	}
	if err := os.WriteFile(out, k.VXBin(), 0o644); err != nil {
		fmt.Fprintf(stderr, "vortex glsl: %v\n", err)
		return 1
	}
	l := k.Layout
	var binds []string
	for _, b := range l.Bindings {
		binds = append(binds, fmt.Sprintf("%s %d", b.Kind, b.Slot))
	}
	fmt.Fprintf(stdout, "%s: %d instructions at 0x%08x; local size %dx%dx%d; %d uniform words; bindings [%s]; shared %d bytes, frame %d bytes per invocation, LMEM %d bytes; barrier %v\n",
		out, len(k.Code), k.Base, l.LocalSize[0], l.LocalSize[1], l.LocalSize[2], l.UniformWords, strings.Join(binds, ", "),
		l.SharedBytes, l.FrameBytes, l.LMemBytes(), l.Barrier)
	return 0
}
