package scene

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"vortexgfx/gl/blend"
	"vortexgfx/gl/compare"
)

// The material texture slots of the built-in model shader, in uvSlot
// order, with the uniform and texture unit each is bound to.
var modelSlots = [5]struct {
	name, uniform, fallback string
	unit                    int
}{
	{"base_color", "u_base_color_tex", "white", 0},
	{"metallic_roughness", "u_metallic_roughness_tex", "white", 1},
	{"normal", "u_normal_tex", "flat_normal", 4},
	{"occlusion", "u_occlusion_tex", "white", 2},
	{"emissive", "u_emissive_tex", "white", 3},
}

// slotRef returns material texture slot k of mat.
func slotRef(mat *Material, k int) *TextureRef {
	return [5]*TextureRef{mat.BaseColorTexture, mat.MetallicRoughnessTexture, mat.NormalTexture, mat.OcclusionTexture, mat.EmissiveTexture}[k]
}

// MaxModelLights is how many KHR_lights_punctual lights the built-in model
// shader evaluates; a model with more gets a warning and its first ones.
const MaxModelLights = 8

// modelBuiltin resolves the built-in uniforms of a model scene's draw:
// texture-slot coordinate sets and transforms, lights, the fit scale.
func (d *Description) modelBuiltin(dr *Draw, mat *Material, name string, frame int) []float32 {
	for k, s := range modelSlots {
		switch name {
		case s.name + "_uv_set":
			return []float32{float32(dr.uvSlot[k])}
		case s.name + "_uv_transform":
			var x *UVTransform
			if r := slotRef(mat, k); r != nil {
				x = r.Transform
			}
			m := x.Matrix()
			return m[:]
		}
	}
	p := d.Playback
	if p == nil {
		switch name {
		case "fit_scale":
			return []float32{1}
		}
		return nil
	}
	switch name {
	case "fit_scale":
		return []float32{fitScale(p.Fit)}
	case "light_position", "light_direction", "light_color", "light_params":
		return d.lightValues(name, frame)
	}
	return nil
}

// fitScale is the uniform scale of a fitting matrix (its x column's length).
func fitScale(m Mat4) float32 { return Vec3{m[0], m[1], m[2]}.Len() }

// lightNodes returns the nodes holding the scene's lights, in node order,
// at most MaxModelLights.
func (p *Playback) lightNodes() []int {
	var out []int
	for i := range p.Scene.Nodes {
		if p.Scene.Nodes[i].Light >= 0 && len(out) < MaxModelLights {
			out = append(out, i)
		}
	}
	return out
}

// lightValues returns one light uniform array at frame, in world space after
// the fit: positions, directions (where the light shines), colour ×
// intensity, and (type, range in model units, cos inner, cos outer).
// spec: KHR_lights_punctual README (light placement along the node's −z).
func (d *Description) lightValues(name string, frame int) []float32 {
	p := d.Playback
	pose := p.Pose(frame)
	var out []float32
	for _, n := range p.lightNodes() {
		lt := &p.Scene.Lights[p.Scene.Nodes[n].Light]
		w := p.Fit.Mul(pose.World[n])
		switch name {
		case "light_position":
			out = append(out, w[12], w[13], w[14])
		case "light_direction":
			dir := Vec3{-w[8], -w[9], -w[10]}.Normalize()
			out = append(out, dir[0], dir[1], dir[2])
		case "light_color":
			out = append(out, lt.Color[0]*lt.Intensity, lt.Color[1]*lt.Intensity, lt.Color[2]*lt.Intensity)
		case "light_params":
			out = append(out, float32(lt.Type), lt.Range, float32(math.Cos(float64(lt.InnerCone))), float32(math.Cos(float64(lt.OuterCone))))
		}
	}
	return out
}

// ModelOptions select how ModelDescription frames and plays a model.
type ModelOptions struct {
	// FPS is the frame rate of a sequence (default 24): frame f shows the
	// model's animations at f / FPS seconds.
	FPS float64
	// Turntable turns the model 3° per frame about y even when it has an
	// animation (a model without one turns anyway).
	Turntable bool
	// Animation, when > 0, plays only animations[Animation-1]. By default
	// every animation plays together, except one that drives a node
	// property an earlier one already drives: that is an alternative clip
	// (a character's walk and run), left out with a warning naming it.
	Animation int
	// Rest shows the model in its rest pose — the nodes' own transforms and
	// the meshes' default morph weights — with no animation: a still image
	// of the asset as its file places it.
	Rest bool
}

