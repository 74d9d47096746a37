package types

import "vortexgfx/shader/glsl/ast"

// StructPrecisions returns, for each struct type defined at global scope in a
// checked GLSL ES file, the precision of each of its fields: the field's
// precision qualifier, or else the default precision in effect where the struct
// is defined (GLSL ES 3.00 §4.5.4, GLSL ES 1.00 §4.5.3), PrecNone for fields
// without one (bool, struct and opaque fields, float in a fragment shader
// without a default). The linker uses it to match the precision of uniform
// struct members across stages (GLSL ES 3.00 §4.3.5, GLSL ES 1.00 §4.5.3).
// Desktop GLSL gives precision qualifiers no meaning, so the result is nil for
// a desktop file.
func StructPrecisions(f *ast.File, stage ast.Stage) map[*ast.StructType][]ast.Precision {
	if !f.ES {
		return nil
	}
	def := map[ast.Basic]ast.Precision{ast.Int: ast.PrecHigh, ast.Float: ast.PrecHigh}
	if stage == ast.StageFragment {
		def = map[ast.Basic]ast.Precision{ast.Int: ast.PrecMedium}
	}
	out := map[*ast.StructType][]ast.Precision{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.PrecisionDecl:
			if t := builtinType(d.Type.Name); t != nil && t.IsScalar() && len(d.Type.Dims) == 0 &&
				(t.Base == ast.Float || t.Base == ast.Int) {
				def[t.Base] = d.Precision
			}
		case *ast.DeclGroup:
			s := d.Type.Struct
			if s == nil || s.Type == nil {
				continue
			}
			var precs []ast.Precision
			for _, g := range s.Members {
				p := g.Qual.Precision
				if p == ast.PrecNone {
					p = g.Type.Precision
				}
				for range g.Vars {
					fp := p
					if k := len(precs); fp == ast.PrecNone && k < len(s.Type.Fields) {
						t := s.Type.Fields[k].Type
						for t.IsArray() {
							t = t.Elem
						}
						if t.IsNumeric() && t.Base != ast.Bool {
							b := t.Base
							if b == ast.Uint {
								b = ast.Int
							}
							fp = def[b]
						}
					}
					precs = append(precs, fp)
				}
			}
			if len(precs) == len(s.Type.Fields) {
				out[s.Type] = precs
			}
		}
	}
	return out
}
