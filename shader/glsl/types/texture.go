package types

import (
	"vortexgfx/shader/glsl/ast"
)

// samplerMin returns the minimum versions of a sampler type.
func samplerMin(s ast.SamplerType) (desk, es int) {
	switch {
	case s.Dim == ast.DimRect || s.Dim == ast.DimBuffer:
		return 140, 0
	case s.Dim == ast.Dim2DMS && s.Array:
		return 150, 320
	case s.Dim == ast.Dim2DMS:
		return 150, 310
	case s.Dim == ast.DimCube && s.Array:
		return 400, 320
	case s.Dim == ast.Dim1D && (s.Array || s.Base != ast.Float):
		return 130, 0
	case s.Dim == ast.Dim1D:
		return 110, 0
	case s.Base != ast.Float || s.Array || (s.Dim == ast.DimCube && s.Shadow):
		return 130, 300
	case s.Dim == ast.Dim3D || s.Shadow:
		return 110, 300
	}
	return 110, 100
}

// allSamplers lists the sampler types of the language version.
func allSamplers(c *checker) []ast.SamplerType {
	var out []ast.SamplerType
	rectExt := !c.es && c.extEnabled(ExtTextureRectangle)
	add := func(s ast.SamplerType) {
		if d, e := samplerMin(s); c.atLeast(d, e) || rectExt && s.Dim == ast.DimRect && s.Base == ast.Float {
			out = append(out, s)
		}
	}
	for _, b := range []ast.Basic{ast.Float, ast.Int, ast.Uint} {
		for _, d := range []ast.SamplerDim{ast.Dim1D, ast.Dim2D, ast.Dim3D, ast.DimCube, ast.DimRect, ast.DimBuffer, ast.Dim2DMS} {
			add(ast.SamplerType{Dim: d, Base: b})
			if d == ast.Dim1D || d == ast.Dim2D || d == ast.DimCube || d == ast.Dim2DMS {
				add(ast.SamplerType{Dim: d, Base: b, Array: true})
			}
		}
	}
	for _, d := range []ast.SamplerDim{ast.Dim1D, ast.Dim2D, ast.DimCube, ast.DimRect} {
		add(ast.SamplerType{Dim: d, Base: ast.Float, Shadow: true})
		if d == ast.Dim1D || d == ast.Dim2D || d == ast.DimCube {
			add(ast.SamplerType{Dim: d, Base: ast.Float, Shadow: true, Array: true})
		}
	}
	return out
}

func fvec(n int) *ast.Type { return ast.Vector(ast.Float, n) }
func ivec(n int) *ast.Type { return ast.Vector(ast.Int, n) }

// tFloat and tInt return fresh scalar types for signatures.
func tFloat() *ast.Type { return ast.Scalar(ast.Float) }
func tInt() *ast.Type   { return ast.Scalar(ast.Int) }

// coordSize is the size of the P coordinate of texture(): dims + array layer +
// shadow reference (sampler1DShadow uses a vec3). spec: GLSL 4.50 §8.9.2.
func coordSize(s ast.SamplerType) int {
	n := s.CoordSize()
	if s.Array {
		n++
	}
	if s.Shadow {
		n++
		if s.Dim == ast.Dim1D && !s.Array {
			n = 3
		}
	}
	return n
}

// projSizes lists the coordinate sizes of the textureProj family.
func projSizes(s ast.SamplerType) []int {
	if s.Array || s.Dim == ast.DimCube || s.Dim == ast.DimBuffer || s.Dim == ast.Dim2DMS {
		return nil
	}
	if s.Shadow {
		return []int{4}
	}
	switch s.Dim {
	case ast.Dim1D:
		return []int{2, 4}
	case ast.Dim2D, ast.DimRect:
		return []int{3, 4}
	}
	return []int{4}
}

func texel(s ast.SamplerType) *ast.Type {
	if s.Shadow {
		return tFloat()
	}
	return ast.Vector(s.Base, 4)
}

