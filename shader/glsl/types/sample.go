package types

import "vortexgfx/shader/glsl/ast"

// The multisample extensions: the per-sample built-in variables and the
// interpolation functions before GLSL 4.00 / GLSL ES 3.20, which have them
// in core.

// The extensions that bring GLSL 4.00's sample shading to earlier versions.
// spec: ARB_sample_shading (gl_SampleID, gl_SamplePosition, gl_SampleMask[],
// gl_NumSamples; GLSL 1.30 and later), OES_sample_variables (the same and
// gl_SampleMaskIn[]; GLSL ES 3.00 and later), OES_shader_multisample_interpolation
// (interpolateAt*, the sample qualifier; GLSL ES 3.00 and later).
const (
	ExtSampleShading         = "GL_ARB_sample_shading"
	ExtSampleVariables       = "GL_OES_sample_variables"
	ExtMultisampleInterpolES = "GL_OES_shader_multisample_interpolation"
)

// extGPUShader5Interp is GL_ARB_gpu_shader5, which brings gl_SampleMaskIn[]
// and the interpolation functions to GLSL 1.50 (its other features are the
// concern of the rest of the checker). spec: ARB_gpu_shader5, "Additions to
// Chapter 7" and §8.8 (Interpolation Functions)
const extGPUShader5Interp = "GL_ARB_gpu_shader5"

// hasSampleVariables reports whether gl_SampleID, gl_SamplePosition,
// gl_SampleMask[] and gl_NumSamples exist (fragment shaders).
// spec: GLSL 4.00 §7.1, §7.4; GLSL ES 3.20 §7.1.2; ARB_sample_shading;
// OES_sample_variables
func (c *checker) hasSampleVariables() bool {
	if c.atLeast(400, 320) {
		return true
	}
	if c.es {
		return c.version >= 300 && c.extEnabled(ExtSampleVariables)
	}
	return c.version >= 130 && c.extEnabled(ExtSampleShading)
}

// hasSampleMaskIn reports whether gl_SampleMaskIn[] exists: ARB_sample_shading
// alone does not bring it.
// spec: GLSL 4.00 §7.1; ARB_gpu_shader5; OES_sample_variables
func (c *checker) hasSampleMaskIn() bool {
	if c.atLeast(400, 320) {
		return true
	}
	if c.es {
		return c.version >= 300 && c.extEnabled(ExtSampleVariables)
	}
	return c.version >= 150 && c.extEnabled(extGPUShader5Interp)
}

// nonInterpolants are the fragment inputs the renderer fills rather than
// interpolates: no interpolation function takes them.
var nonInterpolants = map[string]bool{"gl_FragCoord": true, "gl_FrontFacing": true, "gl_PointCoord": true,
	"gl_HelperInvocation": true, "gl_SampleID": true, "gl_SamplePosition": true, "gl_SampleMaskIn": true,
	"gl_NumSamples": true, "gl_PrimitiveID": true}

// interpolantUse checks the interpolant of interpolateAtCentroid,
// interpolateAtSample and interpolateAtOffset: an l-value of a fragment input
// (a variable, an array element, a block or structure member, or a
// combination), with component selection (a swizzle or a vector subscript)
// only from GLSL 4.40 on. spec: GLSL 4.00 §8.13 ("interpolant must be an
// input variable or an element of an input variable declared as an
// array"), GLSL 4.40 §8.13.2 (component selection), ARB_gpu_shader5 §8.8
// ("Component selection operators (e.g., ".xy") may not be used")
func (c *checker) interpolantUse(x *ast.Call) {
	if x.Builtin != ast.FnInterpolateAtCentroid && x.Builtin != ast.FnInterpolateAtSample && x.Builtin != ast.FnInterpolateAtOffset {
		return
	}
	if len(x.Args) == 0 {
		return
	}
	arg := x.Args[0]
	components := !c.es && c.version >= 440
	for e := arg; ; {
		switch y := e.(type) {
		case *ast.Ident:
			if v := y.Var; v == nil || v.Kind != ast.VarIn || v.Builtin && nonInterpolants[v.Name] {
				c.errorf(arg.Pos(), "interpolant of '%s' must be a fragment shader input", x.Name)
			}
			return
		case *ast.Index:
			if t := y.X.Type(); t != nil && t.Kind == ast.KindVector && !components {
				c.errorf(arg.Pos(), "interpolant of '%s' may not select a vector component before GLSL 4.40", x.Name)
				return
			}
			e = y.X
		case *ast.Selector:
			if y.Field < 0 && !components {
				c.errorf(arg.Pos(), "interpolant of '%s' may not use a swizzle before GLSL 4.40", x.Name)
				return
			}
			e = y.X
		default:
			c.errorf(arg.Pos(), "interpolant of '%s' must be a fragment shader input", x.Name)
			return
		}
	}
}
