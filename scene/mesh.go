package scene

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
)

// Mesh is one renderer-neutral triangle list with separate float32
// attribute arrays, one material and uint32 indices.
// Attribute locations are in the package doc (bench README "Attributes").
type Mesh struct {
	Name string
	// Positions holds xyz per vertex (attribute location 0).
	Positions []float32
	// Normals holds xyz per vertex (location 1); loaders always fill it.
	Normals []float32
	// Texcoords holds uv per vertex (location 2); nil means (0,0) for all.
	Texcoords []float32
	// Tangents holds xyzw per vertex (location 3), or nil.
	Tangents []float32
	// Colors holds RGBA per vertex (glTF COLOR_0, location 4), or nil (white).
	Colors []float32
	// ExtraTexcoords holds texture coordinate sets 1, 2, ... (glTF
	// TEXCOORD_1, ...), uv per vertex each; set 0 is Texcoords.
	ExtraTexcoords [][]float32
	// Joints holds four joint indices per vertex (glTF JOINTS_0, as floats,
	// indexing the skin's joint list) and JointWeights their four weights
	// (WEIGHTS_0); both nil for a mesh without a skin.
	Joints, JointWeights []float32
	// Targets are the morph targets (position, normal and tangent
	// displacements) and MorphWeights the mesh's default weights.
	Targets      []MorphTarget
	MorphWeights []float32
	// FlatNormals marks normals the loader made per face (the file had
	// none): a morphed copy recomputes them.
	FlatNormals bool
	// Indices is a triangle list: three per triangle, each < VertexCount().
	Indices []uint32
	// Material indexes Scene.Materials, or is -1 for the default material.
	Material int
}

// TexcoordSet returns texture coordinate set k (uv per vertex), or nil when
// the mesh has no such set.
func (m *Mesh) TexcoordSet(k int) []float32 {
	if k == 0 {
		return m.Texcoords
	}
	if k > 0 && k <= len(m.ExtraTexcoords) {
		return m.ExtraTexcoords[k-1]
	}
	return nil
}

// VertexCount returns the number of vertices.
func (m *Mesh) VertexCount() int { return len(m.Positions) / 3 }

// TriangleCount returns the number of triangles.
func (m *Mesh) TriangleCount() int { return len(m.Indices) / 3 }

// Position returns vertex i's position.
func (m *Mesh) Position(i int) Vec3 {
	return Vec3{m.Positions[3*i], m.Positions[3*i+1], m.Positions[3*i+2]}
}

// Normal returns vertex i's normal.
func (m *Mesh) Normal(i int) Vec3 {
	return Vec3{m.Normals[3*i], m.Normals[3*i+1], m.Normals[3*i+2]}
}

// Texcoord returns vertex i's texture coordinate, (0,0) without texcoords.
func (m *Mesh) Texcoord(i int) [2]float32 {
	if m.Texcoords == nil {
		return [2]float32{}
	}
	return [2]float32{m.Texcoords[2*i], m.Texcoords[2*i+1]}
}

