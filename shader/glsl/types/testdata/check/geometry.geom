// Geometry shader layouts, per-vertex input sizing and the primitive functions.
// spec: GLSL 1.50 §4.3.4, §4.3.8.1, §4.3.8.2, §7.1, §8.10.
#version 150
in vec4 a[];
in vec4 b[2];
in vec4 c[3]; // ERROR "input array 'c' has size 3 but input array 'b' has size 2"
in vec4 notArray; // ERROR "geometry shader input 'notArray' must be an array"
in Anon { vec4 x; }; // ERROR "geometry shader input block 'Anon' must be an array with an instance name"
in Blk { vec4 y; } blk[];
layout(lines) in;
layout(lines) in;
layout(triangles) in; // ERROR "layout\\(triangles\\) in conflicts with the earlier layout\\(lines\\)"
layout(points, points) out; // ERROR "a layout declaration names at most one primitive"
layout(line_strip) out; // ERROR "layout\\(line_strip\\) out conflicts with the earlier layout\\(points\\)"
layout(max_vertices = 300) out; // ERROR "max_vertices = 300 exceeds gl_MaxGeometryOutputVertices \\(256\\)"
layout(max_vertices = 4) out;
layout(max_vertices = 5) out; // ERROR "max_vertices = 5 conflicts with the earlier max_vertices = 4"
layout(max_vertices = 4, triangles) out; // ERROR "layout qualifier 'triangles' is not allowed on a geometry shader 'out' declaration"
layout(points = 1) out; // ERROR "layout qualifier 'points' takes no value"
in vec4 d[3]; // ERROR "input array 'd' has size 3 but input primitive lines has 2 vertices"
out vec4 o;
void main() {
	int n = a.length() + blk.length() + gl_in.length() + gl_PrimitiveIDIn;
	o = a[1] + blk[1].y + gl_in[1].gl_Position + vec4(gl_MaxGeometryOutputVertices);
	gl_PrimitiveID = n;
	gl_Layer = 0;
	EmitVertex();
	EndPrimitive();
	gl_in[0].gl_Position = vec4(0.0); // ERROR "read-only|cannot assign"
}
// ----
#version 150
in vec4 e[];
in vec4 f[4];
float g() { return e[7].x; } // ERROR "index 7 of geometry shader input 'e' is out of range"
float h() { return e[3].x + float(e.length()); } // ERROR "length\\(\\) of an unsized array"
layout(triangles) in; // ERROR "input primitive triangles has 3 vertices but input array 'e' is indexed at 3" ERROR "input primitive triangles has 3 vertices but input array 'f' has size 4"
void main() {}
