package pipe

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"vortexgfx/gfx/session"
	"vortexgfx/gl/format"
)

// MaxSamplers is the number of sampler/texture slots of a context.
const MaxSamplers = 16

// MaxConstantBuffers is the number of constant-buffer slots: push constants at 0,
// descriptor set N at N+1. spec: vortexpipe §1.4 (cbuf[8]), §2.5
const MaxConstantBuffers = 8

// VertexFormat is a vertex attribute format.
type VertexFormat uint8

// The vertex formats.
const (
	VertexFloat32x1 VertexFormat = iota + 1
	VertexFloat32x2
	VertexFloat32x3
	VertexFloat32x4
	VertexUNorm8x4
	VertexUInt32x1
	VertexUInt32x4
	VertexSInt32x1
	VertexSInt32x4
	// The two- and three-component integer formats (glVertexAttribIPointer
	// with size 2 or 3): an ivec2 attribute reads 8 bytes, not 16, so the
	// last vertex of a tightly packed buffer stays inside it.
	VertexUInt32x2
	VertexUInt32x3
	VertexSInt32x2
	VertexSInt32x3
)

// VertexElement is one vertex attribute (pipe_vertex_element).
type VertexElement struct {
	SrcOffset       uint32
	BufferIndex     int
	Format          VertexFormat
	InstanceDivisor uint32 // 0 per vertex
}

// VertexElements is the vertex-elements CSO: one element per attribute location.
// spec: vortexpipe §2.5 (the {base, stride, divisor} table by location)
type VertexElements struct {
	Elements []VertexElement
}

// VertexBuffer is a bound vertex buffer (pipe_vertex_buffer).
type VertexBuffer struct {
	Buffer *Resource
	Offset uint32
	Stride uint32
}

// ConstantBuffer is a bound constant buffer (pipe_constant_buffer).
type ConstantBuffer struct {
	Buffer *Resource
	Offset uint32
	Size   uint32
}

// Surface is a view of one level/layer of a texture as an attachment.
type Surface struct {
	Resource *Resource
	Format   format.Format // Invalid: the resource's format
	Level    int
	Layer    int
	// Layered makes the surface every layer of Level, each primitive
	// drawing into the one its gl_Layer selects (layered.go); Layer is then
	// the layer device draws and reads use.
	Layered bool
}

// Fmt is the surface's effective format.
func (s *Surface) Fmt() format.Format {
	if s.Format != format.Invalid {
		return s.Format
	}
	return s.Resource.desc.Format
}

// Framebuffer is the framebuffer state (pipe_framebuffer_state).
type Framebuffer struct {
	Width, Height int
	Samples       int // 0 or 1: single-sampled
	Cbufs         []*Surface
	Zsbuf         *Surface
}

// SamplerView binds a texture for sampling (pipe_sampler_view); its TEX view is
// classified at creation, as vortexpipe captures create_texture_handle. spec: §3.6
type SamplerView struct {
	Texture *Resource
	Tex     TexInfo
	// State is the view's swizzle and level range (CreateSamplerViewState);
	// nil is the texture as stored: identity swizzle, every level.
	State *ViewState
	// Buffer is the range a buffer texture view reads (CreateBufferView);
	// Texture is then the buffer. nil for a texture view.
	Buffer   *BufferRange
	bufCache bufferViewCache
}

// Scissor is a scissor rectangle, max exclusive.
type Scissor struct{ MinX, MinY, MaxX, MaxY int }

// ContextOptions override the screen's options for one context.
type ContextOptions struct {
	Strict         *bool
	ForceSW        *Unit
	ForceReference *bool
}

