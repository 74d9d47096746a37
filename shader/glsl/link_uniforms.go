package glsl

import (
	"fmt"
	"slices"

	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/types"
)

// Uniforms and uniform blocks across a program's stages: one program-wide
// list, and the rules a uniform or block declared in several stages must
// follow — type, precision (GLSL ES), members, packing and matrix layout.
// spec: GLSL ES 3.00 §4.3.5, §4.3.7; GLSL 4.50 §4.3.9, §4.4.5

// collectUniforms merges the uniforms of all units, requiring a uniform declared
// in several to have the same type and, in GLSL ES, the same precision, down to
// the members of a uniform struct: "the types and precisions of uniform
// variables with the same name must match across shaders that are linked into a
// single program" (GLSL ES 3.00 §4.3.5, GLSL ES 1.00 §4.3.4; for GLSL ES 1.00
// only uniforms used in both shaders, as Mesa checks it). Desktop GLSL gives
// precision no meaning.
func (p *Program) collectUniforms(shaders []*Shader, errs *ast.ErrorList) {
	byName := map[string]*Uniform{}
	owner := map[*ast.Var]*Shader{}
	precs := structPrecisions{}
	for _, s := range shaders {
		if s == nil {
			continue
		}
		for _, v := range s.File.Globals {
			if v.Kind != ast.VarUniform || v.Builtin {
				continue
			}
			key := ifaceKey(v)
			u := byName[key]
			if u == nil {
				u = &Uniform{Name: v.Name, Type: v.Type}
				byName[key] = u
				p.Uniforms = append(p.Uniforms, u)
				owner[v] = s
			} else if v.Block != nil && v == v.Block.InstanceVar {
				// block members are compared by checkBlocks
			} else if !sameType(u.Type, v.Type) {
				errs.Add(v.DeclPos, "uniform '"+v.Name+"' declared as "+v.Type.String()+" and as "+u.Type.String()+" in different shaders")
				continue
			} else if first := u.Vars[0]; s.File.ES && (s.File.Version >= 300 || v.Used && first.Used) {
				if precisionsDiffer(first.Qual.Precision, v.Qual.Precision) {
					errs.Add(v.DeclPos, "uniform '"+v.Name+"' is declared "+precName(v.Qual.Precision)+" and "+
						precName(first.Qual.Precision)+" in different shaders")
					continue
				}
				if m, pa, pb := precisionDiff(v.Type, first.Type, precs.of(s), precs.of(owner[first]), v.Name); m != "" {
					errs.Add(v.DeclPos, "uniform '"+v.Name+"': member '"+m+"' is declared "+precName(pa)+" and "+
						precName(pb)+" in different shaders")
					continue
				}
			}
			u.Vars = append(u.Vars, v)
		}
	}
}

// structPrecisions caches types.StructPrecisions per shader.
type structPrecisions map[*Shader]map[*ast.StructType][]ast.Precision

func (c structPrecisions) of(s *Shader) map[*ast.StructType][]ast.Precision {
	if s == nil {
		return nil
	}
	m, ok := c[s]
	if !ok {
		m = types.StructPrecisions(s.File, s.Stage)
		c[s] = m
	}
	return m
}

// precisionsDiffer reports two precisions that both exist and differ.
func precisionsDiffer(a, b ast.Precision) bool {
	return a != b && a != ast.PrecNone && b != ast.PrecNone
}

// precisionDiff finds the first member (as a path from name) of two struct
// types that sameType accepts whose precisions differ, with both precisions;
// pa and pb are the field precisions of a's and b's shader. It returns "" when
// the precisions match.
func precisionDiff(a, b *ast.Type, pa, pb map[*ast.StructType][]ast.Precision, name string) (string, ast.Precision, ast.Precision) {
	for a.IsArray() && b.IsArray() {
		a, b = a.Elem, b.Elem
	}
	if !a.IsStruct() || !b.IsStruct() || len(a.Struct.Fields) != len(b.Struct.Fields) {
		return "", 0, 0
	}
	fa, fb := pa[a.Struct], pb[b.Struct]
	for i, f := range a.Struct.Fields {
		path := name + "." + f.Name
		if i < len(fa) && i < len(fb) && precisionsDiffer(fa[i], fb[i]) {
			return path, fa[i], fb[i]
		}
		if m, x, y := precisionDiff(f.Type, b.Struct.Fields[i].Type, pa, pb, path); m != "" {
			return m, x, y
		}
	}
	return "", 0, 0
}

