package types

import (
	"vortexgfx/shader/glsl/ast"
)

// Implementation limits reported through the gl_Max* constants.
// spec: GLSL 4.50 §7.3, GLSL ES 3.00 §7.3.
const (
	MaxLights             = 8
	MaxClipPlanes         = 8
	MaxTextureUnits       = 2
	MaxTextureCoords      = 8
	MaxVertexAttribs      = 16
	MaxDrawBuffers        = 8
	MaxClipDistances      = 8
	MaxTextureImageUnits  = 16
	MaxCombinedTexUnits   = 32
	MaxVertexTexUnits     = 16
	MaxVertexUniformComps = 1024
	MaxFragUniformComps   = 1024
	MaxVaryingFloats      = 64
)

// MaxSampleMaskWords sizes gl_SampleMaskIn and gl_SampleMask: one 32-bit
// word, ⌈16 / 32⌉ for the 16 samples at most the renderers take (gl/msaa).
// spec: GLSL 4.00 §7.1 ("ceil(gl_MaxSamples/32)")
const MaxSampleMaskWords = 1

// MaxVertexOutputComponents is gl_MaxVertexOutputComponents (GLSL 1.50 and
// later) and the runner's GL_MAX_VERTEX_OUTPUT_COMPONENTS: 128, twice GL
// 3.2's minimum, as the reference renderer's vertex layouts carry them
// beside gl_Position (a device draw with more than 64 varying words routes
// to it). spec: GLSL 1.50 §7.4.
const MaxVertexOutputComponents = 128

// MaxFragmentInputComponents is gl_MaxFragmentInputComponents (GLSL 1.50 and
// later), GL 3.2's minimum. spec: GLSL 1.50 §7.4.
const MaxFragmentInputComponents = 128

// MaxCullDistances and MaxCombinedClipAndCull bound gl_CullDistance and its
// sum with gl_ClipDistance (ARB_cull_distance: GL asks for 8 combined; the
// reference renderer carries 8 of each).
const (
	MaxCullDistances       = 8
	MaxCombinedClipAndCull = 8
)

func (c *checker) addBuiltin(name string, t *ast.Type, kind ast.VarKind, ro bool) *ast.Var {
	v := &ast.Var{Name: name, Type: t, Kind: kind, Builtin: true, ReadOnly: ro, Location: -1, Binding: -1}
	c.builtin.names[name] = &entity{v: v}
	return v
}

// implicitBuiltin marks an implicitly sized built-in array (gl_ClipDistance) whose
// size comes from a redeclaration or the largest constant index, up to limit.
func (c *checker) implicitBuiltin(v *ast.Var, limit int) {
	v.ImplicitSize = true
	c.unsized = append(c.unsized, v)
	c.maxIndex[v] = -1
	c.limit[v] = limit
}

func (c *checker) addConst(name string, n int32) {
	v := c.addBuiltin(name, ast.Scalar(ast.Int), ast.VarConst, true)
	v.ConstValue = ast.IntValue(n)
}

func (c *checker) builtinStruct(name string, fields ...any) *ast.Type {
	st := &ast.StructType{Name: name}
	for i := 0; i+1 < len(fields); i += 2 {
		st.Fields = append(st.Fields, ast.Field{Name: fields[i].(string), Type: fields[i+1].(*ast.Type)})
	}
	c.builtin.names[name] = &entity{typ: st}
	return ast.Struct(st)
}

