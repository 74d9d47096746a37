package scene

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vortexgfx/scene/gltfbuild"
)

// morphDoc is a SimpleMorph-like triangle: base (0,0,0), (1,0,0),
// (0.5,0.5,0); target 0 lifts the apex by 2, target 1 moves vertex 1 by +1
// in x; default weights 0.5, 0.5; a LINEAR weights animation with keys
// t=0 [0,0], t=1 [1,0], t=2 [0,1].
func morphDoc() *gltfbuild.Doc {
	d := gltfbuild.New()
	pos := d.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0.5, 0.5, 0})
	t0 := d.Floats("VEC3", []float32{0, 0, 0, 0, 0, 0, 0, 2, 0})
	t1 := d.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 0, 0})
	in := d.Floats("SCALAR", []float32{0, 1, 2})
	out := d.Floats("SCALAR", []float32{0, 0, 1, 0, 0, 1})
	d.Append("meshes", map[string]any{"weights": []float32{0.5, 0.5}, "primitives": []any{map[string]any{
		"attributes": map[string]int{"POSITION": pos},
		"targets":    []any{map[string]int{"POSITION": t0}, map[string]int{"POSITION": t1}}}}})
	d.Append("nodes", map[string]any{"mesh": 0})
	d.Append("scenes", map[string]any{"nodes": []int{0}})
	d.Append("animations", map[string]any{
		"samplers": []any{map[string]any{"input": in, "output": out}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "weights"}}}})
	return d
}

