package types

import (
	"strings"

	"vortexgfx/shader/glsl/ast"
)

// Framebuffer fetch: a fragment shader reads the colour already stored at its
// pixel. GLSL ES 3.00 and desktop GLSL (1.30 on) declare a colour output
// inout, whose value on entry is that colour; GLSL ES 1.00 reads the
// read-only built-in gl_LastFragData[gl_MaxDrawBuffers]. The non-coherent
// extension spells the same declarations with layout(noncoherent), and
// requires that qualifier: without it the declaration is the coherent
// extension's. Both are honoured coherently (each fragment sees the writes of
// every earlier primitive), which the non-coherent form allows.
// spec: EXT_shader_framebuffer_fetch §4.3.6, §7.2 (gl_LastFragData);
// EXT_shader_framebuffer_fetch_non_coherent §4.4.2 (layout(noncoherent)).
const (
	ExtFramebufferFetch            = "GL_EXT_shader_framebuffer_fetch"
	ExtFramebufferFetchNonCoherent = "GL_EXT_shader_framebuffer_fetch_non_coherent"
)

// hasFetch reports whether either framebuffer-fetch extension is enabled.
func (c *checker) hasFetch() bool {
	return c.extEnabled(ExtFramebufferFetch) || c.extEnabled(ExtFramebufferFetchNonCoherent)
}

// lastFragDataBuiltin declares GLSL ES 1.00's gl_LastFragData in a fragment
// shader that enables the coherent extension (mediump, read-only). Under the
// non-coherent extension alone the shader must declare it itself with
// layout(noncoherent) (redeclareLastFragData).
// spec: EXT_shader_framebuffer_fetch §7.2
func (c *checker) lastFragDataBuiltin(v4 *ast.Type) {
	if !c.es || c.version >= 300 || c.conf.Stage != ast.StageFragment || !c.extEnabled(ExtFramebufferFetch) {
		return
	}
	v := c.addBuiltin("gl_LastFragData", ast.Array(v4, MaxDrawBuffers), ast.VarIn, true)
	v.Fetch = true
	v.Qual.Precision = ast.PrecMedium
}

// fetchQualifiers takes the framebuffer-fetch qualifiers off a declaration's
// qualifiers: layout(noncoherent), checked here and removed so checkLayout
// never sees it, and, with an extension enabled, a global inout, which
// becomes out with fetch set (the errors for a misplaced inout are reported
// here, once). It returns the
// qualifiers the rest of the checker sees.
func (c *checker) fetchQualifiers(q ast.Qualifiers, vs *ast.VarSpec, global bool) (_ ast.Qualifiers, fetch, noncoherent bool) {
	var rest []ast.LayoutQual
	for _, l := range q.Layout {
		if strings.EqualFold(l.Name, "noncoherent") && (!c.es || l.Name == "noncoherent") {
			if noncoherent {
				continue
			}
			noncoherent = true
			switch {
			case !c.extEnabled(ExtFramebufferFetchNonCoherent):
				c.errorf(l.NamePos, "layout(noncoherent) requires %s", ExtFramebufferFetchNonCoherent)
			case l.Value != nil:
				c.errorf(l.NamePos, "layout qualifier '%s' takes no value", l.Name)
			case c.conf.Stage != ast.StageFragment || !global ||
				q.Storage != ast.StorageParamInOut && vs.Name != "gl_LastFragData":
				c.errorf(l.NamePos, "layout(noncoherent) is only allowed on inout fragment outputs and gl_LastFragData")
			}
			continue
		}
		rest = append(rest, l)
	}
	if noncoherent {
		q.Layout = rest
		if len(rest) == 0 {
			q.Layout = nil
		}
	}
	if q.Storage != ast.StorageParamInOut || !global || !c.hasFetch() {
		// Without an extension a global inout is checkQualifiers' error.
		return q, false, noncoherent
	}
	q.Storage = ast.StorageOut
	switch {
	case c.conf.Stage != ast.StageFragment:
		c.errorf(q.Pos, "'inout' variables are only allowed as fragment shader outputs (%s)", ExtFramebufferFetch)
	case !c.atLeast(130, 300):
		c.errorf(q.Pos, "inout fragment outputs require GLSL 1.30 or GLSL ES 3.00 (GLSL ES 1.00 reads gl_LastFragData)")
	case strings.HasPrefix(vs.Name, "gl_"):
		c.errorf(vs.NamePos, "built-in '%s' cannot be declared inout", vs.Name)
	case !noncoherent && !c.extEnabled(ExtFramebufferFetch):
		c.errorf(q.Pos, "an inout output without layout(noncoherent) requires %s", ExtFramebufferFetch)
	default:
		fetch = true
	}
	return q, fetch, noncoherent
}

// redeclareLastFragData checks a global declaration of gl_LastFragData and
// reports whether it was one the extensions allow (vs.Var is then the
// built-in): GLSL ES 1.00, no storage qualifier, the built-in's type
// vec4[gl_MaxDrawBuffers], any precision, before any use; under the
// non-coherent extension it must say layout(noncoherent) and it declares the
// built-in. spec: EXT_shader_framebuffer_fetch §7.2,
// EXT_shader_framebuffer_fetch_non_coherent §7.2
func (c *checker) redeclareLastFragData(v *ast.Var, vs *ast.VarSpec, noncoherent bool) bool {
	e := c.builtin.names[vs.Name]
	nc := c.es && c.version < 300 && c.conf.Stage == ast.StageFragment && c.extEnabled(ExtFramebufferFetchNonCoherent)
	if e == nil && !nc {
		return false // the reserved-prefix error follows
	}
	want := ast.Array(ast.Vector(ast.Float, 4), MaxDrawBuffers)
	switch {
	case v.Qual.Storage != ast.StorageNone || v.Qual.Interp != ast.InterpNone || v.Qual.Invariant || len(v.Qual.Layout) > 0 || vs.Init != nil:
		c.errorf(vs.NamePos, "gl_LastFragData can only be redeclared with a precision qualifier (and layout(noncoherent)), without an initializer")
	case !ast.Identical(v.Type, want):
		c.errorf(vs.NamePos, "redeclaration of built-in 'gl_LastFragData' changes its type (vec4[gl_MaxDrawBuffers])")
	case e == nil && !noncoherent:
		c.errorf(vs.NamePos, "gl_LastFragData must be declared layout(noncoherent) under %s alone", ExtFramebufferFetchNonCoherent)
	}
	if e == nil {
		b := c.addBuiltin(vs.Name, want, ast.VarIn, true)
		b.Fetch = true
		b.Qual.Precision = v.Qual.Precision
		b.DeclPos = vs.NamePos
		vs.Var = b
		return true
	}
	b := e.v
	if b.Used {
		c.errorf(vs.NamePos, "built-in 'gl_LastFragData' must be redeclared before it is used")
	}
	if v.Qual.Precision != ast.PrecNone {
		b.Qual.Precision = v.Qual.Precision
	}
	vs.Var = b
	return true
}
