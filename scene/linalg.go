package scene

import "math"

// Vec3 is a 3-component float32 vector. spec: bench README "Matrices".
type Vec3 [3]float32

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns a*s.
func (a Vec3) Scale(s float32) Vec3 { return Vec3{a[0] * s, a[1] * s, a[2] * s} }

// Dot returns the dot product a·b.
func (a Vec3) Dot(b Vec3) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns the cross product a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Len returns the Euclidean length of a.
func (a Vec3) Len() float32 {
	return float32(math.Sqrt(float64(a[0])*float64(a[0]) + float64(a[1])*float64(a[1]) + float64(a[2])*float64(a[2])))
}

// Normalize returns a scaled to unit length, or the zero vector when a is zero.
func (a Vec3) Normalize() Vec3 {
	x, y, z := float64(a[0]), float64(a[1]), float64(a[2])
	l := math.Sqrt(x*x + y*y + z*z)
	if l == 0 {
		return Vec3{}
	}
	return Vec3{float32(x / l), float32(y / l), float32(z / l)}
}

// Mat3 is a column-major 3×3 float32 matrix (GLSL mat3): element (r, c) is m[c*3+r].
type Mat3 [9]float32

// Mat4 is a column-major 4×4 float32 matrix (GLSL mat4): element (r, c) is m[c*4+r].
// spec: bench README "Matrices" (column vectors, OpenGL conventions).
type Mat4 [16]float32

// Identity returns the 4×4 identity matrix.
func Identity() Mat4 {
	return Mat4{0: 1, 5: 1, 10: 1, 15: 1}
}

// At returns element (row r, column c).
func (m Mat4) At(r, c int) float32 { return m[c*4+r] }

// Mul returns the product m·n (n is applied to a vector first). The sums
// are formed in float64 and rounded once.
func (m Mat4) Mul(n Mat4) Mat4 {
	var out Mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += float64(m[k*4+r]) * float64(n[c*4+k])
			}
			out[c*4+r] = float32(s)
		}
	}
	return out
}

// MulVec4 returns m·v.
func (m Mat4) MulVec4(v [4]float32) [4]float32 {
	var out [4]float32
	for r := 0; r < 4; r++ {
		var s float64
		for k := 0; k < 4; k++ {
			s += float64(m[k*4+r]) * float64(v[k])
		}
		out[r] = float32(s)
	}
	return out
}

// MulPoint returns the xyz of m·(p, 1) without a perspective divide.
func (m Mat4) MulPoint(p Vec3) Vec3 {
	v := m.MulVec4([4]float32{p[0], p[1], p[2], 1})
	return Vec3{v[0], v[1], v[2]}
}

// Transpose returns mᵀ.
func (m Mat4) Transpose() Mat4 {
	var out Mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			out[r*4+c] = m[c*4+r]
		}
	}
	return out
}