// Validate checks that the arrays agree in length and every index is in range.
func (m *Mesh) Validate() error {
	if len(m.Positions)%3 != 0 {
		return fmt.Errorf("mesh %q: %d position floats is not a multiple of 3", m.Name, len(m.Positions))
	}
	n := m.VertexCount()
	if len(m.Normals) != 3*n {
		return fmt.Errorf("mesh %q: %d normal floats for %d vertices", m.Name, len(m.Normals), n)
	}
	if m.Texcoords != nil && len(m.Texcoords) != 2*n {
		return fmt.Errorf("mesh %q: %d texcoord floats for %d vertices", m.Name, len(m.Texcoords), n)
	}
	if m.Tangents != nil && len(m.Tangents) != 4*n {
		return fmt.Errorf("mesh %q: %d tangent floats for %d vertices", m.Name, len(m.Tangents), n)
	}
	if m.Colors != nil && len(m.Colors) != 4*n {
		return fmt.Errorf("mesh %q: %d colour floats for %d vertices", m.Name, len(m.Colors), n)
	}
	for k, uv := range m.ExtraTexcoords {
		if len(uv) != 2*n {
			return fmt.Errorf("mesh %q: texcoord set %d: %d floats for %d vertices", m.Name, k+1, len(uv), n)
		}
	}
	if (m.Joints == nil) != (m.JointWeights == nil) || m.Joints != nil && (len(m.Joints) != 4*n || len(m.JointWeights) != 4*n) {
		return fmt.Errorf("mesh %q: %d joint and %d weight floats for %d vertices", m.Name, len(m.Joints), len(m.JointWeights), n)
	}
	for i, t := range m.Targets {
		for _, a := range []struct {
			name string
			v    []float32
		}{{"POSITION", t.Positions}, {"NORMAL", t.Normals}, {"TANGENT", t.Tangents}} {
			if a.v != nil && len(a.v) != 3*n {
				return fmt.Errorf("mesh %q: morph target %d %s: %d floats for %d vertices", m.Name, i, a.name, len(a.v), n)
			}
		}
	}
	if m.MorphWeights != nil && len(m.MorphWeights) != len(m.Targets) {
		return fmt.Errorf("mesh %q: %d morph weights for %d targets", m.Name, len(m.MorphWeights), len(m.Targets))
	}
	if len(m.Indices)%3 != 0 {
		return fmt.Errorf("mesh %q: %d indices is not a multiple of 3", m.Name, len(m.Indices))
	}
	for i, ix := range m.Indices {
		if int64(ix) >= int64(n) {
			return fmt.Errorf("mesh %q: index %d is %d, vertex count %d", m.Name, i, ix, n)
		}
	}
	return nil
}

// Interleaved returns the vertices as position, normal, texcoord (8 floats
// per vertex, the order of attribute locations 0, 1, 2).
func (m *Mesh) Interleaved() []float32 {
	n := m.VertexCount()
	out := make([]float32, 0, 8*n)
	for i := 0; i < n; i++ {
		t := m.Texcoord(i)
		out = append(out, m.Positions[3*i:3*i+3]...)
		out = append(out, m.Normals[3*i:3*i+3]...)
		out = append(out, t[0], t[1])
	}
	return out
}

// Bounds returns the axis-aligned bounding box of the positions; ok is
// false for an empty mesh.
func (m *Mesh) Bounds() (lo, hi Vec3, ok bool) {
	if len(m.Positions) < 3 {
		return lo, hi, false
	}
	lo = m.Position(0)
	hi = lo
	for i := 1; i < m.VertexCount(); i++ {
		p := m.Position(i)
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], p[k])
			hi[k] = max(hi[k], p[k])
		}
	}
	return lo, hi, true
}

// ErrEmptyMesh is returned when a mesh has no vertices or no triangles where some are required.
var ErrEmptyMesh = errors.New("empty mesh")

// Fit centres the positions on their bounding-box centre and scales them
// uniformly so the longest side spans [-0.5, 0.5]. Normals are unchanged
// (a uniform scale keeps their directions). The arithmetic is float64,
// rounded once per coordinate.
// spec: bench README "Load" (centre on the bbox centre, longest side [-0.5, 0.5]).
func (m *Mesh) Fit() error {
	return FitMeshes([]*Mesh{m})
}

// FitMeshes applies Fit to a group of meshes with one shared bounding box.
func FitMeshes(ms []*Mesh) error {
	var lo, hi Vec3
	found := false
	for _, m := range ms {
		l, h, ok := m.Bounds()
		if !ok {
			continue
		}
		if !found {
			lo, hi, found = l, h, true
			continue
		}
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], l[k])
			hi[k] = max(hi[k], h[k])
		}
	}
	if !found {
		return ErrEmptyMesh
	}
	var c [3]float64
	ext := 0.0
	for k := 0; k < 3; k++ {
		c[k] = (float64(lo[k]) + float64(hi[k])) / 2
		ext = math.Max(ext, float64(hi[k])-float64(lo[k]))
	}
	s := 1.0
	if ext > 0 {
		s = 1 / ext
	}
	for _, m := range ms {
		for i := range m.Positions {
			m.Positions[i] = float32((float64(m.Positions[i]) - c[i%3]) * s)
		}
	}
	return nil
}