// precName spells a precision qualifier.
func precName(p ast.Precision) string {
	switch p {
	case ast.PrecLow:
		return "lowp"
	case ast.PrecMedium:
		return "mediump"
	case ast.PrecHigh:
		return "highp"
	}
	return "without precision"
}

// containsMatrix reports whether t is or holds a matrix, the only members
// row_major and column_major change.
func containsMatrix(t *ast.Type) bool {
	for t.IsArray() {
		t = t.Elem
	}
	if t.IsStruct() {
		for _, f := range t.Struct.Fields {
			if containsMatrix(f.Type) {
				return true
			}
		}
		return false
	}
	return t.IsMatrix()
}

// checkBlocks requires interface blocks of the same name to have the same members
// in every shader: "the same sequence of types, precisions and the same sequence
// of member names, as well as having the same member-wise layout qualification"
// (GLSL ES 3.00 §4.3.7; GLSL 4.50 §4.3.9). For uniform and buffer blocks that
// is the packing (std140, shared, packed, std430) and each matrix member's
// row_major or column_major (GLSL 4.50 §4.4.5, GLSL ES 3.00 §4.3.8.3);
// precisions are compared in GLSL ES only, desktop GLSL giving them no meaning.
func (p *Program) checkBlocks(shaders []*Shader, errs *ast.ErrorList) {
	seen := map[string]*ast.InterfaceBlock{}
	owner := map[*ast.InterfaceBlock]*Shader{}
	precs := structPrecisions{}
	for _, s := range shaders {
		if s == nil {
			continue
		}
		for _, b := range s.File.Blocks {
			key := b.Storage.String() + " " + b.Name
			if b.Storage == ast.StorageIn || b.Storage == ast.StorageOut {
				key = "io " + b.Name
			}
			prev := seen[key]
			if prev == nil {
				seen[key] = b
				owner[b] = s
				continue
			}
			same := len(prev.Members) == len(b.Members)
			for i := 0; same && i < len(b.Members); i++ {
				same = prev.Members[i].Name == b.Members[i].Name && sameType(prev.Members[i].Type, b.Members[i].Type)
			}
			pos := s.File.Pos()
			if len(b.Members) > 0 {
				pos = b.Members[0].DeclPos
			}
			if !same {
				errs.Add(pos, "interface block '"+b.Name+"' has different members in different shaders")
				continue
			}
			if b.Storage != ast.StorageUniform && b.Storage != ast.StorageBuffer {
				continue
			}
			what := b.Storage.String() + " block '" + b.Name + "'"
			if pi, bi := prev.InstanceVar, b.InstanceVar; pi != nil && bi != nil && (pi.Type.IsArray() || bi.Type.IsArray()) &&
				!sameArrayDims(pi.Type, bi.Type) {
				// "if a matching block is declared as an array, then the array
				// sizes must also match" (GLSL ES 3.00 §4.3.7) — every
				// dimension of an array of arrays (GL_ARB_arrays_of_arrays).
				errs.Add(bi.DeclPos, what+" is declared as "+bi.Type.String()+" and as "+pi.Type.String()+" in different shaders")
				continue
			}
			if prev.Layout != b.Layout {
				errs.Add(pos, what+" is declared "+b.Layout+" and "+prev.Layout+" in different shaders")
				continue
			}
			// "A link error will result if two compilation units in a program
			// specify different integer-constant bindings for the same
			// opaque-uniform name" — or block; a binding on only some is fine.
			// spec: GLSL 4.50 §4.4.5, §4.4.6
			if prev.Binding >= 0 && b.Binding >= 0 && prev.Binding != b.Binding {
				errs.Add(pos, fmt.Sprintf("%s has binding %d here and %d in another shader", what, b.Binding, prev.Binding))
				continue
			}
			es := s.File.ES && owner[prev] != nil && owner[prev].File.ES
			for i, m := range b.Members {
				pm := prev.Members[i]
				if containsMatrix(m.Type) && m.RowMajor != pm.RowMajor {
					errs.Add(m.DeclPos, what+": member '"+m.Name+"' is declared "+majorName(m.RowMajor)+" and "+
						majorName(pm.RowMajor)+" in different shaders")
					break
				}
				// Explicit offsets and alignments must lay the block out
				// alike in every shader. spec: GLSL 4.40 §4.4.5
				if m.Offset != pm.Offset {
					errs.Add(m.DeclPos, fmt.Sprintf("%s: member '%s' is at offset %d here and %d in another shader", what, m.Name, m.Offset, pm.Offset))
					break
				}
				if !es {
					continue
				}
				if precisionsDiffer(m.Qual.Precision, pm.Qual.Precision) {
					errs.Add(m.DeclPos, what+": member '"+m.Name+"' is declared "+precName(m.Qual.Precision)+" and "+
						precName(pm.Qual.Precision)+" in different shaders")
					break
				}
				if path, pa, pb := precisionDiff(m.Type, pm.Type, precs.of(s), precs.of(owner[prev]), m.Name); path != "" {
					errs.Add(m.DeclPos, what+": member '"+path+"' is declared "+precName(pa)+" and "+
						precName(pb)+" in different shaders")
					break
				}
			}
		}
	}
}

