// Interface qualifiers: storage, interpolation, invariant, layout.
// spec: GLSL 4.50 §4.3, §4.4, §4.5, §4.6.
#version 430
inout float a; // ERROR "'inout' is only allowed on function parameters"
smooth uniform float b; // ERROR "interpolation qualifiers require 'in', 'out' or 'varying'"
out void c; // ERROR "variable 'c' declared void"
centroid in vec4 d; // ERROR "vertex shader inputs cannot be 'centroid'"
in vec4 e[2];
layout(location = 0) uniform float f;
layout(location = 1) const float g = 1.0; // ERROR "layout\\(location\\) requires 'in' or 'out'"
layout(binding = 1) uniform sampler2D h;
layout(std140 = 1) uniform U1 { float m1; }; // ERROR "layout qualifier 'std140' takes no value"
layout(std430) uniform U2 { float m2; }; // ERROR "layout\\(std430\\) is only allowed on buffer blocks"
layout(local_size_x = 1) uniform float i; // ERROR "layout qualifier 'local_size_x' is only allowed in a compute shader's 'layout\\(\\.\\.\\.\\) in;' declaration"
layout(bogus) uniform float j; // ERROR "unknown layout qualifier 'bogus'"
layout(location) out vec4 k; // ERROR "layout qualifier 'location' requires a value"
layout(location = 1.0) out vec4 l; // ERROR "layout qualifier 'location' requires an integer constant"
layout(location = -1) out vec4 m; // ERROR "layout qualifier 'location' cannot be negative"
struct S { float x; };
in S n; // ERROR "vertex shader inputs cannot have type S"
invariant uniform float o; // ERROR "'invariant' can only qualify shader outputs"
uniform void p; // ERROR "variable 'p' declared void"
void main() {
	invariant float q; // ERROR "'invariant' can only qualify shader outputs" ERROR "'invariant' is only allowed at global scope"
	layout(location = 0) float r; // ERROR "layout qualifiers are not allowed on local variables"
	gl_Position = vec4(0.0);
}
// ---- binding before GLSL 4.20
#version 410
layout(binding = 1) uniform sampler2D s; // ERROR "layout\\(binding\\) requires GLSL 4\\.20"
void main() {}
// ---- location on uniforms before GLSL 4.30
#version 420
layout(location = 0) uniform float u; // ERROR "layout\\(location\\) on uniforms requires GLSL 4\\.30"
void main() {}
// ---- GLSL ES 3.00 removed attribute and varying
#version 300 es
attribute vec4 a; // ERROR "'attribute' is removed in this GLSL version; use 'in'"
varying vec4 v; // ERROR "'varying' is removed in this GLSL version; use 'in' or 'out'"
in vec4 w[2]; // ERROR "vertex shader inputs cannot have type vec4\\[2\\]"
struct T { float x[2]; };
out T t; // ERROR "interface variables cannot be structs containing arrays"
layout(location = 0) out vec4 o; // ERROR "layout\\(location\\) is not allowed on vertex shader outputs in GLSL ES 3\\.00"
void main() {}
// ---- varying types and interpolation
#version 130
varying int v; // ERROR "varying cannot have type int"
smooth varying vec4 w; // ERROR "interpolation qualifiers cannot be used with 'varying'"
void main() {}
// ---- GLSL 3.30: a location on a vertex shader input, not on an output (GLSL 4.10)
#version 330
layout(location = 1) in vec4 p;
layout(location = 0) out vec4 c; // ERROR "layout\\(location\\) on a vertex shader out requires GLSL 4.10"
void main() { gl_Position = p; c = p; }
// ---- GLSL 4.10: a location on a vertex shader output
#version 410
layout(location = 1) in vec4 p;
layout(location = 0) out vec4 c;
void main() { gl_Position = p; c = p; }
