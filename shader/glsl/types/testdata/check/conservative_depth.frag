// Conservative depth: layout(depth_any|depth_greater|depth_less|depth_unchanged)
// on a redeclared gl_FragDepth, core in GLSL 4.20, from 1.30 with the ARB or
// AMD extension. spec: GLSL 4.20 §4.4.2.3, ARB_conservative_depth,
// AMD_conservative_depth.
#version 130
#extension GL_AMD_conservative_depth : require
layout(depth_any) out float gl_FragDepth;
void main() { gl_FragDepth = 0.5; }
// ---- the ARB extension
#version 130
#extension GL_ARB_conservative_depth : enable
layout(depth_unchanged) out float gl_FragDepth;
void main() {}
// ---- core in 4.20
#version 420
layout(depth_greater) out float gl_FragDepth;
void main() { gl_FragDepth = 1.0; }
// ---- a redeclaration without a layout changes nothing
#version 130
#extension GL_AMD_conservative_depth : require
out float gl_FragDepth;
void main() {}
// ---- without the extension
#version 130
layout(depth_less) out float gl_FragDepth; // ERROR "'layout' is not a type"
void main() {}
// ---- GLSL 3.30 without the extension
#version 330
layout(depth_less) out float gl_FragDepth; // ERROR "layout\\(depth_less\\) requires GLSL 4\\.20 or GL_ARB_conservative_depth"
void main() {}
// ---- only on gl_FragDepth
#version 420
layout(depth_any) out vec4 c; // ERROR "layout\\(depth_any\\) is only allowed on gl_FragDepth, not 'c'"
void main() {}
// ---- the first redeclaration precedes every use
#version 130
#extension GL_AMD_conservative_depth : require
float f() { gl_FragDepth = 0.0; return 0.0; }
layout(depth_any) out float gl_FragDepth; // ERROR "built-in 'gl_FragDepth' must be redeclared before it is used"
void main() {}
// ---- redeclarations within a shader agree
#version 420
layout(depth_any) out float gl_FragDepth;
layout(depth_less) out float gl_FragDepth; // ERROR "all redeclarations of gl_FragDepth must have the same layout qualifiers"
void main() {}
// ---- a value is not allowed
#version 420
layout(depth_any = 1) out float gl_FragDepth; // ERROR "layout qualifier 'depth_any' takes no value"
void main() {}
