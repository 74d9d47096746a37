package pipe

import (
	"math"
)

// MaxLights is the compatibility profile's light count (GL_MAX_LIGHTS).
const MaxLights = 8

// LegacyState is the compatibility profile's transform and lighting state
// that GLSL reads as built-in uniforms (gl_ModelViewMatrix and its
// variants, gl_ProjectionMatrix, gl_ModelViewProjectionMatrix,
// gl_NormalMatrix, gl_ClipPlane, gl_LightSource and the default material and
// light model products). SetLegacyState hands it to the bound program at
// every draw on either path. spec: GLSL 1.20 §7.5 (built-in uniform state)
type LegacyState struct {
	// ModelView and Projection are column-major 4×4 matrices.
	ModelView, Projection [16]float32
	// ClipPlanes are gl_ClipPlane[] (the eye-space plane equations).
	ClipPlanes [MaxClipPlanes][4]float32
	Lights     [MaxLights]LegacyLight
	// Color and TexCoords are the current colour and texture coordinates
	// (glColor, glMultiTexCoord): the fixed-function vertex stage's values
	// for what no vertex element feeds.
	Color     [4]float32
	TexCoords [8][4]float32
}

// LegacyLight is one gl_LightSource[] entry as glLight sets it.
type LegacyLight struct {
	Ambient, Diffuse, Specular, Position [4]float32
	SpotDirection                        [3]float32
	SpotExponent, SpotCutoff             float32
	ConstantAttenuation                  float32
	LinearAttenuation                    float32
	QuadraticAttenuation                 float32
}

// DefaultLegacyState is GL's initial state: identity matrices, zero clip
// planes, light 0 white and every light along +z, a white current colour and
// texture coordinates (0, 0, 0, 1). spec: GL 2.1 §2.14.1
// (table 2.10)
func DefaultLegacyState() LegacyState {
	s := LegacyState{ModelView: identity4, Projection: identity4, Color: [4]float32{1, 1, 1, 1}}
	for i := range s.TexCoords {
		s.TexCoords[i] = [4]float32{0, 0, 0, 1}
	}
	for i := range s.Lights {
		l := &s.Lights[i]
		l.Ambient = [4]float32{0, 0, 0, 1}
		l.Diffuse = [4]float32{0, 0, 0, 1}
		l.Specular = [4]float32{0, 0, 0, 1}
		if i == 0 {
			l.Diffuse = [4]float32{1, 1, 1, 1}
			l.Specular = [4]float32{1, 1, 1, 1}
		}
		l.Position = [4]float32{0, 0, 1, 0}
		l.SpotDirection = [3]float32{0, 0, -1}
		l.SpotCutoff = 180
		l.ConstantAttenuation = 1
	}
	return s
}

// SetLegacyState sets the built-in uniform state for later draws (nil: the
// program's built-in uniforms are left as they are).
func (c *Context) SetLegacyState(s *LegacyState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s == nil {
		c.legacy = nil
		return
	}
	cp := *s
	c.legacy = &cp
}

// MulMatrix returns a*b for column-major 4×4 matrices, in float, the order
// Mesa multiplies in (each element a sum of four products, left to right).
func MulMatrix(a, b [16]float32) [16]float32 {
	var m [16]float32
	for c := range 4 {
		for r := range 4 {
			m[c*4+r] = float32(float32(float32(a[r]*b[c*4])+float32(a[4+r]*b[c*4+1]))+float32(a[8+r]*b[c*4+2])) + float32(a[12+r]*b[c*4+3])
		}
	}
	return m
}

// ModelViewProjection is gl_ModelViewProjectionMatrix: Projection ×
// ModelView.
func (s *LegacyState) ModelViewProjection() [16]float32 {
	return MulMatrix(s.Projection, s.ModelView)
}

