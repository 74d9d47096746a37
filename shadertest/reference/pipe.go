package reference

import (
	"encoding/binary"
	"fmt"
	"math"

	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader/ir"
	"vortexgfx/shadertest"
)

// bind sets the driver's state for prepared draw pd of d and returns the
// draw: the uniforms, the legacy state, the rasterizer and depth state, the
// textures, and the vertex records as one buffer.
func (c *glContext) bind(d *shadertest.Draw, pd *Prepared) (*pipe.DrawInfo, error) {
	p, rs, st := pd.Program, pd.State, d.State
	if err := c.uniforms(p); err != nil {
		return nil, err
	}
	for i, s := range p.IR.Samplers {
		if i < len(p.Units) {
			if err := c.pc.SetUniform(s.Name, ir.I32, []uint32{uint32(p.Units[i])}); err != nil {
				return nil, fmt.Errorf("reference: sampler %s: %w", s.Name, err)
			}
		}
	}
	l := st.Legacy()
	c.pc.SetLegacyState(&l)
	var clip pipe.ClipState
	var enable uint8
	for i := range clip.UCP {
		if st.ClipPlaneEnabled[i] {
			enable |= 1 << i
		}
		for k := range 4 {
			clip.UCP[i][k] = float32(st.ClipPlanes[i][k])
		}
	}
	c.pc.SetClipState(clip)
	rz := pipe.RasterizerState{FrontCCW: true, DepthClamp: st.DepthClamp, ClipPlaneEnable: enable, Flatshade: st.Flat,
		LightTwoSide: st.TwoSide, ClampVertexColor: c.cfg.API == shadertest.APIGL,
		IgnoreShaderPointSize: c.cfg.API == shadertest.APIGL && !st.ProgramPointSize, PointSize: 1, LineWidth: 1,
		FlatshadeFirst: st.ProvokingFirst, FillFront: st.PolygonFront, FillBack: st.PolygonBack}
	if st.CullFace {
		rz.Cull = pipe.CullBack
	}
	r, err := c.pc.CreateRasterizerState(rz)
	if err != nil {
		return nil, err
	}
	c.pc.BindRasterizerState(r)
	dsa, err := c.pc.CreateDSAState(pipe.DepthStencilAlphaState{DepthEnabled: rs.Depth.Test, DepthWrite: rs.Depth.Write, DepthFunc: rs.Depth.Func})
	if err != nil {
		return nil, err
	}
	c.pc.BindDSAState(dsa)
	if err := c.bindTextures(p, rs); err != nil {
		return nil, err
	}
	if err := c.vertices(pd); err != nil {
		return nil, err
	}
	prm := &pd.Params
	info := &pipe.DrawInfo{Mode: pipe.PrimMode(d.Mode), InstanceCount: uint32(max(prm.Instances, 1)), StartInstance: uint32(prm.BaseInstance),
		Draws: []pipe.DrawRange{{Start: uint32(prm.First), Count: uint32(prm.Count), IndexBias: prm.BaseVertex}}}
	if prm.Indices != nil {
		ib, err := c.buffer(prm.Indices)
		if err != nil {
			return nil, err
		}
		info.IndexSize, info.Index = 2, ib
	}
	return info, nil
}

// uniforms hands the driver the reference program's uniform words (the
// test's values and the legacy built-ins prepare set) as constant buffer 0 in
// the driver's layout (UniformLayout), slot by slot by name: the two link the
// same sources, in file order and vertex-then-fragment order.
func (c *glContext) uniforms(p *program.Program) error {
	slots, n, err := c.pc.UniformLayout()
	if err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	if n == 0 {
		return nil
	}
	src := make(map[string]ir.Slot, len(p.IR.Uniforms))
	for _, u := range p.IR.Uniforms {
		src[u.Name] = u
	}
	raw := make([]byte, 4*n)
	for _, d := range slots {
		u, ok := src[d.Name]
		if !ok || u.Words != d.Words || u.Word+u.Words > len(p.Uniforms) || d.Word+d.Words > n {
			return fmt.Errorf("reference: uniform %s: the driver's link has no slot of the reference one's size", d.Name)
		}
		for k := range d.Words {
			binary.LittleEndian.PutUint32(raw[4*(d.Word+k):], p.Uniforms[u.Word+k])
		}
	}
	cb, err := c.buffer(raw)
	if err != nil {
		return err
	}
	return c.pc.SetConstantBuffer(0, pipe.ConstantBuffer{Buffer: cb})
}