// textureSigs returns the overloads of texture built-in fn. spec: GLSL 4.50 §8.9,
// GLSL 1.20 §8.7 (legacy lookups), GLSL ES 1.00 §8.7.
func textureSigs(fn ast.Builtin, c *checker) []sig {
	if legacy := legacyTextureSigs(fn, c); legacy != nil {
		return legacy
	}
	d, e := 130, 300
	switch fn {
	case ast.FnTextureGather, ast.FnTextureGatherOffset, ast.FnTextureGatherOffsets:
		d, e = 400, 310
		switch {
		case c.hasGPUShader5():
			d = 150 // spec: ARB_gpu_shader5 §8.7 "Texture Gather Instructions"
		case !c.es && c.version >= 130 && c.version < 400 && c.extEnabled(ExtTextureGather):
			return textureGatherARB(fn, c)
		}
	case ast.FnTextureQueryLod:
		d, e = 400, 0
	case ast.FnTextureQueryLOD:
		// GL_ARB_texture_query_lod (GLSL 1.30): the same function, spelled
		// with LOD in capitals.
		d, e = 130, 0
		if !c.extEnabled(ExtTextureQueryLod) {
			return nil
		}
	case ast.FnTextureQueryLevels:
		d, e = 430, 0
		if c.extEnabled(ExtTextureQueryLevels) && c.atLeast(130, 0) {
			d = 130
		}
	case ast.FnTexture, ast.FnTextureProj, ast.FnTextureLod, ast.FnTextureOffset, ast.FnTexelFetch,
		ast.FnTexelFetchOffset, ast.FnTextureProjOffset, ast.FnTextureLodOffset, ast.FnTextureProjLod,
		ast.FnTextureProjLodOffset, ast.FnTextureGrad, ast.FnTextureGradOffset, ast.FnTextureProjGrad,
		ast.FnTextureProjGradOffset, ast.FnTextureSize:
	default:
		return nil
	}
	if !c.atLeast(d, e) {
		return nil
	}
	fs := c.conf.Stage == ast.StageFragment
	var out []sig
	add := func(ret *ast.Type, params ...*ast.Type) {
		out = append(out, sig{fn: fn, ret: ret, params: params})
	}
	for _, s := range allSamplers(c) {
		if s.Dim == ast.DimCube && s.Array {
			out = append(out, cubeArraySigs(fn, s, fs)...)
			continue
		}
		st := ast.Sampler(s)
		P, D := coordSize(s), s.CoordSize()
		ret := texel(s)
		cube, rect, buf, ms := s.Dim == ast.DimCube, s.Dim == ast.DimRect, s.Dim == ast.DimBuffer, s.Dim == ast.Dim2DMS
		special := buf || ms
		biasOK := fs && !rect && !(s.Shadow && s.Array && s.Dim == ast.Dim2D)
		fetchN := D
		if s.Array {
			fetchN++
		}
		switch fn {
		case ast.FnTexture:
			if special {
				continue
			}
			add(ret, st, fvec(P))
			if biasOK {
				add(ret, st, fvec(P), tFloat())
			}
		case ast.FnTextureProj, ast.FnTextureProjOffset:
			for _, n := range projSizes(s) {
				extra := []*ast.Type{}
				if fn == ast.FnTextureProjOffset {
					extra = append(extra, ivec(D))
				}
				add(ret, append([]*ast.Type{st, fvec(n)}, extra...)...)
				if fs && !rect {
					add(ret, append(append([]*ast.Type{st, fvec(n)}, extra...), tFloat())...)
				}
			}
		case ast.FnTextureLod, ast.FnTextureLodOffset:
			if special || rect || (s.Shadow && (cube || s.Array && s.Dim == ast.Dim2D)) {
				continue
			}
			if fn == ast.FnTextureLodOffset {
				if cube {
					continue
				}
				add(ret, st, fvec(P), tFloat(), ivec(D))
			} else {
				add(ret, st, fvec(P), tFloat())
			}
		case ast.FnTextureOffset:
			if special || cube {
				continue
			}
			add(ret, st, fvec(P), ivec(D))
			if biasOK {
				add(ret, st, fvec(P), ivec(D), tFloat())
			}
		case ast.FnTexelFetch:
			if s.Shadow || cube {
				continue
			}
			switch {
			case rect:
				add(ret, st, ivec(2))
			case buf:
				add(ret, st, tInt())
			case ms:
				add(ret, st, ivec(fetchN), tInt())
			default:
				add(ret, st, ivec(fetchN), tInt())
			}
		case ast.FnTexelFetchOffset:
			if s.Shadow || cube || special {
				continue
			}
			if rect {
				add(ret, st, ivec(2), ivec(2))
			} else {
				add(ret, st, ivec(fetchN), tInt(), ivec(D))
			}
		case ast.FnTextureProjLod, ast.FnTextureProjLodOffset:
			if rect {
				continue
			}
			for _, n := range projSizes(s) {
				if fn == ast.FnTextureProjLodOffset {
					add(ret, st, fvec(n), tFloat(), ivec(D))
				} else {
					add(ret, st, fvec(n), tFloat())
				}
			}
		case ast.FnTextureGrad, ast.FnTextureGradOffset:
			if special {
				continue
			}
			if fn == ast.FnTextureGradOffset {
				if cube {
					continue
				}
				add(ret, st, fvec(P), fvec(D), fvec(D), ivec(D))
			} else {
				add(ret, st, fvec(P), fvec(D), fvec(D))
			}
		case ast.FnTextureProjGrad, ast.FnTextureProjGradOffset:
			for _, n := range projSizes(s) {
				if fn == ast.FnTextureProjGradOffset {
					add(ret, st, fvec(n), fvec(D), fvec(D), ivec(D))
				} else {
					add(ret, st, fvec(n), fvec(D), fvec(D))
				}
			}
		case ast.FnTextureSize:
			n := fetchN
			if cube {
				n = 2
			}
			r := ast.Vector(ast.Int, n)
			if rect || buf || ms {
				add(r, st)
			} else {
				add(r, st, tInt())
			}
		case ast.FnTextureGather, ast.FnTextureGatherOffset, ast.FnTextureGatherOffsets:
			if !(s.Dim == ast.Dim2D || rect || (cube && fn == ast.FnTextureGather)) || s.Dim == ast.Dim1D {
				continue
			}
			g := ast.Vector(s.Base, 4)
			pc := D
			if s.Array {
				pc++
			}
			off := []*ast.Type{}
			switch fn {
			case ast.FnTextureGatherOffset:
				off = append(off, ivec(2))
			case ast.FnTextureGatherOffsets:
				off = append(off, ast.Array(ivec(2), 4))
			}
			if s.Shadow {
				add(fvec(4), append([]*ast.Type{st, fvec(pc), tFloat()}, off...)...)
			} else {
				add(g, append([]*ast.Type{st, fvec(pc)}, off...)...)
				add(g, append(append([]*ast.Type{st, fvec(pc)}, off...), tInt())...)
			}
		case ast.FnTextureQueryLod, ast.FnTextureQueryLOD:
			if special || rect || !fs {
				continue
			}
			add(fvec(2), st, fvec(D))
		case ast.FnTextureQueryLevels:
			if special || rect {
				continue
			}
			add(tInt(), st)
		}
	}
	return out
}

