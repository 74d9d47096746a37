// Fragment outputs: user outputs exclude gl_FragColor and gl_FragData.
// spec: GLSL 1.30 §7.2.
#version 130
out vec4 o;
void main() {
	gl_FragColor = vec4(0.0);
	o = vec4(1.0); // ERROR "cannot write both user-defined outputs and gl_FragColor/gl_FragData"
}
// ---- the other order
#version 130
out vec4 o;
void main() {
	o = vec4(1.0);
	gl_FragData[0] = vec4(0.0); // ERROR "cannot write both user-defined outputs and 'gl_FragData'"
}
// ---- arrays of buffer blocks take a non-constant index from GLSL 4.00 or
// with GL_ARB_gpu_shader5 (dynamically uniform). spec: GLSL 4.00 §4.3.7
#version 330
#extension GL_ARB_shader_storage_buffer_object : require
layout(std430) buffer B { vec4 c; } b[2];
uniform int i;
out vec4 o;
void main() { o = b[i].c; } // ERROR "interface block arrays can only be indexed with constant expressions in this GLSL version"
// ---- with GL_ARB_gpu_shader5
#version 330
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_gpu_shader5 : require
layout(std430) buffer B { vec4 c; } b[2];
uniform int i;
out vec4 o;
void main() { o = b[i].c; b[i].c.x = 1.0; }
// ---- arrays of images take a non-constant index on desktop GLSL (no
// ARB_gpu_shader5 needed), as arrays of atomic counters do
#version 330
#extension GL_ARB_shader_image_load_store : enable
#extension GL_ARB_arrays_of_arrays : require
#extension GL_ARB_shader_atomic_counters : require
writeonly uniform image2D tex[2][2];
layout(binding = 0) uniform atomic_uint c[2][3];
uniform int n;
out vec4 o;
void main() { imageStore(tex[n][1], ivec2(0), vec4(1.0)); o = vec4(float(atomicCounter(c[n][n]))); }
// ---- but in GLSL ES 3.10 only constant ones
#version 310 es
precision highp float;
layout(rgba8) writeonly uniform highp image2D tex[2];
uniform int n;
out vec4 o;
void main() { imageStore(tex[n], ivec2(0), vec4(1.0)); o = vec4(1.0); } // ERROR "sampler arrays can only be indexed with constant expressions in this GLSL version"
