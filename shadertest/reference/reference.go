// Package reference is the shader test runner's reference back end: piglit
// shader_test programs compiled by the GLSL front end (shader/glsl,
// shader/lower) and drawn through the driver, pipe.Context.DrawVBO, on a
// reference screen (pipe.Options.ForceReference: the SIMT executor through
// ref/program and the reference renderer, ref) into piglit's RGBA8 window with
// its origin at the bottom left. spec: README "vortex shadertest";
// vortexpipe-driver §5.2 (the CPU renderer is the correctness oracle).
//
// The context links the program itself (compile and link errors are the
// test's, by section) and lays each draw out (Prepared: the uniform words
// with the legacy built-ins, the renderer state, the vertex records); pipe.go
// translates that into the driver's state: one shader CSO per stage with its
// sections as ShaderDesc.Parts (a stage the program lacks unbound: GL's
// fixed-function one), the uniform words as constant buffer 0 in the driver's
// layout slot by slot by name and the sampler units, SetLegacyState and
// SetClipState, a rasterizer CSO (culling, depth clamp, GL_FLAT, two-sided
// colour, the compatibility vertex colour clamp, the program point size), a
// DSA CSO (depth test and function), each sampled texture with its view state
// (swizzle, depth texture mode, base and maximum level) and sampler, and the
// vertex records as one buffer with an element per attribute column where
// the driver reads it (AttributeLayout). Backend.Screen gives the device back
// end the same context over a device screen.
package reference

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/gl/msaa"
	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
	"vortexgfx/shadertest"
)

// maxUnits is the number of texture units a context exposes.
const maxUnits = 16

// Backend is the reference renderer as a shadertest.Backend.
type Backend struct {
	// Program sets the executor warp widths.
	Program program.Config
	// Screen opens the driver screen a context draws through (nil: a
	// reference screen, pipe.Options.ForceReference); the device back end
	// passes a screen over the device model.
	Screen func() (*pipe.Screen, error)
}

// New returns the reference back end with default warp widths.
func New() *Backend { return &Backend{} }

