// GL_ARB_texture_gather in GLSL 1.30: textureGather and textureGatherOffset
// with a constant offset, without ARB_gpu_shader5's component select, shadow
// forms and textureGatherOffsets. spec: ARB_texture_gather.
#version 130
uniform sampler2D s;
void main() {
	gl_FragColor = textureGather(s, vec2(0.5)); // ERROR "built-in function 'textureGather' is not available"
}
// ----
#version 130
#extension GL_ARB_texture_gather : require
uniform sampler2D s;
uniform isampler2DArray ia;
uniform samplerCube c;
uniform sampler2DShadow sh;
uniform ivec2 off;
void main() {
	vec4 a = textureGather(s, vec2(0.5)) + vec4(textureGather(ia, vec3(0.5))) + textureGather(c, vec3(1.0));
	vec4 b = textureGatherOffset(s, vec2(0.5), ivec2(1, -1));
	vec4 d = textureGather(s, vec2(0.5), 1); // ERROR "no matching overload for call to 'textureGather"
	vec4 e = textureGather(sh, vec2(0.5), 0.5); // ERROR "no matching overload for call to 'textureGather"
	vec4 f = textureGatherOffset(s, vec2(0.5), off); // ERROR "texel offset of 'textureGatherOffset' must be a constant expression"
	vec4 g = textureGatherOffsets(s, vec2(0.5), ivec2[4](ivec2(0), ivec2(0), ivec2(0), ivec2(0))); // ERROR "built-in function 'textureGatherOffsets' is not available"
	gl_FragColor = a + b + d + e + f + g;
}
