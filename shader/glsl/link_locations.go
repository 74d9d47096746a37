package glsl

import (
	"fmt"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
)

// Location and component aliasing within one stage's interface, and the
// location rules of interface matching. spec: GLSL 4.40 §4.4.1 ("Location
// aliasing is causing two variables or block members to have the same
// location number. Component aliasing is assigning the same (or
// overlapping) component numbers for two location aliases ... it is a
// compile-time or link-time error to cause component aliasing"; aliases
// must have the same basic type), OpenGL 4.5 §7.4.1 (an output matches an
// input by name with no location on either, or by location and component);
// ARB_enhanced_layouts, ARB_separate_shader_objects.

// locComps returns the locations a variable with an explicit location
// takes and the components [first, first+n) it takes in each.
func locComps(v *ast.Var, arrayed bool) (locs, first, n int) {
	t := v.Type
	if arrayed && t.IsArray() {
		t = t.Elem // a geometry shader's per-vertex input
	}
	locs = types.InterfaceLocations(t)
	et := t
	for et.IsArray() {
		et = et.Elem
	}
	if et.IsScalar() || et.IsVector() {
		return locs, v.Component, et.Components()
	}
	return locs, 0, 4
}

// numericClass is the basic type class aliases must share: float or
// integer (signed and unsigned may alias). spec: GLSL 4.40 §4.4.1
func numericClass(t *ast.Type) string {
	for t.IsArray() {
		t = t.Elem
	}
	if t.IsStruct() {
		return "struct"
	}
	if t.Base == ast.Float {
		return "float"
	}
	return "integer"
}

// ifaceVars returns the user variables of kind (ast.VarIn or VarOut) in
// the units of a stage with their locations: plain variables, the members
// of unnamed blocks, and the members of named blocks that have one. A
// variable declared in several units appears once; a second declaration
// with another location or component is an error. spec: GLSL 4.40 §4.4.1
func ifaceVars(sp *StageProgram, kind ast.VarKind, errs *ast.ErrorList) []*ast.Var {
	if sp == nil {
		return nil
	}
	var out []*ast.Var
	seen := map[string]*ast.Var{}
	add := func(key string, v *ast.Var) {
		if prev := seen[key]; prev != nil {
			if prev.Location != v.Location || prev.Component != v.Component {
				errs.Add(v.DeclPos, fmt.Sprintf("'%s' is declared with location %d component %d here and location %d component %d in another shader",
					v.Name, v.Location, v.Component, prev.Location, prev.Component))
			}
			return
		}
		seen[key] = v
		out = append(out, v)
	}
	for _, u := range sp.Units {
		for _, v := range u.File.Globals {
			if v.Kind != kind || v.Builtin {
				continue
			}
			if b := v.Block; b != nil && v == b.InstanceVar {
				for _, m := range b.Members {
					add("block "+b.Name+"."+m.Name, m)
				}
				continue
			}
			add(v.Name, v)
		}
	}
	return out
}

// checkAliasing reports explicit locations of vars whose components
// overlap, and location aliases of different basic types. A dual-source
// second colour (index 1) has its own location space. arrayed: the vars
// are a geometry shader's per-vertex inputs.
func checkAliasing(vars []*ast.Var, what string, arrayed bool, errs *ast.ErrorList) {
	type key struct{ index, loc, comp int }
	used := map[key]*ast.Var{}
	class := map[[2]int]*ast.Var{}
	for _, v := range vars {
		if v.Location < 0 || v.Type.IsInvalid() {
			continue
		}
		locs, first, n := locComps(v, arrayed)
	scan:
		for l := v.Location; l < v.Location+locs; l++ {
			if prev := class[[2]int{v.Index, l}]; prev != nil && prev != v && numericClass(prev.Type) != numericClass(v.Type) {
				errs.Add(v.DeclPos, fmt.Sprintf("%s '%s' shares location %d%s with '%s' of another basic type",
					what, v.Name, l, indexSuffix(v.Index), prev.Name))
				break
			}
			class[[2]int{v.Index, l}] = v
			for c := first; c < first+n; c++ {
				k := key{v.Index, l, c}
				if prev := used[k]; prev != nil && prev != v {
					errs.Add(v.DeclPos, fmt.Sprintf("%s '%s' uses location %d%s already used by '%s' (component %d)",
						what, v.Name, l, indexSuffix(v.Index), prev.Name, c))
					break scan
				}
				used[k] = v
			}
		}
	}
}