// Caps implements shadertest.Backend: desktop GL 3.3 compatibility with
// GLSL 3.30 — GLSL 1.40's uniform blocks, rectangle and buffer textures,
// inverse, gl_InstanceID and primitive restart; 1.50's geometry stage
// ([geometry shader] sections, the adjacency draw modes), interface blocks,
// gl_PerVertex (the compatibility members through a geometry shader
// included), gl_FragCoord's layout qualifiers, gl_PrimitiveID and depth
// clamp; 3.30's layout(location) on vertex inputs and fragment outputs,
// layout(index) and the bit-cast built-ins — and OpenGL ES 3.0 with GLSL
// ES 3.00. GL_EXT_provoking_vertex's first-vertex convention is the
// rasterizer CSO's FlatshadeFirst. GL_ARB_derivative_control's coarse
// derivatives are one difference per 2x2 quad, its fine ones per pixel row or
// column (shader/exec's quad rule); GL_ARB_draw_instanced's gl_InstanceIDARB
// is gl_InstanceID; GL_ARB_texture_gather's textureGather and
// textureGatherOffset are the sampler's gather. GL_ARB_gpu_shader5 is GLSL
// 4.00's shader features in GLSL 1.50/3.30 shaders (interpolateAt* as below):
// instanced geometry shaders and vertex streams (only stream 0 is
// rasterized) run on the reference renderer's geometry stage, a run-time
// textureGatherOffset offset reaches the sampler per lane.
// spec: ARB_gpu_shader5. GL_ARB_sample_shading, GL_OES_sample_variables and
// GL_OES_shader_multisample_interpolation: the per-sample built-ins and the
// interpolation functions (shader/lower's interp.go) on the runner's
// single-sample window, where sample shading and GL_SAMPLE_MASK are
// honoured as on any target (pipe.Context.SetMinSamples, SetSampleMask;
// shader_runner has no command that sets either). GL 3.2/3.3 commands shader_runner has that
// the runner lacks (polygon mode) skip the tests that use them.
// GL_ARB_separate_shader_objects and GL_ARB_enhanced_layouts are the front
// end's and the runner's (shadertest sso.go); a vertex input with a
// component skips (attribcomp.go).
// GL_ARB_shader_storage_buffer_object, GL_ARB_shader_atomic_counters,
// GL_ARB_shader_image_load_store and GL_ARB_shader_image_size: storage in the
// vertex and fragment stages of draws (storage.go; pipe/storage.go runs them on
// the reference renderer). GL_ARB_shader_group_vote: the group is the lanes
// a warp runs together (ir.VoteAny). spec: GLSL 1.50, GLSL 3.30, ARB_separate_shader_objects,
// ARB_enhanced_layouts (README "vortex shadertest").
func (b *Backend) Caps() shadertest.Caps {
	return shadertest.Caps{GL: 33, GLSL: 330, GLES: 30, GLSLES: 300, Stages: []shadertest.Stage{shadertest.StageGeometry},
		Extensions: append([]string{"GL_ARB_texture_rg", "GL_ARB_draw_buffers", "GL_ARB_explicit_attrib_location", "GL_AMD_shader_trinary_minmax",
			"GL_ARB_shader_bit_encoding", "GL_ARB_shading_language_packing", "GL_EXT_shader_integer_mix",
			"GL_MESA_shader_integer_functions", "GL_ARB_texture_query_levels", "GL_ARB_texture_query_lod",
			"GL_EXT_texture_array", "GL_ARB_shader_texture_lod", "GL_ARB_shading_language_420pack",
			"GL_ARB_uniform_buffer_object", "GL_ARB_explicit_uniform_location", "GL_ARB_arrays_of_arrays",
			"GL_ARB_texture_rectangle", "GL_ARB_cull_distance", "GL_ARB_shading_language_include",
			"GL_EXT_provoking_vertex", "GL_ARB_derivative_control", "GL_ARB_draw_instanced", "GL_ARB_texture_gather", "GL_ARB_gpu_shader5",
			"GL_ARB_sample_shading", "GL_OES_sample_variables", "GL_OES_shader_multisample_interpolation",
			"GL_EXT_shader_framebuffer_fetch", "GL_EXT_shader_framebuffer_fetch_non_coherent", "GL_ARB_texture_storage",
			"GL_ARB_conservative_depth", "GL_AMD_conservative_depth",
			"GL_ARB_separate_shader_objects", "GL_ARB_enhanced_layouts", "GL_ARB_shader_group_vote"}, storageExtensions...),
		Limits: map[string]int{
			"GL_MAX_VERTEX_OUTPUT_COMPONENTS": types.MaxVertexOutputComponents,
			// The uniform word buffer has no fixed size here.
			"GL_MAX_FRAGMENT_UNIFORM_COMPONENTS": 16384,
			"GL_MAX_VERTEX_UNIFORM_COMPONENTS":   16384,
			"GL_MAX_VERTEX_ATTRIBS":              16,
			"GL_MAX_VARYING_COMPONENTS":          64,
			"GL_NUM_PROGRAM_BINARY_FORMATS":      0,
			"GL_MAX_CLIP_PLANES":                 8,
			// pipe takes 2-, 4-, 8- and 16-sample targets (gl/msaa).
			"GL_MAX_SAMPLES": msaa.MaxSamples,
			// EXT_shader_framebuffer_fetch's query: a discard in a
			// fetching shader drops the whole fragment, never single
			// samples (GL_FALSE). spec: EXT_shader_framebuffer_fetch
			"GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT": 0,
			// Draws' storage (storage.go): the compiler's
			// gl_Max*AtomicCounters and gl_MaxAtomicCounterBindings
			// (shader/glsl/types), image units as gl_MaxImageUnits.
			"GL_MAX_VERTEX_ATOMIC_COUNTERS":          8,
			"GL_MAX_FRAGMENT_ATOMIC_COUNTERS":        8,
			"GL_MAX_COMBINED_ATOMIC_COUNTERS":        8,
			"GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS":   types.MaxAtomicCounterBindings,
			"GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS": types.MaxAtomicCounterBindings,
			"GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS":  types.MaxAtomicCounterBindings,
			"GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS":    8,
			"GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS":  8,
			"GL_MAX_IMAGE_UNITS":                     types.MaxImageUnits,
			"GL_MAX_VERTEX_IMAGE_UNIFORMS":           types.MaxImageUnits,
			"GL_MAX_FRAGMENT_IMAGE_UNIFORMS":         types.MaxImageUnits,
		}}
}