// AlphaMode says how a material's alpha is used (glTF 2.0 §3.9.4).
type AlphaMode uint8

// Alpha modes.
const (
	AlphaOpaque AlphaMode = iota
	AlphaMask
	AlphaBlend
)

// String returns the glTF name of the mode.
func (a AlphaMode) String() string {
	switch a {
	case AlphaOpaque:
		return "OPAQUE"
	case AlphaMask:
		return "MASK"
	case AlphaBlend:
		return "BLEND"
	}
	return fmt.Sprintf("AlphaMode(%d)", uint8(a))
}

// TextureRef names a texture in Scene.Textures and the texcoord set it reads.
type TextureRef struct {
	Texture  int
	TexCoord int
	// Scale is normalTexture.scale or occlusionTexture.strength (1 otherwise).
	Scale float32
	// Transform is the KHR_texture_transform of the reference, or nil.
	Transform *UVTransform
}

// Material is the PBR metallic-roughness material of glTF 2.0 §3.9, which
// OBJ/MTL materials are mapped onto. A nil texture reference means none.
type Material struct {
	Name                     string
	BaseColorFactor          [4]float32
	BaseColorTexture         *TextureRef
	MetallicFactor           float32
	RoughnessFactor          float32
	MetallicRoughnessTexture *TextureRef
	NormalTexture            *TextureRef
	OcclusionTexture         *TextureRef
	EmissiveFactor           [3]float32
	EmissiveTexture          *TextureRef
	AlphaMode                AlphaMode
	AlphaCutoff              float32
	DoubleSided              bool
	// EmissiveStrength scales EmissiveFactor (KHR_materials_emissive_strength; 1 otherwise).
	EmissiveStrength float32
	// Unlit is KHR_materials_unlit: the colour is the base colour, no lighting.
	Unlit bool
}

// DefaultMaterial returns the glTF default material: white, metallic 1,
// roughness 1, opaque, alpha cutoff 0.5.
func DefaultMaterial() Material {
	return Material{
		BaseColorFactor:  [4]float32{1, 1, 1, 1},
		MetallicFactor:   1,
		RoughnessFactor:  1,
		AlphaCutoff:      0.5,
		EmissiveStrength: 1,
	}
}

// Wrap is a texture wrap mode; the values are the GL enums glTF uses.
type Wrap uint16

// Wrap modes (glTF 2.0 §5.26 sampler.wrapS).
const (
	WrapRepeat         Wrap = 10497
	WrapClampToEdge    Wrap = 33071
	WrapMirroredRepeat Wrap = 33648
)

// Filter is a texture filter; the values are the GL enums glTF uses.
type Filter uint16

// Filters (glTF 2.0 §5.26 sampler.magFilter/minFilter).
const (
	FilterNearest              Filter = 9728
	FilterLinear               Filter = 9729
	FilterNearestMipmapNearest Filter = 9984
	FilterLinearMipmapNearest  Filter = 9985
	FilterNearestMipmapLinear  Filter = 9986
	FilterLinearMipmapLinear   Filter = 9987
)

// Mipmapped reports whether f samples mipmap levels.
func (f Filter) Mipmapped() bool {
	return f >= FilterNearestMipmapNearest && f <= FilterLinearMipmapLinear
}

var wrapNames = map[Wrap]string{WrapRepeat: "repeat", WrapClampToEdge: "clamp_to_edge", WrapMirroredRepeat: "mirrored_repeat"}

