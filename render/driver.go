package render

import (
	"encoding/binary"
	"fmt"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/gl/stencil"
	"vortexgfx/pipe"
	"vortexgfx/scene"
)

// The scene as driver state: every draw of a scene becomes pipe state objects
// (shaders, vertex elements, depth/stencil/alpha, blend, rasterizer, samplers
// and views) bound on one pipe.Context, which routes, translates and draws it.
// render keeps only the scene's side: which meshes, textures and states a draw
// has, and the per-frame uniform words. spec: vortexpipe §1.4 (the state a
// draw reads), §3.1 (eligibility)

// pipeDraw is one scene draw as pipe state objects and its draw call.
type pipeDraw struct {
	vs, fs *pipe.Shader
	velems *pipe.VertexElements
	vbufs  []pipe.VertexBuffer
	vraw   []byte         // the vertex words as bytes, rewritten per frame for morphed meshes
	cbuf   *pipe.Resource // constant buffer 0: the program's uniform words
	ubytes []byte
	dsa    *pipe.DSA
	blend  *pipe.Blend
	rast   *pipe.Rasterizer
	// samplers and views fill every slot (nil where the draw binds no
	// texture), so a draw never sees an earlier draw's textures.
	samplers [pipe.MaxSamplers]*pipe.Sampler
	views    [pipe.MaxSamplers]*pipe.SamplerView
	color    [4]float32 // the blend constant
	info     pipe.DrawInfo
}

// pipeTexture is a scene texture as a pipe texture resource (the full mip
// chain render's reference path samples) and its sampler state.
type pipeTexture struct {
	view    *pipe.SamplerView
	sampler *pipe.Sampler
}

// bind binds the draw's state objects on c.
func (p *pipeDraw) bind(c *pipe.Context) error {
	if err := c.BindVSState(p.vs); err != nil {
		return err
	}
	if err := c.BindFSState(p.fs); err != nil {
		return err
	}
	c.BindVertexElementsState(p.velems)
	c.SetVertexBuffers(p.vbufs)
	if err := c.SetConstantBuffer(0, pipe.ConstantBuffer{Buffer: p.cbuf}); err != nil {
		return err
	}
	c.BindDSAState(p.dsa)
	c.BindBlendState(p.blend)
	c.BindRasterizerState(p.rast)
	c.SetBlendColor(p.color)
	if err := c.BindSamplerStates(0, p.samplers[:]); err != nil {
		return err
	}
	return c.SetSamplerViews(0, p.views[:])
}

// setUniforms writes the draw's uniform words (render's per-frame values) into
// its constant buffer 0, which the driver reads in the compiler's layout.
func (p *pipeDraw) setUniforms(words []uint32) error {
	for i, w := range words {
		binary.LittleEndian.PutUint32(p.ubytes[4*i:], w)
	}
	return p.cbuf.Write(0, p.ubytes)
}

// setVertices writes the draw's vertex words into its vertex buffer (once,
// and every frame for a morphed mesh; the count never changes).
func (p *pipeDraw) setVertices(words []uint32) error {
	if len(p.vraw) != 4*len(words) {
		p.vraw = make([]byte, 4*len(words))
	}
	for k, w := range words {
		binary.LittleEndian.PutUint32(p.vraw[4*k:], w)
	}
	return p.vbufs[0].Buffer.Write(0, p.vraw)
}

