package parser

import "strings"

// langVersion describes the language the parser accepts.
type langVersion struct {
	v  int
	es bool
	// ext holds the #extension behaviours of the source (nil: none).
	ext map[string]string
}

// has reports whether extension name is enabled (enable, require or warn).
func (l langVersion) has(name string) bool {
	b := l.ext[name]
	return b == "enable" || b == "require" || b == "warn"
}

// typeExt returns the extension that makes a type keyword available before its
// core version ("" for none).
func typeExt(name string) string {
	switch name {
	case "image2D", "iimage2D", "uimage2D", "image3D", "iimage3D", "uimage3D",
		"image2DArray", "iimage2DArray", "uimage2DArray":
		return "GL_ARB_shader_image_load_store"
	case "atomic_uint":
		return "GL_ARB_shader_atomic_counters"
	case "sampler2DRect", "sampler2DRectShadow":
		return "GL_ARB_texture_rectangle"
	case "sampler1DArray", "sampler2DArray", "sampler1DArrayShadow", "sampler2DArrayShadow":
		return "GL_EXT_texture_array"
	}
	return ""
}

// typeAvailable reports whether a built-in type keyword exists in the language.
func (l langVersion) typeAvailable(name string) bool {
	d, e, ok := builtinTypeMin(name)
	if !ok {
		return false
	}
	return l.atLeast(d, e) || (typeExt(name) != "" && l.has(typeExt(name)))
}

// atLeast reports whether the language is desktop >= d or ES >= e (0 = never on ES).
func (l langVersion) atLeast(d, e int) bool {
	if l.es {
		return e != 0 && l.v >= e
	}
	return l.v >= d
}

// builtinStructName reports the struct types GLSL predeclares (the checker decides
// whether they exist in the version). spec: GLSL 1.20 §7.5.
func builtinStructName(name string) bool {
	switch name {
	case "gl_DepthRangeParameters", "gl_PointParameters", "gl_MaterialParameters",
		"gl_LightSourceParameters", "gl_LightModelParameters", "gl_LightModelProducts",
		"gl_LightProducts", "gl_FogParameters":
		return true
	}
	return false
}

// basicTypeNames are the non-opaque built-in type keywords with the minimum desktop and
// ES version that has them. spec: GLSL 4.50 §4.1, GLSL ES 3.00 §4.1.
func builtinTypeMin(name string) (desk, es int, ok bool) {
	switch name {
	case "void", "bool", "int", "float", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4",
		"bvec2", "bvec3", "bvec4", "mat2", "mat3", "mat4", "sampler2D", "samplerCube":
		return 110, 100, true
	case "sampler1D", "sampler1DShadow":
		return 110, 0, true
	case "sampler3D":
		return 110, 300, true
	case "sampler2DShadow":
		return 110, 300, true
	case "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4":
		return 120, 300, true
	case "uint", "uvec2", "uvec3", "uvec4", "sampler2DArray", "sampler2DArrayShadow",
		"samplerCubeShadow", "isampler2D", "isampler3D", "isamplerCube", "isampler2DArray",
		"usampler2D", "usampler3D", "usamplerCube", "usampler2DArray":
		return 130, 300, true
	case "sampler1DArray", "sampler1DArrayShadow", "isampler1D", "isampler1DArray",
		"usampler1D", "usampler1DArray":
		return 130, 0, true
	case "sampler2DRect", "sampler2DRectShadow", "isampler2DRect", "usampler2DRect",
		"samplerBuffer", "isamplerBuffer", "usamplerBuffer":
		return 140, 0, true
	case "sampler2DMS", "isampler2DMS", "usampler2DMS":
		return 150, 310, true
	case "sampler2DMSArray", "isampler2DMSArray", "usampler2DMSArray":
		return 150, 320, true
	case "samplerCubeArray", "samplerCubeArrayShadow", "isamplerCubeArray", "usamplerCubeArray":
		return 400, 320, true
	case "image2D", "iimage2D", "uimage2D", "image3D", "iimage3D", "uimage3D",
		"image2DArray", "iimage2DArray", "uimage2DArray", "atomic_uint":
		return 420, 310, true
	}
	return 0, 0, false
}

