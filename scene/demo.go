package scene

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

//go:embed demo/demo.json demo/lit.vert demo/blinn.frag demo/pbr.frag
var demoFS embed.FS

// DemoSceneFile is the embedded demo scene's path inside DemoFiles.
const DemoSceneFile = "demo/demo.json"

// DemoFiles returns the embedded files (the demo scene JSON, its GLSL 1.30
// shaders and the built-in PBR shader), for tools that show or copy them.
func DemoFiles() embed.FS { return demoFS }

// Demo returns the embedded demo scene: a procedurally generated torus knot
// with a generated brick texture, lit by a textured Blinn-Phong shader
// (GLSL 1.30), 640×480 with 4× MSAA, turning 3° per frame.
func Demo() (*Description, error) {
	data, err := demoFS.ReadFile(DemoSceneFile)
	if err != nil {
		return nil, err
	}
	read := func(rel string) ([]byte, error) { return demoFS.ReadFile(path.Join("demo", rel)) }
	return ParseDescription(data, DemoSceneFile, read)
}

// embeddedPrefix marks scene-file paths served from the embedded files.
const embeddedPrefix = "embedded:"

// ModelDescription wraps a mesh file (OBJ, glTF or GLB) in a scene: the
// model fitted to [-0.5, 0.5] as the bench does, seen by a 45° perspective
// camera from (0, 0.35, 1.6), turning 3° per frame about y, drawn with the
// built-in metallic-roughness shader (demo/pbr.frag, GLSL 1.30) and its
// material's textures (1×1 neutral textures where it has none). Double-sided
// materials disable culling; BLEND materials blend with src_alpha,
// one_minus_src_alpha. When the file has a camera (the first camera node in
// depth-first order from the scene's roots), the model is drawn as placed,
// not fitted or turned, and seen through that camera.
func ModelDescription(file string, width, height int) (*Description, error) {
	dir := filepath.Dir(file)
	read := func(rel string) ([]byte, error) {
		if name, ok := strings.CutPrefix(rel, embeddedPrefix); ok {
			return demoFS.ReadFile(path.Join("demo", name))
		}
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	}
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	tex := func(uniform, slot string, unit int) textureJSON {
		return textureJSON{Uniform: uniform, Unit: &unit, Material: slot}
	}
	yes := true
	fj := &fileJSON{
		Width: width, Height: height, MSAA: 1,
		Clear: &clearJSON{Color: []float32{0.1, 0.11, 0.14, 1}},
		Camera: cameraJSON{
			Projection: "perspective", YFovDeg: 45, Near: 0.05, Far: 20,
			LookAt: &lookAtJSON{Eye: []float32{0, 0.35, 1.6}, Target: []float32{0, 0, 0}, Up: []float32{0, 1, 0}},
		},
		Draws: []drawJSON{{
			Name:           filepath.Base(file),
			Mesh:           meshJSON{File: filepath.ToSlash(filepath.Base(file)), Fit: true},
			Model:          []opJSON{{RotateYDeg: new(float64), PerFrameDeg: 3}},
			VertexShader:   embeddedPrefix + "lit.vert",
			FragmentShader: embeddedPrefix + "pbr.frag",
			Uniforms: map[string]json.RawMessage{
				"u_mvp": raw(`"mvp"`), "u_model": raw(`"model"`), "u_normal_matrix": raw(`"normal_matrix"`),
				"u_camera_pos": raw(`"camera_position"`), "u_base_color_factor": raw(`"base_color_factor"`),
				"u_metallic_factor": raw(`"metallic_factor"`), "u_roughness_factor": raw(`"roughness_factor"`),
				"u_emissive_factor": raw(`"emissive_factor"`), "u_occlusion_strength": raw(`"occlusion_strength"`),
				"u_alpha_cutoff": raw(`"alpha_cutoff"`), "u_alpha_mode": raw(`"alpha_mode"`),
				"u_light_dir": raw(`[0.4364358, 0.6546537, 0.6172134]`), "u_light_color": raw(`[1.0, 0.96, 0.9]`),
				"u_ambient": raw(`[0.12, 0.13, 0.15]`),
			},
			Textures: []textureJSON{
				tex("u_base_color_tex", "base_color", 0), tex("u_metallic_roughness_tex", "metallic_roughness", 1),
				tex("u_occlusion_tex", "occlusion", 2), tex("u_emissive_tex", "emissive", 3),
			},
			State: stateJSON{DepthTest: &yes, DepthFunc: "less", Cull: "back"},
		}},
	}
	l := newDescLoader(read)
	scn, _, err := l.meshScene(fj.Draws[0].Mesh, "model")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	camNode := firstCameraNode(scn)
	if camNode >= 0 {
		fj.Draws[0].Mesh.Fit = false
		fj.Draws[0].Model = nil
	}
	d, err := buildDescriptionWith(fj, file, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if camNode >= 0 {
		view, ok := scn.WorldMatrices()[camNode].Inverse()
		if !ok {
			return nil, fmt.Errorf("%s: nodes[%d]: camera transform is singular", file, camNode)
		}
		cam := scn.Cameras[scn.Nodes[camNode].Camera]
		d.Camera = SceneCamera{
			project: func(aspect float64) Mat4 { return cam.Projection(aspect) },
			view:    Transform{ops: []transformOp{{m: view}}},
		}
	}
	for i := range d.Draws {
		dr := &d.Draws[i]
		if dr.Material == nil {
			continue
		}
		if dr.Material.DoubleSided {
			dr.State.Cull = CullNone
		}
		if dr.Material.AlphaMode == AlphaBlend {
			dr.State.Blend = BlendState{Enable: true, SrcRGB: BlendSrcAlpha, DstRGB: BlendOneMinusSrcAlpha, SrcAlpha: BlendOne, DstAlpha: BlendOneMinusSrcAlpha}
		}
	}
	return d, nil
}

// firstCameraNode returns the first node with a camera in depth-first order
// from the roots, or -1.
func firstCameraNode(s *Scene) int {
	var visit func(n int) int
	visit = func(n int) int {
		if s.Nodes[n].Camera >= 0 {
			return n
		}
		for _, c := range s.Nodes[n].Children {
			if f := visit(c); f >= 0 {
				return f
			}
		}
		return -1
	}
	for _, r := range s.Roots {
		if f := visit(r); f >= 0 {
			return f
		}
	}
	return -1
}

// LoadModel loads a mesh file by its extension: .obj with LoadOBJ, .gltf
// and .glb with LoadGLTF.
func LoadModel(file string) (*Scene, error) {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".obj":
		return LoadOBJ(file)
	case ".gltf", ".glb":
		return LoadGLTF(file)
	}
	return nil, fmt.Errorf("%s: not a mesh file (want .obj, .gltf or .glb)", file)
}
