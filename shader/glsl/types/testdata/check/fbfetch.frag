// Framebuffer fetch: inout fragment outputs (GLSL ES 3.00, desktop 1.30+) and
// GLSL ES 1.00's gl_LastFragData. spec: EXT_shader_framebuffer_fetch,
// EXT_shader_framebuffer_fetch_non_coherent.
#version 300 es
inout mediump vec4 c; // ERROR "'inout' is only allowed on function parameters"
void main() {}
// ---- inout in GLSL ES 1.00
#version 100
#extension GL_EXT_shader_framebuffer_fetch : enable
inout mediump vec4 c; // ERROR "inout fragment outputs require GLSL 1\\.30 or GLSL ES 3\\.00" ERROR "'out' at global scope requires GLSL 1\\.30"
void main() {}
// ---- a built-in output
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch : enable
inout highp float gl_FragDepth; // ERROR "built-in 'gl_FragDepth' cannot be declared inout"
void main() {}
// ---- the non-coherent extension alone needs layout(noncoherent)
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable
inout mediump vec4 c; // ERROR "an inout output without layout\\(noncoherent\\) requires GL_EXT_shader_framebuffer_fetch"
void main() {}
// ---- layout(noncoherent) without its extension
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch : enable
layout(noncoherent) inout mediump vec4 c; // ERROR "layout\\(noncoherent\\) requires GL_EXT_shader_framebuffer_fetch_non_coherent"
void main() {}
// ---- layout(noncoherent) on a plain output
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable
layout(noncoherent) out mediump vec4 c; // ERROR "layout\\(noncoherent\\) is only allowed on inout fragment outputs and gl_LastFragData"
void main() {}
// ---- layout(noncoherent) with a value
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable
layout(noncoherent = 1) inout mediump vec4 c; // ERROR "layout qualifier 'noncoherent' takes no value"
void main() {}
// ---- gl_LastFragData is read-only
#version 100
#extension GL_EXT_shader_framebuffer_fetch : enable
void main() { gl_LastFragData[0] = vec4(1.0); } // ERROR "'gl_LastFragData' is read-only"
// ---- gl_LastFragData is GLSL ES 1.00's
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch : enable
out highp vec4 c;
void main() { c = gl_LastFragData[0]; } // ERROR "undeclared identifier 'gl_LastFragData'"
// ---- the non-coherent extension alone declares no gl_LastFragData
#version 100
#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable
void main() { gl_FragColor = gl_LastFragData[0]; } // ERROR "undeclared identifier 'gl_LastFragData'"
// ---- ... and its declaration must say layout(noncoherent)
#version 100
#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable
mediump vec4 gl_LastFragData[gl_MaxDrawBuffers]; // ERROR "gl_LastFragData must be declared layout\\(noncoherent\\) under GL_EXT_shader_framebuffer_fetch_non_coherent alone"
void main() { gl_FragColor = gl_LastFragData[0]; }
// ---- a redeclaration takes only a precision
#version 100
#extension GL_EXT_shader_framebuffer_fetch : enable
varying mediump vec4 gl_LastFragData[gl_MaxDrawBuffers]; // ERROR "gl_LastFragData can only be redeclared with a precision qualifier"
void main() { gl_FragColor = gl_LastFragData[0]; }
// ---- and keeps the type
#version 100
#extension GL_EXT_shader_framebuffer_fetch : enable
mediump vec4 gl_LastFragData[2]; // ERROR "redeclaration of built-in 'gl_LastFragData' changes its type"
void main() { gl_FragColor = gl_LastFragData[0]; }
// ---- before any use
#version 100
#extension GL_EXT_shader_framebuffer_fetch : enable
mediump vec4 f() { return gl_LastFragData[0]; }
highp vec4 gl_LastFragData[gl_MaxDrawBuffers]; // ERROR "built-in 'gl_LastFragData' must be redeclared before it is used"
void main() { gl_FragColor = f(); }
