package glsl

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
)

// linkGeometry merges the geometry layout declarations of the geometry
// stage's units: each of the input primitive, the output primitive and
// max_vertices must be declared by at least one unit, and the units that
// declare one must agree. spec: GLSL 1.50 §4.3.8.1, §4.3.8.2.
func (p *Program) linkGeometry(errs *ast.ErrorList) {
	g := ast.GeometryLayout{MaxVertices: -1}
	for _, u := range p.Geometry.Units {
		f := u.File
		gl := f.Geometry
		if gl.Input != "" {
			if g.Input != "" && g.Input != gl.Input {
				errs.Add(f.Pos(), "geometry input primitive "+gl.Input+" conflicts with "+g.Input+" declared in another geometry shader")
			}
			g.Input = gl.Input
		}
		if gl.Output != "" {
			if g.Output != "" && g.Output != gl.Output {
				errs.Add(f.Pos(), "geometry output primitive "+gl.Output+" conflicts with "+g.Output+" declared in another geometry shader")
			}
			g.Output = gl.Output
		}
		if gl.Invocations > 0 {
			// spec: ARB_gpu_shader5 §4.3.8.1 (every declaration in the
			// program must agree)
			if g.Invocations > 0 && g.Invocations != gl.Invocations {
				errs.Add(f.Pos(), fmt.Sprintf("invocations = %d conflicts with %d declared in another geometry shader", gl.Invocations, g.Invocations))
			}
			g.Invocations = gl.Invocations
		}
		if gl.MaxVertices >= 0 {
			if g.MaxVertices >= 0 && g.MaxVertices != gl.MaxVertices {
				errs.Add(f.Pos(), fmt.Sprintf("max_vertices = %d conflicts with %d declared in another geometry shader", gl.MaxVertices, g.MaxVertices))
			}
			g.MaxVertices = gl.MaxVertices
		}
	}
	pos := p.Geometry.Units[0].File.Pos()
	// spec: ARB_gpu_shader5 §8.10: a stream outside 0..MaxVertexStreams-1
	// fails the link (Mesa's rule for the constant argument), and so does a
	// non-zero stream with an output primitive other than points.
	for _, u := range p.Geometry.Units {
		for _, s := range u.File.Geometry.Streams {
			switch {
			case s < 0 || s >= types.MaxVertexStreams:
				errs.Add(u.File.Pos(), fmt.Sprintf("vertex stream %d is outside 0..%d", s, types.MaxVertexStreams-1))
			case s != 0 && g.Output != "" && g.Output != "points":
				errs.Add(u.File.Pos(), fmt.Sprintf("vertex stream %d needs the points output primitive, not %s", s, g.Output))
			}
		}
	}
	if p.Vertex == nil && p.Fragment != nil {
		// A geometry stage takes the vertex stage's output: a program that
		// rasterizes needs one (a geometry shader linked on its own, as a
		// compiler test does, has no such partner to miss).
		errs.Add(pos, "a program with a geometry shader and a fragment shader needs a vertex shader")
	}
	if g.Input == "" {
		errs.Add(pos, "geometry shader does not declare its input primitive (layout(...) in;)")
	}
	if g.Output == "" {
		errs.Add(pos, "geometry shader does not declare its output primitive (layout(...) out;)")
	}
	if g.MaxVertices < 0 {
		errs.Add(pos, "geometry shader does not declare max_vertices (layout(max_vertices = N) out;)")
	}
	if n := ast.InputVertices(g.Input); n > 0 {
		// A unit that declared no input primitive left its unsized per-vertex
		// inputs unsized; the program's primitive sizes them, and sized ones
		// must agree with it.
		for _, u := range p.Geometry.Units {
			for _, v := range u.File.Globals {
				if v.Kind != ast.VarIn || !v.Type.IsArray() || v.Name == "gl_PrimitiveIDIn" {
					continue
				}
				switch {
				case v.Type.Len == 0 && u.File.Geometry.MaxIndex[v] >= n:
					errs.Add(v.DeclPos, fmt.Sprintf("geometry shader input '%s' is indexed at %d but the input primitive %s has %d vertices", v.Name, u.File.Geometry.MaxIndex[v], g.Input, n))
				case v.Type.Len == 0:
					v.Type.Len = n
				case v.Type.Len != n:
					errs.Add(v.DeclPos, fmt.Sprintf("geometry shader input '%s' has size %d but the input primitive %s has %d vertices", v.Name, v.Type.Len, g.Input, n))
				}
			}
		}
	}
	p.GeometryLayout = g
}

// matchGeometryInterfaces pairs the vertex outputs with the geometry
// shader's per-vertex inputs and the geometry outputs with the fragment
// inputs. spec: GLSL 1.50 §4.3.4.
func (p *Program) matchGeometryInterfaces(errs *ast.ErrorList) {
	if p.Vertex != nil {
		p.GeometryInputs = matchInterface(p.Vertex, p.Geometry, "vertex", "geometry", true, errs)
	}
	if p.Fragment != nil {
		p.Varyings = matchInterface(p.Geometry, p.Fragment, "geometry", "fragment", false, errs)
		// Only stream 0 is rasterized. spec: ARB_gpu_shader5 §4.3.8.2
		for _, vy := range p.Varyings {
			if vy.Out != nil && vy.Out.Stream != 0 {
				errs.Add(vy.In.DeclPos, fmt.Sprintf("fragment shader input '%s' is a geometry shader output on vertex stream %d; only stream 0 is rasterized", vy.In.Name, vy.Out.Stream))
			}
		}
	}
}
