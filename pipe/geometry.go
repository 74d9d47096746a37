package pipe

import (
	"context"
	"fmt"

	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

// Geometry shaders. A geometry shader CSO (CreateShaderState with
// StageGeometry) is bound with BindGSState and links with the bound vertex
// and fragment shaders into one program. The device has no geometry stage
// yet, so Route gates every draw with one bound (GateGeometryStage): the
// reference renderer assembles the input primitives (adjacency included),
// runs the geometry stage and rasterizes what it emits; under STRICT such a
// draw fails. spec: GL 4.6 §11.3; vortexpipe §1.5, §3.1 (a unit the device
// cannot run routes the whole draw to the reference renderer).

// BindGSState binds a geometry shader (nil unbinds).
func (c *Context) BindGSState(s *Shader) error {
	if s != nil && s.Desc.Stage != StageGeometry {
		return fmt.Errorf("pipe: BindGSState: not a geometry shader")
	}
	c.mu.Lock()
	c.gs = s
	c.mu.Unlock()
	return nil
}

// linkBound links the bound state's stages (VS, GS, FS).
func (c *programCache) linkBound(st *BoundState) (*linked, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.linkStages(st.VS, st.GS, st.FS)
}

// refGeometry sets the reference renderer's geometry stage: the linked one,
// or its form for the draw's clip-plane, point-size and colour-clamp state,
// and the user clip distances it writes (or, with legacy clip planes
// enabled, computes from gl_ClipVertex).
func (l *linked) refGeometry(s *ref.State, st *BoundState) error {
	if l.gs == nil {
		return nil
	}
	opt := program.VertexOptions{ClampColor: st.clampColour(), IgnorePointSize: st.Rast != nil && st.Rast.State.IgnoreShaderPointSize}
	if en := st.clipEnabled(); en != 0 {
		opt.Clip = program.ClipState{Enabled: en, Planes: st.Clip.UCP}
	}
	gs := l.gs
	if opt != (program.VertexOptions{}) {
		gs = l.gsVariants[opt]
		if gs == nil {
			var err error
			if gs, err = l.prog.NewGeometryShader(context.Background(), opt); err != nil {
				return fmt.Errorf("geometry stage (clip planes %#x, colour clamp %t, fixed point size %t): %w", opt.Clip.Enabled, opt.ClampColor, opt.IgnorePointSize, err)
			}
			if l.gsVariants == nil {
				l.gsVariants = make(map[program.VertexOptions]*program.GeometryShader)
			}
			l.gsVariants[opt] = gs
		}
	}
	s.Geometry = gs
	if n := gs.Layout().ClipDistances; n > 0 {
		s.ClipDistances = st.clipEnabled() & uint8(1<<n-1)
	}
	return nil
}
