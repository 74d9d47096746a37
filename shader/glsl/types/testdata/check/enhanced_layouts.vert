// GL_ARB_enhanced_layouts and GL_ARB_separate_shader_objects in GLSL 1.40/1.50
// vertex shaders: the qualifiers need the extensions, and their rules hold with
// them. spec: ARB_enhanced_layouts, ARB_separate_shader_objects, GLSL 4.40 §4.4.
#version 150
layout(location = 0) out vec4 a; // ERROR "layout\\(location\\) on a vertex shader out requires GLSL 4.10"
layout(location = 1, component = 1) out vec3 b; // ERROR "layout\\(location\\) on a vertex shader out requires GLSL 4.10" ERROR "layout\\(component\\) requires GLSL 4.40"
layout(std140, align = 16) uniform U { vec4 u; }; // ERROR "layout\\(align\\) requires GLSL 4.40"
void main() { gl_Position = a; }
// ----
#version 150
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_enhanced_layouts : require
const int base = 2;
layout(location = base + 1) out vec4 a;
layout(location = 0, component = 1) out vec3 b;
layout(location = 0) out float c;
layout(component = 1) out float nl; // ERROR "layout\\(component\\) requires an explicit location"
layout(location = 5, component = 4) out float big; // ERROR "layout\\(component = 4\\) must be 0 to 3"
layout(location = 6, component = 2) out mat2 m; // ERROR "layout\\(component\\) is only allowed on scalars, vectors and arrays of them"
layout(location = 7, component = 2) out vec3 past; // ERROR "runs past the fourth component of its location"
layout(location = 8, component = 1) out float arr[2];
layout(location = 10, component = 1) out B { vec4 x; } blk; // ERROR "layout\\(component\\) is not allowed on a block"
layout(location = 12) out C {
	vec4 c0;
	layout(location = 14, component = 2) vec2 c1;
	layout(component = 4) float c2; // ERROR "layout\\(component = 4\\) must be 0 to 3"
};
layout(component = 1) uniform float uc; // ERROR "layout\\(component\\) requires an explicit location" ERROR "layout\\(component\\) is only allowed on inputs and outputs"
layout(std140, align = 16) uniform U {
	layout(offset = 32) vec4 u0;
	layout(align = 64) vec4 u1;
	layout(offset = 4) float u2; // ERROR "layout\\(offset = 4\\) of 'u2' overlaps the previous member"
	layout(offset = 130) float u3; // ERROR "layout\\(offset = 130\\) of 'u3' is not a multiple of its alignment 4"
	layout(align = 3) float u4; // ERROR "layout\\(align = 3\\) is not a power of two"
};
void main() { gl_Position = a + vec4(b, c) + vec4(arr[0]) + blk.x + c0 + u0 + u1 + vec4(u2 + u3 + u4 + uc + nl + big + past.x + m[0].x + c1.x + c2); }
// ----
#version 140
#extension GL_ARB_separate_shader_objects : require
out Blk { // ERROR "out blocks are not allowed here"
	layout(location = 1) vec4 x;
};
void main() { gl_Position = vec4(0.0); }
// ----
#version 150
#extension GL_ARB_separate_shader_objects : require
out Blk {
	layout(location = 1) vec4 x; // ERROR "layout\\(location\\) on a block member requires GLSL 4.40"
	layout(component = 1) float y; // ERROR "layout\\(component\\) requires GLSL 4.40"
};
void main() { gl_Position = vec4(0.0); }
// ---- before GLSL 4.40 a layout value is an integer literal; a constant
// expression needs GL_ARB_enhanced_layouts (the one above has it)
#version 140
#extension GL_ARB_explicit_attrib_location : require
const int start = 3;
layout(location = start + 2) in vec4 b; // ERROR "layout qualifier 'location' requires an integer literal \\(constant expressions need GLSL 4\\.40 or GL_ARB_enhanced_layouts\\)"
layout(location = (1)) in vec4 c;
layout(location = 2u) in vec4 d;
void main() { gl_Position = b + c + d; }
// ----
#version 440
const int start = 3;
layout(location = start + 2) in vec4 b;
void main() { gl_Position = b; }