var filterNames = map[Filter]string{
	FilterNearest: "nearest", FilterLinear: "linear",
	FilterNearestMipmapNearest: "nearest_mipmap_nearest", FilterLinearMipmapNearest: "linear_mipmap_nearest",
	FilterNearestMipmapLinear: "nearest_mipmap_linear", FilterLinearMipmapLinear: "linear_mipmap_linear",
}

// String returns the scene-file name of the wrap mode.
func (w Wrap) String() string {
	if s, ok := wrapNames[w]; ok {
		return s
	}
	return fmt.Sprintf("Wrap(%d)", uint16(w))
}

// String returns the scene-file name of the filter.
func (f Filter) String() string {
	if s, ok := filterNames[f]; ok {
		return s
	}
	return fmt.Sprintf("Filter(%d)", uint16(f))
}

// Sampler is a texture's sampler state.
type Sampler struct {
	WrapS, WrapT         Wrap
	MinFilter, MagFilter Filter
}

// DefaultSampler is repeat/repeat with linear-mipmap-linear minification
// and linear magnification (the usual glTF default when a sampler is absent).
func DefaultSampler() Sampler {
	return Sampler{WrapS: WrapRepeat, WrapT: WrapRepeat, MinFilter: FilterLinearMipmapLinear, MagFilter: FilterLinear}
}

// Texture is a decoded image with its sampler state. Image is non-premultiplied
// 8-bit RGBA with its first row at the top (texcoord v=0 addresses row 0, as in glTF).
type Texture struct {
	Name    string
	Image   *image.NRGBA
	Sampler Sampler
}

// ToNRGBA converts any image to *image.NRGBA with bounds starting at (0,0).
// The decoders' common types (NRGBA, RGBA, YCbCr, Gray, Paletted) are
// converted without a per-pixel interface call or allocation.
func ToNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	if n, ok := img.(*image.NRGBA); ok && b.Min == (image.Point{}) {
		return n
	}
	w, h := b.Dx(), b.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := out.Pix[y*out.Stride : y*out.Stride+4*w]
		sy := b.Min.Y + y
		switch src := img.(type) {
		case *image.NRGBA:
			copy(row, src.Pix[src.PixOffset(b.Min.X, sy):])
		case *image.RGBA:
			p := src.Pix[src.PixOffset(b.Min.X, sy):]
			for x := 0; x < w; x++ {
				r, g, bb, a := p[4*x], p[4*x+1], p[4*x+2], p[4*x+3]
				if a != 0 && a != 255 {
					// The arithmetic of color.NRGBAModel, without the interface call.
					a16 := uint32(a) * 0x101
					r = uint8((uint32(r) * 0x101 * 0xffff / a16) >> 8)
					g = uint8((uint32(g) * 0x101 * 0xffff / a16) >> 8)
					bb = uint8((uint32(bb) * 0x101 * 0xffff / a16) >> 8)
				}
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r, g, bb, a
			}
		case *image.YCbCr:
			for x := 0; x < w; x++ {
				yi, ci := src.YOffset(b.Min.X+x, sy), src.COffset(b.Min.X+x, sy)
				r, g, bb := color.YCbCrToRGB(src.Y[yi], src.Cb[ci], src.Cr[ci])
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r, g, bb, 255
			}
		case *image.Gray:
			p := src.Pix[src.PixOffset(b.Min.X, sy):]
			for x := 0; x < w; x++ {
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = p[x], p[x], p[x], 255
			}
		case *image.Paletted:
			pal := make([]color.NRGBA, len(src.Palette))
			for i, c := range src.Palette {
				pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
			}
			p := src.Pix[src.PixOffset(b.Min.X, sy):]
			for x := 0; x < w; x++ {
				var c color.NRGBA
				if int(p[x]) < len(pal) {
					c = pal[p[x]]
				}
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
			}
		default:
			for x := 0; x < w; x++ {
				out.Set(x, y, img.At(b.Min.X+x, sy))
			}
		}
	}
	return out
}

