package scene

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// primitive converts meshes[mi].primitives[pi] to a triangle-list Mesh:
// strips and fans become lists, a missing index accessor means 0..n-1,
// missing normals become flat normals (glTF 2.0 §3.7.2.1), a normal-mapped
// primitive without tangents gets generated ones. Points and lines are left
// out with a warning (nil, nil): the model renderer draws triangles.
// spec: glTF 2.0 §3.7.2 (primitives, attribute semantics), §3.7.2.2 (morph
// targets).
func (l *gltfLoader) primitive(mi, pi int) (*Mesh, error) {
	gp := l.doc.Meshes[mi].Primitives[pi]
	pp := fmt.Sprintf("meshes[%d].primitives[%d]", mi, pi)
	for _, k := range sortedKeys(gp.Extensions) {
		l.noteExtension(k, pp+".extensions."+k)
	}
	m := &Mesh{Name: l.doc.Meshes[mi].Name, Material: -1}
	mode := 4
	if gp.Mode != nil {
		mode = *gp.Mode
	}
	if mode < 0 || mode >= len(modeNames) {
		return nil, l.errorf(pp+".mode", "%d is not a glTF primitive mode (0..6)", mode)
	}
	if mode < 4 {
		l.warnf(pp+".mode", "%s primitive not drawn: the model renderer draws triangles only", modeNames[mode])
		return nil, nil
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
	if m.Positions, n, err = l.vertexAttribute(pos, pp+".attributes.POSITION", "POSITION", "VEC3"); err != nil {
		return nil, err
	}
	attr := func(name string, types ...string) ([]float32, string, error) {
		i, ok := gp.Attributes[name]
		if !ok {
			return nil, "", nil
		}
		ap := pp + ".attributes." + name
		if i < 0 || i >= len(l.doc.Accessors) {
			return nil, "", l.errorf(ap, "accessor %d out of range (%d accessors)", i, len(l.doc.Accessors))
		}
		typ := l.doc.Accessors[i].Type
		if !contains(types, typ) {
			return nil, "", l.errorf(ap, "accessor %d has type %s, want %s", i, typ, strings.Join(types, " or "))
		}
		v, cnt, err := l.vertexAttribute(i, ap, name, typ)
		if err == nil && cnt != n {
			err = l.errorf(ap, "count %d, POSITION has %d", cnt, n)
		}
		return v, typ, err
	}
	if m.Normals, _, err = attr("NORMAL", "VEC3"); err != nil {
		return nil, err
	}
	if m.Tangents, _, err = attr("TANGENT", "VEC4"); err != nil {
		return nil, err
	}
	if m.Texcoords, _, err = attr("TEXCOORD_0", "VEC2"); err != nil {
		return nil, err
	}
	// TEXCOORD_1, TEXCOORD_2, ... must be consecutive (glTF 2.0 §3.7.2.1).
	for k := 1; ; k++ {
		uv, _, err := attr("TEXCOORD_"+strconv.Itoa(k), "VEC2")
		if err != nil {
			return nil, err
		}
		if uv == nil {
			break
		}
		if m.Texcoords == nil {
			return nil, l.errorf(pp+".attributes", "TEXCOORD_%d without TEXCOORD_0", k)
		}
		m.ExtraTexcoords = append(m.ExtraTexcoords, uv)
	}
	col, ctyp, err := attr("COLOR_0", "VEC3", "VEC4")
	if err != nil {
		return nil, err
	}
	if col != nil {
		m.Colors = col
		if ctyp == "VEC3" {
			m.Colors = make([]float32, 4*n)
			for v := range int(n) {
				copy(m.Colors[4*v:], col[3*v:3*v+3])
				m.Colors[4*v+3] = 1
			}
		}
	}
	if m.Joints, _, err = attr("JOINTS_0", "VEC4"); err != nil {
		return nil, err
	}
	if m.JointWeights, _, err = attr("WEIGHTS_0", "VEC4"); err != nil {
		return nil, err
	}
	if (m.Joints == nil) != (m.JointWeights == nil) {
		return nil, l.errorf(pp+".attributes", "JOINTS_0 and WEIGHTS_0 must come together")
	}
	l.unusedAttributes(gp.Attributes, pp, m)
	if err := l.targets(&gp, pp, m, n); err != nil {
		return nil, err
	}
	if w := l.doc.Meshes[mi].Weights; w != nil {
		if len(w) != len(m.Targets) {
			return nil, l.errorf(fmt.Sprintf("meshes[%d].weights", mi), "%d weights for %d morph targets", len(w), len(m.Targets))
		}
		m.MorphWeights = w
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
	if m.Tangents == nil && m.Material >= 0 {
		if nt := l.materials[m.Material].NormalTexture; nt != nil {
			// A normal-mapped primitive without TANGENT: generate them from
			// the set the normal texture reads (its texCoord after any
			// KHR_texture_transform override; glTF 2.0 §3.7.2.1).
			set := nt.TexCoord
			if uv := m.TexcoordSet(set); uv != nil {
				c := *m
				c.Texcoords = uv
				if err := c.ComputeTangents(); err != nil {
					return nil, l.errorf(pp, "tangents: %v", err)
				}
				m.Tangents = c.Tangents
			}
		}
	}
	return m, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// unusedAttributes warns about attribute semantics the renderer does not
// read: COLOR_1 and beyond, a second set of joints and weights, and
// application-specific attributes.
func (l *gltfLoader) unusedAttributes(attrs map[string]int, pp string, m *Mesh) {
	var names []string
	for k := range attrs {
		switch {
		case k == "POSITION" || k == "NORMAL" || k == "TANGENT" || k == "COLOR_0" || k == "JOINTS_0" || k == "WEIGHTS_0":
		case strings.HasPrefix(k, "TEXCOORD_"):
			if i, err := strconv.Atoi(k[len("TEXCOORD_"):]); err != nil || i > len(m.ExtraTexcoords) {
				names = append(names, k)
			}
		default:
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		why := "not a semantic the renderer reads"
		switch {
		case strings.HasPrefix(k, "JOINTS_") || strings.HasPrefix(k, "WEIGHTS_"):
			why = "more than four joint influences per vertex are not implemented; skinned with JOINTS_0/WEIGHTS_0 only"
		case strings.HasPrefix(k, "COLOR_"):
			why = "only COLOR_0 is applied"
		case strings.HasPrefix(k, "TEXCOORD_"):
			why = "texture coordinate sets must be consecutive from TEXCOORD_0"
		}
		l.warnf(pp+".attributes."+k, "ignored: %s", why)
	}
}

// targets decodes the primitive's morph targets (POSITION, NORMAL and
// TANGENT displacements, VEC3 each).
func (l *gltfLoader) targets(gp *gltfPrimitive, pp string, m *Mesh, n int64) error {
	for ti, t := range gp.Targets {
		tp := fmt.Sprintf("%s.targets[%d]", pp, ti)
		var mt MorphTarget
		for _, k := range sortedKeys(t) {
			var dst *[]float32
			switch k {
			case "POSITION":
				dst = &mt.Positions
			case "NORMAL":
				dst = &mt.Normals
			case "TANGENT":
				dst = &mt.Tangents
			default:
				l.warnf(tp+"."+k, "morph target attribute not implemented (POSITION, NORMAL and TANGENT are); ignored")
				continue
			}
			v, cnt, err := l.vertexAttribute(t[k], tp+"."+k, "TARGET_"+k, "VEC3")
			if err != nil {
				return err
			}
			if cnt != n {
				return l.errorf(tp+"."+k, "count %d, POSITION has %d", cnt, n)
			}
			*dst = v
		}
		m.Targets = append(m.Targets, mt)
	}
	return nil
}

// vertexAttribute decodes an attribute accessor of type typ and checks its
// component type against the semantic: core glTF's types, and the integer
// types KHR_mesh_quantization adds (decoded in any case; a file that uses
// them without declaring the extension gets a warning).
// spec: glTF 2.0 §3.7.2.1 (attribute component types), KHR_mesh_quantization.
func (l *gltfLoader) vertexAttribute(i int, path, semantic, typ string) ([]float32, int64, error) {
	if i < 0 || i >= len(l.doc.Accessors) {
		return nil, 0, l.errorf(path, "accessor %d out of range (%d accessors)", i, len(l.doc.Accessors))
	}
	a := &l.doc.Accessors[i]
	if componentSize(a.ComponentType) == 0 {
		return l.floatAttribute(i, path, typ) // names the bad component type
	}
	core, quant := attributeTypes(semantic)
	kind := componentKind(a.ComponentType, a.Normalized)
	switch {
	case contains(core, kind):
	case contains(quant, kind):
		if !contains(l.doc.ExtensionsUsed, "KHR_mesh_quantization") {
			l.warnOnce("KHR_mesh_quantization "+semantic, path, "%s is %s, which needs KHR_mesh_quantization (not in extensionsUsed); decoded anyway", semantic, kind)
		}
	default:
		return nil, 0, l.errorf(path, "%s accessor %d has components %s; want %s", semantic, i, kind, strings.Join(append(core, quant...), ", "))
	}
	return l.floatAttribute(i, path, typ)
}

// componentKind names a component type and normalisation, e.g. "float",
// "unsigned byte normalized".
func componentKind(ct int, normalized bool) string {
	s := map[int]string{gltfByte: "byte", gltfUnsignedByte: "unsigned byte", gltfShort: "short",
		gltfUnsignedShort: "unsigned short", gltfUnsignedInt: "unsigned int", gltfFloat: "float"}[ct]
	if s == "" {
		s = fmt.Sprintf("component type %d", ct)
	}
	if normalized {
		s += " normalized"
	}
	return s
}

// attributeTypes returns the component kinds core glTF allows for a
// semantic and those KHR_mesh_quantization adds.
func attributeTypes(semantic string) (core, quant []string) {
	all := []string{"byte", "byte normalized", "unsigned byte", "unsigned byte normalized", "short", "short normalized", "unsigned short", "unsigned short normalized"}
	switch semantic {
	case "POSITION", "TARGET_POSITION":
		return []string{"float"}, all
	case "NORMAL", "TARGET_NORMAL", "TARGET_TANGENT":
		return []string{"float"}, []string{"byte normalized", "short normalized"}
	case "TANGENT":
		return []string{"float"}, []string{"byte normalized", "short normalized"}
	case "COLOR_0", "WEIGHTS_0":
		return []string{"float", "unsigned byte normalized", "unsigned short normalized"}, nil
	case "JOINTS_0":
		return []string{"unsigned byte", "unsigned short"}, nil
	}
	if strings.HasPrefix(semantic, "TEXCOORD_") {
		return []string{"float", "unsigned byte normalized", "unsigned short normalized"}, all
	}
	return []string{"float"}, nil
}

// flatten gives a mesh without normals flat normals: each triangle gets
// its own three vertices carrying the normalised face normal, every other
// per-vertex array (texcoords, tangents, colours, joints, weights, morph
// displacements) copied along.
func flatten(m *Mesh) {
	src := *m
	idx := src.Indices
	unweld := func(a []float32, stride int) []float32 {
		if a == nil {
			return nil
		}
		out := make([]float32, 0, stride*len(idx))
		for _, v := range idx {
			out = append(out, a[stride*int(v):stride*int(v)+stride]...)
		}
		return out
	}
	m.Positions = unweld(src.Positions, 3)
	m.Texcoords = unweld(src.Texcoords, 2)
	m.Tangents = unweld(src.Tangents, 4)
	m.Colors = unweld(src.Colors, 4)
	m.Joints = unweld(src.Joints, 4)
	m.JointWeights = unweld(src.JointWeights, 4)
	m.ExtraTexcoords = nil
	for _, uv := range src.ExtraTexcoords {
		m.ExtraTexcoords = append(m.ExtraTexcoords, unweld(uv, 2))
	}
	m.Targets = nil
	for _, t := range src.Targets {
		m.Targets = append(m.Targets, MorphTarget{Positions: unweld(t.Positions, 3), Tangents: unweld(t.Tangents, 3)})
	}
	m.Indices = make([]uint32, len(idx))
	for i := range m.Indices {
		m.Indices[i] = uint32(i)
	}
	m.Normals = flatNormals(m.Positions, m.Indices)
	m.FlatNormals = true
	if m.Positions == nil {
		m.Positions, m.Normals = []float32{}, []float32{}
	}
	if m.Texcoords == nil && src.Texcoords != nil {
		m.Texcoords = []float32{}
	}
	if m.Tangents == nil && src.Tangents != nil {
		m.Tangents = []float32{}
	}
}
