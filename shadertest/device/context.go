package device

import (
	"context"
	"errors"
	"fmt"

	"vortexgfx/gl/format"
	"vortexgfx/gl/sampler"
	"vortexgfx/pipe"
	"vortexgfx/shader/glsl"
	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// ErrRouted is wrapped by a draw's error under Options.Strict when the device
// cannot take the draw; the message names the reason.
// spec: vortexpipe-driver §1.5.1 (STRICT turns a fallback into an error)
var ErrRouted = errors.New("draw routed to the reference renderer")

// glContext is one test's context drawing through the driver: a pipe
// context over the device model owns the window and takes every draw
// (pipe.Route decides where it runs); the wrapped reference context links
// the program (its errors are the test's), holds the uniform values and lays
// each draw's vertex records out, and with Options.Compare draws every draw
// too as the shadow window.
type glContext struct {
	ctx  context.Context
	b    *Backend
	cfg  shadertest.ContextConfig
	into *Record
	rec  Record
	ref  shadertest.Context

	screen  *pipe.Screen
	pc      *pipe.Context
	fb      pipe.Framebuffer
	vs, fs  *pipe.Shader
	layout  []pipe.AttributeSlot
	views   map[*sampler.Texture]*pipe.SamplerView
	smps    map[sampler.Sampler]*pipe.Sampler
	changed bool
}

func (b *Backend) newContext(ctx context.Context, cfg shadertest.ContextConfig, into *Record) (shadertest.Context, error) {
	rc, err := b.ref.NewContext(ctx, cfg)
	if err != nil {
		return nil, err
	}
	screen, err := pipe.OpenScreen(b.cfg, pipe.Options{Strict: b.opts.Strict})
	if err != nil {
		return nil, fmt.Errorf("device: %w", err)
	}
	c := &glContext{ctx: ctx, b: b, cfg: cfg, into: into, ref: rc, screen: screen, pc: screen.NewContext(pipe.ContextOptions{}),
		views: map[*sampler.Texture]*pipe.SamplerView{}, smps: map[sampler.Sampler]*pipe.Sampler{}}
	target := func(f format.Format) (*pipe.Surface, error) {
		t, err := screen.CreateTexture(pipe.TextureDesc{Target: pipe.Target2D, Format: f, Width: cfg.Width, Height: cfg.Height,
			Depth: 1, ArraySize: 1, Levels: 1})
		if err != nil {
			return nil, fmt.Errorf("device: %v window: %w", f, err)
		}
		return &pipe.Surface{Resource: t}, nil
	}
	cb, err := target(format.RGBA8)
	if err != nil {
		screen.Close()
		return nil, err
	}
	c.fb = pipe.Framebuffer{Width: cfg.Width, Height: cfg.Height, Cbufs: []*pipe.Surface{cb}}
	flags := pipe.ClearColor0
	if cfg.DepthBuffer {
		if c.fb.Zsbuf, err = target(format.D24S8); err != nil {
			screen.Close()
			return nil, err
		}
		flags |= pipe.ClearDepth
	}
	if err := c.pc.SetFramebufferState(c.fb); err != nil {
		screen.Close()
		return nil, fmt.Errorf("device: %w", err)
	}
	if err := c.pc.Clear(flags, [4]float32{}, 1, 0); err != nil {
		screen.Close()
		return nil, fmt.Errorf("device: %w", err)
	}
	return c, nil
}

// Close implements shadertest.Context.
func (c *glContext) Close() error {
	c.b.closed(&c.rec, c.into)
	return errors.Join(c.screen.Close(), c.ref.Close())
}

// Link implements shadertest.Context: the reference context links (its
// compile and link errors are the test's); the driver gets one shader CSO
// per stage, its sections in file order (ShaderDesc.Parts), and an unbound
// stage for a stage the program has none of (the fixed-function one).
func (c *glContext) Link(p *shadertest.Program) error {
	if err := c.ref.Link(p); err != nil {
		return err
	}
	opts := glsl.Options{DefaultVersion: c.cfg.GLSL.Num, Compatibility: c.cfg.API == shadertest.APIGL,
		Extensions: []string{"GL_ARB_explicit_attrib_location", "GL_ARB_draw_buffers", "GL_ARB_texture_rg"}}
	if opts.DefaultVersion == 0 {
		opts.DefaultVersion = 110
	}
	var shaders [2]*pipe.Shader
	for k, st := range [2]shadertest.Stage{shadertest.StageVertex, shadertest.StageFragment} {
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
			return fmt.Errorf("device: %w", err)
		}
		shaders[k] = sh
	}
	for _, s := range []*pipe.Shader{c.vs, c.fs} {
		if s != nil {
			c.pc.DeleteShaderState(s)
		}
	}
	c.vs, c.fs = shaders[0], shaders[1]
	if err := c.pc.BindVSState(c.vs); err != nil {
		return fmt.Errorf("device: %w", err)
	}
	if err := c.pc.BindFSState(c.fs); err != nil {
		return fmt.Errorf("device: %w", err)
	}
	layout, err := c.pc.AttributeLayout()
	if err != nil {
		return fmt.Errorf("device: %w", err)
	}
	c.layout = layout
	return nil
}

