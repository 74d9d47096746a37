package glsl

import (
	"strings"
	"testing"
)

// TestLinkUniformQualifiers covers the matching of uniforms and uniform blocks
// across stages: type and, in GLSL ES, precision down to struct members (GLSL
// ES 3.00 §4.3.5, GLSL ES 1.00 §4.5.3); block members, precisions and layout
// qualifiers (GLSL ES 3.00 §4.3.7, GLSL 4.50 §4.3.9, §4.4.5).
func TestLinkUniformQualifiers(t *testing.T) {
	const es3 = "#version 300 es\n"
	const es3fs = "#version 300 es\nprecision mediump float;\nout vec4 c;\n"
	tests := []linkCase{
		{"ES 3.00 uniform precision",
			es3 + "uniform highp vec4 u; void main() { gl_Position = u; }",
			es3fs + "uniform mediump vec4 u; void main() { c = vec4(1.0); }",
			"uniform 'u' is declared mediump and highp in different shaders"},
		{"ES 3.00 default precision counts",
			es3 + "uniform vec4 u; void main() { gl_Position = u; }",
			es3fs + "uniform vec4 u; void main() { c = u; }",
			"uniform 'u' is declared mediump and highp"},
		{"ES 3.00 struct member precision",
			es3 + "struct S { vec4 a; lowp vec4 b; }; uniform S s; void main() { gl_Position = s.a; }",
			es3fs + "struct S { highp vec4 a; mediump vec4 b; }; uniform S s; void main() { c = s.b; }",
			"uniform 's': member 's.b' is declared mediump and lowp in different shaders"},
		{"ES 3.00 nested struct member precision",
			es3 + "struct T { vec4 x; }; struct S { T t[2]; }; uniform S s; void main() { gl_Position = s.t[0].x; }",
			es3fs + "struct T { vec4 x; }; struct S { T t[2]; }; uniform S s; void main() { c = s.t[1].x; }",
			"member 's.t.x' is declared mediump and highp"},
		{"ES 3.00 struct precisions alike",
			es3 + "struct S { mediump vec4 a; int i; }; uniform S s; void main() { gl_Position = s.a; }",
			es3fs + "precision highp int;\nstruct S { vec4 a; int i; }; uniform S s; void main() { c = s.a; }", ""},
		{"ES 1.00 unused precision mismatch is fine",
			"#version 100\nstruct S { vec4 a; }; uniform S s; void main() { gl_Position = s.a; }",
			"#version 100\nprecision mediump float;\nstruct S { vec4 a; }; uniform S s; void main() { gl_FragColor = vec4(1.0); }", ""},
		{"ES 1.00 used struct member precision",
			"#version 100\nstruct S { vec4 a; }; uniform S s; void main() { gl_Position = s.a; }",
			"#version 100\nprecision mediump float;\nstruct S { vec4 a; }; uniform S s; void main() { gl_FragColor = s.a; }",
			"member 's.a' is declared mediump and highp"},
		{"desktop ignores precision",
			"#version 130\nstruct S { highp vec4 a; }; uniform S s; uniform lowp vec4 u; void main() { gl_Position = s.a + u; }",
			"#version 130\nstruct S { lowp vec4 a; }; uniform S s; uniform highp vec4 u; out vec4 c; void main() { c = s.a + u; }", ""},
		{"block member type",
			es3 + "uniform B { vec4 a; }; void main() { gl_Position = a; }",
			es3fs + "uniform B { vec3 a; }; void main() { c = vec4(a, 1.0); }",
			"interface block 'B' has different members"},
		{"block member precision",
			es3 + "uniform B { vec4 a; }; void main() { gl_Position = a; }",
			es3fs + "uniform B { vec4 a; }; void main() { c = a; }",
			"uniform block 'B': member 'a' is declared mediump and highp in different shaders"},
		{"block struct member precision",
			es3 + "struct S { vec4 x; }; uniform B { S s; }; void main() { gl_Position = s.x; }",
			es3fs + "struct S { vec4 x; }; uniform B { S s; }; void main() { c = s.x; }",
			"uniform block 'B': member 's.x' is declared mediump and highp"},
		{"block precisions alike",
			es3 + "uniform B { mediump vec4 a; }; void main() { gl_Position = a; }",
			es3fs + "uniform B { vec4 a; }; void main() { c = a; }", ""},
		{"block packing",
			"#version 140\nlayout(std140) uniform B { vec4 a; }; void main() { gl_Position = a; }",
			"#version 140\nuniform B { vec4 a; }; out vec4 c; void main() { c = a; }",
			"uniform block 'B' is declared shared and std140 in different shaders"},
		{"block packing from the default",
			"#version 140\nlayout(std140) uniform;\nuniform B { vec4 a; }; void main() { gl_Position = a; }",
			"#version 140\nlayout(std140) uniform B { vec4 a; }; out vec4 c; void main() { c = a; }", ""},
		{"block matrix order",
			"#version 140\nlayout(row_major) uniform B { mat4 m; vec4 a; }; void main() { gl_Position = m * a; }",
			"#version 140\nuniform B { mat4 m; vec4 a; }; out vec4 c; void main() { c = m[0]; }",
			"uniform block 'B': member 'm' is declared column_major and row_major in different shaders"},
		{"block member matrix order",
			es3 + "uniform B { layout(row_major) mat2 m; }; void main() { gl_Position = vec4(m[0], 0.0, 1.0); }",
			es3fs + "uniform B { highp mat2 m; }; void main() { c = vec4(m[0], 0.0, 1.0); }",
			"member 'm' is declared column_major and row_major"},
		{"block array size",
			es3 + "uniform B { vec4 a; } b[2]; void main() { gl_Position = b[1].a; }",
			es3fs + "uniform B { mediump vec4 a; } b[3]; void main() { c = b[2].a; }",
			"uniform block 'B' is declared as"},
		{"block array sizes alike",
			es3 + "uniform B { vec4 a; } b[2]; void main() { gl_Position = b[1].a; }",
			es3fs + "uniform B { highp vec4 a; } b[2]; void main() { c = b[0].a; }", ""},
		{"block array of arrays inner size",
			"#version 150\n#extension GL_ARB_arrays_of_arrays : enable\nuniform B { vec4 a; } b[2][5]; void main() { gl_Position = b[0][1].a; }",
			"#version 150\n#extension GL_ARB_arrays_of_arrays : enable\nuniform B { vec4 a; } other[2][4]; out vec4 c; void main() { c = other[0][2].a; }",
			"uniform block 'B' is declared as"},
		{"block array of arrays alike",
			"#version 150\n#extension GL_ARB_arrays_of_arrays : enable\nuniform B { vec4 a; } b[2][4]; void main() { gl_Position = b[0][1].a; }",
			"#version 150\n#extension GL_ARB_arrays_of_arrays : enable\nuniform B { vec4 a; } other[2][4]; out vec4 c; void main() { c = other[0][2].a; }", ""},
		{"row_major only matters for matrices",
			"#version 140\nlayout(row_major) uniform B { vec4 a; }; void main() { gl_Position = a; }",
			"#version 140\nuniform B { vec4 a; }; out vec4 c; void main() { c = a; }", ""},
		{"matrix order from the default",
			"#version 140\nlayout(row_major) uniform;\nuniform B { mat4 m; }; void main() { gl_Position = m[0]; }",
			"#version 140\nuniform B { layout(row_major) mat4 m; }; out vec4 c; void main() { c = m[0]; }", ""},
	}
	runLinkCases(t, tests)
}

