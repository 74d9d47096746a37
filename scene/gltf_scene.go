package scene

import (
	"fmt"
	"math"
	"strings"
)

// scene converts the whole document. spec: glTF 2.0 §3.5 (scenes, nodes),
// §3.7 (meshes), §3.8 (textures), §3.9 (materials), §3.10 (cameras).
func (l *gltfLoader) scene() (*Scene, error) {
	d := &l.doc
	if !strings.HasPrefix(d.Asset.Version, "2.") {
		return nil, l.errorf("asset.version", "%q, want 2.x", d.Asset.Version)
	}
	if d.Asset.MinVersion != "" && d.Asset.MinVersion != "2.0" {
		return nil, l.errorf("asset.minVersion", "%q, want 2.0", d.Asset.MinVersion)
	}
	if len(d.ExtensionsRequired) > 0 {
		return nil, l.errorf("extensionsRequired", "unsupported extensions %v", d.ExtensionsRequired)
	}
	s := &Scene{}
	for i := range d.Textures {
		t, err := l.texture(i)
		if err != nil {
			return nil, err
		}
		s.Textures = append(s.Textures, *t)
	}
	for i := range d.Materials {
		m, err := l.material(i)
		if err != nil {
			return nil, err
		}
		s.Materials = append(s.Materials, m)
	}
	meshPrims := make([][]int, len(d.Meshes))
	for i, gm := range d.Meshes {
		if len(gm.Primitives) == 0 {
			return nil, l.errorf(fmt.Sprintf("meshes[%d].primitives", i), "empty")
		}
		for j := range gm.Primitives {
			m, err := l.primitive(i, j)
			if err != nil {
				return nil, err
			}
			meshPrims[i] = append(meshPrims[i], len(s.Meshes))
			s.Meshes = append(s.Meshes, *m)
		}
	}
	for i, c := range d.Cameras {
		cam, err := l.camera(i, c)
		if err != nil {
			return nil, err
		}
		s.Cameras = append(s.Cameras, cam)
	}
	for i, gn := range d.Nodes {
		np := fmt.Sprintf("nodes[%d]", i)
		n := NewNode(gn.Name)
		n.Children = gn.Children
		if gn.Mesh != nil {
			if *gn.Mesh < 0 || *gn.Mesh >= len(d.Meshes) {
				return nil, l.errorf(np+".mesh", "%d out of range (%d meshes)", *gn.Mesh, len(d.Meshes))
			}
			n.Meshes = meshPrims[*gn.Mesh]
		}
		if gn.Camera != nil {
			if *gn.Camera < 0 || *gn.Camera >= len(d.Cameras) {
				return nil, l.errorf(np+".camera", "%d out of range (%d cameras)", *gn.Camera, len(d.Cameras))
			}
			n.Camera = *gn.Camera
		}
		vec := func(field string, v []float32, want int, dst []float32) error {
			if v == nil {
				return nil
			}
			if len(v) != want {
				return l.errorf(np+"."+field, "%d numbers, want %d", len(v), want)
			}
			copy(dst, v)
			return nil
		}
		if gn.Matrix != nil {
			n.HasMatrix = true
			if err := vec("matrix", gn.Matrix, 16, n.Matrix[:]); err != nil {
				return nil, err
			}
		}
		if err := vec("translation", gn.Translation, 3, n.Translation[:]); err != nil {
			return nil, err
		}
		if err := vec("rotation", gn.Rotation, 4, n.Rotation[:]); err != nil {
			return nil, err
		}
		if err := vec("scale", gn.Scale, 3, n.Scale[:]); err != nil {
			return nil, err
		}
		s.Nodes = append(s.Nodes, n)
	}
	switch {
	case len(d.Scenes) > 0:
		si := 0
		if d.Scene != nil {
			si = *d.Scene
		}
		if si < 0 || si >= len(d.Scenes) {
			return nil, l.errorf("scene", "%d out of range (%d scenes)", si, len(d.Scenes))
		}
		s.Roots = append([]int(nil), d.Scenes[si].Nodes...)
	default:
		hasParent := make([]bool, len(s.Nodes))
		for _, n := range s.Nodes {
			for _, c := range n.Children {
				if c >= 0 && c < len(hasParent) {
					hasParent[c] = true
				}
			}
		}
		for i, p := range hasParent {
			if !p {
				s.Roots = append(s.Roots, i)
			}
		}
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	return s, nil
}

func (l *gltfLoader) texture(i int) (*Texture, error) {
	t := l.doc.Textures[i]
	tp := fmt.Sprintf("textures[%d]", i)
	if t.Source == nil {
		return nil, l.errorf(tp+".source", "missing")
	}
	tex, err := l.image(*t.Source, tp+".source")
	if err != nil {
		return nil, err
	}
	if t.Name != "" {
		tex.Name = t.Name
	}
	tex.Sampler = DefaultSampler()
	if t.Sampler != nil {
		si := *t.Sampler
		sp := fmt.Sprintf("samplers[%d]", si)
		if si < 0 || si >= len(l.doc.Samplers) {
			return nil, l.errorf(tp+".sampler", "%d out of range (%d samplers)", si, len(l.doc.Samplers))
		}
		gs := l.doc.Samplers[si]
		for _, w := range []struct {
			field string
			v     int
			dst   *Wrap
		}{{"wrapS", gs.WrapS, &tex.Sampler.WrapS}, {"wrapT", gs.WrapT, &tex.Sampler.WrapT}} {
			if w.v == 0 {
				continue
			}
			if _, ok := wrapNames[Wrap(w.v)]; !ok {
				return nil, l.errorf(sp+"."+w.field, "%d is not a wrap mode", w.v)
			}
			*w.dst = Wrap(w.v)
		}
		if gs.MagFilter != 0 {
			if gs.MagFilter != int(FilterNearest) && gs.MagFilter != int(FilterLinear) {
				return nil, l.errorf(sp+".magFilter", "%d is not NEAREST or LINEAR", gs.MagFilter)
			}
			tex.Sampler.MagFilter = Filter(gs.MagFilter)
		}
		if gs.MinFilter != 0 {
			if _, ok := filterNames[Filter(gs.MinFilter)]; !ok {
				return nil, l.errorf(sp+".minFilter", "%d is not a filter", gs.MinFilter)
			}
			tex.Sampler.MinFilter = Filter(gs.MinFilter)
		}
	}
	return tex, nil
}

func (l *gltfLoader) textureRef(ti *gltfTextureInfo, path string) (*TextureRef, error) {
	if ti == nil {
		return nil, nil
	}
	if ti.Index < 0 || ti.Index >= len(l.doc.Textures) {
		return nil, l.errorf(path+".index", "%d out of range (%d textures)", ti.Index, len(l.doc.Textures))
	}
	if ti.TexCoord < 0 {
		return nil, l.errorf(path+".texCoord", "negative (%d)", ti.TexCoord)
	}
	r := &TextureRef{Texture: ti.Index, TexCoord: ti.TexCoord, Scale: 1}
	if ti.Scale != nil {
		r.Scale = *ti.Scale
	}
	if ti.Strength != nil {
		r.Scale = *ti.Strength
	}
	return r, nil
}

func (l *gltfLoader) material(i int) (Material, error) {
	gm := l.doc.Materials[i]
	mp := fmt.Sprintf("materials[%d]", i)
	m := DefaultMaterial()
	m.Name = gm.Name
	m.DoubleSided = gm.DoubleSided
	var err error
	if p := gm.PbrMetallicRoughness; p != nil {
		pp := mp + ".pbrMetallicRoughness"
		if p.BaseColorFactor != nil {
			if len(p.BaseColorFactor) != 4 {
				return m, l.errorf(pp+".baseColorFactor", "%d numbers, want 4", len(p.BaseColorFactor))
			}
			copy(m.BaseColorFactor[:], p.BaseColorFactor)
		}
		if p.MetallicFactor != nil {
			m.MetallicFactor = *p.MetallicFactor
		}
		if p.RoughnessFactor != nil {
			m.RoughnessFactor = *p.RoughnessFactor
		}
		if m.BaseColorTexture, err = l.textureRef(p.BaseColorTexture, pp+".baseColorTexture"); err != nil {
			return m, err
		}
		if m.MetallicRoughnessTexture, err = l.textureRef(p.MetallicRoughnessTexture, pp+".metallicRoughnessTexture"); err != nil {
			return m, err
		}
	}
	if m.NormalTexture, err = l.textureRef(gm.NormalTexture, mp+".normalTexture"); err != nil {
		return m, err
	}
	if m.OcclusionTexture, err = l.textureRef(gm.OcclusionTexture, mp+".occlusionTexture"); err != nil {
		return m, err
	}
	if m.EmissiveTexture, err = l.textureRef(gm.EmissiveTexture, mp+".emissiveTexture"); err != nil {
		return m, err
	}
	if gm.EmissiveFactor != nil {
		if len(gm.EmissiveFactor) != 3 {
			return m, l.errorf(mp+".emissiveFactor", "%d numbers, want 3", len(gm.EmissiveFactor))
		}
		copy(m.EmissiveFactor[:], gm.EmissiveFactor)
	}
	switch gm.AlphaMode {
	case "", "OPAQUE":
	case "MASK":
		m.AlphaMode = AlphaMask
	case "BLEND":
		m.AlphaMode = AlphaBlend
	default:
		return m, l.errorf(mp+".alphaMode", "%q, want OPAQUE, MASK or BLEND", gm.AlphaMode)
	}
	if gm.AlphaCutoff != nil {
		m.AlphaCutoff = *gm.AlphaCutoff
	}
	return m, nil
}

func (l *gltfLoader) camera(i int, c gltfCamera) (Camera, error) {
	cp := fmt.Sprintf("cameras[%d]", i)
	cam := Camera{Name: c.Name}
	switch c.Type {
	case "perspective":
		p := c.Perspective
		if p == nil {
			return cam, l.errorf(cp+".perspective", "missing")
		}
		if !(p.Yfov > 0 && p.Yfov < math.Pi) || !(p.Znear > 0) || p.AspectRatio < 0 {
			return cam, l.errorf(cp+".perspective", "yfov %g, znear %g, aspectRatio %g out of range", p.Yfov, p.Znear, p.AspectRatio)
		}
		cam.Type, cam.YFov, cam.ZNear, cam.AspectRatio = CameraPerspective, p.Yfov, p.Znear, p.AspectRatio
		if p.Zfar != nil {
			if !(*p.Zfar > p.Znear) {
				return cam, l.errorf(cp+".perspective.zfar", "%g not beyond znear %g", *p.Zfar, p.Znear)
			}
			cam.ZFar = *p.Zfar
		}
	case "orthographic":
		o := c.Orthographic
		if o == nil {
			return cam, l.errorf(cp+".orthographic", "missing")
		}
		if o.Xmag == 0 || o.Ymag == 0 || !(o.Znear >= 0) || !(o.Zfar > o.Znear) {
			return cam, l.errorf(cp+".orthographic", "xmag %g, ymag %g, znear %g, zfar %g out of range", o.Xmag, o.Ymag, o.Znear, o.Zfar)
		}
		cam.Type, cam.XMag, cam.YMag, cam.ZNear, cam.ZFar = CameraOrthographic, o.Xmag, o.Ymag, o.Znear, o.Zfar
	default:
		return cam, l.errorf(cp+".type", "%q, want perspective or orthographic", c.Type)
	}
	return cam, nil
}

// primitive converts meshes[mi].primitives[pi] to a triangle-list Mesh:
// strips and fans become lists, a missing index accessor means 0..n-1,
// missing normals become flat normals (glTF 2.0 §3.7.2.1).
func (l *gltfLoader) primitive(mi, pi int) (*Mesh, error) {
	gp := l.doc.Meshes[mi].Primitives[pi]
	pp := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
	m := &Mesh{Name: l.doc.Meshes[mi].Name, Material: -1}
	mode := 4
	if gp.Mode != nil {
		mode = *gp.Mode
	}
	if mode < 4 || mode > 6 {
		name := "unknown"
		if mode >= 0 && mode < len(modeNames) {
			name = modeNames[mode]
		}
		return nil, l.errorf(pp+".mode", "%d (%s) is not supported: only TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN", mode, name)
	}
	if gp.Material != nil {
		if *gp.Material < 0 || *gp.Material >= len(l.doc.Materials) {
			return nil, l.errorf(pp+".material", "%d out of range (%d materials)", *gp.Material, len(l.doc.Materials))
		}
		m.Material = *gp.Material
	}
	pos, ok := gp.Attributes["POSITION"]
	if !ok {
		return nil, l.errorf(pp+".attributes", "no POSITION")
	}
	var n int64
	var err error
	if m.Positions, n, err = l.floatAttribute(pos, pp+".attributes.POSITION", "VEC3"); err != nil {
		return nil, err
	}
	attr := func(name, typ string) ([]float32, error) {
		i, ok := gp.Attributes[name]
		if !ok {
			return nil, nil
		}
		v, cnt, err := l.floatAttribute(i, pp+".attributes."+name, typ)
		if err == nil && cnt != n {
			err = l.errorf(pp+".attributes."+name, "count %d, POSITION has %d", cnt, n)
		}
		return v, err
	}
	if m.Normals, err = attr("NORMAL", "VEC3"); err != nil {
		return nil, err
	}
	if m.Texcoords, err = attr("TEXCOORD_0", "VEC2"); err != nil {
		return nil, err
	}
	if m.Tangents, err = attr("TANGENT", "VEC4"); err != nil {
		return nil, err
	}
	var idx []uint32
	if gp.Indices != nil {
		if idx, err = l.indices(*gp.Indices, pp+".indices", n); err != nil {
			return nil, err
		}
	} else {
		idx = make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	switch mode {
	case 5:
		m.Indices = stripToList(idx)
	case 6:
		m.Indices = fanToList(idx)
	default:
		if len(idx)%3 != 0 {
			return nil, l.errorf(pp, "TRIANGLES with %d vertices, not a multiple of 3", len(idx))
		}
		m.Indices = idx
	}
	if m.Normals == nil {
		flatten(m)
	}
	if m.Tangents == nil && m.Texcoords != nil && m.Material >= 0 && l.doc.Materials[m.Material].NormalTexture != nil {
		// A normal-mapped primitive without TANGENT (glTF 2.0 §3.7.2.1).
		if err := m.ComputeTangents(); err != nil {
			return nil, l.errorf(pp, "tangents: %v", err)
		}
	}
	return m, nil
}

// stripToList converts a triangle strip to a list: triangle i is
// (i, i+1, i+2) for even i and (i+1, i, i+2) for odd i, keeping the winding.
func stripToList(s []uint32) []uint32 {
	if len(s) < 3 {
		return []uint32{}
	}
	out := make([]uint32, 0, 3*(len(s)-2))
	for i := 0; i+2 < len(s); i++ {
		if i%2 == 0 {
			out = append(out, s[i], s[i+1], s[i+2])
		} else {
			out = append(out, s[i+1], s[i], s[i+2])
		}
	}
	return out
}

// fanToList converts a triangle fan to a list: triangle i is (0, i+1, i+2).
func fanToList(f []uint32) []uint32 {
	if len(f) < 3 {
		return []uint32{}
	}
	out := make([]uint32, 0, 3*(len(f)-2))
	for i := 1; i+1 < len(f); i++ {
		out = append(out, f[0], f[i], f[i+1])
	}
	return out
}

// flatten gives a mesh without normals flat normals: each triangle gets
// its own three vertices carrying the normalised face normal.
func flatten(m *Mesh) {
	src := *m
	m.Positions = make([]float32, 0, 3*len(src.Indices))
	m.Normals = make([]float32, 0, 3*len(src.Indices))
	m.Texcoords, m.Tangents = nil, nil
	idx := make([]uint32, len(src.Indices))
	for t := 0; t+2 < len(src.Indices); t += 3 {
		a, b, c := src.Position(int(src.Indices[t])), src.Position(int(src.Indices[t+1])), src.Position(int(src.Indices[t+2]))
		n := b.Sub(a).Cross(c.Sub(a)).Normalize()
		for k := 0; k < 3; k++ {
			v := int(src.Indices[t+k])
			idx[t+k] = uint32(len(m.Positions) / 3)
			m.Positions = append(m.Positions, src.Positions[3*v:3*v+3]...)
			m.Normals = append(m.Normals, n[0], n[1], n[2])
			if src.Texcoords != nil {
				m.Texcoords = append(m.Texcoords, src.Texcoords[2*v:2*v+2]...)
			}
			if src.Tangents != nil {
				m.Tangents = append(m.Tangents, src.Tangents[4*v:4*v+4]...)
			}
		}
	}
	m.Indices = idx
	if m.Texcoords == nil && src.Texcoords != nil {
		m.Texcoords = []float32{}
	}
	if m.Tangents == nil && src.Tangents != nil {
		m.Tangents = []float32{}
	}
}