// Context is the per-context driver object (pipe_context): the bound state, all
// of it captured as Vortex encodings when bound, the active queries and render
// condition, and the fallback counters. Methods are safe for concurrent use, but
// like a Gallium context it is meant to be driven from one goroutine.
// spec: vortexpipe §1.4
type Context struct {
	screen *Screen
	opts   Options

	mu          sync.Mutex
	vs, fs      *Shader
	gs          *Shader          // the bound geometry shader (geometry.go)
	storage     []StorageBinding // storage buffers, counters, images of draws (storage.go)
	velems      *VertexElements
	dsa         *DSA
	blend       *Blend
	rast        *Rasterizer
	samplers    [MaxSamplers]*Sampler
	views       [MaxSamplers]*SamplerView
	vbufs       []VertexBuffer
	cbufs       [MaxConstantBuffers]ConstantBuffer
	fb          Framebuffer
	stencilRef  uint32
	blendColor  BlendColor
	blendColorF [4]float32
	minSamples  int
	sampleMask  SampleMask
	scissor     Scissor
	viewport    Viewport
	clip        ClipState
	legacy      *LegacyState
	queries     map[*Query]bool
	cond        *RenderCondition
	// refConf configures reference-renderer draws (SetReferenceConfig).
	refConf ReferenceConfig
	// refTgt is the reference renderer's target kept between draws.
	refTgt refTargetCache
	// refVin is the reference renderer's vertex input kept between draws.
	refVin refVinCache
	// idxKept is the index buffer snapshot kept between draws.
	idxKept indexCache
	stats   Stats
	// device counters: the last device draw's, and CP cycles of all of them
	devStats session.DrawStats
	cpCycles uint64
}

// LastDeviceDraw returns the counters of the context's last device draw,
// including where its units ran. spec: vortexpipe §2.3.3, §3.2
func (c *Context) LastDeviceDraw() session.DrawStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.devStats
}

// NewContext creates a context on s with the screen's options overridden by o.
func (s *Screen) NewContext(o ContextOptions) *Context {
	opts := s.opts
	if o.Strict != nil {
		opts.Strict = *o.Strict
	}
	if o.ForceSW != nil {
		opts.ForceSW = *o.ForceSW
	}
	if o.ForceReference != nil {
		opts.ForceReference = *o.ForceReference
	}
	c := &Context{screen: s, opts: opts, queries: map[*Query]bool{}}
	c.stats.Fallbacks = map[ReasonCode]uint64{}
	c.stats.Routes = map[ReasonCode]uint64{}
	c.stats.FallbackDetails = map[string]uint64{}
	return c
}

// Screen returns the context's screen.
func (c *Context) Screen() *Screen { return c.screen }

// Options returns the effective options.
func (c *Context) Options() Options { return c.opts }

// CreateShaderState compiles a shader CSO's GLSL (shader.Compile, to verified
// IR) and fills Desc.Info from the compiler, so routing gates on what
// the shader really uses; a compile error names the shader and carries the
// compiler's message. The (VS, FS) pair is linked lazily at the first draw that
// binds it. A fragment shader also gets a variant cache compiling through
// compile (nil: none; the driver's own device variants live with the linked
// pair). spec: vortexpipe §2.3.1, §2.3.2
func (c *Context) CreateShaderState(d ShaderDesc, compile CompileFunc) (*Shader, error) {
	if d.Stage > StageGeometry {
		return nil, fmt.Errorf("pipe: shader stage %d undefined", d.Stage)
	}
	if d.GLSL == "" {
		return nil, fmt.Errorf("pipe: %s shader without source", [...]string{"vertex", "fragment", "geometry"}[d.Stage])
	}
	cs, info, err := compileStage(d)
	if err != nil {
		return nil, err
	}
	d.Info = info
	sh := &Shader{Desc: d, stage: cs}
	if d.Stage == StageFragment {
		sh.Variants = NewVariantCache(compile, nil)
	}
	return sh, nil
}

// BindVSState binds a vertex shader (nil unbinds).
func (c *Context) BindVSState(s *Shader) error {
	if s != nil && s.Desc.Stage != StageVertex {
		return fmt.Errorf("pipe: BindVSState: not a vertex shader")
	}
	c.mu.Lock()
	c.vs = s
	c.mu.Unlock()
	return nil
}

// BindFSState binds a fragment shader (nil unbinds).
func (c *Context) BindFSState(s *Shader) error {
	if s != nil && s.Desc.Stage != StageFragment {
		return fmt.Errorf("pipe: BindFSState: not a fragment shader")
	}
	c.mu.Lock()
	c.fs = s
	c.mu.Unlock()
	return nil
}

// DeleteShaderState releases a shader, unbinding it if bound.
func (c *Context) DeleteShaderState(s *Shader) {
	c.screen.progs.drop(s)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vs == s {
		c.vs = nil
	}
	if c.fs == s {
		c.fs = nil
	}
	if c.gs == s {
		c.gs = nil
	}
}

