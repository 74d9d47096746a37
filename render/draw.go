package render

import (
	"fmt"
	"math"
	"strings"

	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/scene"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// drawObj is one scene draw as render prepares it: its compiled program (the
// uniform and attribute layout render fills), the vertex words, the triangle
// list and the counters. The driver state it becomes is a pipeDraw.
type drawObj struct {
	index     int
	name      string
	prog      *program.Program
	in        ref.VertexInput
	triangles int
	uniforms  map[string]*uniformDst
	indices   []uint32 // the mesh's triangle list, for the host-side counters
	binds     []vertexBind

	// counters (Options.Stats / Options.Heatmap)
	vcount *countingVS
	fcount *countingFS
}

// attribute locations of the scene convention (package scene's doc,
// "Vertex attributes"): position 0, normal 1, texcoord 2, tangent 3,
// colour 4, second texcoord set 5, joints 6, joint weights 7.
var attribNames = [...]string{"a_position", "a_normal", "a_texcoord", "a_tangent", "a_color", "a_texcoord1", "a_joints", "a_weights"}

// vertexBind is one vertex shader input: its words in the vertex record and
// the scene attribute location it reads.
type vertexBind struct{ word, words, loc int }

// compileErr names the step of a draw's shader.Compile failure: which shader
// did not compile, or the pair that did not link or lower.
func compileErr(where string, sd *scene.Draw, err error) error {
	e, ok := err.(*shader.Error)
	if !ok {
		return fmt.Errorf("%s: %w", where, err)
	}
	vs, fs := sd.VertexShader.Path, sd.FragmentShader.Path
	switch {
	case e.Phase == shader.PhaseCompile && e.Source == 0:
		return fmt.Errorf("%s: vertex shader %s: %w", where, vs, e.Err)
	case e.Phase == shader.PhaseCompile:
		return fmt.Errorf("%s: fragment shader %s: %w", where, fs, e.Err)
	case e.Phase == shader.PhaseLink:
		return fmt.Errorf("%s: link %s + %s: %w", where, vs, fs, e.Err)
	}
	return fmt.Errorf("%s: lower %s + %s: %w", where, vs, fs, e.Err)
}

func (r *Renderer) prepareDraw(di int) (*drawObj, error) {
	sd := &r.desc.Draws[di]
	name := sd.Name
	if name == "" {
		name = fmt.Sprintf("draw %d", di)
	}
	where := fmt.Sprintf("render: draw %d (%s)", di, name)
	if sd.Mesh == nil {
		return nil, fmt.Errorf("%s: no mesh", where)
	}
	if err := sd.Mesh.Validate(); err != nil {
		return nil, fmt.Errorf("%s: mesh: %w", where, err)
	}
	cp, err := shader.Compile(
		shader.Source{Name: sd.VertexShader.Path, Stage: glsl.Vertex, Text: sd.VertexShader.Source},
		shader.Source{Name: sd.FragmentShader.Path, Stage: glsl.Fragment, Text: sd.FragmentShader.Source})
	if err != nil {
		return nil, compileErr(where, sd, err)
	}
	// render's own lowering gives the layouts it fills (uniform words,
	// attribute words, sampler units); the driver compiles and runs the
	// program itself.
	p, err := program.New(cp, program.Config{})
	if err != nil {
		return nil, fmt.Errorf("%s: lower %s + %s: %w", where, sd.VertexShader.Path, sd.FragmentShader.Path, err)
	}
	d := &drawObj{index: di, name: name, prog: p, triangles: sd.Mesh.TriangleCount(), indices: sd.Mesh.Indices}
	if err := r.vertexInput(d, sd.Mesh, sd.VertexShader.Path); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	for _, tb := range sd.Textures {
		if tb.Texture == nil || tb.Texture.Image == nil {
			return nil, fmt.Errorf("%s: texture %s: no image", where, tb.Uniform)
		}
		if tb.Unit < 0 || tb.Unit > 31 {
			return nil, fmt.Errorf("%s: texture %s: unit %d outside 0..31", where, tb.Uniform, tb.Unit)
		}
	}
	if d.uniforms, err = r.resolveUniforms(d, di); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return d, nil
}

// vertexInput matches the vertex program's inputs with the scene's
// attribute locations and lays the mesh out as its input words.
func (r *Renderer) vertexInput(d *drawObj, m *scene.Mesh, vsPath string) error {
	p := d.prog
	d.binds = d.binds[:0]
	for _, s := range p.IR.VS.Inputs {
		if s.Name == "gl_VertexID" || s.Name == "gl_InstanceID" {
			continue
		}
		loc := s.Location
		if loc < 0 {
			for i, n := range attribNames {
				if n == s.Name {
					loc = i
				}
			}
		}
		if loc < 0 || loc >= len(attribNames) {
			return fmt.Errorf("vertex shader %s: attribute %s: no mesh data at location %d (%s)", vsPath, s.Name, s.Location, attribList())
		}
		d.binds = append(d.binds, vertexBind{s.Word, s.Words, loc})
	}
	d.in = ref.VertexInput{Words: p.AttribWords(), Data: d.layVertices(m, nil)}
	return nil
}

func attribList() string {
	var b strings.Builder
	for i, n := range attribNames {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", i, n)
	}
	return b.String()
}

// layVertices writes the mesh's attributes as the program's input words
// into dst (reallocated when too short): per vertex and input the scene
// attribute at its location, GL's (0, 0, 0, 1) filling missing components,
// white for a mesh without colours.
func (d *drawObj) layVertices(m *scene.Mesh, dst []uint32) []uint32 {
	words := d.prog.AttribWords()
	n := m.VertexCount()
	if cap(dst) < n*words {
		dst = make([]uint32, n*words)
	}
	dst = dst[:n*words]
	uv1 := m.TexcoordSet(1)
	for v := range n {
		rec := dst[v*words : (v+1)*words]
		for _, b := range d.binds {
			var src [4]float32
			var have int
			switch b.loc {
			case 0:
				src[0], src[1], src[2], have = m.Positions[3*v], m.Positions[3*v+1], m.Positions[3*v+2], 3
			case 1:
				if len(m.Normals) >= 3*n {
					src[0], src[1], src[2], have = m.Normals[3*v], m.Normals[3*v+1], m.Normals[3*v+2], 3
				}
			case 2:
				t := m.Texcoord(v)
				src[0], src[1], have = t[0], t[1], 2
			case 3:
				if len(m.Tangents) >= 4*n {
					copy(src[:], m.Tangents[4*v:4*v+4])
					have = 4
				}
			case 4:
				src, have = [4]float32{1, 1, 1, 1}, 4
				if len(m.Colors) >= 4*n {
					copy(src[:], m.Colors[4*v:4*v+4])
				}
			case 5:
				if len(uv1) >= 2*n {
					src[0], src[1], have = uv1[2*v], uv1[2*v+1], 2
				}
			case 6:
				if len(m.Joints) >= 4*n {
					copy(src[:], m.Joints[4*v:4*v+4])
					have = 4
				}
			case 7:
				if len(m.JointWeights) >= 4*n {
					copy(src[:], m.JointWeights[4*v:4*v+4])
					have = 4
				}
			}
			for c := 0; c < b.words && c < 4; c++ {
				val := src[c]
				if c >= have {
					val = 0
					if c == 3 {
						val = 1
					}
				}
				rec[b.word+c] = math.Float32bits(val)
			}
		}
	}
	return dst
}
