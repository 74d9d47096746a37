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
//
// gl_FragDepth's conservative-depth layout follows the same rule, with "a
// static assignment to gl_FragDepth" for "a static use".
// spec: GLSL 4.20 §4.4.2.3, ARB_conservative_depth, AMD_conservative_depth
func (p *Program) linkFragCoord(errs *ast.ErrorList) {
	linkRedeclLayout(p.Fragment.Units, "gl_FragCoord", "used", "using", func(f *ast.File) []string { return f.FragCoordLayout },
		func(f *ast.File) bool { return usesBuiltin(f, "gl_FragCoord") }, errs)
	linkRedeclLayout(p.Fragment.Units, "gl_FragDepth", "written", "writing", func(f *ast.File) []string { return f.FragDepthLayout },
		func(f *ast.File) bool { return writesBuiltin(f, "gl_FragDepth") }, errs)
}

// linkRedeclLayout checks one built-in's redeclaration rule over the
// fragment units (see linkFragCoord): layout gives a unit's redeclared set
// (nil: not redeclared), needs whether the unit must redeclare it too.
func linkRedeclLayout(units []*Shader, name, verb, ing string, layout func(*ast.File) []string, needs func(*ast.File) bool, errs *ast.ErrorList) {
	var first *Shader
	for _, u := range units {
		if layout(u.File) != nil {
			first = u
			break
		}
	}
	if first == nil {
		return
	}
	want := layout(first.File)
	for _, u := range units {
		f := u.File
		got := layout(f)
		switch {
		case got != nil && !slices.Equal(got, want):
			errs.Add(f.Pos(), name+" is redeclared with layout("+strings.Join(got, ", ")+") here and layout("+
				strings.Join(want, ", ")+") in "+first.Name)
		case got == nil && needs(f):
			errs.Add(f.Pos(), name+" is "+verb+" without the redeclaration "+first.Name+" makes (every fragment shader "+ing+" it must redeclare it)")
		}
	}
}

// writesBuiltin reports whether a checked file statically assigns the
// built-in name.
func writesBuiltin(f *ast.File, name string) bool {
	for _, v := range f.Globals {
		if v.Builtin && v.Name == name && v.Written {
			return true
		}
	}
	return false
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
