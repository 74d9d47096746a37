// Geometry shaders arrived in GLSL 1.50 (the diagnostic is at the file's start). // ERROR "geometry shaders require GLSL 1\\.50"
#version 140
void main() {}