// ModelDescription wraps a mesh file (OBJ, glTF or GLB) in a scene with the
// default ModelOptions; see ModelDescriptionWith.
func ModelDescription(file string, width, height int) (*Description, error) {
	return ModelDescriptionWith(file, width, height, ModelOptions{})
}

// ModelDescriptionWith wraps a mesh file in a scene drawn by the built-in
// glTF metallic-roughness shader (demo/model.vert, demo/pbr.frag, GLSL
// 1.30) with everything the model carries: vertex colours, two texture
// coordinate sets with per-texture KHR_texture_transform, normal maps,
// occlusion and emissive textures, alpha modes, skins (in the vertex
// shader), morph targets, KHR_lights_punctual lights and the model's
// animation played at opts.FPS.
//
// Without a camera in the file the posed model (frame 0) is fitted to the
// [-0.5, 0.5] box, and the camera (45° vertical field of view) looks at its
// bounding sphere from a raised, off-axis direction at the distance that
// keeps the whole sphere in view, so a box shows three faces, uncropped;
// a model without an animation (or with opts.Turntable) turns 3° per frame.
// With a camera (the first camera node in depth-first order) the model is
// drawn as placed and seen through that camera, following its node.
//
// Double-sided materials disable culling; BLEND materials blend with
// src_alpha, one_minus_src_alpha without depth writes and are drawn after
// the others, far to near (Description.DrawOrder); MASK materials discard
// below their cutoff. What the loader leaves out is in Warnings.
func ModelDescriptionWith(file string, width, height int, opts ModelOptions) (*Description, error) {
	scn, err := LoadModel(file)
	if err != nil {
		return nil, err
	}
	if opts.FPS == 0 {
		opts.FPS = 24
	}
	if !(opts.FPS > 0) || math.IsInf(opts.FPS, 0) {
		return nil, fmt.Errorf("%s: fps %g, want > 0", file, opts.FPS)
	}
	d := &Description{Name: file, Width: width, Height: height, MSAA: 1, ClearDepth: 1,
		ClearColor: [4]float32{0.1, 0.11, 0.14, 1}, Warnings: append([]string(nil), scn.Warnings...)}
	p := &Playback{Scene: scn, FPS: opts.FPS, Fit: Identity()}
	switch {
	case opts.Animation < 0 || opts.Animation > len(scn.Animations):
		return nil, fmt.Errorf("%s: animation %d out of range (the file has %d, numbered from 1)", file, opts.Animation, len(scn.Animations))
	case opts.Rest:
	case opts.Animation > 0:
		p.Animations = []int{opts.Animation - 1}
	default:
		p.Animations = compatibleAnimations(scn, file, &d.Warnings)
	}
	anim := len(p.Animations) - 1
	d.Playback = p
	inst := scn.Instances()
	if len(inst) == 0 {
		return nil, fmt.Errorf("%s: places no meshes", file)
	}
	var model Transform
	camNode := firstCameraNode(scn)
	if camNode >= 0 {
		cam := scn.Cameras[scn.Nodes[camNode].Camera]
		if _, ok := scn.WorldMatrices()[camNode].Inverse(); !ok {
			return nil, fmt.Errorf("%s: nodes[%d]: camera transform is singular", file, camNode)
		}
		d.Camera = SceneCamera{
			project: func(aspect float64) Mat4 { return cam.Projection(aspect) },
			viewAt: func(frame int) Mat4 {
				v, ok := p.Pose(frame).World[camNode].Inverse()
				if !ok {
					return Identity()
				}
				return v
			},
		}
	} else {
		lo, hi, ok := p.bounds(inst)
		if !ok {
			return nil, fmt.Errorf("%s: %w", file, ErrEmptyMesh)
		}
		p.Fit = fitBox(lo, hi)
		radius := fitRadius(lo, hi)
		d.Camera = framingCamera(radius, float64(width)/float64(height))
		if anim < 0 || opts.Turntable {
			model = Transform{ops: []transformOp{{rotate: true, axis: Vec3{0, 1, 0}, perFrameDeg: 3}}}
		}
	}
	if n := len(p.lightNodes()); n < countLights(scn) {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: KHR_lights_punctual: %d lit nodes; the model shader evaluates the first %d", file, countLights(scn), n))
	}
	vsSrc, err := demoFS.ReadFile("demo/model.vert")
	if err != nil {
		return nil, err
	}
	fsSrc, err := demoFS.ReadFile("demo/pbr.frag")
	if err != nil {
		return nil, err
	}
	neutral := map[string]*Texture{}
	for _, in := range inst {
		dr, err := modelDraw(file, scn, p, in, model, string(vsSrc), string(fsSrc), neutral, &d.Warnings)
		if err != nil {
			return nil, err
		}
		d.Draws = append(d.Draws, dr)
	}
	return d, nil
}