// skinDoc is a two-joint skin: joint 0 (node 0) at the origin, joint 1
// (node 1, its child) at (0,1,0) with a LINEAR rotation about z from 0° at
// t=0 to 90° at t=1. The skinned triangle (node 2, translated by (5,0,0),
// which a skin ignores) has (0,2,0) on joint 1, (1,0,0) on joint 0 and
// (0,1,0) half on each; the inverse bind matrices undo the joints' rest
// placement.
func skinDoc() *gltfbuild.Doc {
	d := gltfbuild.New()
	pos := d.Floats("VEC3", []float32{0, 2, 0, 1, 0, 0, 0, 1, 0})
	joints := d.Ints("VEC4", 5121, false, []uint32{1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0})
	weights := d.Floats("VEC4", []float32{1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0})
	ibm := d.Floats("MAT4", append(identity16(), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1))
	s45 := float32(math.Sin(math.Pi / 4))
	in := d.Floats("SCALAR", []float32{0, 1})
	out := d.Floats("VEC4", []float32{0, 0, 0, 1, 0, 0, s45, s45})
	d.Append("meshes", map[string]any{"primitives": []any{map[string]any{
		"attributes": map[string]int{"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights}}}})
	d.Append("nodes", map[string]any{"children": []int{1}})
	d.Append("nodes", map[string]any{"translation": []float32{0, 1, 0}})
	d.Append("nodes", map[string]any{"mesh": 0, "skin": 0, "translation": []float32{5, 0, 0}})
	d.Append("skins", map[string]any{"joints": []int{0, 1}, "inverseBindMatrices": ibm})
	d.Append("scenes", map[string]any{"nodes": []int{0, 2}})
	d.Append("animations", map[string]any{
		"samplers": []any{map[string]any{"input": in, "output": out}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 1, "path": "rotation"}}}})
	return d
}

func identity16() []float32 { return []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} }

func nearVec(a, b Vec3, tol float32) bool {
	for k := range 3 {
		if d := a[k] - b[k]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

// TestMorphTargets checks the morphed positions against the blend
// base + Σ wᵢ·Δᵢ: the default weights (0.5, 0.5) put the apex at y = 1.5
// and vertex 1 at x = 1.5; the animated weights at t = 0.5 are (0.5, 0)
// and at t = 1.5 (0.5, 0.5).
func TestMorphTargets(t *testing.T) {
	s, err := DecodeGLTF(morphDoc().Bytes(), "morph.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &s.Meshes[0]
	if len(m.Targets) != 2 || len(m.MorphWeights) != 2 {
		t.Fatalf("%d targets, weights %v", len(m.Targets), m.MorphWeights)
	}
	rest := s.PoseAt(0)
	for _, tc := range []struct {
		name          string
		weights       []float32
		apexY, vert1X float32
	}{
		{"default weights", rest.Weights[0], 1.5, 1.5},
		{"t=0.5", s.PoseAt(0.5, 0).Weights[0], 1.5, 1},
		{"t=1.5", s.PoseAt(1.5, 0).Weights[0], 1.5, 1.5},
		{"t=2 (held after the last key)", s.PoseAt(7, 0).Weights[0], 0.5, 2},
	} {
		mm := m.Morph(tc.weights)
		if got := mm.Position(2)[1]; math.Abs(float64(got-tc.apexY)) > 1e-6 {
			t.Errorf("%s (weights %v): apex y %g, want %g", tc.name, tc.weights, got, tc.apexY)
		}
		if got := mm.Position(1)[0]; math.Abs(float64(got-tc.vert1X)) > 1e-6 {
			t.Errorf("%s: vertex 1 x %g, want %g", tc.name, got, tc.vert1X)
		}
		if mm.Position(0) != (Vec3{}) {
			t.Errorf("%s: vertex 0 moved to %v", tc.name, mm.Position(0))
		}
	}
	if m.Position(2)[1] != 0.5 {
		t.Errorf("Morph changed the base mesh: apex y %g", m.Position(2)[1])
	}
}

// TestSkinning checks the skinned positions against the joint maths:
// jointMatrix_j = World(joint j)·IBM_j, position = Σ w·jointMatrix·p, and
// the mesh node's own translation (5,0,0) not applied.
func TestSkinning(t *testing.T) {
	s, err := DecodeGLTF(skinDoc().Bytes(), "skin.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Skins) != 1 || s.Nodes[2].Skin != 0 || !s.Meshes[0].Skinned() {
		t.Fatalf("skins %d, node skin %d", len(s.Skins), s.Nodes[2].Skin)
	}
	s45, c45 := float32(math.Sin(math.Pi/4)), float32(math.Cos(math.Pi/4))
	for _, tc := range []struct {
		t    float64
		want [3]Vec3
	}{
		{0, [3]Vec3{{0, 2, 0}, {1, 0, 0}, {0, 1, 0}}},
		{0.5, [3]Vec3{{-s45, 1 + c45, 0}, {1, 0, 0}, {0, 1, 0}}},
		{1, [3]Vec3{{-1, 1, 0}, {1, 0, 0}, {0, 1, 0}}},
	} {
		pose := s.PoseAt(tc.t, 0)
		got := s.Meshes[0].SkinPositions(s.JointMatrices(0, &pose))
		for v := range 3 {
			if !nearVec(got[v], tc.want[v], 1e-5) {
				t.Errorf("t=%g: vertex %d at %v, want %v", tc.t, v, got[v], tc.want[v])
			}
		}
	}
}

// TestAnimationSampler checks each interpolation at chosen times against
// glTF 2.0 Appendix C: LINEAR lerp, STEP holding the previous key, the
// CUBICSPLINE Hermite form with tangents scaled by the key interval, and
// slerp along the shorter arc for rotations.
func TestAnimationSampler(t *testing.T) {
	lin := AnimationSampler{Input: []float32{1, 3}, Output: []float32{0, 10, 20, 2, 30, 40}, Comps: 3}
	step := lin
	step.Interpolation = InterpStep
	// Keys t=0 and t=2: value 0 then 1, out-tangent of key 0 is 1, in-tangent of key 1 is 0.
	cubic := AnimationSampler{Input: []float32{0, 2}, Output: []float32{9, 0, 1, 0, 1, 9}, Comps: 1, Interpolation: InterpCubicSpline}
	out := make([]float32, 3)
	for _, tc := range []struct {
		name string
		s    *AnimationSampler
		t    float64
		want []float32
	}{
		{"linear before the first key", &lin, 0, []float32{0, 10, 20}},
		{"linear midway", &lin, 2, []float32{1, 20, 30}},
		{"linear after the last key", &lin, 5, []float32{2, 30, 40}},
		{"step just before key 1", &step, 2.999, []float32{0, 10, 20}},
		{"step at key 1", &step, 3, []float32{2, 30, 40}},
		// u = 0.5, td = 2: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = −0.125 → 0 + 2·0.125·1 + 0.5·1 + 0 = 0.75.
		{"cubic midway", &cubic, 1, []float32{0.75}},
		{"cubic at key 1", &cubic, 2, []float32{1}},
	} {
		tc.s.Sample(tc.t, false, out[:tc.s.Comps])
		for k, w := range tc.want {
			if math.Abs(float64(out[k]-w)) > 1e-6 {
				t.Errorf("%s: %v, want %v", tc.name, out[:tc.s.Comps], tc.want)
				break
			}
		}
	}
	s90, c90 := float32(math.Sin(math.Pi/4)), float32(math.Cos(math.Pi/4))
	s45, c45 := float32(math.Sin(math.Pi/8)), float32(math.Cos(math.Pi/8))
	for _, q1 := range [][]float32{{0, 0, s90, c90}, {0, 0, -s90, -c90}} {
		rot := AnimationSampler{Input: []float32{0, 1}, Output: append([]float32{0, 0, 0, 1}, q1...), Comps: 4}
		q := make([]float32, 4)
		rot.Sample(0.5, true, q)
		want := []float32{0, 0, s45, c45}
		for k := range 4 {
			if math.Abs(float64(q[k]-want[k])) > 1e-6 {
				t.Errorf("slerp to %v at 0.5: %v, want %v (45° about z, shorter arc)", q1, q, want)
				break
			}
		}
	}
}

// TestVertexAttributes checks COLOR_0 (VEC3 float gets alpha 1; VEC4
// normalized unsigned bytes are divided by 255) and TEXCOORD_1.
func TestVertexAttributes(t *testing.T) {
	d := gltfbuild.New()
	pos := d.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	c3 := d.Floats("VEC3", []float32{1, 0, 0, 0, 1, 0, 0, 0, 1})
	c4 := d.Ints("VEC4", 5121, true, []uint32{255, 128, 0, 255, 0, 0, 0, 0, 51, 51, 51, 102})
	uv0 := d.Floats("VEC2", []float32{0, 0, 1, 0, 0, 1})
	uv1 := d.Floats("VEC2", []float32{0.5, 0.5, 0.25, 0.25, 0, 0})
	d.Append("meshes", map[string]any{"primitives": []any{
		map[string]any{"attributes": map[string]int{"POSITION": pos, "COLOR_0": c3, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1}},
		map[string]any{"attributes": map[string]int{"POSITION": pos, "COLOR_0": c4}},
	}})
	d.Append("nodes", map[string]any{"mesh": 0})
	s, err := DecodeGLTF(d.Bytes(), "colors.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	want3 := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1}
	want4 := []float32{1, 128.0 / 255, 0, 1, 0, 0, 0, 0, 0.2, 0.2, 0.2, 0.4}
	for i, want := range [][]float32{want3, want4} {
		got := s.Meshes[i].Colors
		for k := range want {
			if math.Abs(float64(got[k]-want[k])) > 1e-6 {
				t.Errorf("primitive %d colours %v, want %v", i, got, want)
				break
			}
		}
	}
	if uv := s.Meshes[0].TexcoordSet(1); len(uv) != 6 || uv[0] != 0.5 || uv[2] != 0.25 {
		t.Errorf("TEXCOORD_1 %v", uv)
	}
	if s.Meshes[0].TexcoordSet(2) != nil {
		t.Errorf("TEXCOORD_2 present")
	}
}

// TestUVTransform checks KHR_texture_transform's T·R·S against the
// extension's example (offset (0,1), rotation 90°, scale 0.5: the lower
// left quadrant, turned) and the texCoord override.
func TestUVTransform(t *testing.T) {
	x := &UVTransform{Offset: [2]float32{0, 1}, Rotation: math.Pi / 2, Scale: [2]float32{0.5, 0.5}}
	m := x.Matrix()
	apply := func(u, v float32) [2]float32 {
		return [2]float32{m[0]*u + m[3]*v + m[6], m[1]*u + m[4]*v + m[7]}
	}
	for _, tc := range []struct{ in, want [2]float32 }{
		{[2]float32{0, 0}, [2]float32{0, 1}},
		// u' = cos·u + sin·v, v' = −sin·u + cos·v after the scale, then the offset.
		{[2]float32{1, 0}, [2]float32{0, 0.5}},
		{[2]float32{0, 1}, [2]float32{0.5, 1}},
	} {
		got := apply(tc.in[0], tc.in[1])
		if math.Abs(float64(got[0]-tc.want[0])) > 1e-6 || math.Abs(float64(got[1]-tc.want[1])) > 1e-6 {
			t.Errorf("uv %v → %v, want %v", tc.in, got, tc.want)
		}
	}
	if id := (*UVTransform)(nil).Matrix(); id != [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1} {
		t.Errorf("nil transform %v", id)
	}
	d := gltfbuild.New()
	d.JSON["extensionsUsed"] = []string{"KHR_texture_transform", "KHR_materials_emissive_strength", "KHR_materials_unlit"}
	d.JSON["images"] = []any{map[string]any{"uri": "data:image/png;base64," + onePixelPNG}}
	d.JSON["textures"] = []any{map[string]any{"source": 0}}
	d.Append("materials", map[string]any{
		"emissiveFactor": []float32{1, 0.5, 0},
		"pbrMetallicRoughness": map[string]any{"baseColorTexture": map[string]any{"index": 0, "texCoord": 0,
			"extensions": map[string]any{"KHR_texture_transform": map[string]any{"offset": []float32{0.5, 0}, "texCoord": 1}}}},
		"extensions": map[string]any{"KHR_materials_emissive_strength": map[string]any{"emissiveStrength": 4}, "KHR_materials_unlit": map[string]any{}}})
	s, err := DecodeGLTF(d.Bytes(), "ext.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	mt := s.Materials[0]
	if r := mt.BaseColorTexture; r.TexCoord != 1 || r.Transform == nil || r.Transform.Offset != [2]float32{0.5, 0} || r.Transform.Scale != [2]float32{1, 1} {
		t.Errorf("base colour ref %+v", r)
	}
	if mt.EmissiveStrength != 4 || !mt.Unlit {
		t.Errorf("emissive strength %g, unlit %v", mt.EmissiveStrength, mt.Unlit)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings %q", s.Warnings)
	}
}

// onePixelPNG is a 1×1 white PNG.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAAEElEQVR4nGL6//8/IAAA//8GBgMAt2YRIQAAAABJRU5ErkJggg=="

// TestLights checks KHR_lights_punctual decoding: defaults, node
// references and the world placement the shader gets (position from the
// node's origin, direction along its −z).
func TestLights(t *testing.T) {
	d := gltfbuild.New()
	pos := d.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	d.JSON["extensionsUsed"] = []string{"KHR_lights_punctual"}
	d.JSON["extensions"] = map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{
		map[string]any{"type": "directional", "color": []float32{1, 0.5, 0.25}, "intensity": 2},
		map[string]any{"type": "spot", "range": 10, "spot": map[string]any{"outerConeAngle": 0.5}},
	}}}
	d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": pos}}}})
	d.Append("nodes", map[string]any{"mesh": 0})
	// Rotated −90° about x: −z points down (0,−1,0).
	s2 := float32(math.Sqrt(0.5))
	d.Append("nodes", map[string]any{"translation": []float32{0, 3, 0}, "rotation": []float32{-s2, 0, 0, s2},
		"extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 0}}})
	d.Append("nodes", map[string]any{"translation": []float32{1, 2, 3},
		"extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 1}}})
	d.Append("scenes", map[string]any{"nodes": []int{0, 1, 2}})
	file := filepath.Join(t.TempDir(), "lights.gltf")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	desc, err := ModelDescription(file, 64, 64)
	if err != nil {
		t.Fatal(err)
	}
	sc := desc.Playback.Scene
	if len(sc.Lights) != 2 || sc.Lights[1].Type != LightSpot || sc.Lights[1].Intensity != 1 || sc.Lights[1].Range != 10 || sc.Lights[1].OuterCone != 0.5 {
		t.Fatalf("lights %+v", sc.Lights)
	}
	if !strings.Contains(desc.Draws[0].FragmentShader.Source, "#define LIGHT_COUNT 2") {
		t.Errorf("no LIGHT_COUNT 2 define")
	}
	vals := map[string][]float32{}
	for _, u := range desc.UniformValues(0, 0) {
		vals[u.Name] = u.Value
	}
	dir := vals["u_light_direction"]
	if len(dir) != 6 || !nearVec(Vec3{dir[0], dir[1], dir[2]}, Vec3{0, -1, 0}, 1e-5) || !nearVec(Vec3{dir[3], dir[4], dir[5]}, Vec3{0, 0, -1}, 1e-6) {
		t.Errorf("light directions %v", dir)
	}
	if c := vals["u_light_color"]; len(c) != 6 || c[0] != 2 || c[1] != 1 || c[2] != 0.5 {
		t.Errorf("light colours %v", c)
	}
	// Positions are after the fit: the fit's scale times the offset from the box centre.
	f := desc.Playback.Fit
	want := f.MulPoint(Vec3{1, 2, 3})
	if p := vals["u_light_position"]; len(p) != 6 || !nearVec(Vec3{p[3], p[4], p[5]}, want, 1e-5) {
		t.Errorf("light positions %v, want the second at %v", p, want)
	}
	if sc := vals["u_fit_scale"]; len(sc) != 1 || math.Abs(float64(sc[0]-1)) > 1e-6 {
		t.Errorf("fit scale %v (the triangle's longest side is 1)", sc)
	}
}

// TestFraming checks the camera of a model without one: every corner of a
// box stays inside the image, and the eye sits beyond all three of the
// box's +x, +y and +z faces, so those three faces are seen.
func TestFraming(t *testing.T) {
	for _, size := range [][2]int{{64, 64}, {160, 90}, {90, 160}} {
		c := Cube()
		s := SingleMeshScene([]Mesh{*c}, nil, nil)
		file := filepath.Join(t.TempDir(), "cube.glb")
		glb, err := EncodeGLB(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, glb, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := ModelDescription(file, size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		dr := &d.Draws[0]
		mvp := d.Projection().Mul(d.Camera.View(0)).Mul(dr.ModelMatrix(0))
		for v := range dr.Mesh.VertexCount() {
			p := mvp.MulVec4([4]float32{dr.Mesh.Positions[3*v], dr.Mesh.Positions[3*v+1], dr.Mesh.Positions[3*v+2], 1})
			for k := range 2 {
				if ndc := p[k] / p[3]; ndc < -0.95 || ndc > 0.95 {
					t.Errorf("%dx%d: vertex %d at NDC %v, outside the frame's 95%%", size[0], size[1], v, [2]float32{p[0] / p[3], p[1] / p[3]})
				}
			}
		}
		inv, _ := d.Camera.View(0).Mul(dr.ModelMatrix(0)).Inverse()
		eye := inv.MulPoint(Vec3{})
		lo, hi, _ := dr.Mesh.Bounds()
		for k := range 3 {
			if eye[k] <= hi[k] {
				t.Errorf("%dx%d: eye %v not beyond the box's +%c face (box %v..%v)", size[0], size[1], eye, "xyz"[k], lo, hi)
			}
		}
	}
}

// TestGLTFWarnings checks that every feature the loader leaves out is named
// in Scene.Warnings: an unimplemented used extension, points and lines, a
// second set of joints, an application-specific attribute, a texture
// coordinate set the mesh lacks; and that an unimplemented required
// extension is an error naming it.
func TestGLTFWarnings(t *testing.T) {
	d := gltfbuild.New()
	pos := d.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	j := d.Ints("VEC4", 5121, false, make([]uint32, 12))
	w := d.Floats("VEC4", []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	d.JSON["extensionsUsed"] = []string{"KHR_materials_sheen"}
	d.JSON["images"] = []any{map[string]any{"uri": "data:image/png;base64," + onePixelPNG}}
	d.JSON["textures"] = []any{map[string]any{"source": 0}}
	d.Append("materials", map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorTexture": map[string]any{"index": 0, "texCoord": 1}}})
	d.Append("meshes", map[string]any{"primitives": []any{
		map[string]any{"attributes": map[string]int{"POSITION": pos, "JOINTS_1": j, "WEIGHTS_1": w, "_TEMPERATURE": pos}, "material": 0},
		map[string]any{"attributes": map[string]int{"POSITION": pos}, "mode": 1},
	}})
	d.Append("nodes", map[string]any{"mesh": 0})
	file := filepath.Join(t.TempDir(), "warn.gltf")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	desc, err := ModelDescription(file, 32, 32)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(desc.Warnings, "\n")
	for _, want := range []string{
		"extensionsUsed[0]: extension KHR_materials_sheen is not implemented",
		"meshes[0].primitives[1].mode: LINES primitive not drawn",
		"meshes[0].primitives[0].attributes.JOINTS_1: ignored: more than four joint influences",
		"meshes[0].primitives[0].attributes.WEIGHTS_1: ignored",
		"meshes[0].primitives[0].attributes._TEMPERATURE: ignored",
		"base_color texture reads TEXCOORD_1, which the mesh does not have",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning containing %q in:\n%s", want, all)
		}
	}
	d.JSON["extensionsRequired"] = []string{"KHR_materials_sheen", "KHR_texture_transform"}
	if _, err := DecodeGLTF(d.Bytes(), "req.gltf", nil); err == nil || !strings.Contains(err.Error(), "extensionsRequired: KHR_materials_sheen not implemented") {
		t.Errorf("required extension: %v", err)
	}
}

// TestGLTFAnimationErrors checks that malformed animations and skins are
// errors naming the JSON path.
func TestGLTFAnimationErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(d *gltfbuild.Doc)
		want string
	}{
		{"decreasing keys", func(d *gltfbuild.Doc) {
			in := d.Floats("SCALAR", []float32{1, 0})
			d.JSON["animations"].([]any)[0].(map[string]any)["samplers"] = []any{map[string]any{"input": in, "output": in}}
		}, "animations[0].samplers[0].input: key times not strictly increasing"},
		{"bad path", func(d *gltfbuild.Doc) {
			d.JSON["animations"].([]any)[0].(map[string]any)["channels"].([]any)[0].(map[string]any)["target"] = map[string]any{"node": 1, "path": "colour"}
		}, `animations[0].channels[0].target.path: "colour"`},
		{"cubic output count", func(d *gltfbuild.Doc) {
			d.JSON["animations"].([]any)[0].(map[string]any)["samplers"].([]any)[0].(map[string]any)["interpolation"] = "CUBICSPLINE"
		}, "animations[0].samplers[0].output: 2 values for 2 keys"},
		{"joint out of range", func(d *gltfbuild.Doc) {
			d.JSON["skins"] = []any{map[string]any{"joints": []int{0, 9}}}
		}, "skins[0].joints[1]: node 9 out of range"},
		{"matrix node animated", func(d *gltfbuild.Doc) {
			d.JSON["nodes"].([]any)[1].(map[string]any)["matrix"] = identity16()
		}, "animations[0].channels[0].target: node 1 has a matrix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := skinDoc()
			tc.edit(d)
			if _, err := DecodeGLTF(d.Bytes(), "bad.gltf", nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestPlaybackTime checks the time base: frame / fps, looped over the clip.
func TestPlaybackTime(t *testing.T) {
	s, err := DecodeGLTF(morphDoc().Bytes(), "morph.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &Playback{Scene: s, Animations: []int{0}, FPS: 4, Fit: Identity()}
	for _, tc := range []struct {
		frame int
		want  float64
	}{{0, 0}, {2, 0.5}, {7, 1.75}, {8, 0}, {9, 0.25}} {
		if got := p.Time(tc.frame); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("frame %d: t = %g, want %g (clip of 2 s at 4 fps)", tc.frame, got, tc.want)
		}
	}
}

// FuzzGLTFAnimated decodes documents with morph targets, skins, animations,
// lights and extensions and poses every animation at several times: no
// input may panic, and a decoded scene is valid and posable.
func FuzzGLTFAnimated(f *testing.F) {
	f.Add(morphDoc().Bytes())
	f.Add(skinDoc().Bytes())
	cubic := skinDoc()
	cubic.JSON["animations"].([]any)[0].(map[string]any)["samplers"].([]any)[0].(map[string]any)["interpolation"] = "STEP"
	f.Add(cubic.Bytes())
	ext := gltfbuild.New()
	pos := ext.Floats("VEC3", []float32{0, 0, 0, 1, 0, 0, 0, 1, 0})
	ext.JSON["extensionsUsed"] = []string{"KHR_lights_punctual", "KHR_texture_transform", "EXT_unknown"}
	ext.JSON["extensions"] = map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{map[string]any{"type": "point"}}}}
	ext.Append("meshes", map[string]any{"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": pos, "COLOR_0": pos, "TEXCOORD_1": pos}}}})
	ext.Append("nodes", map[string]any{"mesh": 0, "extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 0}}})
	f.Add(ext.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeGLTF(data, "fuzz.gltf", nil)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decoded scene invalid: %v", err)
		}
		for a := -1; a < len(s.Animations); a++ {
			for _, tm := range []float64{-1, 0, 0.37, 1, 1e9} {
				pose := s.PoseAt(tm, a)
				for _, in := range s.Instances() {
					m := s.Meshes[in.Mesh].Morph(pose.Weights[in.Node])
					if sk := s.Nodes[in.Node].Skin; sk >= 0 {
						m.SkinPositions(s.JointMatrices(sk, &pose))
					}
				}
			}
		}
	})
}

// TestModelPlayback checks which pose a model description shows: the rest
// pose (default weights) for a still, the animation at t = 0 for frame 0
// of a sequence; and that of two animations driving the same property only
// the first plays unless one is picked.
func TestModelPlayback(t *testing.T) {
	d := morphDoc()
	// A second clip on the same weights: an alternative, not played together.
	in := d.Floats("SCALAR", []float32{0, 1})
	out := d.Floats("SCALAR", []float32{1, 1, 1, 1})
	d.Append("animations", map[string]any{"name": "alt",
		"samplers": []any{map[string]any{"input": in, "output": out}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "weights"}}}})
	file := filepath.Join(t.TempDir(), "morph.gltf")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		opts  ModelOptions
		apexY float32
		anims []int
	}{
		{"still: rest pose, default weights 0.5, 0.5", ModelOptions{Rest: true}, 1.5, nil},
		{"sequence: the first clip at t = 0, weights 0, 0", ModelOptions{}, 0.5, []int{0}},
		{"--animation 2: weights 1, 1", ModelOptions{Animation: 2}, 2.5, []int{1}},
	} {
		desc, err := ModelDescriptionWith(file, 32, 32, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := desc.Playback.Animations; len(got) != len(tc.anims) || len(got) > 0 && got[0] != tc.anims[0] {
			t.Errorf("%s: animations %v, want %v", tc.name, got, tc.anims)
		}
		if y := desc.Draws[0].MeshAt(0).Position(2)[1]; math.Abs(float64(y-tc.apexY)) > 1e-6 {
			t.Errorf("%s: apex y %g, want %g", tc.name, y, tc.apexY)
		}
	}
	desc, err := ModelDescriptionWith(file, 32, 32, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(desc.Warnings, "\n"); !strings.Contains(w, `animations[1] ("alt") drives node 0 weights like animations[0]`) {
		t.Errorf("warnings %q", desc.Warnings)
	}
	if _, err := ModelDescriptionWith(file, 32, 32, ModelOptions{Animation: 3}); err == nil || !strings.Contains(err.Error(), "animation 3 out of range") {
		t.Errorf("--animation 3: %v", err)
	}
}

// TestMeshQuantization: KHR_mesh_quantization's integer positions and
// normalized normals decode (no warning when declared, a warning naming
// the extension when not), and core types outside both are refused.
func TestMeshQuantization(t *testing.T) {
	build := func(declare bool, normalCT int) []byte {
		d := gltfbuild.New()
		if declare {
			d.JSON["extensionsUsed"] = []string{"KHR_mesh_quantization"}
		}
		pos := d.Ints("VEC3", 5123, false, []uint32{0, 0, 0, 2, 0, 0, 0, 2, 0})
		nrm := d.Ints("VEC3", normalCT, true, []uint32{0, 0, 129, 0, 0, 129, 0, 0, 129})
		d.Append("meshes", map[string]any{"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": pos, "NORMAL": nrm}}}})
		d.Append("nodes", map[string]any{"mesh": 0})
		return d.Bytes()
	}
	// Normals as normalized signed bytes: 127 is 1. (Ints writes unsigned
	// bytes; 129 read as int8 is −127, which is −1.)
	s, err := DecodeGLTF(build(true, 5120), "q.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := &s.Meshes[0]; m.Position(1) != (Vec3{2, 0, 0}) || m.Normal(0) != (Vec3{0, 0, -1}) {
		t.Errorf("positions %v, normal %v", m.Positions, m.Normal(0))
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings %q", s.Warnings)
	}
	s, err = DecodeGLTF(build(false, 5120), "q.gltf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(s.Warnings, "\n"); !strings.Contains(w, "POSITION is unsigned short, which needs KHR_mesh_quantization") {
		t.Errorf("warnings %q", s.Warnings)
	}
	// Unsigned normalized bytes are not a normal type even with the extension.
	if _, err := DecodeGLTF(build(true, 5121), "q.gltf", nil); err == nil || !strings.Contains(err.Error(), "NORMAL accessor 1 has components unsigned byte normalized") {
		t.Errorf("unsigned normals: %v", err)
	}
}

// TestAnimatedCamera: a model seen through its own camera follows the
// camera node's animation.
func TestAnimatedCamera(t *testing.T) {
	d := morphDoc()
	d.Append("cameras", map[string]any{"type": "perspective", "perspective": map[string]any{"yfov": 0.8, "znear": 0.1}})
	cam := d.Append("nodes", map[string]any{"camera": 0, "translation": []float32{0, 0, 5}})
	d.JSON["scenes"] = []any{map[string]any{"nodes": []int{0, cam}}}
	in := d.Floats("SCALAR", []float32{0, 1})
	out := d.Floats("VEC3", []float32{0, 0, 5, 2, 0, 5})
	d.JSON["animations"] = []any{map[string]any{
		"samplers": []any{map[string]any{"input": in, "output": out}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": cam, "path": "translation"}}}}}
	file := filepath.Join(t.TempDir(), "cam.gltf")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	desc, err := ModelDescriptionWith(file, 32, 32, ModelOptions{FPS: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Frame 1 is t = 0.5: the camera at (1, 0, 5), so the view translates by (−1, 0, −5).
	if v := desc.Camera.View(1); math.Abs(float64(v[12]+1)) > 1e-6 || math.Abs(float64(v[14]+5)) > 1e-6 {
		t.Errorf("view at frame 1 %v, want a translation of (-1, 0, -5)", v)
	}
	if v := desc.Camera.View(0); v[12] != 0 {
		t.Errorf("view at frame 0 %v", v)
	}
}

// TestSceneFileWarnings: a scene file's glTF mesh reports what its loader
// left out in the description's warnings too, and is drawn with its
// default morph weights.
func TestSceneFileWarnings(t *testing.T) {
	dir := t.TempDir()
	d := morphDoc()
	d.JSON["extensionsUsed"] = []string{"EXT_meshopt_compression"}
	files := map[string][]byte{
		"m.gltf": d.Bytes(),
		"s.vert": []byte("#version 130\nin vec3 a_position;\nvoid main() { gl_Position = vec4(a_position, 1.0); }\n"),
		"s.frag": []byte("#version 130\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"),
		"scene.json": []byte(`{"width": 8, "height": 8, "camera": {"projection": "orthographic", "xmag": 1, "ymag": 1, "near": 0.1, "far": 2},
 "draws": [{"mesh": {"file": "m.gltf"}, "vertex_shader": "s.vert", "fragment_shader": "s.frag"}]}`),
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	desc, err := LoadDescription(filepath.Join(dir, "scene.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Warnings) != 1 || !strings.Contains(desc.Warnings[0], "EXT_meshopt_compression") {
		t.Errorf("warnings %q", desc.Warnings)
	}
	// The static draw carries the default morph weights (0.5, 0.5): apex at 1.5.
	if y := desc.Draws[0].Mesh.Position(2)[1]; y != 1.5 {
		t.Errorf("scene-file draw apex y %g, want 1.5", y)
	}
}