// Inverse returns m⁻¹ and whether m is invertible (computed by cofactors in float64).
func (m Mat4) Inverse() (Mat4, bool) {
	var a [16]float64
	for i := range a {
		a[i] = float64(m[i])
	}
	var inv [16]float64
	inv[0] = a[5]*a[10]*a[15] - a[5]*a[11]*a[14] - a[9]*a[6]*a[15] + a[9]*a[7]*a[14] + a[13]*a[6]*a[11] - a[13]*a[7]*a[10]
	inv[4] = -a[4]*a[10]*a[15] + a[4]*a[11]*a[14] + a[8]*a[6]*a[15] - a[8]*a[7]*a[14] - a[12]*a[6]*a[11] + a[12]*a[7]*a[10]
	inv[8] = a[4]*a[9]*a[15] - a[4]*a[11]*a[13] - a[8]*a[5]*a[15] + a[8]*a[7]*a[13] + a[12]*a[5]*a[11] - a[12]*a[7]*a[9]
	inv[12] = -a[4]*a[9]*a[14] + a[4]*a[10]*a[13] + a[8]*a[5]*a[14] - a[8]*a[6]*a[13] - a[12]*a[5]*a[10] + a[12]*a[6]*a[9]
	inv[1] = -a[1]*a[10]*a[15] + a[1]*a[11]*a[14] + a[9]*a[2]*a[15] - a[9]*a[3]*a[14] - a[13]*a[2]*a[11] + a[13]*a[3]*a[10]
	inv[5] = a[0]*a[10]*a[15] - a[0]*a[11]*a[14] - a[8]*a[2]*a[15] + a[8]*a[3]*a[14] + a[12]*a[2]*a[11] - a[12]*a[3]*a[10]
	inv[9] = -a[0]*a[9]*a[15] + a[0]*a[11]*a[13] + a[8]*a[1]*a[15] - a[8]*a[3]*a[13] - a[12]*a[1]*a[11] + a[12]*a[3]*a[9]
	inv[13] = a[0]*a[9]*a[14] - a[0]*a[10]*a[13] - a[8]*a[1]*a[14] + a[8]*a[2]*a[13] + a[12]*a[1]*a[10] - a[12]*a[2]*a[9]
	inv[2] = a[1]*a[6]*a[15] - a[1]*a[7]*a[14] - a[5]*a[2]*a[15] + a[5]*a[3]*a[14] + a[13]*a[2]*a[7] - a[13]*a[3]*a[6]
	inv[6] = -a[0]*a[6]*a[15] + a[0]*a[7]*a[14] + a[4]*a[2]*a[15] - a[4]*a[3]*a[14] - a[12]*a[2]*a[7] + a[12]*a[3]*a[6]
	inv[10] = a[0]*a[5]*a[15] - a[0]*a[7]*a[13] - a[4]*a[1]*a[15] + a[4]*a[3]*a[13] + a[12]*a[1]*a[7] - a[12]*a[3]*a[5]
	inv[14] = -a[0]*a[5]*a[14] + a[0]*a[6]*a[13] + a[4]*a[1]*a[14] - a[4]*a[2]*a[13] - a[12]*a[1]*a[6] + a[12]*a[2]*a[5]
	inv[3] = -a[1]*a[6]*a[11] + a[1]*a[7]*a[10] + a[5]*a[2]*a[11] - a[5]*a[3]*a[10] - a[9]*a[2]*a[7] + a[9]*a[3]*a[6]
	inv[7] = a[0]*a[6]*a[11] - a[0]*a[7]*a[10] - a[4]*a[2]*a[11] + a[4]*a[3]*a[10] + a[8]*a[2]*a[7] - a[8]*a[3]*a[6]
	inv[11] = -a[0]*a[5]*a[11] + a[0]*a[7]*a[9] + a[4]*a[1]*a[11] - a[4]*a[3]*a[9] - a[8]*a[1]*a[7] + a[8]*a[3]*a[5]
	inv[15] = a[0]*a[5]*a[10] - a[0]*a[6]*a[9] - a[4]*a[1]*a[10] + a[4]*a[2]*a[9] + a[8]*a[1]*a[6] - a[8]*a[2]*a[5]
	det := a[0]*inv[0] + a[1]*inv[4] + a[2]*inv[8] + a[3]*inv[12]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Mat4{}, false
	}
	var out Mat4
	for i := range inv {
		out[i] = float32(inv[i] / det)
	}
	return out, true
}

// Upper3 returns the upper-left 3×3 block (GLSL mat3(m)).
func (m Mat4) Upper3() Mat3 {
	return Mat3{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]}
}

// NormalMatrix returns the inverse transpose of m's upper-left 3×3 block,
// the matrix that carries normals under m. A singular block yields the
// block itself.
func (m Mat4) NormalMatrix() Mat3 {
	u := m.Upper3()
	a := [9]float64{}
	for i := range a {
		a[i] = float64(u[i])
	}
	// Element (r,c) is a[c*3+r]. cof(r,c) is the cofactor; (M^-1)^T = cof/det.
	at := func(r, c int) float64 { return a[c*3+r] }
	var cof [9]float64
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			r1, r2 := (r+1)%3, (r+2)%3
			c1, c2 := (c+1)%3, (c+2)%3
			cof[c*3+r] = at(r1, c1)*at(r2, c2) - at(r1, c2)*at(r2, c1)
		}
	}
	det := at(0, 0)*cof[0] + at(0, 1)*cof[3] + at(0, 2)*cof[6]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return u
	}
	var out Mat3
	for i := range cof {
		out[i] = float32(cof[i] / det)
	}
	return out
}

// Perspective returns the OpenGL perspective projection (gluPerspective)
// with vertical field of view fovy in radians; clip z spans [-w, w].
// spec: bench README "Matrices" (P = perspective(45°, w/h, 0.1, 10)).
func Perspective(fovy, aspect, near, far float64) Mat4 {
	f := 1 / math.Tan(fovy/2)
	var m Mat4
	m[0] = float32(f / aspect)
	m[5] = float32(f)
	m[10] = float32((far + near) / (near - far))
	m[11] = -1
	m[14] = float32(2 * far * near / (near - far))
	return m
}

