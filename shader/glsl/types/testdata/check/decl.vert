// Declarations: empty ones, precision statements, invariant redeclarations,
// implicitly sized arrays, initializers. spec: GLSL 4.50 §4.1.9, §4.3, §4.6,
// §4.7.4.
#version 130
float; // ERROR "declaration does not declare anything"
uniform; // ERROR "declaration does not declare anything"
precision mediump float[2]; // ERROR "precision statement requires a basic type"
precision mediump vec4; // ERROR "precision statement requires int, float or a sampler type, not 'vec4'"
struct T { float a; };
uniform struct U { float b; }; // ERROR "qualifiers on a struct definition without a declarator"
float g[];
float g[2];
int g[3]; // ERROR "redeclaration of 'g'"
out vec4 o;
out vec4 p;
uniform float u;
void main() {
	o = p;
	invariant o; // ERROR "qualifier-only declarations are only allowed at global scope"
	gl_Position = vec4(u);
}
invariant p; // ERROR "'invariant' must be applied to 'p' before it is used"
invariant u; // ERROR "'invariant' must be applied to 'u' before it is used" ERROR "'invariant' can only qualify shader outputs, not 'u'"
const float c; // ERROR "const variable 'c' must be initialized"
// ---- an empty default qualifier declaration of inputs
#version 130
in; // ERROR "declaration does not declare anything"
out; // ERROR "declaration does not declare anything"
void main() {}
// ---- a precision statement names a basic type
#version 130
struct T { float a; };
precision mediump T; // ERROR "precision statement requires int, float or a sampler type, not 'T'"
void main() {}
// ---- an implicitly sized array redeclared with another type
#version 130
float g[];
int g[3]; // ERROR "redeclaration of 'g' with a different type"
void main() {}
// ---- redeclaring gl_ClipDistance below an index in use
#version 130
void main() { gl_ClipDistance[3] = 1.0; }
out float gl_ClipDistance[2]; // ERROR "built-in 'gl_ClipDistance' must be redeclared before it is used" ERROR "redeclared size of 'gl_ClipDistance' is smaller than an index already used"
// ---- GLSL ES 3.00 has no struct definitions in in/out declarations
#version 300 es
out struct S { float a; } s; // ERROR "struct definitions are not allowed in in/out declarations"
void main() {}
// ---- a type-specifier array before GLSL 1.20
#version 110
void main() { float[2] a; } // ERROR "array types in type specifiers require GLSL 1\\.20"
// ---- GLSL ES 1.00's grammar has type-specifier arrays, as GLSL 1.20's does
#version 100
void f(out float x[2]) { x[0] = 1.0; }
void main() { float[2] a; f(a); }
// ---- arrays of arrays arrived in GLSL 4.30
#version 420
void main() { float a[2][3]; float[2] b[3]; } // ERROR "arrays of arrays require GLSL 4\\.30, GLSL ES 3\\.10 or GL_ARB_arrays_of_arrays" ERROR "arrays of arrays require GLSL 4\\.30, GLSL ES 3\\.10 or GL_ARB_arrays_of_arrays"
// ---- storage blocks need GLSL 4.30; binding has no default
#version 420
buffer; // ERROR "declaration does not declare anything" ERROR "buffer blocks require GLSL 4\\.30 or GL_ARB_shader_storage_buffer_object"
layout(binding = 2) uniform; // ERROR "layout\\(binding\\) is not allowed in a default qualifier declaration"
void main() {}
// ---- uniform initializers arrived in GLSL 1.20; samplers cannot be initialized
#version 110
uniform float k = 1.0; // ERROR "uniform 'k' cannot be initialized in this GLSL version"
void main() {}
// ---- samplers cannot be initialized
#version 130
uniform sampler2D s = 0; // ERROR "sampler 's' cannot be initialized"
void main() {}
// ---- only 'invariant' may requalify a variable
#version 130
out vec4 v;
centroid v; // ERROR "only 'invariant' may qualify an existing variable"
void main() {}
// ---- built-in redeclarations
#version 130
void main() { gl_TexCoord[5] = vec4(0.0); }
out vec4 gl_TexCoord[2]; // ERROR "built-in 'gl_TexCoord' must be redeclared before it is used"
// ---- built-in redeclarations keep storage, type and limits
#version 130
in vec4 gl_TexCoord[]; // ERROR "redeclaration of built-in 'gl_TexCoord' must keep its storage qualifier 'out'"
// ---- implicitly sized arrays are not assigned to (GLSL 1.20 §4.1.9)
#version 120
uniform float a[5];
float g[];
void main() {
	float b[];
	b = a; // ERROR "implicitly sized arrays cannot be assigned to"
	g = b; // ERROR "implicitly sized arrays cannot be assigned to"
	b[2] = g[3];
	float c[] = a;
	c = a;
	gl_Position = vec4(c[4]);
}
// ---- GL_ARB_arrays_of_arrays brings them to GLSL 1.20
#version 120
#extension GL_ARB_arrays_of_arrays : require
uniform float u[2][3];
float f(float a[2][3]) { return a[1][2]; }
void main() { float b[2][3] = u; float[3] c[2] = b; gl_Position = vec4(f(c), float(b.length()), float(b[0].length()), 1.0); }
