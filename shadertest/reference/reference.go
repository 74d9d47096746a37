// Package reference is the shader test runner's reference back end: piglit
// shader_test programs compiled by the GLSL front end (shader/glsl,
// shader/lower), run by the SIMT executor through ref/program, and drawn by the
// reference renderer (ref) into piglit's RGBA8 window with its origin at the
// bottom left. spec: README "vortex shadertest";
// vortexpipe-driver §5.2 (the CPU renderer is the correctness oracle).
//
// GL state maps onto ref.State: the window viewport and depth range [0,1],
// the depth test and function, depth clamp, back-face culling, the flat shade
// model, two-sided colour, user clip planes (gl_ClipVertex, gl_ClipDistance),
// the program point size, and textures per unit and target. The legacy
// built-in uniforms (matrices and their inverses and transposes, the normal
// matrix, clip planes, depth range, texture matrices, lights) are set from the
// runner's state at every draw. A program without a vertex shader gets GL's
// fixed-function vertex stage (gl_Position = MVP·gl_Vertex, colour and texture
// coordinates passed through).
package reference

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vortexgfx/gl/compare"
	"vortexgfx/gl/format"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shader"
	"vortexgfx/shader/glsl"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shadertest"
)

// maxUnits is the number of texture units a context exposes.
const maxUnits = 16

// Backend is the reference renderer as a shadertest.Backend.
type Backend struct {
	// Program sets the executor warp widths.
	Program program.Config
}

// New returns the reference back end with default warp widths.
func New() *Backend { return &Backend{} }

// Caps implements shadertest.Backend: desktop GL 3.0 compatibility with
// GLSL 1.30 and OpenGL ES 3.0 with GLSL ES 3.00, vertex and fragment stages.
func (b *Backend) Caps() shadertest.Caps {
	return shadertest.Caps{GL: 30, GLSL: 130, GLES: 30, GLSLES: 300,
		Extensions: []string{"GL_ARB_texture_rg", "GL_ARB_draw_buffers", "GL_ARB_explicit_attrib_location"},
		Limits: map[string]int{
			"GL_MAX_VERTEX_OUTPUT_COMPONENTS": 64,
			// The uniform word buffer has no fixed size here.
			"GL_MAX_FRAGMENT_UNIFORM_COMPONENTS": 16384,
			"GL_MAX_VERTEX_UNIFORM_COMPONENTS":   16384,
			"GL_MAX_VERTEX_ATTRIBS":              16,
			"GL_MAX_VARYING_COMPONENTS":          64,
			"GL_NUM_PROGRAM_BINARY_FORMATS":      0,
			"GL_MAX_CLIP_PLANES":                 8,
		}}
}

// NewContext implements shadertest.Backend.
func (b *Backend) NewContext(ctx context.Context, cfg shadertest.ContextConfig) (shadertest.Context, error) {
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > ref.MaxTargetSize || cfg.Height > ref.MaxTargetSize {
		return nil, fmt.Errorf("reference: window %dx%d out of range", cfg.Width, cfg.Height)
	}
	// Like piglit's window, the framebuffer has a depth (and stencil)
	// buffer only when the test asks for one; without it the depth test
	// always passes.
	ds := format.Invalid
	if cfg.DepthBuffer {
		ds = format.D24S8
	}
	t, err := ref.NewTarget(cfg.Width, cfg.Height, []format.Format{format.RGBA8}, ds)
	if err != nil {
		return nil, err
	}
	if cfg.DepthBuffer {
		if err := t.ClearDepth(1); err != nil {
			return nil, err
		}
	}
	c := &glContext{ctx: ctx, cfg: cfg, target: t, pcfg: b.Program,
		textures: make([]ref.TextureBinding, maxUnits*int(program.NumTargets))}
	if err := c.initTextures(); err != nil {
		return nil, err
	}
	return c, nil
}

// glContext is one test's GL context.
type glContext struct {
	ctx    context.Context
	cfg    shadertest.ContextConfig
	pcfg   program.Config
	target *ref.Target
	prog   *program.Program
	// textures is indexed by program.TextureIndex(unit, target).
	textures []ref.TextureBinding
	vd       *shadertest.VertexData
	binds    []attribBind
	// version is the highest GLSL version of the linked shaders.
	version int
	// The current program's stages, kept across draws (they read the
	// program's uniform buffer, so uniform changes need no rebuild).
	vsCache map[program.VertexOptions]*program.VertexShader
	fsCache *program.FragmentShader
}

// Close implements shadertest.Context.
func (c *glContext) Close() error { return nil }

// Link implements shadertest.Context: each shader section is compiled on its
// own, then all are linked into one program.
func (c *glContext) Link(p *shadertest.Program) error {
	opts := glsl.Options{DefaultVersion: c.cfg.GLSL.Num, Compatibility: c.cfg.API == shadertest.APIGL,
		Extensions: []string{"GL_ARB_explicit_attrib_location", "GL_ARB_draw_buffers", "GL_ARB_texture_rg"}}
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
	prog, err := program.New(cp, c.pcfg)
	if err != nil {
		return err
	}
	c.prog = prog
	c.vsCache, c.fsCache = map[program.VertexOptions]*program.VertexShader{}, nil
	return nil
}

// SetUniform implements shadertest.Context.
func (c *glContext) SetUniform(u *shadertest.Uniform) error {
	if c.prog == nil {
		return shadertest.ErrUniformNotFound
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
		err = c.prog.SetUniform(u.Name, src, words)
	}
	if errors.Is(err, program.ErrNoUniform) {
		return fmt.Errorf("%w: %v", shadertest.ErrUniformNotFound, err)
	}
	return err
}

// Clear implements shadertest.Context.
func (c *glContext) Clear(r *shadertest.ClearRequest) error {
	if r.Color {
		if err := c.target.ClearColor(0, r.ColorValue); err != nil {
			return err
		}
	}
	if r.Depth && c.target.DepthStencil != nil {
		if err := c.target.ClearDepth(float32(r.DepthValue)); err != nil {
			return err
		}
	}
	return nil
}

// ReadPixels implements shadertest.Context.
func (c *glContext) ReadPixels(x, y, w, h int, dst []byte) error {
	s := c.target.Color[0]
	if x < 0 || y < 0 || w < 0 || h < 0 || x+w > s.W || y+h > s.H || len(dst) < w*h*4 {
		return fmt.Errorf("reference: read %dx%d at (%d,%d) outside the %dx%d window", w, h, x, y, s.W, s.H)
	}
	for r := 0; r < h; r++ {
		off := ((y+r)*s.W + x) * 4
		copy(dst[r*w*4:(r+1)*w*4], s.Data[off:off+w*4])
	}
	return nil
}

// ReadDepth implements shadertest.Context.
func (c *glContext) ReadDepth(x, y int) (float32, error) {
	d := c.target.DepthStencil
	if d == nil || x < 0 || y < 0 || x >= d.W || y >= d.H {
		return 0, fmt.Errorf("reference: depth read at (%d,%d) outside the window", x, y)
	}
	return d.Depth(x, y), nil
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
	}
	return 0, fmt.Errorf("primitive %s: %w", p, shadertest.ErrUnsupported)
}
