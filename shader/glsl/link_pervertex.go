package glsl

import (
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// perVertexBuiltins are the built-ins of the gl_PerVertex blocks.
var perVertexBuiltins = []string{"gl_Position", "gl_PointSize", "gl_ClipDistance"}

// linkPerVertex applies the rules for redeclared gl_PerVertex blocks: within
// a stage, once one unit redeclares the output (or, geometry, the input)
// block, every unit using its members redeclares it with the same members;
// a geometry stage reading gl_in after the vertex stage redeclared its
// output block redeclares its input block with the same members; and a
// block is an instance array in all of a stage's units or in none.
// spec: GLSL 1.50 §7.1, §4.3.7 (GLSL 4.10 §7.1 states the redeclaration
// rules in full).
func (p *Program) linkPerVertex(errs *ast.ErrorList) {
	for _, sp := range []*StageProgram{p.Vertex, p.Geometry} {
		if sp == nil {
			continue
		}
		matchRedecls(sp, "output", func(f *ast.File) []string { return f.PerVertexOut },
			func(f *ast.File) bool {
				return slices.ContainsFunc(perVertexBuiltins, func(n string) bool { return usesBuiltin(f, n) })
			}, errs)
		checkBlockArrays(sp, errs)
	}
	if p.Geometry != nil {
		matchRedecls(p.Geometry, "input", func(f *ast.File) []string { return f.PerVertexIn },
			func(f *ast.File) bool { return usesBuiltin(f, "gl_in") }, errs)
	}
	if p.Vertex == nil || p.Geometry == nil {
		return
	}
	var out []string
	for _, u := range p.Vertex.Units {
		if u.File.PerVertexOut != nil {
			out = u.File.PerVertexOut
		}
	}
	if out == nil {
		return
	}
	for _, u := range p.Geometry.Units {
		f := u.File
		switch {
		case f.PerVertexIn != nil && !slices.Equal(f.PerVertexIn, out):
			errs.Add(f.Pos(), "the geometry shader's gl_in redeclares gl_PerVertex with members "+strings.Join(f.PerVertexIn, ", ")+
				" but the vertex shader's output block has "+strings.Join(out, ", "))
		case f.PerVertexIn == nil && usesBuiltin(f, "gl_in"):
			errs.Add(f.Pos(), "the vertex shader redeclares gl_PerVertex, so a geometry shader reading gl_in must redeclare it alike")
		}
	}
}

// matchRedecls checks one gl_PerVertex block (decl gives a unit's member
// set, nil when it does not redeclare the block) across a stage's units.
func matchRedecls(sp *StageProgram, what string, decl func(*ast.File) []string, uses func(*ast.File) bool, errs *ast.ErrorList) {
	var first *Shader
	for _, u := range sp.Units {
		if decl(u.File) != nil {
			first = u
			break
		}
	}
	if first == nil {
		return
	}
	want := decl(first.File)
	for _, u := range sp.Units {
		f := u.File
		switch m := decl(f); {
		case m != nil && !slices.Equal(m, want):
			errs.Add(f.Pos(), "the "+what+" gl_PerVertex block is redeclared with members "+strings.Join(m, ", ")+" here and "+strings.Join(want, ", ")+" in "+first.Name)
		case m == nil && uses(f):
			errs.Add(f.Pos(), "the "+what+" gl_PerVertex block is redeclared in "+first.Name+", so this shader, which uses it, must redeclare it alike")
		}
	}
}

// checkBlockArrays requires an in/out block to be an instance array in
// every unit of a stage that declares it, or in none.
func checkBlockArrays(sp *StageProgram, errs *ast.ErrorList) {
	arrayed := map[string]bool{}
	for _, u := range sp.Units {
		for _, b := range u.File.Blocks {
			if b.Storage != ast.StorageIn && b.Storage != ast.StorageOut {
				continue
			}
			key := b.Storage.String() + " " + b.Name
			isArray := b.Type != nil && b.Type.IsArray()
			if prev, ok := arrayed[key]; ok && prev != isArray {
				errs.Add(u.File.Pos(), "interface block '"+b.Name+"' is an instance array in one shader and not in another")
				continue
			}
			arrayed[key] = isArray
		}
	}
}
