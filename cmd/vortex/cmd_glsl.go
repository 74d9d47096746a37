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
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
)

// runGLSL implements `vortex glsl [--stage vert|frag] [--version N] [--include
// /PATH=FILE]... [--include-path /DIR]... FILE...`: it
// compiles each file (the stage from its extension unless given), prints the
// optimised IR on success or the errors as "file:line:col: error: message", and
// exits 0 only when every file compiled. The command is documented in the README
// ("vortex glsl").
func runGLSL(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vortex glsl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stage := fs.String("stage", "", "shader stage `vert|frag` (default: from the file extension)")
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
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vortex glsl [--stage vert|frag] [--version N] [--include /PATH=FILE]... [--include-path /DIR]... FILE...")
		fmt.Fprintln(stderr, "Compiles GLSL vertex/fragment shaders and prints the IR or the errors.")
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
	if *stage != "" && *stage != "vert" && *stage != "frag" {
		fmt.Fprintf(stderr, "vortex glsl: --stage must be vert or frag, not %q\n", *stage)
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
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".vert", ".vs":
		return glsl.Vertex, true
	case ".frag", ".fs":
		return glsl.Fragment, true
	}
	return 0, false
}
