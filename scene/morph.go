package scene

// MorphTarget is one morph target's per-vertex displacements (xyz each;
// nil for an attribute the target does not move). spec: glTF 2.0 §3.7.2.2.
type MorphTarget struct {
	Positions, Normals, Tangents []float32
}

// Morphed reports whether the mesh has morph targets.
func (m *Mesh) Morphed() bool { return len(m.Targets) > 0 }

// Morph returns the mesh with its targets blended in by weights (missing
// weights count as 0): position = base + Σ wᵢ·Δᵢ, likewise normal and
// tangent xyz, normals and tangents renormalised. The copy shares every
// array the targets do not move; without targets it is m itself. Flat
// normals (FlatNormals) are recomputed from the morphed triangles.
// spec: glTF 2.0 §3.7.2.2 (morph targets).
func (m *Mesh) Morph(weights []float32) *Mesh {
	if !m.Morphed() {
		return m
	}
	out := *m
	blend := func(base []float32, stride int, delta func(t *MorphTarget) []float32) ([]float32, bool) {
		any := false
		for i := range m.Targets {
			if i < len(weights) && weights[i] != 0 && delta(&m.Targets[i]) != nil {
				any = true
			}
		}
		if !any || base == nil {
			return base, false
		}
		dst := append([]float32(nil), base...)
		n := len(base) / stride
		for i := range m.Targets {
			d := delta(&m.Targets[i])
			if i >= len(weights) || weights[i] == 0 || d == nil {
				continue
			}
			w := weights[i]
			for v := range n {
				for c := range 3 {
					dst[v*stride+c] += w * d[3*v+c]
				}
			}
		}
		return dst, true
	}
	out.Positions, _ = blend(m.Positions, 3, func(t *MorphTarget) []float32 { return t.Positions })
	if m.FlatNormals {
		out.Normals = flatNormals(out.Positions, m.Indices)
	} else if nb, moved := blend(m.Normals, 3, func(t *MorphTarget) []float32 { return t.Normals }); moved {
		out.Normals = renormalize(nb, 3)
	}
	if tb, moved := blend(m.Tangents, 4, func(t *MorphTarget) []float32 { return t.Tangents }); moved {
		out.Tangents = renormalize(tb, 4)
	}
	return &out
}

// renormalize normalises the xyz of every stride-float element in place.
func renormalize(v []float32, stride int) []float32 {
	for i := 0; i+2 < len(v); i += stride {
		n := Vec3{v[i], v[i+1], v[i+2]}.Normalize()
		v[i], v[i+1], v[i+2] = n[0], n[1], n[2]
	}
	return v
}

// flatNormals gives every vertex its triangle's normal. It assumes the
// unwelded layout flatten makes (no vertex shared between triangles).
func flatNormals(pos []float32, idx []uint32) []float32 {
	out := make([]float32, len(pos))
	p := func(i uint32) Vec3 { return Vec3{pos[3*i], pos[3*i+1], pos[3*i+2]} }
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := p(idx[t]), p(idx[t+1]), p(idx[t+2])
		n := b.Sub(a).Cross(c.Sub(a)).Normalize()
		for k := range 3 {
			v := idx[t+k]
			out[3*v], out[3*v+1], out[3*v+2] = n[0], n[1], n[2]
		}
	}
	return out
}

// Skinned reports whether the mesh carries joints and weights.
func (m *Mesh) Skinned() bool { return m.Joints != nil }

// SkinPositions returns the positions blended by joint matrices:
// Σ wᵢ·joints[jᵢ]·p over the vertex's four influences — what the built-in
// vertex shader computes, on the CPU, for framing and for tests.
// spec: glTF 2.0 §3.7.3.3 (skinned mesh attributes).
func (m *Mesh) SkinPositions(joints []Mat4) []Vec3 {
	n := m.VertexCount()
	out := make([]Vec3, n)
	for v := range n {
		p := m.Position(v)
		if !m.Skinned() {
			out[v] = p
			continue
		}
		var acc Vec3
		for k := range 4 {
			w := m.JointWeights[4*v+k]
			j := int(m.Joints[4*v+k])
			if w == 0 || j < 0 || j >= len(joints) {
				continue
			}
			acc = acc.Add(joints[j].MulPoint(p).Scale(w))
		}
		out[v] = acc
	}
	return out
}