// NewContext implements shadertest.Backend.
func (b *Backend) NewContext(ctx context.Context, cfg shadertest.ContextConfig) (shadertest.Context, error) {
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > ref.MaxTargetSize || cfg.Height > ref.MaxTargetSize {
		return nil, fmt.Errorf("reference: window %dx%d out of range", cfg.Width, cfg.Height)
	}
	open := b.Screen
	if open == nil {
		open = func() (*pipe.Screen, error) {
			return pipe.NewScreenWithCaps(pipe.Caps{}, pipe.Options{ForceReference: true}), nil
		}
	}
	screen, err := open()
	if err != nil {
		return nil, err
	}
	c := &glContext{ctx: ctx, cfg: cfg, pcfg: b.Program, screen: screen, pc: screen.NewContext(pipe.ContextOptions{}),
		textures: make([]ref.TextureBinding, maxUnits*int(program.NumTargets)),
		views:    map[*sampler.Texture]*pipe.SamplerView{}, smps: map[sampler.Sampler]*pipe.Sampler{},
		texRes: map[*shadertest.Texture]*pipe.Resource{}, msRes: map[*shadertest.Framebuffer]*pipe.Resource{},
		sampledTex: map[*shadertest.Texture]*sampler.Texture{}, unsampled: map[int]error{}}
	if err := c.openWindow(); err != nil {
		screen.Close()
		return nil, err
	}
	if err := c.initTextures(); err != nil {
		screen.Close()
		return nil, err
	}
	return c, nil
}

// openWindow makes piglit's window the driver's framebuffer: RGBA8 cleared
// to (0, 0, 0, 0) and, only when the test asks for one (without it the depth
// test always passes), a D24S8 depth buffer cleared to 1.
func (c *glContext) openWindow() error {
	target := func(f format.Format) (*pipe.Surface, error) {
		t, err := c.screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: f, Width: c.cfg.Width, Height: c.cfg.Height,
			Depth: 1, ArraySize: 1, Levels: 1})
		if err != nil {
			return nil, fmt.Errorf("reference: %v window: %w", f, err)
		}
		return &pipe.Surface{Resource: t}, nil
	}
	cb, err := target(format.RGBA8)
	if err != nil {
		return err
	}
	c.fb = pipe.Framebuffer{Width: c.cfg.Width, Height: c.cfg.Height, Cbufs: []*pipe.Surface{cb}}
	flags := pipe.ClearColor0
	if c.cfg.DepthBuffer {
		if c.fb.Zsbuf, err = target(format.D24S8); err != nil {
			return err
		}
		flags |= pipe.ClearDepth
	}
	if err := c.pc.SetFramebufferState(c.fb); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	c.window, c.readFB = c.fb, c.fb
	return c.pc.Clear(flags, [4]float32{}, 1, 0)
}

