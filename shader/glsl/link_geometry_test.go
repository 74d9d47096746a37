package glsl

import (
	"strings"
	"testing"
)

// TestLinkGeometry covers linking a vertex, a geometry and a fragment shader:
// the merged geometry layout, the VS→GS per-vertex inputs and the GS→FS
// varyings, and the errors GLSL 1.50 §4.3.4 and §4.3.8 give.
func TestLinkGeometry(t *testing.T) {
	const vs = "#version 150\nin vec4 p; out vec4 col; out VB { vec2 tc; } vb; void main() { gl_Position = p; col = p; vb.tc = p.xy; }"
	const fs = "#version 150\nin vec4 gcol; out vec4 o; void main() { o = gcol; }"
	const gsHead = "#version 150\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n"
	const gsBody = "in vec4 col[]; in VB { vec2 tc; } vb[]; out vec4 gcol;\n" +
		"void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; gcol = col[i] + vec4(vb[i].tc, 0.0, 0.0); EmitVertex(); } }"
	tests := []struct {
		name    string
		gs      []string
		vs, fs  string
		wantErr string
	}{
		{"ok", []string{gsHead + gsBody}, vs, fs, ""},
		{"layout in another unit", []string{"#version 150\nlayout(triangles) in;\n", "#version 150\nlayout(triangle_strip, max_vertices = 3) out;\n" + gsBody}, vs, fs, ""},
		{"no input primitive", []string{"#version 150\nlayout(triangle_strip, max_vertices = 3) out;\n" + gsBody}, vs, fs,
			"does not declare its input primitive"},
		{"no output primitive", []string{"#version 150\nlayout(triangles) in;\nlayout(max_vertices = 3) out;\n" + gsBody}, vs, fs,
			"does not declare its output primitive"},
		{"no max_vertices", []string{"#version 150\nlayout(triangles) in;\nlayout(triangle_strip) out;\n" + gsBody}, vs, fs,
			"does not declare max_vertices"},
		{"units disagree", []string{"#version 150\nlayout(points) in;\n", gsHead + gsBody}, vs, fs,
			"geometry input primitive triangles conflicts with points"},
		{"input sized in another unit", []string{"#version 150\nin vec4 col[2]; vec4 f() { return col[0]; }\n", gsHead + gsBody}, vs, fs,
			"geometry shader input 'col' has size 2 but the input primitive triangles has 3 vertices"},
		{"VS→GS type", []string{gsHead + gsBody}, "#version 150\nin vec4 p; out vec3 col; out VB { vec2 tc; } vb; void main() { gl_Position = p; col = p.xyz; vb.tc = p.xy; }", fs,
			"geometry shader input 'col' has type vec4 but the vertex shader output has type vec3"},
		{"no vertex shader", []string{gsHead + gsBody}, "", fs, "needs a vertex shader"},
		{"GS→FS missing", []string{gsHead + gsBody}, vs, "#version 150\nin vec4 col; out vec4 o; void main() { o = col; }",
			"fragment shader input 'col' is not written by the geometry shader"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var units []*Shader
			for i, src := range append([]string{tc.vs, tc.fs}, tc.gs...) {
				if src == "" {
					continue
				}
				stage := []Stage{Vertex, Fragment}[min(i, 1)]
				if i >= 2 {
					stage = Geometry
				}
				sh, err := Compile("u.glsl", src, stage, Options{})
				if err != nil {
					t.Fatalf("unit %d: %v", i, err)
				}
				units = append(units, sh)
			}
			p, err := LinkShaders(units...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.GeometryLayout.Input != "triangles" || p.GeometryLayout.Output != "triangle_strip" || p.GeometryLayout.MaxVertices != 3 {
				t.Errorf("layout %+v", p.GeometryLayout)
			}
			if len(p.GeometryInputs) != 2 || len(p.Varyings) != 1 || p.Varyings[0].Name != "gcol" {
				t.Errorf("GS inputs %d (want 2), varyings %+v (want gcol)", len(p.GeometryInputs), p.Varyings)
			}
		})
	}
}

