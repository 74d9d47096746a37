package reference

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/shadertest"
)

// TestShaderTestFiles runs the shader_test files of testdata end to end
// through the reference back end; each file's name starts with the result it
// must give (pass-, fail-, skip-).
func TestShaderTestFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.shader_test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	b := New()
	seen := map[shadertest.Status]bool{}
	for _, f := range files {
		want, _, _ := strings.Cut(filepath.Base(f), "-")
		r := shadertest.RunFile(context.Background(), f, b)
		if r.Status.String() != want {
			t.Errorf("%s: %s (%s), want %s", f, r.Status, r.Reason, want)
		}
		seen[r.Status] = true
	}
	if len(seen) != 3 {
		t.Errorf("results seen %v: the files should cover pass, fail and skip", seen)
	}
}

// TestRunSummary checks the runner's output lines over the directory.
func TestRunSummary(t *testing.T) {
	var sb strings.Builder
	sum, err := shadertest.Run(context.Background(), []string{"testdata"}, New(), shadertest.Options{Jobs: 2}, &sb)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(sb.String(), sum.Line()+"\n") || sum.Passed == 0 || sum.Failed == 0 || sum.Skipped == 0 {
		t.Errorf("summary %+v, output:\n%s", sum, sb.String())
	}
}

// TestCompileAndLinkErrors distinguishes compile errors (the test fails)
// from link errors (a "link error" test passes).
func TestCompileAndLinkErrors(t *testing.T) {
	ctx, err := New().NewContext(context.Background(), shadertest.ContextConfig{Width: 4, Height: 4,
		GLSL: shadertest.Version{Num: 110}, GL: shadertest.Version{Num: 21}})
	if err != nil {
		t.Fatal(err)
	}
	bad := &shadertest.Program{Shaders: []shadertest.Shader{{Stage: shadertest.StageFragment, Source: "void main() { nope; }\n"}}}
	if _, ok := ctx.Link(bad).(*shadertest.CompileError); !ok {
		t.Errorf("compile error not reported as *CompileError")
	}
	twoMains := &shadertest.Program{Shaders: []shadertest.Shader{
		{Stage: shadertest.StageFragment, Source: "void main() { gl_FragColor = vec4(1.0); }\n"},
		{Stage: shadertest.StageFragment, Source: "void main() { gl_FragColor = vec4(0.0); }\n"}}}
	if _, ok := ctx.Link(twoMains).(*shadertest.LinkError); !ok {
		t.Errorf("link error not reported as *LinkError")
	}
}

// TestMultisampleCaps pins what the runner advertises for multisampling:
// the sample-shading extensions and GL_MAX_SAMPLES = 16, the largest count
// the targets take (gl/msaa).
func TestMultisampleCaps(t *testing.T) {
	c := New().Caps()
	for _, e := range []string{"GL_ARB_sample_shading", "GL_OES_sample_variables", "GL_OES_shader_multisample_interpolation"} {
		found := false
		for _, x := range c.Extensions {
			found = found || x == e
		}
		if !found {
			t.Errorf("%s not advertised", e)
		}
	}
	if got := c.Limits["GL_MAX_SAMPLES"]; got != 16 {
		t.Errorf("GL_MAX_SAMPLES = %d, want 16", got)
	}
}