// sameArrayDims reports whether two block instance types are arrays of the
// same dimensions, outermost to innermost.
func sameArrayDims(a, b *ast.Type) bool {
	for a.IsArray() && b.IsArray() {
		if a.Len != b.Len {
			return false
		}
		a, b = a.Elem, b.Elem
	}
	return !a.IsArray() && !b.IsArray()
}

// majorName spells a matrix layout qualifier.
func majorName(rowMajor bool) string {
	if rowMajor {
		return "row_major"
	}
	return "column_major"
}

// MaxUniformLocations is GL_MAX_UNIFORM_LOCATIONS: explicit uniform locations
// lie below it (1024, the GL 4.3 minimum).
const MaxUniformLocations = 1024

// checkUniformLocations applies the rules of explicit uniform locations and
// bindings: a uniform declared in several shaders takes one binding; and a
// uniform declared in several shaders takes one location, and no two uniforms'
// locations overlap — an array takes one location per element and a struct one
// per member, a matrix one — whether the uniforms are used or not ("explicit
// locations ... are reserved even if the uniform is unused").
// spec: GLSL 4.50 §4.4.3, ARB_explicit_uniform_location
func (p *Program) checkUniformLocations(errs *ast.ErrorList) {
	type span struct {
		lo, hi int // [lo, hi)
		u      *Uniform
		v      *ast.Var
	}
	var spans []span
	for _, u := range p.Uniforms {
		var bound *ast.Var // the first declaration with a binding
		for _, v := range u.Vars {
			switch {
			case v.Binding < 0 || v.Block != nil:
			case bound == nil:
				bound = v
			case v.Binding != bound.Binding:
				// spec: GLSL 4.50 §4.4.6 (as for blocks in checkBlocks)
				errs.Add(v.DeclPos, fmt.Sprintf("uniform '%s' has binding %d here and %d in another shader", u.Name, v.Binding, bound.Binding))
			}
		}
		var first *ast.Var
		for _, v := range u.Vars {
			if v.Location < 0 {
				continue
			}
			if first == nil {
				first = v
			} else if v.Location != first.Location {
				errs.Add(v.DeclPos, fmt.Sprintf("uniform '%s' has explicit location %d here and %d in another shader", u.Name, v.Location, first.Location))
			}
		}
		if first == nil {
			continue
		}
		n := uniformLocations(u.Type)
		if first.Location+n > MaxUniformLocations {
			errs.Add(first.DeclPos, fmt.Sprintf("uniform '%s' at location %d needs %d locations, beyond GL_MAX_UNIFORM_LOCATIONS (%d)", u.Name, first.Location, n, MaxUniformLocations))
			continue
		}
		spans = append(spans, span{first.Location, first.Location + n, u, first})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.lo - b.lo })
	for i := 1; i < len(spans); i++ {
		if a, b := spans[i-1], spans[i]; b.lo < a.hi {
			errs.Add(b.v.DeclPos, fmt.Sprintf("uniform '%s' at location %d overlaps uniform '%s' (locations %d to %d)", b.u.Name, b.lo, a.u.Name, a.lo, a.hi-1))
		}
	}
}

// uniformLocations is how many uniform locations a uniform of type t takes.
func uniformLocations(t *ast.Type) int {
	switch {
	case t.IsArray():
		return max(t.Len, 1) * uniformLocations(t.Elem)
	case t.Struct != nil:
		n := 0
		for _, f := range t.Struct.Fields {
			n += uniformLocations(f.Type)
		}
		return n
	}
	return 1
}
