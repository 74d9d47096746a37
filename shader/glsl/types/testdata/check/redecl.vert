// Redeclarations of built-in outputs. spec: GLSL 1.30 §7.1, §4.3.9.
#version 130
out float gl_TexCoord[2]; // ERROR "redeclaration of built-in 'gl_TexCoord' changes its type"
void main() {}
// ---- beyond the implementation limit
#version 130
out vec4 gl_TexCoord[100]; // ERROR "redeclared size of 'gl_TexCoord' exceeds the implementation limit 8"
void main() {}
// ---- initialized
#version 130
out vec4 gl_TexCoord[2] = vec4[2](vec4(0.0), vec4(0.0)); // ERROR "built-in 'gl_TexCoord' cannot be initialized"
void main() {}
