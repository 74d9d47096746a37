// Calls, constructors and .length(). spec: GLSL 4.50 §5.4, §5.9, §6.1.
#version 130
void v() {}
float h(float x) { return x; }
struct S { float a; int b; };
uniform sampler2D tex;
void main() {
	float k = 1.0;
	float a = h(v()); // ERROR "void value used as an argument of 'h'"
	float b = k(1.0); // ERROR "'k' is a variable, not a function"
	float c[2] = float[2](1.0, 2.0);
	int d = c.size(); // ERROR "unknown method 'size'"
	int e = c.length(1); // ERROR "length\\(\\) takes no arguments"
	int f = k.length(); // ERROR "length\\(\\) cannot be applied to float"
	vec4 g = vec4(); // ERROR "constructor 'vec4' requires arguments"
	vec4 i = vec4(tex); // ERROR "cannot use a sampler as a constructor argument"
	vec4 j = vec4(c); // ERROR "cannot use an array as an argument to constructor 'vec4'"
	vec4 l = sampler2D(1); // ERROR "cannot construct type sampler2D"
	float m[2] = float[2](1.0); // ERROR "array constructor 'float\\[2\\]' requires 2 arguments, got 1"
	float n[2] = float[2](1.0, true); // ERROR "array constructor argument 2 has type bool, expected float"
	S o = S(1.0); // ERROR "constructor of struct 'S' requires 2 arguments, got 1"
	vec4 p = vec4(S(1.0, 2)); // ERROR "cannot use S as an argument to constructor 'vec4'"
	mat2 q = mat2(mat2(1.0), 1.0); // ERROR "too many arguments to constructor 'mat2'"
}
// ---- .length() of an unsized array
#version 120
float u[];
void main() { u[2] = 1.0; int n = u.length(); } // ERROR "length\\(\\) of an unsized array"
// ---- array constructors arrived in GLSL 1.20
#version 110
void main() { float a = float[2](1.0, 2.0)[0]; } // ERROR "array constructors require GLSL 1\\.20"
// ---- before GLSL 4.00 several conversions make a call ambiguous
#version 130
void f(float a, int b) {}
void f(int a, float b) {}
void main() { f(1, 1); } // ERROR "ambiguous call to 'f\\(int, int\\)'"
// ---- from GLSL 4.00 equally good conversions are ambiguous
#version 400
void f(float a, int b) {}
void f(int a, float b) {}
void main() { f(1, 1); } // ERROR "ambiguous call to 'f\\(int, int\\)'"
// ---- a matrix argument is the only one
#version 130
void main() { mat3 q = mat3(mat2(1.0), 1.0); } // ERROR "a matrix argument to constructor 'mat3' must be the only argument"
