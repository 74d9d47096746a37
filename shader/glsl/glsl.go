// Package glsl is the GLSL front end: it compiles vertex, fragment and compute shader
// source to a checked, typed syntax tree (package ast) and links a vertex and a
// fragment shader into a Program whose interface (attributes, varyings, uniforms,
// outputs) is resolved, or the units of a compute shader into a Program with its
// local size. The IR lowering consumes Program. spec: GLSL 4.50 §3-§9 (the
// language; §4.4.1.4 the compute local size, §4.3.4-§4.3.6 the interface the link
// matches); GLSL ES 3.00 and 3.10.
package glsl

import (
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/parser"
	"vortexgfx/shader/glsl/preproc"
	"vortexgfx/shader/glsl/types"
)

// Stage is a shader stage.
type Stage = ast.Stage

// The stages.
const (
	Vertex   = ast.StageVertex
	Fragment = ast.StageFragment
	Compute  = ast.StageCompute
	Geometry = ast.StageGeometry
)

// Options configure a compilation.
type Options struct {
	// DefaultVersion is the GLSL version of sources without #version (110 if zero).
	DefaultVersion int
	// Compatibility enables compatibility-profile built-ins in GLSL >= 1.40.
	Compatibility bool
	// Defines are predefined object-like macros.
	Defines map[string]string
	// Extensions the caller wants accepted by #extension ... : require. None of the
	// GLSL extensions change the language the front end implements.
	Extensions []string
	// Includes are the named strings and search points #include reads
	// (GL_ARB_shading_language_include); nil: none.
	Includes *Includes
}

// Includes is the named-string tree and the search points of
// GL_ARB_shading_language_include (NamedStringARB, CompileShaderIncludeARB).
type Includes = preproc.Includes

// CleanIncludePath normalises an absolute include path ("." and ".."
// resolved, empty components dropped); false for a relative one.
func CleanIncludePath(path string) (string, bool) { return preproc.CleanPath(path) }

// SupportedExtensions lists the GLSL extensions the front end implements:
// GL_OES_standard_derivatives (dFdx/dFdy/fwidth in GLSL ES 1.00 fragment shaders)
// and, for earlier GLSL versions, the compute features of GLSL 4.30:
// GL_ARB_compute_shader, GL_ARB_shader_storage_buffer_object,
// GL_ARB_shader_atomic_counters and GL_ARB_shader_image_load_store, and
// GL_OES_shader_image_atomic (image atomics in GLSL ES 3.10, always available here),
// GL_ARB_explicit_attrib_location (layout(location) on vertex inputs and fragment
// outputs before GLSL 3.30) and GL_ARB_blend_func_extended /
// GL_EXT_blend_func_extended (layout(index) for dual-source blending),
// GL_ARB_texture_rectangle (sampler2DRect, texture2DRect and shadow2DRect before
// GLSL 1.40), GL_ARB_texture_query_levels (textureQueryLevels from GLSL 1.30)
// and GL_ARB_texture_query_lod (textureQueryLOD in GLSL 1.30 fragment shaders),
// GL_ARB_cull_distance (gl_CullDistance from GLSL 1.30),
// GL_ARB_derivative_control (dFdxFine, dFdxCoarse and their kin in any desktop
// version), GL_ARB_draw_instanced (gl_InstanceIDARB before GLSL 1.40) and
// GL_ARB_shading_language_include (#include of named strings, Options.Includes),
// GL_ARB_gpu_shader5 (GLSL 4.00's shader features from GLSL 1.50 on, with
// the interpolation functions), GL_ARB_texture_gather (textureGather and
// textureGatherOffset from GLSL 1.30), GL_ARB_sample_shading and
// GL_OES_sample_variables (gl_SampleID, gl_SamplePosition, gl_SampleMask[],
// gl_NumSamples; the latter gl_SampleMaskIn[] too) and
// GL_OES_shader_multisample_interpolation (interpolateAtCentroid,
// interpolateAtSample, interpolateAtOffset and the sample qualifier in GLSL ES
// 3.00/3.10; GL_ARB_gpu_shader5 brings them to GLSL 1.50 with gl_SampleMaskIn[]),
// GL_EXT_shader_framebuffer_fetch and its _non_coherent form (inout fragment
// outputs, GLSL ES 1.00's gl_LastFragData; types/fbfetch.go),
// GL_ARB_conservative_depth and GL_AMD_conservative_depth (gl_FragDepth's
// depth layouts, a hint every renderer here honours by ignoring it),
// GL_ARB_separate_shader_objects (layout(location) on every stage's inputs
// and outputs; LinkSeparable) and GL_ARB_enhanced_layouts (component,
// offset, align, block member locations, xfb_* checked; types/component.go,
// types/xfb.go, link_locations.go), and GL_ARB_shader_group_vote
// (anyInvocationARB, allInvocationsARB, allInvocationsEqualARB: the group is
// the lanes a warp runs together, ir.VoteAny).
func SupportedExtensions() []string {
	return []string{"GL_OES_standard_derivatives", types.ExtComputeShader, types.ExtStorageBuffer,
		types.ExtAtomicCounters, types.ExtAtomicCounterOps, types.ExtImageLoadStore, "GL_OES_shader_image_atomic",
		types.ExtExplicitAttribLocation, types.ExtBlendFuncExtended, types.ExtBlendFuncExtendedES,
		types.ExtTextureRectangle, types.ExtTextureQueryLevels, types.ExtTextureQueryLod, types.ExtTrinaryMinmax,
		types.ExtShaderBitEncoding, types.ExtShadingLanguagePacking, types.ExtShaderIntegerMix, types.ExtShaderIntegerFunctions,
		types.ExtTextureArray, types.ExtShaderTextureLod, types.Ext420Pack,
		types.ExtUniformBufferObject, types.ExtExplicitUniformLoc, types.ExtArraysOfArrays, types.ExtCullDistance, types.ExtDerivativeControl, types.ExtDrawInstanced, types.ExtGPUShader5, types.ExtTextureGather, preproc.ExtShadingLanguageInclude,
		types.ExtSampleShading, types.ExtSampleVariables, types.ExtMultisampleInterpolES,
		types.ExtFramebufferFetch, types.ExtFramebufferFetchNonCoherent,
		types.ExtConservativeDepth, types.ExtConservativeDepthAMD,
		types.ExtSeparateShaderObjects, types.ExtEnhancedLayouts, types.ExtShaderGroupVote}
}

// Shader is one compiled shader source.
type Shader struct {
	Name  string
	Stage Stage
	File  *ast.File
}

// Version returns the GLSL version number (e.g. 120, 300) and whether it is ES.
func (s *Shader) Version() (int, bool) { return s.File.Version, s.File.ES }

// Compile preprocesses, parses and type-checks src. On failure the error is an
// ast.ErrorList whose entries print as "file:line:col: error: message", sorted by
// position. Compile never panics.
func Compile(name, src string, stage Stage, opts Options) (*Shader, error) {
	f, err := parser.ParseFile(name, src, parser.Options{
		DefaultVersion: opts.DefaultVersion, Extensions: append(SupportedExtensions(), opts.Extensions...),
		Defines: opts.Defines, Includes: opts.Includes,
	})
	if err != nil {
		return nil, err
	}
	compat := opts.Compatibility || f.Profile == "compatibility"
	if err := types.Check(f, types.Config{Stage: stage, Compatibility: compat}); err != nil {
		return nil, err
	}
	return &Shader{Name: name, Stage: stage, File: f}, nil
}
