package reference

import (
	"fmt"

	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shadertest"
)

// Prepared is one draw as this back end lays it out for the reference
// renderer: the linked program (its uniform words hold the draw's values,
// legacy built-ins included), the renderer state (shaders, textures, depth,
// culling, clipping), the vertex records and the draw parameters. Another
// back end that wraps a reference context (the device path) runs the same
// draw elsewhere from it, or hands it back to Render. spec: vortexpipe-driver
// §1.5 (the fallback contract: the reference renderer takes what the device
// cannot), §5.2 (the CPU renderer is the oracle).
type Prepared struct {
	Program *program.Program
	State   *ref.State
	Input   ref.VertexInput
	Params  ref.DrawParams
}

// ownContext returns c as a context of this back end.
func ownContext(c shadertest.Context) (*glContext, error) {
	g, ok := c.(*glContext)
	if !ok {
		return nil, fmt.Errorf("reference: %T is not a reference context", c)
	}
	return g, nil
}

// Prepare lays out draw d of c (a context this package made) without drawing
// it: it does everything Draw does before rasterizing.
func Prepare(c shadertest.Context, d *shadertest.Draw) (*Prepared, error) {
	g, err := ownContext(c)
	if err != nil {
		return nil, err
	}
	return g.prepare(d)
}

// Render draws a prepared draw of c into c's framebuffer on the reference
// renderer.
func Render(c shadertest.Context, p *Prepared) error {
	g, err := ownContext(c)
	if err != nil {
		return err
	}
	return ref.Draw(g.ctx, g.target, p.State, p.Input, p.Params)
}

// Framebuffer returns c's framebuffer: one RGBA8 colour surface and, when the
// test asked for a depth buffer, a D24S8 surface. A wrapping back end keeps it
// in step with its own copy of the window across path switches.
func Framebuffer(c shadertest.Context) (*ref.Target, error) {
	g, err := ownContext(c)
	if err != nil {
		return nil, err
	}
	return g.target, nil
}