func countLights(s *Scene) int {
	n := 0
	for i := range s.Nodes {
		if s.Nodes[i].Light >= 0 {
			n++
		}
	}
	return n
}

// modelDraw makes one placed mesh of a model scene into a draw of the
// built-in shader: the shader variant its mesh and material need (as
// #defines), the uniforms, the textures and the state.
func modelDraw(file string, scn *Scene, p *Playback, in Instance, model Transform, vs, fs string,
	neutral map[string]*Texture, warnings *[]string) (Draw, error) {
	m := &scn.Meshes[in.Mesh]
	mat := DefaultMaterial()
	var matp *Material
	if m.Material >= 0 {
		matp = &scn.Materials[m.Material]
		mat = *matp
	}
	name := m.Name
	if name == "" {
		name = filepath.Base(file)
	}
	where := fmt.Sprintf("%s: nodes[%d] (%s)", file, in.Node, name)
	warn := func(format string, args ...any) {
		*warnings = append(*warnings, where+": "+fmt.Sprintf(format, args...))
	}
	defines := map[string]string{}
	// The texture coordinate sets the material reads, mapped onto the
	// shader's two inputs (a_texcoord, a_texcoord1).
	var sets []int
	var slot [5]int
	for k := range modelSlots {
		r := slotRef(&mat, k)
		if r == nil {
			continue
		}
		set := r.TexCoord
		if m.TexcoordSet(set) == nil {
			warn("%s texture reads TEXCOORD_%d, which the mesh does not have; sampled with TEXCOORD_0", modelSlots[k].name, set)
			set = 0
		}
		i := indexOf(sets, set)
		if i < 0 {
			if len(sets) == 2 {
				warn("%s texture reads a third texture coordinate set (TEXCOORD_%d); the model shader has two, so it reads TEXCOORD_%d", modelSlots[k].name, set, sets[0])
				i = 0
			} else {
				sets = append(sets, set)
				i = len(sets) - 1
			}
		}
		slot[k] = i
	}
	mesh := *m
	if len(sets) > 0 {
		mesh.Texcoords = m.TexcoordSet(sets[0])
		mesh.ExtraTexcoords = nil
		if len(sets) > 1 {
			mesh.ExtraTexcoords = [][]float32{m.TexcoordSet(sets[1])}
			defines["HAS_UV1"] = "1"
		}
	}
	if mesh.Colors != nil {
		defines["HAS_COLOR"] = "1"
	}
	if mat.NormalTexture != nil {
		if len(mesh.Tangents) > 0 {
			defines["HAS_NORMAL_MAP"] = "1"
		} else {
			warn("normal texture not applied: the mesh has no tangents and no texture coordinates to make them from")
		}
	}
	skin := -1
	if sk := scn.Nodes[in.Node].Skin; sk >= 0 && m.Skinned() {
		skin = sk
		defines["HAS_SKIN"] = "1"
		defines["JOINT_COUNT"] = strconv.Itoa(len(scn.Skins[sk].Joints))
	}
	if mat.Unlit {
		defines["UNLIT"] = "1"
	}
	if n := len(p.lightNodes()); n > 0 {
		defines["LIGHT_COUNT"] = strconv.Itoa(n)
	}
	b := func(s string) Uniform { return Uniform{Builtin: s} }
	us := map[string]Uniform{
		"u_mvp": b("mvp"), "u_model": b("model"), "u_normal_matrix": b("normal_matrix"),
		"u_camera_pos": b("camera_position"), "u_base_color_factor": b("base_color_factor"),
		"u_metallic_factor": b("metallic_factor"), "u_roughness_factor": b("roughness_factor"),
		"u_emissive_factor": b("emissive_factor"), "u_occlusion_strength": b("occlusion_strength"),
		"u_alpha_cutoff": b("alpha_cutoff"), "u_alpha_mode": b("alpha_mode"),
		"u_ambient": {Value: []float32{0.12, 0.13, 0.15}},
	}
	if defines["LIGHT_COUNT"] == "" {
		us["u_light_dir"] = Uniform{Value: []float32{0.4364358, 0.6546537, 0.6172134}}
		us["u_light_color"] = Uniform{Value: []float32{1.0, 0.96, 0.9}}
	} else {
		for _, s := range []string{"light_position", "light_direction", "light_color", "light_params"} {
			us["u_"+s] = b(s)
		}
		us["u_fit_scale"] = b("fit_scale")
	}
	if skin >= 0 {
		us["u_joints"] = b("joint_matrices")
	}
	if defines["HAS_NORMAL_MAP"] != "" {
		us["u_normal_scale"] = b("normal_scale")
	}
	var texs []TextureBinding
	for k, s := range modelSlots {
		if s.name == "normal" && defines["HAS_NORMAL_MAP"] == "" {
			continue
		}
		us["u_"+s.name+"_uv_set"] = b(s.name + "_uv_set")
		us["u_"+s.name+"_uv_transform"] = b(s.name + "_uv_transform")
		var tex *Texture
		if r := slotRef(&mat, k); r != nil {
			tex = &scn.Textures[r.Texture]
		} else {
			if neutral[s.fallback] == nil {
				neutral[s.fallback] = &Texture{Name: s.fallback, Image: textureGenerators[s.fallback](1), Sampler: DefaultSampler()}
			}
			tex = neutral[s.fallback]
		}
		texs = append(texs, TextureBinding{Uniform: s.uniform, Unit: s.unit, Texture: tex})
	}
	var uniforms []Uniform
	for _, k := range sortedKeys(us) {
		u := us[k]
		u.Name = k
		uniforms = append(uniforms, u)
	}
	state := DefaultPipelineState()
	state.DepthTest, state.DepthFunc, state.Cull = true, compare.Less, CullBack
	if mat.DoubleSided {
		state.Cull = CullNone
	}
	if mat.AlphaMode == AlphaBlend {
		state.Blend = BlendState{Enable: true, SrcRGB: blend.SrcAlpha, DstRGB: blend.OneMinusSrcAlpha, SrcAlpha: blend.One, DstAlpha: blend.OneMinusSrcAlpha}
		state.DepthWrite = false
	}
	dr := Draw{
		Name: name, Mesh: &mesh, Material: matp, Instance: p.Fit.Mul(in.Model), Model: model,
		VertexShader:   ShaderSource{Path: embeddedPrefix + "model.vert", Source: injectDefines(vs, defines)},
		FragmentShader: ShaderSource{Path: embeddedPrefix + "pbr.frag", Source: injectDefines(fs, defines)},
		Uniforms:       uniforms, Textures: texs, State: state,
		drawNode: drawNode{playback: p, node: in.Node, skin: skin, uvSlot: slot},
	}
	return dr, nil
}

