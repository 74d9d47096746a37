package glsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
)

func mustCompile(t *testing.T, name, src string, stage Stage) *Shader {
	t.Helper()
	s, err := Compile(name, src, stage, Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestLink covers interface matching. spec: GLSL 4.50 §4.3.4-§4.3.5, §7 (linking).
func TestLink(t *testing.T) {
	tests := []struct {
		name   string
		vs, fs string
		want   string
	}{
		{"legacy varyings",
			"varying vec2 uv; uniform mat4 mvp; attribute vec4 pos; void main() { uv = pos.xy; gl_Position = mvp * pos; }",
			"varying vec2 uv; uniform sampler2D s; void main() { gl_FragColor = texture2D(s, uv); }", ""},
		{"missing output",
			"void main() { gl_Position = vec4(0.0); }",
			"varying vec2 uv; void main() { gl_FragColor = vec4(uv, 0.0, 1.0); }",
			"fragment shader input 'uv' is not written by the vertex shader"},
		{"unused missing output is fine",
			"void main() { gl_Position = vec4(0.0); }",
			"varying vec2 uv; void main() { gl_FragColor = vec4(1.0); }", ""},
		{"type mismatch",
			"varying vec3 uv; void main() { uv = vec3(0.0); gl_Position = vec4(0.0); }",
			"varying vec2 uv; void main() { gl_FragColor = vec4(uv, 0.0, 1.0); }",
			"has type vec2 but the vertex shader output has type vec3"},
		{"interpolation mismatch",
			"#version 130\nflat out float v; void main() { v = 1.0; gl_Position = vec4(0.0); }",
			"#version 130\nsmooth in float v; out vec4 c; void main() { c = vec4(v); }",
			"interpolation qualifiers of 'v' differ"},
		{"redeclared gl_Color needs matching gl_FrontColor (GLSL 1.30 §4.3.7)",
			"#version 130\nvoid main() { gl_Position = vec4(0); gl_FrontColor = vec4(0); }",
			"#version 130\nsmooth in vec4 gl_Color; out vec4 c; void main() { c = gl_Color; }",
			"interpolation qualifier of 'gl_FrontColor' does not match that of 'gl_Color'"},
		{"colours redeclared alike",
			"#version 130\nflat out vec4 gl_FrontColor; void main() { gl_Position = vec4(0); gl_FrontColor = vec4(0); }",
			"#version 130\nflat in vec4 gl_Color; out vec4 c; void main() { c = gl_Color; }", ""},
		{"unused gl_Color takes no part",
			"#version 130\nvoid main() { gl_Position = vec4(0); gl_BackColor = vec4(0); }",
			"#version 130\nflat in vec4 gl_Color; out vec4 c; void main() { c = vec4(1.0); }", ""},
		{"match by location",
			"#version 410\nlayout(location = 3) out vec4 a; void main() { a = vec4(1.0); gl_Position = a; }",
			"#version 410\nlayout(location = 3) in vec4 b; out vec4 c; void main() { c = b; }", ""},
		{"uniform type mismatch",
			"uniform vec4 u; void main() { gl_Position = u; }",
			"uniform vec3 u; void main() { gl_FragColor = vec4(u, 1.0); }",
			"uniform 'u' declared as vec3 and as vec4"},
		{"duplicate output location",
			"#version 330\nvoid main() { gl_Position = vec4(0.0); }",
			"#version 330\nlayout(location = 0) out vec4 a; layout(location = 0) out vec4 b; void main() { a = b = vec4(1.0); }",
			"uses location 0 already used by 'a'"},
		{"dual-source outputs share a location",
			"#version 330\nvoid main() { gl_Position = vec4(0.0); }",
			"#version 330\nlayout(location = 0) out vec4 a; layout(location = 0, index = 1) out vec4 b; void main() { a = b = vec4(1.0); }", ""},
		{"duplicate index-1 location",
			"#version 330\nvoid main() { gl_Position = vec4(0.0); }",
			"#version 330\nlayout(location = 0, index = 1) out vec4 a; layout(location = 0, index = 1) out vec4 b; void main() { a = b = vec4(1.0); }",
			"uses location 0 index 1 already used by 'a'"},
		{"ES outputs need locations",
			"#version 300 es\nvoid main() { gl_Position = vec4(0.0); }",
			"#version 300 es\nprecision mediump float;\nout vec4 a; out vec4 b; void main() { a = b = vec4(1.0); }",
			"needs layout(location) when there are several outputs"},
		{"no main",
			"void f() {}",
			"void main() { gl_FragColor = vec4(1.0); }",
			"vertex shader has no main() function"},
		{"unresolved function",
			"void f(); void main() { f(); gl_Position = vec4(0.0); }",
			"void main() { gl_FragColor = vec4(1.0); }",
			"unresolved function 'f()'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := mustCompile(t, "a.vert", tc.vs, Vertex)
			fs := mustCompile(t, "b.frag", tc.fs, Fragment)
			p, err := Link(vs, fs)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected link error: %v", err)
				}
				if p.Vertex.Main == nil || p.Fragment.Main == nil {
					t.Fatal("main not resolved")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestLinkUnits links several sources of one stage, as piglit does.
func TestLinkUnits(t *testing.T) {
	a := mustCompile(t, "a.vert", "vec4 f(float x); void main() { gl_Position = f(1.0); }", Vertex)
	b := mustCompile(t, "b.vert", "vec4 f(float x) { return vec4(x); }", Vertex)
	fs := mustCompile(t, "c.frag", "void main() { gl_FragColor = vec4(1.0); }", Fragment)
	p, err := LinkShaders(a, b, fs)
	if err != nil {
		t.Fatal(err)
	}
	var call *ast.Func
	for _, f := range a.File.Funcs {
		if f.Name == "f" {
			call = f
		}
	}
	if d := p.Vertex.Def(call); d == nil || d.Name != "f" {
		t.Fatalf("prototype not resolved to the other unit's definition: %v", d)
	}
	c := mustCompile(t, "d.vert", "vec4 f(float x) { return vec4(2.0); }", Vertex)
	if _, err := LinkShaders(a, b, c, fs); err == nil || !strings.Contains(err.Error(), "defined in more than one shader") {
		t.Fatalf("error = %v, want multiple definition", err)
	}
}

func TestCompileErrorFormat(t *testing.T) {
	_, err := Compile("bad.frag", "void main() {\n  gl_FragColor = vec3(1.0);\n}", Fragment, Options{})
	if err == nil {
		t.Fatal("expected an error")
	}
	want := "bad.frag:2:16: error: cannot convert from vec3 to vec4 to assign"
	if err.Error() != want {
		t.Fatalf("got %q, want %q", err, want)
	}
}

// TestStandardDerivatives checks GL_OES_standard_derivatives in GLSL ES 1.00.
func TestStandardDerivatives(t *testing.T) {
	src := "#version 100\nprecision mediump float;\nvoid main() { gl_FragColor = vec4(dFdx(1.0)); }"
	if _, err := Compile("a.frag", src, Fragment, Options{}); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Fatalf("without the extension: %v", err)
	}
	ext := "#version 100\n#extension GL_OES_standard_derivatives : enable\n#ifdef GL_OES_standard_derivatives\n" +
		"precision mediump float;\n#endif\nvoid main() { gl_FragColor = vec4(dFdx(1.0), dFdy(1.0), fwidth(1.0), 1.0); }"
	mustCompile(t, "b.frag", ext, Fragment)
}

func FuzzCompile(f *testing.F) {
	f.Add("void main() { gl_Position = vec4(1.0); }", true)
	// The extensions and GLSL 1.50 rules of the front end.
	f.Add("#version 130\n#extension GL_ARB_shading_language_420pack : require\n#extension GL_ARB_uniform_buffer_object : require\n"+
		"#extension GL_ARB_explicit_uniform_location : require\nlayout(std140, binding = 1) uniform B { layout(row_major) mat2 m; vec2 v[2]; } b;\n"+
		"layout(location = 3) uniform float u[2];\nvoid main() { const float k = u[1]; vec2 w = {k, b.v[1].y}; gl_Position = vec4(b.m * w, k.xx); }", true)
	f.Add("#version 150\nout gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[2]; };\nvoid main() { gl_Position = vec4(0.0); gl_ClipDistance[1] = 1.0; }", true)
	f.Add("#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\nout vec4 c;\nvoid main() { c = gl_FragCoord; }", false)
	f.Add("#version 120\n#extension GL_ARB_arrays_of_arrays : require\n#extension GL_EXT_texture_array : require\n"+
		"uniform sampler2DArray s[2][2];\nvoid main() { gl_FragColor = texture2DArray(s[1][0], vec3(0.5)); }", false)
	f.Add("#version 150\n#extension GL_ARB_gpu_shader5 : require\nuniform sampler2D s[2]; uniform ivec2 o; uniform int n; sample in vec2 uv; out vec4 c;\n"+
		"float f(int a, float b) { return b; } float f(float a, float b) { return a; }\n"+
		"void main() { precise float x = fma(uv.x, uv.y, f(n, 1)); uint u = n; c = textureGatherOffset(s[n], uv, o, 3) * x + vec4(gl_SampleMaskIn[0] + int(u)); }", false)
	f.Fuzz(func(t *testing.T, src string, vertex bool) {
		stage := Fragment
		if vertex {
			stage = Vertex
		}
		s, err := Compile("fuzz", src, stage, Options{})
		if err == nil && s == nil {
			t.Fatal("nil shader without error")
		}
		if err != nil && strings.Contains(err.Error(), "internal compiler error") {
			t.Fatalf("checker bug: %v", err)
		}
		if err == nil {
			if verr := types.Verify(s.File); verr != nil {
				t.Fatalf("checked tree breaks the contract: %v", verr)
			}
		}
	})
}

// TestRealShaders compiles and links complete programs from testdata/shaders.
func TestRealShaders(t *testing.T) {
	for _, pair := range [][2]string{{"noise.vert", "noise.frag"}, {"es300.vert", "es300.frag"}} {
		var sh [2]*Shader
		for i, name := range pair {
			src, err := os.ReadFile(filepath.Join("testdata", "shaders", name))
			if err != nil {
				t.Fatal(err)
			}
			stage := Vertex
			if i == 1 {
				stage = Fragment
			}
			sh[i] = mustCompile(t, name, string(src), stage)
		}
		p, err := Link(sh[0], sh[1])
		if err != nil {
			t.Fatalf("%v: %v", pair, err)
		}
		if len(p.Varyings) == 0 || len(p.Uniforms) == 0 {
			t.Errorf("%v: no varyings or uniforms linked", pair)
		}
	}
}

// BenchmarkCompileNoise measures compiling the procedural-noise fragment shader.
func BenchmarkCompileNoise(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "shaders", "noise.frag"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile("noise.frag", string(src), Fragment, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// Globals declared in several units of one stage must be declared alike.
// spec: GLSL 1.20 §4.3, §4.1.9 (piglit's glsl-1.10/1.20 linker tests)
func TestLinkUnitsGlobals(t *testing.T) {
	main := "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n"
	for _, tc := range []struct {
		name, other, want string
	}{
		{"same constant initialiser", "#version 120\nconst float k = 1.0; float g = 2.0;\nvoid f1() {}\n", ""},
		{"different constant", "#version 120\nconst float k = 2.0;\nvoid f1() {}\n", "initialised to different values"},
		{"repeated non-constant initialiser", "#version 120\nuniform float a; float h = sin(a);\nvoid f1() {}\n", "only constant initialisers may be repeated"},
		{"centroid mismatch", "#version 120\nvarying float v;\nvoid f1() {}\n", "declared centroid in one shader"},
		{"invariant mismatch", "#version 120\ninvariant varying float w;\nvoid f1() {}\n", "declared invariant in one shader"},
		{"implicit size beyond explicit", "#version 120\nvarying vec4 c[];\nvoid f1() { c[3] = vec4(1.0); }\n", "indexed up to 3 here but declared with size 3"},
	} {
		a := mustCompile(t, "a.vert", main+"const float k = 1.0; float g = 2.0; uniform float a; float h = sin(a);\ncentroid varying float v; varying float w; varying vec4 c[3];\n", Vertex)
		b := mustCompile(t, "b.vert", tc.other, Vertex)
		_, err := LinkShaders(a, b)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