// declareBuiltinVars declares the built-in variables and constants of the stage and
// version. spec: GLSL 4.50 §7, GLSL 1.20 §7, GLSL ES 1.00/3.00 §7.
func (c *checker) declareBuiltinVars() {
	vs := c.conf.Stage == ast.StageVertex
	f := ast.Scalar(ast.Float)
	v2, v3, v4 := ast.Vector(ast.Float, 2), ast.Vector(ast.Float, 3), ast.Vector(ast.Float, 4)
	m3, m4 := ast.Matrix(3, 3), ast.Matrix(4, 4)
	i := ast.Scalar(ast.Int)
	compat := c.compat()

	// Constants.
	if c.es {
		c.addConst("gl_MaxVertexAttribs", MaxVertexAttribs)
		c.addConst("gl_MaxVertexUniformVectors", 256)
		c.addConst("gl_MaxVertexTextureImageUnits", MaxVertexTexUnits)
		c.addConst("gl_MaxCombinedTextureImageUnits", MaxCombinedTexUnits)
		c.addConst("gl_MaxTextureImageUnits", MaxTextureImageUnits)
		c.addConst("gl_MaxFragmentUniformVectors", 224)
		c.addConst("gl_MaxDrawBuffers", MaxDrawBuffers)
		if c.version >= 300 {
			c.addConst("gl_MaxVertexOutputVectors", 16)
			c.addConst("gl_MaxFragmentInputVectors", 15)
			c.addConst("gl_MinProgramTexelOffset", -8)
			c.addConst("gl_MaxProgramTexelOffset", 7)
		} else {
			c.addConst("gl_MaxVaryingVectors", 8)
		}
	} else {
		c.addConst("gl_MaxVertexAttribs", MaxVertexAttribs)
		c.addConst("gl_MaxVertexUniformComponents", MaxVertexUniformComps)
		c.addConst("gl_MaxVertexTextureImageUnits", MaxVertexTexUnits)
		c.addConst("gl_MaxCombinedTextureImageUnits", MaxCombinedTexUnits)
		c.addConst("gl_MaxTextureImageUnits", MaxTextureImageUnits)
		c.addConst("gl_MaxFragmentUniformComponents", MaxFragUniformComps)
		c.addConst("gl_MaxDrawBuffers", MaxDrawBuffers)
		if compat || c.version < 420 {
			c.addConst("gl_MaxVaryingFloats", MaxVaryingFloats)
		}
		if compat {
			c.addConst("gl_MaxLights", MaxLights)
			c.addConst("gl_MaxClipPlanes", MaxClipPlanes)
			c.addConst("gl_MaxTextureUnits", MaxTextureUnits)
			c.addConst("gl_MaxTextureCoords", MaxTextureCoords)
		}
		if c.version >= 150 {
			c.addConst("gl_MaxVertexOutputComponents", MaxVertexOutputComponents)
			c.addConst("gl_MaxFragmentInputComponents", MaxFragmentInputComponents)
			c.declareGeometryConsts()
		}
		if c.hasEnhancedLayouts() {
			c.addConst("gl_MaxTransformFeedbackBuffers", MaxXfbBuffers)
			c.addConst("gl_MaxTransformFeedbackInterleavedComponents", MaxXfbInterleavedComponents)
		}
		if c.hasCullDistance() {
			c.addConst("gl_MaxCullDistances", MaxCullDistances)
			c.addConst("gl_MaxCombinedClipAndCullDistances", MaxCombinedClipAndCull)
		}
		if c.version >= 130 {
			c.addConst("gl_MaxClipDistances", MaxClipDistances)
			c.addConst("gl_MaxVaryingComponents", MaxVaryingFloats)
			c.addConst("gl_MinProgramTexelOffset", -8)
			c.addConst("gl_MaxProgramTexelOffset", 7)
		}
	}

	c.declareMemoryConsts()

	// Depth range, in every version.
	dr := c.builtinStruct("gl_DepthRangeParameters", "near", f, "far", f, "diff", f)
	c.addBuiltin("gl_DepthRange", dr, ast.VarUniform, true)

	if c.conf.Stage == ast.StageCompute {
		c.declareComputeVars()
	} else if c.conf.Stage == ast.StageGeometry {
		c.declareGeometryVars(compat)
	} else if vs {
		c.addBuiltin("gl_Position", v4, ast.VarOut, false)
		c.addBuiltin("gl_PointSize", f, ast.VarOut, false)
		if c.atLeast(130, 300) {
			c.addBuiltin("gl_VertexID", i, ast.VarIn, true)
		}
		if c.atLeast(140, 300) {
			c.addBuiltin("gl_InstanceID", i, ast.VarIn, true)
		}
		if !c.es && c.extEnabled(ExtDrawInstanced) {
			// gl_InstanceIDARB is gl_InstanceID under another name (the same
			// variable: lowering and the back ends know only gl_InstanceID),
			// and does not make gl_InstanceID itself visible before GLSL 1.40.
			// spec: ARB_draw_instanced, "Additions to Chapter 7 of the OpenGL
			// Shading Language Specification"
			v := &ast.Var{Name: "gl_InstanceID", Type: i, Kind: ast.VarIn, Builtin: true, ReadOnly: true, Location: -1, Binding: -1}
			if e, ok := c.builtin.names["gl_InstanceID"]; ok {
				v = e.v
			}
			c.builtin.names["gl_InstanceIDARB"] = &entity{v: v}
		}
		if c.atLeast(130, 0) {
			c.implicitBuiltin(c.addBuiltin("gl_ClipDistance", ast.Array(f, 0), ast.VarOut, false), MaxClipDistances)
		}
		if c.hasCullDistance() {
			c.implicitBuiltin(c.addBuiltin("gl_CullDistance", ast.Array(f, 0), ast.VarOut, false), MaxCullDistances)
		}
		if compat {
			c.addBuiltin("gl_ClipVertex", v4, ast.VarOut, false)
			for _, n := range []string{"gl_Color", "gl_SecondaryColor", "gl_Vertex"} {
				c.addBuiltin(n, v4, ast.VarIn, true)
			}
			c.addBuiltin("gl_Normal", v3, ast.VarIn, true)
			for k := 0; k < 8; k++ {
				c.addBuiltin("gl_MultiTexCoord"+itoa(k), v4, ast.VarIn, true)
			}
			c.addBuiltin("gl_FogCoord", f, ast.VarIn, true)
			for _, n := range []string{"gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"} {
				c.addBuiltin(n, v4, ast.VarOut, false)
			}
			c.addBuiltin("gl_TexCoord", ast.Array(v4, MaxTextureCoords), ast.VarOut, false)
			c.addBuiltin("gl_FogFragCoord", f, ast.VarOut, false)
		}
	} else {
		c.addBuiltin("gl_FragCoord", v4, ast.VarIn, true)
		c.addBuiltin("gl_FrontFacing", ast.Scalar(ast.Bool), ast.VarIn, true)
		if c.atLeast(450, 310) {
			// spec: GLSL 4.50 §7.1.2, GLSL ES 3.10 §7.1.2
			c.addBuiltin("gl_HelperInvocation", ast.Scalar(ast.Bool), ast.VarIn, true)
		}
		if c.atLeast(110, 100) {
			c.addBuiltin("gl_PointCoord", v2, ast.VarIn, true)
		}
		if !c.es || c.version < 300 {
			if compat || c.es || c.version < 420 {
				c.addBuiltin("gl_FragColor", v4, ast.VarOut, false)
				c.addBuiltin("gl_FragData", ast.Array(v4, MaxDrawBuffers), ast.VarOut, false)
			}
		}
		c.lastFragDataBuiltin(v4)
		if !c.es || c.version >= 300 {
			c.addBuiltin("gl_FragDepth", f, ast.VarOut, false)
		}
		if c.atLeast(130, 0) {
			c.implicitBuiltin(c.addBuiltin("gl_ClipDistance", ast.Array(f, 0), ast.VarIn, true), MaxClipDistances)
		}
		if c.hasCullDistance() {
			c.implicitBuiltin(c.addBuiltin("gl_CullDistance", ast.Array(f, 0), ast.VarIn, true), MaxCullDistances)
		}
		if c.atLeast(150, 320) {
			c.addBuiltin("gl_PrimitiveID", i, ast.VarIn, true)
		}
		if c.hasSampleVariables() {
			// The per-sample built-ins; a pixel's samples fit one mask
			// word (at most 16). gl_NumSamples is a uniform in GLSL; it is
			// declared read-only input here, a word the renderer fills per
			// draw like gl_SampleID (no program can tell the difference).
			// spec: GLSL 4.00 §7.1, §7.4; GLSL ES 3.20 §7.1.2;
			// ARB_sample_shading; OES_sample_variables (sample.go)
			c.addBuiltin("gl_SampleID", i, ast.VarIn, true)
			c.addBuiltin("gl_SamplePosition", v2, ast.VarIn, true)
			c.addBuiltin("gl_SampleMask", ast.Array(i, MaxSampleMaskWords), ast.VarOut, false)
			c.addBuiltin("gl_NumSamples", i, ast.VarIn, true)
		}
		if c.hasSampleMaskIn() {
			c.addBuiltin("gl_SampleMaskIn", ast.Array(i, MaxSampleMaskWords), ast.VarIn, true)
		}
		if compat {
			c.addBuiltin("gl_Color", v4, ast.VarIn, true)
			c.addBuiltin("gl_SecondaryColor", v4, ast.VarIn, true)
			c.addBuiltin("gl_TexCoord", ast.Array(v4, MaxTextureCoords), ast.VarIn, true)
			c.addBuiltin("gl_FogFragCoord", f, ast.VarIn, true)
		}
	}

	if !compat {
		return
	}
	// Compatibility-profile uniform state. spec: GLSL 1.20 §7.5.
	for _, n := range []string{"gl_ModelViewMatrix", "gl_ProjectionMatrix", "gl_ModelViewProjectionMatrix"} {
		for _, suf := range []string{"", "Inverse", "Transpose", "InverseTranspose"} {
			c.addBuiltin(n+suf, m4, ast.VarUniform, true)
		}
	}
	for _, suf := range []string{"", "Inverse", "Transpose", "InverseTranspose"} {
		c.addBuiltin("gl_TextureMatrix"+suf, ast.Array(m4, MaxTextureCoords), ast.VarUniform, true)
	}
	c.addBuiltin("gl_NormalMatrix", m3, ast.VarUniform, true)
	c.addBuiltin("gl_NormalScale", f, ast.VarUniform, true)
	c.addBuiltin("gl_ClipPlane", ast.Array(v4, MaxClipPlanes), ast.VarUniform, true)
	pt := c.builtinStruct("gl_PointParameters", "size", f, "sizeMin", f, "sizeMax", f,
		"fadeThresholdSize", f, "distanceConstantAttenuation", f, "distanceLinearAttenuation", f,
		"distanceQuadraticAttenuation", f)
	c.addBuiltin("gl_Point", pt, ast.VarUniform, true)
	mat := c.builtinStruct("gl_MaterialParameters", "emission", v4, "ambient", v4, "diffuse", v4,
		"specular", v4, "shininess", f)
	c.addBuiltin("gl_FrontMaterial", mat, ast.VarUniform, true)
	c.addBuiltin("gl_BackMaterial", mat, ast.VarUniform, true)
	ls := c.builtinStruct("gl_LightSourceParameters", "ambient", v4, "diffuse", v4, "specular", v4,
		"position", v4, "halfVector", v4, "spotDirection", v3, "spotExponent", f, "spotCutoff", f,
		"spotCosCutoff", f, "constantAttenuation", f, "linearAttenuation", f, "quadraticAttenuation", f)
	c.addBuiltin("gl_LightSource", ast.Array(ls, MaxLights), ast.VarUniform, true)
	lm := c.builtinStruct("gl_LightModelParameters", "ambient", v4)
	c.addBuiltin("gl_LightModel", lm, ast.VarUniform, true)
	lmp := c.builtinStruct("gl_LightModelProducts", "sceneColor", v4)
	c.addBuiltin("gl_FrontLightModelProduct", lmp, ast.VarUniform, true)
	c.addBuiltin("gl_BackLightModelProduct", lmp, ast.VarUniform, true)
	lp := c.builtinStruct("gl_LightProducts", "ambient", v4, "diffuse", v4, "specular", v4)
	c.addBuiltin("gl_FrontLightProduct", ast.Array(lp, MaxLights), ast.VarUniform, true)
	c.addBuiltin("gl_BackLightProduct", ast.Array(lp, MaxLights), ast.VarUniform, true)
	c.addBuiltin("gl_TextureEnvColor", ast.Array(v4, MaxTextureUnits), ast.VarUniform, true)
	for _, p := range []string{"S", "T", "R", "Q"} {
		c.addBuiltin("gl_EyePlane"+p, ast.Array(v4, MaxTextureCoords), ast.VarUniform, true)
		c.addBuiltin("gl_ObjectPlane"+p, ast.Array(v4, MaxTextureCoords), ast.VarUniform, true)
	}
	fog := c.builtinStruct("gl_FogParameters", "color", v4, "density", f, "start", f, "end", f, "scale", f)
	c.addBuiltin("gl_Fog", fog, ast.VarUniform, true)
}