// TestLinkFragCoordLayout: every fragment shader of a program that uses
// gl_FragCoord redeclares it alike once one does (GLSL 1.50 §4.3.8.1).
func TestLinkFragCoordLayout(t *testing.T) {
	const vs = "#version 150\nin vec4 p; void main() { gl_Position = p; }"
	const mainFS = "#version 150\nout vec4 o; float z(); void main() { o = vec4(z()); }"
	tests := []struct {
		name, a, want string
	}{
		{"same", "#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord; float z() { return gl_FragCoord.z; }", ""},
		{"conflicting", "#version 150\nlayout(pixel_center_integer) in vec4 gl_FragCoord; float z() { return gl_FragCoord.z; }", "is redeclared with layout(pixel_center_integer)"},
		{"missing", "#version 150\nfloat z() { return gl_FragCoord.z; }", "is used without the redeclaration"},
		{"unused elsewhere", "#version 150\nfloat z() { return 1.0; }", ""},
	}
	for _, tc := range tests {
		checkFragmentUnitsLink(t, tc.name, vs, []string{mainFS + "\nlayout(origin_upper_left) in vec4 gl_FragCoord; float w() { return gl_FragCoord.x; }", tc.a}, tc.want)
	}
}

// checkFragmentUnitsLink links vs with the fragment units fs and checks the
// result: success when want is "", else an error containing want.
func checkFragmentUnitsLink(t *testing.T, name, vs string, fs []string, want string) {
	t.Helper()
	units := make([]*Shader, 0, 1+len(fs))
	for i, src := range append([]string{vs}, fs...) {
		st := Fragment
		if i == 0 {
			st = Vertex
		}
		sh, err := Compile("u", src, st, Options{})
		if err != nil {
			t.Fatalf("%s: unit %d: %v", name, i, err)
		}
		units = append(units, sh)
	}
	_, err := LinkShaders(units...)
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v", name, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: got %v, want %q", name, err, want)
	}
}

