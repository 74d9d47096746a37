package scene

import (
	"errors"
	"math"
)

// ErrNoTexcoords is returned when tangents are requested for a mesh without texcoords.
var ErrNoTexcoords = errors.New("mesh has no texcoords")

// ComputeTangents fills Tangents (xyzw per vertex) from positions, normals
// and texcoords: per-triangle tangent and bitangent directions accumulated
// per vertex (Lengyel's method, a simpler stand-in for MikkTSpace),
// Gram-Schmidt orthogonalised against the normal, and w = ±1 the handedness
// so that bitangent = cross(normal, tangent.xyz)·w as glTF defines. The
// texcoord v axis is flipped first because glTF's points down the image.
// Vertices with degenerate texcoords get a tangent perpendicular to the normal.
// spec: glTF 2.0 §3.7.2.1 (TANGENT; clients SHOULD compute missing tangents).
func (m *Mesh) ComputeTangents() error {
	if m.Texcoords == nil {
		return ErrNoTexcoords
	}
	n := m.VertexCount()
	tan := make([]float64, 3*n)
	bit := make([]float64, 3*n)
	for t := 0; t+2 < len(m.Indices); t += 3 {
		ix := [3]int{int(m.Indices[t]), int(m.Indices[t+1]), int(m.Indices[t+2])}
		var p [3][3]float64
		var uv [3][2]float64
		for k, i := range ix {
			for c := 0; c < 3; c++ {
				p[k][c] = float64(m.Positions[3*i+c])
			}
			uv[k] = [2]float64{float64(m.Texcoords[2*i]), 1 - float64(m.Texcoords[2*i+1])}
		}
		var e1, e2 [3]float64
		for c := 0; c < 3; c++ {
			e1[c], e2[c] = p[1][c]-p[0][c], p[2][c]-p[0][c]
		}
		du1, dv1 := uv[1][0]-uv[0][0], uv[1][1]-uv[0][1]
		du2, dv2 := uv[2][0]-uv[0][0], uv[2][1]-uv[0][1]
		det := du1*dv2 - du2*dv1
		if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
			continue
		}
		r := 1 / det
		for _, i := range ix {
			for c := 0; c < 3; c++ {
				tan[3*i+c] += (e1[c]*dv2 - e2[c]*dv1) * r
				bit[3*i+c] += (e2[c]*du1 - e1[c]*du2) * r
			}
		}
	}
	m.Tangents = make([]float32, 4*n)
	for i := 0; i < n; i++ {
		nv := [3]float64{float64(m.Normals[3*i]), float64(m.Normals[3*i+1]), float64(m.Normals[3*i+2])}
		t := [3]float64{tan[3*i], tan[3*i+1], tan[3*i+2]}
		d := t[0]*nv[0] + t[1]*nv[1] + t[2]*nv[2]
		for c := 0; c < 3; c++ {
			t[c] -= nv[c] * d
		}
		l := math.Sqrt(t[0]*t[0] + t[1]*t[1] + t[2]*t[2])
		if l < 1e-12 || math.IsNaN(l) {
			// Any direction perpendicular to the normal.
			a := [3]float64{1, 0, 0}
			if math.Abs(nv[0]) > 0.9 {
				a = [3]float64{0, 1, 0}
			}
			t = [3]float64{a[1]*nv[2] - a[2]*nv[1], a[2]*nv[0] - a[0]*nv[2], a[0]*nv[1] - a[1]*nv[0]}
			l = math.Sqrt(t[0]*t[0] + t[1]*t[1] + t[2]*t[2])
			if l == 0 {
				t, l = [3]float64{1, 0, 0}, 1
			}
		}
		c := [3]float64{nv[1]*t[2] - nv[2]*t[1], nv[2]*t[0] - nv[0]*t[2], nv[0]*t[1] - nv[1]*t[0]}
		w := 1.0
		if c[0]*bit[3*i]+c[1]*bit[3*i+1]+c[2]*bit[3*i+2] < 0 {
			w = -1
		}
		m.Tangents[4*i], m.Tangents[4*i+1], m.Tangents[4*i+2], m.Tangents[4*i+3] = float32(t[0]/l), float32(t[1]/l), float32(t[2]/l), float32(w)
	}
	return nil
}
