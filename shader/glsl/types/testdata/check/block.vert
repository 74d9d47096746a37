// Interface blocks. spec: GLSL 4.50 §4.3.9.
#version 430
in VIn { vec4 a; }; // ERROR "in blocks are not allowed here"
varying VV { vec4 b; }; // ERROR "interface block 'VV' requires 'uniform', 'in' or 'out'"
uniform B1 { struct S { float x; } s; }; // ERROR "struct definitions are not allowed inside blocks"
uniform B2 { out float c; }; // ERROR "block member storage must match the block"
uniform B3 { sampler2D d; }; // ERROR "samplers are not allowed in blocks"
uniform B4 { layout(binding = 1) float e; }; // ERROR "layout qualifier 'binding' is not allowed on a block member"
uniform B1 { float f; }; // ERROR "redeclaration of block 'B1'"
float g;
uniform g { float h; }; // ERROR "block name 'g' is already used by another global"
uniform B5 { float i; } j[]; // ERROR "interface block array 'j' must have an explicit size"
void main() {
	gl_Position = vec4(0.0);
}
// ---- output block members are not void
#version 150
out B { void x; }; // ERROR "out variables cannot be void"
void main() {}
// ---- storage blocks need GLSL 4.30
#version 420
buffer S { float x; }; // ERROR "buffer blocks require GLSL 4\\.30 or GLSL ES 3\\.10"
void main() {}
// ---- packing layouts belong to the block, not its members
#version 140
uniform ubo { layout(std140) vec4 a; layout(row_major) mat4 m; }; // ERROR "layout qualifier 'std140' is not allowed on a block member"
void main() { gl_Position = a; }
