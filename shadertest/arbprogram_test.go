package shadertest

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestARBCaps checks that the assembly extensions are claimed exactly on
// back ends with the GLSL 1.20 compatibility front end they translate into.
func TestARBCaps(t *testing.T) {
	for _, tc := range []struct {
		caps Caps
		want bool
	}{
		{Caps{GL: 33, GLSL: 330}, true},
		{Caps{GL: 21, GLSL: 120}, true},
		{Caps{GL: 21, GLSL: 110}, false},
		{Caps{GLES: 30, GLSLES: 300}, false},
	} {
		c := arbCaps(tc.caps)
		for _, e := range arbExtensions {
			if c.hasExtension(e) != tc.want {
				t.Errorf("%+v: %s claimed %v, want %v", tc.caps, e, c.hasExtension(e), tc.want)
			}
		}
		if len(tc.caps.Extensions) != 0 {
			t.Errorf("arbCaps changed its argument's extensions")
		}
	}
}

// TestTranslatePrograms checks the stage rules: a GLSL shader of a stage
// takes precedence over its assembly program, and of several programs of
// one target the last is bound.
func TestTranslatePrograms(t *testing.T) {
	r := &runner{caps: &Caps{Extensions: slices.Clone(arbExtensions)}}
	vp := func(colour string) Shader {
		return Shader{Stage: StageVertex, Assembly: true, Source: "!!ARBvp1.0\nMOV result.color, " + colour + ";\nEND\n"}
	}
	fp := Shader{Stage: StageFragment, Assembly: true, Source: "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n"}
	glslFS := Shader{Stage: StageFragment, Source: "void main() {}\n"}
	out, err := r.translatePrograms([]Shader{vp("{1, 0, 0, 1}"), fp, vp("{0, 1, 0, 1}"), glslFS})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Assembly || out[0].Stage != StageVertex || out[1] != glslFS {
		t.Fatalf("shaders %+v", out)
	}
	if r.arb.progs[0] == nil || r.arb.progs[1] != nil || r.arb.progs[0].GLSL != out[0].Source {
		t.Errorf("bound programs %+v", r.arb.progs)
	}
	if !strings.Contains(out[0].Source, "vec4(0.0, 1.0, 0.0, 1.0)") {
		t.Errorf("the first vertex program is bound:\n%s", out[0].Source)
	}
	// Without the extension the test skips, as compile_and_bind_program does.
	r = &runner{caps: &Caps{}}
	var s *stop
	if _, err := r.translatePrograms([]Shader{fp}); !errors.As(err, &s) || s.status != Skip {
		t.Errorf("fragment program without GL_ARB_fragment_program: %v, want a skip", err)
	}
}
