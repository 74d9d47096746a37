package glsl

import (
	"strings"
	"testing"
)

// TestLinkLocations covers the location rules of interface matching and
// aliasing with GL_ARB_enhanced_layouts and GL_ARB_separate_shader_objects:
// component aliasing, basic types of aliases, matching by location and
// component, block member locations. spec: GLSL 4.40 §4.4.1, OpenGL 4.5 §7.4.1.
func TestLinkLocations(t *testing.T) {
	const h = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n#extension GL_ARB_separate_shader_objects : require\n"
	const fsOut = "out vec4 c;\n"
	runLinkCases(t, []linkCase{
		{"components share a location",
			h + "layout(location = 0) out float x; layout(location = 0, component = 1) out vec3 y; void main() { gl_Position = vec4(0.0); x = 1.0; y = vec3(1.0); }",
			h + fsOut + "layout(location = 0, component = 1) in vec3 b; layout(location = 0) in float a; void main() { c = vec4(a, b); }", ""},
		{"component aliasing",
			h + "layout(location = 0, component = 1) out vec3 x; layout(location = 0, component = 3) out float y; void main() { gl_Position = vec4(0.0); x = vec3(1.0); y = 1.0; }",
			h + fsOut + "void main() { c = vec4(1.0); }", "vertex shader output 'y' uses location 0 already used by 'x' (component 3)"},
		{"array covers later locations",
			h + "layout(location = 0) out vec3 x[4]; layout(location = 3, component = 2) out float y; void main() { gl_Position = vec4(0.0); x[0] = vec3(1.0); y = 1.0; }",
			h + fsOut + "void main() { c = vec4(1.0); }", "'y' uses location 3 already used by 'x' (component 2)"},
		{"float and int alias",
			h + "layout(location = 0) flat out ivec2 x; layout(location = 0, component = 2) flat out vec2 y; void main() { gl_Position = vec4(0.0); x = ivec2(1); y = vec2(1.0); }",
			h + fsOut + "void main() { c = vec4(1.0); }", "shares location 0 with 'x' of another basic type"},
		{"int and uint alias",
			h + "layout(location = 0) flat out ivec2 x; layout(location = 0, component = 2) flat out uvec2 y; void main() { gl_Position = vec4(0.0); x = ivec2(1); y = uvec2(1u); }",
			h + fsOut + "void main() { c = vec4(1.0); }", ""},
		{"input component must match",
			h + "layout(location = 1, component = 1) out float x; void main() { gl_Position = vec4(0.0); x = 1.0; }",
			h + fsOut + "layout(location = 1, component = 2) in float x; void main() { c = vec4(x); }", "fragment shader input 'x' is not written"},
		{"location inside an output array is no match",
			h + "layout(location = 0) out vec4 x[2]; void main() { gl_Position = vec4(0.0); x[0] = vec4(1.0); x[1] = vec4(0.0); }",
			h + fsOut + "layout(location = 1) in vec4 x[2]; void main() { c = x[0]; }", "fragment shader input 'x' is not written"},
		{"unused unmatched input",
			h + "void main() { gl_Position = vec4(0.0); }",
			h + fsOut + "layout(location = 0) in vec4 x; void main() { c = vec4(1.0); }", ""},
		{"structs match by location and shape",
			h + "layout(location = 0) out struct S { vec4 a; } s; void main() { gl_Position = vec4(0.0); s.a = vec4(1.0); }",
			h + fsOut + "layout(location = 0) in struct T { vec4 a; } t; void main() { c = t.a; }", ""},
		{"blocks match by location",
			h + "layout(location = 2) out B2 { vec4 a; } n2; void main() { gl_Position = vec4(0.0); n2.a = vec4(1.0); }",
			h + fsOut + "layout(location = 2) in B { vec4 a; } n; void main() { c = n.a; }", ""},
		{"plain input reads a named block member by location",
			h + "layout(location = 0) out B { layout(location = 2) vec4 c; vec4 d; } blk; void main() { gl_Position = vec4(0.0); blk.c = vec4(1.0); blk.d = vec4(0.0); }",
			h + fsOut + "layout(location = 3) in vec4 d; void main() { c = d; }", ""},
		{"plain input and named block member of another type",
			h + "layout(location = 0) out B { layout(location = 2) vec4 c; vec4 d; } blk; void main() { gl_Position = vec4(0.0); blk.c = vec4(1.0); blk.d = vec4(0.0); }",
			h + fsOut + "layout(location = 3) in vec3 d; void main() { c = vec4(d, 1.0); }", "block member 'd' at its location has type vec4"},
		{"block member locations overlap",
			h + "layout(location = 0) out B { layout(location = 3) vec4 a; layout(location = 2) float f; float g; }; void main() { gl_Position = vec4(0.0); a = vec4(1.0); f = 1.0; g = 1.0; }",
			h + fsOut + "void main() { c = vec4(1.0); }", "'g' uses location 3 already used by 'a'"},
		{"block member components differ across stages",
			h + "out B { layout(location = 0) vec3 a; layout(location = 0, component = 3) float b; } blk; void main() { gl_Position = vec4(0.0); blk.a = vec3(1.0); blk.b = 1.0; }",
			h + fsOut + "in B { layout(location = 0, component = 1) vec3 a; layout(location = 0) float b; } blk; void main() { c = vec4(blk.a, blk.b); }",
			"interface block 'B' gives its members other locations or components"},
		// Desktop vertex inputs may alias components and mix basic types
		// (spec: GLSL 4.50 §4.4.1's one exception); GLSL ES 3.00 forbids it.
		{"vertex inputs alias components",
			h + "uniform int i; layout(location = 0, component = 1) in vec3 a; layout(location = 0, component = 3) in float b; void main() { gl_Position = i == 1 ? vec4(b) : vec4(a, 1.0); }",
			h + fsOut + "void main() { c = vec4(1.0); }", ""},
		{"vertex inputs mix basic types",
			h + "uniform int i; layout(location = 0) in uvec3 a; layout(location = 0, component = 3) in float b; void main() { gl_Position = i == 1 ? vec4(a, 1.0) : vec4(b); }",
			h + fsOut + "void main() { c = vec4(1.0); }", ""},
		{"GLSL ES 3.00 vertex inputs alias",
			"#version 300 es\nlayout(location = 0) in vec4 a; layout(location = 0) in vec4 b; void main() { gl_Position = a + b; }",
			"#version 300 es\nprecision mediump float; out vec4 c; void main() { c = vec4(1.0); }",
			"vertex shader input 'b' uses location 0 already used by 'a'"},
		{"fragment outputs share a target",
			"#version 150\n#extension GL_ARB_enhanced_layouts : require\nvoid main() { gl_Position = vec4(0.0); }",
			"#version 150\n#extension GL_ARB_enhanced_layouts : require\n#extension GL_ARB_explicit_attrib_location : require\n" +
				"layout(location = 0) out vec2 a; layout(location = 0, component = 2) out vec2 b; void main() { a = vec2(0.0); b = vec2(1.0); }", ""},
		{"uniform block offsets differ across stages",
			h + "layout(std140) uniform U { layout(offset = 16) vec4 u; }; void main() { gl_Position = u; }",
			h + fsOut + "layout(std140) uniform U { layout(offset = 32) vec4 u; }; void main() { c = u; }",
			"uniform block 'U': member 'u' is at offset 32 here and 16 in another shader"},
	})
}

