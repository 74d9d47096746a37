// Function declarations and parameters. spec: GLSL 4.50 §6.1, §6.1.1.
#version 130
uniform float f1() { return 1.0; } // ERROR "function return type cannot be qualified 'uniform'"
smooth float f2() { return 1.0; } // ERROR "function return type cannot have storage or interpolation qualifiers"
float[] f3() { float a[1]; return a; } // ERROR "function return type must be an explicitly sized array" ERROR "cannot convert from float\\[1\\] to float\\[\\] to return from 'f3'"
sampler2D f4() {} // ERROR "functions cannot return samplers"
struct R { float a; } f5() { return R(1.0); } // ERROR "struct definitions are not allowed in function return types"
void f6(float a[2][2]) {} // ERROR "arrays of arrays require GLSL 4\\.30, GLSL ES 3\\.10 or GL_ARB_arrays_of_arrays"
void f7(float a, void b) {} // ERROR "parameter 2 of 'f7' cannot be void"
void f8(float a[]) {} // ERROR "array parameters must have an explicit size"
void f9(struct P { float a; } p) {} // ERROR "struct definitions are not allowed in parameter lists"
void f10(uniform float a) {} // ERROR "parameter cannot be qualified 'uniform'"
void f11(smooth float a) {} // ERROR "parameters can only have const, in, out, inout and precision qualifiers"
void f12(out sampler2D s) {} // ERROR "sampler parameters must be 'in'"
void f13(in float a);
void f13(out float a) {} // ERROR "function 'f13' redeclared with different parameter qualifiers"
float g;
void g() {} // ERROR "'g' redeclared as a function"
int main() { return 0; } // ERROR "function 'main' must return void"
// ---- arrays as return types and out parameters before GLSL 1.20
#version 110
float[2] f() { float a[2]; return a; } // ERROR "functions cannot return arrays in this GLSL version"
void h(out float a[2]) {} // ERROR "arrays cannot be out or inout parameters in GLSL 1\\.10"
void main() {}
// ---- GLSL ES 1.00 declares a function once, with one return precision
#version 100
precision mediump float;
void f(float a);
void f(float a); // ERROR "function 'f' redeclared"
highp float g(float a);
lowp float g(float a) { return a; } // ERROR "function 'g' redeclared with a different return precision"
void main() {}
// ---- GLSL ES 1.00 nests the function body inside the parameters' scope (GLSL ES 1.00 §4.2.2)
#version 100
float f(float a) { float a = 2.0; { float a = 3.0; } return a; }
void main() { gl_Position = vec4(f(1.0)); }
// ---- GLSL ES 3.00: parameters and body form one scope (GLSL ES 3.00 §4.2.2)
#version 300 es
float f(float a) { float a = 2.0; return a; } // ERROR "redeclaration of 'a'"
void main() { gl_Position = vec4(f(1.0)); }
// ---- desktop GLSL: the body is compound_statement_no_new_scope (GLSL 1.20 §9)
#version 120
float f(float a) { float a = 2.0; return a; } // ERROR "redeclaration of 'a'"
void main() { gl_Position = vec4(f(1.0)); }
