package reference

import (
	"math"

	"vortexgfx/shadertest"
)

var identity4 = [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// transpose4 returns the transpose of a column-major 4×4 matrix.
func transpose4(m [16]float32) [16]float32 {
	var t [16]float32
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			t[c*4+r] = m[r*4+c]
		}
	}
	return t
}

// inverse4 inverts a column-major 4×4 matrix in float64 (the identity when it
// is singular).
func inverse4(m [16]float32) [16]float32 {
	var a [4][8]float64
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			a[r][c] = float64(m[c*4+r])
		}
		a[r][4+r] = 1
	}
	for col := 0; col < 4; col++ {
		piv := col
		for r := col + 1; r < 4; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if a[piv][col] == 0 {
			return identity4
		}
		a[col], a[piv] = a[piv], a[col]
		inv := 1 / a[col][col]
		for k := 0; k < 8; k++ {
			a[col][k] *= inv
		}
		for r := 0; r < 4; r++ {
			if r == col || a[r][col] == 0 {
				continue
			}
			f := a[r][col]
			for k := 0; k < 8; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	var out [16]float32
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			out[c*4+r] = float32(a[r][4+c])
		}
	}
	return out
}

func words(fs ...float32) []uint32 {
	out := make([]uint32, len(fs))
	for i, f := range fs {
		out[i] = f32bits(f)
	}
	return out
}

// setMatrix sets a legacy matrix and its Inverse, Transpose and
// InverseTranspose variants.
func (c *glContext) setMatrix(name string, m [16]float32) {
	p := c.prog
	inv := inverse4(m)
	p.SetBuiltin(name, words(m[:]...))
	p.SetBuiltin(name+"Inverse", words(inv[:]...))
	t := transpose4(m)
	p.SetBuiltin(name+"Transpose", words(t[:]...))
	it := transpose4(inv)
	p.SetBuiltin(name+"InverseTranspose", words(it[:]...))
}

// setLegacyUniforms sets the compatibility built-in uniforms from the
// runner's state. spec: GLSL 1.20 §7.5 (built-in uniform state).
func (c *glContext) setLegacyUniforms(st *shadertest.State) {
	p := c.prog
	c.setMatrix("gl_ModelViewMatrix", st.ModelView)
	c.setMatrix("gl_ProjectionMatrix", st.Projection)
	c.setMatrix("gl_ModelViewProjectionMatrix", st.ModelViewProjection())
	var tm []uint32
	for i := 0; i < 8; i++ {
		tm = append(tm, words(identity4[:]...)...)
	}
	for _, suf := range []string{"", "Inverse", "Transpose", "InverseTranspose"} {
		p.SetBuiltin("gl_TextureMatrix"+suf, tm)
	}
	nm := st.NormalMatrix()
	p.SetBuiltin("gl_NormalMatrix", words(nm[:]...))
	p.SetBuiltin("gl_NormalScale", words(1))
	var planes []uint32
	for i := range st.ClipPlanes {
		for k := 0; k < 4; k++ {
			planes = append(planes, f32bits(float32(st.ClipPlanes[i][k])))
		}
	}
	p.SetBuiltin("gl_ClipPlane", planes)
	p.SetBuiltin("gl_DepthRange", words(0, 1, 1))
	p.SetBuiltin("gl_Point", words(1, 0, 2048, 1, 1, 0, 0))
	// GL's default material and light model.
	emission := [4]float32{0, 0, 0, 1}
	ambient := [4]float32{0.2, 0.2, 0.2, 1}
	diffuse := [4]float32{0.8, 0.8, 0.8, 1}
	specular := [4]float32{0, 0, 0, 1}
	var mat []uint32
	for _, v := range [][4]float32{emission, ambient, diffuse, specular} {
		mat = append(mat, words(v[:]...)...)
	}
	mat = append(mat, f32bits(0))
	p.SetBuiltin("gl_FrontMaterial", mat)
	p.SetBuiltin("gl_BackMaterial", mat)
	lmAmbient := [4]float32{0.2, 0.2, 0.2, 1}
	p.SetBuiltin("gl_LightModel", words(lmAmbient[:]...))
	scene := words(emission[0]+ambient[0]*lmAmbient[0], emission[1]+ambient[1]*lmAmbient[1],
		emission[2]+ambient[2]*lmAmbient[2], diffuse[3])
	p.SetBuiltin("gl_FrontLightModelProduct", scene)
	p.SetBuiltin("gl_BackLightModelProduct", scene)
	var ls, prod []uint32
	for i := range st.Lights {
		l := &st.Lights[i]
		ls = append(ls, words(l.Ambient[:]...)...)
		ls = append(ls, words(l.Diffuse[:]...)...)
		ls = append(ls, words(l.Specular[:]...)...)
		ls = append(ls, words(l.Position[:]...)...)
		// halfVector: the direction to the light plus the eye direction (0,0,1),
		// normalised.
		h := [3]float64{float64(l.Position[0]), float64(l.Position[1]), float64(l.Position[2])}
		if n := math.Sqrt(h[0]*h[0] + h[1]*h[1] + h[2]*h[2]); n > 0 {
			h = [3]float64{h[0] / n, h[1] / n, h[2]/n + 1}
		}
		if n := math.Sqrt(h[0]*h[0] + h[1]*h[1] + h[2]*h[2]); n > 0 {
			h = [3]float64{h[0] / n, h[1] / n, h[2] / n}
		}
		ls = append(ls, words(float32(h[0]), float32(h[1]), float32(h[2]), 0)...)
		ls = append(ls, words(l.SpotDirection[:]...)...)
		ls = append(ls, words(l.SpotExponent, l.SpotCutoff, float32(math.Cos(float64(l.SpotCutoff)*math.Pi/180)),
			l.ConstantAttenuation, l.LinearAttenuation, l.QuadraticAttenuation)...)
		for k, v := range [][4]float32{ambient, diffuse, specular} {
			lc := [][4]float32{l.Ambient, l.Diffuse, l.Specular}[k]
			prod = append(prod, words(v[0]*lc[0], v[1]*lc[1], v[2]*lc[2], v[3]*lc[3])...)
		}
	}
	p.SetBuiltin("gl_LightSource", ls)
	p.SetBuiltin("gl_FrontLightProduct", prod)
	p.SetBuiltin("gl_BackLightProduct", prod)
}
