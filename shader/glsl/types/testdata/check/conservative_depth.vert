// gl_FragDepth exists only in fragment shaders, so a vertex shader cannot
// redeclare it with a conservative-depth layout. spec: AMD_conservative_depth
#version 130
#extension GL_AMD_conservative_depth : require
layout(depth_any) out float gl_FragDepth; // ERROR "layout\\(depth_any\\) is only allowed on the fragment shader output gl_FragDepth" ERROR "identifier 'gl_FragDepth' uses the reserved prefix gl_"
void main() { gl_Position = vec4(0.0); }
