// Shared variables exist only in compute shaders. spec: GLSL 4.50 §4.3.8.
#version 430
shared float s; // ERROR "'shared' variables are only allowed in compute shaders"
out vec4 o;
void main() { o = vec4(0.0); }
// ---- #pragma STDGL invariant(all) is for vertex outputs only in GLSL ES 3.00
#version 300 es
#pragma STDGL invariant(all) // ERROR "#pragma STDGL invariant\\(all\\) is not allowed in fragment shaders"
precision mediump float;
out vec4 o;
void main() { o = vec4(0.0); }
// ---- an empty input declaration in a fragment shader
#version 100
in; // ERROR "declaration does not declare anything"
void main() {}
// ---- GLSL ES 1.00: gl_FrontFacing cannot be invariant
#version 100
precision mediump float;
invariant gl_FrontFacing; // ERROR "gl_FrontFacing cannot be declared invariant"
void main() { gl_FragColor = vec4(1.0); }
// ---- gl_FragCoord redeclared with other layout qualifiers
#version 150
layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;
layout(origin_upper_left) in vec4 gl_FragCoord; // ERROR "all redeclarations of gl_FragCoord must have the same layout qualifiers"
out vec4 c;
void main() { c = gl_FragCoord; }
// ---- only the first redeclaration of gl_FragCoord must precede its uses
#version 150
in vec4 gl_FragCoord;
vec4 p = gl_FragCoord;
in vec4 gl_FragCoord;
out vec4 c;
void main() { c = p; }
// ---- a fragment shader has no gl_PerVertex to redeclare
#version 150
in gl_PerVertex { vec4 gl_Position; } gl_in[]; // ERROR "gl_PerVertex can only be redeclared as a vertex or geometry shader output block"
out vec4 c;
void main() { c = vec4(1.0); }
// ---- gl_HelperInvocation arrives in GLSL ES 3.10 (and GLSL 4.50)
#version 300 es
precision mediump float;
out vec4 c;
void main() { c = vec4(float(gl_HelperInvocation)); } // ERROR "undeclared identifier 'gl_HelperInvocation'"
// ---- gl_HelperInvocation in GLSL ES 3.10
#version 310 es
precision mediump float;
out vec4 c;
void main() { c = vec4(float(gl_HelperInvocation)); }
// ---- gl_InstanceIDARB exists only in vertex shaders
#version 120
#extension GL_ARB_draw_instanced : require
void main() { gl_FragColor = vec4(float(gl_InstanceIDARB)); } // ERROR "undeclared identifier 'gl_InstanceIDARB'"
