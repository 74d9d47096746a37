// Compute shaders arrived in GLSL 4.30 (the diagnostic is at the file's start). // ERROR "compute shaders require GLSL 4\\.30 or GLSL ES 3\\.10"
#version 420
layout(local_size_x = 1) in;
void main() {}
