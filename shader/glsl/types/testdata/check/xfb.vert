// GL_ARB_enhanced_layouts' transform feedback qualifiers in a GLSL 1.50
// vertex shader: where they may appear and the limits, alignments, strides
// and overlaps they must respect. spec: GLSL 4.40 §4.4.2.1.
#version 150
#extension GL_ARB_enhanced_layouts : require
layout(xfb_buffer = 1, xfb_stride = 32) out;
layout(xfb_offset = 0) out vec4 a;
layout(xfb_offset = 16) out vec4 b;
layout(xfb_offset = 8) out vec4 c; // ERROR "'c' at xfb_offset 8 overlaps 'a' in transform feedback buffer 1"
layout(xfb_offset = 2) out float d; // ERROR "xfb_offset = 2 is not a multiple of 4"
layout(xfb_buffer = gl_MaxTransformFeedbackBuffers) out vec4 e; // ERROR "xfb_buffer = 4 is not below gl_MaxTransformFeedbackBuffers \\(4\\)"
layout(xfb_stride = 6) out vec4 f; // ERROR "xfb_stride = 6 is not a multiple of 4"
layout(xfb_stride = 260) out vec4 g; // ERROR "xfb_stride = 260 exceeds gl_MaxTransformFeedbackInterleavedComponents"
layout(xfb_stride = 48) out vec4 h; // ERROR "xfb_stride = 48 for buffer 1 conflicts with the earlier xfb_stride = 32"
layout(xfb_offset = 0) out; // ERROR "layout\\(xfb_offset\\) is not allowed in a default qualifier declaration"
layout(xfb_buffer = 2, xfb_offset = 0) out vec4 arr[]; // ERROR "'arr' has xfb_offset but no array size"
layout(xfb_buffer = 2) out B {
	vec4 m0;
	layout(xfb_buffer = 3) vec4 m1; // ERROR "block member 'm1' has xfb_buffer = 3 but its block 'B' is in buffer 2"
};
layout(xfb_buffer = 3, xfb_stride = 16) out vec4 s0;
layout(xfb_buffer = 3, xfb_offset = 8) out vec4 s1; // ERROR "'s1' ends at byte 24 of transform feedback buffer 3, past its xfb_stride 16"
layout(xfb_buffer = 0, xfb_offset = 248) out vec4 s2; // ERROR "'s2' ends at byte 264 of transform feedback buffer 0, past gl_MaxTransformFeedbackInterleavedComponents"
layout(xfb_offset = 0) uniform float u; // ERROR "layout\\(xfb_offset\\) is only allowed on vertex and geometry shader outputs"
void main() { gl_Position = a + vec4(u); }
// ----
#version 150
layout(xfb_buffer = 0) out vec4 a; // ERROR "layout\\(xfb_buffer\\) requires GLSL 4.40 or GL_ARB_enhanced_layouts"
void main() { gl_Position = a; }
// ----
// offset and align need std140 or std430, and the locations of block members
// follow the all-or-none rule.
#version 150
#extension GL_ARB_enhanced_layouts : require
#extension GL_ARB_separate_shader_objects : require
layout(shared, align = 16) uniform U { vec4 u; }; // ERROR "layout\\(align\\) requires a std140 or std430 block, not shared"
uniform V { layout(offset = 16) vec4 v; }; // ERROR "layout\\(offset\\) requires a std140 or std430 block, not shared"
out W { // ERROR "members of the block array 'w' cannot have locations"
	layout(location = 1) vec4 x;
} w[2];
out X {
	vec4 y; // ERROR "block member 'y' needs a location: its block has none and other members have one"
	layout(location = 4) vec4 z;
};
void main() { gl_Position = u + v; }
