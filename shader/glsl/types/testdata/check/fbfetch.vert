// Framebuffer fetch reads colour outputs: no other stage has inout variables.
// spec: EXT_shader_framebuffer_fetch §4.3.6.
#version 300 es
#extension GL_EXT_shader_framebuffer_fetch : enable
inout highp vec4 v; // ERROR "'inout' variables are only allowed as fragment shader outputs \\(GL_EXT_shader_framebuffer_fetch\\)"
void main() {}
