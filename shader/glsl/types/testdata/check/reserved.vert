// Identifiers containing "__" are reserved, but declaring one is no error: a
// warning in every version. spec: GLSL 4.50 §3.7, GLSL 1.10 §3.6, GLSL ES 1.00 §3.7.
#version 110
uniform float a__b; // WARNING "identifier 'a__b' uses the reserved '__' string"
struct S__ { float x; }; // WARNING "identifier 'S__' uses the reserved '__' string"
float __f(float p__) { return p__; } // WARNING "identifier '__f' uses the reserved '__' string" WARNING "identifier 'p__' uses the reserved '__' string"
void main() {
	float l__ = __f(a__b); // WARNING "identifier 'l__' uses the reserved '__' string"
	S__ s = S__(l__);
	gl_Position = vec4(s.x);
}
// ---- GLSL ES 1.00
#version 100
attribute vec4 pos__; // WARNING "identifier 'pos__' uses the reserved '__' string"
void main() { gl_Position = pos__; }
// ---- GLSL ES 3.00, a uniform block and its instance
#version 300 es
uniform B__ { vec4 m__; } b__; // WARNING "identifier 'B__' uses the reserved '__' string" WARNING "identifier 'm__' uses the reserved '__' string" WARNING "identifier 'b__' uses the reserved '__' string"
void main() { gl_Position = b__.m__; }
// ---- the gl_ prefix stays an error
#version 130
float gl__x; // ERROR "identifier 'gl__x' uses the reserved prefix gl_"
void main() {}
