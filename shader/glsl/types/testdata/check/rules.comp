// Compute shader declarations: local size, shared variables, storage blocks,
// images and atomics. spec: GLSL 4.50 §4.3.8, §4.3.9, §4.4.1.4, §4.4.6, §4.4.7.
// zero
#version 430
layout(local_size_x = 0) in; // ERROR "local_size_x must be at least 1"
void main() {}
// ---- conflict
#version 430
layout(local_size_x = 2) in;
layout(local_size_x = 4) in; // ERROR "local_size_x = 4 conflicts with an earlier declaration of 2"
void main() {}
// ---- too-big
#version 430
layout(local_size_x = 1024, local_size_y = 2) in; // ERROR "local size 1024x2x1 exceeds gl_MaxComputeWorkGroupInvocations \\(1024\\)"
void main() {}
// ---- shared-init
#version 430
layout(local_size_x = 1) in;
shared int s = 1; // ERROR "shared variable 's' cannot be initialized"
void main() {}
// ---- shared-local
#version 430
layout(local_size_x = 1) in;
void main() { shared int s; } // ERROR "'shared' variables must be declared at global scope"
// ---- buffer-var
#version 430
layout(local_size_x = 1) in;
buffer int x; // ERROR "'buffer' variables must be declared inside a shader storage block"
void main() {}
// ---- atomic-local
#version 430
layout(local_size_x = 1) in;
void main() { int x = 0; atomicAdd(x, 1); } // ERROR "first argument of 'atomicAdd' must be a buffer or shared variable"
// ---- readonly-member
#version 430
layout(local_size_x = 1) in;
layout(std430) buffer B { readonly int x; } b;
void main() { b.x = 1; } // ERROR "left-hand side of assignment: 'x' is readonly"
// ---- unsized-middle: an error in GLSL ES; desktop GLSL sizes the member by its
// largest constant index or fails the link (glsl's TestLinkImplicitBufferMembers)
#version 310 es
layout(local_size_x = 1) in;
layout(std430) buffer B { int a[]; int b; }; // ERROR "only the last member of a buffer block may be an unsized array"
void main() {}
// ---- only the outermost dimension of the last member is sized at run time (§4.1.9)
#version 430
layout(local_size_x = 1) in;
layout(std430) buffer B { float a[2][]; };
layout(std430) buffer C { float r[][2]; } c;
void main() {
	a[1][3] = 1.0; // ERROR "cannot index an unsized array"
	int n = a[0].length(); // ERROR "length\\(\\) of an unsized array"
	c.r[5][1] = float(c.r.length() + c.r[0].length());
}
// ---- image-no-format
#version 430
layout(local_size_x = 1) in;
uniform image2D img; // ERROR "image uniform 'img' requires a format layout qualifier \\(e\\.g\\. layout\\(rgba8\\)\\)"
void main() {}
// ---- image-format-base
#version 430
layout(local_size_x = 1) in;
layout(r32f) uniform uimage2D img; // ERROR "format 'r32f' does not match image type uimage2D"
void main() {}
// ---- image-writeonly-load
#version 430
layout(local_size_x = 1) in;
layout(rgba8) writeonly uniform image2D img;
void main() { vec4 c = imageLoad(img, ivec2(0)); } // ERROR "'imageLoad' reads writeonly image 'img'"
// ---- image-readonly-store
#version 430
layout(local_size_x = 1) in;
layout(rgba8) readonly uniform image2D img;
void main() { imageStore(img, ivec2(0), vec4(1)); } // ERROR "'imageStore' writes readonly image 'img'"
// ---- image-atomic-float
#version 430
layout(local_size_x = 1) in;
layout(rgba32ui) uniform uimage2D img;
void main() { imageAtomicAdd(img, ivec2(0), 1u); } // ERROR "'imageAtomicAdd' needs an r32ui or r32i image, 'img' is rgba32ui"
// ---- memory-qual-plain
#version 430
layout(local_size_x = 1) in;
readonly int x; // ERROR "memory qualifiers apply only to storage block members and images"
void main() {}
// ---- barrier-in-fragment
#version 430
out vec4 c; // ERROR "compute shaders have no 'out' variables"
void main() { barrier(); c = vec4(0); }
// ---- workgroupsize-before
#version 430
const uvec3 s = gl_WorkGroupSize;
layout(local_size_x = 2) in; // ERROR "local size declared after gl_WorkGroupSize was used"
void main() {}
// ---- es-image-readwrite
#version 310 es
layout(local_size_x = 1) in;
layout(rgba8) uniform highp image2D img; // ERROR "image 'img' with format rgba8 must be readonly or writeonly in GLSL ES"
void main() {}
// ---- row-major-matrix: a row_major mat2x3 is 3 rows of vec2 (24 bytes), a
// column-major one 2 columns of vec3 (32 bytes). spec: OpenGL 4.5 §7.6.2.2 rule 7
#version 440
layout(local_size_x = 1) in;
layout(std430, row_major) buffer B { mat2x3 m; layout(offset = 24) float f; };
layout(std430) buffer C { mat2x3 m2; layout(offset = 24) float f2; }; // ERROR "layout\\(offset = 24\\) of 'f2' overlaps the previous member"
void main() {}
// ---- member-offset-misaligned
#version 440
layout(local_size_x = 1) in;
layout(std430) buffer B { layout(offset = 6) vec2 v; }; // ERROR "layout\\(offset = 6\\) of 'v' is not a multiple of its alignment 8"
void main() {}
// ---- member-offset-overlap
#version 440
layout(local_size_x = 1) in;
layout(std430) buffer B { vec4 a; layout(offset = 8) float f; }; // ERROR "layout\\(offset = 8\\) of 'f' overlaps the previous member"
void main() {}
// ---- counter-offset
#version 430
layout(local_size_x = 1) in;
layout(binding = 0, offset = 2) uniform atomic_uint c; // ERROR "atomic counter offset 2 is not a multiple of 4"
void main() {}
// ---- a runtime-sized array is not assigned to
#version 430
layout(local_size_x = 1) in;
layout(std430) buffer B { float r[]; } b;
layout(std430) buffer C { float s[]; } c;
void main() { b.r = c.s; } // ERROR "implicitly sized arrays cannot be assigned to"
// ---- an unsized buffer member before the last is sized by its largest constant
// index; without one, or indexed otherwise, the link fails (these are link
// diagnostics: the unit compiles). spec: GLSL 4.50 §4.1.9
#version 430
layout(local_size_x = 1) in;
uniform int f;
layout(std430) buffer B { int a[]; int b; }; // ERROR "buffer block member 'a' is an unsized array but not the last member, and no constant index sizes it"
layout(std430) buffer C { vec4 s[]; vec4 t[]; } c; // ERROR "buffer block member 's' is an unsized array but not the last member"
layout(std430) buffer D { vec4 u[]; vec4 w[]; } d;
void main() {
	c.s[f] = vec4(0.0); // ERROR "implicitly sized array 's' can only be indexed with a constant expression"
	d.u[2] = d.w[f];
}
