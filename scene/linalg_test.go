package scene

import (
	"math"
	"testing"
)

func near(a, b []float32, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i])-float64(b[i])) > tol {
			return false
		}
	}
	return true
}

func TestMat4(t *testing.T) {
	id := Identity()
	tests := []struct {
		name string
		got  Mat4
		want Mat4
	}{
		// Column-major: the translation sits in elements 12, 13, 14.
		{"translate", Translate(1, 2, 3), Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1}},
		{"scale", ScaleMat(2, 3, 4), Mat4{2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1}},
		// gluPerspective(90°, 2, 1, 3): f = 1, (f+n)/(n-f) = -2, 2fn/(n-f) = -3.
		{"perspective", Perspective(math.Pi/2, 2, 1, 3), Mat4{0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, -2, -1, 0, 0, -3, 0}},
		{"ortho", Ortho(-1, 1, -1, 1, 0, 2), Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, -1, 1}},
		{"rotateX 90", RotateX(math.Pi / 2), Mat4{1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1}},
		{"rotateY 90", RotateY(math.Pi / 2), Mat4{0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1}},
		{"rotateZ 90", RotateZ(math.Pi / 2), Mat4{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}},
		{"rotate axis = rotateY", Rotate(0.7, Vec3{0, 2, 0}), RotateY(0.7)},
		{"quat = rotateY", QuatMat([4]float32{0, float32(math.Sin(0.35)), 0, float32(math.Cos(0.35))}), RotateY(0.7)},
		{"lookAt", LookAt(Vec3{0, 0, 2}, Vec3{}, Vec3{0, 1, 0}), Translate(0, 0, -2)},
		{"transpose", Translate(1, 2, 3).Transpose(), Mat4{1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1}},
		{"mul identity", Translate(1, 2, 3).Mul(id), Translate(1, 2, 3)},
		{"mul order", Translate(1, 0, 0).Mul(ScaleMat(2, 2, 2)), Mat4{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1}},
	}
	for _, tc := range tests {
		if !near(tc.got[:], tc.want[:], 1e-6) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// RotateX(90°) turns +y into +z (right-handed).
	if p := RotateX(math.Pi / 2).MulPoint(Vec3{0, 1, 0}); !near(p[:], []float32{0, 0, 1}, 1e-7) {
		t.Errorf("rotateX(90°)·y = %v", p)
	}
}

func TestInverseAndNormalMatrix(t *testing.T) {
	m := Translate(1, -2, 3).Mul(RotateX(0.3)).Mul(RotateY(-1.1)).Mul(ScaleMat(2, 0.5, 3))
	inv, ok := m.Inverse()
	if !ok {
		t.Fatal("not invertible")
	}
	id := Identity()
	if p := m.Mul(inv); !near(p[:], id[:], 1e-5) {
		t.Errorf("m·m⁻¹ = %v", p)
	}
	if _, ok := ScaleMat(1, 0, 1).Inverse(); ok {
		t.Error("singular matrix reported invertible")
	}
	// The normal matrix is the upper 3×3 of (m⁻¹)ᵀ.
	want := inv.Transpose().Upper3()
	if got := m.NormalMatrix(); !near(got[:], want[:], 1e-5) {
		t.Errorf("normal matrix %v, want %v", got, want)
	}
	// For a rotation it is the rotation itself.
	r := RotateY(0.4)
	if got, u := r.NormalMatrix(), r.Upper3(); !near(got[:], u[:], 1e-6) {
		t.Errorf("rotation normal matrix %v", got)
	}
}

func TestVec3(t *testing.T) {
	a, b := Vec3{1, 0, 0}, Vec3{0, 1, 0}
	if a.Cross(b) != (Vec3{0, 0, 1}) || a.Dot(b) != 0 || (Vec3{3, 4, 0}).Len() != 5 || (Vec3{}).Normalize() != (Vec3{}) {
		t.Error("vector identities")
	}
}