// TestLinkBuiltinInvariance covers GLSL ES 1.00 §4.6.4: gl_FragCoord may be
// invariant only if gl_Position is, gl_PointCoord only if gl_PointSize is; the
// error names the fragment shader's redeclaration.
func TestLinkBuiltinInvariance(t *testing.T) {
	const fs = "#version 100\nprecision mediump float;\n"
	tests := []linkCase{
		{"FragCoord without Position",
			"#version 100\nvoid main() { gl_Position = vec4(0.0); }",
			fs + "invariant gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }",
			"b.frag:3:11: error: gl_FragCoord is declared invariant but gl_Position is not"},
		{"FragCoord with Position",
			"#version 100\ninvariant gl_Position;\nvoid main() { gl_Position = vec4(0.0); }",
			fs + "invariant gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }", ""},
		{"PointCoord without PointSize",
			"#version 100\nvoid main() { gl_PointSize = 1.0; gl_Position = vec4(0.0); }",
			fs + "invariant gl_PointCoord;\nvoid main() { gl_FragColor = vec4(gl_PointCoord, 0.0, 1.0); }",
			"gl_PointCoord is declared invariant but gl_PointSize is not"},
		{"PointCoord with PointSize",
			"#version 100\ninvariant gl_PointSize;\nvoid main() { gl_PointSize = 1.0; gl_Position = vec4(0.0); }",
			fs + "invariant gl_PointCoord;\nvoid main() { gl_FragColor = vec4(gl_PointCoord, 0.0, 1.0); }", ""},
		{"desktop GLSL 1.20 has no such rule",
			"#version 120\nvoid main() { gl_Position = vec4(0.0); }",
			"#version 120\ninvariant gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }", ""},
	}
	runLinkCases(t, tests)
}

