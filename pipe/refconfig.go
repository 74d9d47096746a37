package pipe

import (
	"context"
	"runtime"

	"vortexgfx/ref"
)

// ReferenceConfig configures a context's draws on the reference renderer: the
// fragment workers and, for a caller that instruments the oracle (counting the
// vertices it transforms or the fragments it shades, a per-pixel heat map), a
// wrapper of the linked program's stages. Both change how the reference
// renderer runs a draw, never what it draws. spec: vortexpipe §5.2 (the CPU
// renderer is the oracle and runs the same compiled shaders)
type ReferenceConfig struct {
	// Context, when set, cancels reference draws (ref.Draw returns its
	// error); the default is never.
	Context context.Context
	// Workers is the fragment worker count (0: runtime.NumCPU()).
	Workers int
	// Stages, when set, returns the stages a reference draw runs in place of
	// the linked program's vertex and fragment stages (wrapping them).
	Stages func(vs ref.VertexShader, fs ref.FragmentShader) (ref.VertexShader, ref.FragmentShader)
}

// SetReferenceConfig sets the reference-renderer configuration for the
// context's next draws.
func (c *Context) SetReferenceConfig(rc ReferenceConfig) {
	c.mu.Lock()
	c.refConf = rc
	c.mu.Unlock()
}

// applyReferenceConfig puts the context's reference configuration on a draw's
// state and returns the context the draw runs under.
func (c *Context) applyReferenceConfig(s *ref.State) context.Context {
	c.mu.Lock()
	rc := c.refConf
	c.mu.Unlock()
	s.Workers = runtime.NumCPU()
	if rc.Workers > 0 {
		s.Workers = rc.Workers
	}
	if rc.Stages != nil {
		s.Vertex, s.Fragment = rc.Stages(s.Vertex, s.Fragment)
	}
	if rc.Context != nil {
		return rc.Context
	}
	return context.Background()
}
