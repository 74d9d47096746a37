// Compute shader declarations, shared variables, images and storage blocks.
// spec: GLSL 4.50 §4.3.8, §4.3.9, §4.4.1.4, §4.4.6, §4.4.7, §4.10.
#version 430
layout(local_size_x = 1, local_size_w = 2) in; // ERROR "layout qualifier 'local_size_w' is not allowed on a compute shader input declaration"
layout(local_size_y = 2048) in; // ERROR "local_size_y = 2048 exceeds gl_MaxComputeWorkGroupSize \\(1024\\)"
shared sampler2D ss; // ERROR "'shared' variables cannot have opaque type sampler2D" ERROR "sampler variables must be uniform"
uniform float notimage;
layout(r32f) uniform float fmt; // ERROR "format layout qualifier 'r32f' on non-image 'fmt'"
layout(r32f) uniform image2D imgs[2];
layout(r32ui) uniform image2D imgs2[2][2]; // ERROR "format 'r32ui' does not match image type image2D"
layout(r32f) readonly writeonly uniform image2D both; // ERROR "image 'both' cannot be both readonly and writeonly"
layout(std430, binding = 0) buffer B {
	readonly float ro;
	writeonly float wo;
	layout(align = 3) float al; // ERROR "layout\\(align = 3\\) is not a power of two"
};
layout(std430, binding = 1) buffer C { sampler2D s; }; // ERROR "samplers are not allowed in blocks" ERROR "opaque types are not allowed in buffer blocks"
void main() {
	atomicAdd(ro, 1.0); // ERROR "no matching overload for call to 'atomicAdd\\(float, float\\)'"
	float x = wo; // ERROR "'wo' is writeonly and cannot be read"
}
