// GL_ARB_gpu_shader5 fragment shaders: gl_SampleMaskIn and the sample
// qualifier's places. spec: ARB_gpu_shader5 §4.3.6, §7.1.
#version 150
out vec4 c;
void main() {
	c = vec4(gl_SampleMaskIn[0]); // ERROR "undeclared identifier 'gl_SampleMaskIn'"
}
// ----
#version 150
#extension GL_ARB_gpu_shader5 : require
sample in vec4 s;
sample out vec4 c; // ERROR "interpolation qualifiers cannot be used on fragment shader outputs"
sample uniform vec4 u; // ERROR "interpolation qualifiers require 'in', 'out' or 'varying'"
struct S { sample vec4 m; }; // ERROR "struct members cannot have qualifiers other than precision"
void main() {
	sample vec4 t = s; // ERROR "interpolation qualifiers require 'in', 'out' or 'varying'"
	c = t + vec4(gl_SampleMaskIn[0]) + u;
}