// checkStageAliasing applies checkAliasing to every stage's user inputs
// and outputs (the vertex inputs and fragment outputs included).
func (p *Program) checkStageAliasing(errs *ast.ErrorList) {
	for _, s := range []struct {
		sp   *StageProgram
		name string
	}{{p.Vertex, "vertex"}, {p.Geometry, "geometry"}, {p.Fragment, "fragment"}} {
		if s.sp == nil {
			continue
		}
		// Desktop vertex shader inputs, which cannot be blocks, may alias
		// locations and components and mix basic types: GL has let
		// attributes alias since 2.0, for shaders whose every path reads
		// one of them. GLSL ES 3.00 and later forbid it.
		// spec: GLSL 4.50 §4.4.1 ("The one exception where component
		// aliasing is permitted"), ARB_enhanced_layouts' resolved issue that
		// vertex inputs alone may alias components of different basic types,
		// OpenGL 4.5 §11.1.1, OpenGL ES 3.0 §2.11.5
		if s.sp != p.Vertex || s.sp.Units[0].File.ES {
			checkAliasing(ifaceVars(s.sp, ast.VarIn, errs), s.name+" shader input", s.sp == p.Geometry, errs)
		}
		checkAliasing(ifaceVars(s.sp, ast.VarOut, errs), s.name+" shader output", false, errs)
	}
}

// outputAt finds the producer's output whose explicit location and
// component are exactly loc and comp (an output that merely covers them
// does not match). spec: OpenGL 4.5 §7.4.1
func outputAt(outs []*ast.Var, loc, comp int) *ast.Var {
	for _, o := range outs {
		if o.Location == loc && o.Component == comp {
			return o
		}
	}
	return nil
}

// memberAt finds the member of a producer's named output block whose
// location and component are exactly loc and comp: the block instance and
// the member, or nils.
func memberAt(prod *StageProgram, loc, comp int) (*ast.Var, *ast.Var) {
	for _, u := range prod.Units {
		for _, v := range u.File.Globals {
			b := v.Block
			if v.Kind != ast.VarOut || v.Builtin || b == nil || v != b.InstanceVar || v.Type.IsArray() {
				continue
			}
			for _, m := range b.Members {
				if m.Location == loc && m.Component == comp {
					return v, m
				}
			}
		}
	}
	return nil, nil
}

// sameShape compares types as interface matching by location does:
// structs and blocks by their members' names and types, not their names.
func sameShape(a, b *ast.Type) bool {
	if a.IsStruct() && b.IsStruct() {
		if len(a.Struct.Fields) != len(b.Struct.Fields) {
			return false
		}
		for i := range a.Struct.Fields {
			fa, fb := a.Struct.Fields[i], b.Struct.Fields[i]
			if fa.Name != fb.Name || !sameShape(fa.Type, fb.Type) {
				return false
			}
		}
		return true
	}
	if a.IsArray() && b.IsArray() {
		return a.Len == b.Len && sameShape(a.Elem, b.Elem)
	}
	return ast.Identical(a, b)
}

// sameMemberLocations reports whether two instances of a block give their
// members the same locations and components.
func sameMemberLocations(a, b *ast.InterfaceBlock) bool {
	if a == nil || b == nil || len(a.Members) != len(b.Members) {
		return true // the member check reports the difference
	}
	for i := range a.Members {
		if a.Members[i].Location != b.Members[i].Location || a.Members[i].Component != b.Members[i].Component {
			return false
		}
	}
	return true
}