// buffer makes a buffer resource holding b.
func (c *glContext) buffer(b []byte) (*pipe.Resource, error) {
	r, err := c.screen.CreateBuffer(max(len(b), 4))
	if err != nil {
		return nil, err
	}
	return r, r.Write(0, b)
}

// vertices binds the prepared vertex records as one buffer with an element
// per attribute column (AttributeLayout), each reading the words the
// reference context laid the attribute out at.
func (c *glContext) vertices(pd *Prepared) error {
	in := &pd.Input
	raw := make([]byte, 4*len(in.Data))
	for k, w := range in.Data {
		binary.LittleEndian.PutUint32(raw[4*k:], w)
	}
	vb, err := c.buffer(raw)
	if err != nil {
		return err
	}
	word := map[string]int{"gl_Vertex": program.FixedPosition, "gl_Color": program.FixedColor, "gl_MultiTexCoord0": program.FixedTexCoord}
	if pd.Program.IR.VS != nil {
		word = map[string]int{}
		for _, a := range pd.Program.IR.Attributes {
			word[a.Name] = a.Word
		}
	}
	var els []pipe.VertexElement
	for _, a := range c.layout {
		w, ok := word[a.Name]
		if !ok {
			return fmt.Errorf("reference: attribute %s has no reference vertex words", a.Name)
		}
		for col := 0; col < a.Columns; col++ {
			for len(els) <= a.Element+col {
				els = append(els, pipe.VertexElement{Format: pipe.VertexFloat32x4})
			}
			cw := min(4, a.Words-4*col)
			f := [...]pipe.VertexFormat{1: pipe.VertexFloat32x1, 2: pipe.VertexFloat32x2, 3: pipe.VertexFloat32x3, 4: pipe.VertexFloat32x4}[cw]
			// Integer attributes read exactly their words: an ivec2 at the end
			// of the record must not read past it.
			switch a.Type {
			case ir.I32:
				f = [...]pipe.VertexFormat{1: pipe.VertexSInt32x1, 2: pipe.VertexSInt32x2, 3: pipe.VertexSInt32x3, 4: pipe.VertexSInt32x4}[cw]
			case ir.U32:
				f = [...]pipe.VertexFormat{1: pipe.VertexUInt32x1, 2: pipe.VertexUInt32x2, 3: pipe.VertexUInt32x3, 4: pipe.VertexUInt32x4}[cw]
			}
			els[a.Element+col] = pipe.VertexElement{SrcOffset: uint32(4*w + 16*col), Format: f}
		}
	}
	ve, err := c.pc.CreateVertexElementsState(els)
	if err != nil {
		return err
	}
	c.pc.BindVertexElementsState(ve)
	c.pc.SetVertexBuffers([]pipe.VertexBuffer{{Buffer: vb, Stride: uint32(4 * in.Words)}})
	return nil
}

