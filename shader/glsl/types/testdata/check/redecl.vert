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
// ---- gl_CullDistance needs GL_ARB_cull_distance before GLSL 4.50
#version 130
void main() { gl_CullDistance[0] = 1.0; } // ERROR "undeclared identifier 'gl_CullDistance'"
// ---- gl_CullDistance with the extension, sized by its largest index
#version 130
#extension GL_ARB_cull_distance : enable
void main() { gl_CullDistance[gl_MaxCullDistances - 2] = 1.0; gl_ClipDistance[0] = float(gl_MaxCombinedClipAndCullDistances); }
// ---- clip and cull distances together beyond the combined limit
#version 130
#extension GL_ARB_cull_distance : enable
out float gl_ClipDistance[5];
out float gl_CullDistance[4]; // ERROR "gl_ClipDistance and gl_CullDistance have 9 entries together"
void main() { gl_ClipDistance[0] = 1.0; gl_CullDistance[0] = 1.0; }
// ---- gl_CullDistance beyond its own limit
#version 450
out float gl_CullDistance[9]; // ERROR "redeclared size of 'gl_CullDistance' exceeds the implementation limit 8"
void main() {}