func indexOf(list []int, v int) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// compatibleAnimations lists the animations that play together: each one
// whose channels drive no node property an earlier listed one drives.
func compatibleAnimations(s *Scene, file string, warnings *[]string) []int {
	type key struct {
		node int
		path AnimationPath
	}
	driven := map[key]int{}
	var out []int
next:
	for i := range s.Animations {
		a := &s.Animations[i]
		for _, ch := range a.Channels {
			if j, ok := driven[key{ch.Node, ch.Path}]; ok {
				*warnings = append(*warnings, fmt.Sprintf("%s: animations[%d] (%q) drives node %d %s like animations[%d] (%q), so it is an alternative clip: not played (--animation %d plays it)",
					file, i, a.Name, ch.Node, ch.Path, j, s.Animations[j].Name, i+1))
				continue next
			}
		}
		for _, ch := range a.Channels {
			driven[key{ch.Node, ch.Path}] = i
		}
		out = append(out, i)
	}
	return out
}

// bounds is the world-space bounding box of the placed meshes over the
// played animations: the union of the poses at 64 even steps across the
// clip and at every key time (the rest pose when nothing plays).
func (p *Playback) bounds(inst []Instance) (lo, hi Vec3, ok bool) {
	times := []float64{0}
	if d := p.Duration(); d > 0 {
		for k := 1; k <= 64; k++ {
			times = append(times, d*float64(k)/64)
		}
		for _, a := range p.Animations {
			for _, sm := range p.Scene.Animations[a].Samplers {
				for _, t := range sm.Input {
					times = append(times, float64(t))
				}
			}
		}
	}
	for _, t := range times {
		pose := p.Scene.PoseAt(t, p.Animations...)
		l, h, found := posedBounds(p.Scene, &pose, inst)
		if !found {
			continue
		}
		if !ok {
			lo, hi, ok = l, h, true
			continue
		}
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], l[k]), max(hi[k], h[k])
		}
	}
	return lo, hi, ok
}

