// The type rules of the checker, fragment stage. spec: GLSL 1.10-4.50 and
// ES 3.00, §4-§8.
// write input
varying vec2 v; void main() { v = vec2(1.0); } // ERROR "left-hand side of assignment: 'v' is read-only"
// ---- write gl_FragCoord
void main() { gl_FragCoord = vec4(1.0); } // ERROR "left-hand side of assignment: 'gl_FragCoord' is read-only"
// ---- sampler not uniform
void main() { sampler2D s; } // ERROR "sampler variables must be uniform"
// ---- attribute in FS
attribute vec4 a; void main() {} // ERROR "'attribute' is only allowed in vertex shaders"
// ---- integer FS input needs flat
#version 130
in int i; void main() {} // ERROR "integer in variables must be qualified 'flat'"
// ---- ES float precision
#version 100
void main() { float f; } // ERROR "declaration of type float requires a precision qualifier \\(no default precision for float in fragment shaders\\)"
// ---- location in 1.30 without extension
#version 130
layout(location = 0) out vec4 c; void main() { c = vec4(1.0); } // ERROR "syntax error: 'layout' is not a type"
// ---- location in 1.40 without extension
#version 140
layout(location = 0) out vec4 c; void main() { c = vec4(1.0); } // ERROR "layout\\(location\\) requires GLSL 3\\.30 or GL_ARB_explicit_attrib_location"
// ---- extension does not cover uniforms
#version 130
#extension GL_ARB_explicit_attrib_location : enable
layout(location = 0) uniform vec4 u; out vec4 c; void main() { c = u; } // ERROR "layout qualifiers before GLSL 1\\.40 are only allowed on vertex shader inputs and fragment shader outputs \\(GL_ARB_explicit_attrib_location\\)"
// ---- index in ES without extension
#version 300 es
precision mediump float;
layout(location = 0, index = 1) out vec4 b; void main() { b = vec4(1.0); } // ERROR "layout\\(index\\) requires GL_EXT_blend_func_extended"
// ---- index in 1.50
#version 150
layout(location = 0, index = 1) out vec4 b; void main() { b = vec4(1.0); } // ERROR "layout\\(location\\) requires GLSL 3\\.30 or GL_ARB_explicit_attrib_location" ERROR "layout\\(index\\) requires GLSL 3\\.30, GL_ARB_explicit_attrib_location or GL_ARB_blend_func_extended"
// ---- index in 1.40 with GL_ARB_explicit_attrib_location, whose fragment
// output layout takes it
#version 140
#extension GL_ARB_explicit_attrib_location : require
layout(location = 0, index = 1) out vec4 b; void main() { b = vec4(1.0); }
// ---- a buffer block's layout in GLSL 1.30 with GL_ARB_shader_storage_buffer_object
// (GL_ARB_uniform_buffer_object makes 'layout' a keyword)
#version 130
#extension GL_ARB_shader_storage_buffer_object : require
#extension GL_ARB_uniform_buffer_object : require
layout(shared) buffer ssbo { float a; };
layout(std430, binding = 1) buffer ssbo2 { float b; };
void main() { a = 1.0; b = 2.0; }
// ---- index 2
#version 330
layout(location = 0, index = 2) out vec4 b; void main() { b = vec4(1.0); } // ERROR "layout\\(index\\) must be 0 or 1, not 2"
// ---- index without location
#version 330
layout(index = 1) out vec4 b; void main() { b = vec4(1.0); } // ERROR "layout\\(index\\) requires an explicit location"
// ---- index on an input
#version 330
layout(location = 0, index = 1) in vec4 b; out vec4 c; void main() { c = b; } // ERROR "layout\\(location\\) on a fragment shader in requires GLSL 4\\.10" ERROR "layout\\(index\\) is only allowed on fragment shader outputs"
// ---- texture in 1.10
uniform sampler2D s; void main() { gl_FragColor = texture(s, vec2(0.0)); } // ERROR "built-in function 'texture' is not available in this GLSL version or stage"
// ---- texture2D removed in ES 3.00
#version 300 es
precision mediump float;
uniform sampler2D s; out vec4 c; void main() { c = texture2D(s, vec2(0.0)); } // ERROR "built-in function 'texture2D' is not available in this GLSL version or stage"
// ---- texture2DLod in FS 1.20
#version 120
uniform sampler2D s; void main() { gl_FragColor = texture2DLod(s, vec2(0.0), 0.0); } // ERROR "built-in function 'texture2DLod' is not available in this GLSL version or stage"
// ---- cube array 3.30
#version 330
uniform samplerCubeArray s; void main() {} // ERROR "syntax error: 'samplerCubeArray' is not a type"
// ---- textureOffset constant
#version 130
uniform sampler2D s; uniform ivec2 o; out vec4 c; void main() { c = textureOffset(s, vec2(0.0), o); } // ERROR "texel offset of 'textureOffset' must be a constant expression"
// ---- gl_FragColor and gl_FragData
void main() { gl_FragColor = vec4(1.0); gl_FragData[0] = vec4(1.0); } // ERROR "cannot write both gl_FragColor and gl_FragData"
// ---- sampler array dynamic index 1.30
#version 130
uniform sampler2D s[2]; uniform int i; out vec4 c; void main() { c = texture(s[i], vec2(0.0)); } // ERROR "sampler arrays can only be indexed with constant expressions in this GLSL version"
// ---- atomic counter arrays take a dynamic index (GLSL ES 3.10 §4.1.7)
#version 310 es
precision highp float;
layout(binding = 0) uniform atomic_uint a[2]; uniform uint i; out vec4 c;
void main() { c = vec4(float(atomicCounterIncrement(a[i]))); }
// ---- sampler arrays in GLSL ES 3.10 still take constant indices only
#version 310 es
precision highp float;
uniform sampler2D s[2]; uniform int i; out vec4 c; void main() { c = texture(s[i], vec2(0.0)); } // ERROR "sampler arrays can only be indexed with constant expressions in this GLSL version"
// ---- precision on bool
#version 130
void main() { highp bool b; } // ERROR "precision qualifiers cannot be applied to bool"
// ---- struct varying 1.30
#version 130
struct S { vec4 v; }; in S s; void main() {} // ERROR "in variables cannot be structs in this GLSL version"
// ---- ES FS return precision
#version 100
float f() { return 1.0; } void main() {} // ERROR "return type of 'f' requires a precision qualifier \\(no default precision for float\\)"
// ---- min3/max3/mid3 need GL_AMD_shader_trinary_minmax
#version 130
out vec4 c; void main() { c = vec4(min3(1.0, 2.0, 3.0)); } // ERROR "undeclared function 'min3'|no function 'min3'|'min3'"
// ---- GL_AMD_shader_trinary_minmax's integer overloads need GLSL 1.30 (1.10 has no int-to-float conversion)
#version 110
#extension GL_AMD_shader_trinary_minmax : require
void main() { gl_FragColor = vec4(mid3(1.0, 2.0, 3.0), float(max3(1, 2, 3)), 0.0, 1.0); } // ERROR "max3"
// ---- the bit casts arrive in GLSL 3.30, or 1.30 with GL_ARB_shader_bit_encoding
#version 130
out vec4 c; void main() { c = vec4(intBitsToFloat(1)); } // ERROR "'intBitsToFloat' is not available"
// ---- GL_ARB_shader_bit_encoding
#version 130
#extension GL_ARB_shader_bit_encoding : require
out vec4 c; void main() { c = vec4(intBitsToFloat(floatBitsToInt(1.0)), uintBitsToFloat(floatBitsToUint(2.0)), 0.0, 1.0); }
// ---- GL_ARB_shading_language_packing
#version 130
#extension GL_ARB_shading_language_packing : require
out vec4 c; void main() { c = unpackUnorm4x8(packSnorm2x16(unpackHalf2x16(packHalf2x16(vec2(1.0))))) ; }
// ---- GL_EXT_shader_integer_mix: mix with a bool selector on int, uint and bool
#version 130
#extension GL_EXT_shader_integer_mix : require
flat in ivec2 i; out vec4 c; void main() { bvec2 s = bvec2(true, false); c = vec4(mix(i, ivec2(1), s), mix(uvec2(i), uvec2(2u), s)); }
// ---- integer mix needs its extension before GLSL 4.50
#version 130
out vec4 c; void main() { bool b = mix(true, false, true); c = vec4(b); } // ERROR "mix"
// ---- GL_MESA_shader_integer_functions: GLSL 4.00's integer functions, int-to-uint conversion, best-match overloads
#version 130
#extension GL_MESA_shader_integer_functions : require
flat in uint u; out vec4 c;
void main() { uint carry; uint s = uaddCarry(u, 1, carry); int e; float m = frexp(8.0, e); c = vec4(float(s), float(bitCount(u)), ldexp(m, e), float(findMSB(u))); }
// ---- without it, int does not convert to uint in GLSL 1.30
#version 130
flat in uint u; out vec4 c; void main() { uint s = u + 1; c = vec4(float(s)); } // ERROR "uint|int"
// ---- min(float, int) in GLSL 1.30 is min(float, float) once, not ambiguous
#version 130
uniform float f; out vec4 c; void main() { c = vec4(min(f, 2)); }
// ---- GL_EXT_texture_array: array samplers and their lookups in GLSL 1.10
#version 110
#extension GL_EXT_texture_array : require
uniform sampler1DArray a1; uniform sampler2DArray a2; uniform sampler1DArrayShadow s1; uniform sampler2DArrayShadow s2;
void main() { gl_FragColor = texture1DArray(a1, vec2(0.5, 1.0), 0.5) + texture2DArray(a2, vec3(0.5)) + shadow1DArray(s1, vec3(0.5)) + shadow2DArray(s2, vec4(0.5)); }
// ---- without GL_EXT_texture_array, sampler2DArray is not a type in GLSL 1.20
#version 120
uniform sampler2DArray a2; // ERROR "sampler2DArray"
void main() { gl_FragColor = vec4(1.0); }
// ---- texture2DLod in a GLSL 1.20 fragment shader needs GL_ARB_shader_texture_lod
#version 120
uniform sampler2D s;
void main() { gl_FragColor = texture2DLod(s, vec2(0.5), 1.0); } // ERROR "texture2DLod"
// ---- GL_ARB_shader_texture_lod: explicit LOD and gradients in fragment shaders
#version 120
#extension GL_ARB_shader_texture_lod : require
uniform sampler2D s; uniform samplerCube c; uniform sampler1DShadow d;
void main() { gl_FragColor = texture2DLod(s, vec2(0.5), 1.0) + texture2DGradARB(s, vec2(0.5), vec2(0.1), vec2(0.0)) + textureCubeGradARB(c, vec3(1.0), vec3(0.1), vec3(0.0)) + shadow1DGradARB(d, vec3(0.5), 0.1, 0.0); }
// ---- desktop GLSL has GL_ARB_texture_rectangle on without #extension, as Mesa
#version 120
uniform sampler2DRect r;
void main() { gl_FragColor = texture2DRect(r, vec2(1.0)); }
// ---- unless the shader disables it
#version 120
#extension GL_ARB_texture_rectangle : disable
uniform sampler2DRect r; // ERROR "sampler2DRect"
void main() { gl_FragColor = vec4(1.0); }
// ---- fine and coarse derivatives arrive in GLSL 4.50, or earlier with GL_ARB_derivative_control
#version 150
out vec4 c; void main() { c = vec4(dFdxCoarse(gl_FragCoord.x)); } // ERROR "dFdxCoarse"
// ---- GL_ARB_derivative_control: every fine and coarse derivative, scalar and vector
#version 150
#extension GL_ARB_derivative_control : require
out vec4 c;
void main() { vec2 p = gl_FragCoord.xy; c = vec4(dFdxFine(p), dFdyFine(p.x) + dFdxCoarse(p.y), dFdyCoarse(p.x)) + vec4(fwidthFine(p), fwidthCoarse(p)); }
// ---- GL_ARB_derivative_control from GLSL 1.10
#version 110
#extension GL_ARB_derivative_control : require
void main() { gl_FragColor = vec4(fwidthCoarse(gl_FragCoord.x)); }
// ---- length() of an implicitly sized array needs GLSL 4.30 or
// GL_ARB_shader_storage_buffer_object (then the link sizes it)
#version 330
out vec4 c;
void main() {
	float a[];
	a[2] = 1.0;
	c = vec4(a.length()); // ERROR "length\\(\\) of an unsized array"
}
// ---- with the extension it is not a constant expression
#version 330
#extension GL_ARB_shader_storage_buffer_object : require
out vec4 c;
void main() {
	float a[];
	a[2] = 1.0;
	const int n = a.length(); // ERROR "initializer of 'n' must be a constant expression"
	c = vec4(a.length());
}
