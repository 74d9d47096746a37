package parser

import (
	"slices"
	"strings"
	"vortexgfx/shader/glsl/ast"
	"vortexgfx/shader/glsl/preproc"
)

// isQualifier reports whether t is a qualifier keyword.
func (p *parser) isQualifierTok(t preproc.Token) bool {
	if t.Kind != preproc.Ident {
		return false
	}
	switch t.Text {
	case "const", "in", "out", "inout", "uniform", "attribute", "varying", "centroid",
		"invariant", "flat", "smooth", "noperspective", "layout", "lowp", "mediump", "highp":
		return p.isKeyword(t.Text)
	case "buffer":
		return !p.lang.es && p.lang.v >= 400 || p.lang.atLeast(430, 310) || p.lang.has("GL_ARB_shader_storage_buffer_object")
	case "shared":
		return !p.lang.es && p.lang.v >= 400 || p.lang.atLeast(430, 310) || p.lang.has("GL_ARB_compute_shader")
	case "precise":
		// spec: ARB_gpu_shader5 (from GLSL 1.50)
		return !p.lang.es && (p.lang.v >= 400 || p.lang.v >= 150 && p.lang.has("GL_ARB_gpu_shader5"))
	case "patch":
		return !p.lang.es && p.lang.v >= 400
	case "sample":
		// spec: GLSL 4.00 §4.3.6, GLSL ES 3.20 §4.3.6; ARB_gpu_shader5 (GLSL
		// 1.50), OES_shader_multisample_interpolation (GLSL ES 3.00)
		if p.lang.es {
			return p.lang.v >= 320 || p.lang.v >= 300 && p.lang.has("GL_OES_shader_multisample_interpolation")
		}
		return p.lang.v >= 400 || p.lang.v >= 150 && p.lang.has("GL_ARB_gpu_shader5")
	case "coherent", "volatile", "restrict", "readonly", "writeonly":
		return p.lang.atLeast(400, 310) || p.lang.has("GL_ARB_shader_image_load_store") || p.lang.has("GL_ARB_shader_storage_buffer_object")
	}
	return false
}

// qualifiers parses a possibly empty qualifier sequence.
func (p *parser) qualifiers() ast.Qualifiers {
	var q ast.Qualifiers
	lastRank := -1
	var seen []string
	// GLSL 4.20, GLSL ES 3.10 and GL_ARB_shading_language_420pack take the
	// qualifiers in any order. spec: GLSL 4.20 §4.10, GLSL ES 3.10 §4.10
	strict := !p.lang.atLeast(420, 310) && !p.lang.has("GL_ARB_shading_language_420pack")
	layouts := 0
	for p.isQualifierTok(p.tok) {
		if q.Count == 0 {
			q.Pos = p.tok.Pos
		}
		q.Count++
		t := p.tok
		p.next()
		// Before GLSL 4.20 qualifiers come in a fixed order: invariant,
		// interpolation, storage (centroid first), precision. spec: GLSL 1.30 §4.7.
		if r := qualRank(t.Text); strict && r >= 0 {
			if r < lastRank || (r == lastRank && r == 2 && t.Text == "centroid") {
				p.errorf(t.Pos, "qualifier '%s' is out of order (GLSL requires invariant, interpolation, storage, precision)", t.Text)
			}
			lastRank = r
		}
		setStorage := func(s ast.Storage) {
			if q.Storage != ast.StorageNone {
				p.errorf(t.Pos, "multiple storage qualifiers ('%s' after '%s')", t.Text, q.Storage)
			}
			q.Storage = s
		}
		setInterp := func(i ast.Interp) {
			if q.Interp != ast.InterpNone {
				p.errorf(t.Pos, "multiple interpolation qualifiers")
			}
			q.Interp = i
		}
		setPrec := func(pr ast.Precision) {
			if q.Precision != ast.PrecNone {
				p.errorf(t.Pos, "multiple precision qualifiers")
			}
			q.Precision = pr
		}
		// Each qualifier once (the layout qualifier may repeat); in strict order
		// the rank check above already catches a repeated auxiliary one.
		if t.Text != "layout" && slices.Contains(seen, t.Text) {
			p.errorf(t.Pos, "duplicate qualifier '%s'", t.Text)
		}
		seen = append(seen, t.Text)
		switch t.Text {
		case "const":
			if q.Storage == ast.StorageIn && !strict {
				// "in const", the relaxed order of "const in". spec: GLSL 4.20 §4.10
				q.Storage = ast.StorageConst
				break
			}
			setStorage(ast.StorageConst)
		case "in":
			if q.Storage != ast.StorageConst {
				setStorage(ast.StorageIn)
			}
		case "out":
			setStorage(ast.StorageOut)
		case "inout":
			setStorage(ast.StorageParamInOut)
		case "uniform":
			setStorage(ast.StorageUniform)
		case "attribute":
			setStorage(ast.StorageAttribute)
		case "varying":
			setStorage(ast.StorageVarying)
		case "buffer":
			setStorage(ast.StorageBuffer)
		case "shared":
			setStorage(ast.StorageShared)
		case "centroid":
			q.Centroid = true
		case "sample":
			q.Sample = true
		case "patch":
			q.Patch = true
		case "invariant":
			q.Invariant = true
		case "precise":
			q.Precise = true
		case "coherent":
			q.Coherent = true
		case "volatile":
			q.Volatile = true
		case "restrict":
			q.Restrict = true
		case "readonly":
			q.ReadOnlyMem = true
		case "writeonly":
			q.WriteOnlyMem = true
		case "flat":
			setInterp(ast.InterpFlat)
		case "smooth":
			setInterp(ast.InterpSmooth)
		case "noperspective":
			setInterp(ast.InterpNoPerspective)
		case "lowp":
			setPrec(ast.PrecLow)
		case "mediump":
			setPrec(ast.PrecMedium)
		case "highp":
			setPrec(ast.PrecHigh)
		case "layout":
			if layouts++; layouts > 1 && strict {
				p.errorf(t.Pos, "multiple layout qualifiers in one declaration require GLSL 4.20 or GL_ARB_shading_language_420pack")
			}
			first := len(q.Layout)
			p.expect("(")
			for {
				name, pos := p.layoutName()
				lq := ast.LayoutQual{NamePos: pos, Name: name}
				if p.got("=") {
					lq.Value = p.condExpr()
				}
				if lq.Value != nil && !p.repeatLayoutNames() && !strings.EqualFold(name, "binding") {
					if i := p.layoutIndex(q.Layout[first:], name); i >= 0 && q.Layout[first+i].Value != nil {
						p.errorf(pos, "layout qualifier '%s' repeated in one layout(...) requires GLSL 4.40 or GL_ARB_enhanced_layouts", name)
					}
				}
				q.Layout = append(q.Layout, lq)
				if !p.got(",") {
					break
				}
			}
			p.expect(")")
		}
	}
	q.Layout = p.lastLayoutNames(q.Layout)
	return q
}

