// Types: unknown names, arrays, struct members. spec: GLSL 4.50 §4.1.8, §4.1.9.
#version 420
struct S1 { uniform float a; }; // ERROR "struct members cannot have qualifiers other than precision"
struct S2 { struct S3 { float b; } c; }; // ERROR "embedded struct definitions are not allowed"
struct S4 { void d; }; // ERROR "struct member cannot be void"
struct S5 { float e[]; }; // ERROR "struct member 'e' must have an explicit array size"
struct S6 { float f; int f; }; // ERROR "duplicate struct member 'f'"
struct S7 { float g[2][2]; }; // ERROR "arrays of arrays require GLSL 4\\.30, GLSL ES 3\\.10 or GL_ARB_arrays_of_arrays"
void main() {
	void y[2]; // ERROR "cannot declare an array of void"
	float z[1.0]; // ERROR "array size must be an integer constant expression, not float"
	float w[100000]; // ERROR "array size 100000 is too large"
	float v[2][2]; // ERROR "arrays of arrays require GLSL 4\\.30, GLSL ES 3\\.10 or GL_ARB_arrays_of_arrays"
}
// ---- a struct whose name is taken is unknown as a type
#version 130
float S;
struct S { float a; }; // ERROR "redeclaration of 'S'"
S x; // ERROR "unknown type 'S'"
void main() {}
// ---- arrays of arrays and of structs are held to a total size
#version 430
struct Big { mat4 m[65536]; };
struct Huge { Big a; Big b; }; // ERROR "type 'Huge' of 2097152 words exceeds the implementation limit of 1048576 words"
uniform float u[4096][4096]; // ERROR "type 'float\\[4096\\]\\[4096\\]' of 16777216 words exceeds the implementation limit of 1048576 words"
void main() {
	float a[65536][65536][65536]; // ERROR "type 'float\\[65536\\]\\[65536\\]\\[65536\\]' of 281474976710656 words exceeds the implementation limit of 1048576 words"
	Big b[2]; // ERROR "type 'Big\\[2\\]' of 2097152 words exceeds the implementation limit of 1048576 words"
	mat4 c[65536];
	Big d;
	Big e[] = Big[](d, d); // ERROR "type 'Big\\[2\\]' of 2097152 words exceeds the implementation limit of 1048576 words"
}
