// Expressions: literals, operators, assignments, initializer lists.
// spec: GLSL 4.50 §4.1.3, §4.1.11, §5.1, §5.8, §5.9.
#version 130
struct S { sampler2D s; };
float h(float x) { return x; }
void main() {
	float a = 1.0;
	float b = h; // ERROR "function 'h' used as a variable"
	int d = 4294967296; // ERROR "integer literal 4294967296 is too large"
	bool e = true;
	bool f = -e; // ERROR "operator '-' requires a numeric operand, not bool"
	bool g = ++e; // ERROR "operator '\\+\\+' requires a numeric operand, not bool"
	float i = ~a; // ERROR "operator '~' requires an integer operand, not float"
	a += vec2(1.0); // ERROR "operator '\\+=' cannot be applied to float and vec2"
}
// ---- a type name that a variable shadows in the parser's view
#version 130
struct S { float a; };
float S; // ERROR "redeclaration of 'S'"
void main() { float b = S; } // ERROR "type 'S' used as a variable"
// ---- integer literals past 2^31 before GLSL 1.30, and '~'
#version 120
void main() { int a = 3000000000; int b = ~1; } // ERROR "integer literal 3000000000 is too large" ERROR "operator '~' is reserved in this GLSL version"
// ---- arrays are assigned from GLSL 1.20
#version 110
void main() { float a[2]; float b[2]; a = b; } // ERROR "arrays cannot be assigned in this GLSL version"
// ---- GLSL ES has no array operands of '?:'
#version 300 es
void main() { float a[2]; float b[2]; bool c = true; float d[2] = c ? a : b; } // ERROR "operands of '\\?:' cannot be arrays in GLSL ES"
// ---- a double literal is not a float literal
#version 130
void main() { float a = 1.0lf; } // ERROR "invalid floating-point literal 1\\.0lf"
