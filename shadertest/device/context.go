package device

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"vortexgfx/gfx/shaderdev"
	"vortexgfx/ref"
	"vortexgfx/ref/format"
	"vortexgfx/ref/program"
	"vortexgfx/shadertest"
	"vortexgfx/shadertest/reference"
)

// ErrRouted is wrapped by a draw's error under Options.Strict when the device
// cannot take the draw; the message names the reason.
// spec: vortexpipe-driver §1.5.1 (STRICT turns a fallback into an error)
var ErrRouted = errors.New("draw routed to the reference renderer")

// side says which copy of the window holds the latest pixels.
type side uint8

const (
	inSync     side         = iota // the reference framebuffer and the device agree
	refAhead                       // the reference framebuffer is newer
	devAhead                       // the device targets are newer
	clearDepth = 0x00FFFFFF        // the OM's depth word for 1.0 with stencil 0
)

// glContext is one test's context: a reference context that does all the
// bookkeeping and the routed draws, and a device model opened at the first
// draw it can take.
type glContext struct {
	ctx  context.Context
	b    *Backend
	cfg  shadertest.ContextConfig
	into *Record
	rec  Record
	// ref is the wrapped reference context; fb its framebuffer.
	ref shadertest.Context
	fb  *ref.Target
	// shadow is the whole test on the reference renderer alone (Compare).
	shadow shadertest.Context
	// changed is set by draws and clears since the last comparison.
	changed bool
	where   side

	dev *shaderdev.Device
	// devProg is the program dev was opened with.
	devProg *shaderdev.Program
	// linked is the reference program the device program was made from
	// (nil before the first draw after a link); prog is its device form
	// and why the reason it has none.
	linked *program.Program
	prog   *shaderdev.Program
	why    string
	progs  int
	// color and depth are the window words as the device holds them
	// (A8R8G8B8; depth 0..23 and stencil 24..31), reused across switches.
	color, depth []uint32
	scratch      draftBuffers
}