// posedBounds is the world-space bounding box of every placed mesh in pose
// (morphed, and skinned by its node's skin).
func posedBounds(s *Scene, pose *Pose, inst []Instance) (lo, hi Vec3, ok bool) {
	add := func(p Vec3) {
		if !ok {
			lo, hi, ok = p, p, true
			return
		}
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	for _, in := range inst {
		m := s.Meshes[in.Mesh].Morph(pose.Weights[in.Node])
		if sk := s.Nodes[in.Node].Skin; sk >= 0 && m.Skinned() {
			for _, p := range m.SkinPositions(s.JointMatrices(sk, pose)) {
				add(p)
			}
			continue
		}
		w := pose.World[in.Node]
		for v := range m.VertexCount() {
			add(w.MulPoint(m.Position(v)))
		}
	}
	return lo, hi, ok
}

// fitBox returns S·T(−centre) mapping the box [lo, hi] to one whose longest
// side spans [-0.5, 0.5] (float64 arithmetic, as the bench's fit).
func fitBox(lo, hi Vec3) Mat4 {
	ext := math.Max(float64(hi[0]-lo[0]), math.Max(float64(hi[1]-lo[1]), float64(hi[2]-lo[2])))
	sc := 1.0
	if ext > 0 {
		sc = 1 / ext
	}
	t := Translate(-(lo[0]+hi[0])/2, -(lo[1]+hi[1])/2, -(lo[2]+hi[2])/2)
	return ScaleMat(float32(sc), float32(sc), float32(sc)).Mul(t)
}

// fitRadius is the radius of the fitted box's bounding sphere (half its
// diagonal after the fit's scale).
func fitRadius(lo, hi Vec3) float64 {
	d := hi.Sub(lo)
	ext := math.Max(float64(d[0]), math.Max(float64(d[1]), float64(d[2])))
	if ext == 0 {
		return 0.5
	}
	return float64(d.Len()) / 2 / ext
}

// The framing camera: 45° vertical field of view, looking at the origin
// from the direction (0.55, 0.45, 1) — raised and to the right, so the
// three faces of a box facing +x, +y and +z are all in view.
const modelYFovDeg = 45

var modelViewDir = Vec3{0.55, 0.45, 1}.Normalize()

// framingCamera places the camera so that a sphere of radius r about the
// origin fits the narrower field of view with a 10% margin:
// distance = 1.1·r / sin(half the narrower angle).
func framingCamera(r, aspect float64) SceneCamera {
	half := Radians(modelYFovDeg) / 2
	if aspect < 1 {
		half = math.Atan(math.Tan(half) * aspect)
	}
	dist := 1.1 * r / math.Sin(half)
	near, far := math.Max(dist-2*r, dist*0.01), dist+2*r
	eye := modelViewDir.Scale(float32(dist))
	view := LookAt(eye, Vec3{}, Vec3{0, 1, 0})
	return SceneCamera{
		project: func(a float64) Mat4 { return Perspective(Radians(modelYFovDeg), a, near, far) },
		view:    Transform{ops: []transformOp{{m: view}}},
	}
}
