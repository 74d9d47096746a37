package render

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/stencil"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/scene"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
)

// drawObj is one scene draw prepared for the reference renderer.
type drawObj struct {
	index     int
	name      string
	prog      *program.Program
	vs        *program.VertexShader
	fs        *program.FragmentShader
	state     ref.State
	in        ref.VertexInput
	params    ref.DrawParams
	triangles int
	uniforms  map[string]*uniformDst
	indices   []uint32 // the mesh's triangle list, for the host-side counters

	// counters (Options.Stats / Options.Heatmap)
	vcount *countingVS
	fcount *countingFS
}

// attribute locations of the scene convention. spec: issue 7 "Scenes"
// (position 0, normal 1, texcoord 2).
var attribNames = [...]string{"a_position", "a_normal", "a_texcoord"}

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

func (r *Renderer) prepareDraw(ctx context.Context, di int, texCache map[*scene.Texture]*uploadedTexture) (*drawObj, error) {
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
	// The widest warps (64 lanes) amortise the executor's per-instruction
	// dispatch; measured on the bench scene they cost less CPU per frame than
	// the default 16 (see the package doc, "Performance").
	p, err := program.New(cp, program.Config{VertexWidth: 64, FragmentWidth: 64})
	if err != nil {
		return nil, fmt.Errorf("%s: lower %s + %s: %w", where, sd.VertexShader.Path, sd.FragmentShader.Path, err)
	}
	d := &drawObj{index: di, name: name, prog: p, triangles: sd.Mesh.TriangleCount(), indices: sd.Mesh.Indices}
	if d.vs, err = p.NewVertexShader(ctx, program.VertexOptions{}); err != nil {
		return nil, fmt.Errorf("%s: vertex stage: %w", where, err)
	}
	if d.fs, err = p.NewFragmentShader(ctx); err != nil {
		return nil, fmt.Errorf("%s: fragment stage: %w", where, err)
	}
	if err := r.vertexInput(d, sd.Mesh, sd.VertexShader.Path); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	idx := make([]byte, 4*len(sd.Mesh.Indices))
	for i, v := range sd.Mesh.Indices {
		binary.LittleEndian.PutUint32(idx[4*i:], v)
	}
	d.params = ref.DrawParams{Topology: ref.Triangles, Count: len(sd.Mesh.Indices), IndexType: ref.Index32, Indices: idx}
	d.state = ref.DefaultState(r.width, r.height)
	st := &d.state
	st.Workers = r.opts.Workers
	st.Interp = p.Interp(false)
	st.TwoSide = p.TwoSide()
	pipelineState(st, &sd.State)
	if err := r.bindTextures(d, sd, texCache); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if d.uniforms, err = r.resolveUniforms(d, di); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	st.Vertex, st.Fragment = d.vs, d.fs
	if r.opts.Stats || r.opts.Heatmap {
		d.fcount = newCountingFS(d.fs, r.heat, r.width)
		st.Fragment = d.fcount
	}
	if r.opts.Stats {
		d.vcount = &countingVS{inner: d.vs, pos: make([][4]float32, sd.Mesh.VertexCount())}
		st.Vertex = d.vcount
		// Count depth-passing fragments in the stencil attachment.
		st.StencilTest = true
		for _, f := range []*ref.StencilFace{&st.StencilFront, &st.StencilBack} {
			*f = ref.StencilFace{Func: compare.Always, ReadMask: 0xFF, WriteMask: 0xFF,
				Fail: stencil.Keep, DepthFail: stencil.Keep, Pass: stencil.Incr}
		}
	}
	return d, nil
}

