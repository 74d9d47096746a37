package glsl

import (
	"slices"
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// linkFragCoord applies the program-wide rule for gl_FragCoord's layout: "If
// gl_FragCoord is redeclared in any fragment shader in a program, it must be
// redeclared in all the fragment shaders in that program that have a static
// use of gl_FragCoord. All redeclarations of gl_FragCoord in all fragment
// shaders in a single program must have the same set of qualifiers."
// spec: GLSL 1.50 §4.3.8.1
func (p *Program) linkFragCoord(errs *ast.ErrorList) {
	var first *Shader
	for _, u := range p.Fragment.Units {
		if u.File.FragCoordLayout != nil {
			first = u
			break
		}
	}
	if first == nil {
		return
	}
	want := first.File.FragCoordLayout
	for _, u := range p.Fragment.Units {
		f := u.File
		switch {
		case f.FragCoordLayout != nil && !slices.Equal(f.FragCoordLayout, want):
			errs.Add(f.Pos(), "gl_FragCoord is redeclared with layout("+strings.Join(f.FragCoordLayout, ", ")+") here and layout("+
				strings.Join(want, ", ")+") in "+first.Name)
		case f.FragCoordLayout == nil && usesBuiltin(f, "gl_FragCoord"):
			errs.Add(f.Pos(), "gl_FragCoord is used without the redeclaration "+first.Name+" makes (every fragment shader using it must redeclare it)")
		}
	}
}

// usesBuiltin reports whether a checked file statically uses the built-in name.
func usesBuiltin(f *ast.File, name string) bool {
	for _, v := range f.Globals {
		if v.Builtin && v.Name == name && v.Used {
			return true
		}
	}
	return false
}
