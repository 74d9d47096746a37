package pipe

import (
	"context"
	"fmt"

	"vortexgfx/gfx/frontend"
	"vortexgfx/ref"
	"vortexgfx/ref/program"
)

// MaxClipPlanes is the number of user clip planes (GL_MAX_CLIP_DISTANCES):
// the front end's setup_k and the reference renderer clip against up to
// this many. spec: vortexpipe §3.2 step 2
const MaxClipPlanes = frontend.MaxClipDistances

// ClipState is the user clip plane equations (pipe_clip_state's ucp): plane i
// is the legacy GL_CLIP_PLANEi in the coordinates the vertex stage writes
// gl_ClipVertex in (else gl_Position's; eye space for the fixed-function
// vertex stage). RasterizerState.ClipPlaneEnable
// enables planes; a vertex stage that writes gl_ClipDistance[] clips against
// its own distances instead and ignores the equations.
// spec: GL 4.6 compatibility §13.7 (user clipping); GL 3.0 §2.17
type ClipState struct {
	UCP [MaxClipPlanes][4]float32
}

// SetClipState sets the user clip plane equations for later draws.
// spec: vortexpipe §1.4 (set_clip_state)
func (c *Context) SetClipState(s ClipState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clip = s
}

// clipEnabled is the bound rasterizer's enabled user clip planes (bit i).
func (st *BoundState) clipEnabled() uint8 {
	if st.Rast == nil {
		return 0
	}
	return st.Rast.State.ClipPlaneEnable
}

// refVertex sets the reference renderer's vertex stage for a draw of l with
// st's state: the vertex stage with the enabled user clip planes, the vertex
// colour clamp and the fixed point size (l.vs when none is on) and the
// enabled distances it outputs. The caller holds l.mu. spec: GL 4.6 compatibility §13.7; GL 3.0
// §2.19.6
func (l *linked) refVertex(s *ref.State, st *BoundState) error {
	if l.vs == nil {
		return nil // the fixed-function stage clips itself (refStages)
	}
	en := st.clipEnabled()
	opt := program.VertexOptions{ClampColor: st.clampColour(), IgnorePointSize: st.Rast != nil && st.Rast.State.IgnoreShaderPointSize}
	if en != 0 {
		opt.Clip = program.ClipState{Enabled: en, Planes: st.Clip.UCP}
	}
	if opt == (program.VertexOptions{}) {
		return nil
	}
	vs := l.vsVariants[opt]
	if vs == nil {
		var err error
		if vs, err = l.prog.NewVertexShader(context.Background(), opt); err != nil {
			return fmt.Errorf("vertex stage (clip planes %#x, colour clamp %t, fixed point size %t): %w", en, opt.ClampColor, opt.IgnorePointSize, err)
		}
		if l.vsVariants == nil {
			l.vsVariants = make(map[program.VertexOptions]*program.VertexShader)
		}
		l.vsVariants[opt] = vs
	}
	s.Vertex = vs
	// An enabled plane beyond the distances the stage writes clips nothing.
	if n := vs.ClipDistances(); n > 0 && en != 0 {
		s.ClipDistances = en & uint8(1<<n-1)
	}
	return nil
}
