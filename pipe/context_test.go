package pipe

import (
	"testing"

	"vortexgfx/gl/format"
)

// TestContextState covers the create/bind/delete surface and its error paths.
func TestContextState(t *testing.T) {
	s := NewScreenWithCaps(fullCaps(), Options{ForceSW: UnitOM})
	force := UnitTEX
	c := s.NewContext(ContextOptions{ForceSW: &force})
	if c.Options().ForceSW != UnitTEX || c.Screen() != s {
		t.Errorf("context options %+v", c.Options())
	}
	vs, err := c.CreateShaderState(ShaderDesc{Stage: StageVertex, GLSL: testVS}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := c.CreateShaderState(ShaderDesc{Stage: StageFragment, GLSL: testFS}, func(VariantKey) (any, error) { return 1, nil })
	if err != nil || fs.Variants == nil || vs.Variants != nil {
		t.Fatalf("shaders: %v", err)
	}
	if _, err := c.CreateShaderState(ShaderDesc{Stage: StageFragment}, nil); err == nil {
		t.Error("shader without source accepted")
	}
	if err := c.BindVSState(fs); err == nil {
		t.Error("fragment shader bound as VS")
	}
	if err := c.BindFSState(vs); err == nil {
		t.Error("vertex shader bound as FS")
	}
	_ = c.BindVSState(vs)
	_ = c.BindFSState(fs)
	c.DeleteShaderState(vs)
	if b := c.Bound(); b.VS != nil || b.FS != fs {
		t.Error("delete did not unbind the VS only")
	}
	smp, _ := c.CreateSamplerState(SamplerState{})
	if err := c.BindSamplerStates(15, []*Sampler{smp, smp}); err == nil {
		t.Error("sampler slots past 16 accepted")
	}
	if err := c.BindSamplerStates(1, []*Sampler{smp}); err != nil || c.Bound().Samplers[1] != smp {
		t.Errorf("bind sampler: %v", err)
	}
	buf, _ := s.CreateBuffer(16)
	if _, err := c.CreateSamplerView(buf); err == nil {
		t.Error("sampler view of a buffer accepted")
	}
	if err := c.SetConstantBuffer(8, ConstantBuffer{Buffer: buf}); err == nil {
		t.Error("constant buffer 8 accepted")
	}
	small := testSurface(t, s, format.RGBA8, 16, 16)
	if err := c.SetFramebufferState(Framebuffer{Width: 32, Height: 32, Cbufs: []*Surface{small}}); err == nil {
		t.Error("attachment smaller than the framebuffer accepted")
	}
	if err := c.SetFramebufferState(Framebuffer{Width: 16, Height: 16, Cbufs: []*Surface{{Resource: buf}}}); err == nil {
		t.Error("buffer attachment accepted")
	}
	if err := c.SetFramebufferState(Framebuffer{Width: 16, Height: 16, Cbufs: []*Surface{{Resource: small.Resource, Level: 1}}}); err == nil {
		t.Error("missing level accepted")
	}
	q, _ := c.CreateQuery(QueryTimeElapsed)
	if err := c.EndQuery(q); err == nil {
		t.Error("end of inactive query accepted")
	}
	_ = c.BeginQuery(q)
	if err := c.BeginQuery(q); err == nil {
		t.Error("double begin accepted")
	}
	if c.Bound().CountingQuery {
		t.Error("a time-elapsed query gates draws")
	}
	occ, _ := c.CreateQuery(QueryOcclusionPredicate)
	if err := c.SetRenderCondition(occ, false, CondWait); err != nil || c.Bound().QueryCondition {
		t.Errorf("render condition: %v (the host evaluates it; it gates nothing)", err)
	}
	_ = c.BeginQuery(occ)
	if st := c.Bound(); !st.OcclusionQuery || st.CountingQuery {
		t.Errorf("open occlusion query: %+v", st)
	}
	c.DestroyQuery(occ)
	if c.cond != nil || c.Bound().OcclusionQuery {
		t.Error("destroyed query still conditions or counts draws")
	}
	if _, err := c.CreateQuery(0); err == nil {
		t.Error("query type 0 accepted")
	}
	if _, err := c.Plan(&DrawInfo{Mode: 42}); err == nil {
		t.Error("topology 42 accepted")
	}
	if _, err := c.Plan(&DrawInfo{Mode: PrimTriangles, IndexSize: 3}); err == nil {
		t.Error("index size 3 accepted")
	}
	c.SetStencilRef(1, 2)
	c.SetBlendColor([4]float32{0, 0, 1, 0})
	c.SetScissor(Scissor{1, 2, 3, 4})
	c.SetViewport(Viewport{Scale: [3]float32{1, -1, 0.5}})
	b := c.Bound()
	if b.StencilRef != 0x20001 || b.BlendColor != (BlendColor{0x00FF0000, 0xFF}) || b.Scissor.MaxY != 4 || b.Viewport.Scale[1] != -1 {
		t.Errorf("bound %+v", b)
	}
	if _, err := s.CreateTexture(TextureDesc{Target: Target2D, Format: format.RGBA8, Width: 4, Height: 4, Depth: 1, ArraySize: 1, Levels: 4}); err == nil {
		t.Error("4 levels on a 4x4 texture accepted")
	}
	if _, err := s.CreateBuffer(0); err == nil {
		t.Error("empty buffer accepted")
	}
}