// CreateVertexElementsState creates a vertex-elements CSO.
func (c *Context) CreateVertexElementsState(els []VertexElement) (*VertexElements, error) {
	for i, e := range els {
		if e.Format < VertexFloat32x1 || e.Format > VertexSInt32x3 {
			return nil, fmt.Errorf("pipe: vertex element %d: format %d undefined", i, e.Format)
		}
		if e.BufferIndex < 0 {
			return nil, fmt.Errorf("pipe: vertex element %d: buffer index %d", i, e.BufferIndex)
		}
	}
	return &VertexElements{Elements: append([]VertexElement(nil), els...)}, nil
}

// BindVertexElementsState binds a vertex-elements CSO.
func (c *Context) BindVertexElementsState(v *VertexElements) {
	c.mu.Lock()
	c.velems = v
	c.mu.Unlock()
}

// CreateBlendState captures a blend CSO (NewBlend).
func (c *Context) CreateBlendState(s BlendState) (*Blend, error) { return NewBlend(s) }

// BindBlendState binds a blend CSO (nil: the default, blending off, all channels).
func (c *Context) BindBlendState(b *Blend) {
	c.mu.Lock()
	c.blend = b
	c.mu.Unlock()
}

// CreateDSAState captures a depth/stencil/alpha CSO (NewDSA).
func (c *Context) CreateDSAState(s DepthStencilAlphaState) (*DSA, error) { return NewDSA(s) }

// BindDSAState binds a depth/stencil/alpha CSO (nil: everything off).
func (c *Context) BindDSAState(d *DSA) {
	c.mu.Lock()
	c.dsa = d
	c.mu.Unlock()
}

// CreateRasterizerState captures a rasterizer CSO (NewRasterizer).
func (c *Context) CreateRasterizerState(s RasterizerState) (*Rasterizer, error) {
	return NewRasterizer(s)
}

// BindRasterizerState binds a rasterizer CSO (nil: the zero state).
func (c *Context) BindRasterizerState(r *Rasterizer) {
	c.mu.Lock()
	c.rast = r
	c.mu.Unlock()
}

// CreateSamplerState captures a sampler CSO (NewSampler).
func (c *Context) CreateSamplerState(s SamplerState) (*Sampler, error) { return NewSampler(s) }

// BindSamplerStates binds samplers to slots start, start+1, ….
func (c *Context) BindSamplerStates(start int, ss []*Sampler) error {
	if start < 0 || start+len(ss) > MaxSamplers {
		return fmt.Errorf("pipe: BindSamplerStates: slots [%d, %d) outside %d", start, start+len(ss), MaxSamplers)
	}
	c.mu.Lock()
	copy(c.samplers[start:], ss)
	c.mu.Unlock()
	return nil
}

// CreateSamplerView classifies a texture for sampling.
func (c *Context) CreateSamplerView(tex *Resource) (*SamplerView, error) {
	if tex == nil || tex.buffer {
		return nil, fmt.Errorf("pipe: CreateSamplerView: not a texture")
	}
	return &SamplerView{Texture: tex, Tex: ClassifyTexture(tex.desc)}, nil
}

// SetSamplerViews binds views to slots start, start+1, ….
func (c *Context) SetSamplerViews(start int, vs []*SamplerView) error {
	if start < 0 || start+len(vs) > MaxSamplers {
		return fmt.Errorf("pipe: SetSamplerViews: slots [%d, %d) outside %d", start, start+len(vs), MaxSamplers)
	}
	c.mu.Lock()
	copy(c.views[start:], vs)
	c.mu.Unlock()
	return nil
}

// SetVertexBuffers replaces the bound vertex buffers.
func (c *Context) SetVertexBuffers(vbs []VertexBuffer) {
	c.mu.Lock()
	c.vbufs = append(c.vbufs[:0], vbs...)
	c.mu.Unlock()
}

// SetConstantBuffer binds a constant buffer at index (0 push constants, N+1 set N).
func (c *Context) SetConstantBuffer(index int, cb ConstantBuffer) error {
	if index < 0 || index >= MaxConstantBuffers {
		return fmt.Errorf("pipe: SetConstantBuffer: index %d outside %d", index, MaxConstantBuffers)
	}
	c.mu.Lock()
	c.cbufs[index] = cb
	c.mu.Unlock()
	return nil
}

