package types

// The gl_PerVertex block: its members per profile and its redeclaration in
// the vertex and geometry stages. spec: GLSL 1.50 §7.1

import (
	"maps"
	"slices"

	"vortexgfx/shader/glsl/ast"
)

// compatPerVertexMembers are the compatibility profile's further members of
// the output gl_PerVertex block, by their element type (gl_TexCoord is an
// array). spec: GLSL 1.50 compatibility §7.1.
var compatPerVertexMembers = map[string]*ast.Type{"gl_ClipVertex": ast.Vector(ast.Float, 4),
	"gl_FrontColor": ast.Vector(ast.Float, 4), "gl_BackColor": ast.Vector(ast.Float, 4),
	"gl_FrontSecondaryColor": ast.Vector(ast.Float, 4), "gl_BackSecondaryColor": ast.Vector(ast.Float, 4),
	"gl_TexCoord": ast.Vector(ast.Float, 4), "gl_FogFragCoord": ast.Scalar(ast.Float)}

// perVertexMember returns the element type of the output gl_PerVertex member
// name in this shader's profile and whether the member is an array.
func (c *checker) perVertexMember(name string) (elem *ast.Type, array, ok bool) {
	if t, ok := perVertexMembers[name]; ok {
		return t, name == "gl_ClipDistance", true
	}
	if t, ok := compatPerVertexMembers[name]; ok && c.compat() {
		return t, name == "gl_TexCoord", true
	}
	return nil, false, false
}

// perVertexNames lists the output gl_PerVertex members of this shader's
// profile, sorted.
func (c *checker) perVertexNames() []string {
	names := slices.Collect(maps.Keys(perVertexMembers))
	if c.compat() {
		names = slices.AppendSeq(names, maps.Keys(compatPerVertexMembers))
	}
	slices.Sort(names)
	return names
}

// perVertexRedecl checks a redeclaration of gl_PerVertex: an output block of
// the vertex or geometry shader (the geometry shader's input one is
// perVertexInRedecl's), made
// once, before any use or individual redeclaration of its members, whose
// members are built-in ones of their own types (the compatibility profile's
// colours, texture coordinates, fog coordinate and gl_ClipVertex included).
// A sized array member sizes the built-in, as the variable's own
// redeclaration does. spec: GLSL 1.50 §7.1; GLSL 1.50 compatibility §7.1.
func (c *checker) perVertexRedecl(d *ast.BlockDecl) {
	if c.conf.Stage == ast.StageGeometry && d.Qual.Storage == ast.StorageIn {
		c.perVertexInRedecl(d)
		return
	}
	if c.conf.Stage != ast.StageVertex && c.conf.Stage != ast.StageGeometry || d.Qual.Storage != ast.StorageOut {
		c.errorf(d.NamePos, "gl_PerVertex can only be redeclared as a vertex or geometry shader output block or as the geometry shader's gl_in[]")
		return
	}
	if d.InstanceName != "" {
		c.errorf(d.InstancePos, "the output gl_PerVertex block cannot have an instance name")
		return
	}
	if c.perVertexRedeclared {
		c.errorf(d.NamePos, "gl_PerVertex is redeclared more than once")
		return
	}
	c.perVertexRedeclared = true
	names := c.perVertexNames()
	for _, name := range names {
		if c.redeclaredBuiltins[name] {
			c.errorf(d.NamePos, "gl_PerVertex is redeclared after '%s' was", name)
		}
	}
	kept := map[string]bool{}
	for _, g := range d.Members {
		for _, vs := range g.Vars {
			want, array, ok := c.perVertexMember(vs.Name)
			if !ok {
				c.errorf(vs.NamePos, "'%s' is not a member of gl_PerVertex", vs.Name)
				continue
			}
			t := c.resolveType(g.Type)
			if array != (len(vs.Dims) > 0 || len(g.Type.Dims) > 0) || !ast.Identical(t, want) {
				c.errorf(vs.NamePos, "gl_PerVertex member '%s' is redeclared with another type", vs.Name)
				continue
			}
			kept[vs.Name] = true
			if array && len(vs.Dims) > 0 {
				c.sizePerVertexArray(vs, c.arrayOf(t, vs.Dims, vs.NamePos))
			}
		}
	}
	c.file.PerVertexOut = slices.Sorted(maps.Keys(kept))
	if c.file.PerVertexOut == nil {
		c.file.PerVertexOut = []string{}
	}
	for _, name := range names {
		e := c.builtin.names[name]
		if e == nil || e.v == nil {
			continue
		}
		if e.v.Used {
			c.errorf(d.NamePos, "gl_PerVertex must be redeclared before '%s' is used", name)
		}
		if !kept[name] {
			// A member the redeclaration leaves out no longer exists.
			delete(c.builtin.names, name)
		}
	}
}

// sizePerVertexArray applies a sized array member of a gl_PerVertex
// redeclaration to its built-in: gl_ClipDistance (implicitly sized) takes the
// size, up to gl_MaxClipDistances; gl_TexCoord shrinks to it, up to
// gl_MaxTextureCoords.
func (c *checker) sizePerVertexArray(vs *ast.VarSpec, at *ast.Type) {
	e := c.builtin.names[vs.Name]
	if e == nil || e.v == nil || !e.v.Type.IsArray() || !at.IsArray() || at.Len <= 0 {
		return
	}
	switch vs.Name {
	case "gl_ClipDistance":
		switch {
		case at.Len > MaxClipDistances:
			c.errorf(vs.NamePos, "gl_ClipDistance redeclared with size %d exceeds gl_MaxClipDistances (%d)", at.Len, MaxClipDistances)
		case e.v.Type.Len == 0:
			e.v.Type.Len = at.Len
		}
	case "gl_TexCoord":
		if at.Len > MaxTextureCoords {
			c.errorf(vs.NamePos, "gl_TexCoord redeclared with size %d exceeds gl_MaxTextureCoords (%d)", at.Len, MaxTextureCoords)
			return
		}
		e.v.Type = at
	}
}

// invariantInputs reports whether the stage's inputs may be qualified
