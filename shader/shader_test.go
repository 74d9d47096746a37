package shader

import (
	"errors"
	"testing"

	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
)

const (
	vs = "#version 130\nin vec4 p;\nout vec4 c;\nvoid main() { gl_Position = p; c = p; }\n"
	fs = "#version 300 es\nprecision mediump float;\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"
)

// TestCompile compiles a pair to IR: both stages present and verified, the
// highest version recorded.
func TestCompile(t *testing.T) {
	p, err := Compile(Source{Name: "a.vert", Stage: glsl.Vertex, Text: vs},
		Source{Name: "a.frag", Stage: glsl.Fragment, Text: fs})
	if err != nil {
		t.Fatal(err)
	}
	if p.Stage(glsl.Vertex) == nil || p.Stage(glsl.Fragment) == nil || p.Stage(glsl.Compute) != nil {
		t.Fatalf("stages: VS %v FS %v CS %v", p.IR.VS != nil, p.IR.FS != nil, p.IR.CS != nil)
	}
	if p.Version != 300 {
		t.Errorf("Version %d, want 300", p.Version)
	}
	if p.Linked == nil || len(p.Linked.Varyings) == 0 {
		t.Errorf("linked interface missing its varyings")
	}
}

// TestErrorKeepsTheStepsMessage checks each failing phase: the error prints
// exactly as the failing step's own error, and says which phase and source.
func TestErrorKeepsTheStepsMessage(t *testing.T) {
	bad := "void main() { gl_FragColor = undeclared; }\n"
	_, want := glsl.Compile("b.frag", bad, glsl.Fragment, glsl.Options{})
	_, err := Compile(Source{Name: "a.vert", Stage: glsl.Vertex, Text: vs}, Source{Name: "b.frag", Stage: glsl.Fragment, Text: bad})
	var e *Error
	if !errors.As(err, &e) || e.Phase != PhaseCompile || e.Source != 1 || e.Version != 130 {
		t.Fatalf("compile failure: %#v", err)
	}
	if err.Error() != want.Error() {
		t.Errorf("compile failure prints %q, want %q", err, want)
	}
	var list ast.ErrorList
	if !errors.As(err, &list) {
		t.Errorf("the front end's ast.ErrorList is not in the chain")
	}

	noMain := "#version 130\nvoid f() {}\n"
	_, err = Compile(Source{Name: "c.vert", Stage: glsl.Vertex, Text: noMain})
	if !errors.As(err, &e) || e.Phase != PhaseLink || e.Source != -1 {
		t.Fatalf("link failure: %#v", err)
	}
	sh, _ := glsl.Compile("c.vert", noMain, glsl.Vertex, glsl.Options{})
	if _, lerr := glsl.LinkShaders(sh); lerr == nil || err.Error() != lerr.Error() {
		t.Errorf("link failure prints %q, want %v", err, lerr)
	}

	// The lowering refuses two storage blocks at one binding (GLSL lets them
	// alias one buffer; the descriptor layout has one block per binding).
	ssbo := "#version 430\nlayout(std430, binding = 0) buffer A { float x; };\nlayout(std430, binding = 0) buffer B { float y; };\nout vec4 o;\nvoid main() { o = vec4(x + y); }\n"
	_, err = Compile(Source{Name: "d.frag", Stage: glsl.Fragment, Text: ssbo})
	if !errors.As(err, &e) || e.Phase != PhaseLower || e.Version != 430 {
		t.Fatalf("lower failure: %#v", err)
	}
}
