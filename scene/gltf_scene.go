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
	if err := l.checkExtensions(); err != nil {
		return nil, err
	}
	s := &Scene{}
	var err error
	if s.Lights, err = l.lights(); err != nil {
		return nil, err
	}
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
		l.materials = append(l.materials, m)
	}
	meshPrims := make([][]int, len(d.Meshes))
	for i, gm := range d.Meshes {
		if len(gm.Primitives) == 0 {
			return nil, l.errorf(fmt.Sprintf("meshes[%d].primitives", i), "empty")
		}
		for j := range gm.Primitives {
			if len(gm.Primitives[j].Targets) != len(gm.Primitives[0].Targets) {
				return nil, l.errorf(fmt.Sprintf("meshes[%d].primitives[%d].targets", i, j), "%d morph targets, primitives[0] has %d (a mesh's primitives must agree)", len(gm.Primitives[j].Targets), len(gm.Primitives[0].Targets))
			}
			m, err := l.primitive(i, j)
			if err != nil {
				return nil, err
			}
			if m == nil {
				continue
			}
			meshPrims[i] = append(meshPrims[i], len(s.Meshes))
			s.Meshes = append(s.Meshes, *m)
		}
	}
	for i := range d.Skins {
		sk, err := l.skin(i)
		if err != nil {
			return nil, err
		}
		s.Skins = append(s.Skins, sk)
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
		if gn.Weights != nil {
			if gn.Mesh == nil || len(gn.Weights) != len(d.Meshes[*gn.Mesh].Primitives[0].Targets) {
				return nil, l.errorf(np+".weights", "%d weights, but the node's mesh has a different number of morph targets", len(gn.Weights))
			}
			n.MorphWeights = gn.Weights
		}
		if gn.Skin != nil {
			if *gn.Skin < 0 || *gn.Skin >= len(d.Skins) {
				return nil, l.errorf(np+".skin", "%d out of range (%d skins)", *gn.Skin, len(d.Skins))
			}
			if gn.Mesh == nil {
				return nil, l.errorf(np+".skin", "a skin on a node without a mesh")
			}
			n.Skin = *gn.Skin
			for _, mi := range n.Meshes {
				m := &s.Meshes[mi]
				if !m.Skinned() {
					l.warnf(np+".skin", "mesh %d primitive without JOINTS_0/WEIGHTS_0 is drawn unskinned", *gn.Mesh)
					continue
				}
				for _, j := range m.Joints {
					if int(j) >= len(d.Skins[n.Skin].Joints) {
						return nil, l.errorf(np+".skin", "mesh %d uses joint %d; skin %d has %d joints", *gn.Mesh, int(j), n.Skin, len(d.Skins[n.Skin].Joints))
					}
				}
			}
		} else if gn.Mesh != nil {
			for _, mi := range n.Meshes {
				if s.Meshes[mi].Skinned() {
					l.warnf(np, "mesh %d has JOINTS_0/WEIGHTS_0 but the node has no skin; drawn unskinned", *gn.Mesh)
					break
				}
			}
		}
		if n.Light, err = l.nodeLight(&gn, np, len(s.Lights)); err != nil {
			return nil, err
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
	meshTargets := func(node int) int {
		for _, mi := range s.Nodes[node].Meshes {
			return len(s.Meshes[mi].Targets)
		}
		return 0
	}
	for i := range d.Animations {
		a, err := l.animation(i, meshTargets)
		if err != nil {
			return nil, err
		}
		s.Animations = append(s.Animations, a)
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
	s.Warnings = l.warnings
	return s, nil
}

func (l *gltfLoader) texture(i int) (*Texture, error) {
	t := l.doc.Textures[i]
	tp := fmt.Sprintf("textures[%d]", i)
	for _, k := range sortedKeys(t.Extensions) {
		l.noteExtension(k, tp+".extensions."+k)
	}
	if t.Source == nil {
		if len(t.Extensions) > 0 {
			return nil, l.errorf(tp+".source", "missing: the image is only in extension %s, which is not implemented", strings.Join(sortedKeys(t.Extensions), ", "))
		}
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
	if err := l.textureTransform(ti, path, r); err != nil {
		return nil, err
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
	if err := l.materialExtensions(&gm, mp, &m); err != nil {
		return m, err
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