// TestLinkUniformLocations covers explicit uniform locations and bindings
// across a program: one location and one binding per uniform, no overlap (an
// array takes one location per element, unused uniforms keep theirs).
// spec: GLSL 4.50 §4.4.3, §4.4.5, §4.4.6
func TestLinkUniformLocations(t *testing.T) {
	const vs = "#version 430\n"
	const fs = "#version 430\nout vec4 c;\n"
	tests := []linkCase{
		{"distinct locations",
			vs + "layout(location = 0) uniform vec4 a[2]; void main() { gl_Position = a[1]; }",
			fs + "layout(location = 2) uniform vec4 b; void main() { c = b; }", ""},
		{"array overlaps",
			vs + "layout(location = 0) uniform vec4 a[2]; void main() { gl_Position = a[1]; }",
			fs + "layout(location = 1) uniform vec4 b; void main() { c = b; }",
			"uniform 'b' at location 1 overlaps uniform 'a' (locations 0 to 1)"},
		{"unused uniforms keep their locations",
			vs + "layout(location = 0) uniform float big[128]; void main() { gl_Position = vec4(0.0); }",
			fs + "layout(location = 127) uniform vec4 b; void main() { c = b; }",
			"overlaps uniform 'big'"},
		{"one uniform, two locations",
			vs + "layout(location = 3) uniform vec4 u; void main() { gl_Position = u; }",
			fs + "layout(location = 4) uniform vec4 u; void main() { c = u; }",
			"uniform 'u' has explicit location 4 here and 3 in another shader"},
		{"struct members take a location each",
			vs + "struct S { vec4 x; mat4 m; }; layout(location = 0) uniform S s; void main() { gl_Position = s.x; }",
			fs + "layout(location = 2) uniform vec4 b; void main() { c = b; }", ""},
		{"beyond the limit",
			vs + "layout(location = 1020) uniform vec4 a[8]; void main() { gl_Position = a[0]; }",
			fs + "void main() { c = vec4(1.0); }",
			"beyond GL_MAX_UNIFORM_LOCATIONS (1024)"},
		{"sampler bindings differ",
			vs + "layout(binding = 0) uniform sampler2D s; void main() { gl_Position = texture(s, vec2(0.0)); }",
			fs + "layout(binding = 1) uniform sampler2D s; void main() { c = texture(s, vec2(0.0)); }",
			"uniform 's' has binding 1 here and 0 in another shader"},
		{"a binding on one declaration only",
			vs + "layout(binding = 3) uniform sampler2D s; void main() { gl_Position = texture(s, vec2(0.0)); }",
			fs + "uniform sampler2D s; void main() { c = texture(s, vec2(0.0)); }", ""},
		{"block bindings differ",
			vs + "layout(binding = 0) uniform B { vec4 a; }; void main() { gl_Position = a; }",
			fs + "layout(binding = 2) uniform B { vec4 a; }; void main() { c = a; }",
			"uniform block 'B' has binding 2 here and 0 in another shader"},
	}
	runLinkCases(t, tests)
}

// linkCase links one vertex and one fragment source; want is a substring of
// the link error, or "" when the link must succeed.
type linkCase struct {
	name   string
	vs, fs string
	want   string
}

func runLinkCases(t *testing.T, tests []linkCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := mustCompile(t, "a.vert", tc.vs, Vertex)
			fs := mustCompile(t, "b.frag", tc.fs, Fragment)
			_, err := Link(vs, fs)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected link error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
		})
	}
}