// textureGatherARB returns the overloads ARB_texture_gather gives GLSL
// 1.30-3.30 shaders: textureGather(gsampler, P) and textureGatherOffset(
// gsampler2D[Array|Rect], P, ivec2 offset) with a constant offset, for the 2D,
// 2D array, cube and rectangle samplers (cube arrays need
// ARB_texture_cube_map_array, which the front end lacks); no component
// select, shadow forms or textureGatherOffsets.
// spec: ARB_texture_gather "Modifications to the OpenGL Shading Language"
func textureGatherARB(fn ast.Builtin, c *checker) []sig {
	if fn == ast.FnTextureGatherOffsets {
		return nil
	}
	var out []sig
	for _, s := range allSamplers(c) {
		if s.Shadow || s.Array && s.Dim == ast.DimCube {
			continue
		}
		pc := 0
		switch {
		case s.Dim == ast.Dim2D || s.Dim == ast.DimRect:
			pc = 2
		case s.Dim == ast.DimCube && fn == ast.FnTextureGather:
			pc = 3
		default:
			continue
		}
		if s.Array {
			pc++
		}
		params := []*ast.Type{ast.Sampler(s), fvec(pc)}
		if fn == ast.FnTextureGatherOffset {
			params = append(params, ivec(2))
		}
		out = append(out, sig{fn: fn, ret: ast.Vector(s.Base, 4), params: params})
	}
	return out
}