// SetVertexData implements shadertest.Context.
func (c *glContext) SetVertexData(vd *shadertest.VertexData) error { return c.ref.SetVertexData(vd) }

// SetUniform implements shadertest.Context: the value lands in the reference
// program, which hands the driver every uniform at each draw.
func (c *glContext) SetUniform(u *shadertest.Uniform) error { return c.ref.SetUniform(u) }

// SetTexture implements shadertest.Context.
func (c *glContext) SetTexture(unit int, t *shadertest.Texture) error {
	return c.ref.SetTexture(unit, t)
}

// Clear implements shadertest.Context.
func (c *glContext) Clear(r *shadertest.ClearRequest) error {
	c.changed = true
	if c.b.opts.Compare {
		if err := c.ref.Clear(r); err != nil {
			return err
		}
	}
	var flags pipe.ClearFlags
	if r.Color {
		flags |= pipe.ClearColor0
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
	if err := c.compare(); err != nil {
		return err
	}
	if x < 0 || y < 0 || w < 0 || h < 0 || x+w > c.cfg.Width || y+h > c.cfg.Height || len(dst) < w*h*4 {
		return fmt.Errorf("device: read %dx%d at (%d,%d) outside the %dx%d window", w, h, x, y, c.cfg.Width, c.cfg.Height)
	}
	img, err := c.pc.ReadPixels(0)
	if err != nil {
		return err
	}
	for r := 0; r < h; r++ {
		row := c.cfg.Height - 1 - (y + r) // image row 0 is the top
		copy(dst[r*w*4:(r+1)*w*4], img.Pix[row*img.Stride+4*x:row*img.Stride+4*(x+w)])
	}
	return nil
}

// ReadDepth implements shadertest.Context.
func (c *glContext) ReadDepth(x, y int) (float32, error) {
	if err := c.compare(); err != nil {
		return 0, err
	}
	if c.fb.Zsbuf == nil || x < 0 || y < 0 || x >= c.cfg.Width || y >= c.cfg.Height {
		return 0, fmt.Errorf("device: depth read at (%d,%d) outside the window", x, y)
	}
	z, err := c.pc.ReadDepth()
	if err != nil {
		return 0, err
	}
	return z[y*c.cfg.Width+x], nil
}

// Draw implements shadertest.Context: the reference context lays the draw
// out; the driver draws it, on the device when pipe.Route lets it.
func (c *glContext) Draw(d *shadertest.Draw) error {
	c.changed = true
	pd, err := reference.Prepare(c.ref, d)
	if err != nil {
		return err
	}
	if c.b.opts.Compare {
		if err := reference.Render(c.ref, pd); err != nil {
			return err
		}
	}
	if d.PatchVertices > 0 {
		return c.routed("patches (no tessellation on the device path)")
	}
	info, err := c.bind(d, pd)
	if err != nil {
		return err
	}
	decs, err := c.pc.Where(info)
	if err != nil {
		return err
	}
	why := ""
	for _, dec := range decs {
		if dec.Reference && why == "" {
			why = reasonText(d.Mode, dec.Gates)
		}
	}
	if why != "" && c.b.opts.Strict {
		return fmt.Errorf("%w: %s", ErrRouted, why)
	}
	if err := c.pc.DrawVBO(info); err != nil {
		return fmt.Errorf("device: %w", err)
	}
	if why != "" {
		c.rec.route(why)
		return nil
	}
	c.rec.DeviceDraws++
	if len(decs) > 0 && !decs[0].Empty {
		st := c.pc.LastDeviceDraw()
		c.rec.SWTex += b2i(st.Route.SWTex)
		c.rec.SWOM += b2i(st.Route.SWOM)
		c.rec.SWRaster += b2i(st.Route.SWRaster)
	}
	return nil
}

// routed counts a draw the device path has no form of and draws it on the
// reference renderer (or, strict, fails naming the reason).
func (c *glContext) routed(why string) error {
	if c.b.opts.Strict {
		return fmt.Errorf("%w: %s", ErrRouted, why)
	}
	return fmt.Errorf("%s: %w", why, shadertest.ErrUnsupported)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