// keywordMin returns the versions from which a non-type word is a keyword.
func keywordMin(name string) (desk, es int, ok bool) {
	switch name {
	case "attribute", "const", "uniform", "varying", "break", "continue", "do", "for", "while",
		"if", "else", "in", "out", "inout", "true", "false", "discard", "return", "struct":
		return 110, 100, true
	case "invariant":
		return 120, 100, true
	case "centroid":
		// Not a GLSL ES 1.00 keyword (ES 1.00 §3.6; Mesa's KEYWORD(120, 300, ...)).
		return 120, 300, true
	case "precision", "lowp", "mediump", "highp":
		return 130, 100, true
	case "flat", "smooth", "switch", "case", "default":
		return 130, 300, true
	case "noperspective":
		return 130, 0, true
	case "layout":
		return 140, 300, true
	}
	return 0, 0, false
}

// reservedWord reports whether name is reserved for future use (an error to use).
// A word that is a keyword in the language never gets here (isKeyword is asked
// first), so a word reserved until some version may stay listed after it.
func reservedWord(name string, l langVersion) bool {
	if l.es {
		return esReservedWord(name, l)
	}
	return deskReservedWord(name, l)
}

// deskReservedWord is reservedWord for desktop GLSL.
// spec: GLSL 1.10 §3.6, 1.20 §3.6, 1.30 §3.6, 4.20 §3.6.
func deskReservedWord(name string, l langVersion) bool {
	switch name {
	case "asm", "class", "union", "enum", "typedef", "template", "this", "packed", "goto",
		"inline", "noinline", "public", "static", "extern", "external", "interface",
		"long", "short", "double", "half", "fixed", "unsigned", "input", "output",
		"hvec2", "hvec3", "hvec4", "dvec2", "dvec3", "dvec4", "fvec2", "fvec3", "fvec4",
		"sampler3DRect", "sizeof", "cast", "namespace", "using":
		return true
	case "switch", "default":
		return l.v < 130
	case "volatile":
		return l.v < 420 && !l.has("GL_ARB_shader_image_load_store") && !l.has("GL_ARB_shader_storage_buffer_object")
	case "lowp", "mediump", "highp", "precision":
		return l.v == 120
	case "superp", "common", "partition", "active", "filter":
		return l.v >= 130
	case "row_major":
		return l.v == 130
	case "image1D", "image2D", "image3D", "imageCube", "iimage1D", "iimage2D", "iimage3D",
		"iimageCube", "uimage1D", "uimage2D", "uimage3D", "uimageCube", "image1DArray",
		"image2DArray", "iimage1DArray", "iimage2DArray", "uimage1DArray", "uimage2DArray",
		"image1DShadow", "image2DShadow", "image1DArrayShadow", "image2DArrayShadow",
		"imageBuffer", "iimageBuffer", "uimageBuffer":
		return l.v >= 130 && l.v < 420 && !(typeExt(name) != "" && l.has(typeExt(name)))
	case "sampler2DRect", "sampler2DRectShadow":
		return l.v < 140 && !l.has("GL_ARB_texture_rectangle")
	case "samplerBuffer", "isamplerBuffer", "usamplerBuffer", "isampler2DRect", "usampler2DRect":
		return l.v == 130
	}
	return false
}

