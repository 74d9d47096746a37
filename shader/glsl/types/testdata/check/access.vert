// Indexing, field selection and swizzles. spec: GLSL 4.50 §5.5, §5.7, §5.9.
#version 130
void main() {
	float f = 1.0;
	vec4 v = vec4(1.0);
	float a = f[0]; // ERROR "cannot index a value of type float"
	vec4 w = v.xyzxy; // ERROR "swizzle 'xyzxy' has more than four components"
	float b = v.k; // ERROR "invalid swizzle or field 'k' on vec4"
	mat2 m = mat2(1.0);
	float c = m.x; // ERROR "cannot select 'x' from a value of type mat2"
}
// ---- an unsized array is indexed only through its variable or block member
#version 430
float a[2][];
void main() { float x = a[0][1]; } // ERROR "cannot index an unsized array"
// ---- block members are implicitly sized by constant indices, as variables (§4.1.9)
#version 430
uniform B { float m[]; } b;
uniform C { float n[]; float k; };
void main() { gl_Position = vec4(b.m[3], n[1], k, 1.0); }
// ---- a block member sized by its indices cannot also be a global
#version 430
uniform C { float n[]; };
float n[2]; // ERROR "redeclaration of 'n'"
void main() {}
// ---- GLSL ES has no implicitly sized block members
#version 300 es
uniform C { float n[]; }; // ERROR "array 'n' must have an explicit size"
void main() { gl_Position = vec4(n[1]); }
// ---- the largest constant index is held to the array limits
#version 430
uniform C { float n[]; };
float g[];
vec4 h[][1024];
void main() {
	float x = n[2147483646]; // ERROR "index 2147483646 makes implicitly sized array 'n' exceed the implementation limit"
	float y = g[65536]; // ERROR "index 65536 makes implicitly sized array 'g' exceed the implementation limit"
	vec4 z = h[256][0]; // ERROR "index 256 makes implicitly sized array 'h' exceed the implementation limit"
	float w = g[65535];
}
// ---- runtime-sized arrays take any index but a negative constant
#version 430
layout(std430, binding = 0) buffer B { float r[]; };
void main() { float x = r[-1]; } // ERROR "index -1 is out of range"
// ---- uniform block arrays need constant indices before GLSL 4.00
#version 330
uniform U { vec4 c; } u[2];
uniform int i;
void main() { gl_Position = u[i].c; } // ERROR "interface block arrays can only be indexed with constant expressions in this GLSL version"
// ---- const parameters are read-only
#version 130
void f(const float x) { x = 1.0; } // ERROR "left-hand side of assignment: 'x' is read-only"
void main() { f(1.0); }
// ---- a struct holding a sampler is not assigned
#version 130
struct S { sampler2D s; };
void main() { S a; S b; a = b; } // ERROR "sampler variables must be uniform" ERROR "sampler variables must be uniform" ERROR "cannot assign to a sampler"
