package types

// The extensions the checker implements besides the compute ones (compute.go),
// and the predicates that combine a core version with an extension.

// The extensions that bring explicit locations and dual-source outputs to
// earlier GLSL versions. spec: GL_ARB_explicit_attrib_location,
// GL_ARB_blend_func_extended, GL_EXT_blend_func_extended.
const (
	ExtExplicitAttribLocation = "GL_ARB_explicit_attrib_location"
	ExtBlendFuncExtended      = "GL_ARB_blend_func_extended"
	ExtBlendFuncExtendedES    = "GL_EXT_blend_func_extended"
)

// The texture extensions for earlier GLSL versions: rectangle samplers and
// their texture2DRect/shadow2DRect functions (GLSL 1.40 core),
// textureQueryLevels (GLSL 4.30 core), textureQueryLOD (GLSL 4.00 core as
// textureQueryLod), the texture1DArray family and the *GradARB lookups.
const (
	ExtTextureRectangle   = "GL_ARB_texture_rectangle"
	ExtTextureQueryLevels = "GL_ARB_texture_query_levels"
	ExtTextureQueryLod    = "GL_ARB_texture_query_lod"
	ExtTextureArray       = "GL_EXT_texture_array"
	ExtShaderTextureLod   = "GL_ARB_shader_texture_lod"
	// ExtTextureGather brings textureGather and textureGatherOffset (a
	// constant offset, no component select, no shadow forms: those are
	// ARB_gpu_shader5's) to GLSL 1.30. spec: ARB_texture_gather
	ExtTextureGather = "GL_ARB_texture_gather"
)

// The extensions that bring later core built-ins and rules to GLSL 1.10-1.30:
// min3/max3/mid3, the bit casts, packing, integer mix, GLSL 4.00's integer
// functions, 4.20's conveniences, uniform blocks and locations, arrays of
// arrays.
const (
	ExtTrinaryMinmax          = "GL_AMD_shader_trinary_minmax"
	ExtShaderBitEncoding      = "GL_ARB_shader_bit_encoding"
	ExtShadingLanguagePacking = "GL_ARB_shading_language_packing"
	ExtShaderIntegerMix       = "GL_EXT_shader_integer_mix"
	ExtShaderIntegerFunctions = "GL_MESA_shader_integer_functions"
	Ext420Pack                = "GL_ARB_shading_language_420pack"
	ExtUniformBufferObject    = "GL_ARB_uniform_buffer_object"
	ExtExplicitUniformLoc     = "GL_ARB_explicit_uniform_location"
	ExtArraysOfArrays         = "GL_ARB_arrays_of_arrays"
	// ExtCullDistance brings gl_CullDistance (GLSL 4.50 core) to GLSL 1.30.
	ExtCullDistance = "GL_ARB_cull_distance"
	// ExtDerivativeControl brings GLSL 4.50's dFdxFine/dFdxCoarse family to
	// earlier fragment shaders.
	ExtDerivativeControl = "GL_ARB_derivative_control"
	// ExtDrawInstanced brings gl_InstanceID (GLSL 1.40 core) to earlier
	// vertex shaders as gl_InstanceIDARB.
	ExtDrawInstanced = "GL_ARB_draw_instanced"
	// ExtGPUShader5 brings GLSL 4.00's shader features to GLSL 1.50: the
	// integer and floating-point built-ins, textureGather's component select
	// and offsets, implicit int-to-uint conversion and 4.00's overload rule,
	// precise, sample, dynamically uniform sampler and uniform block array
	// indexing, geometry shader instancing and streams, gl_SampleMaskIn.
	ExtGPUShader5 = "GL_ARB_gpu_shader5"
	// ExtSeparateShaderObjects brings layout(location) on every stage's
	// inputs and outputs (GLSL 4.10 core) to GLSL 1.40 and 1.50.
	// spec: ARB_separate_shader_objects "Modifications to GLSL 1.50 §4.3.8.1"
	ExtSeparateShaderObjects = "GL_ARB_separate_shader_objects"
	// ExtEnhancedLayouts brings GLSL 4.40's layout qualifiers to GLSL 1.40
	// on: component, offset and align, constant expressions in layout
	// qualifiers, block member locations and the xfb_* qualifiers.
	// spec: ARB_enhanced_layouts, GLSL 4.40 §4.4
	ExtEnhancedLayouts = "GL_ARB_enhanced_layouts"
	// ExtShaderGroupVote brings anyInvocationARB, allInvocationsARB and
	// allInvocationsEqualARB to every stage of any desktop version.
	// spec: ARB_shader_group_vote
	ExtShaderGroupVote = "GL_ARB_shader_group_vote"
)