// InfinitePerspective returns Perspective with the far plane at infinity
// (glTF cameras without zfar).
func InfinitePerspective(fovy, aspect, near float64) Mat4 {
	f := 1 / math.Tan(fovy/2)
	var m Mat4
	m[0] = float32(f / aspect)
	m[5] = float32(f)
	m[10] = -1
	m[11] = -1
	m[14] = float32(-2 * near)
	return m
}

// Ortho returns the OpenGL orthographic projection (glOrtho).
func Ortho(left, right, bottom, top, near, far float64) Mat4 {
	m := Identity()
	m[0] = float32(2 / (right - left))
	m[5] = float32(2 / (top - bottom))
	m[10] = float32(-2 / (far - near))
	m[12] = float32(-(right + left) / (right - left))
	m[13] = float32(-(top + bottom) / (top - bottom))
	m[14] = float32(-(far + near) / (far - near))
	return m
}

// LookAt returns the view matrix of a camera at eye looking at target with
// the given up direction (gluLookAt).
func LookAt(eye, target, up Vec3) Mat4 {
	f := target.Sub(eye).Normalize()
	s := f.Cross(up).Normalize()
	u := s.Cross(f)
	m := Identity()
	m[0], m[4], m[8] = s[0], s[1], s[2]
	m[1], m[5], m[9] = u[0], u[1], u[2]
	m[2], m[6], m[10] = -f[0], -f[1], -f[2]
	m[12] = -s.Dot(eye)
	m[13] = -u.Dot(eye)
	m[14] = f.Dot(eye)
	return m
}

// Translate returns the translation by (x, y, z).
func Translate(x, y, z float32) Mat4 {
	m := Identity()
	m[12], m[13], m[14] = x, y, z
	return m
}

// ScaleMat returns the scale by (x, y, z).
func ScaleMat(x, y, z float32) Mat4 {
	return Mat4{0: x, 5: y, 10: z, 15: 1}
}

// RotateX returns the right-handed rotation by angle radians about +x.
func RotateX(angle float64) Mat4 {
	s, c := float32(math.Sin(angle)), float32(math.Cos(angle))
	m := Identity()
	m[5], m[6] = c, s
	m[9], m[10] = -s, c
	return m
}

// RotateY returns the right-handed rotation by angle radians about +y.
func RotateY(angle float64) Mat4 {
	s, c := float32(math.Sin(angle)), float32(math.Cos(angle))
	m := Identity()
	m[0], m[2] = c, -s
	m[8], m[10] = s, c
	return m
}

// RotateZ returns the right-handed rotation by angle radians about +z.
func RotateZ(angle float64) Mat4 {
	s, c := float32(math.Sin(angle)), float32(math.Cos(angle))
	m := Identity()
	m[0], m[1] = c, s
	m[4], m[5] = -s, c
	return m
}

// Rotate returns the right-handed rotation by angle radians about axis
// (glRotate); a zero axis yields the identity.
func Rotate(angle float64, axis Vec3) Mat4 {
	a := axis.Normalize()
	if a == (Vec3{}) {
		return Identity()
	}
	x, y, z := float64(a[0]), float64(a[1]), float64(a[2])
	s, c := math.Sin(angle), math.Cos(angle)
	t := 1 - c
	return Mat4{
		float32(t*x*x + c), float32(t*x*y + s*z), float32(t*x*z - s*y), 0,
		float32(t*x*y - s*z), float32(t*y*y + c), float32(t*y*z + s*x), 0,
		float32(t*x*z + s*y), float32(t*y*z - s*x), float32(t*z*z + c), 0,
		0, 0, 0, 1,
	}
}

// QuatMat returns the rotation of the unit quaternion (x, y, z, w) (glTF
// node.rotation order). The quaternion is normalised first; zero yields identity.
func QuatMat(q [4]float32) Mat4 {
	x, y, z, w := float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])
	n := math.Sqrt(x*x + y*y + z*z + w*w)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return Identity()
	}
	x, y, z, w = x/n, y/n, z/n, w/n
	return Mat4{
		float32(1 - 2*(y*y+z*z)), float32(2 * (x*y + z*w)), float32(2 * (x*z - y*w)), 0,
		float32(2 * (x*y - z*w)), float32(1 - 2*(x*x+z*z)), float32(2 * (y*z + x*w)), 0,
		float32(2 * (x*z + y*w)), float32(2 * (y*z - x*w)), float32(1 - 2*(x*x+y*y)), 0,
		0, 0, 0, 1,
	}
}

// Radians converts degrees to radians.
func Radians(deg float64) float64 { return deg * math.Pi / 180 }