// glContext is one test's GL context.
type glContext struct {
	ctx  context.Context
	cfg  shadertest.ContextConfig
	pcfg program.Config
	prog *program.Program
	// The driver context every draw goes through, its window, the bound
	// shader CSOs with their attribute layout, and the driver textures and
	// samplers made from the reference ones (pipe.go).
	screen *pipe.Screen
	pc     *pipe.Context
	fb     pipe.Framebuffer
	// window is the window's framebuffer, readFB the one ReadPixels and
	// Blit read, texRes and msRes the storage of the textures and
	// renderbuffers fb commands attach (framebuffer.go).
	window pipe.Framebuffer
	readFB pipe.Framebuffer
	texRes map[*shadertest.Texture]*pipe.Resource
	msRes  map[*shadertest.Framebuffer]*pipe.Resource
	// sampledTex is the sampler texture SetTexture made of each runner
	// texture: its driver texture is the one fb commands render into.
	sampledTex map[*shadertest.Texture]*sampler.Texture
	// unsampled holds, by program.TextureIndex, why a bound texture
	// cannot be sampled here (texture.go's SetTexture).
	unsampled map[int]error
	vs, fs    *pipe.Shader
	gs        *pipe.Shader // the geometry stage (nil: none)
	layout    []pipe.AttributeSlot
	views     map[*sampler.Texture]*pipe.SamplerView
	smps      map[sampler.Sampler]*pipe.Sampler
	// textures is indexed by program.TextureIndex(unit, target).
	textures []ref.TextureBinding
	vd       *shadertest.VertexData
	binds    []attribBind
	// version is the highest GLSL version of the linked shaders.
	version int
	// storage is the storage buffers and images of draws (storage.go; nil
	// until a test makes one).
	storage *storageState
}

// Close implements shadertest.Context.
func (c *glContext) Close() error { return c.screen.Close() }

// ActiveUniform implements shadertest.UniformReflector over the linked program.
func (c *glContext) ActiveUniform(name string) (glsl.ActiveUniform, bool) {
	if c.prog == nil || c.prog.Linked == nil {
		return glsl.ActiveUniform{}, false
	}
	return c.prog.Linked.ActiveUniform(name)
}

// ProgramResource implements shadertest.ResourceReflector over the linked
// program: GL_BUFFER_DATA_SIZE of a shader storage block; other interfaces
// and properties are not reflected.
func (c *glContext) ProgramResource(iface, name, prop string) (int, bool, error) {
	if c.prog == nil || c.prog.Linked == nil {
		return 0, false, nil
	}
	if iface != "GL_SHADER_STORAGE_BLOCK" || prop != "GL_BUFFER_DATA_SIZE" {
		return 0, false, fmt.Errorf("%s %s: %w", iface, prop, shadertest.ErrUnsupported)
	}
	n, ok := c.prog.Linked.StorageBlockDataSize(name)
	return n, ok, nil
}