// vertexInput lays the mesh's attributes out as the vertex program's input
// words. spec: issue 7 "Scenes" (attribute locations 0, 1, 2).
func (r *Renderer) vertexInput(d *drawObj, m *scene.Mesh, vsPath string) error {
	p := d.prog
	words := p.AttribWords()
	type bind struct{ word, words, loc int }
	var binds []bind
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
		if loc < 0 || loc > 2 {
			return fmt.Errorf("vertex shader %s: attribute %s: no mesh data at location %d (position 0 a_position, normal 1 a_normal, texcoord 2 a_texcoord)", vsPath, s.Name, s.Location)
		}
		binds = append(binds, bind{s.Word, s.Words, loc})
	}
	n := m.VertexCount()
	data := make([]uint32, n*words)
	for v := range n {
		rec := data[v*words : (v+1)*words]
		for _, b := range binds {
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
	d.in = ref.VertexInput{Words: words, Data: data}
	return nil
}

// pipelineState copies a scene draw's fixed-function state onto ref's.
func pipelineState(st *ref.State, ps *scene.PipelineState) {
	st.Depth.Test = ps.DepthTest
	st.Depth.Func = ps.DepthFunc
	st.Depth.Write = ps.DepthWrite
	st.Cull = ref.CullMode(ps.Cull)
	st.FrontFace = ref.FrontFace(ps.FrontFace)
	b := &ps.Blend
	st.Blend[0].Enable = b.Enable
	st.Blend[0].EqRGB, st.Blend[0].EqAlpha = b.EquationRGB, b.EquationAlpha
	st.Blend[0].SrcRGB, st.Blend[0].DstRGB = b.SrcRGB, b.DstRGB
	st.Blend[0].SrcAlpha, st.Blend[0].DstAlpha = b.SrcAlpha, b.DstAlpha
	st.BlendConstant = b.Color
}

// uploadedTexture is a scene texture as gl/sampler's texture and sampler.

type uploadedTexture struct {
	tex *sampler.Texture
	smp sampler.Sampler
}

func (r *Renderer) bindTextures(d *drawObj, sd *scene.Draw, cache map[*scene.Texture]*uploadedTexture) error {
	for _, tb := range sd.Textures {
		if tb.Texture == nil || tb.Texture.Image == nil {
			return fmt.Errorf("texture %s: no image", tb.Uniform)
		}
		if tb.Unit < 0 || tb.Unit > 31 {
			return fmt.Errorf("texture %s: unit %d outside 0..31", tb.Uniform, tb.Unit)
		}
		u, ok := cache[tb.Texture]
		if !ok {
			var err error
			if u, err = uploadTexture(tb.Texture); err != nil {
				return fmt.Errorf("texture %s (%s): %w", tb.Uniform, tb.Texture.Name, err)
			}
			cache[tb.Texture] = u
		}
		i := program.TextureIndex(tb.Unit, program.Target2D)
		for len(d.state.Textures) <= i {
			d.state.Textures = append(d.state.Textures, ref.TextureBinding{})
		}
		d.state.Textures[i] = ref.TextureBinding{Texture: u.tex, Sampler: u.smp}
	}
	return nil
}

// uploadTexture converts a scene texture to an RGBA8 2D texture with a full mip
// chain and its sampler state.
func uploadTexture(t *scene.Texture) (*uploadedTexture, error) {
	img := t.Image
	w, h := img.Rect.Dx(), img.Rect.Dy()
	tex, err := sampler.NewTexture(sampler.Dim2D, format.RGBA8, w, h, 1, 0)
	if err != nil {
		return nil, err
	}
	l0 := tex.Levels[0].Data
	for y := range h {
		copy(l0[y*w*4:(y+1)*w*4], img.Pix[y*img.Stride:y*img.Stride+w*4])
	}
	if err := tex.GenerateMipmaps(); err != nil {
		return nil, err
	}
	s := sampler.DefaultSampler()
	s.WrapS, s.WrapT = wrapMode(t.Sampler.WrapS), wrapMode(t.Sampler.WrapT)
	s.MagFilter = sampler.Linear
	if t.Sampler.MagFilter == scene.FilterNearest {
		s.MagFilter = sampler.Nearest
	}
	switch t.Sampler.MinFilter {
	case scene.FilterNearest:
		s.MinFilter, s.MipFilter = sampler.Nearest, sampler.MipNone
	case scene.FilterLinear:
		s.MinFilter, s.MipFilter = sampler.Linear, sampler.MipNone
	case scene.FilterNearestMipmapNearest:
		s.MinFilter, s.MipFilter = sampler.Nearest, sampler.MipNearest
	case scene.FilterLinearMipmapNearest:
		s.MinFilter, s.MipFilter = sampler.Linear, sampler.MipNearest
	case scene.FilterNearestMipmapLinear:
		s.MinFilter, s.MipFilter = sampler.Nearest, sampler.MipLinear
	default:
		s.MinFilter, s.MipFilter = sampler.Linear, sampler.MipLinear
	}
	return &uploadedTexture{tex: tex, smp: s}, nil
}

func wrapMode(w scene.Wrap) sampler.Wrap {
	switch w {
	case scene.WrapClampToEdge:
		return sampler.ClampToEdge
	case scene.WrapMirroredRepeat:
		return sampler.MirroredRepeat
	}
	return sampler.Repeat
}

// runDraw draws d into t with the viewport shifted by off (supersampling) and
// updates its counters.
func (r *Renderer) runDraw(ctx context.Context, t *ref.Target, d *drawObj, ds *DrawStats, off [2]float32) error {
	st := &d.state
	st.Viewport.X, st.Viewport.Y = off[0], off[1]
	if r.opts.Stats {
		if err := t.ClearStencil(0); err != nil {
			return err
		}
	}
	start := time.Now()
	if err := ref.Draw(ctx, t, st, d.in, d.params); err != nil {
		return err
	}
	ds.Time += time.Since(start)
	if d.fcount != nil {
		shaded := d.fcount.collect()
		ds.FragmentsShaded += shaded
	}
	if r.opts.Stats {
		ds.TrianglesIn += uint64(d.triangles)
		ds.TrianglesVisible += uint64(d.vcount.visible(d.indices, st, r.width, r.height))
		ds.FragmentsWritten += stencilSum(t)
	}
	return nil
}
