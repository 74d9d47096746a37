// GL_ARB_gpu_shader5 geometry shaders: instancing and vertex streams.
// spec: ARB_gpu_shader5 §4.3.8.1, §4.3.8.2, §7.1, §8.10.
#version 150
layout(points, invocations = 2) in; // ERROR "layout qualifier 'invocations' is not allowed on a geometry shader 'in' declaration"
layout(points, max_vertices = 1) out;
void main() {
	gl_Position = vec4(gl_InvocationID); // ERROR "undeclared identifier 'gl_InvocationID'"
	EmitStreamVertex(0); // ERROR "built-in function 'EmitStreamVertex' is not available"
}
// ----
#version 150
#extension GL_ARB_gpu_shader5 : enable
layout(points, invocations = 4) in;
layout(invocations = 4) in;
layout(invocations = 3) in; // ERROR "invocations = 3 conflicts with the earlier invocations = 4"
layout(invocations = 33) in; // ERROR "invocations = 33 is outside 1..32"
layout(invocations = 0) in; // ERROR "invocations = 0 is outside 1..32"
layout(points, max_vertices = 4) out;
layout(invocations = 2) out; // ERROR "layout qualifier 'invocations' is not allowed on a geometry shader 'out' declaration"
layout(stream = 1) in; // ERROR "layout qualifier 'stream' is not allowed on a geometry shader 'in' declaration"
layout(stream = 4) out; // ERROR "stream = 4 is outside 0..3"
layout(stream = 5) out vec4 far; // ERROR "stream = 5 is outside 0..3"
out vec4 zero;
layout(stream = 1) out;
out vec4 one;
layout(stream = 2) out B { float x; layout(stream = 2) float y; layout(stream = 0) float z; }; // ERROR "block member 'z' is on stream 0 but its block 'B' is on stream 2"
uniform int n;
void main() {
	zero = one = vec4(gl_InvocationID);
	EmitStreamVertex(1);
	EndStreamPrimitive(n); // ERROR "the stream of 'EndStreamPrimitive' must be a constant integral expression"
	EmitVertex();
}
