#version 430 // ERROR "gl_WorkGroupSize is used but the shader declares no local size"
void main() { uvec3 s = gl_WorkGroupSize; }