// SetFramebufferState binds the attachments. Attachments must be textures whose
// level/layer exist and whose size matches the framebuffer's.
func (c *Context) SetFramebufferState(fb Framebuffer) error {
	if fb.Width < 1 || fb.Height < 1 {
		return fmt.Errorf("pipe: framebuffer %dx%d", fb.Width, fb.Height)
	}
	if len(fb.Cbufs) > MaxRenderTargets {
		return fmt.Errorf("pipe: framebuffer with %d colour attachments (max %d)", len(fb.Cbufs), MaxRenderTargets)
	}
	check := func(name string, s *Surface) error {
		if s == nil {
			return nil
		}
		if s.Resource == nil || s.Resource.buffer {
			return fmt.Errorf("pipe: framebuffer %s: not a texture", name)
		}
		d := s.Resource.desc
		if s.Level < 0 || s.Level >= d.Levels || s.Layer < 0 || s.Layer >= d.ArraySize*d.Depth {
			return fmt.Errorf("pipe: framebuffer %s: level %d layer %d outside the texture", name, s.Level, s.Layer)
		}
		if max(d.Width>>s.Level, 1) < fb.Width || max(d.Height>>s.Level, 1) < fb.Height {
			return fmt.Errorf("pipe: framebuffer %s: %dx%d level smaller than %dx%d", name, d.Width>>s.Level, d.Height>>s.Level, fb.Width, fb.Height)
		}
		return nil
	}
	for i, s := range fb.Cbufs {
		if err := check(fmt.Sprintf("cbuf %d", i), s); err != nil {
			return err
		}
	}
	if err := check("zsbuf", fb.Zsbuf); err != nil {
		return err
	}
	fb.Cbufs = append([]*Surface(nil), fb.Cbufs...)
	c.mu.Lock()
	c.fb = fb
	c.mu.Unlock()
	return nil
}

// SetStencilRef captures the front and back stencil references as OM_STENCIL_REF.
func (c *Context) SetStencilRef(front, back uint8) {
	c.mu.Lock()
	c.stencilRef = PackStencilRef(front, back)
	c.mu.Unlock()
}

// SetBlendColor captures the blend constant as OM_BLEND_CONST words.
func (c *Context) SetBlendColor(rgba [4]float32) {
	c.mu.Lock()
	c.blendColor = NewBlendColor(rgba)
	c.blendColorF = rgba
	c.mu.Unlock()
}

// SetMinSamples sets the sample shading state (Gallium's set_min_samples:
// GL_SAMPLE_SHADING with MinSampleShading f gives ⌈f × samples⌉, 1 or 0
// when disabled): on a multisampled framebuffer a value above 1 makes the
// device shade every covered sample on its own (shaderdev.Draw.MinSamples).
// The reference renderer draws single-sampled and ignores it.
// spec: GL 4.6 §14.3.1.1
func (c *Context) SetMinSamples(n int) {
	c.mu.Lock()
	c.minSamples = max(n, 0)
	c.mu.Unlock()
}

// SampleShadingMinSamples is the SetMinSamples value of GL's sample shading
// state on a samples-sample framebuffer: with GL_SAMPLE_SHADING enabled and
// MIN_SAMPLE_SHADING_VALUE fraction (clamped to [0, 1]; NaN as 0), at least
// max(⌈fraction × samples⌉, 1) shadings per pixel; 0 when disabled. The
// device groups the samples one to a shading whenever this exceeds 1 (each
// covered sample shaded on its own, gl_SampleMaskIn its one bit), the most
// GL allows and at least what any fraction asks for; at 1 or 0 it shades
// once per pixel. spec: GL 4.6 §14.3.1.1
func SampleShadingMinSamples(enabled bool, fraction float32, samples int) int {
	if !enabled {
		return 0
	}
	f := float64(fraction)
	if !(f > 0) { // NaN too
		f = 0
	}
	f = min(f, 1)
	return max(int(math.Ceil(f*float64(max(samples, 1)))), 1)
}

// SampleMask is GL_SAMPLE_MASK and SAMPLE_MASK_VALUE word 0 (glSampleMaski,
// Gallium's set_sample_mask; bit k: sample k). When enabled, each
// fragment's coverage is ANDed with Mask after the fragment shader.
// spec: GL 4.6 §14.9.3
type SampleMask struct {
	Enable bool
	Mask   uint32
}