// cubeArraySigs returns the overloads of fn for a cube-map array sampler, whose
// coordinates are a vec4 (direction, layer) and whose shadow form takes the
// reference as a separate argument. spec: GLSL 4.50 §8.9.
func cubeArraySigs(fn ast.Builtin, s ast.SamplerType, fs bool) []sig {
	st := ast.Sampler(s)
	var out []sig
	add := func(ret *ast.Type, params ...*ast.Type) {
		out = append(out, sig{fn: fn, ret: ret, params: params})
	}
	g := ast.Vector(s.Base, 4)
	switch fn {
	case ast.FnTexture:
		if s.Shadow {
			add(tFloat(), st, fvec(4), tFloat())
			break
		}
		add(g, st, fvec(4))
		if fs {
			add(g, st, fvec(4), tFloat())
		}
	case ast.FnTextureLod:
		if !s.Shadow {
			add(g, st, fvec(4), tFloat())
		}
	case ast.FnTextureGrad:
		if !s.Shadow {
			add(g, st, fvec(4), fvec(3), fvec(3))
		}
	case ast.FnTextureSize:
		add(ivec(3), st, tInt())
	case ast.FnTextureGather:
		if s.Shadow {
			add(fvec(4), st, fvec(4), tFloat())
		} else {
			add(g, st, fvec(4))
			add(g, st, fvec(4), tInt())
		}
	case ast.FnTextureQueryLod, ast.FnTextureQueryLOD:
		if fs {
			add(fvec(2), st, fvec(3))
		}
	case ast.FnTextureQueryLevels:
		add(tInt(), st)
	}
	return out
}

// rectSigs handles the rectangle-texture lookups of GLSL 1.40 (texture2DRect,
// shadow2DRect and their Proj forms); nil for other ids. spec: GLSL 1.40 §8.7.
func rectSigs(fn ast.Builtin, c *checker) []sig {
	r := ast.Sampler(ast.SamplerType{Dim: ast.DimRect, Base: ast.Float})
	rs := ast.Sampler(ast.SamplerType{Dim: ast.DimRect, Base: ast.Float, Shadow: true})
	var coords []int
	st := r
	switch fn {
	case ast.FnTexture2DRect:
		coords = []int{2}
	case ast.FnTexture2DRectProj:
		coords = []int{3, 4}
	case ast.FnShadow2DRect:
		coords, st = []int{3}, rs
	case ast.FnShadow2DRectProj:
		coords, st = []int{4}, rs
	default:
		return nil
	}
	out := []sig{}
	if c.es || c.version < 140 && !c.extEnabled(ExtTextureRectangle) {
		return out
	}
	for _, n := range coords {
		out = append(out, sig{fn: fn, ret: fvec(4), params: []*ast.Type{st, fvec(n)}})
	}
	return out
}

