package program

import (
	"context"
	"fmt"

	"vortexgfx/ref"
	"vortexgfx/shader/exec"
	"vortexgfx/shader/ir"
)

// GeometryShader runs a program's geometry stage as ref's geometry stage:
// one invocation per input primitive per lane, its input words the vertex
// stage's output records of the primitive's vertices (the vertex stage's
// varyings, when a geometry stage follows) and gl_PrimitiveIDIn, its
// emitted vertices handed to ref in lane (primitive) order.
// spec: GL 4.6 §11.3.4, GLSL 1.50 §8.10.
type GeometryShader struct {
	p      *Program
	ctx    context.Context
	m      *exec.Machine
	tu     *texUnit
	clip   ClipState
	nclip  int
	nosize bool
	clamp  bool
}

// refTopology maps a geometry layout primitive to ref's topology.
var refTopology = map[ir.Prim]ref.Topology{
	ir.PrimPoints: ref.Points, ir.PrimLines: ref.Lines, ir.PrimLinesAdjacency: ref.LinesAdjacency,
	ir.PrimTriangles: ref.Triangles, ir.PrimTrianglesAdjacency: ref.TrianglesAdjacency,
	ir.PrimLineStrip: ref.LineStrip, ir.PrimTriangleStrip: ref.TriangleStrip,
}

// NewGeometryShader returns the geometry stage of p bound to ctx and the
// draw's state (IgnorePointSize and ClampColor apply to its outputs). User
// clipping is the geometry stage's, as the vertex stage's is without one:
// the gl_ClipDistance it writes, else opt.Clip's enabled planes dotted with
// the gl_ClipVertex it writes (else gl_Position). spec: GL 3.2
// compatibility §2.12.3 (the geometry shader's outputs are clipped as the
// vertex shader's are without one); GL 4.6 compatibility §13.7.
func (p *Program) NewGeometryShader(ctx context.Context, opt VertexOptions) (*GeometryShader, error) {
	if p.IR.GS == nil {
		return nil, fmt.Errorf("program: geometry %w", ErrNoStage)
	}
	m, err := exec.New(p.IR.GS, exec.Config{Width: p.vw})
	if err != nil {
		return nil, err
	}
	if err := m.SetUniforms(p.Uniforms); err != nil {
		return nil, err
	}
	g := &GeometryShader{p: p, ctx: ctx, m: m, tu: newTexUnit(p, p.vw), clip: opt.Clip, nosize: opt.IgnorePointSize, clamp: opt.ClampColor}
	switch {
	case p.clipDist[0] >= 0:
		g.nclip = p.clipDist[1]
	case opt.Clip.Enabled != 0:
		g.nclip = bitsLen(opt.Clip.Enabled)
	}
	m.SetSampler(g.tu)
	return g, nil
}

// InputPrimitive implements ref.GeometryShader.
func (g *GeometryShader) InputPrimitive() ref.Topology {
	return refTopology[g.p.IR.GS.Geometry.In]
}

// OutputPrimitive implements ref.GeometryShader.
func (g *GeometryShader) OutputPrimitive() ref.Topology {
	return refTopology[g.p.IR.GS.Geometry.Out]
}

// Layout implements ref.GeometryShader.
func (g *GeometryShader) Layout() ref.VertexLayout {
	return ref.VertexLayout{Varyings: g.p.nvary, ClipDistances: g.nclip, PointSize: g.p.psize >= 0 && !g.nosize}
}

// ShadePrimitives implements ref.GeometryShader.
func (g *GeometryShader) ShadePrimitives(b *ref.GeometryBatch, tex ref.Textures) error {
	g.tu.tex = tex
	p, m, w := g.p, g.m, g.p.vw
	gs := p.IR.GS
	stride := int(gs.Geometry.VertexWords)
	if b.Vertices != gs.Geometry.In.Vertices() || b.In.Varyings < stride {
		return fmt.Errorf("program: geometry batch of %d vertices with %d words, the program takes %d with %d",
			b.Vertices, b.In.Varyings, gs.Geometry.In.Vertices(), stride)
	}
	ow, nv, nc := gs.OutputWords, p.nvary, g.nclip
	pid := gs.Geometry.PrimitiveIDWord()
	// An instanced geometry shader runs NumInvocations times per primitive;
	// lane l of a run is invocation item%inv of primitive item/inv, so the
	// lanes' emitted vertices reach ref primitive by primitive, each
	// primitive's invocations in order. spec: GL 4.6 §11.3.4.2
	inv := gs.Geometry.NumInvocations()
	invWord := gs.Geometry.InvocationIDWord()
	hasInv := gs.InputWords > invWord
	for base := 0; base < b.N*inv; base += w {
		n := min(w, b.N*inv-base)
		for v := 0; v < b.Vertices; v++ {
			for k := 0; k < stride; k++ {
				arr := m.Input(v*stride + k)
				for l := 0; l < n; l++ {
					arr[l] = b.Varyings[((base+l)/inv*b.Vertices+v)*b.In.Varyings+k]
				}
			}
		}
		arr := m.Input(pid)
		for l := 0; l < n; l++ {
			arr[l] = uint32(b.PrimitiveID[(base+l)/inv])
		}
		if hasInv {
			arr := m.Input(invWord)
			for l := 0; l < n; l++ {
				arr[l] = uint32((base + l) % inv)
			}
		}
		mask := laneMask(n)
		if _, err := m.Run(g.ctx, mask, mask); err != nil {
			return err
		}
		for l := 0; l < n; l++ {
			cnt, words, restart := m.Emitted(l)
			for i := 0; i < cnt; i++ {
				rec := words[i*ow : (i+1)*ow]
				j := b.Out.Add(restart[i], 0)
				for k := 0; k < 4; k++ {
					b.Out.Position[j][k] = ir.BitsF32(rec[k])
				}
				copy(b.Out.Varyings[j*nv:(j+1)*nv], rec[:min(ow, nv)])
				if g.clamp {
					p.clampColour(b.Out.Varyings[j*nv : (j+1)*nv])
				}
				if p.psize >= 0 && !g.nosize {
					b.Out.PointSize[j] = ir.BitsF32(rec[p.psize])
				}
				g.clipDistances(b.Out.ClipDist[j*nc:(j+1)*nc], rec)
			}
		}
	}
	return nil
}

// clipDistances writes one emitted vertex's clip distances: gl_ClipDistance[]
// as written, or gl_ClipVertex (else gl_Position) dotted with each enabled
// plane, as the vertex stage's clipDistances does.
func (g *GeometryShader) clipDistances(out []float32, rec []uint32) {
	p := g.p
	if p.clipDist[0] >= 0 {
		for k := range out {
			out[k] = ir.BitsF32(rec[p.clipDist[0]+k])
		}
		return
	}
	cw := max(p.clipVert, 0)
	for k := range out {
		pl := g.clip.Planes[k]
		d := 0.0
		for i := 0; i < 4; i++ {
			d += float64(pl[i]) * float64(ir.BitsF32(rec[cw+i]))
		}
		out[k] = float32(d)
	}
}