// newPipeDraw makes draw d of the scene into pipe state objects on c. With
// countWritten the draw's stencil test counts the fragments passing the depth
// test (always, INCR on pass) for the reference path's counters.
func (r *Renderer) newPipeDraw(c *pipe.Context, d *drawObj, sd *scene.Draw, texs map[*scene.Texture]*pipeTexture, countWritten bool) (*pipeDraw, error) {
	s := c.Screen()
	p := &pipeDraw{}
	var err error
	if p.vs, err = c.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageVertex, Name: sd.VertexShader.Path, GLSL: sd.VertexShader.Source}, nil); err != nil {
		return nil, err
	}
	if p.fs, err = c.CreateShaderState(pipe.ShaderDesc{Stage: pipe.StageFragment, Name: sd.FragmentShader.Path, GLSL: sd.FragmentShader.Source}, nil); err != nil {
		return nil, err
	}

	// The vertex words render lays out for its program (vertexInput) in one
	// buffer; element k is what the driver reads for the attribute at
	// location k, or for the k-th attribute without a location.
	vb, err := s.CreateBuffer(max(4*len(d.in.Data), 4))
	if err != nil {
		return nil, err
	}
	p.vbufs = []pipe.VertexBuffer{{Buffer: vb, Stride: uint32(4 * d.in.Words)}}
	if err := p.setVertices(d.in.Data); err != nil {
		return nil, err
	}
	var els []pipe.VertexElement
	i := 0
	for _, a := range d.prog.IR.Attributes {
		if a.Name == "gl_VertexID" || a.Name == "gl_InstanceID" {
			continue
		}
		loc := a.Location
		if loc < 0 {
			loc = i
		}
		i++
		for col := 0; col < (a.Words+3)/4; col++ {
			for len(els) <= loc+col {
				els = append(els, pipe.VertexElement{Format: pipe.VertexFloat32x4})
			}
			n := min(4, a.Words-4*col)
			els[loc+col] = pipe.VertexElement{SrcOffset: uint32(4*a.Word + 16*col),
				Format: [...]pipe.VertexFormat{1: pipe.VertexFloat32x1, 2: pipe.VertexFloat32x2, 3: pipe.VertexFloat32x3, 4: pipe.VertexFloat32x4}[n]}
		}
	}
	if p.velems, err = c.CreateVertexElementsState(els); err != nil {
		return nil, err
	}

	// The mesh's triangle list as a u32 index buffer, resident across frames.
	ib, err := s.CreateBuffer(max(4*len(d.indices), 4))
	if err != nil {
		return nil, err
	}
	idx := make([]byte, 4*len(d.indices))
	for k, v := range d.indices {
		binary.LittleEndian.PutUint32(idx[4*k:], v)
	}
	if err := ib.Write(0, idx); err != nil {
		return nil, err
	}
	p.info = pipe.DrawInfo{Mode: pipe.PrimTriangles, IndexSize: 4, Index: ib, InstanceCount: 1,
		Draws: []pipe.DrawRange{{Count: uint32(len(d.indices))}}}

	p.ubytes = make([]byte, 4*len(d.prog.Uniforms))
	if p.cbuf, err = s.CreateBuffer(max(len(p.ubytes), 4)); err != nil {
		return nil, err
	}
	if err := p.setUniforms(d.prog.Uniforms); err != nil {
		return nil, err
	}

	ps := &sd.State
	dsa := pipe.DepthStencilAlphaState{DepthEnabled: ps.DepthTest, DepthWrite: ps.DepthWrite, DepthFunc: ps.DepthFunc}
	if countWritten {
		dsa.Stencil[0] = pipe.StencilState{Enabled: true, Func: compare.Always, FailOp: stencil.Keep,
			ZFailOp: stencil.Keep, ZPassOp: stencil.Incr, ValueMask: 0xFF, WriteMask: 0xFF}
	}
	if p.dsa, err = c.CreateDSAState(dsa); err != nil {
		return nil, err
	}
	bs := pipe.BlendState{}
	bs.RT[0].ColorMask = pipe.MaskRGBA
	if b := &ps.Blend; b.Enable {
		bs.RT[0] = pipe.RTBlendState{BlendEnable: true, ColorMask: pipe.MaskRGBA,
			RGBFunc: b.EquationRGB, AlphaFunc: b.EquationAlpha,
			RGBSrc: b.SrcRGB, RGBDst: b.DstRGB, AlphaSrc: b.SrcAlpha, AlphaDst: b.DstAlpha}
		p.color = b.Color
	}
	if p.blend, err = c.CreateBlendState(bs); err != nil {
		return nil, err
	}
	rs := pipe.RasterizerState{Cull: pipe.CullFace(ps.Cull & 3), FrontCCW: ps.FrontFace != scene.FrontCW}
	if p.rast, err = c.CreateRasterizerState(rs); err != nil {
		return nil, err
	}

	for _, tb := range sd.Textures {
		if tb.Unit >= pipe.MaxSamplers {
			return nil, fmt.Errorf("texture %s: unit %d beyond the driver's %d", tb.Uniform, tb.Unit, pipe.MaxSamplers)
		}
		t, ok := texs[tb.Texture]
		if !ok {
			if t, err = newPipeTexture(c, tb.Texture); err != nil {
				return nil, fmt.Errorf("texture %s (%s): %w", tb.Uniform, tb.Texture.Name, err)
			}
			texs[tb.Texture] = t
		}
		p.views[tb.Unit], p.samplers[tb.Unit] = t.view, t.sampler
	}
	return p, nil
}

