package reference

import (
	"fmt"

	"vortexgfx/pipe"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
	"vortexgfx/shadertest"
)

// Prepared is one draw as this back end lays it out before the driver takes
// it: the linked program (its uniform words hold the draw's values, legacy
// built-ins included), the textures and depth test (State), the vertex
// records and the draw parameters. bind (pipe.go)
// translates it into the driver's state and draw. spec: vortexpipe-driver
// §5.2 (the CPU renderer is the oracle).
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

// Bind lays draw d of c (a context this package made) out and sets c's
// driver state for it without drawing: it returns the draw Draw would hand
// pipe.Context.DrawVBO, so a wrapping back end (the device path) can ask
// pipe where it runs first and count it.
func Bind(c shadertest.Context, d *shadertest.Draw) (*pipe.DrawInfo, error) {
	g, err := ownContext(c)
	if err != nil {
		return nil, err
	}
	return g.bindDraw(d)
}

// Pipe returns the driver context c draws through; its framebuffer is the
// window (colour attachment 0 RGBA8 and, when the test asked for a depth
// buffer, a D24S8 depth attachment).
func Pipe(c shadertest.Context) (*pipe.Context, error) {
	g, err := ownContext(c)
	if err != nil {
		return nil, err
	}
	return g.pc, nil
}
