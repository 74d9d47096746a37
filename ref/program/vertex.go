package program

import (
	"context"
	"fmt"
	"math"

	"vortexgfx/ref"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// ClipState is the user clipping state of a draw: the enabled clip planes or
// clip distances (bit i: GL_CLIP_PLANEi / GL_CLIP_DISTANCEi) and the plane
// equations gl_ClipVertex is dotted with (eye space, as glClipPlane stores
// them). spec: GL 4.6 compatibility §13.7 (user clipping).
type ClipState struct {
	Enabled uint8
	Planes  [ref.MaxClipDistances][4]float32
}

// VertexOptions is the draw state the vertex stage depends on.
type VertexOptions struct {
	Clip ClipState
	// IgnorePointSize uses the fixed point size even when the shader writes
	// gl_PointSize (desktop GL without GL_PROGRAM_POINT_SIZE).
	IgnorePointSize bool
	// ClampColor clamps the legacy colour outputs (gl_FrontColor,
	// gl_BackColor and the secondary colours) to [0,1], as GL's vertex colour
	// clamp does by default. spec: GL 3.0 §2.19.6 (CLAMP_VERTEX_COLOR).
	ClampColor bool
}

// VertexShader runs a program's vertex stage as ref's vertex stage.
type VertexShader struct {
	p      *Program
	ctx    context.Context
	m      *exec.Machine
	tu     *texUnit
	clip   ClipState
	nclip  int
	nosize bool
	clamp  bool
}

// NewVertexShader returns the vertex stage of p bound to ctx (which cancels
// long-running shaders) and the draw's state.
func (p *Program) NewVertexShader(ctx context.Context, opt VertexOptions) (*VertexShader, error) {
	clip := opt.Clip
	if p.IR.VS == nil {
		return nil, fmt.Errorf("program: vertex %w", ErrNoStage)
	}
	m, err := exec.New(p.IR.VS, exec.Config{Width: p.vw})
	if err != nil {
		return nil, err
	}
	if err := m.SetUniforms(p.Uniforms); err != nil {
		return nil, err
	}
	v := &VertexShader{p: p, ctx: ctx, m: m, tu: newTexUnit(p, p.vw), clip: clip, nosize: opt.IgnorePointSize, clamp: opt.ClampColor}
	m.SetSampler(v.tu)
	switch {
	case p.IR.GS != nil:
		// The geometry stage reads the whole output record; it clips.
	case p.clipDist[0] >= 0:
		v.nclip = p.clipDist[1]
	case clip.Enabled != 0:
		v.nclip = bitsLen(clip.Enabled)
	}
	return v, nil
}

// CloneVertex implements ref.VertexCloner: a program without memory
// stores or atomics computes each vertex from its own inputs alone, so ref
// may shade runs of vertices concurrently, each with its own executor; it
// returns nil for a program with them (their order is observable).
func (v *VertexShader) CloneVertex() ref.VertexShader {
	if !effectFree(v.p.IR.VS) {
		return nil
	}
	c, err := v.p.NewVertexShader(v.ctx, VertexOptions{Clip: v.clip, IgnorePointSize: v.nosize, ClampColor: v.clamp})
	if err != nil {
		// New succeeded on the same program once, so it cannot fail
		// now; without a clone the draw shades serially.
		return nil
	}
	return c
}

// effectFree reports whether prog (its main code and functions) writes no
// memory: no store and no atomic.
func effectFree(prog *ir.Program) bool {
	return !prog.AnyInst(func(in *ir.Inst) bool { return in.Op == ir.MemStore || in.Op == ir.MemAtomic })
}

func bitsLen(m uint8) int {
	n := 0
	for m != 0 {
		n++
		m >>= 1
	}
	return n
}

// ClipDistances is the number of clip distances the stage outputs; a draw
// enables the clip state's planes among them (ref.State.ClipDistances).
func (v *VertexShader) ClipDistances() int { return v.nclip }

// Layout implements ref.VertexShader.
func (v *VertexShader) Layout() ref.VertexLayout {
	if v.p.IR.GS != nil {
		// The geometry stage's outputs carry the clip and cull distances
		// of what is rasterised (ref/geometry.go); the vertex stage's
		// records are its inputs only.
		return ref.VertexLayout{Varyings: v.p.vsVary}
	}
	l := ref.VertexLayout{Varyings: v.p.nvary, ClipDistances: v.nclip, PointSize: v.p.psize >= 0 && !v.nosize}
	if c := v.p.cullDist; c[1] > 0 && c[0]+c[1] <= v.p.nvary {
		l.CullWord, l.CullDistances = c[0], c[1]
	}
	return l
}

// ShadeVertices implements ref.VertexShader: the batch runs Width vertices at a
// time, attribute word w of a vertex being input word w.
func (v *VertexShader) ShadeVertices(b *ref.VertexBatch, tex ref.Textures) error {
	v.tu.tex = tex
	v.m.SetMemory(v.p.mem)
	p, m, w := v.p, v.m, v.p.vw
	in := p.IR.VS.InputWords
	nv := p.nvary
	geom := p.IR.GS != nil
	if geom {
		nv = p.vsVary
	}
	for base := 0; base < b.N; base += w {
		n := min(w, b.N-base)
		for iw := 0; iw < in && iw < b.AttribWords; iw++ {
			arr := m.Input(iw)
			for l := 0; l < n; l++ {
				arr[l] = b.Attribs[(base+l)*b.AttribWords+iw]
			}
		}
		if iw := p.vsID[0]; iw >= 0 {
			arr := m.Input(iw)
			for l := 0; l < n; l++ {
				arr[l] = uint32(b.VertexID[base+l])
			}
		}
		if iw := p.vsID[1]; iw >= 0 {
			arr := m.Input(iw)
			for l := 0; l < n; l++ {
				arr[l] = uint32(b.InstanceID[base+l])
			}
		}
		mask := laneMask(n)
		if _, err := m.Run(v.ctx, mask, mask); err != nil {
			return err
		}
		outw := min(p.IR.VS.OutputWords, nv)
		for ow := 0; ow < outw; ow++ {
			arr := m.Output(ow)
			for l := 0; l < n; l++ {
				b.Varyings[(base+l)*nv+ow] = arr[l]
			}
		}
		if geom {
			// The output record is the geometry stage's input; the
			// built-in outputs below are the geometry stage's words.
			continue
		}
		if v.clamp {
			for l := 0; l < n; l++ {
				p.clampColour(b.Varyings[(base+l)*nv : (base+l+1)*nv])
			}
		}
		for l := 0; l < n && outw < nv; l++ {
			clear(b.Varyings[(base+l)*nv+outw : (base+l+1)*nv])
		}
		for k := 0; k < 4; k++ {
			arr := m.Output(k)
			for l := 0; l < n; l++ {
				b.Position[base+l][k] = ir.BitsF32(arr[l])
			}
		}
		if ow := p.psize; ow >= 0 && !v.nosize && b.PointSize != nil {
			arr := m.Output(ow)
			for l := 0; l < n; l++ {
				b.PointSize[base+l] = ir.BitsF32(arr[l])
			}
		}
		if v.nclip > 0 {
			v.clipDistances(b, base, n)
		}
	}
	return nil
}

// clipDistances writes the batch's clip distances: gl_ClipDistance[] as
// written, or gl_ClipVertex (else gl_Position) dotted with each enabled plane.
func (v *VertexShader) clipDistances(b *ref.VertexBatch, base, n int) {
	p, m, nc := v.p, v.m, v.nclip
	if p.clipDist[0] >= 0 {
		for k := 0; k < nc; k++ {
			arr := m.Output(p.clipDist[0] + k)
			for l := 0; l < n; l++ {
				b.ClipDist[(base+l)*nc+k] = ir.BitsF32(arr[l])
			}
		}
		return
	}
	cw := 0
	if p.clipVert >= 0 {
		cw = p.clipVert
	}
	x, y, z, ww := m.Output(cw), m.Output(cw+1), m.Output(cw+2), m.Output(cw+3)
	for k := 0; k < nc; k++ {
		pl := v.clip.Planes[k]
		for l := 0; l < n; l++ {
			d := float64(pl[0])*float64(ir.BitsF32(x[l])) + float64(pl[1])*float64(ir.BitsF32(y[l])) +
				float64(pl[2])*float64(ir.BitsF32(z[l])) + float64(pl[3])*float64(ir.BitsF32(ww[l]))
			b.ClipDist[(base+l)*nc+k] = float32(d)
		}
	}
}

// laneMask is the execution mask of a warp's first n lanes.
func laneMask(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return uint64(1)<<uint(n) - 1
}

// clampColour clamps the legacy colour words of one output record to [0, 1]
// (GL_CLAMP_VERTEX_COLOR: the vertex stage's, or the geometry stage's that
// follows it).
func (p *Program) clampColour(rec []uint32) {
	for _, c := range p.vsColour {
		for w := c[0]; w < c[0]+c[1] && w < len(rec); w++ {
			rec[w] = math.Float32bits(min(max(ir.BitsF32(rec[w]), 0), 1))
		}
	}
}
