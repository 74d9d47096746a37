// Initializer lists. spec: GLSL 4.20 §4.1.11.
#version 420
struct S { float a; int b; };
void main() {
	float a[2] = {1.0, 2.0, 3.0}; // ERROR "initializer list for float\\[2\\] has 3 elements"
	S s = {1.0}; // ERROR "initializer list for S has 1 elements, want 2"
	mat2 m = {vec2(1.0)}; // ERROR "initializer list for mat2 has 1 columns, want 2"
	vec3 v = {1.0, 2.0}; // ERROR "initializer list for vec3 has 2 elements, want 3"
	float f = {1.0, 2.0}; // ERROR "a scalar float cannot be initialized with a list"
	int i = {1}; // ERROR "a scalar int cannot be initialized with a list"
	vec2 w = {{1.0}, 2.0}; // ERROR "a scalar float cannot be initialized with a list"
}
