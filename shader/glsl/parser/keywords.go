package parser

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
	case "invariant", "centroid":
		return 120, 100, true
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
// spec: GLSL 1.10 §3.6, 1.20 §3.6, 1.30 §3.6, ES 3.00 §3.7.
func reservedWord(name string, l langVersion) bool {
	switch name {
	case "asm", "class", "union", "enum", "typedef", "template", "this", "packed", "goto",
		"inline", "noinline", "public", "static", "extern", "external", "interface",
		"long", "short", "double", "half", "fixed", "unsigned", "input", "output",
		"hvec2", "hvec3", "hvec4", "dvec2", "dvec3", "dvec4", "fvec2", "fvec3", "fvec4",
		"sampler3DRect", "sizeof", "cast", "namespace", "using":
		return true
	case "switch", "default":
		return !l.atLeast(130, 300)
	case "volatile":
		return !l.atLeast(420, 310) && !l.has("GL_ARB_shader_image_load_store") && !l.has("GL_ARB_shader_storage_buffer_object")
	case "coherent", "restrict", "readonly", "writeonly":
		return l.es && l.v < 310
	case "atomic_uint":
		return l.es && l.v < 310 && !l.has("GL_ARB_shader_atomic_counters")
	case "lowp", "mediump", "highp", "precision":
		return l.v == 120 && !l.es
	case "superp", "common", "partition", "active", "filter":
		return l.atLeast(130, 300)
	case "row_major":
		return l.atLeast(130, 0) && !l.atLeast(140, 0)
	case "image1D", "image2D", "image3D", "imageCube", "iimage1D", "iimage2D", "iimage3D",
		"iimageCube", "uimage1D", "uimage2D", "uimage3D", "uimageCube", "image1DArray",
		"image2DArray", "iimage1DArray", "iimage2DArray", "uimage1DArray", "uimage2DArray",
		"image1DShadow", "image2DShadow", "image1DArrayShadow", "image2DArrayShadow",
		"imageBuffer", "iimageBuffer", "uimageBuffer":
		return l.atLeast(130, 300) && !l.atLeast(420, 310) && !(typeExt(name) != "" && l.has(typeExt(name)))
	case "sampler2DRect", "sampler2DRectShadow":
		return !l.atLeast(140, 0) && !l.has("GL_ARB_texture_rectangle")
	case "samplerBuffer", "isamplerBuffer", "usamplerBuffer", "isampler2DRect", "usampler2DRect":
		return l.es || l.v == 130
	case "sampler1D", "sampler1DShadow", "sampler1DArray", "sampler1DArrayShadow",
		"isampler1D", "isampler1DArray", "usampler1D", "usampler1DArray", "noperspective", "sampler2DMS", "isampler2DMS",
		"usampler2DMS", "resource",
		"subroutine", "patch", "sample", "dmat2", "dmat3", "dmat4":
		return l.es
	case "samplerCubeArray", "isamplerCubeArray", "usamplerCubeArray", "samplerCubeArrayShadow",
		"sampler2DMSArray", "isampler2DMSArray", "usampler2DMSArray":
		return l.es && l.v < 320
	case "attribute", "varying":
		return l.es && l.v >= 300
	case "uint", "uvec2", "uvec3", "uvec4", "flat", "smooth", "case", "centroid", "in", "out":
		return false
	case "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4":
		return false
	}
	return false
}