// GLSL ES reserved words, from the "reserved for future use" list of each
// specification, which the sets below follow word for word:
//   - GLSL ES 1.00 §3.7: the C words, the desktop-only types and packed, switch,
//     default, volatile, flat, superp, sampler3D and sampler2DShadow;
//   - GLSL ES 3.00 §3.7: not packed (a layout qualifier), switch, default, flat
//     (keywords), sampler3D or sampler2DShadow (types); adds attribute, varying,
//     the memory qualifiers, atomic_uint, resource, noperspective, patch, sample,
//     subroutine, common, partition, active, filter, the image types and the
//     samplers desktop GLSL 1.30-1.50 added. It has no image*Shadow (desktop 1.30
//     reserves those), no samplerCubeArray, no dmat*;
//   - GLSL ES 3.10 §3.7 drops what 3.10 makes keywords (memory qualifiers,
//     atomic_uint, image2D/3D/Cube/2DArray, sampler2DMS) and adds precise and the
//     cube-map-array samplers and images;
//   - GLSL ES 3.20 §3.7 drops what 3.20 makes keywords (patch, sample, precise,
//     the buffer and cube-map-array samplers and images, sampler2DMSArray).
//
// Mesa's glsl_lexer.ll (KEYWORD(desk, es, ...)) and glslang's Scan.cpp agree but
// for a few words outside the lists: Mesa also rejects dmat* in every ES version,
// packed in ES 3.00+ (its keyword) and image2DRect/image2DMS/imageCubeArray in ES
// 3.00; glslang rejects samplerCubeArray in ES 1.00/3.00. The lists win.
var (
	// The words reserved in every GLSL ES version.
	esReservedAll = wordSet("asm class union enum typedef template this goto inline noinline " +
		"public static extern external interface long short double half fixed unsigned superp " +
		"input output hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4 " +
		"sampler1D sampler1DShadow sampler2DRect sampler2DRectShadow sampler3DRect " +
		"sizeof cast namespace using")
	// GLSL ES 1.00 §3.7 only.
	esReserved100 = wordSet("packed switch default volatile flat sampler3D sampler2DShadow")
	// GLSL ES 3.00 §3.7 onwards (up to 3.20).
	esReservedSince300 = wordSet("attribute varying resource noperspective subroutine " +
		"common partition active filter image1D iimage1D uimage1D image1DArray iimage1DArray " +
		"uimage1DArray sampler1DArray sampler1DArrayShadow isampler1D isampler1DArray usampler1D " +
		"usampler1DArray isampler2DRect usampler2DRect")
	// GLSL ES 3.00 §3.7, keywords from 3.10.
	esReserved300 = wordSet("coherent volatile restrict readonly writeonly atomic_uint " +
		"image2D image3D imageCube iimage2D iimage3D iimageCube uimage2D uimage3D uimageCube " +
		"image2DArray iimage2DArray uimage2DArray sampler2DMS isampler2DMS usampler2DMS")
	// GLSL ES 3.00 §3.7 and 3.10 §3.7, keywords in 3.20.
	esReserved300to310 = wordSet("patch sample samplerBuffer isamplerBuffer usamplerBuffer " +
		"imageBuffer iimageBuffer uimageBuffer sampler2DMSArray isampler2DMSArray usampler2DMSArray")
	// GLSL ES 3.10 §3.7, keywords in 3.20.
	esReserved310 = wordSet("precise samplerCubeArray samplerCubeArrayShadow isamplerCubeArray " +
		"usamplerCubeArray imageCubeArray iimageCubeArray uimageCubeArray")
	// Keywords of GLSL ES 3.10/3.20 that isKeyword does not know (types this
	// compiler does not implement, and qualifiers the parser reads by their text):
	// they stay an error to use as names. The 3.20 ones are reserved in 3.10.
	esUnimplemented = wordSet("imageCube iimageCube uimageCube patch sample precise " +
		"samplerBuffer isamplerBuffer usamplerBuffer imageBuffer iimageBuffer uimageBuffer " +
		"imageCubeArray iimageCubeArray uimageCubeArray " +
		"coherent volatile restrict readonly writeonly shared buffer")
)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// esReservedWord is reservedWord for GLSL ES.
func esReservedWord(name string, l langVersion) bool {
	if esReservedAll[name] {
		return true
	}
	switch {
	case l.v < 300:
		switch name {
		case "sampler3D":
			// GL_OES_texture_3D makes sampler3D a type in ES 1.00 (as glslang does).
			return !l.has("GL_OES_texture_3D")
		case "sampler2DShadow":
			return !l.has("GL_EXT_shadow_samplers")
		case "volatile":
			return !l.has("GL_ARB_shader_image_load_store") && !l.has("GL_ARB_shader_storage_buffer_object")
		}
		return esReserved100[name]
	case l.v < 310:
		switch name {
		case "volatile":
			return !l.has("GL_ARB_shader_image_load_store") && !l.has("GL_ARB_shader_storage_buffer_object")
		case "atomic_uint":
			return !l.has("GL_ARB_shader_atomic_counters")
		}
		return esReservedSince300[name] || esReserved300[name] || esReserved300to310[name]
	case l.v < 320:
		return esReservedSince300[name] || esReserved300to310[name] || esReserved310[name] || esUnimplemented[name]
	}
	return esReservedSince300[name] || esUnimplemented[name]
}
