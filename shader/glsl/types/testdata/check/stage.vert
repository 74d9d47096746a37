// Compute-only declarations outside a compute shader. spec: GLSL 4.50 §4.3.8,
// §4.4.1.4.
#version 430
layout(local_size_x = 1) in; // ERROR "local_size layout qualifiers are only allowed in compute shaders"
void main() {}
