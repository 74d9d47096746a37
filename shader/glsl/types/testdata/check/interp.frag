// The interpolation functions' interpolant: an l-value of a fragment input,
// component selection only from GLSL 4.40. spec: GLSL 4.00 §8.13, GLSL 4.40
// §8.13.2, ARB_gpu_shader5 §8.8.
#version 400
in vec4 v; out vec4 o;
void main() { vec4 t = v; o = interpolateAtCentroid(t); } // ERROR "interpolant of 'interpolateAtCentroid' must be a fragment shader input"
// ---- an expression
#version 400
in vec4 v; out vec4 o;
void main() { o = interpolateAtSample(v + v, 0); } // ERROR "interpolant of 'interpolateAtSample' must be a fragment shader input"
// ---- a swizzle before 4.40
#version 400
in vec4 v; out vec4 o;
void main() { o = vec4(interpolateAtOffset(v.xy, vec2(0.0)), 0.0, 1.0); } // ERROR "interpolant of 'interpolateAtOffset' may not use a swizzle before GLSL 4\\.40"
// ---- a vector subscript before 4.40
#version 150
#extension GL_ARB_gpu_shader5 : enable
in vec4 v; out vec4 o;
void main() { o = vec4(interpolateAtCentroid(v[1])); } // ERROR "interpolant of 'interpolateAtCentroid' may not select a vector component before GLSL 4\\.40"
// ---- both in 4.40, on array elements and members
#version 440
struct S { vec3 a; float b; };
in S s[2]; in vec4 v; out vec4 o;
uniform int i;
void main() { o = vec4(interpolateAtCentroid(s[i].a.zy), interpolateAtSample(v[i], 1), interpolateAtOffset(s[1].b, vec2(0.25))); }