// TestLinkPerVertex covers the gl_PerVertex redeclaration rules across units
// and stages, unsized per-vertex inputs sized by another unit's primitive,
// and instance-array agreement of a stage's blocks (GLSL 1.50 §7.1, §4.3.7).
func TestLinkPerVertex(t *testing.T) {
	const fs = "#version 150\nout vec4 o; void main() { o = vec4(1.0); }"
	const gsOK = "#version 150\nlayout(triangles) in; layout(triangle_strip, max_vertices = 3) out;\n" +
		"in gl_PerVertex { vec4 gl_Position; } gl_in[];\nvoid main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }"
	const gsPlain = "#version 150\nlayout(triangles) in; layout(triangle_strip, max_vertices = 3) out;\n" +
		"void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }"
	const vsRedecl = "#version 150\nin vec4 p; out gl_PerVertex { vec4 gl_Position; };\nvoid main() { gl_Position = p; }"
	type unit struct {
		st  Stage
		src string
	}
	tests := []struct {
		name  string
		units []unit
		want  string
	}{
		{"VS and GS alike", []unit{{Vertex, vsRedecl}, {Geometry, gsOK}, {Fragment, fs}}, ""},
		{"GS must redeclare gl_in", []unit{{Vertex, vsRedecl}, {Geometry, gsPlain}, {Fragment, fs}}, "must redeclare it alike"},
		{"GS redeclares other members", []unit{{Vertex, vsRedecl}, {Geometry, strings.Replace(gsOK, "vec4 gl_Position; }", "vec4 gl_Position; float gl_PointSize; }", 1)}, {Fragment, fs}},
			"but the vertex shader's output block has gl_Position"},
		{"a VS unit uses a member without the redeclaration", []unit{{Vertex, "#version 150\nin vec4 p; out gl_PerVertex { vec4 gl_Position; };\nvoid f();\nvoid main() { f(); gl_Position = p; }"},
			{Vertex, "#version 150\nvoid f() { gl_PointSize = 1.0; }"}, {Fragment, fs}}, "must redeclare it alike"},
		{"unsized input indexed past the primitive", []unit{{Vertex, "#version 150\nin vec4 p; out vec4 c; void main() { gl_Position = p; c = p; }"},
			{Geometry, "#version 150\nlayout(lines) in; layout(points, max_vertices = 1) out;\nvoid g();\nvoid main() { g(); }"},
			{Geometry, "#version 150\nin vec4 c[];\nvoid g() { gl_Position = c[2]; EmitVertex(); }"}, {Fragment, fs}}, "is indexed at 2 but the input primitive lines has 2 vertices"},
		{"block array in one unit only", []unit{{Vertex, "#version 150\nout B { vec4 x; };\nvoid f() { x = vec4(1.0); }"},
			{Vertex, "#version 150\nout B { vec4 x; } b[3];\nvoid f();\nvoid main() { f(); b[0].x = vec4(0.0); gl_Position = vec4(0.0); }"}, {Fragment, fs}},
			"is an instance array in one shader and not in another"},
	}
	for _, tc := range tests {
		var units []*Shader
		for i, u := range tc.units {
			sh, err := Compile("u", u.src, u.st, Options{})
			if err != nil {
				t.Fatalf("%s: unit %d: %v", tc.name, i, err)
			}
			units = append(units, sh)
		}
		_, err := LinkShaders(units...)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestLinkInvariance: from GLSL 1.50 an output and the next stage's input
// agree on invariance (GLSL 1.50 §4.6.1); GLSL 1.30 fragment inputs cannot be
// invariant, so there the rule does not apply.
func TestLinkInvariance(t *testing.T) {
	for _, tc := range []struct {
		name, vs, fs, want string
	}{
		{"1.50 mismatch", "#version 150\ninvariant out vec4 c; void main() { c = vec4(0.0); gl_Position = c; }",
			"#version 150\nin vec4 c; out vec4 o; void main() { o = c; }", "is invariant in the vertex shader and not in the fragment shader"},
		{"1.50 alike", "#version 150\ninvariant out vec4 c; void main() { c = vec4(0.0); gl_Position = c; }",
			"#version 150\ninvariant in vec4 c; out vec4 o; void main() { o = c; }", ""},
		{"1.30", "#version 130\ninvariant out vec4 c; void main() { c = vec4(0.0); gl_Position = c; }",
			"#version 130\nin vec4 c; void main() { gl_FragColor = c; }", ""},
	} {
		v, err := Compile("v", tc.vs, Vertex, Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Compile("f", tc.fs, Fragment, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = LinkShaders(v, f)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestLinkFragDepthLayout: every fragment shader of a program that writes
// gl_FragDepth redeclares it with the same conservative-depth layout once one
// does; a unit that only reads other outputs need not redeclare it.
// spec: GLSL 4.20 §4.4.2.3, AMD_conservative_depth
func TestLinkFragDepthLayout(t *testing.T) {
	const ext = "#version 130\n#extension GL_AMD_conservative_depth : require\n"
	const vs = "#version 130\nin vec4 p; void main() { gl_Position = p; }"
	const mainFS = ext + "layout(depth_less) out float gl_FragDepth;\nvoid foo(); void main() { gl_FragDepth = gl_FragCoord.z; foo(); }"
	tests := []struct {
		name, a, want string
	}{
		{"same", ext + "layout(depth_less) out float gl_FragDepth; void foo() { gl_FragDepth = 0.5; }", ""},
		{"mismatched", ext + "layout(depth_greater) out float gl_FragDepth; void foo() { gl_FragDepth = 0.5; }",
			"gl_FragDepth is redeclared with layout(depth_greater) here and layout(depth_less)"},
		{"written without the redeclaration", "#version 130\nvoid foo() { gl_FragDepth = 0.5; }",
			"gl_FragDepth is written without the redeclaration"},
		{"no write, no redeclaration", "#version 130\nvoid foo() { gl_FragColor = vec4(1.0); }", ""},
	}
	for _, tc := range tests {
		checkFragmentUnitsLink(t, tc.name, vs, []string{mainFS, tc.a}, tc.want)
	}
}
