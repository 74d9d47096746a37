// Package shader is the compiler's one door: Compile takes the GLSL sources of a
// program and returns it as verified scalar IR, running the whole sequence every
// user of the compiler needs — the front end on each source (glsl.Compile:
// preprocess, parse, type-check), the link of all of them (glsl.LinkShaders:
// interface matching), and the lowering (lower.Lower: flattening to 32-bit words,
// optimisation, ir.Verify before and after). The driver (pipe), the compute
// runtime (compute), the piglit runners (shadertest) and the CLI call it instead
// of writing the sequence out, so they cannot drift apart (one forgetting to
// verify, another lowering a stage without its partner).
//
// It is its own package, above shader/glsl and shader/lower, because it is the
// only code that needs both: the front end knows nothing of the IR and the
// lowering takes an already linked program. The name reads as what the callers
// get: shader.Compile, a *shader.Program. spec: GLSL 4.50 §2 (the stages a
// program links), vortexpipe-driver §2.3.2 (a shader is translated once, at
// creation).
package shader

import (
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/ir"
	"vortexgfx/shader/lower"
)

// Source is one shader object: the GLSL text of one stage, the name its errors
// carry ("name:line:col: error: message") and the front-end options it compiles
// with. Each object has its own options, as each GL shader object is compiled on
// its own before the link.
type Source struct {
	Name    string
	Stage   glsl.Stage
	Text    string
	Options glsl.Options
}

// Program is a compiled program: the linked interface of the front end (uniform
// names and GLSL types, attributes, varyings, outputs, the compute local size) and
// its verified, optimised IR with the word layouts a renderer or the device
// addresses.
type Program struct {
	Linked *glsl.Program
	IR     *lower.Program
	// Version is the highest GLSL version (110, 300, ...) among the sources.
	Version int
	// Warnings are the sources' diagnostics that did not fail the compile
	// ("file:line:col: warning: message"), in source order.
	Warnings []string
}

// Stage returns the IR program of one stage, nil when the program has none.
func (p *Program) Stage(st glsl.Stage) *ir.Program {
	switch st {
	case glsl.Vertex:
		return p.IR.VS
	case glsl.Fragment:
		return p.IR.FS
	case glsl.Compute:
		return p.IR.CS
	case glsl.Geometry:
		return p.IR.GS
	}
	return nil
}

// Phase is the step of Compile that failed.
type Phase uint8

// The phases, in the order Compile runs them.
const (
	PhaseCompile Phase = iota // one source: preprocess, parse, type-check
	PhaseLink                 // the sources together: interface matching
	PhaseLower                // the linked program to IR (and its verification)
)

// Error is a failure of Compile. It prints exactly as the failing step's own
// error (usually an ast.ErrorList of "name:line:col: error: message" lines,
// which errors.As still finds), so the message a caller shows or a test matches
// does not depend on who ran the step; Phase and Source say where it failed.
type Error struct {
	Phase Phase
	// Source is the index of the failing source for PhaseCompile, else -1.
	Source int
	// Version is the highest GLSL version among the sources that compiled
	// (every source, for link and lower failures).
	Version int
	Err     error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the failing step's error.
func (e *Error) Unwrap() error { return e.Err }

// Compile compiles each source, links them into one program (a
// single source is linked on its own: its interface is laid out without a
// partner stage) and lowers the link to verified IR. Sources of one stage link
// together, as piglit links several objects of one stage; a compute source
// links only with other compute sources. Any failure is an *Error; Compile
// stops at the first.
func Compile(srcs ...Source) (*Program, error) {
	shaders := make([]*glsl.Shader, 0, len(srcs))
	version := 0
	var warnings []string
	for i, s := range srcs {
		sh, err := glsl.Compile(s.Name, s.Text, s.Stage, s.Options)
		if err != nil {
			return nil, &Error{Phase: PhaseCompile, Source: i, Version: version, Err: err}
		}
		shaders = append(shaders, sh)
		warnings = append(warnings, sh.File.Warnings...)
		if v, _ := sh.Version(); v > version {
			version = v
		}
	}
	lp, err := glsl.LinkShaders(shaders...)
	if err != nil {
		return nil, &Error{Phase: PhaseLink, Source: -1, Version: version, Err: err}
	}
	lo, err := lower.Lower(lp)
	if err != nil {
		return nil, &Error{Phase: PhaseLower, Source: -1, Version: version, Err: err}
	}
	return &Program{Linked: lp, IR: lo, Version: version, Warnings: warnings}, nil
}