// Link implements shadertest.Context: each shader section is compiled on its
// own, then all are linked into one program.
func (c *glContext) Link(p *shadertest.Program) error {
	opts := glsl.Options{DefaultVersion: c.cfg.GLSL.Num, Compatibility: c.cfg.API == shadertest.APIGL,
		Extensions: append([]string{"GL_ARB_explicit_attrib_location", "GL_ARB_draw_buffers", "GL_ARB_texture_rg"}, storageExtensions...), Includes: p.Includes}
	if opts.DefaultVersion == 0 {
		opts.DefaultVersion = 110
	}
	srcs := make([]shader.Source, 0, len(p.Shaders))
	var unsupported error // the first section of a stage this backend has no form of
	for i, s := range p.Shaders {
		var st glsl.Stage
		switch s.Stage {
		case shadertest.StageVertex:
			st = glsl.Vertex
		case shadertest.StageFragment:
			st = glsl.Fragment
		case shadertest.StageGeometry:
			st = glsl.Geometry
		default:
			unsupported = fmt.Errorf("%s shaders: %w", s.Stage, shadertest.ErrUnsupported)
		}
		if unsupported != nil {
			break
		}
		srcs = append(srcs, shader.Source{Name: fmt.Sprintf("%s-%d", s.Stage, i), Stage: st, Text: s.Source, Options: opts})
	}
	cp, err := shader.Compile(srcs...)
	var serr *shader.Error
	switch {
	case errors.As(err, &serr):
		c.version = max(c.version, serr.Version)
	case err == nil:
		c.version = max(c.version, cp.Version)
	}
	if err != nil && serr != nil && serr.Phase == shader.PhaseCompile {
		// The sections before an unsupported stage compile first, as GL would.
		s := p.Shaders[serr.Source]
		return &shadertest.CompileError{Stage: s.Stage, Line: s.Line, Log: serr.Error()}
	}
	if unsupported != nil {
		return unsupported
	}
	if err != nil {
		switch {
		case serr == nil:
			return err
		case serr.Phase == shader.PhaseLink:
			return &shadertest.LinkError{Log: serr.Error()}
		}
		var el ast.ErrorList
		if errors.As(serr.Err, &el) {
			return fmt.Errorf("lowering: %w", serr.Err)
		}
		return serr.Err
	}
	lp := cp.Linked
	if lp.Vertex == nil && lp.Fragment == nil {
		return &shadertest.LinkError{Log: "no shaders"}
	}
	if err := componentAttributes(lp); err != nil {
		return err
	}
	prog, err := program.New(cp, c.pcfg)
	if err != nil {
		return err
	}
	c.prog = prog
	return c.linkDriver(p, opts)
}

// linkDriver gives the driver one shader CSO per stage, its sections in file
// order (ShaderDesc.Parts), and an unbound stage for a stage the program has
// none of (the fixed-function one), and links them.
func (c *glContext) linkDriver(p *shadertest.Program, opts glsl.Options) error {
	var shaders [3]*pipe.Shader
	for k, st := range [3]shadertest.Stage{shadertest.StageVertex, shadertest.StageFragment, shadertest.StageGeometry} {
		var d *pipe.ShaderDesc
		for i, s := range p.Shaders {
			if s.Stage != st {
				continue
			}
			if d == nil {
				d = &pipe.ShaderDesc{Stage: pipe.Stage(k), Name: fmt.Sprintf("%s-%d", s.Stage, i), GLSL: s.Source, Options: opts}
				continue
			}
			d.Parts = append(d.Parts, s.Source)
		}
		if d == nil {
			continue
		}
		sh, err := c.pc.CreateShaderState(*d, nil)
		if err != nil {
			return fmt.Errorf("reference: %w", err)
		}
		shaders[k] = sh
	}
	for _, s := range []*pipe.Shader{c.vs, c.fs, c.gs} {
		if s != nil {
			c.pc.DeleteShaderState(s)
		}
	}
	c.vs, c.fs, c.gs = shaders[0], shaders[1], shaders[2]
	if err := c.pc.BindVSState(c.vs); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	if err := c.pc.BindGSState(c.gs); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	if err := c.pc.BindFSState(c.fs); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	layout, err := c.pc.AttributeLayout()
	if err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	c.layout = layout
	return nil
}

// SetUniform implements shadertest.Context.
func (c *glContext) SetUniform(u *shadertest.Uniform) error {
	if c.prog == nil {
		return shadertest.ErrUniformNotFound
	}
	if c.imageUniform(u) {
		return nil
	}
	var words []uint32
	src := irF32
	switch {
	case u.Floats != nil:
		for _, f := range u.Floats {
			words = append(words, f32bits(f))
		}
	case u.Ints != nil:
		src = irI32
		for _, v := range u.Ints {
			words = append(words, uint32(v))
		}
	case u.Uints != nil:
		src = irU32
		words = append(words, u.Uints...)
	default:
		return fmt.Errorf("%s uniforms: %w", u.Base, shadertest.ErrUnsupported)
	}
	var err error
	if u.Location >= 0 {
		err = c.prog.SetUniformLocation(u.Location, src, words)
	} else {
		err = c.prog.SetBlockUniform(u.Name, u.BlockIndex, src, words)
	}
	if errors.Is(err, program.ErrNoUniform) {
		return fmt.Errorf("%w: %v", shadertest.ErrUniformNotFound, err)
	}
	return err
}