// NormalMatrix is gl_NormalMatrix: the transposed inverse of the upper
// 3×3 of ModelView, column-major, computed in double and rounded (the
// identity when ModelView is singular).
func (s *LegacyState) NormalMatrix() [9]float32 {
	m := s.ModelView
	a := func(r, c int) float64 { return float64(m[c*4+r]) }
	det := a(0, 0)*(a(1, 1)*a(2, 2)-a(1, 2)*a(2, 1)) - a(0, 1)*(a(1, 0)*a(2, 2)-a(1, 2)*a(2, 0)) + a(0, 2)*(a(1, 0)*a(2, 1)-a(1, 1)*a(2, 0))
	if det == 0 {
		return [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	// The transposed inverse is the cofactor matrix over the determinant.
	var n [9]float32
	for r := range 3 {
		for c := range 3 {
			r1, r2 := (r+1)%3, (r+2)%3
			c1, c2 := (c+1)%3, (c+2)%3
			cof := a(r1, c1)*a(r2, c2) - a(r1, c2)*a(r2, c1)
			n[c*3+r] = float32(cof / det)
		}
	}
	return n
}

// Builtin is one built-in uniform's words.
type Builtin struct {
	Name  string
	Words []uint32
}

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
		out[i] = math.Float32bits(f)
	}
	return out
}

// matrix appends a legacy matrix and its Inverse, Transpose and
// InverseTranspose variants.
func matrix(out []Builtin, name string, m [16]float32) []Builtin {
	inv := inverse4(m)
	t := transpose4(m)
	it := transpose4(inv)
	return append(out, Builtin{name, words(m[:]...)}, Builtin{name + "Inverse", words(inv[:]...)},
		Builtin{name + "Transpose", words(t[:]...)}, Builtin{name + "InverseTranspose", words(it[:]...)})
}

// Builtins returns the built-in uniforms of s: the matrices (texture
// matrices the identity), gl_NormalScale 1, gl_ClipPlane, gl_DepthRange
// (0, 1), gl_Point's defaults, GL's default material and light model, the
// light sources and their products with the material.
// spec: GLSL 1.20 §7.5 (built-in uniform state)
func (s *LegacyState) Builtins() []Builtin {
	var out []Builtin
	out = matrix(out, "gl_ModelViewMatrix", s.ModelView)
	out = matrix(out, "gl_ProjectionMatrix", s.Projection)
	out = matrix(out, "gl_ModelViewProjectionMatrix", s.ModelViewProjection())
	var tm []uint32
	for i := 0; i < 8; i++ {
		tm = append(tm, words(identity4[:]...)...)
	}
	for _, suf := range []string{"", "Inverse", "Transpose", "InverseTranspose"} {
		out = append(out, Builtin{"gl_TextureMatrix" + suf, tm})
	}
	nm := s.NormalMatrix()
	out = append(out, Builtin{"gl_NormalMatrix", words(nm[:]...)}, Builtin{"gl_NormalScale", words(1)})
	var planes []uint32
	for i := range s.ClipPlanes {
		planes = append(planes, words(s.ClipPlanes[i][:]...)...)
	}
	out = append(out, Builtin{"gl_ClipPlane", planes}, Builtin{"gl_DepthRange", words(0, 1, 1)},
		Builtin{"gl_Point", words(1, 0, 2048, 1, 1, 0, 0)})
	// GL's default material and light model.
	emission := [4]float32{0, 0, 0, 1}
	ambient := [4]float32{0.2, 0.2, 0.2, 1}
	diffuse := [4]float32{0.8, 0.8, 0.8, 1}
	specular := [4]float32{0, 0, 0, 1}
	var mat []uint32
	for _, v := range [][4]float32{emission, ambient, diffuse, specular} {
		mat = append(mat, words(v[:]...)...)
	}
	mat = append(mat, math.Float32bits(0))
	out = append(out, Builtin{"gl_FrontMaterial", mat}, Builtin{"gl_BackMaterial", mat})
	lmAmbient := [4]float32{0.2, 0.2, 0.2, 1}
	out = append(out, Builtin{"gl_LightModel", words(lmAmbient[:]...)})
	scene := words(emission[0]+ambient[0]*lmAmbient[0], emission[1]+ambient[1]*lmAmbient[1],
		emission[2]+ambient[2]*lmAmbient[2], diffuse[3])
	out = append(out, Builtin{"gl_FrontLightModelProduct", scene}, Builtin{"gl_BackLightModelProduct", scene})
	var ls, prod []uint32
	for i := range s.Lights {
		l := &s.Lights[i]
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
	return append(out, Builtin{"gl_LightSource", ls}, Builtin{"gl_FrontLightProduct", prod}, Builtin{"gl_BackLightProduct", prod})
}