// repeatLayoutNames reports whether one layout(...) may name a valued
// identifier more than once. Before GLSL 4.40 only the valueless ones and
// binding may repeat: a block's layout arguments, binding among them from
// GLSL 4.20, act "as if they were declared one at a time, in order from left
// to right", each overriding the last (spec: GLSL 1.40 §4.3.5.1, GLSL 4.20
// §4.4.5).
// spec: GLSL 4.40 §4.4, ARB_enhanced_layouts (GLSL 1.40 required)
func (p *parser) repeatLayoutNames() bool {
	return !p.lang.es && (p.lang.v >= 440 || p.lang.v >= 140 && p.lang.has("GL_ARB_enhanced_layouts"))
}

// layoutIndex returns the index of the entry of ls named name, or -1.
// Desktop layout names are case-insensitive (spec: GLSL 1.50 §4.3.8).
func (p *parser) layoutIndex(ls []ast.LayoutQual, name string) int {
	for i, l := range ls {
		if l.Name == name || !p.lang.es && strings.EqualFold(l.Name, name) {
			return i
		}
	}
	return -1
}

// lastLayoutNames keeps only the last occurrence of each valued layout
// identifier of a declaration (location = 1, invocations = 4): "the last occurrence overrides the former occurrence(s)
// ... behaving as if the earlier occurrence(s) within the declaration are not
// present", so an earlier local_size_x or invocations does not conflict with
// the shader's other declarations. Where repeating is not allowed the
// parser has already reported it. Valueless names (std140, points) stay as
// written: the checker orders the overriding ones and rejects a repeated
// primitive. spec: GLSL 4.40 §4.4, ARB_enhanced_layouts,
// ARB_shading_language_420pack
func (p *parser) lastLayoutNames(ls []ast.LayoutQual) []ast.LayoutQual {
	var out []ast.LayoutQual
	for i, l := range ls {
		if l.Value == nil || p.layoutIndex(ls[i+1:], l.Name) < 0 {
			out = append(out, l)
		}
	}
	return out
}

// qualRank orders qualifier keywords for the pre-4.20 ordering rule; -1 = unordered.
func qualRank(word string) int {
	switch word {
	case "invariant", "precise":
		return 0
	case "smooth", "flat", "noperspective":
		return 1
	case "centroid", "sample", "patch", "const", "in", "out", "inout", "uniform", "attribute", "varying", "buffer", "shared":
		return 2
	case "lowp", "mediump", "highp":
		return 3
	}
	return -1
}

func (p *parser) layoutName() (string, ast.Pos) {
	t := p.tok
	if t.Kind != preproc.Ident {
		p.fail(t.Pos, "syntax error: expected layout qualifier name, found %s", p.describe(t))
	}
	p.next()
	return t.Text, t.Pos
}
