package scene

import (
	"fmt"
	"os"
	"path/filepath"
)

// Description is a loaded scene file: everything a renderer needs to
// produce one image (or a sequence of frames) reproducibly.
// The file format is in the package doc ("Scene files").
type Description struct {
	Name          string
	Width, Height int
	// MSAA is the sample count: 1, 2, 4, 8 or 16.
	MSAA         int
	ClearColor   [4]float32
	ClearDepth   float32
	ClearStencil uint8
	Camera       SceneCamera
	// Draws are in submission order; a mesh file with several meshes or
	// nodes yields one Draw per placed mesh, in depth-first node order.
	// DrawOrder gives a frame's order (blended draws last, far to near).
	Draws []Draw
	// Playback is set for a model scene (ModelDescription): the scene graph
	// and animation the frames follow. Nil for a scene file.
	Playback *Playback
	// Warnings name what the loaders left out of the scene (Scene.Warnings).
	Warnings []string
}

// ShaderSource is a GLSL source with its scene-file path.
type ShaderSource struct {
	Path   string
	Source string
}

// TextureBinding binds a texture and its sampler to a sampler uniform and unit.
type TextureBinding struct {
	Uniform string
	Unit    int
	Texture *Texture
}

// Draw is one draw call of a scene: a mesh (attribute locations 0, 1, 2 as
// the package doc says), shaders with the file's defines already inserted
// after #version, uniforms, textures and pipeline state.
type Draw struct {
	Name string
	Mesh *Mesh
	// Material is the mesh's material from its file, or nil.
	Material *Material
	// Instance is the mesh's placement inside its file (node world matrix
	// and, for "fit" with node transforms, the fitting transform).
	Instance       Mat4
	Model          Transform
	VertexShader   ShaderSource
	FragmentShader ShaderSource
	Uniforms       []Uniform
	Textures       []TextureBinding
	State          PipelineState
	drawNode
}

// Projection returns the camera's projection for the description's
// current Width and Height (a tool may change them, e.g. --size).
func (d *Description) Projection() Mat4 { return d.Camera.Projection(d.Width, d.Height) }

// UniformValue is a resolved uniform: 1-4, 9 (mat3) or 16 (mat4) floats,
// matrices column-major.
type UniformValue struct {
	Name  string
	Value []float32
}

// UniformValues resolves draw di's uniforms at frame, built-ins included,
// in name order.
func (d *Description) UniformValues(di, frame int) []UniformValue {
	dr := &d.Draws[di]
	model := dr.ModelMatrix(frame)
	view := d.Camera.View(frame)
	proj := d.Projection()
	mat := DefaultMaterial()
	if dr.Material != nil {
		mat = *dr.Material
	}
	texScale := func(r *TextureRef) float32 {
		if r == nil {
			return 1
		}
		return r.Scale
	}
	out := make([]UniformValue, 0, len(dr.Uniforms))
	for _, u := range dr.Uniforms {
		var v []float32
		switch u.Builtin {
		case "":
			v = u.Value
		case "mvp":
			m := proj.Mul(view).Mul(model)
			v = m[:]
		case "model":
			v = model[:]
		case "view":
			v = view[:]
		case "projection":
			v = proj[:]
		case "model_view":
			m := view.Mul(model)
			v = m[:]
		case "view_projection":
			m := proj.Mul(view)
			v = m[:]
		case "normal_matrix":
			m := model.NormalMatrix()
			v = m[:]
		case "camera_position":
			inv, ok := view.Inverse()
			if !ok {
				inv = Identity()
			}
			v = []float32{inv[12], inv[13], inv[14]}
		case "viewport":
			v = []float32{float32(d.Width), float32(d.Height)}
		case "frame":
			v = []float32{float32(frame)}
		case "base_color_factor":
			v = mat.BaseColorFactor[:]
		case "metallic_factor":
			v = []float32{mat.MetallicFactor}
		case "roughness_factor":
			v = []float32{mat.RoughnessFactor}
		case "emissive_factor":
			e := mat.EmissiveFactor
			for k := range e {
				e[k] *= mat.EmissiveStrength
			}
			v = e[:]
		case "alpha_cutoff":
			v = []float32{mat.AlphaCutoff}
		case "alpha_mode":
			v = []float32{float32(mat.AlphaMode)}
		case "normal_scale":
			v = []float32{texScale(mat.NormalTexture)}
		case "occlusion_strength":
			v = []float32{texScale(mat.OcclusionTexture)}
		case "joint_matrices":
			for _, j := range dr.JointMatrices(frame) {
				v = append(v, j[:]...)
			}
		default:
			v = d.modelBuiltin(dr, &mat, u.Builtin, frame)
		}
		out = append(out, UniformValue{Name: u.Name, Value: append([]float32(nil), v...)})
	}
	return out
}

// LoadDescription reads a scene file; meshes, shaders and textures are
// named relative to it.
func LoadDescription(file string) (*Description, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("scene: %w", err)
	}
	return ParseDescription(data, file, DirReader(filepath.Dir(file)))
}

// ParseDescription parses and validates a scene file named name and loads
// everything it refers to through read (paths relative to the scene file,
// slash-separated). Unknown JSON fields are errors; every error names the
// file and the JSON path.
func ParseDescription(data []byte, name string, read ReadFunc) (*Description, error) {
	var fj fileJSON
	if err := decodeStrict(data, &fj); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d, err := buildDescription(&fj, name, read)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

func buildDescription(fj *fileJSON, name string, read ReadFunc) (*Description, error) {
	return buildDescriptionWith(fj, name, newDescLoader(read))
}

func buildDescriptionWith(fj *fileJSON, name string, l *descLoader) (*Description, error) {
	d := &Description{Name: name, Width: fj.Width, Height: fj.Height, MSAA: fj.MSAA, ClearDepth: 1}
	if d.Width < 1 || d.Width > 16384 || d.Height < 1 || d.Height > 16384 {
		return nil, fmt.Errorf("width, height: %d×%d, want 1..16384 each", d.Width, d.Height)
	}
	switch d.MSAA {
	case 0:
		d.MSAA = 1
	case 1, 2, 4, 8, 16:
	default:
		return nil, fmt.Errorf("msaa: %d, want 1, 2, 4, 8 or 16", d.MSAA)
	}
	if c := fj.Clear; c != nil {
		if c.Color != nil {
			if len(c.Color) != 4 || !finite32(c.Color) {
				return nil, fmt.Errorf("clear.color: want 4 finite numbers, got %d", len(c.Color))
			}
			copy(d.ClearColor[:], c.Color)
		}
		if c.Depth != nil {
			if !(*c.Depth >= 0 && *c.Depth <= 1) {
				return nil, fmt.Errorf("clear.depth: %g, want in [0, 1]", *c.Depth)
			}
			d.ClearDepth = *c.Depth
		}
		if c.Stencil != nil {
			if *c.Stencil < 0 || *c.Stencil > 255 {
				return nil, fmt.Errorf("clear.stencil: %d, want 0..255", *c.Stencil)
			}
			d.ClearStencil = uint8(*c.Stencil)
		}
	}
	var err error
	if d.Camera, err = parseCamera(fj.Camera); err != nil {
		return nil, err
	}
	for i := range fj.Draws {
		draws, err := l.draw(&fj.Draws[i], fmt.Sprintf("draws[%d]", i))
		if err != nil {
			return nil, err
		}
		d.Draws = append(d.Draws, draws...)
	}
	d.Warnings = l.warnings
	return d, nil
}