// bindTextures binds, at each sampler's unit, the texture the reference state
// binds there at the sampler's target, with its view state and sampler;
// every other unit is unbound.
func (c *glContext) bindTextures(p *program.Program, rs *ref.State) error {
	views := make([]*pipe.SamplerView, pipe.MaxSamplers)
	smps := make([]*pipe.Sampler, pipe.MaxSamplers)
	for i, s := range p.IR.Samplers {
		if i >= len(p.Units) {
			continue
		}
		unit := p.Units[i]
		k := program.TextureIndex(unit, program.KindTarget(s.Kind))
		if err := c.unsampled[k]; err != nil {
			return fmt.Errorf("sampler %s: %w", s.Name, err)
		}
		if unit < 0 || unit >= pipe.MaxSamplers || k < 0 || k >= len(rs.Textures) || rs.Textures[k].Texture == nil {
			continue
		}
		tb := &rs.Textures[k]
		v, err := c.view(tb.Texture, tb.Sampler.Unnormalized)
		if err != nil {
			return fmt.Errorf("reference: sampler %s: %w", s.Name, err)
		}
		sm, err := c.sampler(tb.Sampler)
		if err != nil {
			return fmt.Errorf("reference: sampler %s: %w", s.Name, err)
		}
		views[unit], smps[unit] = v, sm
	}
	if err := c.pc.SetSamplerViews(0, views); err != nil {
		return err
	}
	return c.pc.BindSamplerStates(0, smps)
}

// view is a reference texture as a driver texture and view, made once per
// texture.
func (c *glContext) view(t *sampler.Texture, rect bool) (*pipe.SamplerView, error) {
	if v := c.views[t]; v != nil {
		return v, nil
	}
	if len(t.Levels) == 0 {
		return nil, fmt.Errorf("texture without levels")
	}
	l0 := &t.Levels[0]
	desc := pipe.TextureDesc{Format: t.Format, Width: l0.W, Height: l0.H, Depth: 1, ArraySize: 1, Levels: len(t.Levels)}
	switch t.Dim {
	case sampler.Dim1D:
		desc.Target = pipe.Target1D
	case sampler.Dim2D:
		desc.Target = pipe.Target2D
		if rect {
			desc.Target = pipe.TargetRect
		}
	case sampler.Dim3D:
		desc.Target, desc.Depth = pipe.Target3D, l0.D
	case sampler.DimCube:
		desc.Target, desc.ArraySize = pipe.TargetCube, l0.D
	case sampler.Dim1DArray:
		desc.Target, desc.ArraySize = pipe.Target1DArray, l0.D
	case sampler.Dim2DArray:
		desc.Target, desc.ArraySize = pipe.Target2DArray, l0.D
	case sampler.DimCubeArray:
		desc.Target, desc.ArraySize = pipe.TargetCubeArray, l0.D
	default:
		return nil, fmt.Errorf("texture dimension %v", t.Dim)
	}
	r, err := c.screen.CreateTexture(desc)
	if err != nil {
		return nil, err
	}
	var data []byte
	for i := range t.Levels {
		data = append(data, t.Levels[i].Data...)
	}
	if err := r.Write(0, data); err != nil {
		return nil, err
	}
	v, err := c.pc.CreateSamplerViewState(r, pipe.ViewState{Swizzle: t.Swizzle, FirstLevel: t.BaseLevel, LastLevel: max(t.MaxLevel, t.BaseLevel)})
	if err != nil {
		return nil, err
	}
	c.views[t] = v
	return v, nil
}

// sampler is a reference sampler state as a driver sampler CSO.
func (c *glContext) sampler(s sampler.Sampler) (*pipe.Sampler, error) {
	if sm := c.smps[s]; sm != nil {
		return sm, nil
	}
	ss := pipe.SamplerState{WrapS: s.WrapS, WrapT: s.WrapT, WrapR: s.WrapR, MinFilter: s.MinFilter, MagFilter: s.MagFilter,
		MipFilter: s.MipFilter, MinLod: s.MinLOD, MaxLod: s.MaxLOD, LodBias: s.LODBias, CompareMode: s.CompareEnable,
		CompareFunc: s.Compare, BorderColor: s.BorderColor, MaxAnisotropy: uint8(min(math.Max(float64(s.MaxAnisotropy), 0), 255))}
	sm, err := c.pc.CreateSamplerState(ss)
	if err != nil {
		return nil, err
	}
	c.smps[s] = sm
	return sm, nil
}