func (b *Backend) newContext(ctx context.Context, cfg shadertest.ContextConfig, into *Record) (shadertest.Context, error) {
	rc, err := b.ref.NewContext(ctx, cfg)
	if err != nil {
		return nil, err
	}
	fb, err := reference.Framebuffer(rc)
	if err != nil {
		return nil, err
	}
	c := &glContext{ctx: ctx, b: b, cfg: cfg, into: into, ref: rc, fb: fb, where: refAhead}
	if b.opts.Compare {
		if c.shadow, err = b.ref.NewContext(ctx, cfg); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Close implements shadertest.Context: it releases the device and adds the
// context's record to its back end.
func (c *glContext) Close() error {
	var err error
	if c.dev != nil {
		err = c.dev.Close()
		c.dev = nil
	}
	c.b.closed(&c.rec, c.into)
	return errors.Join(err, c.ref.Close())
}

// Link implements shadertest.Context: the reference context links; the
// device program is made at the next draw.
func (c *glContext) Link(p *shadertest.Program) error {
	c.linked, c.prog, c.why = nil, nil, ""
	if c.shadow != nil {
		// The shadow's result is the same program's; its error is the
		// reference context's too.
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

// Clear implements shadertest.Context: a clear of the whole window (colour
// and, when there is one, depth) runs on the device when the device holds
// the window (it drew last, or both copies agree); any other clear runs on
// the reference framebuffer.
func (c *glContext) Clear(r *shadertest.ClearRequest) error {
	c.changed = true
	if c.shadow != nil {
		if err := c.shadow.Clear(r); err != nil {
			return err
		}
	}
	onDevice := c.where == devAhead || c.where == inSync && c.dev != nil
	if onDevice && r.Color && (r.Depth || c.fb.DepthStencil == nil) {
		col := colorWord(r.ColorValue)
		z := uint32(clearDepth)
		if c.fb.DepthStencil != nil {
			z = depthWord(float32(r.DepthValue))
		}
		c.where = devAhead
		return c.dev.Clear(col, z)
	}
	if err := c.toReference(); err != nil {
		return err
	}
	c.where = refAhead
	return c.ref.Clear(r)
}

// ReadPixels implements shadertest.Context.
func (c *glContext) ReadPixels(x, y, w, h int, dst []byte) error {
	if err := c.toReference(); err != nil {
		return err
	}
	if err := c.compare(); err != nil {
		return err
	}
	return c.ref.ReadPixels(x, y, w, h, dst)
}

// ReadDepth implements shadertest.Context.
func (c *glContext) ReadDepth(x, y int) (float32, error) {
	if err := c.toReference(); err != nil {
		return 0, err
	}
	if err := c.compare(); err != nil {
		return 0, err
	}
	return c.ref.ReadDepth(x, y)
}

// Draw implements shadertest.Context: the reference context lays the draw
// out (vertex records, uniforms with the legacy built-ins, state); the device
// draws it when it can, else the reference renderer does (or, strict, the
// draw fails naming the reason).
func (c *glContext) Draw(d *shadertest.Draw) error {
	c.changed = true
	if c.shadow != nil {
		if err := c.shadow.Draw(d); err != nil {
			return err
		}
	}
	pd, err := reference.Prepare(c.ref, d)
	if err != nil {
		return err
	}
	plan, why := c.route(d, pd)
	if why != "" {
		if c.b.opts.Strict {
			return fmt.Errorf("%w: %s", ErrRouted, why)
		}
		c.rec.route(why)
		if err := c.toReference(); err != nil {
			return err
		}
		c.where = refAhead
		return reference.Render(c.ref, pd)
	}
	if plan.Count == 0 {
		c.rec.DeviceDraws++ // no whole triangle: nothing to draw
		return nil
	}
	if err := c.open(); err != nil {
		return err
	}
	if err := c.toDevice(); err != nil {
		return err
	}
	c.where = devAhead
	st, err := c.dev.Draw(plan)
	if err != nil {
		return fmt.Errorf("device: %w", err)
	}
	c.rec.DeviceDraws++
	c.rec.SWTex += b2i(st.Route.SWTex)
	c.rec.SWOM += b2i(st.Route.SWOM)
	c.rec.SWRaster += b2i(st.Route.SWRaster)
	return nil
}

// toReference makes the reference framebuffer current: after device draws it
// reads the device targets back into it.
func (c *glContext) toReference() error {
	if c.where != devAhead {
		return nil
	}
	color, depth, err := c.dev.Targets()
	if err != nil {
		return err
	}
	cd := c.fb.Color[0].Data
	for k, w := range color {
		cd[4*k], cd[4*k+1], cd[4*k+2], cd[4*k+3] = uint8(w>>16), uint8(w>>8), uint8(w), uint8(w>>24)
	}
	if ds := c.fb.DepthStencil; ds != nil {
		zd := ds.Data
		for k, z := range depth {
			// OM word: depth [23:0], stencil [31:24]; ref's D24S8 word:
			// depth << 8 | stencil.
			binary.LittleEndian.PutUint32(zd[4*k:], z<<8|z>>24)
		}
	}
	c.color, c.depth = color, depth
	c.where = inSync
	return nil
}

// toDevice makes the device targets current: after reference draws or
// clears it writes the reference framebuffer into them.
func (c *glContext) toDevice() error {
	if c.where != refAhead {
		return nil
	}
	n := c.fb.W * c.fb.H
	if len(c.color) != n {
		c.color, c.depth = make([]uint32, n), make([]uint32, n)
	}
	cd := c.fb.Color[0].Data
	for k := range c.color {
		c.color[k] = uint32(cd[4*k+3])<<24 | uint32(cd[4*k])<<16 | uint32(cd[4*k+1])<<8 | uint32(cd[4*k+2])
	}
	if ds := c.fb.DepthStencil; ds != nil {
		zd := ds.Data
		for k := range c.depth {
			z := binary.LittleEndian.Uint32(zd[4*k:])
			c.depth[k] = z>>8 | z<<24
		}
	} else {
		for k := range c.depth {
			c.depth[k] = clearDepth
		}
	}
	if err := c.dev.SetTargets(c.color, c.depth); err != nil {
		return err
	}
	c.where = inSync
	return nil
}

// colorWord is an RGBA clear colour as the device's A8R8G8B8 word, rounded
// as the reference framebuffer's RGBA8 clear.
func colorWord(v [4]float32) uint32 {
	u := format.UNorm8
	return u(v[3])<<24 | u(v[0])<<16 | u(v[1])<<8 | u(v[2])
}

// depthWord is a depth clear value as the OM's word (stencil 0).
func depthWord(z float32) uint32 { return format.UNorm24(z) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