// CameraType distinguishes perspective and orthographic cameras.
type CameraType uint8

// Camera types.
const (
	CameraPerspective CameraType = iota
	CameraOrthographic
)

// Camera is a glTF 2.0 camera (§5.12). Its view transform comes from the
// node that holds it (the inverse of the node's world matrix).
type Camera struct {
	Name string
	Type CameraType
	// YFov is the vertical field of view in radians (perspective).
	YFov float32
	// AspectRatio is width/height; 0 means "use the viewport's".
	AspectRatio float32
	ZNear       float32
	// ZFar is the far plane; 0 means infinite (perspective only).
	ZFar float32
	// XMag and YMag are half the orthographic view's width and height.
	XMag, YMag float32
}

// Projection returns the camera's projection matrix for a viewport of the
// given aspect ratio (used when AspectRatio is 0).
func (c *Camera) Projection(viewportAspect float64) Mat4 {
	if c.Type == CameraOrthographic {
		return Ortho(-float64(c.XMag), float64(c.XMag), -float64(c.YMag), float64(c.YMag), float64(c.ZNear), float64(c.ZFar))
	}
	a := viewportAspect
	if c.AspectRatio > 0 {
		a = float64(c.AspectRatio)
	}
	if c.ZFar == 0 {
		return InfinitePerspective(float64(c.YFov), a, float64(c.ZNear))
	}
	return Perspective(float64(c.YFov), a, float64(c.ZNear), float64(c.ZFar))
}

// Node is one node of the scene graph. Its local transform is Matrix when
// HasMatrix, else T·R·S from Translation, Rotation (quaternion x,y,z,w) and Scale.
type Node struct {
	Name     string
	Children []int
	Meshes   []int // indices into Scene.Meshes (one per glTF primitive)
	Camera   int   // index into Scene.Cameras, or -1
	Skin     int   // index into Scene.Skins, or -1
	Light    int   // index into Scene.Lights (KHR_lights_punctual), or -1
	// MorphWeights overrides the meshes' default morph weights, or is nil.
	MorphWeights []float32
	HasMatrix    bool
	Matrix       Mat4
	Translation  [3]float32
	Rotation     [4]float32
	Scale        [3]float32
}

// NewNode returns a node with the identity transform and no camera.
func NewNode(name string) Node {
	return Node{Name: name, Camera: -1, Skin: -1, Light: -1, Rotation: [4]float32{0, 0, 0, 1}, Scale: [3]float32{1, 1, 1}}
}

// Local returns the node's local transform.
func (n *Node) Local() Mat4 {
	if n.HasMatrix {
		return n.Matrix
	}
	t := Translate(n.Translation[0], n.Translation[1], n.Translation[2])
	return t.Mul(QuatMat(n.Rotation)).Mul(ScaleMat(n.Scale[0], n.Scale[1], n.Scale[2]))
}

// Scene is a loaded model: meshes, materials, textures, cameras, lights,
// skins, animations and the node hierarchy whose Roots are drawn.
type Scene struct {
	Meshes     []Mesh
	Materials  []Material
	Textures   []Texture
	Cameras    []Camera
	Lights     []Light
	Skins      []Skin
	Animations []Animation
	Nodes      []Node
	Roots      []int
	// Warnings name every feature of the file the loader does not
	// implement and left out (file, JSON path, what and why), in file
	// order. A renderer reports them; under --strict they are errors.
	Warnings []string
}

// Instance is one mesh placed in the world by the node that holds it.
type Instance struct {
	Mesh  int
	Node  int
	Model Mat4
}

