// Fragment interface rules. spec: GLSL 4.50 §4.3.6, §4.5; GLSL ES 3.00 §4.3.8.
#version 330
smooth out vec4 a; // ERROR "interpolation qualifiers cannot be used on fragment shader outputs"
out mat2 b; // ERROR "fragment shader outputs cannot have type mat2"
void main() {}
// ---- GLSL ES 3.00 inputs take no location
#version 300 es
precision mediump float;
layout(location = 0) in vec4 a; // ERROR "layout\\(location\\) is not allowed on fragment shader inputs in GLSL ES 3\\.00"
out vec4 o;
void main() { o = a; }
// ---- GLSL 3.30: a location (and index) on a fragment shader output, not on an input
#version 330
layout(location = 0) in vec4 c; // ERROR "layout\\(location\\) on a fragment shader in requires GLSL 4.10"
layout(location = 0) out vec4 o;
layout(location = 0, index = 1) out vec4 o2;
void main() { o = c; o2 = c; }
