package lower

import (
	"context"
	"testing"

	"vortexgfx/shader/exec"
	"vortexgfx/shader/glsl"
)

// runUnits links the vertex units with the fragment source, lowers the
// program and runs its vertex stage on one lane with the uniform words
// given by slot name; it returns the program and the vertex stage's machine.
func runUnits(t *testing.T, fs string, uniforms map[string][]float32, vs ...string) (*Program, *exec.Machine) {
	t.Helper()
	var units []*glsl.Shader
	for i, src := range vs {
		sh, err := glsl.Compile("v", src, glsl.Vertex, glsl.Options{})
		if err != nil {
			t.Fatalf("vertex unit %d: %v", i, err)
		}
		units = append(units, sh)
	}
	f, err := glsl.Compile("f", fs, glsl.Fragment, glsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := glsl.LinkShaders(append(units, f)...)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Lower(lp)
	if err != nil {
		t.Fatal(err)
	}
	m, err := exec.New(prog.VS, exec.Config{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]uint32, prog.VS.UniformWords)
	for name, vals := range uniforms {
		setUniform(t, prog, buf, name, vals...)
	}
	if err := m.SetUniforms(buf); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(context.Background(), 1, 1); err != nil {
		t.Fatal(err)
	}
	return prog, m
}

// An output declared in two units of the vertex stage is one variable:
// each unit writes its part and the fragment input reads both (before, each
// unit had its own registers and slot, and the one stored last won).
// spec: GLSL 1.50 §4.3 (globals are shared by a stage's units), §4.3.7.
func TestOutputSharedAcrossUnits(t *testing.T) {
	const fs = "#version 150\nin blk { float a[2]; } ifc;\nin float b[2];\nout vec4 o;\nvoid main() { o = vec4(ifc.a[0], ifc.a[1], b[0], b[1]); }\n"
	for _, tc := range []struct {
		name string
		vs   []string
	}{
		{"named block, plain array", []string{
			"#version 150\nout blk { float a[2]; } ifc;\nout float b[2];\nvoid f();\nvoid main() { ifc.a[0] = 1.0; b[0] = 3.0; f(); gl_Position = vec4(0.0); }\n",
			"#version 150\nout blk { float a[2]; } ifc;\nout float b[2];\nvoid f() { ifc.a[1] = 2.0; b[1] = 4.0; }\n"}},
		{"another instance name, implicit sizes", []string{
			"#version 150\nout blk { float a[]; } ifc;\nout float b[2];\nvoid f();\nvoid main() { ifc.a[0] = 1.0; b[0] = 3.0; f(); gl_Position = vec4(0.0); }\n",
			"#version 150\nout blk { float a[]; } other;\nout float b[2];\nvoid f() { other.a[1] = 2.0; b[1] = 4.0; }\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, m := runUnits(t, fs, nil, tc.vs...)
			a, b := slot(t, prog.Varyings, "ifc"), slot(t, prog.Varyings, "b")
			if a.Words != 2 || b.Words != 2 {
				t.Fatalf("output slots %+v %+v, want 2 words each", a, b)
			}
			got := []float32{ff(m.Output(a.Word)[0]), ff(m.Output(a.Word + 1)[0]), ff(m.Output(b.Word)[0]), ff(m.Output(b.Word + 1)[0])}
			if got[0] != 1 || got[1] != 2 || got[2] != 3 || got[3] != 4 {
				t.Errorf("outputs = %v, want [1 2 3 4]", got)
			}
			n := 0
			for _, s := range prog.Varyings {
				if s.Name == "b" {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d slots named b, want 1", n)
			}
		})
	}
}

// A uniform block's instance is one uniform whatever instance name each
// unit gives it: a unit reading it under another name reads the words the
// program's name sets. spec: GLSL 1.50 §4.3.7.
func TestUniformBlockInstanceNamesAcrossUnits(t *testing.T) {
	const fs = "#version 150\nin vec4 col;\nout vec4 o;\nvoid main() { o = col; }\n"
	prog, m := runUnits(t, fs, map[string][]float32{"c": {1, 2, 3, 4}},
		"#version 150\nuniform ublk { vec4 color; } c;\nout vec4 col;\nvec4 get();\nvoid main() { col = vec4(c.color.x, get().yzw); gl_Position = vec4(0.0); }\n",
		"#version 150\nuniform ublk { vec4 color; } other;\nvec4 get() { return other.color; }\n")
	for _, s := range prog.Uniforms {
		if s.Name == "other" {
			t.Errorf("uniform slot %+v under the second unit's instance name: the block is one uniform", s)
		}
	}
	col := slot(t, prog.Varyings, "col")
	for k, want := range []float32{1, 2, 3, 4} {
		if got := ff(m.Output(col.Word + k)[0]); got != want {
			t.Errorf("col[%d] = %v, want %v", k, got, want)
		}
	}
}

// A fragment output declared in two units is one variable at one location:
// each unit writes its components (before, the second declaration took the
// next location and the first's components the other unit wrote were lost).
func TestFragmentOutputSharedAcrossUnits(t *testing.T) {
	var units []*glsl.Shader
	for i, src := range []string{
		"#version 150\nout vec4 color;\nvoid setG();\nvoid main() { color.rba = vec3(0.25, 0.5, 1.0); setG(); }\n",
		"#version 150\nout vec4 color;\nvoid setG() { color.g = 0.75; }\n",
	} {
		sh, err := glsl.Compile("f", src, glsl.Fragment, glsl.Options{})
		if err != nil {
			t.Fatalf("unit %d: %v", i, err)
		}
		units = append(units, sh)
	}
	lp, err := glsl.LinkShaders(units...)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Lower(lp)
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.FS.Outputs) != 1 || prog.FS.OutputWords != 4 {
		t.Fatalf("outputs %+v (%d words), want one vec4 at location 0", prog.FS.Outputs, prog.FS.OutputWords)
	}
	m, err := exec.New(prog.FS, exec.Config{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetUniforms(make([]uint32, prog.FS.UniformWords)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(context.Background(), 1, 1); err != nil {
		t.Fatal(err)
	}
	for k, want := range []float32{0.25, 0.75, 0.5, 1} {
		if got := ff(m.Output(k)[0]); got != want {
			t.Errorf("color[%d] = %v, want %v", k, got, want)
		}
	}
}