// Validate checks every cross-reference and that the node graph is a forest.
func (s *Scene) Validate() error {
	for i := range s.Meshes {
		m := &s.Meshes[i]
		if err := m.Validate(); err != nil {
			return fmt.Errorf("meshes[%d]: %w", i, err)
		}
		if m.Material < -1 || m.Material >= len(s.Materials) {
			return fmt.Errorf("meshes[%d]: material %d out of range (%d materials)", i, m.Material, len(s.Materials))
		}
	}
	for i := range s.Materials {
		mt := &s.Materials[i]
		for _, r := range []*TextureRef{mt.BaseColorTexture, mt.MetallicRoughnessTexture, mt.NormalTexture, mt.OcclusionTexture, mt.EmissiveTexture} {
			if r != nil && (r.Texture < 0 || r.Texture >= len(s.Textures)) {
				return fmt.Errorf("materials[%d]: texture %d out of range (%d textures)", i, r.Texture, len(s.Textures))
			}
		}
	}
	for i := range s.Textures {
		if s.Textures[i].Image == nil {
			return fmt.Errorf("textures[%d]: no image", i)
		}
	}
	parent := make([]int, len(s.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		for _, c := range n.Children {
			if c < 0 || c >= len(s.Nodes) {
				return fmt.Errorf("nodes[%d].children: node %d out of range (%d nodes)", i, c, len(s.Nodes))
			}
			if parent[c] >= 0 || c == i {
				return fmt.Errorf("nodes[%d].children: node %d already has a parent", i, c)
			}
			parent[c] = i
		}
		for _, m := range n.Meshes {
			if m < 0 || m >= len(s.Meshes) {
				return fmt.Errorf("nodes[%d]: mesh %d out of range (%d meshes)", i, m, len(s.Meshes))
			}
		}
		if n.Camera < -1 || n.Camera >= len(s.Cameras) {
			return fmt.Errorf("nodes[%d]: camera %d out of range (%d cameras)", i, n.Camera, len(s.Cameras))
		}
	}
	for _, r := range s.Roots {
		if r < 0 || r >= len(s.Nodes) {
			return fmt.Errorf("roots: node %d out of range (%d nodes)", r, len(s.Nodes))
		}
		if parent[r] >= 0 {
			return fmt.Errorf("roots: node %d has parent %d", r, parent[r])
		}
	}
	// With at most one parent each, a cycle is a set of nodes none of
	// which reaches a parentless node.
	for i := range s.Nodes {
		j, steps := i, 0
		for parent[j] >= 0 {
			j = parent[j]
			steps++
			if steps > len(s.Nodes) {
				return fmt.Errorf("nodes[%d]: cycle in the node hierarchy", i)
			}
		}
	}
	return nil
}

// WorldMatrices returns each node's world transform (identity for nodes not
// reachable from Roots). The scene must have passed Validate.
func (s *Scene) WorldMatrices() []Mat4 {
	w := make([]Mat4, len(s.Nodes))
	for i := range w {
		w[i] = Identity()
	}
	var visit func(n int, parent Mat4)
	visit = func(n int, parent Mat4) {
		w[n] = parent.Mul(s.Nodes[n].Local())
		for _, c := range s.Nodes[n].Children {
			visit(c, w[n])
		}
	}
	for _, r := range s.Roots {
		visit(r, Identity())
	}
	return w
}

// Instances returns every mesh reachable from Roots with its world matrix,
// in depth-first node order. The scene must have passed Validate.
func (s *Scene) Instances() []Instance {
	w := s.WorldMatrices()
	var out []Instance
	var visit func(n int)
	visit = func(n int) {
		for _, m := range s.Nodes[n].Meshes {
			out = append(out, Instance{Mesh: m, Node: n, Model: w[n]})
		}
		for _, c := range s.Nodes[n].Children {
			visit(c)
		}
	}
	for _, r := range s.Roots {
		visit(r)
	}
	return out
}

// SingleMeshScene wraps meshes in a scene with one root node holding all of them.
func SingleMeshScene(meshes []Mesh, materials []Material, textures []Texture) *Scene {
	n := NewNode("root")
	for i := range meshes {
		n.Meshes = append(n.Meshes, i)
	}
	return &Scene{Meshes: meshes, Materials: materials, Textures: textures, Nodes: []Node{n}, Roots: []int{0}}
}
