package scene

import (
	"fmt"
	"image"
	"math"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// descLoader caches the files one scene file refers to.
type descLoader struct {
	read   ReadFunc
	meshes map[string]*Scene
	files  map[string][]byte
	images map[string]*image.NRGBA
	// warnings collects the loaded mesh files' Scene.Warnings, once per file.
	warnings []string
}

func newDescLoader(read ReadFunc) *descLoader {
	return &descLoader{read: read, meshes: map[string]*Scene{}, files: map[string][]byte{}, images: map[string]*image.NRGBA{}}
}

// image returns a decoded or generated image, once per source.
func (l *descLoader) image(key string, make func() (*image.NRGBA, error)) (*image.NRGBA, error) {
	if img, ok := l.images[key]; ok {
		return img, nil
	}
	img, err := make()
	if err != nil {
		return nil, err
	}
	l.images[key] = img
	return img, nil
}

func (l *descLoader) file(rel string) ([]byte, error) {
	if b, ok := l.files[rel]; ok {
		return b, nil
	}
	if l.read == nil {
		return nil, fmt.Errorf("no file access for %q", rel)
	}
	b, err := l.read(rel)
	if err != nil {
		return nil, err
	}
	l.files[rel] = b
	return b, nil
}

// sub returns a ReadFunc relative to the directory of rel.
func (l *descLoader) sub(rel string) ReadFunc {
	dir := path.Dir(rel)
	return func(name string) ([]byte, error) {
		if path.IsAbs(name) || filepath.IsAbs(name) {
			return l.file(name)
		}
		return l.file(path.Join(dir, name))
	}
}

// meshScene loads a mesh file (OBJ, glTF, GLB by extension) or a generator.
func (l *descLoader) meshScene(m meshJSON, p string) (*Scene, string, error) {
	switch {
	case m.File != "" && m.Generator != "":
		return nil, "", fmt.Errorf("%s: give file or generator, not both", p)
	case m.Generator != "":
		key := "generator:" + m.Generator
		if s, ok := l.meshes[key]; ok {
			return s, key, nil
		}
		g, ok := GenerateMesh(m.Generator)
		if !ok {
			return nil, "", fmt.Errorf("%s.generator: %q is not one of %s", p, m.Generator, strings.Join(MeshGenerators(), ", "))
		}
		s := SingleMeshScene([]Mesh{*g}, nil, nil)
		l.meshes[key] = s
		return s, key, nil
	case m.File != "":
		if s, ok := l.meshes[m.File]; ok {
			return s, m.File, nil
		}
		data, err := l.file(m.File)
		if err != nil {
			return nil, "", fmt.Errorf("%s.file: %w", p, err)
		}
		var s *Scene
		switch strings.ToLower(path.Ext(m.File)) {
		case ".obj":
			s, err = DecodeOBJ(strings.NewReader(string(data)), m.File, l.sub(m.File))
		case ".gltf", ".glb":
			s, err = DecodeGLTF(data, m.File, l.sub(m.File))
		default:
			return nil, "", fmt.Errorf("%s.file: %q: want .obj, .gltf or .glb", p, m.File)
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s.file: %w", p, err)
		}
		l.meshes[m.File] = s
		l.warnings = append(l.warnings, s.Warnings...)
		return s, m.File, nil
	}
	return nil, "", fmt.Errorf("%s: give file or generator", p)
}

// injectDefines inserts "#define NAME VALUE" lines (sorted by name) after
// the #version line, or at the top when there is none.
func injectDefines(src string, defines map[string]string) string {
	if len(defines) == 0 {
		return src
	}
	names := make([]string, 0, len(defines))
	for k := range defines {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "#define %s %s\n", n, defines[n])
	}
	trimmed := strings.TrimLeft(src, " \t\r\n")
	if strings.HasPrefix(trimmed, "#version") {
		head := len(src) - len(trimmed)
		nl := strings.IndexByte(trimmed, '\n')
		if nl < 0 {
			return src + "\n" + b.String()
		}
		return src[:head+nl+1] + b.String() + trimmed[nl+1:]
	}
	return b.String() + src
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (l *descLoader) shader(rel, field, p string, defines map[string]string) (ShaderSource, error) {
	if rel == "" {
		return ShaderSource{}, fmt.Errorf("%s.%s: missing", p, field)
	}
	b, err := l.file(rel)
	if err != nil {
		return ShaderSource{}, fmt.Errorf("%s.%s: %w", p, field, err)
	}
	return ShaderSource{Path: rel, Source: injectDefines(string(b), defines)}, nil
}

// materialTextures maps a texture's "material" source to the material
// slot and the 1×1 fallback used when the material has no such texture.
var materialTextures = map[string]string{
	"base_color": "white", "metallic_roughness": "white", "occlusion": "white",
	"emissive": "white", "normal": "flat_normal",
}

func (l *descLoader) texture(t textureJSON, i int, p string, scn *Scene, mat *Material) (TextureBinding, error) {
	tp := fmt.Sprintf("%s.textures[%d]", p, i)
	tb := TextureBinding{Uniform: t.Uniform, Unit: i}
	if !validIdent(t.Uniform) {
		return tb, fmt.Errorf("%s.uniform: %q is not a GLSL identifier", tp, t.Uniform)
	}
	if t.Unit != nil {
		tb.Unit = *t.Unit
	}
	if tb.Unit < 0 || tb.Unit > 31 {
		return tb, fmt.Errorf("%s.unit: %d, want 0..31", tp, tb.Unit)
	}
	n := 0
	for _, s := range []string{t.File, t.Generator, t.Material} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return tb, fmt.Errorf("%s: give exactly one of file, generator, material", tp)
	}
	if t.Size != 0 && t.Generator == "" {
		return tb, fmt.Errorf("%s.size: only with generator", tp)
	}
	tex := &Texture{Sampler: DefaultSampler()}
	switch {
	case t.File != "":
		img, err := l.image("file:"+t.File, func() (*image.NRGBA, error) {
			b, err := l.file(t.File)
			if err != nil {
				return nil, err
			}
			return DecodeImage(b, t.File)
		})
		if err != nil {
			return tb, fmt.Errorf("%s.file: %w", tp, err)
		}
		tex.Name, tex.Image = t.File, img
	case t.Generator != "":
		g, ok := textureGenerators[t.Generator]
		if !ok {
			var names []string
			for k := range textureGenerators {
				names = append(names, k)
			}
			sort.Strings(names)
			return tb, fmt.Errorf("%s.generator: %q is not one of %s", tp, t.Generator, strings.Join(names, ", "))
		}
		size := t.Size
		if size == 0 {
			size = 256
		}
		if size < 1 || size > 4096 {
			return tb, fmt.Errorf("%s.size: %d, want 1..4096", tp, size)
		}
		img, _ := l.image(fmt.Sprintf("generator:%s:%d", t.Generator, size), func() (*image.NRGBA, error) { return g(size), nil })
		tex.Name, tex.Image = t.Generator, img
	default:
		fallback, ok := materialTextures[t.Material]
		if !ok {
			return tb, fmt.Errorf("%s.material: %q is not one of base_color, metallic_roughness, normal, occlusion, emissive", tp, t.Material)
		}
		var ref *TextureRef
		if mat != nil {
			ref = map[string]*TextureRef{
				"base_color": mat.BaseColorTexture, "metallic_roughness": mat.MetallicRoughnessTexture,
				"normal": mat.NormalTexture, "occlusion": mat.OcclusionTexture, "emissive": mat.EmissiveTexture,
			}[t.Material]
		}
		if ref != nil {
			*tex = scn.Textures[ref.Texture]
		} else {
			tex.Name, tex.Image = fallback, textureGenerators[fallback](1)
		}
	}
	var err error
	if tex.Sampler.WrapS, err = parseNamed(wrapNames, t.WrapS, tex.Sampler.WrapS); err != nil {
		return tb, fmt.Errorf("%s.wrap_s: %w", tp, err)
	}
	if tex.Sampler.WrapT, err = parseNamed(wrapNames, t.WrapT, tex.Sampler.WrapT); err != nil {
		return tb, fmt.Errorf("%s.wrap_t: %w", tp, err)
	}
	if tex.Sampler.MinFilter, err = parseNamed(filterNames, t.MinFilter, tex.Sampler.MinFilter); err != nil {
		return tb, fmt.Errorf("%s.min_filter: %w", tp, err)
	}
	if tex.Sampler.MagFilter, err = parseNamed(filterNames, t.MagFilter, tex.Sampler.MagFilter); err != nil {
		return tb, fmt.Errorf("%s.mag_filter: %w", tp, err)
	}
	if tex.Sampler.MagFilter.Mipmapped() {
		return tb, fmt.Errorf("%s.mag_filter: %s is not nearest or linear", tp, tex.Sampler.MagFilter)
	}
	tb.Texture = tex
	return tb, nil
}

