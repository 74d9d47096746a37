// GL_ARB_gpu_shader5 in GLSL 1.50 vertex shaders: its features need the
// extension, and its rules hold with it. spec: ARB_gpu_shader5.
#version 150
uniform sampler2D tex[2];
uniform int n;
in vec4 a;
void main() {
	float f = fma(a.x, a.y, a.z); // ERROR "built-in function 'fma' is not available"
	uint u = 1; // ERROR "cannot convert from int to uint"
	int b = bitCount(7u); // ERROR "built-in function 'bitCount' is not available"
	int i = floatBitsToInt(1.0); // ERROR "built-in function 'floatBitsToInt' is not available"
	vec4 t = texture(tex[n], a.xy); // ERROR "sampler arrays can only be indexed with constant expressions"
	vec4 g = textureGather(tex[0], a.xy); // ERROR "built-in function 'textureGather' is not available"
	gl_Position = vec4(f + float(u + uint(b + i))) + t + g;
}
// ----
#version 150
#extension GL_ARB_gpu_shader5 : require
uniform sampler2D tex[2];
uniform sampler2DShadow shad;
uniform ivec2 off;
uniform int n;
uniform Blk { vec4 v; } blk[2];
in vec4 a;
sample in vec4 s; // ERROR "vertex shader inputs cannot be 'sample'"
sample out vec4 so;
uniform Bad { sample vec4 w; }; // ERROR "interpolation qualifiers are not allowed on uniform block members"
layout(stream = 1) out vec4 st; // ERROR "layout\\(stream\\) is only allowed on geometry shader outputs"
precise out vec4 p;
precise gl_Position;
precise a; // ERROR "'precise' cannot qualify the read-only variable 'a'"
precise nothing; // ERROR "undeclared identifier 'nothing'"
float glob;
void f(out float x) { precise x; x = 1.0; }
void h() { precise glob; } // ERROR "'precise' in a function cannot qualify the global variable 'glob'"
void main() {
	precise float x = fma(a.x, a.y, a.z);
	uint u = 1;
	int b = bitCount(7u) + findMSB(u) + floatBitsToInt(x);
	vec4 t = texture(tex[n], a.xy) + blk[n].v;
	vec4 g = textureGatherOffset(tex[n], a.xy, off) + textureGather(tex[0], a.xy, 2);
	vec4 c = textureGatherOffsets(tex[0], a.xy, ivec2[4](off, off, off, off)); // ERROR "texel offsets of 'textureGatherOffsets' must be a constant expression"
	vec4 d = textureGatherOffsets(shad, a.xy, 0.5, ivec2[4](ivec2(0), ivec2(1), ivec2(0), ivec2(1)));
	vec4 e = textureOffset(tex[0], a.xy, off); // ERROR "texel offset of 'textureOffset' must be a constant expression"
	e += textureGather(tex[0], a.xy, n); // ERROR "the component of 'textureGather' must be a constant integral expression"
	e += textureGatherOffset(tex[0], a.xy, off, 4); // ERROR "the component of 'textureGatherOffset' must be 0, 1, 2 or 3, not 4"
	f(x);
	gl_Position = vec4(x + float(b)) + t + g + c + d + e;
	p = so = vec4(u);
}
// ----
// Without the extension 'sample' is no qualifier.
#version 150
sample in vec4 s; // ERROR "syntax error"
void main() {}
// ----
// In any order (GL_ARB_shading_language_420pack), sample and centroid still exclude each other.
#version 150
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_shading_language_420pack : require
sample centroid out vec4 sc; // ERROR "'sample' and 'centroid' cannot qualify the same variable"
void main() {}
// ----
// GLSL 4.00's overload rule (ARB_gpu_shader5 §6.1): a candidate wins when it
// converts a strict subset of the arguments every other candidate converts;
// int to uint and int to float rank alike.
#version 150
#extension GL_ARB_gpu_shader5 : require
float f(int a, float b, float c) { return 1.0; }
float f(float a, int b, int c) { return 2.0; }
float g(uint a, float b) { return 1.0; }
float g(uint a, uint b) { return 2.0; }
float h(float a) { return 1.0; }
float h(uint a) { return 2.0; }
float k(int a, float b) { return 1.0; }
float k(float a, float b) { return 2.0; }
void main() {
	float x = f(1, 2, 3); // ERROR "ambiguous call to 'f\\(int, int, int\\)'" (fewest conversions would pick the second)
	x += g(1u, 2); // ERROR "ambiguous call to 'g\\(uint, int\\)'"
	x += h(1); // ERROR "ambiguous call to 'h\\(int\\)'"
	x += k(1, 2); // k(int, float) converts only the second argument
	gl_Position = vec4(x);
}