// Clear implements shadertest.Context.
func (c *glContext) Clear(r *shadertest.ClearRequest) error {
	var flags pipe.ClearFlags
	if r.Color {
		if c.floatClearOfInteger() {
			return fmt.Errorf("clear color on an integer attachment (undefined in GL): %w", shadertest.ErrUnsupported)
		}
		for i := range c.fb.Cbufs {
			flags |= pipe.ClearColor0 << i
		}
	}
	if r.Depth && c.fb.Zsbuf != nil {
		flags |= pipe.ClearDepth
	}
	if flags == 0 {
		return nil
	}
	return c.pc.Clear(flags, r.ColorValue, float32(r.DepthValue), 0)
}

// ReadPixels implements shadertest.Context.
func (c *glContext) ReadPixels(x, y, w, h int, dst []byte) error {
	fb := c.readFB
	if x < 0 || y < 0 || w < 0 || h < 0 || x+w > fb.Width || y+h > fb.Height || len(dst) < w*h*4 {
		return fmt.Errorf("reference: read %dx%d at (%d,%d) outside the %dx%d framebuffer", w, h, x, y, fb.Width, fb.Height)
	}
	return c.onRead(func() error { return c.pc.ReadRect(0, x, y, w, h, dst) })
}

// ReadDepth implements shadertest.Context.
func (c *glContext) ReadDepth(x, y int) (float32, error) {
	if c.fb.Zsbuf == nil || x < 0 || y < 0 || x >= c.cfg.Width || y >= c.cfg.Height {
		return 0, fmt.Errorf("reference: depth read at (%d,%d) outside the window", x, y)
	}
	z, err := c.pc.ReadDepth()
	if err != nil {
		return 0, err
	}
	return z[y*c.cfg.Width+x], nil
}

// depthFunc maps a GL depth function name.
func depthFunc(name string) compare.Func {
	switch strings.TrimPrefix(name, "GL_") {
	case "NEVER":
		return compare.Never
	case "EQUAL":
		return compare.Equal
	case "LEQUAL":
		return compare.LessEqual
	case "GREATER":
		return compare.Greater
	case "NOTEQUAL":
		return compare.NotEqual
	case "GEQUAL":
		return compare.GreaterEqual
	case "ALWAYS":
		return compare.Always
	}
	return compare.Less
}

// topology maps a GL primitive.
func topology(p shadertest.Primitive) (ref.Topology, error) {
	switch p {
	case shadertest.Points:
		return ref.Points, nil
	case shadertest.Lines:
		return ref.Lines, nil
	case shadertest.LineLoop:
		return ref.LineLoop, nil
	case shadertest.LineStrip:
		return ref.LineStrip, nil
	case shadertest.Triangles:
		return ref.Triangles, nil
	case shadertest.TriangleStrip:
		return ref.TriangleStrip, nil
	case shadertest.TriangleFan:
		return ref.TriangleFan, nil
	case shadertest.Quads:
		return ref.Quads, nil
	case shadertest.QuadStrip:
		return ref.QuadStrip, nil
	case shadertest.Polygon:
		return ref.Polygon, nil
	case shadertest.LinesAdjacency:
		return ref.LinesAdjacency, nil
	case shadertest.LineStripAdjacency:
		return ref.LineStripAdjacency, nil
	case shadertest.TrianglesAdjacency:
		return ref.TrianglesAdjacency, nil
	case shadertest.TriangleStripAdjacency:
		return ref.TriangleStripAdjacency, nil
	}
	return 0, fmt.Errorf("primitive %s: %w", p, shadertest.ErrUnsupported)
}
