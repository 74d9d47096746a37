// Compute-only declarations outside a compute shader. spec: GLSL 4.50 §4.3.8,
// §4.4.1.4.
#version 430
layout(local_size_x = 1) in; // ERROR "local_size layout qualifiers are only allowed in compute shaders"
void main() {}
// ---- gl_PerVertex redeclared with only some members: the others are gone
#version 150
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[2]; };
void main() { gl_Position = vec4(0.0); gl_ClipDistance[1] = 0.0; gl_PointSize = 1.0; } // ERROR "undeclared identifier 'gl_PointSize'"
// ---- gl_PerVertex twice, with a foreign member, with another type
#version 150
out gl_PerVertex { vec4 gl_Position; vec4 t; }; // ERROR "'t' is not a member of gl_PerVertex"
out gl_PerVertex { vec4 gl_Position; }; // ERROR "gl_PerVertex is redeclared more than once"
void main() { }
// ---- a gl_PerVertex member of another type
#version 150
out gl_PerVertex { vec3 gl_Position; }; // ERROR "gl_PerVertex member 'gl_Position' is redeclared with another type"
void main() { }
// ---- gl_PerVertex after a use or a redeclaration of a member, or before one
#version 150
out float gl_ClipDistance[4];
void f() { gl_PointSize = 1.0; }
out gl_PerVertex { vec4 gl_Position; float gl_PointSize; }; // ERROR "gl_PerVertex is redeclared after 'gl_ClipDistance' was" ERROR "gl_PerVertex must be redeclared before 'gl_PointSize' is used"
void main() { f(); }
// ---- the compatibility profile's gl_PerVertex also has gl_ClipVertex, the colours, gl_TexCoord[] and gl_FogFragCoord; a sized gl_TexCoord sizes the built-in and an omitted member is gone
#version 150 compatibility
out gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; vec4 gl_TexCoord[5]; float gl_FogFragCoord; };
void main() { gl_Position = vec4(0.0); gl_ClipVertex = gl_Position; gl_TexCoord[4] = vec4(float(gl_TexCoord.length())); gl_FogFragCoord = 1.0; gl_FrontColor = vec4(1.0); } // ERROR "undeclared identifier 'gl_FrontColor'"
// ---- a gl_TexCoord member indexed past its redeclared size
#version 150 compatibility
out gl_PerVertex { vec4 gl_Position; vec4 gl_TexCoord[2]; };
void main() { gl_TexCoord[2] = vec4(0.0); } // ERROR "index 2 is out of range"
// ---- gl_TexCoord beyond gl_MaxTextureCoords, not an array, gl_ClipVertex of another type
#version 150 compatibility
out gl_PerVertex { vec4 gl_Position; vec4 gl_TexCoord[9]; vec3 gl_ClipVertex; vec4 gl_FrontColor[2]; }; // ERROR "gl_TexCoord redeclared with size 9 exceeds gl_MaxTextureCoords \\(8\\)" ERROR "gl_PerVertex member 'gl_ClipVertex' is redeclared with another type" ERROR "gl_PerVertex member 'gl_FrontColor' is redeclared with another type"
void main() { }
// ---- the core profile's gl_PerVertex has no compatibility members
#version 150
out gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; vec4 gl_TexCoord[2]; }; // ERROR "'gl_ClipVertex' is not a member of gl_PerVertex" ERROR "'gl_TexCoord' is not a member of gl_PerVertex"
void main() { }
// ---- a compatibility member redeclared after gl_PerVertex
#version 150 compatibility
out gl_PerVertex { vec4 gl_Position; vec4 gl_TexCoord[4]; };
out vec4 gl_TexCoord[4]; // ERROR "'gl_TexCoord' cannot be redeclared after gl_PerVertex"
void main() { }
// ---- a member redeclared after gl_PerVertex
#version 150
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[4]; };
out float gl_ClipDistance[4]; // ERROR "'gl_ClipDistance' cannot be redeclared after gl_PerVertex"
void main() { gl_Position = vec4(0.0); }
// ----
#version 150
layout(triangles) in; // ERROR "layout qualifier 'triangles' is only allowed in geometry shaders"
void main() {
	EmitVertex(); // ERROR "no matching|undeclared|not available|EmitVertex"
}
// ---- GL_ARB_derivative_control's derivatives exist only in fragment shaders
#version 150
#extension GL_ARB_derivative_control : require
in vec4 p; void main() { gl_Position = vec4(dFdxFine(p.x)); } // ERROR "dFdxFine"
// ---- gl_InstanceIDARB needs GL_ARB_draw_instanced
#version 120
void main() { gl_Position = vec4(float(gl_InstanceIDARB)); } // ERROR "undeclared identifier 'gl_InstanceIDARB'"
// ---- GL_ARB_draw_instanced: gl_InstanceIDARB, read-only, in GLSL 1.10/1.20
#version 120
#extension GL_ARB_draw_instanced : require
void main() { gl_Position = vec4(float(gl_InstanceIDARB)); gl_InstanceIDARB = 1; } // ERROR "read-only"
// ---- GL_ARB_draw_instanced does not bring gl_InstanceID itself before GLSL 1.40
#version 120
#extension GL_ARB_draw_instanced : require
void main() { gl_Position = vec4(float(gl_InstanceID)); } // ERROR "undeclared identifier 'gl_InstanceID'"
// ---- GL_ARB_draw_instanced with GLSL 1.40: both names, one variable
#version 140
#extension GL_ARB_draw_instanced : require
void main() { gl_Position = vec4(float(gl_InstanceIDARB + gl_InstanceID)); }
