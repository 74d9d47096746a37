// The type rules of the checker, vertex stage: implicit conversions per version,
// operators, l-values, swizzles, constant expressions, declarations and scopes,
// built-ins per version. spec: GLSL 1.10-4.50 and ES 3.00, §4-§8.
// no conversion in 1.10
#version 110
void main() { float f = 1; } // ERROR "cannot convert from int to float to initialize 'f'"
// ---- no conversion in ES
#version 300 es
void main() { float f = 1; } // ERROR "cannot convert from int to float to initialize 'f'"
// ---- no int->uint in 1.30
#version 130
void main() { uint u = 1; } // ERROR "cannot convert from int to uint to initialize 'u'"
// ---- no float->int
#version 450
void main() { int i = 1.0; } // ERROR "cannot convert from float to int to initialize 'i'"
// ---- mixed arithmetic 1.10
#version 110
void main() { vec2 v = vec2(1.0) * 2; } // ERROR "operator '\\*' cannot be applied to vec2 and int"
// ---- vector size mismatch
void main() { vec2 a; vec3 b; a + b; } // ERROR "operator '\\+' cannot be applied to vec2 and vec3"
// ---- matrix shape
#version 120
void main() { mat2x3 m; vec3 v = m * vec3(1.0); } // ERROR "operator '\\*' cannot be applied to mat2x3 and vec3"
// ---- modulo reserved in 1.10
void main() { int a = 5 % 2; } // ERROR "operator '%' is reserved in this GLSL version"
// ---- shift float
#version 130
void main() { float a = 1.0 << 2; } // ERROR "operator '<<' cannot be applied to float and int"
// ---- logical needs bool
void main() { bool b = 1 && true; } // ERROR "operator '&&' cannot be applied to int and bool"
// ---- not needs bool
void main() { bool b = !1; } // ERROR "operator '!' requires a scalar bool operand, not int"
// ---- relational on vectors
void main() { bool b = vec2(1.0) < vec2(2.0); } // ERROR "operator '<' cannot be applied to vec2 and vec2"
// ---- ternary types
void main() { float f = true ? 1.0 : vec2(1.0); } // ERROR "operands of '\\?:' have different types float and vec2"
// ---- ternary condition
void main() { float f = 1 ? 1.0 : 2.0; } // ERROR "condition of '\\?:' must be a scalar bool, not int"
// ---- write uniform
uniform float u; void main() { u = 1.0; } // ERROR "left-hand side of assignment: 'u' is read-only"
// ---- write const
void main() { const float c = 1.0; c = 2.0; } // ERROR "left-hand side of assignment: 'c' is read-only"
// ---- write attribute
attribute vec4 a; void main() { a.x = 1.0; } // ERROR "left-hand side of assignment: 'a' is read-only"
// ---- repeated swizzle write
void main() { vec4 v; v.xx = vec2(1.0); } // ERROR "left-hand side of assignment: swizzle 'xx' repeats a component"
// ---- increment rvalue
void main() { int a; (a + 1)++; } // ERROR "operand of '\\+\\+' is not an l-value"
// ---- out arg must be lvalue
void f(out float x) {} void main() { f(1.0); } // ERROR "out argument 1 of 'f' is not an l-value"
// ---- swizzle out of range
void main() { vec2 v; float f = v.z; } // ERROR "swizzle component 'z' is out of range for vec2"
// ---- mixed swizzle sets
void main() { vec4 v; vec2 w = v.xg; } // ERROR "swizzle 'xg' mixes component sets"
// ---- struct field
struct S { float a; }; void main() { S s; float f = s.b; } // ERROR "'S' has no field named 'b'"
// ---- index out of range
void main() { float a[2]; a[2] = 1.0; } // ERROR "index 2 is out of range \\[0, 2\\)"
// ---- index float
void main() { float a[2]; a[1.0] = 1.0; } // ERROR "array index must be a scalar integer, not float"
// ---- const needs init
void main() { const float c; } // ERROR "const variable 'c' must be initialized"
// ---- const needs constant
uniform float u; void main() { const float c = u; } // ERROR "initializer of 'c' must be a constant expression"
// ---- array size constant
uniform int n; void main() { float a[n]; } // ERROR "array size must be a constant expression"
// ---- array size positive
void main() { float a[1 - 1]; } // ERROR "array size must be greater than zero, got 0"
// ---- redeclaration
void main() { int a; float a; } // ERROR "redeclaration of 'a'"
// ---- undeclared
void main() { x = 1; } // ERROR "undeclared identifier 'x'"
// ---- reserved prefix
void main() { int gl_x; } // ERROR "identifier 'gl_x' uses the reserved prefix gl_"
// ---- void variable
void main() { void v; } // ERROR "variable 'v' declared void"
// ---- local uniform
void main() { uniform float u; } // ERROR "local variables cannot be declared 'uniform'"
// ---- integer attribute
attribute int a; void main() {} // ERROR "attribute cannot have type int"
// ---- bool output
#version 130
out bool b; void main() {} // ERROR "out variables cannot have type bool"
// ---- in global in 1.10
in vec4 p; void main() {} // ERROR "'in' at global scope requires GLSL 1\\.30"
// ---- extension does not cover varyings
#version 140
#extension GL_ARB_explicit_attrib_location : enable
layout(location = 0) out vec4 v; void main() { v = vec4(1.0); gl_Position = v; } // ERROR "layout\\(location\\) on a vertex shader out requires GLSL 4\\.10"
// ---- index in a vertex shader
#version 330
layout(location = 0, index = 0) in vec4 b; void main() { gl_Position = b; } // ERROR "layout\\(index\\) is only allowed on fragment shader outputs"
// ---- int min not in ES 1.00
#version 100
uniform int n; void main() { int i = min(n, 4); gl_Position = vec4(float(i)); } // ERROR "no matching overload for call to 'min\\(int, int\\)'"
// ---- uniform block 1.30
#version 130
uniform B { mat4 m; }; void main() {} // ERROR "uniform blocks require GLSL 1\\.40, GLSL ES 3\\.00 or GL_ARB_uniform_buffer_object"
// ---- return type overload
float f(float x); int f(float x); void main() {} // ERROR "function 'f' redeclared with a different return type"
// ---- redefinition
void f() {} void f() {} void main() {} // ERROR "function 'f' redefined"
// ---- no matching overload
void f(vec2 x) {} void main() { f(1.0); } // ERROR "no matching overload for call to 'f\\(float\\)'"
// ---- undeclared function
void main() { g(); } // ERROR "undeclared function 'g'"
// ---- return value from void
void main() { return 1; } // ERROR "void function 'main' cannot return a value"
// ---- missing return value
float f() { return; } void main() {} // ERROR "function 'f' must return a value of type float"
// ---- recursion
float f(float x) { return f(x); } void main() {} // ERROR "function 'f' is recursive"
// ---- main with params
void main(int x) {} // ERROR "function 'main' cannot take parameters"
// ---- builtin redefine 1.30
#version 130
float sin(float x) { return x; } void main() {} // ERROR "cannot redefine built-in function 'sin'"
// ---- builtin overload ES
#version 300 es
float sin(int x) { return 1.0; } void main() {} // ERROR "cannot redeclare or overload built-in function 'sin'"
// ---- break outside loop
void main() { break; } // ERROR "break statement outside of a loop or switch"
// ---- continue in switch
#version 130
void main() { switch (1) { case 1: continue; } } // ERROR "continue statement outside of a loop"
// ---- discard in VS
void main() { discard; } // ERROR "discard is only allowed in fragment shaders"
// ---- if condition
void main() { if (1) {} } // ERROR "if condition must be a scalar bool, not int"
// ---- switch float
#version 130
void main() { switch (1.0) { default: break; } } // ERROR "switch expression must be a scalar integer, not float"
// ---- duplicate case
#version 130
void main() { switch (1) { case 1: break; case 1: break; } } // ERROR "duplicate case value 1"
// ---- case not constant
#version 130
uniform int u; void main() { switch (1) { case u: break; } } // ERROR "case label must be a scalar integer constant expression"
// ---- statement before case
#version 130
void main() { int a; switch (a) { a = 1; case 1: break; } } // ERROR "statement before the first case label in switch"
// ---- for scope
void main() { for (int i = 0; i < 2; i++) {} i = 1; } // ERROR "undeclared identifier 'i'"
// ---- ctor too many
void main() { vec2 v = vec2(1.0, 2.0, 3.0); } // ERROR "too many arguments to constructor 'vec2'"
// ---- ctor not enough
void main() { vec3 v = vec3(1.0, 2.0); } // ERROR "not enough data to construct 'vec3'"
// ---- ctor struct wrong
struct S { float a; }; void main() { S s = S(vec2(1.0)); } // ERROR "argument 1 of constructor 'S' has type vec2, expected float"
// ---- dFdx in VS
void main() { float f = dFdx(1.0); } // ERROR "built-in function 'dFdx' is not available in this GLSL version or stage"
// ---- inverse 1.40
#version 140
void main() { mat3 m = inverse(mat3(2.0)); float d = determinant(mat2(1.0)); } // ERROR "built-in function 'determinant' is not available in this GLSL version or stage"
// ---- legacy in core
#version 150
void main() { gl_Position = gl_Vertex; } // ERROR "undeclared identifier 'gl_Vertex'"
// ---- gl_InstanceID 1.30
#version 130
void main() { int i = gl_InstanceID; } // ERROR "undeclared identifier 'gl_InstanceID'"
// ---- implicit array too small
#version 120
void main() { float a[]; a[5] = 1.0; float a[4]; } // ERROR "array 'a' redeclared with size 4 but indexed at 5"
// ---- implicit array dynamic index
#version 120
uniform int i; float a[]; void main() { a[i] = 1.0; } // ERROR "implicitly sized array 'a' can only be indexed with a constant expression"
// ---- implicit array in ES
#version 300 es
void main() { float a[]; } // ERROR "array 'a' must have an explicit size"
// ---- clip distance limit
#version 130
void main() { gl_ClipDistance[8] = 1.0; } // ERROR "index 8 of 'gl_ClipDistance' exceeds the implementation limit 8"
// ---- qualifier order 1.30
#version 130
smooth invariant out float x; void main() {} // ERROR "qualifier 'invariant' is out of order \\(GLSL requires invariant, interpolation, storage, precision\\)"
// ---- qualifier order 3.00 es
#version 300 es
highp out float x; void main() {} // ERROR "qualifier 'out' is out of order"
// ---- GLSL ES 3.10 and GLSL 4.20 take qualifiers in any order
#version 310 es
highp out float x; out highp float y; void main() { x = 1.0; y = x; }
// ---- block gl_ prefix
#version 150
uniform gl_Foo { vec4 a; }; void main() {} // ERROR "identifier 'gl_Foo' uses the reserved prefix gl_"
// ---- condition declaration not bool
void main() { while (int x = 1) {} } // ERROR "if condition must be a scalar bool, not int"
// ---- initializer list count
#version 420
void main() { vec3 v = {1.0, 2.0}; } // ERROR "initializer list for vec3 has 2 elements, want 3"
// ---- initializer list 4.10
#version 410
void main() { vec2 v = {1.0, 2.0}; } // ERROR "initializer lists require GLSL 4\\.20"
// ---- interpolation mismatch
#version 130
smooth in float v; out vec4 c; void main() { c = vec4(v); } // ERROR "interpolation qualifiers cannot be used on vertex shader inputs"
// ---- GL_ARB_shading_language_420pack brings GLSL 4.20's conveniences to 1.30
#version 130
#extension GL_ARB_shading_language_420pack : require
uniform float u;
void main() { const float k = u * 2.0; vec2 v = u.xx; mat2 m = {{1.0, 0.0}, {0.0, 1.0}}; float n = float(v.length() + m.length()); gl_Position = vec4(k, v, n); }
// ---- without it, a local const needs a constant initializer in GLSL 1.30
#version 130
uniform float u;
void main() { const float k = u * 2.0; gl_Position = vec4(k); } // ERROR "initializer of 'k' must be a constant expression"
// ---- and a global const still does with it
#version 130
#extension GL_ARB_shading_language_420pack : require
uniform float u;
const float g = u; // ERROR "initializer of 'g' must be a constant expression"
void main() { gl_Position = vec4(g); }
// ---- GL_ARB_uniform_buffer_object: uniform blocks and their layouts in GLSL 1.30
#version 130
#extension GL_ARB_uniform_buffer_object : require
layout(std140) uniform;
layout(row_major) uniform B { mat4 m; vec4 a; } b;
void main() { gl_Position = b.m * b.a; }
// ---- GL_ARB_explicit_uniform_location: layout(location) on uniforms in GLSL 1.30
#version 130
#extension GL_ARB_explicit_uniform_location : require
layout(location = 2) uniform vec4 u;
void main() { gl_Position = u; }
// ---- a qualifier given twice
#version 420
centroid centroid out float x; // ERROR "duplicate qualifier 'centroid'"
void main() { x = 1.0; }
// ---- GLSL 4.20's parameter qualifiers in any order
#version 420
float a(in const float x) { return x; }
float d(const in float x) { return x; }
void main() { gl_Position = vec4(a(1.0) + d(2.0)); }
