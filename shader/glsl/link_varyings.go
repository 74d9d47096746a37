package glsl

import (
	"slices"

	"vortexgfx/shader/glsl/ast"
)

// Varyings between the vertex and fragment stages: matching by name or
// location, types and interpolation, and the legacy colour built-ins.
// spec: GLSL 4.50 §4.3.4, §4.5; GLSL 1.30 §4.3.6

func (p *Program) matchVaryings(errs *ast.ErrorList) {
	p.Varyings = matchInterface(p.Vertex, p.Fragment, "vertex", "fragment", false, errs)
}

// matchInterface pairs the user inputs of stage cons with the outputs of
// stage prod by name (block instances by block name) or location and checks
// their types and qualifiers. With arrayed (a geometry shader's per-vertex
// inputs) each input is an array whose element is the output's type.
// spec: GLSL 1.50 §4.3.4, GLSL 4.50 §4.3.4.
func matchInterface(prod, cons *StageProgram, prodName, consName string, arrayed bool, errs *ast.ErrorList) []Varying {
	outs := map[string]*ast.Var{}
	var located []*ast.Var          // outputs with an explicit location (block instances: the block's)
	anon := map[string][]*ast.Var{} // members of the producer's unnamed output blocks, by block name
	var version int
	var es bool
	for _, u := range prod.Units {
		version, es = u.File.Version, u.File.ES
		for _, v := range u.File.Globals {
			if v.Kind == ast.VarOut && !v.Builtin && v.Block != nil && v.Block.Instance == "" &&
				!slices.ContainsFunc(anon[v.Block.Name], func(m *ast.Var) bool { return m.Name == v.Name }) {
				// Once per member: every unit of the stage may declare
				// the block (sizeBlockMembers made their types agree).
				anon[v.Block.Name] = append(anon[v.Block.Name], v)
			}
			if v.Kind == ast.VarOut && !v.Builtin {
				outs[ifaceKey(v)] = v
				if v.Location >= 0 {
					located = append(located, v)
				}
			}
		}
	}
	var out []Varying
	for _, u := range cons.Units {
		for _, v := range u.File.Globals {
			if v.Kind != ast.VarIn || v.Builtin {
				continue
			}
			o := outs[ifaceKey(v)]
			byLocation := v.Location >= 0
			if byLocation {
				// An input with a location matches only the output with
				// that location and component. spec: OpenGL 4.5 §7.4.1
				o = outputAt(located, v.Location, v.Component)
				if inst, m := memberAt(prod, v.Location, v.Component); (o == nil || o == inst) && m != nil && v.Block == nil && !arrayed {
					// A plain input reading one member of the
					// producer's named block.
					if !sameShape(m.Type, v.Type) {
						errs.Add(v.DeclPos, consName+" shader input '"+v.Name+"' has type "+v.Type.String()+
							" but the "+prodName+" shader's block member '"+m.Name+"' at its location has type "+m.Type.String())
						continue
					}
					out = append(out, Varying{Name: v.Name, Out: inst, In: v, Member: m})
					continue
				}
			}
			if b := v.Block; o == nil && !arrayed && b != nil && b.Instance == "" {
				// A member of an unnamed input block whose block the
				// producer declares with an instance: the member reads its
				// part of the instance (Varying.Out is the instance).
				if inst := outs["block "+b.Name]; inst != nil && inst.Type.IsStruct() {
					ok := false
					for _, f := range inst.Type.Struct.Fields {
						ok = ok || f.Name == v.Name && sameType(f.Type, v.Type)
					}
					if !ok {
						errs.Add(v.DeclPos, "interface block '"+b.Name+"' member '"+v.Name+"' does not match the "+prodName+" shader's block")
						continue
					}
					out = append(out, Varying{Name: v.Name, Out: inst, In: v})
					continue
				}
			}
			if o == nil && v.Block != nil && v == v.Block.InstanceVar && (!arrayed || v.Type.IsArray()) {
				// An unnamed output block matches an instance (an instance
				// array in a geometry shader) of the same block: blocks match
				// by block name, the instance name is the stage's own.
				// spec: GLSL 1.50 §4.3.7
				bt := v.Type
				if arrayed {
					bt = bt.Elem
				}
				if ms := anon[v.Block.Name]; len(ms) > 0 {
					if !sameMembers(ms, bt) {
						errs.Add(v.DeclPos, "interface block '"+v.Block.Name+"' has different members in the "+prodName+" and "+consName+" shader")
					}
					continue
				}
			}
			if o == nil {
				if v.Used {
					errs.Add(v.DeclPos, consName+" shader input '"+v.Name+"' is not written by the "+prodName+" shader (no matching output)")
				}
				continue
			}
			vt := v.Type
			if arrayed && vt.IsArray() {
				vt = vt.Elem
			}
			if o.Block != nil && v.Block != nil && o == o.Block.InstanceVar && v == v.Block.InstanceVar && !sameMemberLocations(o.Block, v.Block) {
				errs.Add(v.DeclPos, "interface block '"+v.Block.Name+"' gives its members other locations or components in the "+consName+" shader than in the "+prodName+" shader")
				continue
			}
			if byLocation && !sameShape(o.Type, vt) || !byLocation && !sameType(o.Type, vt) {
				errs.Add(v.DeclPos, consName+" shader input '"+v.Name+"' has type "+vt.String()+
					" but the "+prodName+" shader output has type "+o.Type.String())
				continue
			}
			if interp(o) != interp(v) && (!es && version < 430 || es && version < 310) {
				errs.Add(v.DeclPos, "interpolation qualifiers of '"+v.Name+"' differ between "+prodName+" and "+consName+" shader")
				continue
			}
			if o.Qual.Centroid != v.Qual.Centroid && !es && version < 430 && version >= 130 {
				errs.Add(v.DeclPos, "centroid qualifier of '"+v.Name+"' differs between "+prodName+" and "+consName+" shader")
				continue
			}
			// spec: ARB_gpu_shader5 §4.3.4 (sample is an auxiliary storage
			// qualifier matched as centroid is before GLSL 4.30)
			if o.Qual.Sample != v.Qual.Sample && !es && version < 430 {
				errs.Add(v.DeclPos, "sample qualifier of '"+v.Name+"' differs between "+prodName+" and "+consName+" shader")
				continue
			}
			// From GLSL 1.50 the next stage's inputs may be invariant, and
			// an output and its input must then agree (GLSL 4.30 drops the
			// rule). spec: GLSL 1.50 §4.6.1
			if cv := u.File.Version; o.Qual.Invariant != v.Qual.Invariant && !es && !u.File.ES && cv >= 150 && cv < 430 && version >= 150 {
				errs.Add(v.DeclPos, "'"+v.Name+"' is invariant in the "+prodName+" shader and not in the "+consName+" shader, or the reverse")
				continue
			}
			out = append(out, Varying{Name: v.Name, Out: o, In: v})
		}
	}
	return out
}