// fitMatrix returns S·T(-centre) mapping the world-space bounding box of
// the instances to a box whose longest side spans [-0.5, 0.5].
func fitMatrix(s *Scene, inst []Instance) (Mat4, bool) {
	var lo, hi [3]float64
	found := false
	for _, in := range inst {
		m := &s.Meshes[in.Mesh]
		for v := 0; v < m.VertexCount(); v++ {
			p := in.Model.MulPoint(m.Position(v))
			for k := 0; k < 3; k++ {
				x := float64(p[k])
				if !found || x < lo[k] {
					lo[k] = x
				}
				if !found || x > hi[k] {
					hi[k] = x
				}
			}
			found = true
		}
	}
	if !found {
		return Identity(), false
	}
	ext := math.Max(hi[0]-lo[0], math.Max(hi[1]-lo[1], hi[2]-lo[2]))
	sc := 1.0
	if ext > 0 {
		sc = 1 / ext
	}
	t := Translate(float32(-(lo[0]+hi[0])/2), float32(-(lo[1]+hi[1])/2), float32(-(lo[2]+hi[2])/2))
	return ScaleMat(float32(sc), float32(sc), float32(sc)).Mul(t), true
}

func (l *descLoader) draw(dj *drawJSON, p string) ([]Draw, error) {
	scn, key, err := l.meshScene(dj.Mesh, p+".mesh")
	if err != nil {
		return nil, err
	}
	inst := scn.Instances()
	if len(inst) == 0 {
		return nil, fmt.Errorf("%s.mesh: %s places no meshes", p, key)
	}
	meshes := make([]*Mesh, len(scn.Meshes))
	for i := range scn.Meshes {
		meshes[i] = &scn.Meshes[i]
	}
	// A scene file's draw is static: a morphed mesh is drawn with the rest
	// pose's weights (of the first node placing it), blended before any fit.
	rest := scn.PoseAt(0)
	for _, in := range inst {
		if m := meshes[in.Mesh]; m == &scn.Meshes[in.Mesh] && m.Morphed() {
			meshes[in.Mesh] = m.Morph(rest.Weights[in.Node])
		}
	}
	fit := Identity()
	if dj.Mesh.Fit {
		identity := true
		for _, in := range inst {
			identity = identity && in.Model == Identity()
		}
		if identity {
			// Bake the fit into copies of the positions, exactly as the
			// bench README's loader does (float64, rounded once).
			var ms []*Mesh
			for i := range meshes {
				c := *meshes[i]
				c.Positions = append([]float32(nil), c.Positions...)
				meshes[i] = &c
				ms = append(ms, &c)
			}
			if err := FitMeshes(ms); err != nil {
				return nil, fmt.Errorf("%s.mesh: %w", p, err)
			}
		} else if m, ok := fitMatrix(scn, inst); ok {
			fit = m
		}
	}
	model, err := parseOps(dj.Model, p+".model")
	if err != nil {
		return nil, err
	}
	for k := range dj.Defines {
		if !validIdent(k) {
			return nil, fmt.Errorf("%s.defines: %q is not a macro name", p, k)
		}
		if strings.ContainsAny(dj.Defines[k], "\n\r") {
			return nil, fmt.Errorf("%s.defines.%s: value has a line break", p, k)
		}
	}
	vs, err := l.shader(dj.VertexShader, "vertex_shader", p, dj.Defines)
	if err != nil {
		return nil, err
	}
	fs, err := l.shader(dj.FragmentShader, "fragment_shader", p, dj.Defines)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(dj.Uniforms))
	for k := range dj.Uniforms {
		names = append(names, k)
	}
	sort.Strings(names)
	var uniforms []Uniform
	for _, n := range names {
		if !validIdent(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(n, ".", "_"), "[", "_"), "]", "_")) {
			return nil, fmt.Errorf("%s.uniforms: %q is not a uniform name", p, n)
		}
		u, err := parseUniform(n, dj.Uniforms[n], p+".uniforms")
		if err != nil {
			return nil, err
		}
		uniforms = append(uniforms, u)
	}
	state, err := parseState(dj.State, p+".state")
	if err != nil {
		return nil, err
	}
	var out []Draw
	for _, in := range inst {
		m := meshes[in.Mesh]
		var mat *Material
		if m.Material >= 0 {
			mat = &scn.Materials[m.Material]
		}
		dr := Draw{
			Name: dj.Name, Mesh: m, Material: mat, Instance: fit.Mul(in.Model), Model: model,
			VertexShader: vs, FragmentShader: fs, Uniforms: uniforms, State: state,
		}
		if dr.Name == "" {
			dr.Name = key
		}
		units := map[int]bool{}
		samplers := map[string]bool{}
		for ti, tj := range dj.Textures {
			tb, err := l.texture(tj, ti, p, scn, mat)
			if err != nil {
				return nil, err
			}
			if units[tb.Unit] || samplers[tb.Uniform] {
				return nil, fmt.Errorf("%s.textures[%d]: unit %d or uniform %s used twice", p, ti, tb.Unit, tb.Uniform)
			}
			if _, clash := dj.Uniforms[tb.Uniform]; clash {
				return nil, fmt.Errorf("%s.textures[%d].uniform: %s is also in uniforms", p, ti, tb.Uniform)
			}
			units[tb.Unit], samplers[tb.Uniform] = true, true
			dr.Textures = append(dr.Textures, tb)
		}
		out = append(out, dr)
	}
	return out, nil
}