// TestLinkLocationsAcrossUnits: a variable declared in two units of one
// stage takes one location and component. spec: GLSL 4.40 §4.4.1.
func TestLinkLocationsAcrossUnits(t *testing.T) {
	const h = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n#extension GL_ARB_separate_shader_objects : require\n"
	a := mustCompile(t, "a.vert", h+"layout(location = 0, component = 1) out vec3 x; void f() { x = vec3(0.0); }", Vertex)
	b := mustCompile(t, "b.vert", h+"layout(location = 0) out vec3 x; void f(); void main() { f(); gl_Position = vec4(0.0); }", Vertex)
	_, err := LinkShaders(a, b)
	if err == nil || !strings.Contains(err.Error(), "'x' is declared with location 0 component 0 here and location 0 component 1 in another shader") {
		t.Fatalf("error = %v", err)
	}
}

// TestLinkSeparable: a separable program linking a vertex and a geometry
// stage must redeclare gl_PerVertex on both sides of that interface to use
// its members; a program of one stage need not; GLSL 1.40 has no blocks.
// spec: ARB_separate_shader_objects.
func TestLinkSeparable(t *testing.T) {
	vs := mustCompile(t, "a.vert", "#version 150\nvoid main() { gl_Position = vec4(1.0); }", Vertex)
	gs := mustCompile(t, "b.geom", "#version 150\nlayout(points) in; layout(points, max_vertices = 1) out;\nout vec4 g;\nvoid main() { g = gl_in[0].gl_Position; EmitVertex(); }", Geometry)
	fs := mustCompile(t, "c.frag", "#version 150\nin vec4 g; out vec4 c; void main() { c = g; }", Fragment)
	if _, err := LinkShaders(vs, gs, fs); err != nil {
		t.Fatalf("a program that is not separable: %v", err)
	}
	_, err := LinkSeparable(vs, gs, fs)
	for _, want := range []string{"vertex shader uses 'gl_Position' without redeclaring the output gl_PerVertex block",
		"geometry shader reads gl_in without redeclaring the input gl_PerVertex block"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want %q", err, want)
		}
	}
	vsRedecl := mustCompile(t, "a.vert", "#version 150\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() { gl_Position = vec4(1.0); }", Vertex)
	gsRedecl := mustCompile(t, "b.geom", "#version 150\nlayout(points) in; layout(points, max_vertices = 1) out;\nin gl_PerVertex { vec4 gl_Position; } gl_in[];\nout vec4 g;\nvoid main() { g = gl_in[0].gl_Position; EmitVertex(); }", Geometry)
	if _, err := LinkSeparable(vsRedecl, gsRedecl, fs); err != nil {
		t.Errorf("redeclared blocks: %v", err)
	}
	if _, err := LinkSeparable(vs); err != nil {
		t.Errorf("a separable vertex program of its own: %v", err)
	}
	vs140 := mustCompile(t, "a.vert", "#version 140\nvoid main() { gl_PointSize = 1.0; }", Vertex)
	fs140 := mustCompile(t, "c.frag", "#version 140\nout vec4 c; void main() { c = vec4(1.0); }", Fragment)
	if _, err := LinkSeparable(vs140, fs140); err != nil {
		t.Errorf("GLSL 1.40: %v", err)
	}
}
