// Redeclaring gl_FragDepth keeps its type. spec: GLSL 4.50 §7.1.2.
#version 130
out int gl_FragDepth; // ERROR "redeclaration of built-in 'gl_FragDepth' changes its type"
void main() {}