// The conservative-depth extensions: layout(depth_any), depth_greater,
// depth_less or depth_unchanged on a redeclared gl_FragDepth (GLSL 4.20 core).
// They are promises the shader makes so that an implementation may keep early
// depth tests; every renderer here computes the result the shader would give
// without the promise, which is always a conforming implementation of the
// hint. spec: ARB_conservative_depth, AMD_conservative_depth, GLSL 4.20 §4.4.2.3
const (
	ExtConservativeDepth    = "GL_ARB_conservative_depth"
	ExtConservativeDepthAMD = "GL_AMD_conservative_depth"
)

// hasConservativeDepth reports whether gl_FragDepth takes a depth layout:
// core in GLSL 4.20, from GLSL 1.30 with either extension (both require 1.30).
func (c *checker) hasConservativeDepth() bool {
	return !c.es && (c.version >= 420 ||
		c.version >= 130 && (c.extEnabled(ExtConservativeDepth) || c.extEnabled(ExtConservativeDepthAMD)))
}

// isDepthLayout reports whether a (lower-case) layout qualifier is one of the
// conservative-depth ones.
func isDepthLayout(name string) bool {
	switch name {
	case "depth_any", "depth_greater", "depth_less", "depth_unchanged":
		return true
	}
	return false
}

// hasSSOLocations reports whether layout(location) is allowed on the inputs
// and outputs of every stage. spec: GLSL 4.10 §4.4.1, ARB_separate_shader_objects
func (c *checker) hasSSOLocations() bool {
	return !c.es && (c.version >= 410 || c.extEnabled(ExtSeparateShaderObjects))
}

// hasEnhancedLayouts reports whether GLSL 4.40's layout qualifiers exist.
// spec: GLSL 4.40 §4.4, ARB_enhanced_layouts (GLSL 1.40 required)
func (c *checker) hasEnhancedLayouts() bool {
	return !c.es && (c.version >= 440 || c.version >= 140 && c.extEnabled(ExtEnhancedLayouts))
}

// hasGPUShader5 reports whether GLSL 4.00's ARB_gpu_shader5 features exist:
// core in GLSL 4.00, from GLSL 1.50 with the extension.
// spec: ARB_gpu_shader5 "Dependencies" (GLSL 1.50 required), GLSL 4.00 §1.2.1
func (c *checker) hasGPUShader5() bool {
	return !c.es && (c.version >= 400 || c.version >= 150 && c.extEnabled(ExtGPUShader5))
}

// hasCullDistance reports whether gl_CullDistance and its limits exist.
// spec: GLSL 4.50 §7.1, ARB_cull_distance
func (c *checker) hasCullDistance() bool {
	return !c.es && (c.version >= 450 || c.version >= 130 && c.extEnabled(ExtCullDistance))
}

// hasArraysOfArrays reports whether array types may have array elements.
// spec: GLSL 4.30 §4.1.9, ARB_arrays_of_arrays (from GLSL 1.20)
func (c *checker) hasArraysOfArrays() bool {
	return c.atLeast(430, 310) || c.version >= 120 && c.extEnabled(ExtArraysOfArrays)
}

// has420pack reports whether GLSL 4.20's conveniences exist (scalar swizzles,
// .length() on vectors and matrices, initializer lists, non-constant local
// const initializers, layout(binding), qualifiers in any order).
// spec: GLSL 4.20 §1.2.1, ARB_shading_language_420pack
func (c *checker) has420pack() bool { return c.atLeast(420, 0) || c.extEnabled(Ext420Pack) }