// newPipeTexture uploads a scene texture as an RGBA8 2D texture with its full
// mip chain, generated by the driver (pipe.Context.GenerateMipmap), and makes
// its sampler state and view.
func newPipeTexture(c *pipe.Context, t *scene.Texture) (*pipeTexture, error) {
	img := t.Image
	w, h := img.Rect.Dx(), img.Rect.Dy()
	levels := 1
	for max(w, h)>>levels > 0 {
		levels++
	}
	res, err := c.Screen().CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: format.RGBA8,
		Width: w, Height: h, Depth: 1, ArraySize: 1, Levels: levels})
	if err != nil {
		return nil, err
	}
	l0 := make([]byte, 4*w*h)
	for y := range h {
		copy(l0[y*w*4:(y+1)*w*4], img.Pix[y*img.Stride:y*img.Stride+w*4])
	}
	if err := res.Write(0, l0); err != nil {
		return nil, err
	}
	if err := c.GenerateMipmap(res); err != nil {
		return nil, err
	}
	ss := pipe.SamplerState{WrapS: pipeWrap(t.Sampler.WrapS), WrapT: pipeWrap(t.Sampler.WrapT), WrapR: sampler.Repeat,
		MagFilter: sampler.Linear}
	if t.Sampler.MagFilter == scene.FilterNearest {
		ss.MagFilter = sampler.Nearest
	}
	switch t.Sampler.MinFilter {
	case scene.FilterNearest:
		ss.MinFilter, ss.MipFilter = sampler.Nearest, sampler.MipNone
	case scene.FilterLinear:
		ss.MinFilter, ss.MipFilter = sampler.Linear, sampler.MipNone
	case scene.FilterNearestMipmapNearest:
		ss.MinFilter, ss.MipFilter = sampler.Nearest, sampler.MipNearest
	case scene.FilterLinearMipmapNearest:
		ss.MinFilter, ss.MipFilter = sampler.Linear, sampler.MipNearest
	case scene.FilterNearestMipmapLinear:
		ss.MinFilter, ss.MipFilter = sampler.Nearest, sampler.MipLinear
	default:
		ss.MinFilter, ss.MipFilter = sampler.Linear, sampler.MipLinear
	}
	out := &pipeTexture{}
	if out.sampler, err = c.CreateSamplerState(ss); err != nil {
		return nil, err
	}
	if out.view, err = c.CreateSamplerView(res); err != nil {
		return nil, err
	}
	return out, nil
}

func pipeWrap(w scene.Wrap) sampler.Wrap {
	switch w {
	case scene.WrapClampToEdge:
		return sampler.ClampToEdge
	case scene.WrapMirroredRepeat:
		return sampler.MirroredRepeat
	}
	return sampler.Repeat
}
