package types

import "vortexgfx/shader/glsl/ast"

// The component layout qualifier and the locations of block members.
// spec: GLSL 4.40 §4.4.1 (location and component on inputs and outputs,
// block member locations), ARB_enhanced_layouts

// checkComponent checks layout(component = N) on a declaration of type t:
// it needs an explicit location, a scalar or vector type (or an array of
// one; not a matrix, struct or block) and may not run past component 3.
func (c *checker) checkComponent(q *ast.Qualifiers, t *ast.Type, pos ast.Pos) {
	if !hasLayout(q, "component") || t.IsInvalid() {
		return
	}
	comp := layoutValue(q, "component")
	if comp < 0 {
		return // layoutInt reported it
	}
	if !hasLayout(q, "location") {
		c.errorf(pos, "layout(component) requires an explicit location")
		return
	}
	if comp > 3 {
		c.errorf(pos, "layout(component = %d) must be 0 to 3", comp)
		return
	}
	et := t
	for et.IsArray() {
		et = et.Elem
	}
	if !et.IsScalar() && !et.IsVector() {
		c.errorf(pos, "layout(component) is only allowed on scalars, vectors and arrays of them, not %s", t)
		return
	}
	if n := et.Components(); comp+n > 4 {
		c.errorf(pos, "layout(component = %d) on %s runs past the fourth component of its location", comp, t)
	}
}

// InterfaceLocations returns how many locations a variable of type t takes
// as an input or output: one per scalar or vector (doubles aside), one per
// matrix column, per array element and per struct member.
// spec: GLSL 4.40 §4.4.1
func InterfaceLocations(t *ast.Type) int {
	switch {
	case t.IsArray():
		return max(t.Len, 1) * InterfaceLocations(t.Elem)
	case t.IsStruct():
		n := 0
		for _, f := range t.Struct.Fields {
			n += InterfaceLocations(f.Type)
		}
		return n
	case t.IsMatrix():
		return t.Cols
	}
	return 1
}

// assignMemberLocations gives the members of an in/out block their
// locations: a member's own layout(location), else the location after the
// previous member's, starting at the block's location; without any
// location on the block or before a member, the member has none.
// spec: GLSL 4.40 §4.4.1 ("If a block has a block-level location ...")
func (c *checker) assignMemberLocations(d *ast.BlockDecl, b *ast.InterfaceBlock) {
	next := layoutValue(&d.Qual, "location")
	if hasLayout(&d.Qual, "component") {
		c.errorf(d.NamePos, "layout(component) is not allowed on a block")
	}
	explicit := 0
	for _, m := range b.Members {
		if hasLayout(&m.Qual, "location") {
			explicit++
		}
	}
	arrayed := b.InstanceVar != nil && b.InstanceVar.Type.IsArray() &&
		!(c.conf.Stage == ast.StageGeometry && d.Qual.Storage == ast.StorageIn)
	if explicit > 0 && arrayed {
		c.errorf(d.NamePos, "members of the block array '%s' cannot have locations", b.InstanceVar.Name)
	}
	for _, m := range b.Members {
		if next < 0 && explicit > 0 && !hasLayout(&m.Qual, "location") {
			// "If a block has no block-level location layout qualifier, it
			// is required that either all or none of its members have a
			// location layout qualifier"
			c.errorf(m.DeclPos, "block member '%s' needs a location: its block has none and other members have one", m.Name)
		}
		l, comp := -1, -1
		for _, lq := range m.Qual.Layout {
			switch lq.Name {
			case "location":
				l = c.layoutInt(lq)
			case "component":
				comp = c.layoutInt(lq)
			}
		}
		if l >= 0 {
			if !c.hasEnhancedLayouts() {
				c.errorf(m.DeclPos, "layout(location) on a block member requires GLSL 4.40 or %s", ExtEnhancedLayouts)
			}
			next = l
		}
		m.Component = max(comp, 0)
		if comp >= 0 {
			if !c.hasEnhancedLayouts() {
				c.errorf(m.DeclPos, "layout(component) requires GLSL 4.40 or %s", ExtEnhancedLayouts)
			}
			q := m.Qual
			if next >= 0 && !hasLayout(&q, "location") {
				q.Layout = append(append([]ast.LayoutQual(nil), q.Layout...), ast.LayoutQual{Name: "location"})
			}
			c.checkComponent(&q, m.Type, m.DeclPos)
		}
		if next < 0 {
			continue
		}
		m.Location = next
		next += InterfaceLocations(m.Type)
	}
	if v := b.InstanceVar; v != nil {
		v.Location = layoutValue(&d.Qual, "location")
	}
}