// SetSampleMask sets the sample mask state. On the device every sample
// count honours it (shaderdev.Draw.SampleMask); the reference renderer,
// single-sampled, skips a draw whose mask drops its one sample (nothing can
// be written, and an occlusion query counts samples after the mask), and
// refuses one under an open counting query, whose other counts it would
// lose.
func (c *Context) SetSampleMask(m SampleMask) {
	c.mu.Lock()
	c.sampleMask = m
	c.mu.Unlock()
}

// SetScissor sets the scissor rectangle used when the rasterizer enables it.
func (c *Context) SetScissor(s Scissor) {
	c.mu.Lock()
	c.scissor = s
	c.mu.Unlock()
}

// Stats are the routing counters of a context: every draw that left the device
// counted per gate reason, and every unit routed to software per route reason.
// spec: vortexpipe §1.5 (never silent)
type Stats struct {
	Draws     uint64 // direct draws routed
	Device    uint64 // taken on the device
	Reference uint64 // taken by the reference renderer
	Empty     uint64 // nothing to draw
	Fallbacks map[ReasonCode]uint64
	Routes    map[ReasonCode]uint64
	// FallbackDetails counts the fallbacks by reason with its detail
	// ("the device backend does not implement it yet (logic op)").
	FallbackDetails map[string]uint64
}

// Stats returns a copy of the counters.
func (c *Context) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Fallbacks = make(map[ReasonCode]uint64, len(c.stats.Fallbacks))
	for k, v := range c.stats.Fallbacks {
		s.Fallbacks[k] = v
	}
	s.Routes = make(map[ReasonCode]uint64, len(c.stats.Routes))
	for k, v := range c.stats.Routes {
		s.Routes[k] = v
	}
	s.FallbackDetails = make(map[string]uint64, len(c.stats.FallbackDetails))
	for k, v := range c.stats.FallbackDetails {
		s.FallbackDetails[k] = v
	}
	return s
}

// Report formats the fallback and route counters, one reason per line, most
// frequent first.
func (s Stats) Report() []string {
	type kv struct {
		k ReasonCode
		v uint64
	}
	var lines []string
	for _, m := range []struct {
		name string
		m    map[ReasonCode]uint64
	}{{"fallback", s.Fallbacks}, {"routed", s.Routes}} {
		var l []kv
		for k, v := range m.m {
			l = append(l, kv{k, v})
		}
		sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v || l[i].v == l[j].v && l[i].k < l[j].k })
		for _, e := range l {
			lines = append(lines, fmt.Sprintf("%s: %s: %d", m.name, e.k, e.v))
		}
	}
	return lines
}

// DeleteBlendState releases a blend CSO, unbinding it if bound.
func (c *Context) DeleteBlendState(b *Blend) {
	c.mu.Lock()
	if c.blend == b {
		c.blend = nil
	}
	c.mu.Unlock()
}

// DeleteDSAState releases a depth/stencil/alpha CSO, unbinding it if bound.
func (c *Context) DeleteDSAState(d *DSA) {
	c.mu.Lock()
	if c.dsa == d {
		c.dsa = nil
	}
	c.mu.Unlock()
}

// DeleteRasterizerState releases a rasterizer CSO, unbinding it if bound.
func (c *Context) DeleteRasterizerState(r *Rasterizer) {
	c.mu.Lock()
	if c.rast == r {
		c.rast = nil
	}
	c.mu.Unlock()
}

// DeleteSamplerState releases a sampler CSO, unbinding it from every slot.
func (c *Context) DeleteSamplerState(s *Sampler) {
	c.mu.Lock()
	for i := range c.samplers {
		if c.samplers[i] == s {
			c.samplers[i] = nil
		}
	}
	c.mu.Unlock()
}

// DeleteVertexElementsState releases a vertex-elements CSO, unbinding it if bound.
func (c *Context) DeleteVertexElementsState(v *VertexElements) {
	c.mu.Lock()
	if c.velems == v {
		c.velems = nil
	}
	c.mu.Unlock()
}

// VertexElements returns the bound vertex-elements CSO.
func (c *Context) VertexElements() *VertexElements {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.velems
}
