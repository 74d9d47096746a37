// Redeclaring a geometry shader's gl_PerVertex blocks. spec: GLSL 1.50 §7.1.
#version 150
layout(triangles) in;
in gl_PerVertex { vec4 gl_Position; vec3 gl_PointSize; float gl_ClipDistance[]; vec4 t; } gl_in[]; // ERROR "gl_PerVertex member 'gl_PointSize' is redeclared with another type" ERROR "'t' is not a member of gl_PerVertex"
in gl_PerVertex { vec4 gl_Position; } gl_in[]; // ERROR "gl_PerVertex \\(gl_in\\) is redeclared more than once"
out gl_PerVertex { vec4 gl_Position; } named; // ERROR "the output gl_PerVertex block cannot have an instance name"
void main() { gl_Position = gl_in[0].gl_Position + vec4(gl_in[1].gl_ClipDistance[0]); }
// ----
#version 150
in gl_PerVertex { vec4 gl_Position; } notgl_in[]; // ERROR "the input gl_PerVertex block must be redeclared as gl_in\\[\\]"
void main() {}
// ----
#version 150
layout(points) in;
in gl_PerVertex { vec4 gl_Position; } gl_in[3]; // ERROR "gl_in redeclared with size 3 but the input primitive points has 1 vertices"
void main() {}
// ----
#version 150
vec4 f() { return gl_in[0].gl_Position; }
in gl_PerVertex { vec4 gl_Position; } gl_in[]; // ERROR "gl_PerVertex must be redeclared before gl_in is used"
void main() {}
// ----
#version 150
in gl_PerVertex { float gl_ClipDistance[9]; } gl_in[]; // ERROR "gl_ClipDistance redeclared with size 9 exceeds the implementation limit 8"
void main() {}
// ----
#version 150
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[9]; }; // ERROR "gl_ClipDistance redeclared with size 9 exceeds gl_MaxClipDistances \\(8\\)"
void main() {}
// ----
#version 150
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[gl_MaxClipDistances]; };
void main() { for (int i = 0; i < 8; i++) gl_ClipDistance[i] = 1.0; gl_Position = vec4(float(gl_ClipDistance.length())); }
// ----
#version 150 compatibility
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; vec4 gl_TexCoord[5]; } gl_in[];
out gl_PerVertex { vec4 gl_Position; vec4 gl_ClipVertex; vec4 gl_TexCoord[5]; };
void main() { gl_Position = gl_in[0].gl_Position; gl_ClipVertex = gl_in[0].gl_ClipVertex; gl_TexCoord[4] = gl_in[0].gl_TexCoord[4]; gl_BackColor = vec4(0.0); EmitVertex(); } // ERROR "undeclared identifier 'gl_BackColor'"
// ---- gl_in[]'s own gl_ClipDistance is implicitly sized: constant indices
// only and no length(); a redeclaration with a size lifts both
#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
uniform int index;
void main() {
	gl_Position = vec4(gl_in[0].gl_ClipDistance[index]); // ERROR "implicitly sized array 'gl_in\\[\\]\\.gl_ClipDistance' can only be indexed with a constant expression"
	gl_Position = vec4(gl_in[0].gl_ClipDistance.length()); // ERROR "length\\(\\) of an unsized array"
	gl_Position = vec4(gl_in[index].gl_ClipDistance[7]);
	EmitVertex();
}
// ----
#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex { float gl_ClipDistance[4]; } gl_in[];
uniform int index;
void main() { gl_Position = vec4(gl_in[0].gl_ClipDistance[index] + float(gl_in[1].gl_ClipDistance.length())); EmitVertex(); }