// matchColorInterp applies the rule for the predeclared colours: if gl_Color is
// redeclared with an interpolation qualifier, gl_FrontColor and gl_BackColor (if
// written) must be redeclared with the same one, and vice versa; likewise for the
// secondary colours. Only statically used variables take part, and no redeclaration
// is a value of its own (it does not match an explicit smooth).
// spec: GLSL 1.30 §4.3.7 (unchanged through 4.x)
func (p *Program) matchColorInterp(errs *ast.ErrorList) {
	for _, group := range [][3]string{
		{"gl_Color", "gl_FrontColor", "gl_BackColor"},
		{"gl_SecondaryColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor"},
	} {
		var first *ast.Var
		check := func(v *ast.Var) {
			if first == nil {
				first = v
				return
			}
			if v.Qual.Interp != first.Qual.Interp {
				errs.Add(v.DeclPos, "interpolation qualifier of '"+v.Name+"' does not match that of '"+first.Name+
					"' (GLSL 1.30 §4.3.7: the predeclared colours must be redeclared alike)")
			}
		}
		for _, u := range p.Fragment.Units {
			for _, v := range u.File.Globals {
				if v.Builtin && v.Kind == ast.VarIn && v.Name == group[0] && v.Used {
					check(v)
				}
			}
		}
		for _, u := range p.Vertex.Units {
			for _, v := range u.File.Globals {
				if v.Builtin && v.Kind == ast.VarOut && (v.Name == group[1] || v.Name == group[2]) && v.Written {
					check(v)
				}
			}
		}
	}
}

// ifaceKey names a variable for interface matching: block instances match by
// block name, everything else by variable name. spec: GLSL 4.50 §4.3.9.
func ifaceKey(v *ast.Var) string {
	if v.Block != nil && v == v.Block.InstanceVar {
		return "block " + v.Block.Name
	}
	return v.Name
}

func interp(v *ast.Var) ast.Interp {
	if v.Qual.Interp == ast.InterpNone {
		return ast.InterpSmooth
	}
	return v.Qual.Interp
}

// matchBuiltinInvariance applies GLSL ES 1.00's rule for the built-in special
// variables: gl_FragCoord may be declared invariant only if gl_Position is, and
// gl_PointCoord only if gl_PointSize is. spec: GLSL ES 1.00 §4.6.4
func (p *Program) matchBuiltinInvariance(errs *ast.ErrorList) {
	if !p.Fragment.Units[0].File.ES || p.Fragment.Units[0].File.Version != 100 {
		return
	}
	invariant := func(sp *StageProgram, name string) *ast.Var {
		for _, u := range sp.Units {
			for _, v := range u.File.Globals {
				if v.Builtin && v.Name == name && v.Qual.Invariant {
					return v
				}
			}
		}
		return nil
	}
	for _, pair := range [...][2]string{{"gl_FragCoord", "gl_Position"}, {"gl_PointCoord", "gl_PointSize"}} {
		if v := invariant(p.Fragment, pair[0]); v != nil && invariant(p.Vertex, pair[1]) == nil {
			errs.Add(v.DeclPos, pair[0]+" is declared invariant but "+pair[1]+" is not")
		}
	}
}

// sameMembers reports whether the members of an unnamed block are the
// fields of the block type t, in order, by name and type.
func sameMembers(ms []*ast.Var, t *ast.Type) bool {
	if !t.IsStruct() || len(t.Struct.Fields) != len(ms) {
		return false
	}
	for i, f := range t.Struct.Fields {
		if f.Name != ms[i].Name || !sameType(f.Type, ms[i].Type) {
			return false
		}
	}
	return true
}