// legacyTextureSigs handles texture2D and friends, GL_EXT_texture_array's
// texture1DArray family and GL_ARB_shader_texture_lod's *GradARB lookups; it
// returns nil for other ids. spec: GLSL 1.20 §8.7, EXT_texture_array,
// ARB_shader_texture_lod.
func legacyTextureSigs(fn ast.Builtin, c *checker) []sig {
	const (
		plain = iota
		lod
		grad
	)
	type lg struct {
		s      ast.SamplerType
		coords []int
		kind   int
		ext    string // "" for the compatibility built-ins
	}
	d1 := ast.SamplerType{Dim: ast.Dim1D, Base: ast.Float}
	d2 := ast.SamplerType{Dim: ast.Dim2D, Base: ast.Float}
	d3 := ast.SamplerType{Dim: ast.Dim3D, Base: ast.Float}
	cu := ast.SamplerType{Dim: ast.DimCube, Base: ast.Float}
	s1 := ast.SamplerType{Dim: ast.Dim1D, Base: ast.Float, Shadow: true}
	s2 := ast.SamplerType{Dim: ast.Dim2D, Base: ast.Float, Shadow: true}
	a1 := ast.SamplerType{Dim: ast.Dim1D, Base: ast.Float, Array: true}
	a2 := ast.SamplerType{Dim: ast.Dim2D, Base: ast.Float, Array: true}
	as1 := ast.SamplerType{Dim: ast.Dim1D, Base: ast.Float, Array: true, Shadow: true}
	as2 := ast.SamplerType{Dim: ast.Dim2D, Base: ast.Float, Array: true, Shadow: true}
	r := ast.SamplerType{Dim: ast.DimRect, Base: ast.Float}
	rs := ast.SamplerType{Dim: ast.DimRect, Base: ast.Float, Shadow: true}
	ta, tl := ExtTextureArray, ExtShaderTextureLod
	table := map[ast.Builtin]lg{
		ast.FnTexture1D: {d1, []int{1}, plain, ""}, ast.FnTexture1DProj: {d1, []int{2, 4}, plain, ""},
		ast.FnTexture1DLod: {d1, []int{1}, lod, ""}, ast.FnTexture1DProjLod: {d1, []int{2, 4}, lod, ""},
		ast.FnTexture2D: {d2, []int{2}, plain, ""}, ast.FnTexture2DProj: {d2, []int{3, 4}, plain, ""},
		ast.FnTexture2DLod: {d2, []int{2}, lod, ""}, ast.FnTexture2DProjLod: {d2, []int{3, 4}, lod, ""},
		ast.FnTexture3D: {d3, []int{3}, plain, ""}, ast.FnTexture3DProj: {d3, []int{4}, plain, ""},
		ast.FnTexture3DLod: {d3, []int{3}, lod, ""}, ast.FnTexture3DProjLod: {d3, []int{4}, lod, ""},
		ast.FnTextureCube: {cu, []int{3}, plain, ""}, ast.FnTextureCubeLod: {cu, []int{3}, lod, ""},
		ast.FnShadow1D: {s1, []int{3}, plain, ""}, ast.FnShadow2D: {s2, []int{3}, plain, ""},
		ast.FnShadow1DProj: {s1, []int{4}, plain, ""}, ast.FnShadow2DProj: {s2, []int{4}, plain, ""},
		ast.FnShadow1DLod: {s1, []int{3}, lod, ""}, ast.FnShadow2DLod: {s2, []int{3}, lod, ""},
		ast.FnShadow1DProjLod: {s1, []int{4}, lod, ""}, ast.FnShadow2DProjLod: {s2, []int{4}, lod, ""},

		ast.FnTexture1DArray: {a1, []int{2}, plain, ta}, ast.FnTexture2DArray: {a2, []int{3}, plain, ta},
		ast.FnTexture1DArrayLod: {a1, []int{2}, lod, ta}, ast.FnTexture2DArrayLod: {a2, []int{3}, lod, ta},
		ast.FnShadow1DArray: {as1, []int{3}, plain, ta}, ast.FnShadow2DArray: {as2, []int{4}, plain, ta},
		ast.FnShadow1DArrayLod: {as1, []int{3}, lod, ta},

		ast.FnTexture1DGradARB: {d1, []int{1}, grad, tl}, ast.FnTexture1DProjGradARB: {d1, []int{2, 4}, grad, tl},
		ast.FnTexture2DGradARB: {d2, []int{2}, grad, tl}, ast.FnTexture2DProjGradARB: {d2, []int{3, 4}, grad, tl},
		ast.FnTexture3DGradARB: {d3, []int{3}, grad, tl}, ast.FnTexture3DProjGradARB: {d3, []int{4}, grad, tl},
		ast.FnTextureCubeGradARB: {cu, []int{3}, grad, tl},
		ast.FnShadow1DGradARB:    {s1, []int{3}, grad, tl}, ast.FnShadow1DProjGradARB: {s1, []int{4}, grad, tl},
		ast.FnShadow2DGradARB: {s2, []int{3}, grad, tl}, ast.FnShadow2DProjGradARB: {s2, []int{4}, grad, tl},
		ast.FnTexture2DRectGradARB: {r, []int{2}, grad, tl}, ast.FnTexture2DRectProjGradARB: {r, []int{3, 4}, grad, tl},
		ast.FnShadow2DRectGradARB: {rs, []int{3}, grad, tl}, ast.FnShadow2DRectProjGradARB: {rs, []int{4}, grad, tl},
	}
	if rs := rectSigs(fn, c); rs != nil {
		return rs
	}
	l, ok := table[fn]
	if !ok {
		return nil
	}
	fs := c.conf.Stage == ast.StageFragment
	switch {
	case l.ext != "":
		if c.es || !c.extEnabled(l.ext) || l.s.Dim == ast.DimRect && c.version < 140 && !c.extEnabled(ExtTextureRectangle) {
			return []sig{}
		}
	case c.es:
		if c.version >= 300 {
			return []sig{}
		}
		switch fn {
		case ast.FnTexture2D, ast.FnTexture2DProj, ast.FnTextureCube:
		case ast.FnTexture2DLod, ast.FnTexture2DProjLod, ast.FnTextureCubeLod:
			if fs {
				return []sig{}
			}
		default:
			return []sig{}
		}
	case !c.compat():
		return []sig{}
	}
	// The explicit-LOD lookups reach fragment shaders in GLSL 1.30, or earlier
	// with GL_ARB_shader_texture_lod.
	if l.kind == lod && fs && c.version < 130 && !c.extEnabled(ExtShaderTextureLod) {
		return []sig{}
	}
	out := []sig{}
	st := ast.Sampler(l.s)
	// Gradients have the dimensions of the sampled space: 1 for 1D, 2 for 2D
	// and rectangles, 3 for 3D and cube maps.
	dims := 2
	switch l.s.Dim {
	case ast.Dim1D:
		dims = 1
	case ast.Dim3D, ast.DimCube:
		dims = 3
	}
	vec := func(n int) *ast.Type {
		if n == 1 {
			return tFloat()
		}
		return fvec(n)
	}
	for _, n := range l.coords {
		coord := vec(n)
		switch l.kind {
		case lod:
			out = append(out, sig{fn: fn, ret: fvec(4), params: []*ast.Type{st, coord, tFloat()}})
			continue
		case grad:
			out = append(out, sig{fn: fn, ret: fvec(4), params: []*ast.Type{st, coord, vec(dims), vec(dims)}})
			continue
		}
		out = append(out, sig{fn: fn, ret: fvec(4), params: []*ast.Type{st, coord}})
		if fs {
			out = append(out, sig{fn: fn, ret: fvec(4), params: []*ast.Type{st, coord, tFloat()}})
		}
	}
	return out
}
