package device

import (
	"context"
	"errors"
	"fmt"

	"vortexgfx/pipe"
	"vortexgfx/shader/glsl"
	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// ErrRouted is wrapped by a draw's error under Options.Strict when the device
// cannot take the draw; the message names the reason.
// spec: vortexpipe-driver §1.5.1 (STRICT turns a fallback into an error)
var ErrRouted = errors.New("draw routed to the reference renderer")

// glContext is one test's context: a reference back end context drawing
// through a pipe screen over the device model (pipe.Route decides where each
// draw runs), its draws counted into a Record, and with Options.Compare a
// plain reference context as the shadow window.
type glContext struct {
	b    *Backend
	into *Record
	rec  Record
	ref  shadertest.Context
	pc   *pipe.Context
	// shadow is the whole test on the reference renderer alone (Compare);
	// changed is set by draws and clears since the last comparison.
	shadow  shadertest.Context
	changed bool
}

func (b *Backend) newContext(ctx context.Context, cfg shadertest.ContextConfig, into *Record) (shadertest.Context, error) {
	rc, err := b.dev.NewContext(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pc, err := reference.Pipe(rc)
	if err != nil {
		return nil, err
	}
	c := &glContext{b: b, into: into, ref: rc, pc: pc}
	if b.opts.Compare {
		if c.shadow, err = b.ref.NewContext(ctx, cfg); err != nil {
			return nil, errors.Join(err, rc.Close())
		}
	}
	return c, nil
}

// Close implements shadertest.Context: it adds the context's record to its
// back end.
func (c *glContext) Close() error {
	c.b.closed(&c.rec, c.into)
	err := c.ref.Close()
	if c.shadow != nil {
		err = errors.Join(err, c.shadow.Close())
	}
	return err
}

// ProgramResource implements shadertest.ResourceReflector through the
// reference context's link, as ActiveUniform.
func (c *glContext) ProgramResource(iface, name, prop string) (int, bool, error) {
	if r, ok := c.ref.(shadertest.ResourceReflector); ok {
		return r.ProgramResource(iface, name, prop)
	}
	return 0, false, fmt.Errorf("%s %s: %w", iface, prop, shadertest.ErrUnsupported)
}

// ActiveUniform implements shadertest.UniformReflector: the program is the
// reference context's, linked once for both paths.
func (c *glContext) ActiveUniform(name string) (glsl.ActiveUniform, bool) {
	if r, ok := c.ref.(shadertest.UniformReflector); ok {
		return r.ActiveUniform(name)
	}
	return glsl.ActiveUniform{}, false
}

// Link implements shadertest.Context.
func (c *glContext) Link(p *shadertest.Program) error {
	if c.shadow != nil {
		// The shadow's result is the same program's; its error is the
		// device context's too.
		_ = c.shadow.Link(p)
	}
	return c.ref.Link(p)
}

// SetVertexData implements shadertest.Context.
func (c *glContext) SetVertexData(vd *shadertest.VertexData) error {
	if c.shadow != nil {
		_ = c.shadow.SetVertexData(vd)
	}
	return c.ref.SetVertexData(vd)
}

// SetUniform implements shadertest.Context.
func (c *glContext) SetUniform(u *shadertest.Uniform) error {
	if c.shadow != nil {
		_ = c.shadow.SetUniform(u)
	}
	return c.ref.SetUniform(u)
}

// SetTexture implements shadertest.Context.
func (c *glContext) SetTexture(unit int, t *shadertest.Texture) error {
	if c.shadow != nil {
		_ = c.shadow.SetTexture(unit, t)
	}
	return c.ref.SetTexture(unit, t)
}

// Clear implements shadertest.Context.
func (c *glContext) Clear(r *shadertest.ClearRequest) error {
	c.changed = true
	if c.shadow != nil {
		if err := c.shadow.Clear(r); err != nil {
			return err
		}
	}
	return c.ref.Clear(r)
}

// ReadPixels implements shadertest.Context.
func (c *glContext) ReadPixels(x, y, w, h int, dst []byte) error {
	if err := c.compare(); err != nil {
		return err
	}
	return c.ref.ReadPixels(x, y, w, h, dst)
}

// ReadDepth implements shadertest.Context.
func (c *glContext) ReadDepth(x, y int) (float32, error) {
	if err := c.compare(); err != nil {
		return 0, err
	}
	return c.ref.ReadDepth(x, y)
}

// Draw implements shadertest.Context: the reference context lays the draw
// out and binds its state; pipe says where it runs (the record counts it by
// that) and draws it.
func (c *glContext) Draw(d *shadertest.Draw) error {
	c.changed = true
	if c.shadow != nil {
		if err := c.shadow.Draw(d); err != nil {
			return err
		}
	}
	info, err := reference.Bind(c.ref, d)
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
		c.rec.vertexStage(st.Route)
		c.rec.ISA = c.rec.ISA.Add(st.ISA)
	}
	return nil
}

// reasonText is the record's reason for a draw the driver sends to the
// reference renderer: its first gate, a line or point draw the device does
// not take named by the draw's mode.
func reasonText(mode shadertest.Primitive, gates []pipe.Reason) string {
	if len(gates) == 0 {
		return "reference renderer"
	}
	g := gates[0]
	switch g.Code {
	case pipe.GateTopology:
		return fmt.Sprintf("primitive %s (%s)", mode, g.String())
	case pipe.GateDeviceBackend:
		return g.String()
	}
	return g.Code.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
